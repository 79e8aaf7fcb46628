"""The triggers that change the data versions, whoever writes (see :mod:`ratings.versioning`):
PostgreSQL's statement triggers and functions, SQLite's row triggers, and :func:`install`, run
after every ``migrate`` and ``flush``."""

from __future__ import annotations

import hashlib

from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.models import Field

from ratings.versioning.tables import (
    BUMP,
    LEAGUE_TABLE,
    LEAGUES,
    NUMBER,
    PAPER_TABLES,
    PAPERS,
    PLAYER_TABLE,
    SEASON_FRAME_TABLES,
    SEASON_STANDINGS,
    SEASON_TABLE,
    TABLE,
    bump_league,
    bump_sql,
    league_paths,
    models_by_table,
    player_paths,
    versioned_tables,
)


def _unseen_columns() -> dict[str, set[str]]:
    """Columns no page shows, whose updates leave the version alone: a member's last login,
    written at every login, would otherwise send every page to be drawn again."""
    return {get_user_model()._meta.db_table: {"last_login"}}


def _updated_columns(table: str) -> str:
    """``UPDATE`` or ``UPDATE OF`` the columns a page may show, for a trigger on ``table``."""
    unseen = _unseen_columns().get(table)
    if not unseen:
        return "UPDATE"
    model = models_by_table()[table]
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


def _league_number(table: str, league_papers: bool) -> str:
    """The number of its leagues' rows a write to ``table`` changes: ``papers`` for the papers'
    tables (:data:`PAPER_TABLES`) once the rows have it (``league_papers``: not in a database
    migrated back before it)."""
    return PAPERS if league_papers and table in PAPER_TABLES else NUMBER


def trigger_statements(vendor: str, table: str, *, league_papers: bool = True) -> list[str]:
    """The SQL that makes every write to ``table`` change the data version: its leagues' if its
    rows belong to leagues (their ``number``, or their ``papers`` for the papers' tables: see
    :func:`_league_number`), else the club-wide one (idempotent)."""
    bump = bump_sql(vendor)
    paths = league_paths().get(table)
    number = _league_number(table, league_papers)
    if vendor == "postgresql":
        drop = [
            f'DROP TRIGGER IF EXISTS "ratings_data_version{suffix}" ON "{table}"'
            for suffix in ("", *(f"_{name}" for name, _event, _rows in _PG_EVENTS))
        ]
        if not paths:
            # Before the statement touches a row: its first write takes the version row's lock
            # before any row of its own (see "Lock order", ratings.versioning).
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
            + f" PERFORM {_BUMP_LEAGUES[number]}(ids, orphan); RETURN NULL; END"
        )
        # An update, row by row before it is written: most are one row a statement (a replay's
        # ratings), where a transition table's query costs more than the row's own work.
        row_function = _function_name(table, "row")
        found = [_league_of_row(path, row) for row in ("OLD", "NEW") for path in paths]
        row_body = (
            "DECLARE league bigint; ids bigint[] := '{}'; orphan boolean := FALSE; "
            f"done text := COALESCE(current_setting('{_CHANGED[number]}', TRUE), ''); "
            "BEGIN "
            + " ".join(
                f"league := {expression}; IF league IS NULL THEN orphan := TRUE; "
                "ELSIF position(',' || league || ',' IN done) = 0 THEN ids := ids || league; "
                "END IF;"
                for expression in found
            )
            + " IF orphan OR cardinality(ids) > 0 THEN "
            f"PERFORM {_BUMP_LEAGUES[number]}(ids, orphan); END IF; RETURN NEW; END"
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
    # SQLite's triggers are per row and per event; a bulk write quiets them (see locks.bulk_write).
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
            f"UPDATE {LEAGUE_TABLE} SET {number} = {number} + 1 "
            f"WHERE league_id IN ({', '.join(ids)})"
        ]
        if orphan:
            actions.append(f"{bump} AND ({orphan})")
        statements.append(
            f'CREATE TRIGGER {trigger} AFTER {event} ON "{table}" '
            f"WHEN (SELECT bulk FROM {TABLE} WHERE id = 1) = 0 AND NOT ({quiet}) "
            f"BEGIN {'; '.join(actions)}; END"
        )
    return statements


