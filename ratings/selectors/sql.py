"""The pieces of SQL the reads share: table names, what a place is, reading rows and times
without the ORM, and the ORM's correlated count.
:mod:`~ratings.selectors.statistics`, :mod:`~ratings.selectors.seasons`,
:mod:`~ratings.selectors.players` and :mod:`ratings.events.selectors` import them from here.

A player's **place** in a game is 1 + the number of seats with a strictly better score, so ties
share a place; which score is better is the league's rating system's (``lower_score_is_better``:
the lowest Preferans final score wins, the highest head-to-head score is a win). It is defined
once, by :mod:`ratings.algorithms.places` (asked through
:meth:`ratings.systems.RatingSystem.places`), and the engine stores it on each result
(``Result.place``), with the game's league and time: a read of a player's games takes them from
the player's own results, one range of the index ``result_player_once`` (player, league,
played_at, game), and never joins the games. A **first place** is place 1, shared or not; in a
game of two a first place alone is a win and a shared one a draw. One player **finished ahead**
of another when their place is better (a lower number): equal places are equal scores.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from django.db import connection
from django.db.models import Count, IntegerField, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce

from ratings.models import Game, League, OpponentTally, Player, Result, SeasonStanding

RESULT, GAME, LEAGUE, PLAYER, SEASON_STANDING, OPPONENT_TALLY = (
    m._meta.db_table for m in (Result, Game, League, Player, SeasonStanding, OpponentTally)
)


def opponent_records_sql() -> str:
    """SQL for a player's record against each other player they met, a row a league and
    opponent (``league_id, opponent_id, games, ahead, level, behind``), from the pairs' tallies
    (:class:`~ratings.models.OpponentTally`): the pairs where the player comes first as they
    are, those where they come second read from their side, ahead and behind swapped. Its two
    parameters are the player's id, twice."""
    return f"""
        SELECT t.league_id, t.opponent_id, t.games, t.ahead, t.level, t.behind
        FROM {OPPONENT_TALLY} t
        WHERE t.player_id = %s
        UNION ALL
        SELECT t.league_id, t.player_id, t.games, t.behind, t.level, t.ahead
        FROM {OPPONENT_TALLY} t
        WHERE t.opponent_id = %s
    """


def tied_sql(seat: str) -> str:
    """SQL that is true when another seat of ``seat``'s game has the same score (for a first
    place: a shared one)."""
    return f"""EXISTS (
        SELECT 1 FROM {RESULT} o
        WHERE o.game_id = {seat}.game_id AND o.score = {seat}.score
          AND o.player_id <> {seat}.player_id
    )"""


def shared_first_sql(seat: str) -> str:
    """SQL for 1 when ``seat`` took a first place another seat of its game shares, else 0:
    the other seats are looked up for first places only."""
    return f"(CASE WHEN {seat}.place = 1 AND {tied_sql(seat)} THEN 1 ELSE 0 END)"


def seats_join(game: str, alias: str, condition: str) -> str:
    """SQL that joins each row to the seats ``alias`` (player_id, place) of its game (``game``:
    the game id's column) that meet ``condition``, found through the index on (game, seat).

    On PostgreSQL the seats are a LATERAL subquery the planner may not flatten (OFFSET 0): a few
    thousand lookups in the index, however many results the club has. Flattened into a join,
    the planner may hash every result of the club instead (it did at 200,000 games, so a
    player's opponents cost a scan of the whole table). SQLite joins through the index anyway.
    """
    if connection.vendor == "postgresql":
        return (
            f"JOIN LATERAL (SELECT seat.player_id, seat.place FROM {RESULT} seat "
            f"WHERE seat.game_id = {game} OFFSET 0) {alias} ON {condition}"
        )
    return f"JOIN {RESULT} {alias} ON {alias}.game_id = {game} AND {condition}"


def played_at_sql(column: str) -> str:
    """SQL that reads a datetime column (``g.played_at``) for :func:`moment_reader`: as its
    stored text on SQLite, the column itself elsewhere.

    Read plainly, SQLite's column goes through the sqlite3 module's converter for its declared
    type (a regular expression), then Django's a row; as text, ``datetime.fromisoformat`` (in C)
    reads it at once.
    """
    return f"CAST({column} AS TEXT)" if connection.vendor == "sqlite" else column


def seconds_sql(column: str) -> str:
    """SQL that reads a datetime column as seconds since 1970, for a page that needs only the
    numbers (a chart's line): a float from the database, where reading it as a datetime costs a
    conversion a row (PostgreSQL's driver makes each an aware datetime in the connection's zone).
    With :func:`seconds_reader` for the value read."""
    if connection.vendor == "postgresql":
        return f"date_part('epoch', {column})"
    if connection.vendor == "sqlite" and connection.timezone_name == "UTC":
        # Stored as text in UTC: whole seconds, then the fraction after "YYYY-MM-DD HH:MM:SS"
        # ("%%": the statement is run with parameters, whose placeholders are "%s").
        return f"(strftime('%%s', {column}) + COALESCE(CAST(substr({column}, 20) AS REAL), 0))"
    return played_at_sql(column)


def seconds_reader() -> Callable[[Any], float] | None:
    """What turns a value :func:`seconds_sql` gave into seconds since 1970: None where it is
    the number already."""
    if connection.vendor == "postgresql" or (
        connection.vendor == "sqlite" and connection.timezone_name == "UTC"
    ):
        return None
    moment = moment_reader()
    return lambda value: moment(value).timestamp()


def moment_of(seconds: float) -> datetime:
    """Seconds since 1970 as the aware datetime the ORM would give (in UTC)."""
    return datetime.fromtimestamp(seconds, UTC)


def moment_reader() -> Callable[[str | datetime], datetime]:
    """A function that reads a datetime given by SQL without the ORM as the ORM gives it (aware):
    SQLite gives text (see :func:`played_at_sql`) or a naive datetime in the connection's zone,
    PostgreSQL an aware datetime. (The zone is looked up once: through Django's connection
    proxy, a lookup costs more than reading the time.)"""
    zone = connection.timezone

    def moment(value: str | datetime) -> datetime:
        if isinstance(value, str):
            value = datetime.fromisoformat(value)
        return value.replace(tzinfo=zone) if value.tzinfo is None else value

    return moment


def sql_rows(sql: str, params) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def count_subquery(queryset: QuerySet, group_by: str) -> Coalesce:
    """A correlated COUNT(*) subquery: ``queryset`` already filtered on an OuterRef; 0 for none."""
    counted = queryset.order_by().values(group_by).annotate(n=Count("pk")).values("n")
    return Coalesce(Subquery(counted, output_field=IntegerField()), Value(0))
