"""How many rows reach the database at once: ``COPY`` on PostgreSQL with psycopg 3 (no SQL text
to build, quote and parse for each row), elsewhere INSERTs of many rows a statement and one
prepared UPDATE for many rows, and upserts that add rows onto those already there.

The engine's writers (:mod:`~ratings.engine.writes`, the season and opponents' tallies) say
which rows; this module says how they travel. Only the engine calls it (and a restore, for a
backup's rows), inside its transaction.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from itertools import chain

from django.db import connection

# Rows per INSERT statement in bulk writes (fewer when the database takes fewer parameters).
MAX_ROWS_PER_INSERT = 500
# PostgreSQL: fewer rows than this are one INSERT, more a COPY (see write).
COPY_MIN_ROWS = 50


def copy_rows(model, columns: Sequence[str], rows: Iterable[Sequence]) -> None:
    """PostgreSQL: ``rows`` of ``columns`` of ``model``'s table with one ``COPY … FROM STDIN``
    in the binary format, in this connection's transaction (psycopg 3's ``Cursor.copy``: each
    value packed in C as its column's type, no text to write or parse). The table's triggers
    run as for an INSERT: the statement's data-version trigger too (see
    :mod:`ratings.versioning`)."""
    _copy(model._meta.db_table, columns, copy_types(model, columns), rows)


def copy_types(model, columns: Sequence[str]) -> list[str]:
    """The database's names of the types of ``model``'s ``columns`` ("bigint", "double
    precision", "varchar(100)"…), which psycopg knows without their modifiers."""
    return [
        model._meta.get_field(_field_name(model, column)).db_type(connection).split("(")[0]
        for column in columns
    ]


def _copy(table: str, columns: Sequence[str], types: Sequence[str], rows: Iterable[Sequence]):
    """:func:`copy_rows` into any table, the columns' types named."""
    with copying(table, columns, types) as write_row:
        for row in rows:
            write_row(row)


@contextmanager
def copying(table: str, columns: Sequence[str], types: Sequence[str]) -> Iterator:
    """A ``COPY … FROM STDIN`` in the binary format into ``table``, open for the block: yields
    the function that writes a row. psycopg sends the rows as its buffer fills, so the server
    stores them while the block goes on; the COPY ends with the block, which must run no other
    statement meanwhile."""
    quote = connection.ops.quote_name
    sql = f"COPY {quote(table)} ({', '.join(map(quote, columns))}) FROM STDIN (FORMAT BINARY)"
    # Django's errors (IntegrityError…), as its cursor's execute raises them.
    with (
        connection.wrap_database_errors,
        connection.cursor() as cursor,
        cursor.cursor.copy(sql) as copy,
    ):
        copy.set_types(types)
        yield copy.write_row


def _field_name(model, column: str) -> str:
    """The name of ``model``'s field stored in ``column`` (``game_id`` is ``game``'s)."""
    return next(f.name for f in model._meta.concrete_fields if f.column == column)


def write(model, columns: list[str], rows: Sequence[tuple]) -> None:
    """Rows of ``model``: COPY on PostgreSQL with psycopg 3, else multi-row INSERTs (psycopg 2,
    which the club also runs on, copies another way: it keeps the INSERTs). A game's few seats
    go in one INSERT on every database (fewer than :data:`COPY_MIN_ROWS`): a COPY is for
    files."""
    if len(rows) >= COPY_MIN_ROWS and copies():
        copy_rows(model, columns, rows)
        return
    insert(model, columns, rows)


def copies() -> bool:
    """Whether this connection writes many rows with COPY: PostgreSQL with psycopg 3 (psycopg
    2, which the club also runs on, copies another way)."""
    if connection.vendor != "postgresql":
        return False
    # Here only: a club on SQLite may have neither driver.
    from django.db.backends.postgresql.psycopg_any import is_psycopg3

    return is_psycopg3


def update_from_copy(model, columns: list[str], rows: list[tuple]) -> None:
    """PostgreSQL: set ``columns`` of ``model``'s rows by id, each row the values then the id,
    with one COPY into a temporary table and one UPDATE from it: a prepared UPDATE per row
    costs the server a statement run per row, as an INSERT per row would."""
    quote = connection.ops.quote_name
    pk = model._meta.pk.column
    table = quote(model._meta.db_table)
    sets = ", ".join(f"{quote(column)} = u.{quote(column)}" for column in columns)
    with copied(model, [*columns, pk], rows) as source, connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} SET {sets} FROM {source} u WHERE {table}.{quote(pk)} = u.{quote(pk)}"
        )


# The temporary table copied rows wait in for the statement that reads them.
COPIED_TABLE = "engine_copied_rows"


