"""A club built once per test session and put back into each test that asks for it.

Building the demo club runs a few hundred games through the engine (seconds on SQLite, more on
PostgreSQL); a test that only reads it, or changes it and is rolled back, needs the rows, not
the build. :func:`take` builds once, committed, copies every row the build made into a table
of its own beside the original (``test_snapshot__<name>_<table>``, which no model knows, so
Django's flush and the version triggers leave it alone), and deletes those rows again, so every
other test still starts from an empty club. :meth:`Snapshot.restore` copies them back inside the
test's transaction: one ``INSERT … SELECT`` per table, no Python objects, no conversion of values.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from django.apps import apps
from django.core.management.color import no_style
from django.db import connection, transaction
from django.db.models import Model

from ratings import versioning
from ratings.models import DataVersion, LeagueVersion, PlayerVersion, SeasonVersion

T = TypeVar("T")

# Every copy's name starts with this, so a test that lists the database's tables can leave the
# copies out (they are the suite's, not the app's).
COPY_PREFIX = "test_snapshot__"


def _models() -> list[type[Model]]:
    return [
        model
        for model in apps.get_models(include_auto_created=True)
        if model._meta.managed
        and not model._meta.proxy
        # Made by the triggers (a league's row with it, a player's or a season's at its first
        # write, and by the restore's bulk write): a copy put back would clash with them.
        and model not in (LeagueVersion, PlayerVersion, SeasonVersion)
    ]


def primary_key(model: type[Model]) -> str:
    """The columns of ``model``'s primary key, quoted and joined (a pair's tally has three)."""
    return ", ".join(f'"{field.column}"' for field in model._meta.pk_fields)


def _keys(cursor, table: str, key: str) -> list[tuple]:
    cursor.execute(f'SELECT {key} FROM "{table}"')
    return cursor.fetchall()


def key_in(key: str, keys: list[tuple]) -> tuple[str, list]:
    """The condition that a row's ``key`` (:func:`primary_key`) is one of ``keys``, and its
    parameters."""
    row = f"({', '.join(['%s'] * len(keys[0]))})"
    return f"({key}) IN (VALUES {', '.join([row] * len(keys))})", [
        value for values in keys for value in values
    ]


@dataclass(frozen=True)
class Snapshot:
    tables: tuple[tuple[str, str], ...]  # (table, its copy), for each table the build wrote
    models: tuple[type[Model], ...]

    def restore(self) -> None:
        """The build's rows back in their tables, in the caller's transaction (the test's)."""
        with transaction.atomic(), versioning.bulk_write(), connection.cursor() as cursor:
            for table, copy in self.tables:
                cursor.execute(f'INSERT INTO "{table}" SELECT * FROM "{copy}"')
            # The rows keep their ids: new rows must not take one (PostgreSQL's sequences).
            for statement in connection.ops.sequence_reset_sql(no_style(), self.models):
                cursor.execute(statement)


def take(name: str, build: Callable[[], T]) -> tuple[Snapshot, T]:
    """Run ``build`` (it commits), keep what it wrote as a :class:`Snapshot`, and undo it.

    Called once per session with database access unblocked, outside any test's transaction.
    Only new rows are kept: a build that updates rows it found (other than the data version,
    whose number is put back) is not supported.
    """
    models = {model._meta.db_table: model for model in _models()}
    with connection.cursor() as cursor:
        before = {table: _keys(cursor, table, primary_key(m)) for table, m in models.items()}
    version = DataVersion.objects.values_list("number", flat=True).get(pk=1)

    result = build()

    copied = []
    with transaction.atomic(), connection.cursor() as cursor:
        for table, model in models.items():
            copy, old = f"{COPY_PREFIX}{name}_{table}", before[table]
            cursor.execute(f'DROP TABLE IF EXISTS "{copy}"')
            condition, params = key_in(primary_key(model), old) if old else ("", [])
            new_rows = f" WHERE NOT {condition}" if old else ""
            cursor.execute(f'CREATE TABLE "{copy}" AS SELECT * FROM "{table}"{new_rows}', params)
            cursor.execute(f'DELETE FROM "{table}"{new_rows}', params)
            cursor.execute(f'SELECT COUNT(*) FROM "{copy}"')
            if cursor.fetchone()[0]:
                copied.append((table, copy))
            else:
                cursor.execute(f'DROP TABLE "{copy}"')
        DataVersion.objects.filter(pk=1).update(number=version)
    snapshot = Snapshot(
        tables=tuple(copied), models=tuple(models[table] for table, _copy in copied)
    )
    return snapshot, result
