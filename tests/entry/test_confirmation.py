"""Games the table agrees on (ratings.entry.confirmation): held unrated until the other players
confirm, disputed to the staff, deleted by the member who entered them, counted by the worker
after the league's window; every step through the one way in and in the audit trail."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from ratings import engine, entry
from ratings.entry import confirmation, selectors
from ratings.entry.models import HeldGame, HeldStatus
from ratings.models import AuditAction, AuditEntry, Game, Player, Standing
from ratings.models.leagues import Confirmation
from tests.builders import make_league, make_players, run_tasks

pytestmark = pytest.mark.django_db

# A finished bula-30 paper whose columns add up: (left, middle, right) per seat.
PAPERS = [(10, -4, 20), (30, 2, 0), (0, 2, 10)]


@pytest.fixture
def table():
    """A league asking another player's confirmation, three players of whom two are members."""
    league = make_league(confirmation=Confirmation.ANOTHER_SEAT)
    players = make_players(["Ana", "Bora", "Ceca"])
    members = []
    for player in players[:2]:
        user = User.objects.create_user(player.name.lower(), password="x")
        player.user = user
        player.save(update_fields=["user"])
        members.append(user)
    return league, players, members


def submission(league, players, *, key=None, played_at=None, names=None):
    seats = tuple(
        entry.SeatIn(player=name, left=left, middle=middle, right=right)
        for name, (left, middle, right) in zip(
            names or [p.name for p in players], PAPERS, strict=True
        )
    )
    return entry.Submission(
        league=league,
        played_at=played_at or timezone.now() - timedelta(hours=1),
        seats=seats,
        bula=30,
        key=key or uuid.uuid4(),
    )


def enter_held(league, players, user, **kwargs):
    checked = entry.check(submission(league, players, **kwargs))
    assert checked.ok, checked.refusals
    result, created = entry.submit(checked, entered_by=user)
    assert created
    return result


def test_a_members_game_waits_unrated_until_another_seat_confirms(table):
    league, players, (ana, bora) = table
    held = enter_held(league, players, ana)
    assert isinstance(held, HeldGame) and held.status == HeldStatus.PENDING
    assert not Game.objects.exists() and not Standing.objects.exists()
    # Ana entered and sat there: her seat agreed; Bora is asked, Ceca has no login.
    assert [s.name for s in confirmation.who_may_agree(held)] == ["Bora"]
    assert selectors.waiting_for(bora) == [held] and selectors.waiting_for(ana) == []
    assert not confirmation.may_confirm(held, ana)
    with pytest.raises(entry.NotAllowed):
        confirmation.confirm(held, user=ana)

    confirmation.confirm(held, user=bora)
    held.refresh_from_db()
    assert held.status == HeldStatus.CONFIRMED
    game = held.game
    assert game.submission_key == held.key and game.entered_by == ana
    assert Standing.objects.filter(league=league).count() == 3
    actions = list(AuditEntry.objects.order_by("pk").values_list("action", flat=True))
    assert actions == [
        AuditAction.GAME_HOLD,
        AuditAction.GAME_AGREE,
        AuditAction.CREATE,
        AuditAction.GAME_CONFIRM,
    ]
    with pytest.raises(entry.NotWaiting):
        confirmation.confirm(held, user=bora)
    assert Game.objects.count() == 1


def test_every_seat_waits_for_every_other_member(table):
    league, players, (ana, bora) = table
    league.confirmation = Confirmation.EVERY_SEAT
    league.save()
    ceca = User.objects.create_user("ceca", password="x")
    Player.objects.filter(pk=players[2].pk).update(user=ceca)
    held = enter_held(league, players, ana)
    confirmation.confirm(held, user=bora)
    held.refresh_from_db()
    assert held.status == HeldStatus.PENDING and not Game.objects.exists()
    confirmation.confirm(held, user=ceca)
    held.refresh_from_db()
    assert held.status == HeldStatus.CONFIRMED and Game.objects.count() == 1


def test_staff_entries_and_staff_confirmations_count_at_once(table):
    league, players, (ana, bora) = table
    staff = User.objects.create_user("staff", password="x", is_staff=True)
    game = enter_held(league, players, staff)
    assert isinstance(game, Game)
    held = enter_held(league, players, ana, played_at=timezone.now() - timedelta(hours=3))
    confirmation.confirm(held, user=staff)
    held.refresh_from_db()
    assert held.status == HeldStatus.CONFIRMED


