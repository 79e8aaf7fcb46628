"""The API's request and response shapes (pydantic, through django-ninja's Schema).

A request's shape bounds every value as the OpenAPI file says, so a value out of bounds is a 400
naming its field (:mod:`ratings.api.errors`) before it reaches a query or a column it would
overflow: text that PostgreSQL cannot hold (a NUL byte), a number beyond a column's range, a time
whose offset PostgreSQL refuses.
"""

from __future__ import annotations

import re
import uuid
from datetime import UTC, datetime, timedelta
from typing import Annotated, Literal

from django.urls.converters import SlugConverter
from django.utils import timezone
from django.utils.translation import gettext as _
from ninja import Path, Schema
from pydantic import AfterValidator, BeforeValidator, Field, WithJsonSchema

from ratings.models.players import SLUG_PATTERN
from ratings.systems import MAX_BULA, MAX_COLUMN, MAX_REFAS, MAX_SCORE

# Slugs as the site's addresses take them (ratings/urls.py): a league's is Django's ``slug``, a
# player's may have letters of any script.
LEAGUE_SLUG = f"^{SlugConverter.regex}$"
PLAYER_SLUG = f"^{SLUG_PATTERN}$"
SLUG_LENGTH = 200
# A slug in a route's path; one that cannot be a slug names nothing: 404 (ratings.api.errors).
LeagueSlug = Path(..., pattern=LEAGUE_SLUG, max_length=SLUG_LENGTH, examples=["preferans"])
PlayerSlug = Path(..., pattern=PLAYER_SLUG, max_length=SLUG_LENGTH, examples=["pedja"])
# A row's id in the path, within the database's bigint: beyond, it names nothing either.
RowId = Path(..., ge=1, le=2**63 - 1)
# Text without NUL, which PostgreSQL cannot hold in a query's parameter.
TEXT = r"^[^\x00]*$"

# PostgreSQL keeps offsets up to 15:59 either side of UTC (no time zone uses more than 14:00).
MAX_UTC_OFFSET = timedelta(hours=15, minutes=59)
_ISO_DATE = re.compile(r"\d{4}-\d\d-\d\d")
# RFC 3339 with an offset PostgreSQL keeps, or none (the club's time zone): what a client may send.
MOMENT_PATTERN = r"^\d{4}-\d\d-\d\d[Tt ]\d\d:\d\d(:\d\d(\.\d+)?)?([Zz]|[+-](0\d|1[0-5]):[0-5]\d)?$"


def _iso_only(value):
    """pydantic also reads a number (``0.78``) as seconds since 1970: a client that sends one
    means something else, so only an ISO 8601 text (or a datetime) is a moment."""
    if isinstance(value, datetime) or (isinstance(value, str) and _ISO_DATE.match(value)):
        return value
    raise ValueError(_("Enter a date and time such as 2026-03-12T21:30:00+01:00."))


def _offset_kept(value: datetime) -> datetime:
    offset = value.utcoffset()
    if offset is not None and abs(offset) > MAX_UTC_OFFSET:
        raise ValueError(_("The offset from UTC must be between -15:59 and +15:59."))
    try:
        value.astimezone(UTC)
    except OverflowError:  # 0001-01-01T00:00+01:00 is before year 1 in UTC
        raise ValueError(_("This time is out of the calendar's range.")) from None
    return value


Moment = Annotated[
    datetime,
    BeforeValidator(_iso_only),
    AfterValidator(_offset_kept),
    WithJsonSchema({"type": "string", "format": "date-time", "pattern": MOMENT_PATTERN}),
]

# Requests -------------------------------------------------------------------------------------


class SeatIn(Schema):
    """A seat as written: a Preferans paper's three columns, or a scored or head-to-head
    game's score (1, 0.5 or 0 head to head).

    Numbers and flags are strict, as the OpenAPI file types them: pydantic would otherwise take
    "30" or 30.5 for a whole number, and 1 or "yes" for true."""

    player: str = Field(max_length=200)
    left: int | None = Field(default=None, strict=True, ge=-MAX_COLUMN, le=MAX_COLUMN)
    middle: int | None = Field(default=None, strict=True, ge=-MAX_COLUMN, le=MAX_COLUMN)
    right: int | None = Field(default=None, strict=True, ge=-MAX_COLUMN, le=MAX_COLUMN)
    score: float | None = Field(default=None, strict=True, ge=-MAX_SCORE, le=MAX_SCORE)


# The examples of docs/api.md, shown on the docs page: games a developer may post to the demo
# club as they are (``manage.py demo``, league ``preferans``): its players, and dated by
# :func:`_examples` at the minute the file is read, so the game is the league's newest and
# nothing is re-rated; a fresh key each time, so a second paste is a second game.
EXAMPLE_PAPER = {
    "bula": 30,
    "seats": [
        {"player": "Pedja", "left": 320, "middle": -20, "right": 160},
        {"player": "Marko", "left": 120, "middle": 4, "right": 60},
        {"player": "Johnny", "left": 20, "middle": 16, "right": 60},
    ],
}
EXAMPLE_DEALS = {
    "bula": 10,
    "seats": [{"player": "Ana"}, {"player": "Bojan"}, {"player": "Dragan"}],
    "deals": [
        {"refa": True},
        {
            "value": 12,
            "declarer": {"seat": 1, "failed": False},
            "followers": [
                {"seat": 2, "followed": True, "tricks": 2, "failed": False},
                {"seat": 3, "followed": False},
            ],
        },
        {
            "value": 8,
            "declarer": {"seat": 2, "failed": False},
            "followers": [
                {"seat": 3, "followed": True, "tricks": 1},
                {"seat": 1, "followed": False},
            ],
        },
        {
            "value": 16,
            "declarer": {"seat": 3, "failed": False},
            "followers": [
                {"seat": 2, "followed": True, "tricks": 1},
                {"seat": 1, "followed": False},
            ],
        },
    ],
}


