"""Error pages that say what happened in the club's own layout.

Django renders 400, 403 and 404 with the request, so ``templates/400.html`` and friends need no
view here. These three cases need one: a server error must not touch the database (it may be
what failed), a CSRF failure should tell a member how to get their paper back, and a login
lockout should say for how long.
"""

from __future__ import annotations

from axes.helpers import get_cool_off
from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseServerError
from django.shortcuts import render
from django.template.loader import render_to_string


def server_error(request: HttpRequest) -> HttpResponse:
    """The 500 page: rendered without the request, whose user and session need the database."""
    return HttpResponseServerError(render_to_string("500.html", {"club_name": settings.CLUB_NAME}))


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A form posted without a valid CSRF token (an expired page, cookies off): 403."""
    return render(request, "403_csrf.html", status=403)


def login_locked_out(request: HttpRequest, original_response=None, credentials=None):
    """django-axes' lockout response: 429 with how long until the next try (AXES_* settings)."""
    cool_off = get_cool_off(request)
    minutes = max(1, round(cool_off.total_seconds() / 60)) if cool_off else None
    return render(request, "registration/locked_out.html", {"minutes": minutes}, status=429)
