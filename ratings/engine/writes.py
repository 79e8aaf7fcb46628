"""The engine's write layer: rows of games, results and standings written with plain SQL.

Model instances, ``bulk_create`` and ``bulk_update`` cost more than the database's own work at
the sizes a replay or an import reaches (hundreds of thousands of rows). This module says which
rows a game, a result or a standing is, and :mod:`~ratings.engine.sql` how many rows travel at
once: INSERTs of many rows and prepared UPDATEs, or on PostgreSQL ``COPY`` (games, results, and
a replay's new ratings through a temporary table that one UPDATE reads: :func:`update_ratings`).
Only the engine calls them, inside its transaction with the league locked.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from datetime import UTC, datetime
from itertools import groupby, repeat
from operator import itemgetter

from django.db import connection
from django.utils import timezone

from ratings.engine import opponents, sql
from ratings.engine.state import GameInput, PlayerState
from ratings.models import Game, League, Result, Standing

# SQLite's page cache during a bulk write, in KiB (its default is 2,000).
BULK_CACHE_KIB = 65_536
# A result row's columns: the game, its league and time and the seat's place (copies the reads
# use, kept in step with the game: see Result), the seat, its score and ratings, then the
# paper's three, left out (NULL) for games without one, so a scored import does not send them.
# The INSERT and the COPY of results both name their columns from here: a new column of Result
# is one more name here (and in result_rows).
RESULT_COLUMNS = [
    *("game_id", "league_id", "played_at", "player_id", "seat", "place"),
    *("score", "rating_before", "rating_after"),
    *("left", "middle", "right"),
]
# A result row of a system that keeps a state beside its ratings (RatingSystem.keeps_state):
# the rating columns, then the state (JSON, as the system gives it). The other systems' rows
# have no such column: a bulk write of theirs sends nothing more for it.
STATE_COLUMNS = [*RESULT_COLUMNS[:9], "state"]


@contextmanager
def bulk_page_cache() -> Iterator[None]:
    """On SQLite, a page cache large enough for a bulk write's indexes, back to what it was after.

    Results come in game order, so the index by player takes each at a random place: with the
    default 2 MB cache, its pages are evicted and read back again and again during an import.
    The cache only grows as pages are used, and shrinks back when the write is over.
    """
    if connection.vendor != "sqlite":
        yield
        return
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA cache_size")
        (previous,) = cursor.fetchone()
        cursor.execute(f"PRAGMA cache_size = -{BULK_CACHE_KIB}")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f"PRAGMA cache_size = {int(previous)}")


def adapted_datetimes(values: Sequence[datetime]) -> list:
    """Aware datetimes as ``connection.ops.adapt_datetimefield_value`` gives them, many at once.

    On SQLite that is the naive time in the connection's zone, as text: here one expression a
    value instead of Django's five calls, which stood out in the profile of an import of short
    games (tests/engine/test_engine.py checks the two agree).
    """
    if connection.vendor != "sqlite":
        adapt = connection.ops.adapt_datetimefield_value
        return [adapt(value) for value in values]
    zone = connection.timezone
    if zone is UTC:
        # In UTC the offset isoformat writes is always "+00:00": cut, it leaves str(naive).
        return [value.astimezone(UTC).isoformat(" ")[:-6] for value in values]
    return [str(value.astimezone(zone).replace(tzinfo=None)) for value in values]


# A game row's columns, as the bulk writes give them (the id is the table's to give).
GAME_COLUMNS = [
    *("league_id", "played_at", "bula", "ended_early", "note", "entered_by_id"),
    *("created_at", "updated_at"),
]


def insert_games(
    league: League,
    games: Sequence[GameInput],
    user_id: int | None,
    *,
    each: Callable[[GameInput], None] | None = None,
) -> list[int]:
    """Insert games (SQLite: one statement; PostgreSQL: one COPY); returns their ids in the
    order given. ``each`` is called with every game, in order: on PostgreSQL as its row is
    sent, so that the database stores the rows while the caller works out what needs no ids.

    The league is locked, so no one else adds games to it meanwhile. ``user_id``: the member
    who entered them (``Game.entered_by``), none for a command.
    """
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    if connection.vendor == "sqlite":
        table = connection.ops.quote_name(Game._meta.db_table)
        with connection.cursor() as cursor:
            game_ids = _insert_games_from_json(
                cursor, table, GAME_COLUMNS, league.pk, user_id, now, games
            )
        if len(game_ids) != len(games):
            raise RuntimeError("games inserted and counted differ: was the league not locked?")
    else:
        # COPY returns no ids. The column's default gives them as the rows go in, one after
        # the other in the order given, and they are read back: the league's games above the
        # last id the sequence had given before. The league is locked, so no one else adds
        # games to it meanwhile, and a sequence never goes back. (Taking the ids first, a
        # nextval() a game, would be a query as large as the one that reads them back.)
        floor = last_id_given(Game)
        played = adapted_datetimes([prepared.played_at for prepared in games])
        league_id = league.pk  # a property: looked up once, not once a game
        rows = [
            (league_id, at, prepared.bula, prepared.ended_early, "", user_id, now, now)
            for at, prepared in zip(played, games, strict=True)
        ]
        if each is not None and len(rows) >= sql.COPY_MIN_ROWS and sql.copies():
            sql.copy_rows(Game, GAME_COLUMNS, _handed_on(rows, games, each))
            each = None  # every game handed on already, as the COPY took its row
        else:
            sql.write(Game, GAME_COLUMNS, rows)
        game_ids = list(
            Game.objects.filter(league=league, pk__gt=floor)
            .order_by("pk")
            .values_list("pk", flat=True)
        )
        if len(game_ids) != len(games):
            raise RuntimeError("games inserted and read back differ: was the league not locked?")
    for prepared in games if each is not None else ():
        each(prepared)
    return game_ids


def _handed_on(rows: Sequence[tuple], games: Sequence[GameInput], each) -> Iterator[tuple]:
    """``rows`` for a COPY to send, each game handed to ``each`` once its row is taken."""
    for row, prepared in zip(rows, games, strict=True):
        yield row
        each(prepared)


def last_id_given(model) -> int:
    """PostgreSQL: the last id the sequence of ``model``'s table has given (0 before any): every
    row inserted from now on without an id gets a greater one."""
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_get_serial_sequence(%s, %s)",
            [quote(model._meta.db_table), model._meta.pk.column],
        )
        (sequence,) = cursor.fetchone()
        # The name comes quoted as needed from PostgreSQL itself.
        cursor.execute(f"SELECT last_value, is_called FROM {sequence}")
        last_value, is_called = cursor.fetchone()
    return last_value if is_called else last_value - 1


@contextmanager
def references_locked_at_once(player_ids: Iterable[int], user_id: int | None) -> Iterator[None]:
    """PostgreSQL, where the role may set ``session_replication_role``: the block's rows go in
    with no trigger, their references checked and locked beforehand in one statement each.

    PostgreSQL checks a foreign key one row at a time, a query and a row lock for each: for an
    import, two per result, more than the COPY itself costs. Inside this block the rows written
    must refer only to the league (locked by the engine), games this transaction inserted, the
    ``player_ids`` and the user ``user_id``: those are checked here (a missing one is an
    IntegrityError, as the foreign key would raise) and locked ``FOR KEY SHARE``, as each row's
    check would have locked them, so none goes away before the commit. The data-version
    triggers stand aside too: the block belongs inside :func:`ratings.versioning.bulk_write`,
    which changed the version first, as :func:`~ratings.versioning.row_triggers_dropped` does
    on SQLite. Elsewhere (SQLite; a role without the right, the usual one) nothing changes.
    """
    if not _may_quiet_triggers():
        yield
        return
    from django.contrib.auth import get_user_model
    from django.db import IntegrityError

    from ratings.models import Player

    quote = connection.ops.quote_name
    wanted = {(Player, pid) for pid in player_ids}
    if user_id is not None:
        wanted.add((get_user_model(), user_id))
    with connection.cursor() as cursor:
        for model in {model for model, _pk in wanted}:
            keys = sorted(pk for m, pk in wanted if m is model)
            cursor.execute(
                f"SELECT {quote(model._meta.pk.column)} FROM {quote(model._meta.db_table)}"
                f" WHERE {quote(model._meta.pk.column)} = ANY(%s) ORDER BY 1 FOR KEY SHARE",
                [keys],
            )
            missing = set(keys) - {row[0] for row in cursor.fetchall()}
            if missing:
                raise IntegrityError(f"{model._meta.db_table}: no rows {sorted(missing)}")
        cursor.execute("SELECT current_setting('session_replication_role')")
        (previous,) = cursor.fetchone()
        cursor.execute("SET LOCAL session_replication_role = replica")
    # On an error the transaction (or its savepoint) rolls back, and the setting with it.
    yield
    with connection.cursor() as cursor:
        cursor.execute("SELECT set_config('session_replication_role', %s, true)", [previous])


def _may_quiet_triggers() -> bool:
    """Whether this PostgreSQL role may set ``session_replication_role`` (a superuser, or one
    granted ``SET`` on it: PostgreSQL 15 and later); asked once per connection."""
    if connection.vendor != "postgresql" or not connection.in_atomic_block:
        return False
    connection.ensure_connection()
    cached = getattr(connection, "_club_may_quiet_triggers", None)
    if cached is not None and cached[0] is connection.connection:
        return cached[1]
    with connection.cursor() as cursor:
        if connection.pg_version >= 150000:
            cursor.execute(
                "SELECT current_setting('is_superuser') = 'on'"
                " OR has_parameter_privilege('session_replication_role', 'SET')"
            )
        else:
            cursor.execute("SELECT current_setting('is_superuser') = 'on'")
        (may,) = cursor.fetchone()
    connection._club_may_quiet_triggers = (connection.connection, bool(may))
    return bool(may)


def _insert_games_from_json(cursor, table, columns, league_id, user_id, now, games) -> list[int]:
    """SQLite: the games in one statement that reads what differs between them (time, bula,
    ended early) from a JSON array, in order, parsed in C; returns their ids.

    Binding eight parameters a row from Python costs more than parsing one array in C. JSON
    carries text and whole numbers exactly, and a game row has nothing else (the results, with
    their float ratings, are bound as they are). Games without a bula that did not end early
    (every game of a file) send their times alone, so the statement takes one value out of each
    element, not three. Times in whole seconds, stored in UTC (the default), go as seconds since
    1970: Python's ``timestamp`` is cheaper than formatting each with ``isoformat``.

    The ids need no query: SQLite has one writer at a time, and an AUTOINCREMENT key gives the
    rows of one statement the numbers after the highest ever used, one by one, in the order
    inserted (``ORDER BY key``, the array's).
    """
    quoted = ", ".join(map(connection.ops.quote_name, columns))
    if connection.timezone is UTC and not any(game.played_at.microsecond for game in games):
        # SQLite writes seconds since 1970 out as Django writes a UTC time: no fraction at 0.
        times = [int(game.played_at.timestamp()) for game in games]
        time_of = "datetime({}, 'unixepoch')".format
    else:
        times = adapted_datetimes([game.played_at for game in games])
        time_of = "{}".format
    if any(game.bula is not None or game.ended_early for game in games):
        selected = time_of("json_extract(value, '$[0]')")
        selected += ", json_extract(value, '$[1]'), json_extract(value, '$[2]')"
        values = [[at, game.bula, game.ended_early] for at, game in zip(times, games, strict=True)]
    else:
        selected, values = time_of("value") + ", NULL, 0", times
    cursor.execute(
        f"INSERT OR FAIL INTO {table} ({quoted}) SELECT %s, {selected}, '', %s, %s, %s"
        " FROM json_each(%s) ORDER BY key",
        [league_id, user_id, now, now, json.dumps(values)],
    )
    last = cursor.lastrowid
    return list(range(last - cursor.rowcount + 1, last + 1))


def result_rows(
    league: League,
    game_id: int,
    prepared: GameInput,
    before: Sequence[float] | None = None,
    after: Sequence[float] | None = None,
    *,
    at=None,
    places: Sequence[int] | None = None,
) -> list[tuple]:
    """A game's result rows (:data:`RESULT_COLUMNS`, the paper's only for Preferans): each
    seat's rating ``before`` and ``after`` the game, or without them placeholders a replay
    fills in; ``at`` is the game's time as the database takes it (:func:`adapted_datetimes`),
    and ``places`` the seats' places by the league's system, each worked out here when not
    given."""
    return result_rows_of(league)(game_id, prepared, before, after, at=at, places=places)


def result_rows_of(league: League) -> Callable[..., list[tuple]]:
    """:func:`result_rows` for many games of ``league`` (an import's, a replay's): what is the
    league's (its id, its system) looked up once, not once a game."""
    league_id, system = league.pk, league.rating_system
    keeps_state, places_of = system.keeps_state, system.places

    def rows(
        game_id: int,
        prepared: GameInput,
        before: Sequence[float] | None = None,
        after: Sequence[float] | None = None,
        *,
        at=None,
        places: Sequence[int] | None = None,
    ) -> list[tuple]:
        seats = len(prepared.player_ids)
        placeholders = before is None or after is None
        if placeholders:
            before = after = [0.0] * seats
        if at is None:
            (at,) = adapted_datetimes([prepared.played_at])
        # zip builds the rows in C: an import makes hundreds of thousands of them.
        head = (
            repeat(game_id, seats),
            repeat(league_id, seats),
            repeat(at, seats),
            prepared.player_ids,
            range(seats),
            places_of(prepared.scores) if places is None else places,
            prepared.scores,
        )
        # Placeholders first: a file's import writes them, a hundred thousand games, and asks
        # no more.
        if not placeholders and keeps_state:
            states = [
                state_value(system.result_state(b, a)) for b, a in zip(before, after, strict=True)
            ]
            # Plain floats for the database drivers (a rating may be a float subclass).
            before, after = list(map(float, before)), list(map(float, after))
            return list(zip(*head, before, after, states, strict=True))
        if not any(prepared.papers):
            return list(zip(*head, before, after, strict=True))
        left, middle, right = zip(*prepared.papers, strict=True)
        return list(zip(*head, before, after, left, middle, right, strict=True))

    return rows


