"""Restoring a club from a backup_club file, trusting nothing in it.

:func:`club_restore` reads the file one object at a time (see :mod:`ratings.backup.files`) and
checks each before writing it: only the models a backup holds, only their fields, every number
finite and within its column's range, dates in a sane span, strings within their length. It
writes in batches, in one transaction, so memory stays bounded whatever the file's size. Then it
checks what was written as a whole: references here, then each game against its league's rules
(as the forms check a new game) and every rating against a replay of the games by the engine
(:mod:`ratings.backup.checks`). Any problem refuses the file and rolls back everything: nothing
is restored.
"""

from __future__ import annotations

import json
import math
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime
from functools import partial
from pathlib import Path

from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.color import no_style
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connection, connections, models, transaction
from django.db.backends.base.operations import BaseDatabaseOperations
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime

from ratings import dates
from ratings.algorithms import paper as paper_rules
from ratings.backup import files as backup_json
from ratings.backup.checks import (
    RestoreRefused,
    check_audit,
    check_backtests,
    check_events,
    check_games,
    check_papers,
    check_players,
    check_ratings,
)
from ratings.engine.sql import insert_rows
from ratings.engine.writes import result_copies_from_games
from ratings.models import Game, League, Player
from ratings.names import search_key
from ratings.player_names import MAX_LENGTH as MAX_NAME_LENGTH
from ratings.player_names import clean_player_name, name_key
from ratings.systems import SYSTEMS
from ratings.versioning import bulk_write

DEFAULT_MAX_BYTES = 2048 * backup_json.MiB
# The largest number a club stores: rayter's largest score (10**15 - 1); ratings stay far below.
MAX_NUMBER = 1e15
# Rows kept in memory per table before they are written.
BATCH_ROWS = 5000
# Integer ranges of PostgreSQL's columns, which a club must fit to move between databases
# (SQLite's columns take any 64-bit integer).
INTEGER_RANGES = BaseDatabaseOperations.integer_field_ranges


_MISSING = object()


class _Invalid(Exception):
    """A value of an object is wrong; the loader adds which object and field."""


@dataclass
class RestoreSummary:
    leagues: int
    players: int
    games: int
    superusers: list[str]


def backed_up_models() -> list[type[models.Model]]:
    """The models backup_club writes, in the order dumpdata lists them."""
    found = []
    for label in backup_json.BACKED_UP:
        app_label, _dot, model_name = label.partition(".")
        if model_name:
            found.append(apps.get_model(app_label, model_name))
        else:
            found += apps.get_app_config(app_label).get_models()
    return [model for model in found if model._meta.label_lower not in backup_json.NOT_BACKED_UP]


def club_restore(
    *, path: Path, max_bytes: int = DEFAULT_MAX_BYTES, unsigned: bool = False
) -> RestoreSummary:
    """Load a backup_club file into an empty, migrated database, all or nothing.

    The file's seal (:mod:`ratings.backup.files`) must match, unless ``unsigned`` (an older
    backup, or one signed with a key this server lacks, that the operator vouches for). Raises
    :class:`RestoreRefused` naming the first problem found; the transaction is then rolled back,
    so the database is as empty as before.
    """
    if not path.name.endswith((".json", ".json.gz")):
        raise RestoreRefused(f"{path} is not a backup_club file (.json or .json.gz)")
    if not path.is_file():
        raise RestoreRefused(f"there is no file {path}")
    try:
        with transaction.atomic(), bulk_write():
            _refuse_unless_empty()
            loader = _Loader()
            # The seal is checked at the end of the file, before the club is checked as a
            # whole; an object that breaks a rule is refused when it is met, whatever the seal
            # (reading on to the seal would read a zip bomb to its end).
            for obj in backup_json.read_objects(path, max_bytes=max_bytes, unsigned=unsigned):
                loader.add(obj)
            loader.finish()
            check_games()
            check_events()
            check_players()
            check_audit()
            check_ratings()
            check_papers()
            check_backtests()
            User = get_user_model()
            return RestoreSummary(
                leagues=League.objects.count(),
                players=Player.objects.count(),
                games=Game.objects.count(),
                superusers=sorted(
                    User.objects.filter(is_superuser=True).values_list(
                        User.USERNAME_FIELD, flat=True
                    )
                ),
            )
    except backup_json.SignatureError as error:
        raise RestoreRefused(f"{path} fails its integrity check: {error}") from error
    except backup_json.BackupFileError as error:
        raise RestoreRefused(f"{path} cannot be read as a backup: {error}") from error
    except OSError as error:
        raise RestoreRefused(f"{path} cannot be read: {error}") from error
    except DatabaseError as error:
        raise RestoreRefused(f"the file breaks a rule of the database ({error})") from error


