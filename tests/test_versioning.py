"""The data version (ratings.versioning): a trigger on every table a page shows, a change with
every committed write, none with a rolled-back one."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection, transaction

from ratings import engine, versioning
from ratings.engine.validation import prepare_scored_games
from ratings.models import DataVersion, Game, Player, Result, System
from tests.builders import T0

# Committed writes, as requests make them (PostgreSQL changes the number once per transaction).
pytestmark = pytest.mark.django_db(transaction=True)


def triggers() -> set[tuple]:
    """Every trigger as the database holds it: (table, name, its definition…)."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT event_object_table, trigger_name, action_timing, event_manipulation,"
                " action_statement FROM information_schema.triggers"
            )
        else:
            cursor.execute("SELECT tbl_name, name, sql FROM sqlite_master WHERE type = 'trigger'")
        return set(cursor.fetchall())


def triggered_tables() -> set[str]:
    return {table for table, name, *_definition in triggers() if "data_version" in name}


def test_every_table_a_page_shows_has_the_trigger():
    tables = versioning.versioned_tables()
    assert {"ratings_game", "ratings_result", "ratings_standing", "ratings_player"} <= set(tables)
    assert {"ratings_event", "ratings_tableseat", "auth_user", "auth_user_groups"} <= set(tables)
    assert {"auth_permission", "django_content_type"} <= set(tables)
    assert "ratings_auditentry" not in tables
    assert set(tables) <= triggered_tables()


def test_every_table_of_the_database_is_versioned_or_listed_with_its_reason():
    """A new table of any app (a model, or one a migration makes by hand) is either versioned
    or named in UNVERSIONED with the reason no page shows it; and the list names real tables."""
    tables = set(connection.introspection.table_names())
    versioned = triggered_tables()
    assert tables - versioned - versioning.UNVERSIONED.keys() == set()
    assert versioned & versioning.UNVERSIONED.keys() == set()
    assert versioning.UNVERSIONED.keys() <= tables


def test_installing_again_changes_nothing():
    before = versioning.current()
    versioning.install()
    versioning.install()
    assert versioning.current() == before
    assert DataVersion.objects.count() == 1


def test_a_committed_write_changes_the_version_and_a_rolled_back_one_does_not():
    start = versioning.current()
    Player.objects.create_named("Ana")
    after_write = versioning.current()
    assert after_write.number > start.number
    assert after_write.epoch == start.epoch

    with pytest.raises(RuntimeError), transaction.atomic():
        Player.objects.filter(name="Ana").update(name="Ana B")
        if connection.vendor == "postgresql":
            # Written by this very transaction: no page may be cached by it.
            assert versioning.current() is None
        raise RuntimeError("rolled back")
    assert versioning.current() == after_write


def test_a_write_nobody_sees_in_python_still_changes_it():
    Player.objects.create_named("Bojan")
    start = versioning.current()
    with connection.cursor() as cursor:
        cursor.execute("UPDATE ratings_player SET name = 'Bojan P' WHERE name = 'Bojan'")
    assert versioning.current().number > start.number


def test_a_recreated_version_row_is_a_new_epoch():
    """A rebuilt database never hands out a number a shared cache already holds pages for."""
    old = versioning.current()
    DataVersion.objects.all().delete()
    assert versioning.current() is None  # nothing is cached while the row is missing
    versioning.install()
    assert versioning.current().epoch != old.epoch


def test_a_bulk_write_changes_the_version_once_and_leaves_the_triggers_on(make_league):
    """An import of many games: one change (not one a row), and the next write changes it."""
    league = make_league(System.RAYTER_LOWSCORE)
    players = [Player.objects.create_named(f"Player {n}") for n in range(5)]
    games = prepare_scored_games(
        league,
        [
            (T0 + timedelta(hours=n), [p.pk for p in players[:3]], [n, n + 1, n + 2])
            for n in range(50)
        ],
    )
    before = versioning.current()
    engine.games_record_many(league=league, games=games)
    after = versioning.current()
    assert after.number > before.number
    if connection.vendor == "sqlite":
        assert after.number - before.number < 5  # not one per row (200 rows were written)
    Player.objects.create_named("Later")
    assert versioning.current().number > after.number
    assert not DataVersion.objects.get().bulk


def test_a_bulk_write_that_fails_leaves_no_trace(make_league):
    before = versioning.current()
    with pytest.raises(RuntimeError), transaction.atomic(), versioning.bulk_write():
        Player.objects.create_named("Ana")
        raise RuntimeError("the import failed")
    assert versioning.current() == before
    assert not DataVersion.objects.get().bulk


def test_a_bulk_insert_puts_back_the_triggers_it_dropped(make_league):
    """SQLite's triggers on games and results are dropped during a big insert and must come
    back exactly, after it commits and after it fails: a write after it changes the version."""
    league = make_league(System.RAYTER_LOWSCORE)
    players = [Player.objects.create_named(f"Player {n}") for n in range(3)]
    ids = [p.pk for p in players]
    installed = triggers()
    games = prepare_scored_games(
        league, [(T0 + timedelta(hours=n), ids, [n, 1, 2]) for n in range(5)]
    )
    engine.games_record_many(league=league, games=games)
    assert triggers() == installed

    with (
        pytest.raises(RuntimeError),
        transaction.atomic(),
        versioning.bulk_write(),
        versioning.row_triggers_dropped([Game, Result]),
    ):
        if connection.vendor == "sqlite":
            assert triggers() < installed
        raise RuntimeError("the import failed")
    assert triggers() == installed

    before = versioning.current()
    Result.objects.filter(game__league=league).update(score=7)
    assert versioning.current().number > before.number


def test_no_page_is_cached_while_the_bulk_mark_is_set():
    """Were the mark ever left set (the triggers then quiet), nothing would be cached, so
    nothing could be stale."""
    DataVersion.objects.update(bulk=True)
    assert versioning.current() is None


def test_bulk_write_needs_its_transaction():
    with (
        pytest.raises(RuntimeError, match="inside the bulk write's transaction"),
        versioning.bulk_write(),
    ):
        pass


def test_a_login_leaves_the_version_but_a_new_permission_changes_it(client, django_user_model):
    """Every login writes the member's last login, which no page shows: the pages stay cached.
    Their staff flag, which the header shows, is a change."""
    user = django_user_model.objects.create_user("ana")
    start = versioning.current()
    client.force_login(user)  # sets last_login, as every login does
    assert django_user_model.objects.get(pk=user.pk).last_login is not None
    assert versioning.current() == start
    user.is_staff = True
    user.save()
    assert versioning.current().number > start.number