def _players_of_row(table: str, row: str, source: str = "") -> list[str]:
    """The (league, player) pairs a row of ``table`` changes, as SELECTs of ``l`` and ``p``: the
    row's trigger's ``row`` (SQLite: NEW or OLD), or each row of ``source`` (PostgreSQL: a
    transition table) as ``row``."""
    paths = player_paths()[table]
    rows = f" FROM {source} {row}" if source else ""
    selects = []
    # The shortest way to the league only (a result's own copy of its game's league, not a
    # lookup of its game for each of an import's rows): the engine keeps the copies in step, and
    # a game moved to another league moves its results' players through its own row.
    leagues = league_paths()[table]
    shortest = min(len(path) for path in leagues)
    for league in (path for path in leagues if len(path) == shortest):
        league_id = _league_of_row(league, row)
        for path in paths.forward:
            selects.append(f"SELECT {league_id} AS l, {_league_of_row(path, row)} AS p{rows}")
        for child, chain, player in paths.below:
            joins = [f'"{child}" c0']
            for n, field in enumerate(chain[:-1], start=1):
                joins.append(
                    f'JOIN "{field.related_model._meta.db_table}" c{n} '
                    f'ON c{n}."{field.target_field.column}" = c{n - 1}."{field.column}"'
                )
            last = len(chain) - 1
            on = f'c{last}."{chain[-1].column}" = {row}."{chain[-1].target_field.column}"'
            # PostgreSQL: each row of the transition table, beside the rows below it.
            start = f"{source} {row}, " if source else ""
            selects.append(
                f'SELECT {league_id} AS l, c0."{player.column}" AS p '
                f"FROM {start}{' '.join(joins)} WHERE {on}"
            )
    return selects


def player_trigger_statements(vendor: str, table: str, *, drop: bool = False) -> list[str]:
    """The SQL that makes every write to ``table`` change the versions of the players its rows
    show in their league (see "Players' versions" in :mod:`ratings.versioning`), idempotent;
    nothing for a table whose rows name no player. ``drop``: only take them away (migrated back
    before the players' versions)."""
    paths = {} if drop else player_paths()
    if vendor == "postgresql":
        drops = [
            f'DROP TRIGGER IF EXISTS "ratings_player_version_{name}" ON "{table}"'
            for name, _event, _rows in _PG_EVENTS
        ]
        if table not in paths:
            return drops
        function = _function_name(table, "player")
        number, txid = ("papers", "papers_txid") if table in PAPER_TABLES else ("number", "txid")
        parts = []
        # DISTINCT: a statement's rows name one player many times (a bulk insert of a league's
        # results), and ON CONFLICT may change a row only once per statement.
        for op, rows in (("DELETE", "new_rows"), ("INSERT", "old_rows")):
            union = " UNION ".join(_players_of_row(table, "r", rows))
            parts.append(
                f"IF TG_OP <> '{op}' THEN INSERT INTO {PLAYER_TABLE} AS v "
                f"(league_id, player_id, {number}, {txid}) SELECT DISTINCT l, p, 1, txid_current() "
                f"FROM ({union}) AS pairs WHERE l IS NOT NULL AND p IS NOT NULL "
                f"ON CONFLICT (player_id, league_id) DO UPDATE SET {number} = v.{number} + 1, "
                f"{txid} = EXCLUDED.{txid} WHERE v.{txid} IS DISTINCT FROM EXCLUDED.{txid}; "
                "END IF;"
            )
        statements = [
            *drops,
            f"CREATE OR REPLACE FUNCTION {function}() RETURNS trigger LANGUAGE plpgsql "
            f"AS $$ BEGIN {' '.join(parts)} RETURN NULL; END $$",
        ]
        for name, event, rows in _PG_EVENTS:
            referencing = " ".join(f"{kind} TABLE AS {kind.lower()}_rows" for kind in rows.split())
            statements.append(
                f'CREATE TRIGGER "ratings_player_version_{name}" AFTER {event} '
                f'ON "{table}" REFERENCING {referencing} FOR EACH STATEMENT '
                f"EXECUTE FUNCTION {function}()"
            )
        return statements
    statements = []
    for name, event, rows in (
        ("insert", "INSERT", ("NEW",)),
        ("update", _updated_columns(table), ("OLD", "NEW")),
        ("delete", "DELETE", ("OLD",)),
    ):
        trigger = f'"{table}_player_version_{name}"'
        statements.append(f"DROP TRIGGER IF EXISTS {trigger}")
        if table not in paths:
            continue
        ids = [_league_of_row(path, row) for row in rows for path in league_paths()[table]]
        quiet = " AND ".join(
            f"COALESCE((SELECT bulk FROM {LEAGUE_TABLE} WHERE league_id = {id_}), 0)" for id_ in ids
        )
        union = " UNION ".join(s for row in rows for s in _players_of_row(table, row))
        number = "papers" if table in PAPER_TABLES else "number"
        statements.append(
            f'CREATE TRIGGER {trigger} AFTER {event} ON "{table}" '
            f"WHEN (SELECT bulk FROM {TABLE} WHERE id = 1) = 0 AND NOT ({quiet}) "
            f"BEGIN INSERT INTO {PLAYER_TABLE} (league_id, player_id, {number}) "
            f"SELECT DISTINCT l, p, 1 FROM ({union}) WHERE l IS NOT NULL AND p IS NOT NULL "
            f"ON CONFLICT (player_id, league_id) DO UPDATE SET {number} = {number} + 1; END"
        )
    return statements


