"""The club's data version: one number that changes in the same transaction as any write.

Every table of every installed app but those in :data:`UNVERSIONED` (each with the reason no
page shows it) has a database trigger that increments
:class:`ratings.models.DataVersion`'s number whenever a statement writes to it, whoever writes:
the engine, the event services, the admin, a restore, a raw ``UPDATE``. A bulk write changes it
once (:func:`bulk_write`). The increment commits or rolls back with the write, so a reader that
reads the number first and the data after never sees data older than the number says. That
makes the number a safe key for the page cache and the pages' ETags (:mod:`ratings.page_cache`).

The triggers are (re)installed after every ``migrate`` and ``flush`` (``post_migrate``), for
every table the apps have then, so a new model of any app is covered without a migration of
its own and a table SQLite rebuilds gets its triggers back. ``tests/test_versioning.py`` fails
on any table of the database that is neither versioned nor listed in :data:`UNVERSIONED`.

Lock order. On PostgreSQL the version row is a lock every writer takes, so writers queue on it.
A transaction that locks rows before it writes takes the version row first, or two writers
could wait for each other: one holding the version and wanting the row, the other the reverse.
So rows are locked only through :func:`lock_rows` (``tests/test_architecture.py`` finds any
other ``select_for_update``). SQLite has one writer at a time anyway.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TypeVar

from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Model, QuerySet

TABLE = "ratings_dataversion"
# The tables no page shows, and why; every other table of every installed app is versioned. A
# table listed here wrongly would leave pages stale; one missing sends every page to be drawn
# again at each of its writes (a session at every login, axes's records at every attempt).
UNVERSIONED = {
    TABLE: "the version itself",
    "ratings_auditentry": "the audit trail, read in the admin only, whose pages are not cached",
    "ratings_pendingupload": "a rayter file waiting for its uploader's confirmation",
    "django_admin_log": "the admin's history, shown in the admin only",
    "django_session": "written at every login; no page shows a session",
    "axes_accessattempt": "failed logins (django-axes), written at each attempt",
    "axes_accessattemptexpiration": "when a failed login is forgotten (django-axes)",
    "axes_accessfailurelog": "failed logins' log (django-axes)",
    "axes_accesslog": "logins' log (django-axes), written at every login",
    "django_migrations": "migrate's record of what it applied (no model's table)",
    "ratings_apitoken": 'a member\'s API tokens, whose "last used" is written at every call',
    "ratings_gamereport": "members' reports of mistakes in games, read in the admin only",
}

# PostgreSQL: once per transaction (the row remembers the last writer's transaction), so a bulk
# import of thousands of statements bumps the row once, not thousands of times.
_BUMP = {
    "postgresql": (
        f"UPDATE {TABLE} SET number = number + 1, txid = txid_current() "
        "WHERE id = 1 AND txid IS DISTINCT FROM txid_current()"
    ),
    "sqlite": f"UPDATE {TABLE} SET number = number + 1 WHERE id = 1",
}


M = TypeVar("M", bound=Model)


class UnsupportedDatabase(RuntimeError):
    pass


def _bump_sql(vendor: str) -> str:
    try:
        return _BUMP[vendor]
    except KeyError:
        raise UnsupportedDatabase(
            f"The club runs on SQLite or PostgreSQL; {vendor} has no data-version triggers."
        ) from None


def versioned_tables() -> list[str]:
    """Every table of every installed app, many-to-many tables included, but
    :data:`UNVERSIONED`: the club's own, and who is logged in with what they may do (a member's
    page shows their name and the links their permissions give)."""
    tables = {model._meta.db_table for model in apps.get_models(include_auto_created=True)}
    return sorted(tables - UNVERSIONED.keys())


def _unseen_columns() -> dict[str, set[str]]:
    """Columns no page shows, whose updates leave the version alone: a member's last login,
    written at every login, would otherwise send every page to be drawn again."""
    return {get_user_model()._meta.db_table: {"last_login"}}


def _updated_columns(table: str) -> str:
    """``UPDATE`` or ``UPDATE OF`` the columns a page may show, for a trigger on ``table``."""
    unseen = _unseen_columns().get(table)
    if not unseen:
        return "UPDATE"
    model = next(m for m in apps.get_models() if m._meta.db_table == table)
    columns = [f'"{f.column}"' for f in model._meta.concrete_fields if f.column not in unseen]
    return f"UPDATE OF {', '.join(columns)}"


def trigger_statements(vendor: str, table: str) -> list[str]:
    """The SQL that makes every write to ``table`` change the data version (idempotent)."""
    bump = _bump_sql(vendor)
    update = _updated_columns(table)
    if vendor == "postgresql":
        # Before the statement touches a row: its first write takes the version row's lock
        # before any row of its own (see "Lock order" above).
        return [
            f"CREATE OR REPLACE TRIGGER ratings_data_version BEFORE INSERT OR {update} OR DELETE "
            f'ON "{table}" FOR EACH STATEMENT EXECUTE FUNCTION ratings_bump_data_version()'
        ]
    # SQLite's triggers are per row and per event; a bulk write quiets them (see bulk_write).
    return [
        statement
        for name, event in (("insert", "INSERT"), ("update", update), ("delete", "DELETE"))
        for statement in (
            f'DROP TRIGGER IF EXISTS "{table}_data_version_{name}"',
            f'CREATE TRIGGER "{table}_data_version_{name}" AFTER {event} ON "{table}" '
            f"WHEN (SELECT bulk FROM {TABLE} WHERE id = 1) = 0 BEGIN {bump}; END",
        )
    ]


def install(using: str = DEFAULT_DB_ALIAS, **_kwargs) -> None:
    """Create the version row if missing, and the triggers on every versioned table.

    Connected to ``post_migrate`` (ratings/apps.py); safe to run any number of times.
    """
    from ratings.models import DataVersion

    connection = connections[using]
    vendor = connection.vendor
    existing = set(connection.introspection.table_names())
    if TABLE not in existing:
        return  # migrating backwards, or not yet this far
    DataVersion.objects.using(using).get_or_create(pk=1)
    with connection.cursor() as cursor:
        if vendor == "postgresql":
            cursor.execute(
                "CREATE OR REPLACE FUNCTION ratings_bump_data_version() RETURNS trigger "
                f"LANGUAGE plpgsql AS $$ BEGIN {_bump_sql(vendor)}; RETURN NULL; END $$"
            )
        for table in versioned_tables():
            if table in existing:
                for statement in trigger_statements(vendor, table):
                    cursor.execute(statement)


def begin_write(using: str = DEFAULT_DB_ALIAS) -> None:
    """Take the writers' lock (the version row): see "Lock order" above."""
    connection = connections[using]
    with connection.cursor() as cursor:
        cursor.execute(_bump_sql(connection.vendor))


