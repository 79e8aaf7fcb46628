"""Shared test builders: small functions that make just what a test needs.

Builders are fixtures returning a function, so a test asks for ``make_player`` and calls it as
often as it likes. Games are recorded through :func:`ratings.engine.game_record`, the only writer
of ratings, so every test sees ratings exactly as the app computes them.
"""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation
from django.utils.text import slugify

from ratings import engine
from ratings.models import Game, League, Player, System

T0 = datetime(2026, 1, 1, 20, 0, tzinfo=UTC)
PASSWORD = "pw-for-tests-only"
_numbers = itertools.count(1)


@pytest.fixture(autouse=True)
def _default_language():
    """A request in another language leaves it active in the thread: every test starts afresh."""
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture
def make_player(db):
    """make_player(name=None, **fields) -> Player, with a unique name when none is given."""

    def make(name: str | None = None, **fields) -> Player:
        return Player.objects.create_named(name or f"Player {next(_numbers)}", **fields)

    return make


@pytest.fixture
def make_league(db):
    """make_league(system=PREFKO, name=None, **fields) -> League, slug made from the name."""

    def make(system: str = System.PREFKO, name: str | None = None, **fields) -> League:
        name = name or f"League {next(_numbers)}"
        fields.setdefault("slug", slugify(name))
        return League.objects.create(name=name, system=system, **fields)

    return make


@pytest.fixture
def record_game(db):
    """record_game(league, players, papers=... | scores=..., **game) -> Game, via the engine.

    Preferans games take ``papers`` (left, middle, right) per seat and default to bula 30;
    other games take ``scores``. Without ``played_at`` each game is an hour after the last one.
    """
    hours = itertools.count()

    def record(
        league: League,
        players,
        *,
        papers=None,
        scores=None,
        bula: int | None = None,
        played_at: datetime | None = None,
        **game,
    ) -> Game:
        if papers is not None:
            entries = [
                engine.Entry(player_id=p.pk, paper=tuple(paper))
                for p, paper in zip(players, papers, strict=True)
            ]
            bula = 30 if bula is None else bula
        else:
            entries = [
                engine.Entry(player_id=p.pk, score=score)
                for p, score in zip(players, scores, strict=True)
            ]
        return engine.game_record(
            league=league,
            played_at=played_at or T0 + timedelta(hours=next(hours)),
            entries=entries,
            bula=bula,
            **game,
        )

    return record


# Users: a visitor (pytest-django's ``client``), a member, and staff ----------------------------


@pytest.fixture
def member_user(django_user_model):
    return django_user_model.objects.create_user("member", password=PASSWORD)


@pytest.fixture
def staff_user(django_user_model):
    return django_user_model.objects.create_user("staff", password=PASSWORD, is_staff=True)


@pytest.fixture
def member_client(member_user) -> Client:
    client = Client()
    client.force_login(member_user)
    return client


@pytest.fixture
def staff_client(staff_user) -> Client:
    client = Client()
    client.force_login(staff_user)
    return client
