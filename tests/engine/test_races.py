"""Two people doing the same thing at the same moment, with real parallel clients on PostgreSQL.

Each race is made to happen every time, not by luck: the test holds a lock the requests need
(the league's row, or a player row it has not committed yet), starts the requests, waits until
PostgreSQL shows them all waiting, and lets go. Deterministic versions of the same races on
SQLite are in tests/engine/test_engine.py and tests/admin/test_admin.py.
"""

from __future__ import annotations

import threading
import time
import uuid
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.urls import reverse

from ratings import engine
from ratings.events.models import Event
from ratings.models import AuditEntry, Game, League, Player, System
from tests import builders
from tests.builders import T0, Browser, hidden
from tests.replays import assert_unchanged_by_recompute
from tests.worked_example import SMALL_PAPERS

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _postgresql_only():
    if connection.vendor != "postgresql":
        pytest.skip("real parallel clients are tested on PostgreSQL (set DATABASE_URL)")


def wait_for_waiters(count: int) -> None:
    """Wait until ``count`` other connections are waiting for a lock (at most 30 s)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with connection.cursor() as cursor:
            # pg_stat_activity is read once per transaction unless told to read it afresh.
            cursor.execute("SELECT pg_stat_clear_snapshot()")
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                " AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
            )
            (waiting,) = cursor.fetchone()
        if waiting >= count:
            return
        time.sleep(0.02)
    pytest.fail(f"{count} requests should be waiting for a lock, {waiting} are")


class Request(threading.Thread):
    """One browser's POST, in its own thread: ``status`` and ``page`` once joined."""

    def __init__(self, browser: Browser, path: str, data: dict):
        super().__init__()
        self.browser, self.path, self.data = browser, path, data
        self.status, self.page, self.error = None, "", None

    def run(self):
        try:
            self.status, self.page = self.browser.post(self.path, self.data)
        except BaseException as error:  # reported by the test
            self.error = error
        finally:
            connection.close()

    def result(self) -> int:
        self.join(timeout=60)
        assert not self.is_alive(), "a request hung: deadlock?"
        assert self.error is None, self.error
        return self.status


def members(live_server, django_user_model, count: int) -> list[Browser]:
    return [
        Browser(live_server.url, django_user_model.objects.create_user(f"member{n}"))
        for n in range(count)
    ]


def staff(live_server, django_user_model, count: int) -> list[Browser]:
    return [
        Browser(
            live_server.url,
            django_user_model.objects.create_superuser(f"staff{n}", f"staff{n}@example.org"),
        )
        for n in range(count)
    ]


# Two forms creating the same new player ---------------------------------------------------------


def previewed_paper(browser: Browser, path: str, names, minute: int) -> dict:
    """A paper filled in and previewed: the data its Save button posts."""
    browser.get(path)
    data = {
        "submission_key": str(uuid.uuid4()),
        "played_at": (T0 + timedelta(minutes=minute)).strftime("%Y-%m-%dT%H:%M"),
        "bula": "30",
    }
    for seat, (name, paper) in enumerate(zip(names, SMALL_PAPERS, strict=True)):
        data[f"player_{seat}"] = name
        data[f"left_{seat}"], data[f"middle_{seat}"], data[f"right_{seat}"] = paper
    status, page = browser.post(path, {**data, "preview": "1"})
    assert status == 200
    return {**data, "previewed": hidden(page, "previewed"), "save": "1"}


