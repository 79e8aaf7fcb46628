"""The club's own middleware: small guards around every request and response."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase

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