def insert_results(rows: list[tuple]) -> None:
    """Insert result rows (see :func:`result_rows`), all of one shape: with papers, with
    a state, or with neither."""
    if not rows:
        return
    sql.write(Result, _result_columns(rows[0]), rows)


def _result_columns(row: tuple) -> list[str]:
    """The columns of a result row of this shape (see :func:`result_rows`)."""
    columns = STATE_COLUMNS if len(row) == len(STATE_COLUMNS) else RESULT_COLUMNS
    return columns[: len(row)]


@contextmanager
def results_streamed() -> Iterator[Callable[[list[tuple]], None]]:
    """For the block, a function that inserts result rows as :func:`insert_results` does, a
    batch at a time (an import's chunks), with no other statement between the batches.

    Where results are copied (:func:`copies`), the batches go into one COPY kept open across
    them (a new one when a batch's rows change shape): the server stores a batch while the
    caller rates the next, instead of the two taking turns.
    """
    if not sql.copies():
        yield insert_results
        return
    with ExitStack() as open_copy:
        shape: list = [None, None]  # the open COPY's row length and its write_row

        def write(rows: list[tuple]) -> None:
            if not rows:
                return
            if len(rows[0]) != shape[0]:
                open_copy.close()
                columns = _result_columns(rows[0])
                shape[:] = [
                    len(rows[0]),
                    open_copy.enter_context(
                        sql.copying(Result._meta.db_table, columns, sql.copy_types(Result, columns))
                    ),
                ]
            write_row = shape[1]
            for row in rows:
                write_row(row)

        yield write


