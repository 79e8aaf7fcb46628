"""Invitations and claims in backup_club and restore_club: they come back exactly (a digest,
never a token), and a link made before the backup still opens after the restore."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from ratings.accounts import services
from ratings.accounts.models import Invitation, PlayerClaim
from ratings.models import AuditEntry
from tests.builders import make_player

ACCOUNT_MODELS = (Invitation, PlayerClaim, AuditEntry)


def account_rows() -> dict[str, list]:
    rows = {}
    for model in ACCOUNT_MODELS:
        fields = [field.attname for field in model._meta.concrete_fields]
        rows[model.__name__] = list(model.objects.order_by("pk").values_list(*fields))
    return rows


@pytest.mark.django_db(transaction=True)
def test_invitations_and_claims_are_backed_up_and_restored_exactly(tmp_path):
    users = get_user_model().objects
    staff = users.create_user("staff", password="pw-for-tests-only", is_staff=True)
    member = users.create_user("member", password="pw-for-tests-only")
    pedja, marko, ana = (make_player(name) for name in ("Pedja", "Marko", "Ana"))
    used, _token = services.invitation_create(player=pedja, actor=staff)
    services.invitation_accept(invitation=used, username="pedja", password="a-long-one-for-pedja")
    _open, token = services.invitation_create(player=marko, actor=staff)
    services.claim_create(user=member, player=ana, note="Fridays")
    expected = account_rows()
    backup = tmp_path / "club.json"

    call_command("backup_club", str(backup), stdout=StringIO())
    assert token not in backup.read_text()
    call_command("flush", interactive=False, verbosity=0)
    assert not Invitation.objects.exists()
    call_command("restore_club", str(backup), stdout=StringIO())

    assert account_rows() == expected
    page = Client().get(reverse("ratings:invitation", args=[token]))
    assert "<strong>Marko</strong>" in page.content.decode()
