"""The API's request and response shapes (pydantic, through django-ninja's Schema)."""

from __future__ import annotations

import uuid
from datetime import datetime

from ninja import Schema
from pydantic import Field

# Requests -------------------------------------------------------------------------------------


class SeatIn(Schema):
    """A seat as written: a Preferans paper's three columns, or a scored or head-to-head
    game's score (1, 0.5 or 0 head to head)."""

    player: str = Field(max_length=200)
    left: int | None = None
    middle: int | None = None
    right: int | None = None
    score: float | None = None


class GameIn(Schema):
    key: uuid.UUID = Field(description="Made by the client; the same key again is the same game.")
    played_at: datetime
    bula: int | None = Field(default=None, description="Preferans: the starting bula.")
    ended_early: bool = False
    note: str = Field(default="", max_length=200)
    seats: list[SeatIn] = Field(default_factory=list, max_length=50)
    # The digital paper's deal log (issue 27): accepted by the shape, refused until its
    # reader lands (ratings/api/entry.py, DEALS_READER).
    deals: list[dict] | None = None
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


class Message(Schema):
    detail: str


class SeatOut(Schema):
    seat: int
    player: str
    final: float
    rating_before: float
    rating_after: float


class GameRecorded(Schema):
    id: int
    url: str
    seats: list[SeatOut]


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
    player_slug: str
    left: int | None
    middle: int | None
    right: int | None
    final: float
    rating_before: float
    rating_after: float


class GameOut(Schema):
    id: int
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


class EventSummary(Schema):
    id: int
    name: str
    starts_at: datetime | None
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
    closed: bool
    url: str
    rounds: list[EventRoundOut]
    standings: list[EventStandingOut]
