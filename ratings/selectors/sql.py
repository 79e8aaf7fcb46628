"""The pieces of SQL the reads share: table names, a league's direction written as ``CASE``
expressions, a game's places, reading rows and times without the ORM, and the ORM's correlated
count. :mod:`~ratings.selectors.statistics`, :mod:`~ratings.selectors.seasons`,
:mod:`~ratings.selectors.players` and :mod:`ratings.events.selectors` import them from here.

A player's **place** in a game is 1 + the number of seats with a strictly better score, so ties
share a place; which score is better is the league's rating system's (``lower_score_is_better``:
the lowest Preferans final score wins, the highest head-to-head score is a win). A **first place**
is place 1, shared or not; in a game of two a first place alone is a win and a shared one a draw.
One player **finished ahead** of another when their score is better (:func:`ahead_sql`). A
place is counted one of two ways, whichever reads fewer rows, both ordering by
:func:`score_key`: by joining a player's results to the other seats of their games
(:func:`place_sql`, for one player's history) or by RANK over each game's seats
(:func:`place_window_sql`, for a whole league's period).

The systems' directions come from :mod:`ratings.systems`, written into the SQL as CASE
expressions over a league's ``system``, so one query covers leagues of either direction.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime

from django.db import connection
from django.db.models import Count, IntegerField, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce

from ratings.models import Game, League, Player, Result, SeasonStanding
from ratings.systems import SYSTEMS

RESULT, GAME, LEAGUE, PLAYER, SEASON_STANDING = (
    m._meta.db_table for m in (Result, Game, League, Player, SeasonStanding)
)

_CODE = re.compile(r"[a-z_]+")


def code_sql(code: str) -> str:
    """A system's code as an SQL literal (for a query about one league)."""
    assert _CODE.fullmatch(code), code
    return f"'{code}'"


def _codes(*, scores: bool) -> str:
    """The codes of the systems where a lower score (or rating) is better, as an SQL list.

    Written into the SQL rather than passed as parameters: they are our own constants, and the
    same list appears in several window clauses of one statement.
    """
    codes = [
        system.code
        for system in SYSTEMS.values()
        if (system.lower_score_is_better if scores else system.lower_is_better)
    ]
    return ", ".join(code_sql(code) for code in codes) or "NULL"


def score_key(score: str, system: str) -> str:
    """SQL for a number that is lower for a better game score, in the league's direction."""
    return f"(CASE WHEN {system} IN ({_codes(scores=True)}) THEN {score} ELSE -({score}) END)"


def rating_key(rating: str, system: str) -> str:
    """SQL for a number that is lower for a better rating (or change), in the league's direction."""
    return f"(CASE WHEN {system} IN ({_codes(scores=False)}) THEN {rating} ELSE -({rating}) END)"


def ahead_sql(mine: str, other: str, system: str) -> str:
    """SQL that is true when the score ``mine`` is strictly better than ``other``: finished
    ahead."""
    return f"{score_key(mine, system)} < {score_key(other, system)}"


def place_sql(mine: str, other: str, system: str) -> str:
    """SQL for the place of the seat whose score is ``mine``, grouped over a join of that seat to
    every seat of its game (``other``, its own included)."""
    return f"1 + SUM(CASE WHEN {ahead_sql(other, mine, system)} THEN 1 ELSE 0 END)"


def place_window_sql(score: str, system: str, game: str) -> str:
    """SQL for a seat's place by RANK over the seats of its game (``game``: the game id's
    column), equal scores sharing a place."""
    return f"RANK() OVER (PARTITION BY {game} ORDER BY {score_key(score, system)})"


def tied_sql(seat: str) -> str:
    """SQL that is true when another seat of ``seat``'s game has the same score (for a first
    place: a shared one)."""
    return f"""EXISTS (
        SELECT 1 FROM {RESULT} o
        WHERE o.game_id = {seat}.game_id AND o.score = {seat}.score
          AND o.player_id <> {seat}.player_id
    )"""


def played_at_sql(column: str) -> str:
    """SQL that reads a datetime column (``g.played_at``) for :func:`moment_reader`: as its
    stored text on SQLite, the column itself elsewhere.

    Read plainly, SQLite's column goes through the sqlite3 module's converter for its declared
    type (a regular expression), then Django's a row; as text, ``datetime.fromisoformat`` (in C)
    reads it at once.
    """
    return f"CAST({column} AS TEXT)" if connection.vendor == "sqlite" else column


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