def season_tables() -> set[str]:
    """The tables whose writes change seasons' versions (see "Seasons' versions" in
    :mod:`ratings.versioning`): the season standings and the tables of a season page's frame."""
    return {SEASON_STANDINGS, *SEASON_FRAME_TABLES} & set(league_paths())


def _seasons_of_row(table: str, row: str, event: str, source: str = "") -> list[str]:
    """The (league, year) pairs a row of ``table`` changes, as SELECTs of ``l`` and ``y``: a
    season standing its own season, and the frame (year 0) when its insert makes the season's
    first rows or its delete leaves the season none (a tab comes or goes); a row of the
    frame's tables the frame. ``row`` as in :func:`_players_of_row`; ``event``: ``insert``,
    ``update`` or ``delete``."""
    rows = f" FROM {source} {row}" if source else ""
    leagues = league_paths()[table]
    shortest = min(len(path) for path in leagues)
    league_id = _league_of_row(next(p for p in leagues if len(p) == shortest), row)
    if table != SEASON_STANDINGS:
        return [f"SELECT {league_id} AS l, 0 AS y{rows}"]
    selects = [f'SELECT {league_id} AS l, {row}."year" AS y{rows}']
    season = (
        f'SELECT 1 FROM "{SEASON_STANDINGS}" s WHERE s."league_id" = {row}."league_id" '
        f'AND s."year" = {row}."year"'
    )
    if event == "insert":
        # Another row of the season, not written by this statement: it had rows before.
        written = (
            f'NOT EXISTS (SELECT 1 FROM {source} n WHERE n."league_id" = s."league_id" AND '
            f'n."year" = s."year" AND n."player_id" = s."player_id")'
            if source
            else f's."player_id" <> {row}."player_id"'
        )
        selects.append(
            f"SELECT {league_id} AS l, 0 AS y{rows} WHERE NOT EXISTS ({season} AND {written})"
        )
    elif event == "delete":
        selects.append(f"SELECT {league_id} AS l, 0 AS y{rows} WHERE NOT EXISTS ({season})")
    return selects


def season_trigger_statements(vendor: str, table: str, *, drop: bool = False) -> list[str]:
    """The SQL that makes every write to ``table`` change the versions of the seasons it shows
    on (see "Seasons' versions" in :mod:`ratings.versioning`), idempotent; only drops for a
    table of no season page. ``drop``: only take them away (migrated back before them)."""
    wanted = not drop and table in season_tables()
    events = (
        ("insert", "INSERT", ("NEW",)),
        ("update", "UPDATE", ("OLD", "NEW")),
        ("delete", "DELETE", ("OLD",)),
    )
    if vendor == "postgresql":
        drops = [
            f'DROP TRIGGER IF EXISTS "ratings_season_version_{name}" ON "{table}"'
            for name, _event, _rows in events
        ]
        if not wanted:
            return drops
        function = _function_name(table, "season")
        branches = []
        for name, event, rows in events:
            union = " UNION ".join(
                select
                for kind in rows
                for select in _seasons_of_row(table, "r", name, f"{kind.lower()}_rows")
            )
            branches.append(
                f"{'IF' if not branches else 'ELSIF'} TG_OP = '{event}' THEN "
                f"INSERT INTO {SEASON_TABLE} AS v (league_id, year, number, txid) "
                f"SELECT DISTINCT l, y, 1, txid_current() FROM ({union}) AS seasons "
                "WHERE l IS NOT NULL AND y IS NOT NULL ON CONFLICT (league_id, year) DO UPDATE "
                "SET number = v.number + 1, txid = EXCLUDED.txid "
                "WHERE v.txid IS DISTINCT FROM EXCLUDED.txid;"
            )
        statements = [
            *drops,
            f"CREATE OR REPLACE FUNCTION {function}() RETURNS trigger LANGUAGE plpgsql "
            f"AS $$ BEGIN {' '.join(branches)} END IF; RETURN NULL; END $$",
        ]
        for name, event, rows in events:
            referencing = " ".join(f"{kind} TABLE AS {kind.lower()}_rows" for kind in rows)
            statements.append(
                f'CREATE TRIGGER "ratings_season_version_{name}" AFTER {event} '
                f'ON "{table}" REFERENCING {referencing} FOR EACH STATEMENT '
                f"EXECUTE FUNCTION {function}()"
            )
        return statements
    statements = []
    for name, event, rows in events:
        trigger = f'"{table}_season_version_{name}"'
        statements.append(f"DROP TRIGGER IF EXISTS {trigger}")
        if not wanted:
            continue
        ids = [_league_of_row(path, row) for row in rows for path in league_paths()[table]]
        quiet = " AND ".join(
            f"COALESCE((SELECT bulk FROM {LEAGUE_TABLE} WHERE league_id = {id_}), 0)" for id_ in ids
        )
        union = " UNION ".join(s for row in rows for s in _seasons_of_row(table, row, name))
        on = _updated_columns(table) if name == "update" else event
        statements.append(
            f'CREATE TRIGGER {trigger} AFTER {on} ON "{table}" '
            f"WHEN (SELECT bulk FROM {TABLE} WHERE id = 1) = 0 AND NOT ({quiet}) "
            f"BEGIN INSERT INTO {SEASON_TABLE} (league_id, year, number) "
            f"SELECT DISTINCT l, y, 1 FROM ({union}) WHERE l IS NOT NULL AND y IS NOT NULL "
            "ON CONFLICT (league_id, year) DO UPDATE SET number = number + 1; END"
        )
    return statements