@pytest.mark.parametrize(
    ("first", "second"),
    [("Sluggy 0", "Sluggy 0"), ("Sluggy 0", "SLUGGY 0"), ("Sluggy 0!", "Sluggy 0?")],
)
def test_two_games_saved_at_once_with_the_same_new_player(
    live_server, django_user_model, first, second
):
    league = League.objects.create(name="Preferans", slug="preferans", system=System.PREFKO)
    for name in ("Pedja", "Marko", "Johnny", "Ana"):
        Player.objects.create_named(name)
    path = reverse("ratings:game_new", args=[league.slug])
    ana, bob = members(live_server, django_user_model, 2)
    forms = [
        previewed_paper(ana, path, ["Pedja", "Marko", first], 0),
        previewed_paper(bob, path, ["Johnny", "Ana", second], 1),
    ]

    with transaction.atomic():
        # A third table is saving in this league: both saves must wait for it.
        League.objects.select_for_update().get(pk=league.pk)
        saving_first = Request(ana, path, forms[0])
        saving_first.start()
        wait_for_waiters(1)  # created its new player, waits for the league
        saving_second = Request(bob, path, forms[1])
        saving_second.start()
        wait_for_waiters(2)  # waits for the first one's new player: the race

    assert [saving_first.result(), saving_second.result()] == [302, 302]
    games = list(Game.objects.filter(league=league).order_by("played_at"))
    newcomers = [game.results.get(seat=2).player for game in games]
    if first.lower() == second.lower():
        assert newcomers[0] == newcomers[1]  # one player, in both games
        assert Player.objects.filter(name__iexact=first).count() == 1
    else:
        assert [(p.name, p.slug) for p in newcomers] == [
            (first, "sluggy-0"),
            (second, "sluggy-0-2"),
        ]


@pytest.mark.parametrize(
    ("meanwhile", "typed"), [("Sluggy 0", "Sluggy 0"), ("Sluggy 0!", "Sluggy 0?")]
)
def test_two_members_adding_the_same_player_at_once(
    live_server, django_user_model, meanwhile, typed
):
    path = reverse("ratings:player_new")
    browsers = members(live_server, django_user_model, 2)
    for browser in browsers:
        browser.get(path)

    with transaction.atomic():
        # A third member's new player, not committed yet: both requests must wait for it.
        Player.objects.create_named(meanwhile)
        adding = [Request(browser, path, {"name": typed}) for browser in browsers]
        for request in adding:
            request.start()
        wait_for_waiters(2)

    assert [request.result() for request in adding] == [302, 302]
    added = Player.objects.get(name=typed)
    if meanwhile == typed:
        assert Player.objects.count() == 1
    else:
        assert added.slug == "sluggy-0-2"
        assert Player.objects.count() == 2


# Two staff acting on one game -------------------------------------------------------------------

GONE = "This game was changed or deleted meanwhile: reload the page and try again."


def chess_league() -> tuple[League, Game]:
    """A classic Elo league with two games; the later one is the one both staff act on."""
    league = League.objects.create(name="Chess", slug="chess", system=System.ELO)
    ana, bo = Player.objects.create_named("Ana"), Player.objects.create_named("Bo")
    for day, (white, black) in enumerate([(ana, bo), (bo, ana)]):
        game = engine.game_record(
            league=league,
            played_at=T0 + timedelta(days=day),
            entries=[
                engine.Entry(player_id=white.pk, score=1.0),
                engine.Entry(player_id=black.pk, score=0.0),
            ],
        )
    return league, game


def edit_form(game: Game) -> dict:
    """The admin's change form for ``game`` with the result turned round."""
    results = list(game.results.order_by("seat"))
    return builders.game_post(
        game.league,
        game.played_at,
        [(r.player, r.seat, None, 1 - r.score) for r in results],
        bula=None,
        game=game,
        results=results,
    )


def race(league: League, first: Request, second: Request) -> None:
    """Start two requests that both need the league, the first first, and let them go."""
    with transaction.atomic():
        League.objects.select_for_update().get(pk=league.pk)  # a third writer, still busy
        first.start()
        wait_for_waiters(1)
        second.start()
        wait_for_waiters(2)


def admin_messages(browser: Browser) -> str:
    status, page = browser.get(reverse("admin:ratings_game_changelist"))
    assert status == 200
    return page


