"""The data versions (ratings.versioning): a trigger on every table a page shows, a change of
the right version (the club's, or the leagues' of the rows written) with every committed write,
none with a rolled-back one; writers of two leagues that do not wait for each other."""

from __future__ import annotations

import threading
import time
from datetime import timedelta

import pytest
from django.apps import apps
from django.db import connection, connections, transaction
from django.test.utils import CaptureQueriesContext

from ratings import engine, versioning
from ratings.engine.validation import prepare_scored_games
from ratings.events import services as event_services
from ratings.models import (
    DataVersion,
    Game,
    League,
    LeagueVersion,
    Player,
    Result,
    Standing,
    System,
)
from tests import snapshots
from tests.builders import T0, make_event, make_league, make_player, play_round
from tests.papers.deals import SHORT_GAME, enter, start

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
    tables = {
        table
        for table in connection.introspection.table_names()
        if not table.startswith(snapshots.COPY_PREFIX)  # the suite's own copies of the demo club
    }
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
        born={},
    )
    before = versioning.current()
    engine.games_record_many(league=league, games=games)
    after = versioning.current()
    assert after.number == before.number  # the league's games only
    assert after.league(league.pk) > before.league(league.pk)
    if connection.vendor == "sqlite":
        # Not one per row (200).
        assert after.league(league.pk)[0] - before.league(league.pk)[0] < 5
    Result.objects.filter(game__league=league).update(score=7)
    assert versioning.current().league(league.pk) > after.league(league.pk)
    Player.objects.create_named("Later")
    assert versioning.current().number > after.number
    assert not DataVersion.objects.get().bulk
    assert not LeagueVersion.objects.filter(bulk=True).exists()


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
        league, [(T0 + timedelta(hours=n), ids, [n, 1, 2]) for n in range(5)], born={}
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
    assert versioning.current().league(league.pk) > before.league(league.pk)


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


def test_the_tables_of_a_league_are_found_from_the_models():
    """A table whose rows lead to a league through foreign keys that cannot be empty changes
    that league's version; the others the club's."""
    paths = versioning.league_paths()
    by_league = {
        *("ratings_game", "ratings_result", "ratings_standing", "ratings_storedbacktest"),
        "ratings_seasonstanding",
        *("ratings_event", "ratings_eventplayer", "ratings_eventround", "ratings_eventtable"),
        *("ratings_tableseat", "ratings_digitalpaper", "ratings_deal"),
    }
    assert by_league <= paths.keys()
    club_wide = {"ratings_player", "ratings_playeralias", "ratings_league", "auth_user"}
    assert not club_wide & paths.keys()
    assert ["game", "league"] in [[f.name for f in path] for path in paths["ratings_result"]]
    assert [[f.name for f in path] for path in paths["ratings_tableseat"]] == [
        ["table", "round", "event", "league"]
    ]


def two_leagues() -> tuple[League, League, dict[str, set]]:
    """Two leagues with games, standings, an event with its rounds, tables and seats, and a
    paper with its deals; and the rows of the first one's, by table (the rows each build
    made)."""
    models = {m._meta.db_table: m for m in apps.get_models(include_auto_created=True)}

    def rows() -> dict[str, set]:
        found = {}
        with connection.cursor() as cursor:
            for table in versioning.league_paths():
                cursor.execute(f'SELECT {snapshots.primary_key(models[table])} FROM "{table}"')
                found[table] = set(cursor.fetchall())
        return found

    def build(name: str) -> League:
        league = make_league(System.PREFKO, name=name)
        players = [make_player(f"{name} {n}") for n in range(4)]
        event = make_event(league, players, rounds_total=2)
        play_round(event_services.round_draw(event=event))
        paper = start((league, players[:3]))
        enter(paper, SHORT_GAME)
        return league

    before = rows()
    first = build("First")
    made = rows()
    second = build("Second")
    return first, second, {table: made[table] - before[table] for table in made}


