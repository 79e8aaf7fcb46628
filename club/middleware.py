"""The club's own middleware: small guards around every request and response."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

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
        limit = settings.MAX_REQUEST_BYTES
        if _declared_length(request.META.get("CONTENT_LENGTH")) > limit:
            if request.path.startswith(API_PREFIX):
                # A client of the API reads every refusal in its one shape, not a page.
                message = _("The body is over %(limit)s bytes.") % {"limit": limit}
                return JsonResponse(
                    error_body(message), status=413, content_type="application/json; charset=utf-8"
                )
            return render(request, "413.html", {"max_bytes": limit}, status=413)
        return get_response(request)

    return middleware


def _declared_length(header: str | bytes | None) -> int:
    """The Content-Length header as a number; 0 when missing or not a number, as Django reads it."""
    try:
        return max(0, int(header or 0))
    except ValueError:
        return 0


def limit_asgi_body(app):
    """An ASGI application that refuses bodies larger than MAX_REQUEST_BYTES with a bare 413.

    Django's ASGI handler reads the whole body, of any size, before the first middleware runs;
    this stops it at the limit, whether the size was declared or the body is streamed in chunks.
    """

    async def limited(scope, receive, send):
        if scope["type"] != "http":
            return await app(scope, receive, send)
        limit = settings.MAX_REQUEST_BYTES
        headers = dict(scope.get("headers") or [])
        if _declared_length(headers.get(b"content-length")) > limit:
            return await _refuse(send)
        received = 0
        too_large = started = False

        async def counting_receive():
            nonlocal received, too_large
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    # Django stops reading at a disconnect and sends nothing; the 413 follows.
                    too_large = True
                    return {"type": "http.disconnect"}
            return message

        async def watching_send(message):
            nonlocal started
            started = True
            await send(message)

        await app(scope, counting_receive, watching_send)
        if too_large and not started:
            await _refuse(send)

    return limited


async def _refuse(send) -> None:
    await send({"type": "http.response.start", "status": 413, "headers": []})
    await send({"type": "http.response.body", "body": b""})
