"""Chances before a game: each player's chance to finish first, from the league's system, and
(where the system shows them, Preferans) the rating change each place would bring.

Elo, FIDE and OpenSkill have a model of their own (``RatingSystem.win_chances``). prefko and
Rayter do not: their chances come from the logistic curve the backtest fits
(:mod:`ratings.algorithms.backtest`), here on the league's recent games, each pair's rating
difference before the game against who finished ahead. A place's rating change is the system's
own rating of a game in which the player takes that place, with the final scores the league's
recent games had at each place (per point of bula), the others placed by their ratings.
Nothing here writes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations, groupby
from operator import itemgetter

from django.utils import timezone

from ratings.algorithms.backtest import fit_slope
from ratings.algorithms.places import best_first, outcome
from ratings.engine import GameInput, PlayerState
from ratings.models import Game, League, Result, Standing

# The curve is fitted on this many of the league's latest games: enough pairs for a steady
# slope, few enough for a page (a preview) to fit it at once.
RECENT_GAMES = 500


@dataclass(frozen=True)
class History:
    """What the league's recent games say about the next one."""

    slope: float | None  # the fitted curve's slope; None without a decided pair
    # The mean final score at each place (best first) per point of bula, and the most common
    # bula; None where the system shows no place changes or there are no games.
    place_scores: tuple[float, ...] | None = None
    bula: int | None = None


@dataclass(frozen=True)
class Outlook:
    """One player's prospects before a game."""

    chance: float | None  # to finish first
    place_changes: list[float] | None  # the rating change for the first, second... place
    name: str = ""


def league_history(league: League) -> History:
    """The curve's slope and the usual scores per place on the league's latest games (two
    queries)."""
    system = league.rating_system
    recent = list(
        Game.objects.filter(league=league)
        .newest_first()
        .values_list("id", flat=True)[:RECENT_GAMES]
    )
    rows = (
        Result.objects.filter(game_id__in=recent)
        .order_by("game_id", "seat")
        .values_list("game_id", "score", "rating_before", "game__bula")
    )
    sign = -1.0 if system.lower_is_better else 1.0
    pairs = []
    by_place: list[list[float]] = [[] for _ in range(system.seats[0])]
    bulas: Counter[int] = Counter()
    for _game, seats in groupby(rows, key=itemgetter(0)):
        seats = list(seats)
        scores = [seat[1] for seat in seats]
        places = system.places(scores)
        for i, j in combinations(range(len(seats)), 2):
            if places[i] != places[j]:
                difference = sign * (seats[i][2] - seats[j][2])
                pairs.append((difference, outcome(places[i], places[j])))
        bula = seats[0][3]
        if system.shows_place_changes and bula and len(seats) == len(by_place):
            bulas[bula] += 1
            ordered = best_first(scores, lower_is_better=system.lower_score_is_better)
            for place, seat in enumerate(ordered):
                by_place[place].append(scores[seat] / bula)
    # Positive when the better rated tends to finish ahead, in the system's own direction.
    slope = fit_slope(pairs) if pairs else None
    if not bulas:
        return History(slope=slope)
    return History(
        slope=slope,
        place_scores=tuple(sum(scores) / len(scores) for scores in by_place),
        bula=bulas.most_common(1)[0][0],
    )


def recent_slope(league: League) -> float | None:
    """The logistic slope on the league's latest games' pairs; None without a decided pair
    (two queries)."""
    return league_history(league).slope


def chances_before(
    league: League, ratings: Sequence[float], history: History | None = None
) -> list[float] | None:
    """Each player's chance to finish first, from their ratings before the game (as the
    engine's preview gives them); None when the league's history says nothing yet."""
    system = league.rating_system
    if system.own_chances:
        return system.win_chances(ratings, None)
    slope = (history or league_history(league)).slope
    return None if slope is None else system.win_chances(ratings, slope)


def place_changes(
    league: League, ratings: Sequence[float], bula: int | None, history: History
) -> list[list[float]] | None:
    """For each player, their rating change if they took the first, second... place, the
    others placed by their ratings (the better rated ahead), the scores those of the league's
    recent games at each place; None where the system shows none or there is no history."""
    system = league.rating_system
    if not system.shows_place_changes or history.place_scores is None:
        return None
    bula = bula or history.bula
    seats = len(ratings)
    if seats != len(history.place_scores):
        return None
    rate = system.rater(league, {})
    states = [PlayerState(rating=rating) for rating in ratings]
    sign = 1.0 if system.lower_is_better else -1.0
    now = timezone.now()
    changes = []
    for player in range(seats):
        others = sorted((j for j in range(seats) if j != player), key=lambda j: sign * ratings[j])
        row = []
        for place in range(seats):
            order = [*others[:place], player, *others[place:]]
            scores = [0.0] * seats
            for at, seat in enumerate(order):
                scores[seat] = float(round(history.place_scores[at] * bula))
            game = GameInput(played_at=now, bula=bula, player_ids=[], scores=scores)
            row.append(rate(game, states)[player] - ratings[player])
        changes.append(row)
    return changes


def outlooks(
    league: League,
    ratings: Sequence[float],
    bula: int | None = None,
    history: History | None = None,
    names: Sequence[str] = (),
) -> list[Outlook]:
    """Each player's chance to finish first and place changes, from their ratings before the
    game; ``history`` (:func:`league_history`) is read when needed and not given."""
    system = league.rating_system
    if history is None and (system.shows_place_changes or not system.own_chances):
        history = league_history(league)
    chances = chances_before(league, ratings, history) or [None] * len(ratings)
    places = (place_changes(league, ratings, bula, history) if history is not None else None) or [
        None
    ] * len(ratings)
    names = names or [""] * len(ratings)
    return [
        Outlook(chance, changes, name)
        for chance, changes, name in zip(chances, places, names, strict=True)
    ]


def current_ratings(league: League, player_ids: Sequence[int]) -> dict[int, float]:
    """The players' ratings in the league now, as the engine rates from them (one query);
    a player without a standing starts from the league's start rating."""
    system = league.rating_system
    found = {
        pid: system.stored_state(rating, state)
        for pid, rating, state in Standing.objects.filter(
            league=league, player_id__in=player_ids
        ).values_list("player_id", "rating", "state")
    }
    start = system.start_state(league.start_rating)
    return {pid: found.get(pid, start) for pid in player_ids}


def tables_outlooks(
    league: League, tables: Sequence[Sequence[tuple[int, str]]], bula: int | None = None
) -> list[list[Outlook]]:
    """:func:`outlooks` for each table of players (id and name, in seat order), as they stand
    now: one query for the ratings, two for the league's history where needed."""
    ratings = current_ratings(league, [pid for table in tables for pid, _name in table])
    system = league.rating_system
    history = None
    if tables and (system.shows_place_changes or not system.own_chances):
        history = league_history(league)
    return [
        outlooks(
            league,
            [ratings[pid] for pid, _name in table],
            bula,
            history,
            names=[name for _pid, name in table],
        )
        if table
        else []
        for table in tables
    ]
