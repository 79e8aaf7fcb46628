"""Fixtures of the accounts' tests: a player with an open invitation, and staff who may
invite and decide claims."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.test import Client

from ratings.accounts import services
from tests.builders import PASSWORD, make_player


@pytest.fixture
def pedja(db):
    return make_player("Pedja")


@pytest.fixture
def invited(pedja):
    """(invitation, token): an open invitation to Pedja."""
    return services.invitation_create(player=pedja)


@pytest.fixture
def clerk(django_user_model):
    """Staff who may invite, withdraw invitations and decide claims (and nothing else)."""
    user = django_user_model.objects.create_user("clerk", password=PASSWORD, is_staff=True)
    codenames = [
        "view_player",
        "change_player",
        "add_invitation",
        "view_invitation",
        "delete_invitation",
        "view_playerclaim",
        "change_playerclaim",
    ]
    user.user_permissions.add(*Permission.objects.filter(codename__in=codenames))
    return user


@pytest.fixture
def clerk_client(clerk) -> Client:
    client = Client()
    client.force_login(clerk)
    return client
