"""A backtest run: which systems a league is tried under (:func:`systems_for`), and its games
replayed under each, every game predicted from the ratings before it (:func:`league_backtest`).
The package's docstring (:mod:`ratings.backtest`) says how the systems are chosen and started.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from itertools import combinations, groupby
from operator import itemgetter

from ratings.algorithms import backtest
from ratings.algorithms.places import outcome
from ratings.engine import GameInput, PlayerState
from ratings.models import League, Player, Result
from ratings.systems import PAIRWISE_ELO, SYSTEMS, RatingSystem

# A player's first games say little about their rating, in any system: counted apart.
NEW_GAMES = 10


@dataclass(frozen=True)
class SystemResult:
    """One system's backtest on the league."""

    system: RatingSystem
    report: backtest.Report
    own: bool  # the league's own system

    @property
    def label(self) -> str:
        return str(self.system.label)


@dataclass(frozen=True)
class LeagueBacktest:
    league: League
    games: int
    results: list[SystemResult]

    @property
    def conclusive(self) -> bool:
        return bool(self.results) and all(r.report.conclusive for r in self.results)


def systems_for(league: League) -> list[RatingSystem]:
    """The systems a league's games can be rated by, its own first."""
    own = league.rating_system
    direction = own.lower_score_is_better
    fitting = [
        s
        for s in SYSTEMS.values()
        if s.lower_score_is_better == direction and (s.kind == own.kind or s.rates_every_kind)
    ]
    fitting.sort(key=lambda s: s is not own)
    tried: list[RatingSystem] = list(fitting)
    if own.seats[1] > 2:
        tried.append(PAIRWISE_ELO)
    return tried


def _games(league: League) -> list[GameInput]:
    """The league's games in rating order, each with its seats' players and scores (one
    query)."""
    rows = (
        Result.objects.filter(game__league=league)
        .order_by("game__played_at", "game_id", "seat")
        .values_list("game_id", "game__played_at", "game__bula", "player_id", "score")
    )
    games = []
    for _game_id, seats in groupby(rows.iterator(chunk_size=5000), key=itemgetter(0)):
        seats = list(seats)
        games.append(
            GameInput(
                played_at=seats[0][1],
                bula=seats[0][2],
                player_ids=[seat[3] for seat in seats],
                scores=[seat[4] for seat in seats],
            )
        )
    return games


def _predicted(
    league: League,
    system: RatingSystem,
    games: Sequence[GameInput],
    birth_dates: dict[int, date],
) -> list[list[backtest.Pair]]:
    """Each game's pairs as ``system`` would have predicted them, replaying as it goes."""
    own = system is league.rating_system
    start = system.start_state(league.start_rating if own else system.backtest_start)
    rate = system.rater(league, birth_dates)
    places = league.rating_system.places
    sign = -1.0 if system.lower_is_better else 1.0
    states: dict[int, PlayerState] = {}
    predicted = []
    for game in games:
        seated = [
            states.setdefault(pid, PlayerState(rating=start, peak=float(start)))
            for pid in game.player_ids
        ]
        place = places(game.scores)
        pairs = []
        for i, j in combinations(range(len(seated)), 2):
            a, b = seated[i], seated[j]
            pairs.append(
                backtest.Pair(
                    difference=sign * (float(a.rating) - float(b.rating)),
                    chance=system.pair_chance(a.rating, b.rating),
                    outcome=outcome(place[i], place[j]),
                    new=min(a.games, b.games) < NEW_GAMES,
                )
            )
        predicted.append(pairs)
        for state, new in zip(seated, rate(game, seated), strict=True):
            state.advance(new, game.played_at)
    return predicted


def league_backtest(league: League) -> LeagueBacktest:
    """The league's backtest under every system that fits it (two or three queries)."""
    games = _games(league)
    tried = systems_for(league)
    birth_dates: dict[int, date] = {}
    if any(system.uses_birth_dates for system in tried):
        birth_dates = dict(
            Player.objects.filter(standings__league=league, birth_date__isnull=False).values_list(
                "pk", "birth_date"
            )
        )
    results = [
        SystemResult(
            system=system,
            report=backtest.evaluate(_predicted(league, system, games, birth_dates)),
            own=system is league.rating_system,
        )
        for system in tried
    ]
    return LeagueBacktest(league=league, games=len(games), results=results)