@contextmanager
def copied(model, columns: Sequence[str], rows: Iterable[Sequence]) -> Iterator[str]:
    """PostgreSQL with psycopg 3 (:func:`copies`): ``rows`` of ``columns``, typed as in
    ``model``'s table, in a temporary table by one COPY, for the block's statement to read
    (an UPDATE or an upsert from it); yields the table's name, and drops the table after.

    A statement with the rows as parameters costs psycopg and the server the parsing of all
    those placeholders and values, more than the write itself."""
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        # Dropped here, or at the commit if the block fails (its transaction is over then).
        cursor.execute(
            f"CREATE TEMPORARY TABLE {COPIED_TABLE} ON COMMIT DROP AS SELECT"
            f" {', '.join(map(quote, columns))} FROM {quote(model._meta.db_table)} WITH NO DATA"
        )
    _copy(COPIED_TABLE, columns, copy_types(model, columns), rows)
    yield COPIED_TABLE
    with connection.cursor() as cursor:
        cursor.execute(f"DROP TABLE {COPIED_TABLE}")


def insert(model, columns: Sequence[str], rows: Sequence[tuple], *, then: str = "") -> None:
    """INSERT rows of ``columns`` of ``model``, as many rows per statement as the database takes.

    A statement per row costs the database a statement run per row, and PostgreSQL a round
    trip per row.
    """
    if not rows:
        return
    fields = [model._meta.get_field(column) for column in columns]
    batch = max(1, min(MAX_ROWS_PER_INSERT, connection.ops.bulk_batch_size(fields, rows)))
    insert_rows(model._meta.db_table, columns, rows, batch=batch, then=then)


def insert_rows(
    table: str, columns: Sequence[str], rows: Sequence, *, batch: int, then: str = ""
) -> None:
    """INSERT ``rows`` into ``table``, ``batch`` rows a statement (one prepared statement for
    all the full batches, one more for the rest), each statement ending with ``then`` (an
    ``ON CONFLICT`` clause).

    Inside a transaction only, whose caller lets a database error end it (or its savepoint):
    on SQLite a statement that fails may leave its earlier rows for the rollback to remove.
    """
    if not rows:
        return
    quote = connection.ops.quote_name
    # So that a multi-row INSERT a constraint may abort can be undone alone, SQLite first copies
    # each page it changes to a statement journal. An import's results come in game order, so
    # the index by player takes them at random: a page copied for nearly every row. OR FAIL
    # leaves the undoing to the transaction's rollback.
    verb = "INSERT OR FAIL INTO" if connection.vendor == "sqlite" else "INSERT INTO"
    head = f"{verb} {quote(table)} ({', '.join(map(quote, columns))}) VALUES "
    row = f"({', '.join(['%s'] * len(columns))})"
    whole = len(rows) - len(rows) % batch
    with connection.cursor() as cursor:
        if whole:
            # A generator: the statement's parameters are made batch by batch, not all at once.
            cursor.executemany(
                head + ", ".join([row] * batch) + then,
                (list(chain.from_iterable(rows[at : at + batch])) for at in range(0, whole, batch)),
            )
        if whole < len(rows):
            rest = rows[whole:]
            cursor.execute(
                head + ", ".join([row] * len(rest)) + then, list(chain.from_iterable(rest))
            )


def executemany(model, columns: list[str], rows: list[tuple], where=("id",)) -> None:
    """UPDATE many rows with one prepared statement: far cheaper than bulk_update's CASE."""
    if not rows:
        return
    quote = connection.ops.quote_name
    sets = ", ".join(f"{quote(column)} = %s" for column in columns)
    conditions = " AND ".join(f"{quote(column)} = %s" for column in where)
    sql = f"UPDATE {quote(model._meta.db_table)} SET {sets} WHERE {conditions}"
    with connection.cursor() as cursor:
        cursor.executemany(sql, rows)


def add_rows(
    model,
    columns: Sequence[str],
    rows: Sequence[tuple],
    *,
    key: Sequence[str],
    adds: Sequence[str],
    takes: Sequence[str] = (),
) -> None:
    """Insert ``rows`` of ``columns`` into ``model``'s table, but where it has a row with a new
    row's ``key`` (a unique constraint's columns), add the new row's ``adds`` columns to that
    row's and set its ``takes`` columns: a tally's rows added onto the tally. Many rows where
    rows are copied (:func:`copies`) go through a temporary table and one upsert from it, else
    upserts of many rows a statement."""
    if not rows:
        return
    quote = connection.ops.quote_name
    table = quote(model._meta.db_table)
    then = f" ON CONFLICT ({', '.join(map(quote, key))}) DO UPDATE SET " + ", ".join(
        [
            *(f"{name} = {table}.{name} + excluded.{name}" for name in map(quote, adds)),
            *(f"{name} = excluded.{name}" for name in map(quote, takes)),
        ]
    )
    if len(rows) >= COPY_MIN_ROWS and copies():
        names = ", ".join(map(quote, columns))
        with copied(model, columns, rows) as source, connection.cursor() as cursor:
            cursor.execute(f"INSERT INTO {table} ({names}) SELECT {names} FROM {source}{then}")
        return
    insert(model, columns, rows, then=then)
