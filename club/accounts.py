"""Accounts: Django's own views, with password reset only where the club can send email.

A reset link goes out by email. Without a mail server (no EMAIL_HOST) Django's reset form would
log the failure and still tell the member the link was sent; so without one the reset pages
answer 404 and the login page says the club's staff set new passwords instead.
"""

from __future__ import annotations

from functools import wraps

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.http import Http404


def email_configured() -> bool:
    """Whether the club can send email: EMAIL_HOST is set (see club/settings.py)."""
    return bool(settings.EMAIL_HOST)


def needs_email(view):
    """The view, or a 404 while the club cannot send email (checked on every request)."""

    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if not email_configured():
            raise Http404("Password reset needs email: EMAIL_HOST is not set")
        return view(request, *args, **kwargs)

    return wrapped


class LoginView(auth_views.LoginView):
    """Django's login; its page links to the password reset when there is one."""

    def get_context_data(self, **kwargs):
        return {**super().get_context_data(**kwargs), "password_reset": email_configured()}