def _refuse_unless_empty() -> None:
    filled = [
        str(model._meta.verbose_name_plural)
        for model in backed_up_models()
        if model._default_manager.exists()
    ]
    if filled:
        raise RestoreRefused(
            f"this database is not empty (it has {', '.join(filled)}): restore_club loads only "
            "into a new database (run migrate on an empty one first)"
        )


# Loading ----------------------------------------------------------------------------------------


class _Loader:
    """Checks each object of the file and writes them in batches, table by table."""

    def __init__(self):
        # The connection itself, not django.db.connection's per-thread proxy: it is asked for
        # every value of every row.
        self.connection = connections[DEFAULT_DB_ALIAS]
        self.tables = {model._meta.label_lower: _Table(model, self) for model in backed_up_models()}
        self.natural_keys: dict[tuple, int] = {}
        self.count = 0
        self.latest_date = timezone.localdate()

    def add(self, obj) -> None:
        self.count += 1
        if type(obj) is not dict or obj.keys() != {"model", "pk", "fields"}:
            raise RestoreRefused(
                f"object {self.count} is not a Django object with a model, a pk and fields"
            )
        label = obj["model"]
        table = self.tables.get(label) if type(label) is str else None
        if table is None:
            raise RestoreRefused(
                f"object {self.count} is a {_show(label)}, which a club backup does not hold "
                f"(it holds only {', '.join(self.tables)})"
            )
        pk = obj["pk"]
        try:
            table.add(pk, obj["fields"])
        except _Invalid as error:
            raise RestoreRefused(f"object {self.count}, {label} {_show(pk)}: {error}") from None

    def key(self, model, value) -> int:
        """A reference as the file writes it: a primary key, or a natural key such as a
        username for models that have one."""
        if type(value) is int:
            return _check_int(value, 1, INTEGER_RANGES["BigAutoField"][1])
        natural = model._default_manager
        if not (
            hasattr(natural, "get_by_natural_key")
            and type(value) is list
            and 0 < len(value) <= 3
            and all(type(part) is str for part in value)
        ):
            raise _Invalid(f"{_show(value)} is not a reference to a {model._meta.label_lower}")
        cache_key = (model, *value)
        pk = self.natural_keys.get(cache_key)
        if pk is None:
            self.flush()  # the object referred to may be waiting in a batch
            try:
                pk = natural.get_by_natural_key(*value).pk
            except (model.DoesNotExist, TypeError):
                raise _Invalid(
                    f"refers to the {model._meta.label_lower} {_show(value)}, "
                    "which is not in the file"
                ) from None
            self.natural_keys[cache_key] = pk
        return pk

    def flush(self) -> None:
        for table in self.tables.values():
            table.flush()

    def finish(self) -> None:
        """Write what is left, check every reference, and move the id sequences past the ids."""
        self.flush()
        if not any(table.written for table in self.tables.values()):
            raise RestoreRefused("the file holds no club")
        result_copies_from_games()
        # Foreign keys are checked at the end (as loaddata does): the file lists the objects a
        # row refers to before it, but it need not.
        connection.check_constraints()
        every_model = [table.model for table in self.tables.values()]
        every_model += [through for table in self.tables.values() for through, *_ in table.m2m]
        with connection.cursor() as cursor:
            for sql in connection.ops.sequence_reset_sql(no_style(), every_model):
                cursor.execute(sql)


