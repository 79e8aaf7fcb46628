"""``manage.py invite PLAYER``: the same service as the admin's action, the link printed last,
absolute from ``--base-url`` or ``SITE_URL``."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from ratings.accounts.models import Invitation
from ratings.models import AuditAction, AuditEntry, Player
from ratings.models.api_tokens import token_digest
from tests.builders import run_command

pytestmark = pytest.mark.django_db


def test_the_command_prints_a_link_that_opens_the_invitation(pedja):
    output = run_command("invite", "pedja", base_url="http://testserver/")

    link = output.strip().splitlines()[-1]
    assert link.startswith("http://testserver/invitations/")
    token = link.rstrip("/").rsplit("/", 1)[-1]
    invitation = Invitation.objects.get(digest=token_digest(token))
    assert invitation.player == pedja
    assert invitation.invited_by is None
    assert AuditEntry.objects.filter(action=AuditAction.INVITE, player=pedja).exists()
    assert "<strong>Pedja</strong>" in Client().get(link).content.decode()


def test_the_command_takes_a_name_and_the_site_url_setting(pedja, settings):
    settings.SITE_URL = "https://club.example.org"

    output = run_command("invite", "PEDJA")

    assert output.strip().splitlines()[-1].startswith("https://club.example.org/invitations/")


def test_the_command_without_an_address_invites_nobody(pedja, settings):
    settings.SITE_URL = ""

    with pytest.raises(CommandError, match="SITE_URL or pass --base-url"):
        call_command("invite", "pedja")
    assert not Invitation.objects.exists()


def test_the_command_refuses_an_unknown_player_or_one_with_a_login(pedja, member_user):
    with pytest.raises(CommandError, match="No player 'nobody'"):
        call_command("invite", "nobody", base_url="https://club.example.org")
    Player.objects.filter(pk=pedja.pk).update(user=member_user)
    with pytest.raises(CommandError, match="Pedja already has a login"):
        call_command("invite", "pedja", base_url="https://club.example.org")
    assert not Invitation.objects.exists()