def test_a_write_to_any_table_of_a_league_changes_that_leagues_version_only():
    """Whoever writes (here a plain UPDATE no Django code sees), a row of league A changes A's
    version, not B's and not the club's: B's pages stay cached, A's are drawn again."""
    first, second, rows_of_first = two_leagues()
    written = {table for table, rows in rows_of_first.items() if rows}
    assert {"ratings_game", "ratings_result", "ratings_standing", "ratings_tableseat"} <= written
    assert {"ratings_eventround", "ratings_digitalpaper", "ratings_deal"} <= written
    models = {m._meta.db_table: m for m in apps.get_models(include_auto_created=True)}
    for table in sorted(written):
        model = models[table]
        first_column = model._meta.pk_fields[0].column
        condition, params = snapshots.key_in(
            snapshots.primary_key(model), sorted(rows_of_first[table])
        )
        before = versioning.current()
        with connection.cursor() as cursor:
            cursor.execute(
                f'UPDATE "{table}" SET "{first_column}" = "{first_column}" WHERE {condition}',
                params,
            )
        after = versioning.current()
        (number, papers), (number_before, papers_before) = (
            after.league(first.pk),
            before.league(first.pk),
        )
        if table in versioning.PAPER_TABLES:
            # A deal leaves the league's pages that show no paper cached (a paper before its
            # first deal at another table).
            assert number == number_before and papers > papers_before, table
        else:
            assert number > number_before and papers == papers_before, table
        assert after.league(second.pk) == before.league(second.pk), table
        assert after.number == before.number, table


def test_a_write_to_a_club_wide_table_changes_the_club_wide_version(django_user_model):
    two_leagues()
    django_user_model.objects.create_user("ana")
    engine.player_rename(player=Player.objects.get(name="First 0"), name="First Zero")
    for table in ("ratings_player", "ratings_playeralias", "ratings_league", "auth_user"):
        before = versioning.current()
        with connection.cursor() as cursor:
            cursor.execute(f'UPDATE "{table}" SET id = id')
        assert versioning.current().number > before.number, table


def test_moving_a_row_to_another_league_changes_both(make_league, record_game):
    first = make_league(System.RAYTER_LOWSCORE, name="First")
    second = make_league(System.RAYTER_LOWSCORE, name="Second")
    players = [Player.objects.create_named(f"Player {n}") for n in range(3)]
    game = engine.game_record(
        league=first, played_at=T0, entries=[engine.Entry(p.pk, n) for n, p in enumerate(players)]
    )
    before = versioning.current()
    Game.objects.filter(pk=game.pk).update(league=second)
    after = versioning.current()
    assert after.league(first.pk) > before.league(first.pk)
    assert after.league(second.pk) > before.league(second.pk)


def test_a_row_whose_league_is_gone_changes_the_club_wide_version(make_league):
    """Results deleted after their game in one transaction (the foreign key checked at the
    commit): no league to find, so every page is drawn again."""
    league = make_league(System.RAYTER_LOWSCORE)
    players = [Player.objects.create_named(f"Player {n}") for n in range(3)]
    game = engine.game_record(
        league=league, played_at=T0, entries=[engine.Entry(p.pk, n) for n, p in enumerate(players)]
    )
    if connection.vendor == "sqlite":
        connection.disable_constraint_checking()
    try:
        before = versioning.current()
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("DELETE FROM ratings_game WHERE id = %s", [game.pk])
            cursor.execute("DELETE FROM ratings_result WHERE game_id = %s", [game.pk])
        assert versioning.current().number > before.number
    finally:
        if connection.vendor == "sqlite":
            connection.enable_constraint_checking()


def test_a_page_of_some_leagues_reads_their_versions_in_one_query(make_league):
    first = make_league(System.RAYTER_LOWSCORE, name="First")
    second = make_league(System.RAYTER_LOWSCORE, name="Second")
    with CaptureQueriesContext(connection) as queries:
        of_first = versioning.current(versioning.LEAGUE_BY_SLUG, {"slug": first.slug})
        every = versioning.current()
        nothing = versioning.current(versioning.LEAGUE_BY_SLUG, {"slug": "no-such-league"})
    assert len(queries) == 3
    assert [league for league, *_numbers in of_first.leagues] == [first.pk]
    assert [league for league, *_numbers in every.leagues] == [first.pk, second.pk]
    assert nothing is None  # a page of a league that is not there is not cached
    assert str(of_first) != str(every)


def test_a_league_without_its_row_is_not_cached_until_install_makes_it_again(make_league):
    league = make_league(System.RAYTER_LOWSCORE)
    old = versioning.current()
    LeagueVersion.objects.filter(league_id=league.pk).delete()
    assert versioning.current() is None
    assert versioning.current(versioning.LEAGUE_BY_SLUG, {"slug": league.slug}) is None
    versioning.install()
    made = versioning.current()
    # Made again from 0: the club-wide number changed, so no old key comes back.
    assert made.number > old.number


