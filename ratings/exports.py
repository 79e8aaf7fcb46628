"""A league's whole history of games as CSV or JSON: the one module that knows that format.

The download pages (``ratings/views/exports.py``) and the ``export_games`` command both send what
:func:`stream` yields. The format is documented for other tools in docs/files.md ("Exporting
the games"); a change here is a change there.

- Games come in rating order, (played at, id), with their seats in seating order: the order a
  replay from scratch rates them in.
- Numbers are exactly as stored, so a replay can compare every ``rating_after`` to the last
  digit: floats as the shortest decimal that reads back as the same float (Python's ``repr``:
  1016.0, 1231.8210570461172), and as whole numbers (1173) only where the system's numbers are
  whole by definition: the ratings of whole-number systems (prefko, FIDE) and Preferans scores.
  Elsewhere a whole float keeps its ".0" (1016.0, not 1016): a reader that tells ints from
  floats, as Python does, would otherwise add up huge scores exactly where the engine's floats
  round, and drift from its ratings.
- The export is streamed: one query, read in chunks of :data:`CHUNK_SIZE` result rows, written
  in pieces of about :data:`PIECE_ROWS` rows, so a league of 200,000 games never sits in memory.
"""

from __future__ import annotations

import csv
import itertools
import json
import operator
import re
from collections.abc import Callable, Iterator

from django.utils import timezone

from ratings.formatting import spreadsheet_text
from ratings.models import League, Player, Result
from ratings.papers.selectors import deal_logs_of_league
from ratings.systems import age_on

FORMATS = ("csv", "json")
CONTENT_TYPES = {"csv": "text/csv; charset=utf-8", "json": "application/json"}

# A game's fields, and each seat's in its ``results`` (JSON) or on its row (CSV).
GAME_FIELDS = ("id", "played_at", "bula", "ended_early")
SEAT_FIELDS = (
    *("seat", "name", "slug"),
    *("left", "middle", "right"),
    *("score", "rating_before", "rating_after"),
)
# FIDE's K-factor depends on a player's age, so a system that rates with birth dates also
# exports each seat's age at the game (whole years, null when unknown): what a replay needs, and
# less than the birth date itself.
AGE_FIELD = "age"
# A system that keeps a mean and an uncertainty (OpenSkill) also exports each seat's place (1 the
# best, a tie shares) and its skill before and after: a replay with the openskill package, given
# the places as ranks, gives the same numbers.
SKILL_FIELDS = ("place", "mu_before", "sigma_before", "mu_after", "sigma_after")


def seat_fields(league: League) -> tuple[str, ...]:
    """The fields of each seat in this league's export."""
    system = league.rating_system
    extra = (AGE_FIELD,) if system.uses_birth_dates else ()
    extra += SKILL_FIELDS if system.keeps_skill else ()
    return (*SEAT_FIELDS, *extra)


def csv_columns(league: League) -> tuple[str, ...]:
    """One CSV row per seat, its game's fields first: "id" would not say whose id it is."""
    return ("game_id", *GAME_FIELDS[1:], *seat_fields(league))


# Result rows fetched per round trip to the database.
CHUNK_SIZE = 2000
# Rows (CSV) or games (JSON) gathered into one piece of the stream: a server writes each piece
# it is given, so one per row would cost a system call per row.
PIECE_ROWS = 1000

_QUERY_COLUMNS = (
    *("game_id", "game__played_at", "game__bula", "game__ended_early"),
    *("seat", "player__name", "player__slug", "left", "middle", "right"),
    *("score", "rating_before", "rating_after", "player_id"),
    *("mu_before", "sigma_before", "mu_after", "sigma_after"),
)

GameRow = tuple  # (id, played_at as text, bula, ended_early), as in GAME_FIELDS
SeatRow = tuple  # (seat from 1, name, slug, left, middle, right, score, before, after[, age])


def whole_number(value: float) -> int | float:
    """A stored float that is a whole number as an int (1173.0 -> 1173), any other unchanged."""
    return int(value) if value.is_integer() else value


def _as_stored(value: float) -> float:
    return value


