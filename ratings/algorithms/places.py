"""Who finished ahead of whom at a table, from the scores: the one rule, pure Python.

A seat's **place** is 1 + the number of seats with a strictly better score, so equal scores share
the better place (1, 2, 2, 4). Which score is better is the rating system's direction
(``RatingSystem.lower_score_is_better``: the lowest Preferans final score wins, the highest
head-to-head score is a win), passed in as ``lower_is_better``. One seat **finished ahead** of
another when its place is better (a lower number); equal places are equal scores, a level pair.

Everything that orders a table asks here: the rating systems' places (which the engine stores on
each result, ``Result.place``, for the reads' SQL), OpenSkill's ranks, the pairs of the backtest,
of the chances and of pairwise Elo, an event table's points and an event's standings, and the
winner a head-to-head game shows.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from typing import Any

__all__ = ["best_first", "outcome", "places"]


def places(scores: Sequence[Any], *, lower_is_better: bool) -> list[int]:
    """Each score's place, 1 the best; equal scores share the better place (1, 2, 2, 4): 1 + the
    number of better scores, found by bisecting them sorted (the engine asks for every game it
    writes, an import's hundred thousand). Any scores that compare will do: numbers, or tuples
    of numbers (an event's points, then its total)."""
    ordered = sorted(scores)
    if lower_is_better:
        return [bisect_left(ordered, score) + 1 for score in scores]
    return [len(ordered) - bisect_right(ordered, score) + 1 for score in scores]


def best_first(scores: Sequence[Any], *, lower_is_better: bool) -> list[int]:
    """The seats (indexes of ``scores``) by place, best first; seats that share a place in the
    order given."""
    place = places(scores, lower_is_better=lower_is_better)
    return sorted(range(len(scores)), key=place.__getitem__)


def outcome(place: int, other: int) -> float:
    """How a seat at ``place`` did against one at ``other``: 1 ahead, 0 behind, 1/2 level."""
    return 1.0 if place < other else 0.0 if place > other else 0.5
