"""The checks of a restored club as a whole, after the loader (:mod:`ratings.backup.restore`)
has written every object: each game against its league's rules, as the engine checks a new game
(:func:`check_games`), and every stored rating against a replay of the games by the engine
(:func:`check_ratings`), and each digital paper's deals against its game (:func:`check_papers`).
Each refuses the file with :class:`RestoreRefused`, which the loader
raises too (it is defined here so that the loader imports this module, not the reverse).
"""

from __future__ import annotations

from contextlib import closing
from itertools import groupby
from operator import itemgetter

from django.core.exceptions import ValidationError
from django.db import connection
from django.db.models import Count, F, Min
from django.utils import timezone

from ratings import engine
from ratings.backtest.stored import figures_problem
from ratings.events.models import Event, EventTable, Scoring
from ratings.events.services import check_event_rules
from ratings.models import (
    AuditAction,
    AuditEntry,
    Game,
    League,
    Player,
    PlayerAlias,
    Result,
    Standing,
    StoredBacktest,
)
from ratings.papers.selectors import first_paper_difference


class RestoreRefused(Exception):
    """The file was refused; the message says why. Nothing was written."""


def check_games() -> None:
    """Every game follows its league's rules, as the engine checks a new game: the number of
    players, a paper for each Preferans seat and scores that follow from the papers, results
    of a head-to-head game, a bula only in Preferans..."""
    leagues = {league.pk: league for league in League.objects.all()}
    empty = Game.objects.filter(results__isnull=True).values_list("pk", "league_id").first()
    if empty is not None:
        raise RestoreRefused(f"{_game_name(leagues, *empty)} has no players")
    rows = (
        Result.objects.order_by("game_id", "seat")
        .values_list(
            "game_id",
            "game__league_id",
            "game__played_at",
            "game__bula",
            "game__ended_early",
            "player_id",
            "seat",
            "left",
            "middle",
            "right",
            "score",
        )
        .iterator(chunk_size=10_000)
    )
    # Closed before a refusal leaves the loop: a server-side cursor (PostgreSQL) left to the
    # garbage collector is closed at a random moment, maybe inside another query on the same
    # connection, and psycopg then waits for itself for ever.
    with closing(rows):
        for game_id, seats in groupby(rows, key=itemgetter(0)):
            _check_game(leagues, game_id, list(seats))


def _check_game(leagues: dict[int, League], game_id: int, seats: list[tuple]) -> None:
    _id, league_id, played_at, bula, ended_early = seats[0][:5]
    game = _game_name(leagues, game_id, league_id)
    if [seat[6] for seat in seats] != list(range(len(seats))):
        raise RestoreRefused(f"{game} has seats {[seat[6] for seat in seats]}, not 0, 1, ...")
    papers = [None if seat[8] is None else seat[7:10] for seat in seats]
    scores = [seat[10] for seat in seats]
    try:
        prepared = engine.prepare_game(
            leagues[league_id],
            played_at=played_at,
            entries=[
                engine.Entry(player_id=seat[5], score=seat[10], paper=paper)
                for seat, paper in zip(seats, papers, strict=True)
            ],
            bula=bula,
            ended_early=ended_early,
        )
    except ValidationError as error:
        raise RestoreRefused(f"{game}: {' '.join(error.messages)}") from None
    if prepared.papers != papers:
        raise RestoreRefused(f"{game} has papers, but only Preferans games have them")
    if prepared.scores != scores:
        raise RestoreRefused(
            f"{game} has the scores {scores}, but its papers give {prepared.scores}"
        )


def _game_name(leagues: dict[int, League], game_id: int, league_id: int) -> str:
    return f'game {game_id} of the league "{leagues[league_id].name}"'


