"""What an interface hands the entry service: a game as domain values, not as any form's fields."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import datetime

from ratings.events.models import EventTable
from ratings.models import League


@dataclass(frozen=True)
class SeatIn:
    """One seat as written: the player by name (or, from a paper that already holds them, by
    id), and the paper's columns or the score. None where a value was not given."""

    player: str
    left: int | None = None
    middle: int | None = None
    right: int | None = None
    score: float | None = None
    # The player this seat already is (a digital paper's seat): no name is resolved.
    player_id: int | None = None

    def values(self) -> dict:
        return {"left": self.left, "middle": self.middle, "right": self.right, "score": self.score}


@dataclass(frozen=True)
class Submission:
    """A game as an interface received it, in seating order."""

    league: League
    played_at: datetime | None
    seats: tuple[SeatIn, ...]
    bula: int | None = None
    # Stopped before the bulas ran out (the clock, a written-off bula): a Preferans rule.
    ended_early: bool = False
    note: str = ""
    # The client's one-time key: the same key again is the same game, never a second one.
    key: uuid.UUID | None = None
    # An event's table whose paper this is: the game is the table's.
    table: EventTable | None = None
    # Names (by ratings.player_names.name_key) the member confirmed as new members although
    # they are close to a player's name.
    new_names: frozenset[str] = field(default_factory=frozenset)