def _examples(schema: dict) -> None:
    """Fill in the examples' key and time as the OpenAPI file is made (each request)."""
    now = timezone.localtime().replace(second=0, microsecond=0).isoformat()
    schema["examples"] = [
        {"key": str(uuid.uuid4()), "played_at": now, **example}
        for example in (EXAMPLE_PAPER, EXAMPLE_DEALS)
    ]


class GameIn(Schema):
    model_config = {"json_schema_extra": _examples}

    key: uuid.UUID = Field(description="Made by the client; the same key again is the same game.")
    played_at: Moment
    bula: int | None = Field(
        default=None, strict=True, ge=1, le=MAX_BULA, description="Preferans: the starting bula."
    )
    ended_early: bool = Field(default=False, strict=True)
    note: str = Field(default="", max_length=200)
    seats: list[SeatIn] = Field(default_factory=list, max_length=50)
    # The digital paper's deal log (issue 27), read by ratings/api/deals.py.
    deals: list[dict] | None = Field(
        default=None,
        max_length=1000,
        description="Preferans: the game's hands in the digital paper's log format, in order; "
        "the seats then give only the players.",
    )
    refas: int | None = Field(
        default=None,
        strict=True,
        ge=0,
        le=MAX_REFAS,
        description="With deals: the refe cap (null: none); left out: the league's.",
    )
    new_players: list[str] = Field(
        default_factory=list,
        description="Names to take as new members even though they are close to a player's.",
    )


# Responses ------------------------------------------------------------------------------------


class ErrorItem(Schema):
    field: str | None
    message: str
    suggestions: list[str] | None = None


class Errors(Schema):
    errors: list[ErrorItem]


class SeatOut(Schema):
    seat: int
    player: str
    # None while the game waits for the table's confirmation (not rated yet).
    final: float | None
    rating_before: float | None
    rating_after: float | None


# A game that counts, or one waiting for the table's confirmation (not rated, no id yet: its
# key is its identity, and the game it becomes keeps that key), or one a player disputed.
GameStatus = Literal["confirmed", "pending", "disputed"]


class GameRecorded(Schema):
    id: int | None
    key: uuid.UUID | None
    status: GameStatus
    url: str
    seats: list[SeatOut]


class DisputeIn(Schema):
    note: str = Field(min_length=1, max_length=1000, description="What is wrong, for the staff.")


class LeagueOut(Schema):
    slug: str
    name: str
    system: str
    kind: str
    lower_is_better: bool
    players: int
    games: int
    last_played_at: datetime | None
    url: str


class StandingOut(Schema):
    rank: int | None
    player: str
    player_slug: str
    rating: float
    games: int
    status: str


class PlayerLeagueOut(Schema):
    league: str
    rating: float
    games: int


class PlayerOut(Schema):
    name: str
    slug: str
    url: str
    leagues: list[PlayerLeagueOut]


class HistoryPoint(Schema):
    game_id: int
    played_at: datetime
    score: float
    rating_before: float
    rating_after: float


class LeagueHistory(Schema):
    league: str
    games: list[HistoryPoint]


class GameSeatOut(Schema):
    seat: int
    player: str
    # None for a new player of a game that waits for the table (created once it counts).
    player_slug: str | None
    left: int | None
    middle: int | None
    right: int | None
    final: float | None
    rating_before: float | None
    rating_after: float | None


class GameOut(Schema):
    id: int | None
    key: uuid.UUID | None
    status: GameStatus
    league: str
    played_at: datetime
    bula: int | None
    ended_early: bool
    url: str
    seats: list[GameSeatOut]


class GamePage(Schema):
    games: list[GameOut]
    next_cursor: str | None


class PairOut(Schema):
    league: str
    games: int
    a_ahead: int
    b_ahead: int
    level: int
    a_score_sum: float
    b_score_sum: float


class HeadToHeadOut(Schema):
    a: str
    b: str
    leagues: list[PairOut]


class RsvpIn(Schema):
    """A member's answer to a night planned ahead."""

    answer: Literal["coming", "maybe", "no"]


class RsvpOut(Schema):
    """The night's answers after the member's: each list the players' names, by name."""

    event: int
    answer: Literal["coming", "maybe", "no"]
    coming: list[str]
    maybe: list[str]
    no: list[str]


class EventSummary(Schema):
    id: int
    name: str
    starts_at: datetime | None
    status: Literal["planned", "started", "cancelled"]
    place: str
    closed: bool
    players: int
    rounds: int
    url: str


class EventSeatOut(Schema):
    seat: int
    player: str
    player_slug: str
    final: float | None
    points: float | None
    rating_change: float | None


class EventTableOut(Schema):
    number: int
    game_id: int | None
    not_played: bool
    seats: list[EventSeatOut]


class EventRoundOut(Schema):
    number: int
    closed: bool
    tables: list[EventTableOut]
    byes: list[str]


class EventStandingOut(Schema):
    place: int | None
    player: str
    player_slug: str
    points: float
    total: float
    games: int
    rating_change: float


class EventOut(Schema):
    id: int
    league: str
    name: str
    starts_at: datetime
    status: Literal["planned", "started", "cancelled"]
    place: str
    closed: bool
    url: str
    rounds: list[EventRoundOut]
    standings: list[EventStandingOut]
