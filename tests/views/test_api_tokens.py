"""A member's API tokens: made on their page or by the command, shown once, stored hashed,
revoked by their member only."""

import hashlib

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from ratings.models import ApiToken

pytestmark = pytest.mark.django_db


def test_a_member_makes_a_token_shown_once_and_stored_hashed(member_client, member_user):
    url = reverse("ratings:api_tokens")
    response = member_client.post(url, {"name": "Ana's phone"}, follow=True)
    assert response.redirect_chain == [(url, 302)]
    token = response.context["new_token"]
    assert token.startswith("club_") and len(token) > 40
    assert token.encode() in response.content
    row = ApiToken.objects.get(user=member_user)
    assert row.digest == hashlib.sha256(token.encode()).hexdigest()
    assert token not in {row.digest, row.hint, row.name}
    again = member_client.get(url)
    assert token.encode() not in again.content
    assert b"Ana&#x27;s phone" in again.content


def test_reloading_the_page_after_making_a_token_makes_no_second_one(member_client, member_user):
    url = reverse("ratings:api_tokens")
    shown = member_client.post(url, {"name": "Phone"}, follow=True)
    assert b'data-copy="new-token"' in shown.content  # the copy button, for the shown token
    member_client.get(url)  # the reload: a GET, as the page the creation redirected to
    assert ApiToken.objects.filter(user=member_user).count() == 1


def test_each_device_keeps_its_own_token(member_client, member_user):
    for name in ("Phone", "Tablet"):
        member_client.post(reverse("ratings:api_tokens"), {"name": name})
    assert ApiToken.objects.filter(user=member_user).active().count() == 2


def test_the_token_page_shows_when_a_token_was_last_used(member_client, member_user):
    _row, token = ApiToken.objects.create_for(member_user, "Bot")
    page = member_client.get(reverse("ratings:api_tokens"))
    assert b"never" in page.content
    member_client.get("/api/v1/leagues", headers={"Authorization": f"Bearer {token}"})
    assert ApiToken.objects.get().last_used_at is not None


def test_a_member_revokes_their_token(member_client, member_user):
    row, token = ApiToken.objects.create_for(member_user, "Lost phone")
    response = member_client.post(reverse("ratings:api_token_revoke", args=[row.pk]))
    assert response.status_code == 302
    assert ApiToken.objects.authenticate(token) is None


def test_nobody_revokes_another_members_token(member_client, django_user_model):
    other = django_user_model.objects.create_user("other")
    row, token = ApiToken.objects.create_for(other, "Theirs")
    response = member_client.post(reverse("ratings:api_token_revoke", args=[row.pk]))
    assert response.status_code == 404
    assert ApiToken.objects.authenticate(token) is not None


def test_visitors_are_sent_to_the_login(client):
    response = client.get(reverse("ratings:api_tokens"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_the_command_prints_the_token_last(member_user, capsys):
    call_command("api_token", "create", "member", "--name", "Telegram bot")
    token = capsys.readouterr().out.splitlines()[-1]
    row = ApiToken.objects.authenticate(token)
    assert (row.user, row.name) == (member_user, "Telegram bot")
    call_command("api_token", "list", "member")
    assert "Telegram bot" in capsys.readouterr().out
    call_command("api_token", "revoke", str(row.pk))
    assert ApiToken.objects.authenticate(token) is None


def test_the_command_refuses_an_unknown_user(db):
    with pytest.raises(CommandError, match="No user"):
        call_command("api_token", "create", "nobody", "--name", "Bot")
