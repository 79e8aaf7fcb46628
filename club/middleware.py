"""The club's own middleware: small guards around every request and response."""

from __future__ import annotations

import io
from collections.abc import Callable

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.shortcuts import render
from django.utils import translation
from django.utils.translation import ngettext

from ratings.api.errors import error_body

# Where the API answers (club/urls.py): its refusals are JSON.
API_PREFIX = "/api/"

GetResponse = Callable[[HttpRequest], HttpResponseBase]


def cookie_flags(get_response: GetResponse) -> GetResponse:
    """Every cookie leaves with the session cookie's Secure flag and a SameSite attribute.

    Django's settings cover the cookies it sets (SESSION_, CSRF_, LANGUAGE_COOKIE_*), but not the
    headers that delete them (``delete_cookie`` writes no Secure flag), nor a cookie a library
    may add later: this catches every one on its way out.
    """

    def middleware(request: HttpRequest) -> HttpResponseBase:
        response = get_response(request)
        for morsel in response.cookies.values():
            if settings.SESSION_COOKIE_SECURE:
                morsel["secure"] = True
            if not morsel["samesite"]:
                morsel["samesite"] = settings.SESSION_COOKIE_SAMESITE
        return response

    return middleware


def request_size_limit(get_response: GetResponse) -> GetResponse:
    """Refuse a request whose body is larger than MAX_REQUEST_BYTES with 413, before reading it.

    Django caps form fields (DATA_UPLOAD_MAX_MEMORY_SIZE) but streams uploaded files of any size
    to disk, so a 50 MB multipart post to the login page was read to the end. The largest body
    the club wants is a rayter file (RAYTER_UPLOAD_MAX_BYTES) with its form around it. A body
    without Content-Length is not read at all under WSGI (Django reads as many bytes as the
    header says); under ASGI :func:`limit_asgi_body` counts it as it arrives.
    """

    def middleware(request: HttpRequest) -> HttpResponseBase:
        if _declared_length(request.META.get("CONTENT_LENGTH")) > settings.MAX_REQUEST_BYTES:
            return too_large(request)
        return get_response(request)

    return middleware


def too_large(request: HttpRequest) -> HttpResponse:
    """The 413 for a body over MAX_REQUEST_BYTES: the API's one error shape under /api/, the
    413 page elsewhere. Both the middleware (WSGI) and :func:`limit_asgi_body` answer with it."""
    limit = settings.MAX_REQUEST_BYTES
    if request.path.startswith(API_PREFIX):
        # A client of the API reads every refusal in its one shape, not a page.
        message = ngettext(
            "The body is over %(limit)s byte.", "The body is over %(limit)s bytes.", limit
        ) % {"limit": limit}
        return JsonResponse(
            error_body(message), status=413, content_type="application/json; charset=utf-8"
        )
    return render(request, "413.html", {"max_bytes": limit}, status=413)


def _declared_length(header: str | bytes | None) -> int:
    """The Content-Length header as a number; 0 when missing or not a number, as Django reads it."""
    try:
        return max(0, int(header or 0))
    except ValueError:
        return 0


def limit_asgi_body(app):
    """An ASGI application that refuses bodies larger than MAX_REQUEST_BYTES with 413.

    Django's ASGI handler reads the whole body, of any size, before the first middleware runs;
    this stops it at the limit, whether the size was declared or the body is streamed in chunks,
    and answers as the middleware does (:func:`too_large`).
    """

    async def limited(scope, receive, send):
        if scope["type"] != "http":
            return await app(scope, receive, send)
        limit = settings.MAX_REQUEST_BYTES
        headers = dict(scope.get("headers") or [])
        if _declared_length(headers.get(b"content-length")) > limit:
            return await _refuse(scope, send)
        received = 0
        over_limit = started = False

        async def counting_receive():
            nonlocal received, over_limit
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    # Django stops reading at a disconnect and sends nothing; the 413 follows.
                    over_limit = True
                    return {"type": "http.disconnect"}
            return message

        async def watching_send(message):
            nonlocal started
            started = True
            await send(message)

        await app(scope, counting_receive, watching_send)
        if over_limit and not started:
            await _refuse(scope, send)

    return limited


async def _refuse(scope, send) -> None:
    """Send :func:`too_large`'s answer, in the visitor's language, without reading the body.

    No middleware has run: the request has no body, the language comes from the cookie or the
    Accept-Language header as LocaleMiddleware would take it, and the page is drawn for a
    visitor (a refusal opens no session)."""
    request = ASGIRequest(scope, io.BytesIO())
    request.user = AnonymousUser()

    def answer() -> HttpResponse:
        with translation.override(translation.get_language_from_request(request)):
            return too_large(request)

    response = await sync_to_async(answer)()
    headers = [
        (name.encode("latin-1"), value.encode("latin-1")) for name, value in response.items()
    ]
    await send({"type": "http.response.start", "status": response.status_code, "headers": headers})
    await send({"type": "http.response.body", "body": response.content})