def games(league: League) -> Iterator[tuple[GameRow, list[SeatRow]]]:
    """Every game of the league in rating order with its seats in seating order: one query,
    read in chunks, one game in memory at a time."""
    system = league.rating_system
    rating = whole_number if system.integer_ratings else _as_stored
    score = whole_number if system.has_paper else _as_stored
    rows = (
        Result.objects.filter(game__league=league)
        .order_by("game__played_at", "game_id", "seat")
        .values_list(*_QUERY_COLUMNS)
        .iterator(chunk_size=CHUNK_SIZE)
    )
    zone = timezone.get_current_timezone()
    club_zone = timezone.get_default_timezone()
    born = _birth_dates(league) if system.uses_birth_dates else None
    for _game_id, game_rows in itertools.groupby(rows, key=operator.itemgetter(0)):
        seats = list(game_rows)
        game_id, played_at, bula, ended_early = seats[0][:4]
        game = (game_id, played_at.astimezone(zone).isoformat(), bula, ended_early)
        # Indexes rather than unpacking: this runs once per seat, 600,000 times a big league.
        exported = [
            (r[4] + 1, r[5], r[6], r[7], r[8], r[9], score(r[10]), rating(r[11]), rating(r[12]))
            for r in seats
        ]
        if born is not None:
            # The engine's own age: on the game's date in the club's zone (systems.FideElo).
            day = timezone.localdate(played_at, club_zone)
            exported = [
                (*seat, age_on(born.get(r[13]), day))
                for seat, r in zip(exported, seats, strict=True)
            ]
        if system.keeps_skill:
            places = system.places([r[10] for r in seats])
            exported = [
                (*seat, place, *r[14:18])
                for seat, place, r in zip(exported, places, seats, strict=True)
            ]
        yield game, exported


def _birth_dates(league: League) -> dict:
    """The known birth dates of the league's players, by player id (one query)."""
    players = Player.objects.filter(standings__league=league, birth_date__isnull=False)
    return dict(players.values_list("pk", "birth_date"))


def game_object(game: GameRow, seats: list[SeatRow], fields=SEAT_FIELDS) -> dict:
    """One game as the JSON export writes it: its fields and a ``results`` list of its seats."""
    return {
        **dict(zip(GAME_FIELDS, game, strict=True)),
        "results": [dict(zip(fields, seat, strict=True)) for seat in seats],
    }


def csv_rows(game: GameRow, seats: list[SeatRow]) -> Iterator[tuple]:
    """One game as the CSV export writes it: a row per seat (``csv`` writes None as an empty
    cell: no bula or paper outside Preferans).

    Names and slugs are text a spreadsheet would run as a formula if they started with "=",
    "+", "-" or "@": :func:`ratings.formatting.spreadsheet_text` neutralises them, as in the
    standings export. Numbers stay numbers (−500 is a score, not a formula).
    """
    for seat in seats:
        yield (*game, seat[0], spreadsheet_text(seat[1]), spreadsheet_text(seat[2]), *seat[3:])


def csv_stream(league: League) -> Iterator[str]:
    """The league's games as CSV text, piece by piece: a header, then one row per seat."""
    pieces: list[str] = []
    writer = csv.writer(_Appender(pieces))
    writer.writerow(csv_columns(league))
    for game, seats in games(league):
        writer.writerows(csv_rows(game, seats))
        if len(pieces) >= PIECE_ROWS:
            yield "".join(pieces)
            pieces.clear()
    yield "".join(pieces)


# Compact, one game a line; NaN and infinities are refused (not JSON), though none is stored.
_json_object = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode


def json_stream(league: League) -> Iterator[str]:
    """The league's games as one JSON list, piece by piece: a game object a line. A game
    finished from a digital paper also carries its ``deals``: the deal log, in the format of
    ``manage.py paper_from_deals`` (docs/digital-paper.md)."""
    pieces = ["["]
    separator = "\n"
    fields = seat_fields(league)
    deal_logs = deal_logs_of_league(league)
    for game, seats in games(league):
        exported = game_object(game, seats, fields)
        if game[0] in deal_logs:
            exported["deals"] = deal_logs[game[0]]
        pieces += (separator, _json_object(exported))
        separator = ",\n"
        if len(pieces) >= 2 * PIECE_ROWS:
            yield "".join(pieces)
            pieces.clear()
    pieces.append("\n]\n")
    yield "".join(pieces)


STREAMS: dict[str, Callable[[League], Iterator[str]]] = {"csv": csv_stream, "json": json_stream}


def stream(league: League, fmt: str) -> Iterator[str]:
    """The league's games in ``fmt`` (one of :data:`FORMATS`; KeyError for another)."""
    return STREAMS[fmt](league)


def filename(league: League, fmt: str) -> str:
    """The download's file name: ``<slug>-games.csv`` or ``.json``."""
    stem = re.sub(r"[^A-Za-z0-9_-]+", "-", league.slug).strip("-") or "league"
    return f"{stem}-games.{fmt}"


class _Appender:
    """A file for ``csv.writer`` that keeps what it is given in a list."""

    __slots__ = ("write",)

    def __init__(self, pieces: list[str]) -> None:
        self.write = pieces.append
