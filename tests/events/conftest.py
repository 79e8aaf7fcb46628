"""Fixtures of the page tests that several modules share: a Preferans league's club night of
nine players and its organiser."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.test import Client

from ratings.events.models import Scoring
from ratings.models import System
from tests.builders import PASSWORD, make_event, make_league, make_players


@pytest.fixture
def league():
    return make_league(System.PREFKO, name="Friday", provisional_games=0)


@pytest.fixture
def nine(league):
    return make_players(
        ["Ana", "Bojan", "Dragan", "Jelena", "Marko", "Milica", "Nikola", "Pedja", "Vesna"]
    )


@pytest.fixture
def organiser(django_user_model):
    """A plain member given the right to run events."""
    user = django_user_model.objects.create_user("organiser", password=PASSWORD)
    user.user_permissions.add(Permission.objects.get(codename="run_events"))
    return user


@pytest.fixture
def organiser_client(organiser) -> Client:
    client = Client()
    client.force_login(organiser)
    return client


@pytest.fixture
def night(league, nine, organiser):
    return make_event(
        league, nine, organiser=organiser, rounds_total=4, scoring=Scoring.PREFERANS_ORG
    )
