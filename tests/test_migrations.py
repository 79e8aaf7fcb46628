"""The data migrations, run on a club of every rating system from the schema before them:
nothing a league, a result or a standing held is lost on the way up, nor on the way down."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from ratings.systems import SYSTEMS

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE_STATE = ("ratings", "0022_opponent_tally_a_row_a_pair")
STATE = ("ratings", "0023_system_state")
SETTINGS = ("ratings", "0024_league_settings")
PLANNING = ("ratings", "0028_event_planning")
PLAYED = datetime(2026, 3, 1, 20, tzinfo=UTC)
SKILL = {"mu_before": 25.0, "sigma_before": 8.25, "mu_after": 27.5, "sigma_after": 7.5}


@pytest.fixture(autouse=True)
def back_to_the_latest():
    """Every later test runs on the latest schema, whatever this one migrated to."""
    yield
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


def migrated(target):
    """The historical apps at ``target``, the database migrated there."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate([target])
    return MigrationExecutor(connection).loader.project_state([target]).apps


def club_of_every_system(apps) -> dict[str, int]:
    """A league of each system with one game of two seats, in the old schema: OpenSkill's
    numbers in their own columns. Returns each league's id by system code."""
    League, Player, Game = (apps.get_model("ratings", m) for m in ("League", "Player", "Game"))
    Result, Standing = apps.get_model("ratings", "Result"), apps.get_model("ratings", "Standing")
    players = [
        Player.objects.create(name=name, slug=name.lower(), name_key=name.lower())
        for name in ("Ana", "Bo")
    ]
    leagues = {}
    for n, code in enumerate(SYSTEMS):
        # Every league had every setting's column; a changed one in each.
        league = League.objects.create(
            name=code, slug=code, system=code, elo_k=16 + n, speed="blitz", refas=n
        )
        leagues[code] = league.pk
        game = Game.objects.create(league=league, played_at=PLAYED)
        skill = code.startswith("openskill")
        for seat, player in enumerate(players):
            Result.objects.create(
                game=game,
                league=league,
                played_at=PLAYED,
                place=seat + 1,
                seat=seat,
                player=player,
                score=1 - seat,
                rating_before=1000 + n,
                rating_after=1010 + n - 20 * seat,
                **(SKILL if skill else {}),
            )
            Standing.objects.create(
                league=league,
                player=player,
                rating=1010 + n - 20 * seat,
                peak_rating=1010 + n,
                games=1,
                **({"mu": 27.5, "sigma": 7.5} if skill else {}),
            )
    return leagues


def test_the_state_migration_moves_openskills_numbers_into_the_slot_and_back():
    apps = migrated(BEFORE_STATE)
    leagues = club_of_every_system(apps)

    apps = migrated(STATE)
    Result, Standing = apps.get_model("ratings", "Result"), apps.get_model("ratings", "Standing")
    for code, league_id in leagues.items():
        skill = code.startswith("openskill")
        results = Result.objects.filter(league_id=league_id).order_by("seat")
        assert [r.state for r in results] == [SKILL if skill else None] * 2, code
        assert [r.rating_after for r in results] == [
            1010 + list(leagues).index(code) - 20 * seat for seat in (0, 1)
        ]
        standings = Standing.objects.filter(league_id=league_id)
        assert [s.state for s in standings] == [
            {"mu": 27.5, "sigma": 7.5} if skill else None
        ] * 2, code

    apps = migrated(BEFORE_STATE)
    Result = apps.get_model("ratings", "Result")
    back = Result.objects.filter(league_id=leagues["openskill_lowscore"], seat=0).get()
    assert {key: getattr(back, key) for key in SKILL} == SKILL
    assert not Result.objects.filter(league_id=leagues["elo"], mu_after__isnull=False).exists()


def test_the_settings_migration_gives_each_league_its_own_systems_settings_and_back():
    apps = migrated(BEFORE_STATE)
    leagues = club_of_every_system(apps)

    apps = migrated(SETTINGS)
    League = apps.get_model("ratings", "League")
    n = {code: list(leagues).index(code) for code in leagues}
    assert {league.system: league.settings for league in League.objects.all()} == {
        **{code: {} for code in leagues},
        "elo": {"elo_k": 16 + n["elo"]},
        "fide": {"speed": "blitz"},
        "prefko": {"refas": n["prefko"]},
    }

    apps = migrated(BEFORE_STATE)
    League = apps.get_model("ratings", "League")
    elo, prefko = League.objects.get(system="elo"), League.objects.get(system="prefko")
    assert (elo.elo_k, elo.speed, elo.refas) == (16 + n["elo"], "standard", None)
    assert (prefko.elo_k, prefko.refas) == (32, n["prefko"])


def test_the_planning_migration_keeps_the_event_tables_triggers_on_sqlite():
    """SQLite remakes the event table to add its columns; the data-version triggers that name
    it (its players', rounds' and tables') are set aside and put back, and an event made before
    is a started one."""
    apps = migrated(("ratings", "0025_deal_audit"))
    league = apps.get_model("ratings", "League").objects.create(
        name="Friday", slug="friday", system="prefko"
    )
    event_id = (
        apps.get_model("ratings", "Event")
        .objects.create(league=league, name="Night", starts_at=PLAYED, table_size=3)
        .pk
    )
    before = trigger_names()

    apps = migrated(PLANNING)
    event = apps.get_model("ratings", "Event").objects.get(pk=event_id)
    assert (event.status, event.place, event.sequence) == ("started", "", 0)
    after = trigger_names()
    assert any(name.startswith("ratings_eventplayer") for name in before)
    # The event tables' (the league's own are remade by an earlier migration's new columns, and
    # made again by every migrate's versioning.install, as for every table).
    assert {name for name in before if name.startswith("ratings_event")} <= after


def trigger_names() -> set[str]:
    """The database's triggers, each named with its table."""
    sql = {
        "sqlite": "SELECT tbl_name || '.' || name FROM sqlite_master WHERE type = 'trigger'",
        "postgresql": "SELECT tgrelid::regclass::text || '.' || tgname FROM pg_trigger "
        "WHERE NOT tgisinternal",
    }[connection.vendor]
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return {row[0] for row in cursor.fetchall()}
