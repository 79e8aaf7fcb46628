"""Six tables of a round submitting their papers at the same moment, on PostgreSQL.

Real clients post each table's entry form (``?table=<id>``) to a live server in parallel: every
table's paper is entered by two members at once (each with their own form), and each of them
saves twice (a double click). Afterwards the round has six games, one per table and each linked
to its table, no duplicates, no request failed, and every rating equals a replay.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from django.urls import reverse

from ratings.events import services
from ratings.events.models import EventTable
from ratings.models import AuditAction, AuditEntry, Game, League, Player, System
from tests.builders import T0, Browser, hidden, make_event
from tests.replays import assert_unchanged_by_recompute
from tests.worked_example import MORE_PAPERS

TABLES = 6
CLIENTS_PER_TABLE = 2


def enter_table(browser: Browser, path: str, names, papers, barrier, statuses: list) -> None:
    """Open the table's link, check the scores, then save (twice) when every client is ready."""
    status, page = browser.get(path)
    statuses.append(status)
    data = {
        "submission_key": hidden(page, "submission_key"),
        "played_at": T0.strftime("%Y-%m-%dT%H:%M"),
        "bula": "30",
    }
    for seat, (name, paper) in enumerate(zip(names, papers, strict=True)):
        data[f"player_{seat}"] = name
        data[f"left_{seat}"], data[f"middle_{seat}"], data[f"right_{seat}"] = paper
    status, page = browser.post(path, {**data, "preview": "1"})
    statuses.append(status)
    data["previewed"] = hidden(page, "previewed")
    barrier.wait(timeout=120)  # the twelve saves leave together
    for _ in range(2):
        status, _page = browser.post(path, {**data, "save": "1"})
        statuses.append(status)


@pytest.mark.django_db(transaction=True)
def test_six_tables_submitting_at_once_record_six_games_each_linked(live_server, django_user_model):
    if connection.vendor != "postgresql":
        pytest.skip("concurrency is tested on PostgreSQL (set DATABASE_URL)")
    league = League.objects.create(name="Preferans", slug="preferans", system=System.PREFKO)
    players = [Player.objects.create_named(f"Player {n}") for n in range(TABLES * 3)]
    event = make_event(league, players, name="Big night")
    event_round = services.round_draw(event=event)
    tables = list(event_round.tables.order_by("number"))
    assert len(tables) == TABLES
    members = [
        django_user_model.objects.create_user(f"member{n}")
        for n in range(TABLES * CLIENTS_PER_TABLE)
    ]
    barrier = threading.Barrier(len(members))
    statuses: list[int] = []
    errors: list[BaseException] = []

    def run(member, table, n):
        try:
            names = list(table.seats.order_by("seat").values_list("player__name", flat=True))
            path = reverse("ratings:game_new", args=[league.slug]) + f"?table={table.pk}"
            # The two members of a table write different papers: only one may become its game.
            papers = MORE_PAPERS[n % len(MORE_PAPERS)]
            enter_table(Browser(live_server.url, member), path, names, papers, barrier, statuses)
        except BaseException as error:  # reported below
            errors.append(error)
            barrier.abort()
        finally:
            connection.close()

    threads = [
        threading.Thread(target=run, args=(member, tables[n % TABLES], n))
        for n, member in enumerate(members)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)

    assert not any(thread.is_alive() for thread in threads), "a client hung: deadlock?"
    assert not errors, errors
    assert 500 not in statuses
    # Each client: the form, the check, two saves (each redirected to the table's page).
    assert statuses.count(200) == 2 * len(members)
    assert statuses.count(302) == 2 * len(members)
    games = Game.objects.filter(league=league)
    assert games.count() == TABLES
    linked = EventTable.objects.filter(round=event_round, game__isnull=False)
    assert linked.count() == TABLES
    assert set(linked.values_list("game_id", flat=True)) == set(games.values_list("pk", flat=True))
    for table in linked.select_related("game"):
        seated = set(table.seats.values_list("player_id", flat=True))
        assert set(table.game.results.values_list("player_id", flat=True)) == seated
    assert AuditEntry.objects.filter(action=AuditAction.TABLE_GAME).count() == TABLES
    assert AuditEntry.objects.filter(action=AuditAction.CREATE).count() == TABLES
    assert_unchanged_by_recompute(league)
    # And the next round may be drawn: the round is complete.
    assert services.round_draw(event=event).number == 2