class _Table:
    """One model's fields, each with its check, and the rows waiting to be written."""

    def __init__(self, model, loader: _Loader):
        meta = model._meta
        self.model = model
        self.label = meta.label_lower
        self.loader = loader
        self.pk_high = INTEGER_RANGES[meta.pk.get_internal_type()][1]
        self.fields = [field for field in meta.concrete_fields if not field.primary_key]
        self.checks = [(field, _check_for(field, loader)) for field in self.fields]
        # How each value goes to the database: numbers, text and booleans as they are.
        self.adapters = [
            partial(field.get_db_prep_save, connection=loader.connection)
            if field.get_internal_type() in ("DateTimeField", "DateField", "UUIDField", "JSONField")
            else None
            for field in self.fields
        ]
        self.columns = [meta.pk.column] + [field.column for field in self.fields]
        self.names = {field.name for field in self.fields}
        # Many-to-many fields: (through model, its two columns, the related model).
        self.m2m = [
            (
                field.remote_field.through,
                [field.m2m_column_name(), field.m2m_reverse_name()],
                field.remote_field.model,
                field.name,
            )
            for field in meta.many_to_many
        ]
        self.names |= {name for *_, name in self.m2m}
        # Models whose clean() checks more than their fields (a league's start rating).
        self.cleans = model.clean is not models.Model.clean
        self.rows: list[list] = []
        self.links: dict[type, list[tuple]] = {through: [] for through, *_ in self.m2m}
        self.written = 0

    def add(self, pk, fields) -> None:
        if type(pk) is not int or not 1 <= pk <= self.pk_high:
            raise _Invalid("the primary key is not a whole number above zero")
        if type(fields) is not dict:
            raise _Invalid("its fields are not an object")
        derive = DERIVED.get(self.label)
        if derive is not None:
            fields = derive(fields)
        unknown = fields.keys() - self.names
        if unknown:
            raise _Invalid(f"{self.label} has no field {_show(sorted(unknown)[0])}")
        values = [pk]
        for field, check in self.checks:
            raw = fields.get(field.name, _MISSING)
            if raw is _MISSING:  # a file from before a migration added the field
                if not (field.has_default() or field.null):
                    raise _Invalid(f"{field.name} is missing")
                values.append(field.get_default())
                continue
            if raw is None:
                if not field.null:
                    raise _Invalid(f"{field.name} is null")
                values.append(None)
                continue
            try:
                values.append(check(raw))
            except _Invalid as error:
                raise _Invalid(f"{field.name} {error}") from None
        if self.cleans:
            instance = self.model(
                pk=pk,
                **{
                    field.attname: value
                    for field, value in zip(self.fields, values[1:], strict=True)
                },
            )
            try:
                instance.clean()
            except ValidationError as error:
                raise _Invalid(" ".join(error.messages)) from None
        for through, _columns, related, name in self.m2m:
            keys = fields.get(name, [])
            if type(keys) is not list:
                raise _Invalid(f"{name} is not a list")
            try:
                linked = [(pk, self.loader.key(related, key)) for key in keys]
            except _Invalid as error:
                raise _Invalid(f"{name}: {error}") from None
            # Looked up after the keys, which may have flushed the batch and begun a new one.
            self.links[through].extend(linked)
        for at, adapt in enumerate(self.adapters, start=1):
            if adapt is not None and values[at] is not None:
                values[at] = adapt(values[at])
        self.rows.append(values)
        if len(self.rows) >= BATCH_ROWS:
            self.flush()

    def flush(self) -> None:
        try:
            _insert(self.model._meta.db_table, self.columns, self.rows)
            for through, columns, *_ in self.m2m:
                _insert(through._meta.db_table, columns, self.links[through])
                self.links[through] = []
        except DatabaseError as error:
            raise RestoreRefused(
                f"the {self.label} objects break a rule of the database ({error})"
            ) from error
        self.written += len(self.rows)
        self.rows = []


