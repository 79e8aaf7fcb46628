"""Chances before a game: each player's chance to finish first, from the league's system.

Elo, FIDE and OpenSkill have a model of their own (``RatingSystem.win_chances``). prefko and
Rayter do not: their chances come from the logistic curve the backtest fits
(:mod:`ratings.algorithms.backtest`), here on the league's recent games, each pair's rating
difference before the game against who finished ahead. Nothing here writes.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, groupby
from operator import itemgetter

from ratings.algorithms.backtest import fit_slope
from ratings.models import Game, League, Result

# The curve is fitted on this many of the league's latest games: enough pairs for a steady
# slope, few enough for a page (a preview) to fit it at once.
RECENT_GAMES = 500


def recent_slope(league: League) -> float | None:
    """The logistic slope on the league's latest games' pairs; None without a decided pair
    (two queries)."""
    system = league.rating_system
    recent = list(
        Game.objects.filter(league=league)
        .newest_first()
        .values_list("id", flat=True)[:RECENT_GAMES]
    )
    rows = (
        Result.objects.filter(game_id__in=recent)
        .order_by("game_id", "seat")
        .values_list("game_id", "score", "rating_before")
    )
    sign = -1.0 if system.lower_is_better else 1.0
    pairs = []
    for _game, seats in groupby(rows, key=itemgetter(0)):
        seats = list(seats)
        places = system.places([seat[1] for seat in seats])
        for i, j in combinations(range(len(seats)), 2):
            if places[i] != places[j]:
                difference = sign * (seats[i][2] - seats[j][2])
                pairs.append((difference, 1.0 if places[i] < places[j] else 0.0))
    if not pairs:
        return None
    # Positive when the better rated tends to finish ahead, in the system's own direction.
    return fit_slope(pairs)


def chances_before(league: League, ratings: Sequence[float]) -> list[float] | None:
    """Each player's chance to finish first, from their ratings before the game (as the
    engine's preview gives them); None when the league's history says nothing yet."""
    system = league.rating_system
    if system.own_chances:
        return system.win_chances(ratings, None)
    slope = recent_slope(league)
    return None if slope is None else system.win_chances(ratings, slope)