def lock_rows(queryset: QuerySet[M], **options) -> QuerySet[M]:
    """``queryset.select_for_update(**options)``, after the writers' lock: the one way the app
    locks rows (see "Lock order" above)."""
    begin_write(queryset.db)
    return queryset.select_for_update(**options)


@contextmanager
def bulk_write(using: str = DEFAULT_DB_ALIAS) -> Iterator[None]:
    """One change of the version for a whole bulk write (an import, a replay, a restore).

    SQLite's triggers run once per row: half a million rows would make half a million updates of the
    version row. Inside this block the version has changed once and the triggers stand aside
    (``bulk`` is set, in the same transaction: nobody else sees it, and it is unset before the block
    ends or rolled back with it). PostgreSQL's triggers run once per statement and change the number
    once per transaction anyway.
    """
    connection = connections[using]
    if not connection.in_atomic_block:
        raise RuntimeError("bulk_write() belongs inside the bulk write's transaction")
    begin_write(using)
    outermost = not getattr(connection, "_club_bulk_depth", 0)
    if connection.vendor != "sqlite" or not outermost:
        yield
        return
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {TABLE} SET bulk = TRUE WHERE id = 1")
    connection._club_bulk_depth = 1
    try:
        yield
    finally:
        connection._club_bulk_depth = 0
        if not connection.needs_rollback:  # else the rollback unsets it
            with connection.cursor() as cursor:
                cursor.execute(f"UPDATE {TABLE} SET bulk = FALSE WHERE id = 1")


@contextmanager
def row_triggers_dropped(models: Iterable[type[Model]], using: str = DEFAULT_DB_ALIAS):
    """Inside :func:`bulk_write` on SQLite: the version triggers of these models' tables
    dropped for the block, and put back exactly as they were before it ends.

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
        saved = [(name, sql) for name, sql in cursor.fetchall() if "_data_version_" in name]
        for name, _sql in saved:
            cursor.execute(f'DROP TRIGGER "{name}"')
    try:
        yield
    finally:
        if not connection.needs_rollback:  # else the rollback puts them back
            with connection.cursor() as cursor:
                for _name, sql in saved:
                    cursor.execute(sql)


@dataclass(frozen=True)
class Version:
    epoch: str  # new whenever the row is (re)created: a rebuilt database never reuses numbers
    number: int

    def __str__(self) -> str:
        return f"{self.epoch}.{self.number}"


# Whether no page may be cached at this version: a bulk write is under way (SQLite, see
# bulk_write; only its own transaction sees that), or, on PostgreSQL, this connection's own open
# transaction wrote last, and its later writes will not change the number again.
_READ = {
    "postgresql": (
        "SELECT epoch, number, bulk OR COALESCE(txid = txid_current_if_assigned(), FALSE) "
        f"FROM {TABLE} WHERE id = 1"
    ),
    "sqlite": f"SELECT epoch, number, bulk FROM {TABLE} WHERE id = 1",
}


def current(using: str = DEFAULT_DB_ALIAS) -> Version | None:
    """The data version as committed now; None if there is none to trust: the row is missing,
    or this connection's transaction is writing (its own changes are not committed yet).

    One query, read before the page's own: whatever the page reads after it is at least this
    fresh. A read-only request is assigned no transaction id, so asking costs none.
    """
    connection = connections[using]
    with connection.cursor() as cursor:
        cursor.execute(_READ.get(connection.vendor, _READ["sqlite"]))
        row = cursor.fetchone()
    if row is None or row[2]:
        return None
    return Version(str(row[0]), int(row[1]))