def _insert(table: str, columns: list[str], rows: list) -> None:
    """INSERT rows, as many a statement as the database takes (SQLite: 999 parameters)."""
    limit = connection.features.max_query_params
    batch = max(1, min(500, limit // len(columns) if limit else 500))
    insert_rows(table, columns, rows, batch=batch)


# Fields derived from others: worked out again from what they derive from (a file from before
# the field existed has none, and a file's own could disagree with its name), after the name
# passed the live path's rule.


def _player_fields(fields: dict) -> dict:
    name = fields.get("name")
    if type(name) is not str or len(name) > MAX_NAME_LENGTH:
        return fields  # the field's own check says what is wrong
    try:
        cleaned = clean_player_name(name)
    except ValidationError as error:
        raise _Invalid(f"name {_show(name)}: {' '.join(error.messages)}") from None
    if cleaned != name:
        raise _Invalid(f"name {_show(name)} is not written as the club writes names")
    return {**fields, "name_key": name_key(name), "search_key": search_key(name)}


def _alias_fields(fields: dict) -> dict:
    name = fields.get("name", "")
    if type(name) is not str:
        return fields
    return {**fields, "name_key": name_key(name) if name else ""}


def _result_fields(fields: dict) -> dict:
    """A result's copies of its game (league, time, place) are worked out again once every game
    is written (:func:`~ratings.engine.writes.result_copies_from_games`, before the references
    are checked): whatever the file says, they hold a placeholder until then."""
    return {**_state_folded(fields, _OLD_RESULT_STATE), **_RESULT_PLACEHOLDERS}


def _standing_fields(fields: dict) -> dict:
    return _state_folded(fields, _OLD_STANDING_STATE)


# A backup made before migration 0023 keeps OpenSkill's numbers in columns of their own; they
# are its state's keys now (the migration moves them the same way). The replay of every league
# (checks.check_ratings) writes each state again anyway.
_OLD_RESULT_STATE = ("mu_before", "sigma_before", "mu_after", "sigma_after")
_OLD_STANDING_STATE = ("mu", "sigma")


def _state_folded(fields: dict, old: tuple[str, ...]) -> dict:
    """``fields`` with an old backup's state columns folded into its state slot."""
    if old[0] not in fields:
        return fields
    values = {key: fields[key] for key in old if key in fields}
    fields = {name: value for name, value in fields.items() if name not in old}
    if values.get(old[0]) is not None and "state" not in fields:
        fields["state"] = values
    return fields


_RESULT_PLACEHOLDERS = {"league": 1, "played_at": "2000-01-01T00:00:00+00:00", "place": 1}


def _league_fields(fields: dict) -> dict:
    """A backup made before migration 0024 has the systems' settings in columns every league
    had: each goes into the settings of a league whose system has it (the migration moves them
    the same way), and League.clean checks them with the system's own form."""
    old = _OLD_SETTINGS & fields.keys()
    if not old or "settings" in fields:
        return fields
    system = SYSTEMS.get(fields.get("system"))
    own = system.setting_defaults().keys() if system is not None else ()
    kept = {name: value for name, value in fields.items() if name not in old}
    return {**kept, "settings": {name: fields[name] for name in old if name in own}}


def _deal_fields(fields: dict) -> dict:
    """A deal's hand in the one shape a deal is kept in (``Hand.to_json``), read by the paper's
    own module: a backup made before migration 0033 keeps the pad's taps or a deal log's hand,
    which it reads as that migration does; anything else is refused."""
    entered = fields.get("entered")
    if entered is None:
        return fields  # the field's own check says what is wrong
    try:
        hand = paper_rules.hand_from_stored(entered)
    except paper_rules.PaperError as error:
        raise _Invalid(f"entered is not a deal: {error}") from None
    return {**fields, "entered": hand.to_json()}


# The league's columns that held the systems' settings before migration 0024.
_OLD_SETTINGS = frozenset({"elo_k", "speed", "refas"})

DERIVED = {
    "ratings.deal": _deal_fields,
    "ratings.league": _league_fields,
    "ratings.player": _player_fields,
    "ratings.playeralias": _alias_fields,
    "ratings.result": _result_fields,
    "ratings.standing": _standing_fields,
}


# The check of each kind of field: takes the value as JSON gives it (never None) and returns the
# Python value, or raises _Invalid saying what is wrong with it.


def _check_for(field, loader: _Loader) -> Callable:
    kind = field.get_internal_type()
    if field.is_relation:
        related = field.remote_field.model
        return lambda value: loader.key(related, value)
    if kind == "FloatField":
        return _check_float
    if kind in INTEGER_RANGES:
        low, high = INTEGER_RANGES[kind]
        return lambda value: _check_int(value, low, high)
    if kind == "BooleanField":
        return _check_bool
    if kind == "DateTimeField":
        # The live path's rule for the field (ratings.dates), its upper bound worked out once.
        rule = dates.rule_for(f"{field.model._meta.label_lower}.{field.name}")
        return partial(_check_datetime, rule=rule, latest=rule.latest())
    if kind == "DateField":
        return lambda value: _check_date(value, latest=loader.latest_date)
    if kind == "UUIDField":
        return _check_uuid
    if kind == "JSONField":
        return _check_json
    if kind in ("CharField", "SlugField", "TextField", "EmailField"):
        return _text_check(field)
    raise NotImplementedError(f"restore_club cannot check a {kind} ({field})")


def _check_float(value) -> float:
    if type(value) not in (int, float):
        raise _Invalid(f"{_show(value)} is not a number")
    if not (math.isfinite(value) and abs(value) <= MAX_NUMBER):
        raise _Invalid(f"{_show(value)} is not a finite number within ±10^15")
    return float(value)


def _check_int(value, low: int, high: int) -> int:
    if type(value) is not int:
        raise _Invalid(f"{_show(value)} is not a whole number")
    if not low <= value <= high:
        raise _Invalid(f"{_show(value)} is out of range ({low} to {high})")
    return value


def _check_bool(value) -> bool:
    if type(value) is not bool:
        raise _Invalid(f"{_show(value)} is not true or false")
    return value


def _check_datetime(value, *, rule: dates.MomentRule, latest: datetime) -> datetime:
    try:
        parsed = parse_datetime(value) if type(value) is str else None
    except ValueError:
        parsed = None
    if parsed is None:
        raise _Invalid(f"{_show(value)} is not a date and time")
    if timezone.is_naive(parsed):
        raise _Invalid(f"{_show(value)} has no time zone")
    if rule.refusal(parsed, latest) is not None:
        raise _Invalid(f"{_show(value)} is not between {dates.EARLIEST_YEAR} and {rule.until}")
    return parsed


def _check_date(value, *, latest: date) -> date:
    try:
        parsed = parse_date(value) if type(value) is str else None
    except ValueError:
        parsed = None
    if parsed is None:
        raise _Invalid(f"{_show(value)} is not a date")
    if not dates.earliest_day() <= parsed <= latest:
        raise _Invalid(f"{_show(value)} is not between {dates.EARLIEST_YEAR} and today")
    return parsed


def _check_uuid(value) -> uuid.UUID:
    try:
        return uuid.UUID(value)
    except (TypeError, ValueError, AttributeError):
        raise _Invalid(f"{_show(value)} is not a UUID") from None


def _check_json(value):
    try:
        json.dumps(value, allow_nan=False)
    except ValueError:
        raise _Invalid("holds a number that is not finite") from None
    return value


def _text_check(field) -> Callable:
    choices = {value for value, _label in field.flatchoices} if field.choices else None

    def check(value) -> str:
        if type(value) is not str:
            raise _Invalid(f"{_show(value)} is not text")
        if not value:
            if not field.blank:
                raise _Invalid("is empty")
            return value
        if choices is not None and value not in choices:
            raise _Invalid(f"{_show(value)} is not one of {', '.join(sorted(choices))}")
        if "\x00" in value:
            raise _Invalid("holds a NUL character")
        try:
            field.run_validators(value)  # length, and slug or username rules
        except ValidationError as error:
            raise _Invalid(" ".join(error.messages)) from None
        return value

    return check


def _show(value) -> str:
    """A value for a message, cut short."""
    text = repr(value)
    return text if len(text) <= 60 else f"{text[:57]}..."
