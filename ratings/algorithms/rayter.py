"""Rayter: the multi-player, score-based rating of PyPI ``rayter`` 2.1.0.

Direction: a HIGHER rating is better, whatever the score type (in a lowscore game a low score
raises the rating). Every player starts at 1000. In each game every player puts a fraction K of
their rating in the pot (K = 0.05, or 0.02 for winner-takes-all) and the pot is shared out in
proportion to the scores, so the league's total rating never changes::

    change_i = (s_i / sum(s)) * K * sum(ratings) - K * rating_i

with the scores first shifted so the lowest is 0 when any is negative, and for lowscore mapped
to ``max + min - s``; when all (shifted) scores are 0 everyone gets an equal share.

Source: rayter 2.1.0 (https://github.com/peterjaric/rayter, ``pip install rayter==2.1.0``):
``rayter/rater.py`` (``rate_single_game``, ``Rater.rate_games``) and ``rayter/main.py`` (the
``rayter FILE [-m json]`` command, whose standings line is :class:`Standing`). The arithmetic
here is rayter's, operation for operation, so the floats agree bit for bit;
``scripts/vectors/rayter_vectors.py`` runs the real package to make the vectors that
``tests/algorithms/test_rayter.py`` checks.

rayter's file format (``rayter/game_parser.py``), read and written, is
:mod:`ratings.algorithms.rayter_format`'s; it imports this module, never the other way round.

Where this module deliberately differs from rayter 2.1.0 (the parser's differences are listed
in :mod:`ratings.algorithms.rayter_format`):

- ``winner_takes_all`` (the spelling of rayter's own README) is accepted everywhere as
  ``winnertakesall`` (:func:`normalize_score_type`); rayter's ``rate_single_game`` treats any
  unknown type as highscore, K 0.05.
- rate_single_game refuses arguments rayter would quietly misuse (see its docstring).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

__all__ = [
    "DEFAULT_K",
    "SCORE_TYPES",
    "SCORE_TYPE_SPELLINGS",
    "SCORE_TYPE_HIGH_SCORE",
    "SCORE_TYPE_LOW_SCORE",
    "SCORE_TYPE_WINNER_TAKES_ALL",
    "START_RATING",
    "WINNER_TAKES_ALL_K",
    "Standing",
    "default_k",
    "normalize_score_type",
    "rate_single_game",
    "rate_valid_game",
]

Number = int | float

SCORE_TYPE_HIGH_SCORE: Final = "highscore"
SCORE_TYPE_LOW_SCORE: Final = "lowscore"
SCORE_TYPE_WINNER_TAKES_ALL: Final = "winnertakesall"
SCORE_TYPES: Final = (SCORE_TYPE_HIGH_SCORE, SCORE_TYPE_LOW_SCORE, SCORE_TYPE_WINNER_TAKES_ALL)
# rayter's code says "winnertakesall", its README "winner_takes_all": both mean the same here
# (a file's score_type line is read with this table too).
SCORE_TYPE_SPELLINGS: Final = {
    **{score_type: score_type for score_type in SCORE_TYPES},
    "winner_takes_all": SCORE_TYPE_WINNER_TAKES_ALL,
}

START_RATING: Final = 1000.0
DEFAULT_K: Final = 0.05
WINNER_TAKES_ALL_K: Final = 0.02


def normalize_score_type(score_type: str) -> str:
    """Return rayter's spelling of a score type; ``winner_takes_all`` gives ``winnertakesall``.

    Raises ValueError for anything else (rayter would silently treat it as highscore).
    """
    if isinstance(score_type, str):
        normalized = SCORE_TYPE_SPELLINGS.get(score_type)
        if normalized is not None:
            return normalized
    raise ValueError(
        f"unknown score type {score_type!r}: expected highscore, lowscore or winnertakesall"
        " (or winner_takes_all)"
    )


# The rating --------------------------------------------------------------------------------------


def rate_single_game(
    scores: Sequence[Number],
    ratings: Sequence[Number],
    score_type: str = SCORE_TYPE_HIGH_SCORE,
    k: Number | None = None,
) -> list[float]:
    """Rating changes of one game, in the players' order: rayter 2.1.0's ``rate_single_game``.

    Higher ratings are better. ``scores`` and ``ratings`` are parallel lists of finite ints or
    floats (two players or more; negative scores allowed). ``score_type`` is highscore, lowscore
    or winnertakesall (``winner_takes_all`` too). ``k`` is the fraction of each rating put in
    the pot, 0 to 1; None means rayter's default for the score type (0.05, or 0.02 for
    winner-takes-all). The changes add up to 0 up to float rounding.

    Raises ValueError, saying what is wrong, for fewer than two players, lists of different
    lengths, a value that is not a finite int or float (bools included), an unknown score type,
    or a k outside 0..1.
    """
    score_type = normalize_score_type(score_type)
    score_values = _numbers("scores", scores)
    rating_values = _numbers("ratings", ratings)
    if len(score_values) < 2:
        raise ValueError(f"a game needs at least 2 players, got {len(score_values)} score(s)")
    if len(rating_values) != len(score_values):
        raise ValueError(
            f"got {len(score_values)} scores but {len(rating_values)} ratings: one each per player"
        )
    if k is None:
        k = default_k(score_type)
    else:
        if isinstance(k, bool) or not isinstance(k, int | float):
            raise ValueError(f"k must be a number from 0 to 1, got {k!r}")
        if not 0 <= k <= 1:
            raise ValueError(
                f"k must be from 0 to 1 (the share of each rating at stake), got {k!r}"
            )
    try:
        changes = rate_valid_game(score_values, rating_values, score_type, k)
    except OverflowError:
        changes = [math.inf]
    if not all(math.isfinite(change) for change in changes):
        raise ValueError("scores or ratings too large to rate: the changes are not finite")
    return changes


def rate_valid_game(
    scores: Sequence[Number], ratings: Sequence[Number], score_type: str, k: Number
) -> list[float]:
    """:func:`rate_single_game` without its argument checks, for a caller that has checked them:
    rayter.rater.rate_single_game's arithmetic, operation for operation.

    The web app's engine rates games it validated on entry, hundreds of thousands in a replay
    or an import (so the arithmetic is here, not one call further); ``score_type`` must be
    normalised (:func:`normalize_score_type`) and ``k`` given (:func:`default_k`).
    """
    lowest = min(scores)
    normalized = [score - lowest for score in scores] if lowest < 0 else list(scores)
    if score_type == SCORE_TYPE_LOW_SCORE:
        highest, lowest = max(normalized), min(normalized)
        normalized = [highest - score + lowest for score in normalized]
    scores_sum = math.fsum(normalized)
    ratings_sum = math.fsum(ratings)
    if scores_sum == 0:
        # All scores are 0 after the shift: everyone gets an equal share.
        scores_sum = 100.0 * len(scores)
        normalized = [100.0] * len(scores)
    return [
        (score / scores_sum) * k * ratings_sum - k * rating
        for score, rating in zip(normalized, ratings, strict=True)
    ]


def default_k(score_type: str) -> float:
    """rayter's K for a (normalised) score type: 0.05, or 0.02 for winner-takes-all."""
    return WINNER_TAKES_ALL_K if score_type == SCORE_TYPE_WINNER_TAKES_ALL else DEFAULT_K


def _numbers(label: str, values: Sequence[Number]) -> list[Number]:
    if isinstance(values, str | bytes | Mapping) or not isinstance(values, Iterable):
        raise ValueError(f"{label} must be a list of numbers, got {values!r}")
    numbers = list(values)
    for index, value in enumerate(numbers):
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValueError(f"{label}[{index}] is {value!r}, not a number")
        if isinstance(value, int):
            if abs(value) > 2**1023:
                raise ValueError(f"{label}[{index}] is too large: {value}")
        elif not math.isfinite(value):
            raise ValueError(f"{label}[{index}] is {value!r}; {label} must be finite numbers")
    return numbers


# Standings ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's line of the standings: higher ``rating`` is better.

    ``games`` is how many games they played, ``rating`` their unrounded rating, ``change`` what
    the file's very last game changed it by (0.0 when they did not play it): the ``rayter``
    command's Games, Rating and Delta columns before rounding.
    """

    name: str
    games: int
    rating: float
    change: float
