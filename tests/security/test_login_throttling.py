"""Login throttling (django-axes): five wrong passwords lock that username from that address.

The lockout is per (username, address) pair, so a guesser cannot lock the whole club out, and
lasts 15 minutes. Tests log in through the real login form, with a request, as a browser does.
"""

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.test import Client
from django.urls import reverse

from tests.builders import PASSWORD, WRONG, fail_five_times, log_in

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fast_passwords")]


def is_logged_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def test_a_correct_password_logs_in(client, member_user):
    response = log_in(client, "member", PASSWORD)

    assert response.status_code == 302
    assert is_logged_in(client)


def test_five_failed_logins_lock_the_account_even_with_the_right_password(client, member_user):
    statuses = fail_five_times(client, "member")
    response = log_in(client, "member", PASSWORD)

    # The first four show the form again; the fifth reaches the limit and is refused already.
    assert statuses == [200, 200, 200, 200, 429]
    assert response.status_code == 429
    assert not is_logged_in(client)
    page = response.content.decode()
    assert "Too many failed logins" in page
    assert "Try again in 15 minutes" in page


def test_a_locked_out_user_does_not_lock_out_another_member(client, member_user, staff_user):
    fail_five_times(client, "member")

    other = log_in(client, "staff", PASSWORD)

    assert other.status_code == 302
    assert is_logged_in(client)


def test_the_lockout_is_per_address_too(client, member_user):
    fail_five_times(client, "member", REMOTE_ADDR="203.0.113.7")

    response = log_in(client, "member", PASSWORD, REMOTE_ADDR="198.51.100.2")

    assert response.status_code == 302


def test_the_lockout_ends_after_fifteen_minutes(client, member_user):
    fail_five_times(client, "member")
    AccessAttempt.objects.update(
        attempt_time=AccessAttempt.objects.get().attempt_time - timedelta(minutes=16)
    )

    response = log_in(client, "member", PASSWORD)

    assert response.status_code == 302


def test_a_successful_login_forgets_earlier_failures(client, member_user):
    for _ in range(4):
        log_in(client, "member", WRONG)
    assert log_in(client, "member", PASSWORD).status_code == 302
    client.logout()

    statuses = [log_in(client, "member", WRONG).status_code for _ in range(4)]

    assert statuses == [200] * 4
    assert log_in(client, "member", PASSWORD).status_code == 302


def test_the_admin_login_is_throttled_too(client, staff_user):
    url = reverse("admin:login")
    for _ in range(5):
        client.post(url, {"username": "staff", "password": WRONG})

    response = client.post(url, {"username": "staff", "password": PASSWORD})

    assert response.status_code == 429
    assert not is_logged_in(client)
