"""A league's downloads as CSV or JSON, the one module that knows their formats: its whole
history of games, and its standings (all time or for a period).

The games: the download pages (``ratings/views/exports.py``) and the ``export_games`` command
both send what :func:`stream` yields. The format is documented for other tools in docs/files.md
("Exporting the games"); a change here is a change there.

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

The standings: the leaderboard's export links and the ``standings`` command (``--format csv`` or
``json``) both write what :func:`standings_csv` and :func:`standings_json` give, numbers rounded
as the pages round them (:func:`standings_number`).
"""

from __future__ import annotations

import csv
import itertools
import json
import operator
import re
from collections.abc import Callable, Iterator
from datetime import date, datetime
from typing import Protocol

from django.core.serializers.json import DjangoJSONEncoder
from django.utils import timezone

from ratings import selectors
from ratings.formatting import machine_number, spreadsheet_text
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


def seat_fields(league: League) -> tuple[str, ...]:
    """The fields of each seat in this league's export."""
    system = league.rating_system
    extra = (AGE_FIELD,) if system.uses_birth_dates else ()
    # A system's own fields (OpenSkill: the place and the skill before and after), as it says.
    return (*SEAT_FIELDS, *extra, *system.export_fields())


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
)
# Read only for a system with fields of its own in the exports (RatingSystem.export_fields):
# the other systems' rows skip the JSON column's decoding.
_OWN_COLUMNS = ("place", "state")

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
        .values_list(*_QUERY_COLUMNS, *(_OWN_COLUMNS if system.export_fields() else ()))
        .iterator(chunk_size=CHUNK_SIZE)
    )
    zone = timezone.get_current_timezone()
    club_zone = timezone.get_default_timezone()
    born = _birth_dates(league) if system.uses_birth_dates else None
    own_fields, own_values = system.export_fields(), system.export_values
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
        if own_fields:
            exported = [
                (*seat, *own_values(r[14], r[15])) for seat, r in zip(exported, seats, strict=True)
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


def _file_stem(league: League) -> str:
    """The league's slug as the start of a download's file name: letters, digits, - and _."""
    return re.sub(r"[^A-Za-z0-9_-]+", "-", league.slug).strip("-") or "league"


def filename(league: League, fmt: str) -> str:
    """The download's file name: ``<slug>-games.csv`` or ``.json``."""
    return f"{_file_stem(league)}-games.{fmt}"


class _Appender:
    """A file for ``csv.writer`` that keeps what it is given in a list."""

    __slots__ = ("write",)

    def __init__(self, pieces: list[str]) -> None:
        self.write = pieces.append


# Standings ---------------------------------------------------------------------------------------

STANDINGS_COLUMNS = (
    *("rank", "name", "rating", "games", "last_change", "last_played"),
    *("provisional", "inactive"),
)
# A period's table (a season or dates): the rating at its end and the change over it.
PERIOD_COLUMNS = (
    *("rank", "name", "games", "rating", "change", "average_score"),
    *("first_places", "shared_first_places", "provisional"),
)


class Period(Protocol):
    """A stretch of the league's history, as :mod:`ratings.forms.periods` reads one."""

    season: int | None
    first_day: date | None
    last_day: date | None
    by: str
    slug: str

    @property
    def start(self) -> datetime | None: ...

    @property
    def end(self) -> datetime | None: ...


def standings_number(value: float | None, league: League) -> float | int | None:
    """A number for the export: whole for whole-number systems, else two decimals, rounded as
    the pages round (half away from zero), still a number for the tools that read the file."""
    return machine_number(value, 0 if league.integer_ratings else 2)


def standings_rows(
    league: League, *, min_games: int | None = None, show_inactive: bool = False
) -> list[dict]:
    """The league's standings as the export gives them (:data:`STANDINGS_COLUMNS`), in rank
    order."""
    ranked, provisional, inactive = (
        selectors.Status.RANKED,
        selectors.Status.PROVISIONAL,
        selectors.Status.INACTIVE,
    )
    standings = selectors.league_standings(league, min_games=min_games, show_inactive=show_inactive)
    return [
        {
            "rank": standing.rank if standing.status == ranked else None,
            "name": standing.player.name,
            "rating": standings_number(standing.rating, league),
            "games": standing.games,
            "last_change": standings_number(standing.last_move, league),
            "last_played": (
                timezone.localtime(standing.last_played_at).isoformat()
                if standing.last_played_at
                else None
            ),
            "provisional": standing.status == provisional,
            "inactive": standing.status == inactive,
        }
        for standing in standings
    ]


def period_rows(league: League, period: Period, *, min_games: int | None = None) -> list[dict]:
    """The league's table for a period as the export gives it (:data:`PERIOD_COLUMNS`)."""
    rows = selectors.season_standings(
        league, period.start, period.end, by=period.by, min_games=min_games
    )
    return [
        {
            "rank": row.rank if row.status == selectors.Status.RANKED else None,
            "name": row.name,
            "games": row.games,
            "rating": standings_number(row.rating, league),
            "change": standings_number(row.change, league),
            "average_score": machine_number(row.average_score, 2),
            "first_places": row.first_places,
            "shared_first_places": row.shared_first_places,
            "provisional": row.status == selectors.Status.PROVISIONAL,
        }
        for row in rows
    ]


def standings_csv(rows: list[dict], *, period: Period | None = None) -> str:
    """The rows as CSV with a header row; names cannot run as spreadsheet formulas."""
    columns = STANDINGS_COLUMNS if period is None else PERIOD_COLUMNS
    pieces: list[str] = []
    writer = csv.writer(_Appender(pieces))
    writer.writerow(columns)
    for row in rows:
        row = {**row, "name": spreadsheet_text(row["name"])}
        writer.writerow(["" if row[column] is None else row[column] for column in columns])
    return "".join(pieces)


def standings_json(league: League, rows: list[dict], *, period: Period | None = None) -> str:
    """The rows as JSON, with what a replay of the games export needs to know of the league (and
    the period, for a period's table)."""
    payload: dict = {
        "league": {
            "name": league.name,
            "slug": league.slug,
            "system": league.system,
            "lower_is_better": league.lower_is_better,
            # What a replay of the games export needs besides the system: the system's own
            # settings, by name (classic Elo's elo_k, FIDE's speed; none of another's).
            **league.system_settings,
            "provisional_until": league.provisional_until,
            "inactive_days": league.inactive_days,
        },
    }
    if period is not None:
        payload["period"] = {
            "season": period.season,
            "from": period.first_day and period.first_day.isoformat(),
            "to": period.last_day and period.last_day.isoformat(),
            "ranked_by": period.by,
        }
    payload["standings"] = rows
    return json.dumps(payload, cls=DjangoJSONEncoder, ensure_ascii=False, indent=1)


def standings_filename(league: League, fmt: str, *, period: Period | None = None) -> str:
    """The download's file name: ``<slug>-standings.csv``, ``<slug>-2026-standings.json``."""
    stem = _file_stem(league) if period is None else f"{_file_stem(league)}-{period.slug}"
    return f"{stem}-standings.{fmt}"
