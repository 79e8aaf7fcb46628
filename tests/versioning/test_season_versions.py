"""The seasons' versions (ratings.versioning, "Seasons' versions"): a row per league and season,
and the frame's (year 0), changed by the triggers of the season standings and of the tables the
frame shows; the season page keyed by them reads no other table of its league."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.apps import apps
from django.db import connection, transaction
from django.urls import reverse

from ratings import engine, versioning
from ratings.events.models import Event
from ratings.models import Game, SeasonVersion
from ratings.papers import services as paper_services
from tests.builders import T0, game_recorder, make_league, make_players
from tests.papers.deals import SHORT_GAME, enter
from tests.views.pages import played_event, tables_read
from tests.worked_example import SMALL_PAPERS

record_game = game_recorder()

pytestmark = pytest.mark.django_db(transaction=True)

EARLY = T0.replace(year=T0.year - 1)  # a season before T0's
YEAR = EARLY.year
NEXT_YEAR = T0


def season_numbers() -> dict[tuple[int, int], int]:
    """(league, year): number."""
    return {(v.league_id, v.year): v.number for v in SeasonVersion.objects.all()}


def seasons_moved(before: dict, after: dict) -> set[tuple[int, int]]:
    return {key for key, number in after.items() if before.get(key) != number}


@pytest.fixture
def club():
    league = make_league()
    players = make_players(6)
    for day, seats in enumerate(([0, 1, 2], [3, 4, 5], [0, 3, 4])):
        record_game(
            league,
            [players[n] for n in seats],
            papers=SMALL_PAPERS,
            played_at=EARLY + timedelta(days=10 + day),
        )
    return league, players


def test_a_game_moves_its_season_only(club):
    """The season had rows (a new player's among them): no season comes or goes, the frame
    stays."""
    league, players = club
    other = make_league()
    record_game(league, players[:3], papers=SMALL_PAPERS, played_at=NEXT_YEAR)
    record_game(other, players[:3], papers=SMALL_PAPERS, played_at=NEXT_YEAR)
    before = season_numbers()

    record_game(league, players[2:5], papers=SMALL_PAPERS, played_at=NEXT_YEAR + timedelta(days=1))

    assert seasons_moved(before, season_numbers()) == {(league.pk, YEAR + 1)}


def test_a_seasons_first_game_moves_the_frame_too(club):
    """The season's first rows: its tab comes."""
    league, players = club
    before = season_numbers()

    record_game(league, players[3:6], papers=SMALL_PAPERS, played_at=NEXT_YEAR)

    assert seasons_moved(before, season_numbers()) == {(league.pk, YEAR + 1), (league.pk, 0)}


def test_a_seasons_last_game_deleted_moves_the_frame_too(club):
    league, players = club
    game = record_game(league, players[3:6], papers=SMALL_PAPERS, played_at=NEXT_YEAR)
    before = season_numbers()

    engine.game_delete(game=Game.objects.get(pk=game.pk))

    assert {(league.pk, YEAR + 1), (league.pk, 0)} <= seasons_moved(before, season_numbers())


def test_a_game_back_dated_moves_the_seasons_it_re_rates(club):
    league, players = club
    record_game(league, players[:3], papers=SMALL_PAPERS, played_at=NEXT_YEAR)
    before = season_numbers()

    record_game(league, players[3:6], papers=SMALL_PAPERS, played_at=EARLY)

    assert {(league.pk, YEAR), (league.pk, YEAR + 1)} <= seasons_moved(before, season_numbers())


@pytest.mark.parametrize("write", ["event renamed", "deal", "paper started"])
def test_what_the_frame_shows_moves_the_frame_only(club, write):
    league, players = club
    night = played_event(league, players, rounds=1)
    paper = paper_services.paper_start(league=league, players=players[:3], bula=10)
    before = season_numbers()

    if write == "event renamed":
        Event.objects.filter(pk=night.pk).update(name="Renamed night")
    elif write == "deal":
        enter(paper, SHORT_GAME[:1])
    else:
        paper_services.paper_start(league=league, players=players[3:6], bula=10)

    assert seasons_moved(before, season_numbers()) == {(league.pk, 0)}


def test_a_bulk_write_moves_every_season_of_its_league(club):
    """SQLite quiets the triggers inside a bulk write: its end moves every season of its
    leagues once, and their frames."""
    if connection.vendor != "sqlite":
        pytest.skip("only SQLite's triggers stand aside in a bulk write")
    league, players = club
    other = make_league()
    record_game(league, players[:3], papers=SMALL_PAPERS, played_at=NEXT_YEAR)
    record_game(other, players[:3], papers=SMALL_PAPERS, played_at=NEXT_YEAR)
    before = season_numbers()

    with transaction.atomic(), versioning.bulk_write([league]):
        pass

    assert seasons_moved(before, season_numbers()) == {
        (league.pk, YEAR),
        (league.pk, YEAR + 1),
        (league.pk, 0),
    }


def test_the_triggers_are_made_for_both_databases():
    assert versioning.season_tables() == {
        versioning.SEASON_STANDINGS,
        *versioning.SEASON_FRAME_TABLES,
    }
    for table in versioning.season_tables():
        for vendor in ("sqlite", "postgresql"):
            statements = versioning.season_trigger_statements(vendor, table)
            assert any("ON CONFLICT (league_id, year)" in sql for sql in statements), table
    assert all(
        sql.startswith("DROP TRIGGER")
        for vendor in ("sqlite", "postgresql")
        for sql in versioning.season_trigger_statements(vendor, "ratings_game")
    )


def test_a_season_page_reads_only_what_its_versions_cover(client, club):
    """Of its league's tables a season page reads the season standings and the tables of the
    frame only; the rest it reads is the club's (in every key)."""
    league, players = club
    played_event(league, players, rounds=1)
    paper = paper_services.paper_start(league=league, players=players[:3], bula=10)
    enter(paper, SHORT_GAME[:1])
    url = reverse("ratings:leaderboard", args=[league.slug]) + f"?season={YEAR}"
    known = {m._meta.db_table for m in apps.get_models(include_auto_created=True)}

    read = tables_read(client, url) & known

    league_tables = set(versioning.league_paths())
    assert read & league_tables == versioning.season_tables()
    assert versioning.SEASON_TABLE in read
    assert versioning.LEAGUE_TABLE in read  # trusted only outside a bulk write of its league
