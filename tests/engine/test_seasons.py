"""The season standings the engine keeps (ratings/engine/seasons.py): after any sequence of the
engine's writes, every season's table read from them equals the one read from the results."""

from __future__ import annotations

from contextlib import suppress
from datetime import UTC, date, datetime, timedelta

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from hypothesis import given
from hypothesis import strategies as st

from ratings import engine
from ratings.dates import season_start
from ratings.engine import seasons
from ratings.models import AuditAction, AuditEntry, Game, SeasonStanding, System
from ratings.selectors import season_standings
from tests.builders import (
    SYSTEM_CODES,
    entries_for,
    game_data,
    make_league,
    make_players,
    score_entries,
)
from tests.replays import assert_opponents_match_results, assert_seasons_match_results

pytestmark = pytest.mark.django_db

# Moments around the new years of 2024 and 2025, in UTC and in Belgrade (an hour ahead in winter),
# and within the years: a game on either side of a season's first moment.
MOMENTS = [
    moment
    for year in (2023, 2024)
    for moment in (
        datetime(year, 6, 1, 20, tzinfo=UTC),
        datetime(year, 12, 31, 22, 30, tzinfo=UTC),
        datetime(year, 12, 31, 23, 0, tzinfo=UTC),  # midnight in Belgrade
        datetime(year, 12, 31, 23, 30, tzinfo=UTC),
        datetime(year + 1, 1, 1, 0, 0, tzinfo=UTC),
        datetime(year + 1, 1, 1, 0, 30, tzinfo=UTC),
    )
] + [datetime(2025, 3, 1, 20, tzinfo=UTC)]

KINDS = ["add", "add", "add", "edit", "delete", "restore", "import", "start", "merge", "recompute"]


@st.composite
def season_operations(draw):
    system = draw(SYSTEM_CODES)
    ops = []
    for _ in range(draw(st.integers(1, 12))):
        seats, data = draw(game_data(system))
        ops.append(
            {
                "kind": draw(st.sampled_from(KINDS)),
                "at": draw(st.sampled_from(MOMENTS)) + timedelta(minutes=draw(st.integers(0, 3))),
                "seats": draw(st.permutations(range(6)))[:seats],
                "data": data,
                "pick": draw(st.integers(0, 100)),
                "start": draw(st.integers(800, 2600)),
                "replace": draw(st.booleans()),
            }
        )
    return system, draw(st.sampled_from(["UTC", "Europe/Belgrade"])), ops


def imported(players, op) -> list[engine.ImportedGame]:
    """Two scored games a day apart from the operation's moment, by the players' names."""
    names = [players[i].name for i in op["seats"]]
    scores = op["data"]["scores"]
    return [
        engine.ImportedGame(op["at"] + timedelta(days=day), list(zip(names, scores, strict=True)))
        for day in (0, 1)
    ]


def apply(league, players, merged: set[int], op) -> None:
    """One of the engine's writes; ``merged``: the players merged away (they play no more)."""
    games = list(Game.objects.filter(league=league).chronological())
    kind = op["kind"]
    if kind == "import" and "scores" not in op["data"]:
        kind = "add"  # a rayter file holds scores, not papers
    if kind in ("edit", "delete") and not games:
        kind = "add"
    if kind in ("add", "edit", "import") and merged & {players[i].pk for i in op["seats"]}:
        return
    if kind == "add":
        entries, bula = entries_for(players, op)
        engine.game_record(league=league, played_at=op["at"], entries=entries, bula=bula)
    elif kind == "edit":
        entries, bula = entries_for(players, op)
        game = games[op["pick"] % len(games)]
        engine.game_update(game=game, played_at=op["at"], entries=entries, bula=bula)
    elif kind == "delete":
        engine.game_delete(game=games[op["pick"] % len(games)])
    elif kind == "restore":
        deleted = AuditEntry.objects.filter(league=league, action=AuditAction.DELETE)
        entry = deleted.exclude(game_id__in=[game.pk for game in games]).order_by("-pk").first()
        if entry is not None:
            with suppress(ValidationError):  # e.g. two of its players merged since
                engine.game_restore(entry=entry)
    elif kind == "import":
        engine.games_import(league=league, games=imported(players, op), replace=op["replace"])
    elif kind == "start":
        player = players[op["pick"] % len(players)]
        if player.pk not in merged:
            engine.standing_set_start_rating(league=league, player=player, rating=op["start"])
    elif kind == "merge":
        source, target = players[op["pick"] % 6], players[(op["pick"] + 1) % 6]
        if not merged & {source.pk, target.pk}:
            try:
                engine.player_merge(source=source, target=target)
            except ValidationError:
                return  # they sat at one table: two people
            merged.add(source.pk)
    else:
        engine.league_recompute(league=league)


@given(season_operations())
def test_any_sequence_of_writes_keeps_every_season_and_tally_as_its_results_give_it(case):
    """The seasons, and the opponents' tallies (ratings/engine/opponents.py), which the same
    writes keep."""
    system, zone, ops = case
    with override_settings(TIME_ZONE=zone):
        extra = {"start_rating": 2350} if system == System.FIDE else {}
        league = make_league(system, **extra)
        players = make_players(3) + make_players(3, birth_date=date(2012, 5, 17))
        merged: set[int] = set()
        for op in ops:
            apply(league, players, merged, op)
            assert_seasons_match_results(league)
            assert_opponents_match_results(league)
        engine.league_recompute(league=league)
        assert_seasons_match_results(league)
        assert_opponents_match_results(league)


