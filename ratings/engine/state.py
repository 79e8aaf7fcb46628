"""What the engine rates with: a game as entered and as rated, and a player's state in a league.

A player's state before a game is read from their standing (for the league's newest game) or
from their last earlier result (for a replay); nothing here writes.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime

from django.db.models import Count, F, Max, Q, Window
from django.db.models.functions import RowNumber

from ratings.models import League, Player, Result, Standing
from ratings.systems import RateGame

OrderKey = tuple[datetime, int]


@dataclass(frozen=True)
class Entry:
    """One seat of a game as entered: the player and either the paper or the score.

    Preferans entries carry the paper (left, middle, right) and the engine computes the score;
    scored games carry the points; head-to-head games carry 1, 0.5 or 0.
    """

    player_id: int
    score: float | None = None
    paper: tuple[int, int, int] | None = None

    def values(self) -> dict:
        """The seat's values by name (:data:`ratings.systems.SEAT_VALUES`), as the rating
        system's rules read a seat."""
        left, middle, right = self.paper if self.paper is not None else (None, None, None)
        return {"left": left, "middle": middle, "right": right, "score": self.score}


@dataclass(slots=True)
class GameInput:
    """A game ready to rate: scores in seat order, whatever the system."""

    played_at: datetime
    bula: int | None
    player_ids: list[int]
    scores: list[float]
    papers: Sequence[tuple[int, int, int] | None] = ()
    ended_early: bool = False
    # Not rated, but part of the game a key saved: a resubmission with another note is another
    # game (engine.resubmitted), never dropped in silence.
    note: str = ""


@dataclass(slots=True)
class PlayerState:
    rating: float
    games: int = 0
    peak: float = -math.inf
    last_change: float | None = None
    last_played_at: datetime | None = None

    def advance(self, after: float, played_at: datetime) -> None:
        """Move on past one game that took the rating to ``after``."""
        self.last_change = after - self.rating
        self.rating = after
        self.games += 1
        if after > self.peak:
            self.peak = after
        self.last_played_at = played_at


def rater(league: League, player_ids: Iterable[int] | None = None) -> RateGame:
    """The league's system's rating function, with what it needs from the database (the
    players' birth dates, for FIDE's junior K-factor)."""
    system = league.rating_system
    birth_dates: dict[int, date] = {}
    if system.uses_birth_dates:
        players = Player.objects.filter(birth_date__isnull=False)
        if player_ids is not None:
            players = players.filter(pk__in=list(player_ids))
        birth_dates = dict(players.values_list("pk", "birth_date"))
    return system.rater(league, birth_dates)


def league_player_ids(league: League) -> set[int]:
    return set(Standing.objects.filter(league=league).values_list("player_id", flat=True))


def standings_for(league: League, player_ids: Sequence[int]) -> dict[int, Standing]:
    """The players' standings in the league, creating those a new player lacks."""
    standings = {
        s.player_id: s for s in Standing.objects.filter(league=league, player_id__in=player_ids)
    }
    missing = [pid for pid in player_ids if pid not in standings]
    if missing:
        created = Standing.objects.bulk_create(
            [
                Standing(
                    league=league,
                    player_id=pid,
                    rating=league.start_rating,
                    peak_rating=league.start_rating,
                )
                for pid in missing
            ]
        )
        standings.update({s.player_id: s for s in created})
    return standings


def current_states(league: League, player_ids: set[int]) -> dict[int, PlayerState]:
    """The players' states after the league's newest game, from their standings."""
    standings = standings_for(league, sorted(player_ids))
    stored = league.rating_system.stored_state
    return {
        pid: PlayerState(
            rating=stored(s.rating, s.state),
            games=s.games,
            peak=s.peak_rating,
            last_change=s.last_change,
            last_played_at=s.last_played_at,
        )
        for pid, s in standings.items()
    }


def _before_result(since: OrderKey) -> Q:
    played_at, game_id = since
    return Q(game__played_at__lt=played_at) | Q(game__played_at=played_at, game_id__lt=game_id)


def states_before(
    league: League, since: OrderKey | None, player_ids: set[int]
) -> dict[int, PlayerState]:
    """Each player's state just before ``since``: from their last earlier result, or the start."""
    standings = list(
        Standing.objects.filter(league=league, player_id__in=player_ids).values_list(
            "player_id", "start_rating"
        )
    )
    system = league.rating_system
    start = system.start_state
    states = {
        pid: PlayerState(
            rating=start(league.start_rating if own is None else own),
            peak=league.start_rating if own is None else own,
        )
        for pid, own in standings
    }
    for pid in player_ids - states.keys():
        states[pid] = PlayerState(rating=start(league.start_rating), peak=league.start_rating)
    if since is None:
        return states
    # One pass over the earlier results: each player's count, peak and last result, by window
    # functions (a correlated subquery per player costs a scan of the league per player).
    by_player = {"partition_by": [F("player_id")]}
    newest_first = [F("game__played_at").desc(), F("game_id").desc()]
    last_rows = (
        Result.objects.filter(game__league=league, player_id__in=player_ids)
        .filter(_before_result(since))
        .annotate(
            position=Window(RowNumber(), order_by=newest_first, **by_player),
            games=Window(Count("id"), **by_player),
            peak=Window(Max("rating_after"), **by_player),
        )
        .filter(position=1)
        .values_list(
            *("player_id", "rating_before", "rating_after", "game__played_at", "games", "peak"),
            "state",
        )
    )
    stored = system.stored_after
    for pid, before, after, played_at, games, peak, kept in last_rows:
        state = states[pid]
        state.rating = stored(after, kept)
        state.last_change = after - before
        state.last_played_at = played_at
        state.games = games
        state.peak = max(state.peak, peak)
    return states