# PostgreSQL: the function that changes a league's number, or its papers number, and the
# transaction's setting that notes the leagues it changed already.
_BUMP_LEAGUES = {NUMBER: "ratings_bump_leagues", PAPERS: "ratings_bump_league_papers"}
_CHANGED = {NUMBER: "ratings.versions_changed", PAPERS: "ratings.paper_versions_changed"}


def _bump_leagues_function(number: str) -> str:
    """The leagues of the rows a statement wrote, by id; with ``orphan`` (a row whose league is
    gone) the club-wide number too. The leagues this transaction changed already are noted in
    a setting of the transaction's (undone with it, or with its savepoint): most statements of
    a write then cost no update of a version row."""
    return (
        f"CREATE OR REPLACE FUNCTION {_BUMP_LEAGUES[number]}(ids bigint[], orphan boolean) "
        "RETURNS void LANGUAGE plpgsql AS $$ DECLARE league bigint; "
        f"done text := COALESCE(current_setting('{_CHANGED[number]}', TRUE), ''); BEGIN "
        f"IF orphan THEN {BUMP['postgresql']}; END IF; "
        "FOR league IN SELECT DISTINCT id FROM unnest(ids) AS id WHERE id IS NOT NULL ORDER BY id "
        "LOOP CONTINUE WHEN position(',' || league || ',' IN done) > 0; "
        f"{bump_league(number).replace('%s', 'league')}; done := done || ',' || league || ','; "
        f"PERFORM set_config('{_CHANGED[number]}', done, TRUE); END LOOP; END $$"
    )


_PG_FUNCTIONS = [
    "CREATE OR REPLACE FUNCTION ratings_bump_data_version() RETURNS trigger "
    f"LANGUAGE plpgsql AS $$ BEGIN {BUMP['postgresql']}; RETURN NULL; END $$",
    _bump_leagues_function(NUMBER),
    _bump_leagues_function(PAPERS),
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
            league_papers = PAPERS in {
                column.name
                for column in connection.introspection.get_table_description(cursor, LEAGUE_TABLE)
            }
            for table in versioned_tables():
                if table in existing:
                    for statement in trigger_statements(vendor, table, league_papers=league_papers):
                        cursor.execute(statement)
                    for statement in player_trigger_statements(
                        vendor, table, drop=PLAYER_TABLE not in existing
                    ):
                        cursor.execute(statement)
                    for statement in season_trigger_statements(
                        vendor, table, drop=SEASON_TABLE not in existing
                    ):
                        cursor.execute(statement)
            cursor.execute(
                f"INSERT INTO {LEAGUE_TABLE} (league_id, number, bulk) SELECT id, 0, %s "
                f"FROM {LEAGUES} WHERE id NOT IN (SELECT league_id FROM {LEAGUE_TABLE})",
                [False],
            )
            if cursor.rowcount:
                cursor.execute(bump_sql(vendor))
