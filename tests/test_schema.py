"""The app's indexes, read from the migrated database: each foreign key leads one, and none
repeats another. A missing index makes a page scan a table; a redundant one costs every row
written (an import writes hundreds of thousands) and the disk, and serves nothing."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.db import connection, models

pytestmark = pytest.mark.django_db


def app_tables() -> list[str]:
    return sorted(model._meta.db_table for model in apps.get_app_config("ratings").get_models())


def indexes(table: str) -> list[tuple[str, tuple[str, ...], bool]]:
    """(name, columns, unique) of each index of ``table``, the primary key's included."""
    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(cursor, table)
        if connection.vendor == "sqlite":
            # Django lists a primary key's columns in the table's order; the pragma gives each
            # column's place in the key (a composite key's order, its index's), 0 if none.
            cursor.execute(f"PRAGMA table_info({connection.ops.quote_name(table)})")
            places = {row[1]: row[5] for row in cursor.fetchall() if row[5]}
            for info in constraints.values():
                if info["primary_key"]:
                    info["columns"] = sorted(info["columns"], key=places.__getitem__)
    return [
        (name, tuple(info["columns"]), bool(info["unique"] or info["primary_key"]))
        for name, info in constraints.items()
        if (info["index"] or info["unique"] or info["primary_key"])
        and info["columns"]
        # Expression indexes (a name's lower case) have no plain columns to compare.
        and None not in info["columns"]
        # PostgreSQL's second index of a text column, for LIKE: another operator class.
        and not (connection.vendor == "postgresql" and name.endswith("_like"))
    ]


# Foreign keys no index leads, and why none is needed.
UNLED = {
    # A copy of its game's league, read after the player (result_player_once); a league's
    # results are deleted with its games, and nothing else looks them up by league alone.
    "ratings_result.league_id",
}


def test_every_foreign_key_leads_an_index():
    for model in apps.get_app_config("ratings").get_models():
        table = model._meta.db_table
        leading = {columns[0] for _name, columns, _unique in indexes(table)}
        for field in model._meta.concrete_fields:
            if field.is_relation and f"{table}.{field.column}" not in UNLED:
                assert field.column in leading, f"{table}.{field.column} leads no index"
                assert field.remote_field.on_delete is not models.DO_NOTHING
            elif field.is_relation:
                # Django's deletion would look for the rows of a deleted league without an
                # index: it must not look.
                assert field.remote_field.on_delete is models.DO_NOTHING


def test_no_index_repeats_another():
    """A plain index that is the start of another index answers nothing the other does not. Nor
    does a second index on a unique index's columns: the unique constraint can list them in the
    order the other index needs."""
    for table in app_tables():
        found = indexes(table)
        for name, columns, unique in found:
            for other, other_columns, other_unique in found:
                if other == name:
                    continue
                if not unique:
                    assert other_columns[: len(columns)] != columns, (
                        f"{table}: {name} {columns} is the start of {other} {other_columns}"
                    )
                if other_unique:
                    assert set(columns) != set(other_columns), (
                        f"{table}: {name} {columns} has the columns of unique {other}"
                    )


@pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite has no INCLUDE")
def test_a_players_reads_are_covered_by_the_results_indexes():
    """What the reads of a player's games take from a result is carried in the two unique
    indexes (migration 0020), so those reads never visit the table row by row."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'ratings_result'"
        )
        definitions = dict(cursor.fetchall())
    assert definitions["result_player_once"].endswith(
        "(player_id, league_id, played_at, game_id) INCLUDE (score, rating_before, rating_after,"
        " place)"
    )
    assert definitions["result_seat_once"].endswith(
        "(game_id, seat) INCLUDE (player_id, place, score)"
    )


@pytest.mark.skipif(connection.vendor != "sqlite", reason="a check of SQLite's JSON columns")
def test_the_results_table_runs_no_function_for_each_row_written():
    """A function in a column's CHECK (Django's JSON_VALID on a JSONField) makes SQLite keep a
    statement journal for each bulk INSERT of results: ten times the writes of an import. The
    state slot (models.games.StateField) has no such check."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'ratings_result'"
        )
        (table,) = cursor.fetchone()
    assert "JSON_VALID" not in table
