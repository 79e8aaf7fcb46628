"""The players' versions (ratings.versioning, "Players' versions"): a row per player per league,
changed by the triggers for the rows that name the player or lie above rows that do, and the
pages keyed by them read no table those triggers leave out."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.apps import apps
from django.db import connection, transaction
from django.urls import reverse

from ratings import versioning
from ratings.events import services as event_services
from ratings.events.models import Event
from ratings.models import Game, PlayerVersion
from ratings.papers import services as paper_services
from tests.builders import T0, game_recorder, make_league, make_players
from tests.papers.deals import SHORT_GAME, enter
from tests.views.pages import played_event, tables_read, urls
from tests.worked_example import SMALL_PAPERS

record_game = game_recorder()

# Committed writes, as requests make them (PostgreSQL changes a number once per transaction).
pytestmark = pytest.mark.django_db(transaction=True)


def numbers() -> dict[tuple[int, int], tuple[int, int]]:
    """(league, player): (number, papers' number)."""
    return {(v.league_id, v.player_id): (v.number, v.papers) for v in PlayerVersion.objects.all()}


def moved(before: dict, after: dict, which: int = 0) -> set[tuple[int, int]]:
    return {
        pair
        for pair, value in after.items()
        if pair not in before or before[pair][which] != value[which]
    }


@pytest.fixture
def club():
    league = make_league()
    players = make_players(9)
    for day, seats in enumerate(([0, 1, 2], [3, 4, 5], [0, 3, 6], [1, 4, 7])):
        record_game(
            league,
            [players[n] for n in seats],
            papers=SMALL_PAPERS,
            played_at=T0 + timedelta(days=10 + day),
        )
    return league, players


def version_pairs(league, players) -> set[tuple[int, int]]:
    return {(league.pk, player.pk) for player in players}


def test_a_game_changes_its_players_versions_in_its_league_only(club):
    league, players = club
    other = make_league()
    record_game(other, players[:3], papers=SMALL_PAPERS, played_at=T0 + timedelta(days=20))
    before = numbers()

    record_game(league, players[6:9], papers=SMALL_PAPERS, played_at=T0 + timedelta(days=30))

    assert moved(before, numbers()) == version_pairs(league, players[6:9])


def test_a_game_back_dated_moves_the_players_whose_later_games_it_re_rates(club):
    """Its players' later games are re-rated, and so are the games of those they met later:
    their results and standings change, and with them their versions."""
    league, players = club
    before = numbers()

    record_game(league, [players[0], players[5], players[8]], papers=SMALL_PAPERS, played_at=T0)

    changed = moved(before, numbers())
    assert version_pairs(league, [players[0], players[5], players[8]]) <= changed
    assert version_pairs(league, [players[3], players[6]]) <= changed  # who met them later


def test_a_rename_of_the_event_moves_everyone_seated_at_it(club):
    """A night's name shows on its players' pages: a plain UPDATE of its row moves them all."""
    league, players = club
    night = played_event(league, players[:6], rounds=1)
    before = numbers()

    Event.objects.filter(pk=night.pk).update(name="Renamed night")

    assert moved(before, numbers()) == version_pairs(league, players[:6])


def test_a_round_closed_moves_its_players(club):
    league, players = club
    night = played_event(league, players[:6], rounds=1)
    before = numbers()

    event_services.round_close(event_round=night.rounds.get())

    assert moved(before, numbers()) == version_pairs(league, players[:6])


def test_a_deal_moves_its_players_papers_number_not_their_number(club):
    league, players = club
    paper = paper_services.paper_start(league=league, players=players[:3], bula=10)
    before = numbers()

    enter(paper, SHORT_GAME[:1])

    after = numbers()
    assert moved(before, after, which=1) == version_pairs(league, players[:3])
    assert moved(before, after, which=0) == set()


def test_a_bulk_write_moves_every_player_of_its_league(club):
    """SQLite quiets the triggers inside a bulk write (a replay, an import): its end moves every
    player of its leagues once, the players new to them included. (PostgreSQL's triggers run
    inside one as anywhere else.)"""
    if connection.vendor != "sqlite":
        pytest.skip("only SQLite's triggers stand aside in a bulk write")
    league, players = club
    before = numbers()

    with transaction.atomic(), versioning.bulk_write([league]):
        pass

    assert moved(before, numbers()) == version_pairs(league, players[:8])


def test_every_table_of_a_league_that_names_a_player_changes_their_version():
    """A new table of a league whose rows name a player (a foreign key that cannot be empty)
    is one without anyone listing it."""
    player = apps.get_model("ratings", "Player")
    found = versioning.player_paths()
    for table in versioning.league_paths():
        model = next(
            m for m in apps.get_models(include_auto_created=True) if m._meta.db_table == table
        )
        if any(f.related_model is player and not f.null for f in model._meta.concrete_fields):
            assert table in found and found[table].forward, table


def test_the_triggers_are_made_for_both_databases():
    for table in versioning.player_paths():
        for vendor in ("sqlite", "postgresql"):
            statements = versioning.player_trigger_statements(vendor, table)
            assert any("ON CONFLICT (player_id, league_id)" in sql for sql in statements)
            number = "papers" if table in versioning.PAPER_TABLES else "number"
            assert all(f"{number} + 1" in sql for sql in statements if "CONFLICT" in sql)


# By construction: what a page keyed by players' versions reads ------------------------------


def test_a_page_keyed_by_players_reads_only_what_their_versions_cover(client, club):
    """Every table such a page reads is the club's (its writes change the club-wide number, in
    every key), or one whose rows change their players' versions; a page keyed without the
    papers' numbers reads no paper. (Which players' rows it reads is the Shows' part: a player's
    own, those seated at their events, a paper's three, a night's.)"""
    league, players = club
    night = played_event(league, players[:6], rounds=1)
    paper = paper_services.paper_start(league=league, players=players[:3], bula=10)
    enter(paper, SHORT_GAME[:1])
    game = Game.objects.filter(results__player=players[0]).first()
    pages = urls(league, game, players[0], night)
    keyed = {
        pages["player"]: versioning.PLAYER_BY_SLUG,
        pages["head_to_head"]: versioning.PLAYERS_A_AND_B,
        pages["event"]: versioning.EVENT_PLAYERS_BY_PK,
        reverse("ratings:paper", args=[paper.pk]): versioning.PAPER_BY_PK,
    }
    league_tables = set(versioning.league_paths())
    covered = set(versioning.player_paths())
    versions = {versioning.TABLE, versioning.LEAGUE_TABLE, versioning.PLAYER_TABLE}
    known = {m._meta.db_table for m in apps.get_models(include_auto_created=True)}
    for url, shows in keyed.items():
        read = tables_read(client, url) & known
        assert read - versions - league_tables, url  # it reads the club's tables too
        assert read & league_tables <= covered, (url, read & league_tables - covered)
        if not shows.papers:
            assert not read & versioning.PAPER_TABLES, url