def update_ratings(league: League, updates: list[tuple[float, float, int]]) -> None:
    """Set (rating_before, rating_after) of results by id, and the state the league's system
    keeps beside them (:meth:`~ratings.systems.RatingSystem.result_state`), if it keeps one."""
    columns = ["rating_before", "rating_after"]
    system = league.rating_system
    if system.keeps_state:
        columns.append("state")
        updates = [
            (float(b), float(a), state_value(system.result_state(b, a)), pk) for b, a, pk in updates
        ]
    if len(updates) >= sql.COPY_MIN_ROWS and sql.copies():
        sql.update_from_copy(Result, columns, updates)
    else:
        sql.executemany(Result, columns, updates)


def result_places(league: League) -> int:
    """Set the places of the league's results again from their scores, by the league's system,
    writing only those that differ: after a change of system (lowest score wins, or highest),
    and after a restore, whose file's copies are not trusted. Returns how many changed."""
    places = league.rating_system.places
    rows = (
        Result.objects.filter(league=league)
        .order_by("game_id", "seat")
        .values_list("game_id", "id", "score", "place")
        .iterator(chunk_size=20_000)
    )
    updates = []
    for _game, seats in groupby(rows, key=itemgetter(0)):
        seats = list(seats)
        for (_g, pk, _score, stored), place in zip(
            seats, places([seat[2] for seat in seats]), strict=True
        ):
            if stored != place:
                updates.append((place, pk))
    sql.executemany(Result, ["place"], updates)
    return len(updates)