def test_writers_declare_the_club_wide_lock_before_a_leagues(make_league):
    """The one lock order: the club-wide row (for club-wide tables, or several leagues), then
    the leagues'; asked out of order, refused at once on PostgreSQL (SQLite has one writer at a
    time)."""
    first = make_league(System.RAYTER_LOWSCORE, name="First")
    second = make_league(System.RAYTER_LOWSCORE, name="Second")
    with transaction.atomic():
        versioning.begin_write([second, first], club=True)  # sorted, club first: fine
        versioning.begin_write([first], club=True)  # held already: fine
    if connection.vendor != "postgresql":
        return
    with pytest.raises(versioning.LockOrderError), transaction.atomic():
        versioning.begin_write([first])
        versioning.begin_write(club=True)
    with pytest.raises(versioning.LockOrderError), transaction.atomic():
        versioning.begin_write([second])
        versioning.begin_write([first])
    with pytest.raises(versioning.LockOrderError), transaction.atomic():
        versioning.begin_write([first, second])
    with transaction.atomic():
        versioning.begin_write(club=True)
        versioning.begin_write([second])
        versioning.begin_write([first])  # several leagues after the club-wide row: fine


def test_a_game_in_one_league_does_not_wait_for_a_replay_of_another(make_league):
    """While a transaction holds league A's writers' lock (a long replay), a game is recorded
    in league B at once, by another connection; a game of league A waits."""
    if connection.vendor != "postgresql":
        pytest.skip("writers' locks are PostgreSQL's (SQLite has one writer at a time)")
    big = make_league(System.RAYTER_LOWSCORE, name="Big")
    small = make_league(System.RAYTER_LOWSCORE, name="Small")
    players = [Player.objects.create_named(f"Player {n}") for n in range(3)]
    entries = [engine.Entry(p.pk, n) for n, p in enumerate(players)]
    engine.game_record(league=big, played_at=T0, entries=entries)

    holding, release = threading.Event(), threading.Event()
    took: dict[str, float] = {}

    def replaying():
        try:
            with transaction.atomic():
                engine.league_recompute(league=big)  # the replay, holding the big league
                holding.set()
                release.wait(30)
        finally:
            connections.close_all()

    def recording(league, name, hour):
        try:
            started = time.monotonic()
            engine.game_record(league=league, played_at=T0 + timedelta(hours=hour), entries=entries)
            took[name] = time.monotonic() - started
        finally:
            connections.close_all()

    replay = threading.Thread(target=replaying)
    replay.start()
    try:
        assert holding.wait(30)
        small_game = threading.Thread(target=recording, args=(small, "small", 1))
        small_game.start()
        small_game.join(10)
        assert not small_game.is_alive(), "a game of another league waited for the replay"
        assert took["small"] < 5
        big_game = threading.Thread(target=recording, args=(big, "big", 2))
        big_game.start()
        big_game.join(1)
        assert big_game.is_alive(), "a game of the replayed league did not wait for it"
    finally:
        release.set()
        replay.join(30)
    big_game.join(30)
    assert "big" in took
    assert Standing.objects.filter(league=small).count() == 3
    assert Game.objects.filter(league=big).count() == 2


def test_inserts_and_deletes_of_one_row_or_many_change_their_leagues_version():
    """Statements of one row and of many (PostgreSQL reads them from the statement's
    transition table, one row by its key and many by an array), through two steps to the
    league or one."""
    first, second, rows_of_first = two_leagues()
    for table, column in (("ratings_tableseat", "id"), ("ratings_deal", "id")):
        ids = sorted(id for (id,) in rows_of_first[table])
        for chosen in (ids[:1], ids[1:]):
            before = versioning.current()
            with connection.cursor() as cursor:
                cursor.execute(
                    f'DELETE FROM "{table}" WHERE "{column}" IN '
                    f"({', '.join(['%s'] * len(chosen))})",
                    chosen,
                )
            after = versioning.current()
            assert after.league(first.pk) > before.league(first.pk), (table, len(chosen))
            assert after.league(second.pk) == before.league(second.pk), table
            assert after.number == before.number, table
