"""Reliability round two (issue #17): what a mistake or a hostile file must not be able to do.

- Replacing a league's games by an import leaves every deleted game restorable from the audit
  trail, on the import page and on the command line, without a query per game.
- The previewed upload waits in a table, not in the session, bound to its user and league.
- Birth dates are in the past and before every game of their player.
- A rayter file's years 1 and 9999 are refused line by line, whatever the club's time zone.
- A game deleted by one staff member while another deletes or edits it is a message, not a 500.

The races themselves, with real parallel clients on PostgreSQL, are in tests/test_races.py.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from io import StringIO

import pytest
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ratings import engine
from ratings.models import AuditEntry, Game, Result, Standing, System

pytestmark = pytest.mark.django_db

T0 = datetime(2025, 3, 1, 19, 0, tzinfo=UTC)


def hearts_games(count: int, *, start: datetime = T0, names=("Ana", "Bora", "Ceca", "Duda")):
    """``count`` Hearts games an hour apart, four players each, as an import brings them."""
    return [
        engine.ImportedGame(
            played_at=start + timedelta(hours=n),
            scores=[(name, float((n * 7 + seat * 5) % 26)) for seat, name in enumerate(names)],
        )
        for n in range(count)
    ]


def ratings_of(league) -> tuple[list, list]:
    results = Result.objects.filter(game__league=league).order_by("game_id", "seat")
    standings = Standing.objects.filter(league=league).order_by("player_id")
    return (
        list(results.values_list("game_id", "player_id", "score", "rating_before", "rating_after")),
        list(standings.values_list("player_id", "rating", "games")),
    )


@pytest.fixture
def hearts(make_league):
    return make_league(System.RAYTER_LOWSCORE, name="Hearts", slug="hearts", game_name="Hearts")


@pytest.fixture
def importer(staff_user):
    """Staff who may import and replace (add_game and delete_game)."""
    staff_user.user_permissions.add(
        *Permission.objects.filter(codename__in=["add_game", "delete_game"])
    )
    return staff_user


# Replacing a league's games keeps each of them restorable ---------------------------------------


def test_a_replace_leaves_a_deletion_entry_per_game_with_the_games_snapshot(hearts, importer):
    engine.games_import(league=hearts, games=hearts_games(5))
    snapshots = {g.pk: engine.game_snapshot(g) for g in Game.objects.filter(league=hearts)}

    summary = engine.games_import(
        league=hearts,
        games=hearts_games(2, start=T0 + timedelta(days=9)),
        replace=True,
        actor=importer,
    )

    assert summary.replaced == 5
    deletions = AuditEntry.objects.filter(action="delete", league=hearts)
    assert {entry.game_id: entry.before for entry in deletions} == snapshots
    assert {entry.user for entry in deletions} == {importer}
    assert Game.objects.filter(league=hearts).count() == 2


def test_the_replaced_games_come_back_with_restore_deleted_game(hearts, admin_client):
    engine.games_import(league=hearts, games=hearts_games(4))
    before = ratings_of(hearts)
    later = hearts_games(3, start=T0 + timedelta(days=9), names=("Ana", "Ema", "Fica"))
    engine.games_import(league=hearts, games=later, replace=True)
    deletions = AuditEntry.objects.filter(action="delete", league=hearts)

    response = admin_client.post(
        reverse("admin:ratings_auditentry_changelist"),
        {"action": "restore_deleted_games", "_selected_action": [e.pk for e in deletions]},
        follow=True,
    )

    assert response.status_code == 200
    assert Game.objects.filter(league=hearts).count() == 4 + 3
    # The four earlier games are back under their old ids and rated as they were; the three
    # the replace imported follow them.
    old_ids = {row[0] for row in before[0]}
    results, _standings = ratings_of(hearts)
    assert [row for row in results if row[0] in old_ids] == before[0]
    engine.league_recompute(league=hearts)
    assert ratings_of(hearts)[0] == results


def test_a_replace_takes_the_same_queries_for_a_few_or_many_games(make_league):
    """A replace must not read or write per deleted game: 100,000 games would take minutes."""
    queries = []
    for count in (200, 400):
        league = make_league(System.RAYTER_LOWSCORE)
        engine.games_import(league=league, games=hearts_games(count))
        with CaptureQueriesContext(connection) as captured:
            engine.games_import(
                league=league, games=hearts_games(1, start=T0 + timedelta(days=99)), replace=True
            )
        assert AuditEntry.objects.filter(league=league, action="delete").count() == count
        queries.append(len(captured))

    assert queries[0] == queries[1]


def test_a_preview_of_a_replace_deletes_nothing_and_writes_no_entry(hearts, importer, client):
    engine.games_import(league=hearts, games=hearts_games(3))
    client.force_login(importer)

    response = client.post(
        reverse("ratings:rayter_import", args=[hearts.slug]),
        {"file": SimpleUploadedFile("h.txt", HEARTS_FILE), "replace": "on"},
    )

    assert response.context["preview"].summary.replaced == 3
    assert "The audit trail keeps each of them" in response.content.decode()
    assert Game.objects.filter(league=hearts).count() == 3
    assert not AuditEntry.objects.filter(action="delete").exists()


def test_a_replace_on_the_import_page_is_restorable(hearts, importer, client):
    engine.games_import(league=hearts, games=hearts_games(3))
    snapshots = {g.pk: engine.game_snapshot(g) for g in Game.objects.filter(league=hearts)}
    client.force_login(importer)
    url = reverse("ratings:rayter_import", args=[hearts.slug])
    preview = client.post(url, {"file": SimpleUploadedFile("h.txt", HEARTS_FILE), "replace": "on"})

    client.post(url, {"confirm": "1", "token": preview.context["token"]})

    deletions = AuditEntry.objects.filter(action="delete", league=hearts, user=importer)
    assert {entry.game_id: entry.before for entry in deletions} == snapshots


def test_import_rayter_replace_on_the_command_line_is_restorable(hearts, tmp_path):
    engine.games_import(league=hearts, games=hearts_games(3))
    snapshots = {g.pk: engine.game_snapshot(g) for g in Game.objects.filter(league=hearts)}
    path = tmp_path / "hearts.txt"
    path.write_bytes(HEARTS_FILE)
    out = StringIO()

    call_command("import_rayter", str(path), "--league", "hearts", "--replace", stdout=out)

    assert "Deleted first (--replace): 3 games, each restorable from the audit trail" in (
        out.getvalue()
    )
    deletions = AuditEntry.objects.filter(action="delete", league=hearts)
    assert {entry.game_id: entry.before for entry in deletions} == snapshots
    assert {entry.user for entry in deletions} == {None}


HEARTS_FILE = b"score_type lowscore\ngame 2025-06-01 20:00\nAna 3\nEma 9\n"