def test_two_staff_deleting_one_game_at_once(live_server, django_user_model):
    league, game = chess_league()
    path = reverse("admin:ratings_game_delete", args=[game.pk])
    first, second = staff(live_server, django_user_model, 2)
    for browser in (first, second):
        assert browser.get(path)[0] == 200  # both read the confirmation page

    deleting = [Request(first, path, {"post": "yes"}), Request(second, path, {"post": "yes"})]
    race(league, *deleting)

    assert [request.result() for request in deleting] == [302, 302]
    assert "was deleted successfully" in admin_messages(first)
    assert f"Game {game.pk}: {GONE}" in admin_messages(second)
    assert not Game.objects.filter(pk=game.pk).exists()
    assert AuditEntry.objects.filter(action="delete").count() == 1
    assert_unchanged_by_recompute(league)


def test_one_staff_editing_a_game_while_another_deletes_it(live_server, django_user_model):
    league, game = chess_league()
    delete_path = reverse("admin:ratings_game_delete", args=[game.pk])
    change_path = reverse("admin:ratings_game_change", args=[game.pk])
    deleter, editor = staff(live_server, django_user_model, 2)
    assert deleter.get(delete_path)[0] == 200
    assert editor.get(change_path)[0] == 200

    deleting = Request(deleter, delete_path, {"post": "yes"})
    editing = Request(editor, change_path, edit_form(game))
    race(league, deleting, editing)

    assert [deleting.result(), editing.result()] == [302, 302]
    assert f"Game {game.pk}: {GONE}" in admin_messages(editor)
    assert not Game.objects.filter(pk=game.pk).exists()
    assert not AuditEntry.objects.filter(action="update").exists()
    assert_unchanged_by_recompute(league)


# Events naming the same new player at once --------------------------------------------------------
# events/services._named called create_named without the fallback the game forms had: two posts
# naming one new player answered 500 in 10 of 12 trials. Both now go through
# Player.objects.get_or_create_named, the one way to name a player who may be new.


@pytest.mark.parametrize("typed", ["Newcomer Adv", "NEWCOMER  adv"])
def test_two_new_events_naming_the_same_new_player_at_once(live_server, django_user_model, typed):
    league = League.objects.create(name="Preferans", slug="preferans", system=System.PREFKO)
    for name in ("Pedja", "Marko", "Johnny", "Ana"):
        Player.objects.create_named(name)
    path = reverse("ratings:event_new", args=[league.slug])
    browsers = staff(live_server, django_user_model, 2)
    forms = [
        {
            "name": f"Night {n}",
            "starts_at": "2026-03-14T19:00",
            "rounds_total": "",
            "table_size": "3",
            "draw_method": "random",
            "scoring": "total",
            "player_0": "Pedja" if n else "Johnny",
            "player_1": "Marko" if n else "Ana",
            "player_2": typed,
        }
        for n in range(2)
    ]
    for browser in browsers:
        browser.get(path)

    with transaction.atomic():
        # A third organiser's new player, not committed yet: both posts must wait for it.
        Player.objects.create_named("Newcomer Adv")
        posting = [Request(b, path, data) for b, data in zip(browsers, forms, strict=True)]
        for request in posting:
            request.start()
        wait_for_waiters(2)

    assert [request.result() for request in posting] == [302, 302]
    newcomer = Player.objects.get(name="Newcomer Adv")
    assert Player.objects.count() == 5
    assert all(
        event.event_players.filter(player=newcomer).exists() for event in Event.objects.all()
    )


def test_two_late_arrival_posts_naming_the_same_new_player_at_once(live_server, django_user_model):
    league = League.objects.create(name="Preferans", slug="preferans", system=System.PREFKO)
    event = builders.make_event(league, builders.make_players(3))
    path = reverse("ratings:event_players_add", args=[event.pk])
    browsers = staff(live_server, django_user_model, 2)
    for browser in browsers:
        browser.get(reverse("ratings:event", args=[event.pk]))

    with transaction.atomic():
        Player.objects.create_named("Late Adv")
        posting = [Request(b, path, {"player_0": "late adv"}) for b in browsers]
        for request in posting:
            request.start()
        wait_for_waiters(2)

    assert [request.result() for request in posting] == [302, 302]
    late = Player.objects.get(name="Late Adv")
    assert event.event_players.filter(player=late).count() == 1