def result_copies_from_games() -> None:
    """Copy each game's league and time onto its results, work out their places and count the
    opponents' tallies: for a restore, which loads results as the file gives them, and trusts
    none of those copies."""
    quote = connection.ops.quote_name
    result, game = quote(Result._meta.db_table), quote(Game._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {result} SET league_id = g.league_id, played_at = g.played_at "
            f"FROM {game} g WHERE g.id = {result}.game_id"
        )
    for league in League.objects.filter(pk__in=Game.objects.values("league_id")):
        result_places(league)
        opponents.rebuild(league)  # a backup holds no tallies


def save_states(league: League, states: dict[int, PlayerState], create: bool = True) -> None:
    """Write players' states to their standings (creating missing rows unless told they exist)."""
    if create:
        Standing.objects.bulk_create(
            [
                Standing(league=league, player_id=pid, rating=s.rating, peak_rating=s.peak)
                for pid, s in states.items()
            ],
            ignore_conflicts=True,
        )
    adapt = connection.ops.adapt_datetimefield_value
    state_of = league.rating_system.standing_state
    sql.executemany(
        Standing,
        ["rating", "games", "peak_rating", "last_change", "last_played_at", "state"],
        [
            (
                *(float(s.rating), s.games, s.peak, s.last_change, adapt(s.last_played_at)),
                state_value(state_of(s.rating)),
                *(league.pk, pid),
            )
            for pid, s in states.items()
        ],
        where=("league_id", "player_id"),
    )


def state_value(state: dict | None):
    """A system's state as the database driver takes it for the JSON column (None: NULL), in
    an INSERT, an UPDATE or a COPY alike (Django's own adaptation of ``Result.state``)."""
    if state is None:
        return None
    return _STATE_FIELD.get_db_prep_value(state, connection)


_STATE_FIELD = Result._meta.get_field("state")
