"""Every cookie the club sends is Secure, SameSite=Lax and, unless scripts may read it, HttpOnly.

A member's visit is walked over HTTPS with the settings club/settings.py makes with DEBUG off
(the test settings are the production ones there), and every Set-Cookie header of every
response is read: the CSRF token, the session, the language, the messages, and the headers that
delete them, which Django writes without Secure unless told.
"""

from http.cookies import Morsel

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tests.builders import PASSWORD

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fast_passwords")]

# What a script may read: Django's CSRF token (the pages send it from their forms, but the
# cookie is readable by design; HttpOnly on it adds nothing, says Django's documentation).
SCRIPT_READABLE = {settings.CSRF_COOKIE_NAME}


def a_members_visit(client: Client) -> list[Morsel]:
    """Log in, change the language, add a player (a message), read it, log out: every cookie."""
    steps = [
        lambda: client.get(reverse("login")),
        lambda: client.post(reverse("login"), {"username": "member", "password": PASSWORD}),
        lambda: client.post(reverse("set_language"), {"language": "sr-latn", "next": "/"}),
        lambda: client.post(reverse("ratings:player_new"), {"name": "Newcomer"}),
        lambda: client.get(reverse("ratings:home")),  # shows the message: its cookie is deleted
        lambda: client.post(reverse("logout")),  # the session cookie is deleted
    ]
    morsels = []
    for step in steps:
        response = step()
        assert response.status_code in (200, 302), response.status_code
        morsels.extend(response.cookies.values())
    return morsels


def test_every_cookie_is_secure_samesite_lax_and_httponly(member_user):
    assert not settings.DEBUG  # the production settings

    morsels = a_members_visit(Client(secure=True))

    names = {morsel.key for morsel in morsels}
    assert names >= {
        settings.CSRF_COOKIE_NAME,
        settings.SESSION_COOKIE_NAME,
        settings.LANGUAGE_COOKIE_NAME,
        "messages",
    }
    for morsel in morsels:
        header = morsel.OutputString()
        assert morsel["secure"] is True, header
        assert morsel["samesite"] == "Lax", header
        if morsel.value and morsel.key not in SCRIPT_READABLE:  # a deletion has no value
            assert morsel["httponly"] is True, header


def test_deleting_a_cookie_keeps_its_flags(member_client):
    response = member_client.post(reverse("logout"), secure=True)

    deleted = response.cookies[settings.SESSION_COOKIE_NAME]
    assert deleted.value == ""
    assert (deleted["secure"], deleted["samesite"]) == (True, "Lax")


def test_cookies_are_not_secure_in_development(member_user, settings):
    """DEBUG serves plain http://127.0.0.1, where a browser would drop a Secure cookie."""
    settings.SESSION_COOKIE_SECURE = settings.CSRF_COOKIE_SECURE = False
    settings.LANGUAGE_COOKIE_SECURE = False

    morsels = a_members_visit(Client())

    assert all(not morsel["secure"] for morsel in morsels)
    assert all(morsel["samesite"] == "Lax" for morsel in morsels)