def check_events() -> None:
    """Every event follows the rules its service checks on creation (table size, scoring, points
    per place, rounds), and each table seats at most the event's table size and holds, if any, a
    game of the event's own league: what the event pages rely on."""
    for event in Event.objects.select_related("league").order_by("pk"):
        name = f'the event {event.pk} "{event.name}"'
        points = event.points_per_place
        if type(points) is not list or (event.scoring != Scoring.PLACES and points):
            # The service stores a list, and an empty one unless the scoring is by places.
            raise RestoreRefused(f"{name} has points per place {points!r}, not as it stores them")
        try:
            check_event_rules(
                event.league,
                table_size=event.table_size,
                scoring=event.scoring,
                points_per_place=event.points_per_place,
                rounds_total=event.rounds_total,
            )
        except ValidationError as error:
            raise RestoreRefused(f"{name}: {' '.join(error.messages)}") from None
    crowded = (
        EventTable.objects.annotate(seated=Count("seats"))
        .filter(seated__gt=F("round__event__table_size"))
        .values_list("pk", "seated")
        .first()
    )
    if crowded is not None:
        raise RestoreRefused(f"the event table {crowded[0]} seats {crowded[1]}, more than its size")
    elsewhere = (
        EventTable.objects.exclude(game__isnull=True)
        .exclude(game__league_id=F("round__event__league_id"))
        .values_list("pk", "game_id")
        .first()
    )
    if elsewhere is not None:
        raise RestoreRefused(
            f"the event table {elsewhere[0]} holds game {elsewhere[1]}, of another league"
        )


def check_audit() -> None:
    """Every deleted game's snapshot in the audit trail reads back as the audit restore reads it
    (a damaged one made the event, player and audit pages answer 500)."""
    entries = AuditEntry.objects.filter(action=AuditAction.DELETE).exclude(before=None)
    for pk, before in entries.values_list("pk", "before").iterator(chunk_size=1000):
        try:
            engine.read_snapshot(before)
        except ValidationError as error:
            raise RestoreRefused(f"the audit entry {pk}: {' '.join(error.messages)}") from None


def check_players() -> None:
    """No old address is a live player's address, and no birth date comes after the player's
    first game (FIDE counts their age from it): the rules the admin keeps."""
    taken = PlayerAlias.objects.filter(slug__in=Player.objects.values("slug")).first()
    if taken is not None:
        raise RestoreRefused(f"the old address {taken.slug!r} is also a player's address")
    firsts = (
        Result.objects.filter(player__birth_date__isnull=False)
        .values("player_id", "player__birth_date")
        .annotate(first=Min("game__played_at"))
    )
    for row in firsts:
        if timezone.localdate(row["first"]) < row["player__birth_date"]:
            raise RestoreRefused(
                f"the player {row['player_id']} was born on {row['player__birth_date']}, after "
                f"their first game ({timezone.localdate(row['first'])})"
            )


EXPECTED_RESULTS = "restore_club_expected_results"
EXPECTED_STANDINGS = "restore_club_expected_standings"
STANDING_STATE = ["rating", "games", "peak_rating", "last_change", "last_played_at"]


def check_ratings() -> None:
    """Replay every league with the engine and refuse the file if any stored rating differs.

    A backup holds the ratings exactly as the engine gave them, and the engine's replay is
    deterministic: any difference means the file was changed. The file's ratings are copied to
    temporary tables in the database, which compares them after the replay (no copy in memory).
    """
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(
            f"CREATE TEMPORARY TABLE {EXPECTED_RESULTS} AS SELECT id, rating_before, rating_after "
            f"FROM {quote(Result._meta.db_table)}"
        )
        cursor.execute(
            f"CREATE TEMPORARY TABLE {EXPECTED_STANDINGS} AS "
            f"SELECT id, {', '.join(STANDING_STATE)} FROM {quote(Standing._meta.db_table)}"
        )
    for league in League.objects.order_by("pk"):
        problem = None
        try:
            engine.league_recompute(league=league)
        except (ArithmeticError, ValueError) as error:
            problem = f'the league "{league.name}" cannot be rated ({error})'
        # Raised out here, so that no traceback keeps the replay's cursors open (see check_games).
        if problem:
            raise RestoreRefused(problem)
    difference = _result_difference() or _standing_difference()
    if difference:
        raise RestoreRefused(
            f"{difference}. A backup holds the ratings exactly as they were, so this file has "
            "been changed or damaged (if the club was rated by an older version of this app, run "
            "recompute_ratings there and back it up again)"
        )
    with connection.cursor() as cursor:
        cursor.execute(f"DROP TABLE {EXPECTED_RESULTS}")
        cursor.execute(f"DROP TABLE {EXPECTED_STANDINGS}")


