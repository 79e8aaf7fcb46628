"""The Preferans paper and the prefko rating.

Direction: **lower is better**, both for the game score and for the prefko rating. A better
(lower) final score moves a player's rating *down*; leaderboards of this system rank ascending.

Source: the npm package ``preferans-rating-js`` 2.4.5 (``lib/pref.rating.js``), which is the
reference this module reproduces to the last digit, rounding included. That library computes, for
the pairs (1, 2), (1, 3) and (2, 3) of the three players in seating order::

    D = round((score_i - score_j) / bula, 3)
    T = round((rating_j - rating_i) * 2.8 / 100, 3)
    N = bula / 100 if score_i > score_j, -bula / 100 if score_i < score_j, 0 on a tie
    C = D + T + N

and the changes ``round((C12 + C13) / 2)``, ``round((-C12 + C23) / 2)``,
``round((-C13 + -C23) / 2)``. ``round`` is mathjs 14's: the value is first snapped to 12
decimals when it lies within a relative 1e-12 of that (mathjs ``relTol``), then rounded half away
from zero on its shortest decimal form. Plain float rounding disagrees with it now and then (on
realistic club games about once in 2,000 games, and Python's ``round`` about once in 400), so
:func:`_mathjs_round` replicates it digit by digit.

Arithmetic is done on IEEE doubles in the library's order, as JavaScript would: every input is
turned into a ``float`` first.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Context, Decimal
from functools import lru_cache

from ratings.algorithms._checks import finite_number

__all__ = ["PrefkoTerms", "final_scores", "rating_changes", "rating_terms"]

SEATS = 3
MAGIC = 2.8  # the library's scale for rating differences: T = difference * 2.8 / 100

# mathjs 14 default config: relTol 1e-12 (so "round off errors" are snapped at 12 decimals) and
# absTol 1e-15.
_MATHJS_REL_TOL = 1e-12
_MATHJS_ABS_TOL = 1e-15
_MATHJS_EPSILON_DECIMALS = 12

# Enough digits for any double with 12 decimals (the largest has 309 integer digits).
_DECIMAL = Context(prec=400, Emax=999_999, Emin=-999_999)


def final_scores(papers: Sequence[Sequence[int]]) -> list[int]:
    """Turn three Preferans papers into final scores (lower is better).

    ``papers`` are ``(left, middle, right)`` triples in seating order. Seats wrap, so seat 0's
    left neighbour is seat 2::

        final_i = 10 * middle_i - left_i - right_i + left_(i+1) + right_(i-1)

    Your bula times ten, minus what you wrote on your sides, plus what the others wrote against
    you. The scores always sum to ten times the middle column's sum (0 in a finished game).
    This is the bare formula: whether a paper is plausible (side columns are never negative, the
    middle column sums to zero) is for the form and the engine to judge.

    >>> final_scores([(320, -20, 160), (120, 4, 60), (20, 16, 60)])
    [-500, 40, 460]
    """
    rows = [tuple(paper) for paper in papers]
    if len(rows) != SEATS:
        raise ValueError(f"a Preferans game needs exactly 3 papers, got {len(rows)}")
    for seat, columns in enumerate(rows, start=1):
        if len(columns) != 3:
            raise ValueError(
                f"paper {seat} must have three columns (left, middle, right), got {len(columns)}"
            )
        for name, value in zip(("left", "middle", "right"), columns, strict=True):
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(
                    f"paper {seat}: the {name} column must be a whole number, got {value!r}"
                )
    return [
        10 * middle - left - right + rows[(i + 1) % SEATS][0] + rows[(i - 1) % SEATS][2]
        for i, (left, middle, right) in enumerate(rows)
    ]


@dataclass(frozen=True)
class PrefkoTerms:
    """prefko's working for one game, exactly as the library computes it.

    Each of ``d``, ``t``, ``n`` and ``c`` holds the pairs (1, 2), (1, 3), (2, 3) in that order;
    ``averages`` holds each seat's average of its two pairs' C (negated where the seat is the
    pair's second: see :data:`CHANGE_FORMULAS`), and ``changes`` those averages rounded: the three
    rating changes in seating order (negative is an improvement).
    """

    d: tuple[float, float, float]
    t: tuple[float, float, float]
    n: tuple[float, float, float]
    c: tuple[float, float, float]
    averages: tuple[float, float, float]
    changes: tuple[int, int, int]


# Each seat's change, as the averages above are worked out.
CHANGE_FORMULAS = ("(C12 + C13) / 2", "(−C12 + C23) / 2", "(−C13 − C23) / 2")


def rating_terms(ratings: Sequence[float], scores: Sequence[float], bula: float) -> PrefkoTerms:
    """Compute prefko's D, T, N and C for the three pairs and the resulting rating changes.

    ``ratings`` are the ratings before the game and ``scores`` the final scores (see
    :func:`final_scores`), both in seating order; ``bula`` is the starting bula.
    """
    r1, r2, r3 = _three_numbers("ratings", ratings)
    s1, s2, s3 = _three_numbers("scores", scores)
    bula_value = finite_number("bula", bula)
    if bula_value <= 0:
        raise ValueError(f"bula must be a positive number, got {bula!r}")

    # Each term for the pairs (1, 2), (1, 3) and (2, 3), written out: a replay rates every game
    # of a league, and a call per term would cost more than its arithmetic.
    rnd = _mathjs_round
    # The library's _calcD: chain(score_i).subtract(score_j).divide(bula), rounded to 3 decimals.
    d = (
        rnd((s1 - s2) / bula_value, 3),
        rnd((s1 - s3) / bula_value, 3),
        rnd((s2 - s3) / bula_value, 3),
    )
    # _calcT: chain(rating_j).subtract(rating_i).multiply(2.8).divide(100), rounded to 3.
    t = (
        rnd((r2 - r1) * MAGIC / 100, 3),
        rnd((r3 - r1) * MAGIC / 100, 3),
        rnd((r3 - r2) * MAGIC / 100, 3),
    )
    # _calcN: a tie gives 0 (the seed's text says otherwise; the library is the reference).
    n = (_n_term(s1, s2, bula_value), _n_term(s1, s3, bula_value), _n_term(s2, s3, bula_value))
    # _calculateChanges: C = D + T + N, left to right.
    c12, c13, c23 = d[0] + t[0] + n[0], d[1] + t[1] + n[1], d[2] + t[2] + n[2]
    averages = ((c12 + c13) / 2, (-c12 + c23) / 2, (-c13 + -c23) / 2)
    raw = (rnd(averages[0]), rnd(averages[1]), rnd(averages[2]))
    if not all(map(math.isfinite, (*d, *t, c12, c13, c23, *raw))):
        raise ValueError("the ratings, scores or bula are too large to rate this game")
    return PrefkoTerms(
        d=d,
        t=t,
        n=n,
        c=(c12, c13, c23),
        averages=averages,
        changes=(int(raw[0]), int(raw[1]), int(raw[2])),
    )


def rating_changes(ratings: Sequence[float], scores: Sequence[float], bula: float) -> list[int]:
    """The prefko rating changes of the three players, in seating order.

    Equal to ``preferans-rating-js`` 2.4.5 in every case. Lower is better: the best game score
    usually brings the biggest drop.

    >>> rating_changes([1200, 1150, 1100], [-500, 40, 460], 30)
    [-27, 2, 25]
    """
    return list(rating_terms(ratings, scores, bula).changes)


def _n_term(score_i: float, score_j: float, bula: float) -> float:
    if score_i > score_j:
        return bula / 100
    if score_i < score_j:
        return -bula / 100
    return 0.0


# A pure function of its arguments, called three times per pair per game with values that repeat
# a lot (rating gaps, score gaps over the same bulas): memoised, a replay computes each once.
@lru_cache(maxsize=1 << 16)
def _mathjs_round(x: float, decimals: int = 0) -> float:
    """mathjs 14 ``round(x, decimals)`` for a JavaScript number, bit for bit.

    mathjs first rounds ``x`` to 12 decimals and keeps that when it is "nearly equal" to ``x``
    (which absorbs float noise such as 2.4999999999999996), then rounds half away from zero on the
    decimal digits of the shortest string that reads back as the number (``String(x)`` in
    JavaScript, ``repr`` in Python).
    """
    if decimals < _MATHJS_EPSILON_DECIMALS and _decimal_places(x) > _MATHJS_EPSILON_DECIMALS:
        # (With 12 decimals or fewer the snap would give x back unchanged.)
        snapped = _round_shortest_decimal(x, _MATHJS_EPSILON_DECIMALS)
        if _nearly_equal(x, snapped):
            x = snapped
    return _round_shortest_decimal(x, decimals)


def _decimal_places(x: float) -> int:
    """How many decimals the shortest form of x has (a large number for exponent forms)."""
    shortest = repr(x)
    if "e" in shortest or "n" in shortest:  # 1e-07, 1e+16, inf, nan: let the full path decide
        return 1_000
    return len(shortest) - shortest.index(".") - 1


def _round_shortest_decimal(x: float, decimals: int) -> float:
    """mathjs ``roundNumber``: ``parseFloat(toFixed(x, decimals))`` on the shortest digits.

    mathjs looks at the first dropped digit of ``String(x)`` and rounds the magnitude up when it
    is 5 or more, so halves go away from zero whatever the binary value beneath them.
    """
    if not math.isfinite(x):
        return x
    if x == 0:
        return 0.0  # String(-0) is "0" in JavaScript, so mathjs returns +0 for -0
    shortest = repr(x)
    if "e" in shortest:
        quantum = Decimal(1).scaleb(-decimals)
        exact = Decimal(shortest).quantize(quantum, rounding=ROUND_HALF_UP, context=_DECIMAL)
        return float(exact)
    whole, _, fraction = shortest.lstrip("-").partition(".")
    if len(fraction) <= decimals:
        return x  # nothing to round off: these digits read back as x itself
    scaled = int(whole + fraction[:decimals])
    if fraction[decimals] >= "5":
        scaled += 1
    # Exact integers, so this division is the correctly rounded value of the decimal string,
    # as parseFloat gives; a negative rounding to zero stays -0, as parseFloat("-0.000") does.
    value = scaled / 10**decimals
    return -value if shortest[0] == "-" else value


def _nearly_equal(a: float, b: float) -> bool:
    """mathjs ``nearlyEqual(a, b, relTol, absTol)`` for numbers."""
    if math.isnan(a) or math.isnan(b):
        return False
    if not math.isfinite(a) or not math.isfinite(b):
        return a == b
    if a == b:
        return True
    return abs(a - b) <= max(_MATHJS_REL_TOL * max(abs(a), abs(b)), _MATHJS_ABS_TOL)


def _three_numbers(name: str, values: Sequence[float]) -> tuple[float, float, float]:
    items = list(values)
    if len(items) != SEATS:
        raise ValueError(f"prefko rates exactly 3 players, got {len(items)} {name}")
    first, second, third = items
    # Plain ints and floats, as the engine passes, are checked at once; anything else (or a
    # number too large) goes through finite_number, which names the one it refuses.
    if type(first) in _PLAIN and type(second) in _PLAIN and type(third) in _PLAIN:
        try:
            numbers = (float(first), float(second), float(third))
        except OverflowError:
            pass
        else:
            if math.isfinite(numbers[0] + numbers[1] + numbers[2]):
                return numbers
    first, second, third = (finite_number(f"{name}[{i}]", v) for i, v in enumerate(items))
    return first, second, third


_PLAIN = frozenset({int, float})
