"""The club's data versions: numbers that change in the same transaction as any write.

Two kinds of row hold them. Each league has its own (:class:`ratings.models.LeagueVersion`),
changed by every write to a table whose rows belong to one league: games, results, standings,
events with their rounds, tables and seats, papers and deals, any table whose row leads to a
league through foreign keys that cannot be empty (:func:`league_paths`, found from the models, so
a new table of a league is one without anyone listing it). Every other table (players, their
names, members, permissions, the leagues themselves) changes the club-wide row
(:class:`ratings.models.DataVersion`), which every page's key holds: a page is keyed by it and
by the versions of the leagues it shows (:class:`Shows`), so a write in a small league leaves the
big league's pages cached.

Database triggers change the numbers whoever writes: the engine, the event services, the admin,
a restore, a raw ``UPDATE``. On PostgreSQL a league's tables have statement triggers that read
the rows written (``REFERENCING NEW TABLE / OLD TABLE``) and change the version of every league
those rows belong to, before and after an update; on SQLite, row triggers do the same. A row
whose league cannot be found (its game deleted before it, in one transaction) changes the
club-wide number. A bulk write changes each number once (:func:`bulk_write`). A change commits
or rolls back with the write, so a reader that reads the numbers first and the data after never
sees data older than the numbers say. That makes them a safe key for the page cache and the
pages' ETags (:mod:`ratings.page_cache`), all read in one query (:func:`current`).

The triggers are (re)installed after every ``migrate`` and ``flush`` (``post_migrate``), for
every table the apps have then, so a new model of any app is covered without a migration of
its own and a table SQLite rebuilds gets its triggers back. ``tests/test_versioning.py`` fails
on any table of the database that is neither versioned nor listed in :data:`UNVERSIONED`.

Lock order. On PostgreSQL a version row is a lock its writers take, so the writers of one league
queue on its row, and writers of two leagues do not wait for each other; a writer of club-wide
tables queues with every other one on the club-wide row. A transaction takes them in one order:
the club-wide row first if it writes club-wide tables or more than one league (a merge, a
restore), then its leagues' rows, and these before any row of its own (:func:`begin_write`).
Then no two writers can wait for each other in a circle: a writer of one league waits for no
second version row, and the writers of several leagues take turns on the club-wide row. So rows
are locked only through :func:`lock_rows`, which names the leagues and whether the club's tables
are written (``tests/test_architecture.py`` finds any other ``select_for_update``); taking the
club-wide row after a league's, or a second league's without the club-wide one, is refused
(:class:`LockOrderError`). A writer that declares nothing (the admin, a raw statement) takes the
rows as its statements reach them; if that ever closes a circle, PostgreSQL ends one of the two
transactions with an error, never a stale page. SQLite has one writer at a time anyway.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TypeVar

from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.models import Field, Model, QuerySet

TABLE = "ratings_dataversion"
LEAGUE_TABLE = "ratings_leagueversion"
LEAGUES = "ratings_league"
# The tables no page shows, and why; every other table of every installed app is versioned. A
# table listed here wrongly would leave pages stale; one missing sends every page to be drawn
# again at each of its writes (a session at every login, axes's records at every attempt).
UNVERSIONED = {
    TABLE: "the version itself",
    LEAGUE_TABLE: "the leagues' versions themselves",
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
_BUMP_LEAGUE = (
    f"UPDATE {LEAGUE_TABLE} SET number = number + 1, txid = txid_current() "
    "WHERE league_id = %s AND txid IS DISTINCT FROM txid_current()"
)


M = TypeVar("M", bound=Model)


class UnsupportedDatabase(RuntimeError):
    pass


class LockOrderError(RuntimeError):
    """A transaction asked for the club-wide row after a league's, or for a second league's
    row without the club-wide one: two such writers could wait for each other (see "Lock
    order")."""


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


def _models_by_table() -> dict[str, type[Model]]:
    return {m._meta.db_table: m for m in apps.get_models(include_auto_created=True)}


def _paths(model: type[Model], seen: frozenset = frozenset()) -> list[tuple[Field, ...]]:
    """Every chain of foreign keys that cannot be empty from ``model`` to a league."""
    league = apps.get_model("ratings", "League")
    if model is league:
        return []
    paths = []
    for field in model._meta.concrete_fields:
        if not field.is_relation or field.null or not (field.many_to_one or field.one_to_one):
            continue
        target = field.related_model
        if target is league:
            paths.append((field,))
        elif target not in seen and target is not model:
            paths += [(field, *rest) for rest in _paths(target, seen | {model})]
    return paths


def league_paths() -> dict[str, list[tuple[Field, ...]]]:
    """The versioned tables whose rows belong to a league, each with the chains of foreign keys
    that lead to it (its own ``league`` column, or through its game, its round, its paper…):
    their writes change the versions of those leagues. Every other versioned table is
    club-wide."""
    models = _models_by_table()
    found = {table: _paths(models[table]) for table in versioned_tables()}
    return {table: paths for table, paths in found.items() if paths}


def _unseen_columns() -> dict[str, set[str]]:
    """Columns no page shows, whose updates leave the version alone: a member's last login,
    written at every login, would otherwise send every page to be drawn again."""
    return {get_user_model()._meta.db_table: {"last_login"}}


def _updated_columns(table: str) -> str:
    """``UPDATE`` or ``UPDATE OF`` the columns a page may show, for a trigger on ``table``."""
    unseen = _unseen_columns().get(table)
    if not unseen:
        return "UPDATE"
    model = _models_by_table()[table]
    columns = [f'"{f.column}"' for f in model._meta.concrete_fields if f.column not in unseen]
    return f"UPDATE OF {', '.join(columns)}"


def _pg_leagues_of_rows(path: tuple[Field, ...]) -> str:
    """PostgreSQL, in a statement trigger's function: add to ``ids`` the leagues of the
    statement's rows (its transition table ``new_rows`` or ``old_rows``) along ``path``, and set
    ``orphan`` if a row's parent is gone.

    A query of a transition table is planned at every statement, a join costly: so those read
    only the first column, and each step to the league is a query of its own on an array,
    whose plan PL/pgSQL keeps.
    """
    first = path[0].column
    steps = [
        "keys := '{}'",
        f"IF TG_OP <> 'DELETE' THEN keys := ARRAY(SELECT DISTINCT \"{first}\" FROM new_rows); "
        "END IF",
        f"IF TG_OP <> 'INSERT' THEN keys := keys || ARRAY(SELECT DISTINCT \"{first}\" "
        "FROM old_rows); END IF",
    ]
    for field, parent in zip(path[1:], path, strict=False):
        table = parent.related_model._meta.db_table
        column, key = f'"{field.column}"', f'"{parent.target_field.column}"'
        steps += [
            # One row (most statements): a lookup by key, several times cheaper than ANY.
            f'IF cardinality(keys) = 1 THEN SELECT {column} INTO key FROM "{table}" '
            f"WHERE {key} = keys[1]; orphan := orphan OR NOT FOUND; "
            "keys := CASE WHEN FOUND THEN ARRAY[key] ELSE '{}' END; ELSE "
            "wanted := (SELECT count(DISTINCT k) FROM unnest(keys) AS k); "
            f"SELECT count(*), COALESCE(array_agg(DISTINCT {column}), '{{}}') "
            f'INTO matched, keys FROM "{table}" WHERE {key} = ANY(keys); '
            "orphan := orphan OR matched < wanted; END IF",
        ]
    return "; ".join([*steps, "ids := ids || keys"]) + ";"


def _league_of_row(path: tuple[Field, ...], row: str) -> str:
    """SQLite: the league id of the trigger's row ``row`` (NEW or OLD) along ``path``."""
    if len(path) == 1:
        return f'{row}."{path[0].column}"'
    joins, source = [], "j1"
    first = path[0].related_model._meta.db_table
    for n, field in enumerate(path[1:-1], start=2):
        target = field.related_model._meta.db_table
        joins.append(
            f'JOIN "{target}" j{n} ON j{n}."{field.target_field.column}" = '
            f'{source}."{field.column}"'
        )
        source = f"j{n}"
    return (
        f'(SELECT {source}."{path[-1].column}" FROM "{first}" j1 {" ".join(joins)} '
        f'WHERE j1."{path[0].target_field.column}" = {row}."{path[0].column}")'
    )


def _function_name(table: str, kind: str = "") -> str:
    prefix = f"ratings_league_{kind}version_" if kind else "ratings_league_version_"
    name = f"{prefix}{table}"
    if len(name) > 63:  # PostgreSQL's longest name
        name = f"{prefix}{hashlib.sha256(table.encode()).hexdigest()[:16]}"
    return name


_PG_EVENTS = (
    ("insert", "INSERT", "NEW"),
    ("update", "UPDATE", "OLD NEW"),
    ("delete", "DELETE", "OLD"),
)


def trigger_statements(vendor: str, table: str) -> list[str]:
    """The SQL that makes every write to ``table`` change the data version: its leagues' if its
    rows belong to leagues, else the club-wide one (idempotent)."""
    bump = _bump_sql(vendor)
    paths = league_paths().get(table)
    if vendor == "postgresql":
        drop = [
            f'DROP TRIGGER IF EXISTS "ratings_data_version{suffix}" ON "{table}"'
            for suffix in ("", *(f"_{name}" for name, _event, _rows in _PG_EVENTS))
        ]
        if not paths:
            # Before the statement touches a row: its first write takes the version row's lock
            # before any row of its own (see "Lock order" above).
            return [
                *drop[1:],
                f"CREATE OR REPLACE TRIGGER ratings_data_version BEFORE INSERT OR "
                f'{_updated_columns(table)} OR DELETE ON "{table}" '
                "FOR EACH STATEMENT EXECUTE FUNCTION ratings_bump_data_version()",
            ]
        # An insert or a delete: after the statement, which of its rows' leagues it wrote (a
        # transition table per event: PostgreSQL takes one per trigger).
        function = _function_name(table)
        body = (
            "DECLARE ids bigint[] := '{}'; keys bigint[]; key bigint; matched bigint; "
            "wanted bigint; "
            "orphan boolean := FALSE; BEGIN "
            + " ".join(_pg_leagues_of_rows(path) for path in paths)
            + " PERFORM ratings_bump_leagues(ids, orphan); RETURN NULL; END"
        )
        # An update, row by row before it is written: most are one row a statement (a replay's
        # ratings), where a transition table's query costs more than the row's own work.
        row_function = _function_name(table, "row")
        found = [_league_of_row(path, row) for row in ("OLD", "NEW") for path in paths]
        row_body = (
            "DECLARE league bigint; ids bigint[] := '{}'; orphan boolean := FALSE; "
            "done text := COALESCE(current_setting('ratings.versions_changed', TRUE), ''); "
            "BEGIN "
            + " ".join(
                f"league := {expression}; IF league IS NULL THEN orphan := TRUE; "
                "ELSIF position(',' || league || ',' IN done) = 0 THEN ids := ids || league; "
                "END IF;"
                for expression in found
            )
            + " IF orphan OR cardinality(ids) > 0 THEN "
            "PERFORM ratings_bump_leagues(ids, orphan); END IF; RETURN NEW; END"
        )
        statements = [
            drop[0],
            f"CREATE OR REPLACE FUNCTION {function}() RETURNS trigger LANGUAGE plpgsql "
            f"AS $$ {body} $$",
            f"CREATE OR REPLACE FUNCTION {row_function}() RETURNS trigger LANGUAGE plpgsql "
            f"AS $$ {row_body} $$",
            drop[2],
            f'CREATE TRIGGER "ratings_data_version_update" BEFORE UPDATE ON "{table}" '
            f"FOR EACH ROW EXECUTE FUNCTION {row_function}()",
        ]
        for name, event, rows in _PG_EVENTS:
            if name == "update":
                continue
            referencing = " ".join(f"{kind} TABLE AS {kind.lower()}_rows" for kind in rows.split())
            statements.append(
                f'CREATE OR REPLACE TRIGGER "ratings_data_version_{name}" AFTER {event} '
                f'ON "{table}" REFERENCING {referencing} FOR EACH STATEMENT '
                f"EXECUTE FUNCTION {function}()"
            )
        return statements
    # SQLite's triggers are per row and per event; a bulk write quiets them (see bulk_write).
    statements = []
    for name, event, rows in (
        ("insert", "INSERT", ("NEW",)),
        ("update", _updated_columns(table), ("OLD", "NEW")),
        ("delete", "DELETE", ("OLD",)),
    ):
        trigger = f'"{table}_data_version_{name}"'
        statements.append(f"DROP TRIGGER IF EXISTS {trigger}")
        if not paths:
            statements.append(
                f'CREATE TRIGGER {trigger} AFTER {event} ON "{table}" '
                f"WHEN (SELECT bulk FROM {TABLE} WHERE id = 1) = 0 BEGIN {bump}; END"
            )
            continue
        ids = [_league_of_row(path, row) for row in rows for path in paths]
        # Quiet only when every league the row belongs to is in a bulk write.
        quiet = " AND ".join(
            f"COALESCE((SELECT bulk FROM {LEAGUE_TABLE} WHERE league_id = {id_}), 0)" for id_ in ids
        )
        orphan = " OR ".join(f"{id_} IS NULL" for id_ in ids if "SELECT" in id_)
        actions = [
            f"UPDATE {LEAGUE_TABLE} SET number = number + 1 WHERE league_id IN ({', '.join(ids)})"
        ]
        if orphan:
            actions.append(f"{bump} AND ({orphan})")
        statements.append(
            f'CREATE TRIGGER {trigger} AFTER {event} ON "{table}" '
            f"WHEN (SELECT bulk FROM {TABLE} WHERE id = 1) = 0 AND NOT ({quiet}) "
            f"BEGIN {'; '.join(actions)}; END"
        )
    return statements


_PG_FUNCTIONS = [
    "CREATE OR REPLACE FUNCTION ratings_bump_data_version() RETURNS trigger "
    f"LANGUAGE plpgsql AS $$ BEGIN {_BUMP['postgresql']}; RETURN NULL; END $$",
    # The leagues of the rows a statement wrote, by id; with ``orphan`` (a row whose league is
    # gone) the club-wide number too. The leagues this transaction changed already are noted
    # in a setting of the transaction's (undone with it, or with its savepoint): most
    # statements of a write then cost no update of a version row.
    "CREATE OR REPLACE FUNCTION ratings_bump_leagues(ids bigint[], orphan boolean) "
    "RETURNS void LANGUAGE plpgsql AS $$ DECLARE league bigint; "
    "done text := COALESCE(current_setting('ratings.versions_changed', TRUE), ''); BEGIN "
    f"IF orphan THEN {_BUMP['postgresql']}; END IF; "
    "FOR league IN SELECT DISTINCT id FROM unnest(ids) AS id WHERE id IS NOT NULL ORDER BY id "
    "LOOP CONTINUE WHEN position(',' || league || ',' IN done) > 0; "
    f"{_BUMP_LEAGUE.replace('%s', 'league')}; done := done || ',' || league || ','; "
    "PERFORM set_config('ratings.versions_changed', done, TRUE); END LOOP; END $$",
    # A new league's row, made with it (the league's own insert changes the club's number).
    "CREATE OR REPLACE FUNCTION ratings_new_league_version() RETURNS trigger "
    f"LANGUAGE plpgsql AS $$ BEGIN INSERT INTO {LEAGUE_TABLE} (league_id, number, bulk) "
    "VALUES (NEW.id, 0, FALSE) ON CONFLICT DO NOTHING; RETURN NULL; END $$",
]


def _new_league_trigger(vendor: str) -> list[str]:
    if vendor == "postgresql":
        return [
            "CREATE OR REPLACE TRIGGER ratings_new_league_version AFTER INSERT ON "
            f'"{LEAGUES}" FOR EACH ROW EXECUTE FUNCTION ratings_new_league_version()'
        ]
    return [
        f'DROP TRIGGER IF EXISTS "{LEAGUES}_new_league_version"',
        f'CREATE TRIGGER "{LEAGUES}_new_league_version" AFTER INSERT ON "{LEAGUES}" BEGIN '
        # Not OR IGNORE: a conflict policy of the statement that fired it (a restore's OR
        # FAIL) would override it.
        f"INSERT INTO {LEAGUE_TABLE} (league_id, number, bulk) SELECT NEW.id, 0, 0 "
        f"WHERE NOT EXISTS (SELECT 1 FROM {LEAGUE_TABLE} WHERE league_id = NEW.id); END",
    ]


def install(using: str = DEFAULT_DB_ALIAS, **_kwargs) -> None:
    """Create the version rows if missing, and the triggers on every versioned table.

    Connected to ``post_migrate`` (ratings/apps.py); safe to run any number of times. A league's
    row made here (not with its league) changes the club-wide number too: a row made again
    starts again from 0, and no page keyed by its old numbers may be served.
    """
    from ratings.models import DataVersion

    connection = connections[using]
    vendor = connection.vendor
    existing = set(connection.introspection.table_names())
    if TABLE not in existing or LEAGUE_TABLE not in existing:
        return  # migrating backwards, or not yet this far
    with transaction.atomic(using=using):
        DataVersion.objects.using(using).get_or_create(pk=1)
        with connection.cursor() as cursor:
            if vendor == "postgresql":
                for statement in _PG_FUNCTIONS:
                    cursor.execute(statement)
            for statement in _new_league_trigger(vendor):
                cursor.execute(statement)
            for table in versioned_tables():
                if table in existing:
                    for statement in trigger_statements(vendor, table):
                        cursor.execute(statement)
            cursor.execute(
                f"INSERT INTO {LEAGUE_TABLE} (league_id, number, bulk) SELECT id, 0, %s "
                f"FROM {LEAGUES} WHERE id NOT IN (SELECT league_id FROM {LEAGUE_TABLE})",
                [False],
            )
            if cursor.rowcount:
                cursor.execute(_bump_sql(vendor))


def _league_ids(leagues: Iterable) -> list[int]:
    return sorted({getattr(league, "pk", league) for league in leagues})


def begin_write(
    leagues: Iterable = (), *, club: bool = False, using: str = DEFAULT_DB_ALIAS
) -> None:
    """Take the writers' locks (version rows) of a transaction that writes ``leagues`` (League
    objects or ids) and, with ``club``, club-wide tables or several leagues: see "Lock order"
    above.

    Raises :class:`LockOrderError` (PostgreSQL) for the club-wide row after a league's, or a
    second league's without the club-wide row.
    """
    connection = connections[using]
    with connection.cursor() as cursor:
        if connection.vendor != "postgresql":
            if club:
                cursor.execute(_bump_sql(connection.vendor))
            for league in _league_ids(leagues):
                cursor.execute(
                    f"UPDATE {LEAGUE_TABLE} SET number = number + 1 WHERE league_id = %s",
                    [league],
                )
            return
        if club:
            cursor.execute(
                f"{_BUMP['postgresql']} RETURNING EXISTS (SELECT 1 FROM {LEAGUE_TABLE} "
                "WHERE txid = txid_current())"
            )
            _check_order(cursor.fetchone(), "the club-wide version after a league's")
        for league in _league_ids(leagues):
            cursor.execute(
                f"{_BUMP_LEAGUE} RETURNING EXISTS (SELECT 1 FROM {LEAGUE_TABLE} "
                "WHERE txid = txid_current() AND league_id <> %s) AND NOT EXISTS (SELECT 1 "
                f"FROM {TABLE} WHERE id = 1 AND txid = txid_current())",
                [league, league],
            )
            _check_order(cursor.fetchone(), f"a second league's version ({league}) without it")


def _check_order(row, what: str) -> None:
    if row is not None and row[0]:
        raise LockOrderError(f"This transaction took {what}: take them in order (versioning).")


def lock_rows(
    queryset: QuerySet[M], *, leagues: Iterable = (), club: bool = False, **options
) -> QuerySet[M]:
    """``queryset.select_for_update(**options)``, after the writers' locks of ``leagues`` and,
    with ``club``, the club-wide one (:func:`begin_write`): the one way the app locks rows (see
    "Lock order" above). A transaction that will write club-wide tables (a new player, a
    merge) says so at its first lock."""
    begin_write(leagues, club=club, using=queryset.db)
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
    begin_write(ids, club=club or every, using=using)
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
                for sql, params in marks:
                    cursor.execute(sql, [False, *params])


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
class Shows:
    """The leagues a page shows, found from its URL's arguments inside the version query:
    ``sql`` selects their ids from the arguments named ``args``; without ``sql``, every
    league (a page of the whole club: the home page, a player's)."""

    sql: str | None = None
    args: tuple[str, ...] = ()

    def params(self, kwargs: dict) -> list:
        return [kwargs[name] for name in self.args]


EVERY_LEAGUE = Shows()
LEAGUE_BY_SLUG = Shows(f"SELECT id FROM {LEAGUES} WHERE slug = %s", ("slug",))
GAME_BY_PK = Shows("SELECT league_id FROM ratings_game WHERE id = %s", ("pk",))
EVENT_BY_PK = Shows("SELECT league_id FROM ratings_event WHERE id = %s", ("pk",))
EVENT_TABLE_BY_PK = Shows(
    "SELECT e.league_id FROM ratings_eventtable t JOIN ratings_eventround r ON r.id = t.round_id "
    "JOIN ratings_event e ON e.id = r.event_id WHERE t.id = %s",
    ("pk",),
)


@dataclass(frozen=True)
class Version:
    epoch: str  # new whenever the row is (re)created: a rebuilt database never reuses numbers
    number: int  # the club-wide number
    leagues: tuple[tuple[int, int], ...] = ()  # (league id, its number) for each league shown

    def __str__(self) -> str:
        club = f"{self.epoch}.{self.number}"
        if not self.leagues:
            return club
        leagues = ",".join(f"{league}:{number}" for league, number in self.leagues)
        if len(self.leagues) > 4:
            leagues = hashlib.sha256(leagues.encode()).hexdigest()[:24]
        return f"{club}.{leagues}"

    def league(self, league_id: int) -> int | None:
        return dict(self.leagues).get(league_id)


# Whether no page may be cached at these versions: a bulk write is under way (SQLite, see
# bulk_write; only its own transaction sees that), or, on PostgreSQL, this connection's own open
# transaction wrote last, and its later writes will not change the number again; or a league
# shown has no row (made again by install()).
_MINE = {
    "postgresql": "COALESCE({0}.txid = txid_current_if_assigned(), FALSE)",
    "sqlite": "FALSE",
}


def _read_sql(vendor: str, shows: Shows) -> str:
    mine = _MINE.get(vendor, _MINE["sqlite"])
    leagues = "TRUE" if shows.sql is None else f"lg.id IN ({shows.sql})"
    return (
        f"SELECT d.epoch, d.number, d.bulk OR {mine.format('d')}, lg.id, v.number, "
        f"COALESCE(v.bulk OR {mine.format('v')}, TRUE) "
        f"FROM {TABLE} d LEFT JOIN {LEAGUES} lg ON {leagues} "
        f"LEFT JOIN {LEAGUE_TABLE} v ON v.league_id = lg.id WHERE d.id = 1 ORDER BY lg.id"
    )


def current(
    shows: Shows = EVERY_LEAGUE, kwargs: dict | None = None, using: str = DEFAULT_DB_ALIAS
) -> Version | None:
    """The versions of the club and of the leagues a page ``shows`` (from its URL's
    ``kwargs``) as committed now; None if there is none to trust: a row is missing, this
    connection's transaction is writing (its own changes are not committed yet), or a page of
    some leagues finds none.

    One query, read before the page's own: whatever the page reads after it is at least this
    fresh. A read-only request is assigned no transaction id, so asking costs none.
    """
    params = shows.params(kwargs or {})
    if any(isinstance(value, int) and not -(2**63) <= value < 2**63 for value in params):
        return None  # an id no database holds (a hostile address): the view answers 404
    connection = connections[using]
    with connection.cursor() as cursor:
        cursor.execute(_read_sql(connection.vendor, shows), params)
        rows = cursor.fetchall()
    if not rows or rows[0][2]:
        return None
    epoch, number = str(rows[0][0]), int(rows[0][1])
    if rows[0][3] is None:  # no league
        return Version(epoch, number) if shows.sql is None else None
    if any(untrusted for *_club, untrusted in rows):
        return None
    return Version(epoch, number, tuple((int(row[3]), int(row[4])) for row in rows))