def _result_difference() -> str | None:
    """The first result, in rating order, whose replayed ratings differ from the file's."""
    quote = connection.ops.quote_name
    differs = "r.rating_before <> e.rating_before OR r.rating_after <> e.rating_after"
    tables = (
        f"{quote(Result._meta.db_table)} r JOIN {EXPECTED_RESULTS} e ON e.id = r.id "
        f"JOIN {quote(Game._meta.db_table)} g ON g.id = r.game_id"
    )
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT r.game_id, r.player_id, e.rating_before, e.rating_after, r.rating_before, "
            f"r.rating_after FROM {tables} WHERE {differs} "
            "ORDER BY g.played_at, g.id, r.seat LIMIT 1"
        )
        first = cursor.fetchone()
        if first is None:
            return None
        cursor.execute(f"SELECT COUNT(*) FROM {tables} WHERE {differs}")
        (count,) = cursor.fetchone()
    game_id, player_id, file_before, file_after, before, after = first
    game = Game.objects.select_related("league").get(pk=game_id)
    player = Player.objects.get(pk=player_id)
    return (
        f'In the league "{game.league.name}", game {game_id} (played {game.played_at}), '
        f"{player.name}'s rating goes from {file_before!r} to {file_after!r} in the file, from "
        f"{before!r} to {after!r} by a replay of the games ({count} result(s) differ in all)"
    )


def _standing_difference() -> str | None:
    """The first standing that differs from the replay's, or that the file lacks."""
    quote = connection.ops.quote_name
    distinct = "IS NOT" if connection.vendor == "sqlite" else "IS DISTINCT FROM"
    columns = ", ".join(f"s.{name}, e.{name}" for name in STANDING_STATE)
    differs = " OR ".join(f"s.{name} {distinct} e.{name}" for name in STANDING_STATE)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT s.league_id, s.player_id, e.id, {columns} "
            f"FROM {quote(Standing._meta.db_table)} s LEFT JOIN {EXPECTED_STANDINGS} e "
            f"ON e.id = s.id WHERE e.id IS NULL OR {differs} "
            "ORDER BY s.league_id, s.player_id LIMIT 1"
        )
        first = cursor.fetchone()
    if first is None:
        return None
    league_id, player_id, in_file, *pairs = first
    where = (
        f'In the league "{League.objects.get(pk=league_id).name}", '
        f"{Player.objects.get(pk=player_id).name}'s standing"
    )
    if in_file is None:
        return f"{where} is missing from the file, though they played there"
    for at, name in enumerate(STANDING_STATE):
        replayed, stored = pairs[2 * at], pairs[2 * at + 1]
        if replayed != stored:
            return (
                f"{where} has the {name.replace('_', ' ')} {stored!r} in the file, "
                f"{replayed!r} by a replay of the games"
            )
    return f"{where} differs from a replay of the games"


def check_backtests() -> None:
    """Each stored backtest has the figures its page reads (the page shows them as they are)."""
    for league, figures in StoredBacktest.objects.values_list("league__name", "figures"):
        problem = figures_problem(figures)
        if problem is not None:
            raise RestoreRefused(f'the stored backtest of the league "{league}": {problem}')


def check_papers() -> None:
    """Every digital paper's deals follow the paper's rules and, once it is a game, give that
    game's players and columns: a deal log replayed gives what was rated."""
    problem = first_paper_difference()
    if problem is not None:
        raise RestoreRefused(problem)
