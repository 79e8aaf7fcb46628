"""The writers' locks and bulk writes (see "Lock order" in :mod:`ratings.versioning`):
:func:`begin_write`, :func:`lock_rows` (the one way the app locks rows), :func:`bulk_write` and
:func:`row_triggers_dropped`."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import TypeVar

from django.apps import apps
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Model, QuerySet

from ratings.versioning.tables import (
    BUMP,
    LEAGUE_TABLE,
    LEAGUES,
    NUMBER,
    PAPERS,
    PLAYER_TABLE,
    SEASON_STANDINGS,
    SEASON_TABLE,
    TABLE,
    TXID,
    bump_league,
    bump_sql,
)

M = TypeVar("M", bound=Model)


class LockOrderError(RuntimeError):
    """A transaction asked for the club-wide row after a league's, or for a second league's
    row without the club-wide one: two such writers could wait for each other (see "Lock
    order")."""


def _league_ids(leagues: Iterable) -> list[int]:
    return sorted({getattr(league, "pk", league) for league in leagues})


def begin_write(
    leagues: Iterable = (),
    *,
    club: bool = False,
    papers: bool = False,
    using: str = DEFAULT_DB_ALIAS,
) -> None:
    """Take the writers' locks (version rows) of a transaction that writes ``leagues`` (League
    objects or ids) and, with ``club``, club-wide tables or several leagues: see "Lock order"
    in :mod:`ratings.versioning`. ``papers``: the transaction writes the leagues' digital papers
    only, whose writes change the rows' ``papers`` number, not their ``number``.

    Raises :class:`LockOrderError` (PostgreSQL) for the club-wide row after a league's, or a
    second league's without the club-wide row.
    """
    _begin(leagues, club, (PAPERS,) if papers else (NUMBER,), using)


# Either number of a league's row taken by this transaction.
_TAKEN = f"({TXID[NUMBER]} = txid_current() OR {TXID[PAPERS]} = txid_current())"


def _begin(leagues: Iterable, club: bool, numbers: tuple[str, ...], using: str) -> None:
    connection = connections[using]
    with connection.cursor() as cursor:
        if connection.vendor != "postgresql":
            if club:
                cursor.execute(bump_sql(connection.vendor))
            changes = ", ".join(f"{number} = {number} + 1" for number in numbers)
            for league in _league_ids(leagues):
                cursor.execute(
                    f"UPDATE {LEAGUE_TABLE} SET {changes} WHERE league_id = %s", [league]
                )
            return
        if club:
            cursor.execute(
                f"{BUMP['postgresql']} RETURNING EXISTS (SELECT 1 FROM {LEAGUE_TABLE} "
                f"WHERE {_TAKEN})"
            )
            _check_order(cursor.fetchone(), "the club-wide version after a league's")
        for league in _league_ids(leagues):
            for number in numbers:
                cursor.execute(
                    f"{bump_league(number)} RETURNING EXISTS (SELECT 1 FROM {LEAGUE_TABLE} "
                    f"WHERE {_TAKEN} AND league_id <> %s) AND NOT EXISTS (SELECT 1 "
                    f"FROM {TABLE} WHERE id = 1 AND txid = txid_current())",
                    [league, league],
                )
                _check_order(cursor.fetchone(), f"a second league's version ({league}) without it")


def _check_order(row, what: str) -> None:
    if row is not None and row[0]:
        raise LockOrderError(f"This transaction took {what}: take them in order (versioning).")


def lock_rows(
    queryset: QuerySet[M],
    *,
    leagues: Iterable = (),
    club: bool = False,
    papers: bool = False,
    **options,
) -> QuerySet[M]:
    """``queryset.select_for_update(**options)``, after the writers' locks of ``leagues`` and,
    with ``club``, the club-wide one (:func:`begin_write`, where ``papers`` is said too): the
    one way the app locks rows (see "Lock order" in :mod:`ratings.versioning`). A transaction
    that will write club-wide tables (a new player, a merge) says so at its first lock."""
    begin_write(leagues, club=club, papers=papers, using=queryset.db)
    return queryset.select_for_update(**options)


def all_league_ids(using: str = DEFAULT_DB_ALIAS) -> list[int]:
    with connections[using].cursor() as cursor:
        cursor.execute(f"SELECT id FROM {LEAGUES} ORDER BY id")
        return [league for (league,) in cursor.fetchall()]


@contextmanager
def bulk_write(
    leagues: Iterable | None = None, *, club: bool = False, using: str = DEFAULT_DB_ALIAS
) -> Iterator[None]:
    """One change of each version a bulk write (an import, a replay, a restore) writes: those of
    ``leagues`` and, with ``club``, the club-wide one; with no leagues named, every one (a
    restore, which may make leagues: a league made is new, its version too).

    SQLite's triggers run once per row: half a million rows would make half a million updates of a
    version row. Inside this block those versions have changed once and the triggers of their
    leagues' tables stand aside (``bulk`` is set on their rows, or on the club-wide row for
    every table, in the same transaction: nobody else sees it, and it is unset before the block
    ends or rolled back with it); a write to another league's table, or with ``club`` to a
    club-wide one, still changes its version. PostgreSQL's triggers run once per statement and
    change each number once per transaction anyway.
    """
    connection = connections[using]
    if not connection.in_atomic_block:
        raise RuntimeError("bulk_write() belongs inside the bulk write's transaction")
    every = leagues is None
    ids = all_league_ids(using) if every else _league_ids(leagues)
    _begin(ids, club or every, (NUMBER, PAPERS), using)
    outermost = not getattr(connection, "_club_bulk_depth", 0)
    if connection.vendor != "sqlite" or not outermost:
        yield
        return
    if every:
        marks = [(f"UPDATE {TABLE} SET bulk = %s WHERE id = 1", [])]
    else:
        marks = [
            (f"UPDATE {LEAGUE_TABLE} SET bulk = %s WHERE league_id = %s", [league])
            for league in ids
        ]
    with connection.cursor() as cursor:
        for sql, params in marks:
            cursor.execute(sql, [True, *params])
    connection._club_bulk_depth = 1
    try:
        yield
    finally:
        connection._club_bulk_depth = 0
        if not connection.needs_rollback:  # else the rollback unsets it
            with connection.cursor() as cursor:
                _players_written(cursor, None if every else ids)
                _seasons_written(cursor, None if every else ids)
                for sql, params in marks:
                    cursor.execute(sql, [False, *params])


def _players_written(cursor, leagues: list[int] | None) -> None:
    """SQLite, at the end of a bulk write whose triggers stood aside: every player's version in
    its ``leagues`` (None: all) changes once, and a player with a standing there and no row yet
    gets one (every row of a league that names a player has their standing beside it: a result,
    a tally, a season, a correction, whose writer keeps the standing; a paper or an event's
    player without a game is written by no bulk write but a restore, which changes the
    club-wide number)."""
    if leagues == []:
        return
    standings = apps.get_model("ratings", "Standing")._meta.db_table
    where, params = "", []
    if leagues is not None:
        where = f"WHERE league_id IN ({', '.join(['%s'] * len(leagues))})"
        params = leagues
    cursor.execute(
        f"UPDATE {PLAYER_TABLE} SET number = number + 1, papers = papers + 1 {where}", params
    )
    cursor.execute(
        f"INSERT INTO {PLAYER_TABLE} (league_id, player_id, number) SELECT DISTINCT league_id, "
        f"player_id, 1 FROM {standings} {where or 'WHERE TRUE'} "
        "ON CONFLICT (player_id, league_id) DO NOTHING",
        params,
    )


def _seasons_written(cursor, leagues: list[int] | None) -> None:
    """SQLite, at the end of a bulk write whose triggers stood aside: every season's version of
    its ``leagues`` (None: all) changes once, its frames' included, and a season with standings
    and no row yet gets one, as each league's frame does (a bulk write's leagues all have a
    row: :func:`begin_write` changed their numbers)."""
    if leagues == []:
        return
    where, params = "", []
    if leagues is not None:
        where = f"WHERE league_id IN ({', '.join(['%s'] * len(leagues))})"
        params = leagues
    cursor.execute(f"UPDATE {SEASON_TABLE} SET number = number + 1 {where}", params)
    cursor.execute(
        f"INSERT INTO {SEASON_TABLE} (league_id, year, number) SELECT DISTINCT league_id, year, 1 "
        f"FROM {SEASON_STANDINGS} {where or 'WHERE TRUE'} UNION SELECT league_id, 0, 1 "
        f"FROM {LEAGUE_TABLE} {where or 'WHERE TRUE'} ON CONFLICT (league_id, year) DO NOTHING",
        [*params, *params],
    )


_VERSION_TRIGGERS = ("_data_version_", "_player_version_", "_season_version_")


@contextmanager
def row_triggers_dropped(models: Iterable[type[Model]], using: str = DEFAULT_DB_ALIAS):
    """Inside :func:`bulk_write` on SQLite: the version triggers of these models' tables
    dropped for the block, and put back exactly as they were before it ends. Only the rows of
    the bulk write's leagues are written to these tables meanwhile (one league's import).

    Quieted by the bulk mark, SQLite still runs a row trigger for every row to ask it, a cost of the
    same order as inserting the row. An import of 100,000 games writes 300,000 rows; dropping the
    triggers of the tables it fills is a few statements. It is safe for the same reasons as the
    mark: the version has already changed in this transaction, SQLite's schema changes are part of
    the transaction (a rollback puts the triggers back, and other connections never see them
    missing), and this transaction is SQLite's one writer meanwhile.
    """
    connection = connections[using]
    if connection.vendor != "sqlite" or not getattr(connection, "_club_bulk_depth", 0):
        yield
        return
    tables = [model._meta.db_table for model in models]
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name IN "
            f"({', '.join(['%s'] * len(tables))})",
            tables,
        )
        saved = [
            (name, sql)
            for name, sql in cursor.fetchall()
            if any(kind in name for kind in _VERSION_TRIGGERS)
        ]
        for name, _sql in saved:
            cursor.execute(f'DROP TRIGGER "{name}"')
    try:
        yield
    finally:
        if not connection.needs_rollback:  # else the rollback puts them back
            with connection.cursor() as cursor:
                for _name, sql in saved:
                    cursor.execute(sql)