def test_recording_the_newest_game_updates_one_row_per_seat_in_one_statement(record_game):
    league = make_league(System.ELO)
    ana, bojan, ceca = make_players(["Ana", "Bojan", "Ceca"])
    record_game(league, [ana, bojan], scores=(1, 0), played_at=datetime(2025, 3, 1, tzinfo=UTC))
    record_game(league, [ceca, bojan], scores=(0, 1), played_at=datetime(2026, 3, 1, tzinfo=UTC))
    with CaptureQueriesContext(connection) as queries:
        record_game(
            league, [ana, bojan], scores=(0.5, 0.5), played_at=datetime(2026, 3, 2, tzinfo=UTC)
        )
    season_queries = [q for q in queries if SeasonStanding._meta.db_table in q["sql"]]
    assert len(season_queries) == 1

    rows = {
        (row.year, row.player.name): (row.games, row.career_games, row.first_places)
        for row in SeasonStanding.objects.filter(league=league).select_related("player")
    }
    assert rows == {
        (2025, "Ana"): (1, 1, 1),
        (2025, "Bojan"): (1, 1, 0),
        (2026, "Ana"): (1, 2, 1),  # a draw: a shared first place
        (2026, "Bojan"): (2, 3, 2),
        (2026, "Ceca"): (1, 1, 0),
    }
    assert SeasonStanding.objects.get(league=league, year=2026, player=ana).shared_first_places == 1


def test_a_whole_season_reads_the_season_standings_not_the_results(record_game):
    league = make_league(System.ELO)
    ana, bojan = make_players(["Ana", "Bojan"])
    record_game(league, [ana, bojan], scores=(1, 0), played_at=datetime(2025, 3, 1, tzinfo=UTC))
    with CaptureQueriesContext(connection) as queries:
        rows = season_standings(league, season_start(2025), season_start(2026))
    assert [row.name for row in rows] == ["Ana", "Bojan"]
    (query,) = queries
    assert SeasonStanding._meta.db_table in query["sql"]
    assert Game._meta.db_table not in query["sql"]

    with CaptureQueriesContext(connection) as queries:
        season_standings(league, season_start(2025), season_start(2025) + timedelta(days=90))
    (query,) = queries
    assert SeasonStanding._meta.db_table not in query["sql"]


def test_a_replay_from_scratch_rebuilds_the_rows_the_engine_kept(record_game):
    """The statement a replay, an import and the migration run gives the rows that recording
    games one by one kept."""
    league = make_league(System.RAYTER_HIGHSCORE)
    people = make_players(4)
    for day in range(0, 800, 40):
        record_game(
            league,
            [people[day % 4], people[(day + 1) % 4], people[(day + 2) % 4]],
            scores=(day % 7, 3, day % 5),
            played_at=datetime(2024, 1, 1, tzinfo=UTC) + timedelta(days=day),
        )

    def rows():
        return sorted(
            SeasonStanding.objects.filter(league=league).values_list(
                *(field.attname for field in SeasonStanding._meta.fields if field.attname != "id")
            )
        )

    kept = rows()
    assert {row[1] for row in kept} == {2024, 2025, 2026}
    engine.league_recompute(league=league)
    assert rows() == kept


def test_a_replay_from_the_middle_of_a_season_gives_the_rows_a_rebuild_gives(record_game):
    """A replay counts the part of the season before its first game by SQL and the rest as it
    rates: an edit, a deletion and a back-dated game in the middle of a season, and games at the
    same moment (ordered by id), leave the rows a rebuild of every season gives."""
    league = make_league(System.ELO)
    people = make_players(4)
    start = datetime(2024, 1, 1, tzinfo=UTC)
    games = []
    for day in [*range(0, 500, 25), 150, 150, 150]:  # three games at one moment mid-2024
        games.append(
            record_game(
                league,
                [people[day % 4], people[(day // 25 + 1) % 4]],
                scores=((day // 25) % 2, 1 - (day // 25) % 2),
                played_at=start + timedelta(days=day),
            )
        )

    def rows():
        return sorted(
            SeasonStanding.objects.filter(league=league).values_list(
                *(field.attname for field in SeasonStanding._meta.fields if field.attname != "id")
            )
        )

    def assert_rebuilt():
        kept = rows()
        seasons.rebuild(league)
        assert rows() == kept
        assert_seasons_match_results(league)

    tied = [game for game in games if game.played_at == start + timedelta(days=150)]
    engine.game_update(
        game=tied[1],
        played_at=tied[1].played_at,
        entries=score_entries([people[2], people[3]], [0, 1]),
    )
    assert_rebuilt()
    engine.game_delete(game=games[9])  # 2024-08-07
    assert_rebuilt()
    record_game(
        league, [people[0], people[3]], scores=(1, 0), played_at=start + timedelta(days=410)
    )
    assert_rebuilt()
    engine.game_update(
        game=games[3],
        played_at=start + timedelta(days=430),
        entries=score_entries([people[1], people[2]], [1, 0]),
    )
    assert_rebuilt()
