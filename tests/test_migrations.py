"""The data migrations, run on a club of every rating system from the schema before them:
nothing a league, a result or a standing held is lost on the way up, nor on the way down."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from ratings.algorithms.paper import Hand, HouseRules, hand_from_entry, paper_result
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


# The deals as they were kept before migration 0033: the pad's taps (as its form wrote them)
# and a posted deal log's hands (as the API kept them, the crossing out the deal's own flag).
TAPPED = [
    {"refa": True},
    {
        "declarer": 1,
        "contract": "karo",
        "igra": False,
        "on_refa": True,
        "kontra": 0,
        "failed": False,
        "followers": [
            {"seat": 2, "play": "followed", "tricks": 2, "failed": False},
            {"seat": 3, "play": "passed", "tricks": 0, "failed": False},
        ],
    },
    {
        "declarer": 2,
        "contract": "betl",
        "igra": True,
        "on_refa": False,
        "kontra": 1,
        "failed": True,
        "followers": [
            {"seat": 3, "play": "followed", "tricks": 5, "failed": False},
            {"seat": 1, "play": "invited", "tricks": 0, "failed": False},
        ],
    },
]
LOGGED = [
    {
        "value": 8,
        "declarer": {"seat": 3, "failed": True, "tricks": 4},
        "followers": [
            {"seat": 1, "followed": True, "tricks": 3, "failed": False, "supa": 30},
            {"seat": 2, "followed": False, "tricks": 2, "failed": False},
        ],
    },
    {
        "value": 4,
        "declarer": {"seat": 1, "failed": False},
        "followers": [
            {"seat": 2, "followed": True, "tricks": 1, "failed": True},
            {"seat": 3, "followed": False, "tricks": 0, "failed": False},
        ],
    },
]
BETL_SUPA = {"betl_fall_supa": 60}


def paper_with_old_deals(apps) -> dict[int, tuple[dict, bool]]:
    """A paper of each old shape (the tapped one under a house rule that reads the contract):
    each deal's id, with what it kept and whether it is crossed out."""
    League, Player = apps.get_model("ratings", "League"), apps.get_model("ratings", "Player")
    DigitalPaper, Deal = (
        apps.get_model("ratings", "DigitalPaper"),
        apps.get_model("ratings", "Deal"),
    )
    league = League.objects.create(name="Friday", slug="friday", system="prefko")
    players = [
        Player.objects.create(name=name, slug=name.lower(), name_key=name.lower())
        for name in ("Ana", "Boris", "Ceca")
    ]
    kept = {}
    for deals, rules in ((TAPPED, BETL_SUPA), (LOGGED, {})):
        paper = DigitalPaper.objects.create(
            league=league,
            player_1=players[0],
            player_2=players[1],
            player_3=players[2],
            bula=30,
            house_rules=rules,
        )
        for number, entered in enumerate(deals, start=1):
            repealed = entered is LOGGED[1]
            deal = Deal.objects.create(
                paper=paper, number=number, entered=entered, repealed=repealed
            )
            kept[deal.pk] = (entered, repealed)
    return kept


def old_papers(apps) -> list[dict]:
    """Each paper as its old deals drew it: read by hand_from_entry, which reads both shapes."""
    DigitalPaper = apps.get_model("ratings", "DigitalPaper")
    drawn = []
    for paper in DigitalPaper.objects.order_by("pk"):
        rules = HouseRules.from_json(paper.house_rules)
        hands = [
            hand_from_entry(deal.entered, repealed=deal.repealed, rules=rules)
            for deal in paper.deals.order_by("number")
        ]
        log = {"bula": paper.bula, "refas": None, "hands": hands, "rules": rules.json()}
        drawn.append(paper_result(log))
    return drawn


def new_papers(apps) -> list[dict]:
    """Each paper as its deals in the one shape draw it (the selectors' way)."""
    DigitalPaper = apps.get_model("ratings", "DigitalPaper")
    drawn = []
    for paper in DigitalPaper.objects.order_by("pk"):
        rules = HouseRules.from_json(paper.house_rules)
        hands = [
            Hand.from_json(deal.entered).log_json(repealed=deal.repealed, rules=rules)
            for deal in paper.deals.order_by("number")
        ]
        log = {"bula": paper.bula, "refas": None, "hands": hands, "rules": rules.json()}
        drawn.append(paper_result(log))
    return drawn


def test_the_deal_shape_migration_keeps_both_old_shapes_papers_and_goes_back():
    apps = migrated(("ratings", "0032_night_reminder"))
    kept = paper_with_old_deals(apps)
    before = old_papers(apps)
    assert all("seats" in paper for paper in before), before

    apps = migrated(("ratings", "0033_deal_one_shape"))
    Deal = apps.get_model("ratings", "Deal")
    for deal in Deal.objects.all():
        # Only the one shape, which the pure module reads back as it wrote it.
        assert Hand.from_json(deal.entered).to_json() == deal.entered
        assert deal.repealed == kept[deal.pk][1]
    ids = sorted(kept)  # the tapped paper's three deals, then the logged one's two
    tapped = Deal.objects.get(pk=ids[1]).entered
    assert tapped["contract"] == {"name": "karo", "igra": False, "on_refa": True, "kontra": 0}
    logged = Deal.objects.get(pk=ids[3]).entered
    assert (logged["contract"], logged["declarer"]["tricks"]) == (None, 4)
    assert logged["followers"][0]["supa"] == 30
    assert new_papers(apps) == before

    apps = migrated(("ratings", "0032_night_reminder"))
    Deal = apps.get_model("ratings", "Deal")
    assert {deal.pk: (deal.entered, deal.repealed) for deal in Deal.objects.all()} == kept
