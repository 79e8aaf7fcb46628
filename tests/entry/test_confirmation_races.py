"""Confirmation under races, on PostgreSQL with real threads (each its own connection): two
confirmations at once, confirm against dispute, against the member's delete, against the
worker's auto-confirm and against a merge of a seated player. Exactly one outcome each time,
and nothing is rated twice."""

from __future__ import annotations

import threading
import uuid
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.db import connection, connections
from django.utils import timezone

from ratings import engine, entry
from ratings.entry import confirmation
from ratings.entry.models import HeldGame, HeldStatus
from ratings.models import Game, Standing
from ratings.models.leagues import Confirmation
from tests.builders import make_league, make_players

pytestmark = pytest.mark.django_db(transaction=True)

PAPERS = [(10, -4, 20), (30, 2, 0), (0, 2, 10)]


@pytest.fixture(autouse=True)
def _postgresql_only():
    if connection.vendor != "postgresql":
        pytest.skip("concurrency is tested on PostgreSQL (set DATABASE_URL)")


@pytest.fixture
def table():
    """Every seat a member's; Ana entered the game, Bora and Ceca may each confirm it."""
    league = make_league(confirmation=Confirmation.ANOTHER_SEAT)
    players = make_players(["Ana", "Bora", "Ceca"])
    users = []
    for player in players:
        user = User.objects.create_user(player.name.lower())
        player.user = user
        player.save(update_fields=["user"])
        users.append(user)
    seats = tuple(
        entry.SeatIn(player=p.name, left=left, middle=middle, right=right)
        for p, (left, middle, right) in zip(players, PAPERS, strict=True)
    )
    submission = entry.Submission(
        league=league,
        played_at=timezone.now() - timedelta(hours=1),
        seats=seats,
        bula=30,
        key=uuid.uuid4(),
    )
    held, _created = entry.submit(entry.check(submission), entered_by=users[0])
    return held, players, users


def all_at_once(*acts) -> list:
    """Run each act in its own thread and connection, all released at once: what each
    returned, or the exception it raised."""
    start = threading.Barrier(len(acts))
    outcomes: list = [None] * len(acts)

    def run(n, act):
        start.wait()
        try:
            outcomes[n] = act()
        except Exception as error:  # noqa: BLE001 (the outcome under test)
            outcomes[n] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(n, act)) for n, act in enumerate(acts)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads), "a thread hung: deadlock?"
    return outcomes


def _rated_once(league) -> None:
    assert Game.objects.filter(league=league).count() == 1
    assert set(Standing.objects.filter(league=league).values_list("games", flat=True)) == {1}


def test_two_confirmations_at_once_record_one_game(table):
    held, _players, (_ana, bora, ceca) = table
    outcomes = all_at_once(
        lambda: confirmation.confirm(held, user=bora),
        lambda: confirmation.confirm(held, user=ceca),
    )
    assert sum(isinstance(o, HeldGame) for o in outcomes) >= 1
    assert all(isinstance(o, HeldGame | entry.NotWaiting) for o in outcomes), outcomes
    held.refresh_from_db()
    assert held.status == HeldStatus.CONFIRMED
    _rated_once(held.league)


def test_confirm_against_dispute_is_one_or_the_other(table):
    held, _players, (_ana, bora, ceca) = table
    outcomes = all_at_once(
        lambda: confirmation.confirm(held, user=bora),
        lambda: confirmation.dispute(held, user=ceca, note="wrong"),
    )
    held.refresh_from_db()
    if held.status == HeldStatus.CONFIRMED:
        assert isinstance(outcomes[1], entry.NotWaiting)
        _rated_once(held.league)
    else:
        assert held.status == HeldStatus.DISPUTED
        assert isinstance(outcomes[0], entry.NotWaiting)
        assert not Game.objects.exists()


def test_confirm_against_delete_and_auto_confirm(table):
    held, _players, (ana, bora, _ceca) = table
    HeldGame.objects.filter(pk=held.pk).update(confirm_by=timezone.now() - timedelta(seconds=1))
    outcomes = all_at_once(
        lambda: confirmation.confirm(held, user=bora),
        lambda: confirmation.auto_confirm(held),
        lambda: confirmation.withdraw(held, user=ana),
    )
    held.refresh_from_db()
    if held.status == HeldStatus.WITHDRAWN:
        assert not Game.objects.exists()
    else:
        assert held.status == HeldStatus.CONFIRMED
        _rated_once(held.league)
    assert not any(isinstance(o, entry.NotAllowed) for o in outcomes), outcomes


def test_confirm_against_a_merge_of_a_seated_player(table):
    held, players, (_ana, bora, _ceca) = table
    twin = make_players(["Ceca Twin"])[0]
    outcomes = all_at_once(
        lambda: confirmation.confirm(held, user=bora),
        lambda: engine.player_merge(source=players[2], target=twin),
    )
    assert not any(isinstance(o, Exception) for o in outcomes), outcomes
    held.refresh_from_db()
    assert held.status == HeldStatus.CONFIRMED
    _rated_once(held.league)
    assert held.game.results.get(seat=2).player == twin