def test_a_confirmed_game_is_rated_at_its_own_time(table):
    """Confirmed after a later game: rated before it, the later game re-rated."""
    league, players, (ana, bora) = table
    staff = User.objects.create_user("staff", password="x", is_staff=True)
    held = enter_held(league, players, ana, played_at=timezone.now() - timedelta(days=2))
    later = enter_held(league, players, staff, played_at=timezone.now() - timedelta(days=1))
    first_rating = later.results.get(seat=0).rating_before
    confirmation.confirm(held, user=bora)
    later.refresh_from_db()
    assert later.results.get(seat=0).rating_before != first_rating
    held.refresh_from_db()
    assert list(Game.objects.order_by("played_at")) == [held.game, later]


def test_a_dispute_goes_to_the_staff_unrated(table):
    league, players, (ana, bora) = table
    held = enter_held(league, players, ana)
    with pytest.raises(entry.NotAllowed):
        confirmation.dispute(held, user=ana, note="mine")
    confirmation.dispute(held, user=bora, note="Ceca's middle was 4")
    held.refresh_from_db()
    assert held.status == HeldStatus.DISPUTED and held.dispute_note == "Ceca's middle was 4"
    assert selectors.disputed_count() == 1
    with pytest.raises(entry.NotWaiting):
        confirmation.confirm(held, user=bora)
    assert not Game.objects.exists()
    # Nor does the window make a disputed game count.
    HeldGame.objects.filter(pk=held.pk).update(confirm_by=timezone.now() - timedelta(hours=1))
    assert not confirmation.auto_confirm(held)
    staff = User.objects.create_user("staff", password="x", is_staff=True)
    confirmation.confirm(held, user=staff)
    held.refresh_from_db()
    assert held.status == HeldStatus.CONFIRMED and held.closed_by == staff


def test_the_member_who_entered_it_may_delete_it_while_it_waits(table):
    league, players, (ana, bora) = table
    held = enter_held(league, players, ana)
    with pytest.raises(entry.NotAllowed):
        confirmation.withdraw(held, user=bora)
    confirmation.withdraw(held, user=ana)
    held.refresh_from_db()
    assert held.status == HeldStatus.WITHDRAWN
    with pytest.raises(entry.NotWaiting):
        confirmation.confirm(held, user=bora)
    assert not Game.objects.exists()


def test_the_same_key_again_is_the_same_held_game(table):
    league, players, (ana, _bora) = table
    key = uuid.uuid4()
    held = enter_held(league, players, ana, key=key)
    again, created = entry.submit(entry.check(submission(league, players, key=key)), entered_by=ana)
    assert again == held and not created
    assert HeldGame.objects.count() == 1


def test_new_players_are_created_only_when_the_game_counts(table):
    league, players, (ana, bora) = table
    held = enter_held(league, players, ana, names=["Ana", "Bora", "Zoran Novi"])
    assert not Player.objects.filter(name="Zoran Novi").exists()
    confirmation.confirm(held, user=bora)
    assert Player.objects.filter(name="Zoran Novi").exists()


def test_the_worker_counts_an_undisputed_game_after_the_window(table):
    league, players, (ana, _bora) = table
    held = enter_held(league, players, ana)
    run_tasks()
    held.refresh_from_db()
    assert held.status == HeldStatus.PENDING  # the window has not passed
    HeldGame.objects.filter(pk=held.pk).update(confirm_by=timezone.now() - timedelta(seconds=1))
    run_tasks(due_by=held.confirm_by + timedelta(hours=1))
    held.refresh_from_db()
    assert held.status == HeldStatus.CONFIRMED and held.closed_by is None
    assert Game.objects.count() == 1


def test_a_merge_moves_the_waiting_seats(table):
    league, players, (ana, bora) = table
    held = enter_held(league, players, ana)
    twin = make_players(["Ceca Twin"])[0]
    engine.player_merge(source=players[2], target=twin)
    assert held.seats.get(seat=2).player == twin
    held = confirmation.confirm(held, user=bora)
    assert held.game.results.get(seat=2).player == twin
