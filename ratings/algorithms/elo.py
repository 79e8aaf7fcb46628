"""Classic Elo (Chess::Elo) and FIDE Elo (@echecs/elo) for head-to-head games.

Direction: **higher is better** in both systems; a win moves the rating up.

Sources, reproduced to the last digit:

- :func:`classic` is ``elo($A, $result, $B)`` of the Perl module Chess::Elo 1.0a (its source is
  copied into ``scripts/vectors/prefko_elo.py``), with its package variables ``$factor`` (K, 32)
  and ``$divisor`` (400). Floats, no rounding, the same operations in the same order, so the
  results equal Perl's bit for bit (both use the C library's ``pow``).
- :func:`fide_k_factor`, :func:`fide_expected` and :func:`fide` are ``kFactor``, ``expected`` and
  ``update`` of the npm package ``@echecs/elo`` 1.0.2 (``dist/index.js``), including JavaScript's
  defaults, ``??`` and ``Math.round``. Node's ``Math.pow`` is V8's port of fdlibm, which differs
  from the C library's ``pow`` (Python's ``**``) in the last bit on 65 of the 801 exponents that
  whole-number ratings give, and so :func:`fide_expected` by up to 2 units in the last place on
  27 of those 801 gaps. :func:`fide` rounds to whole numbers, and no such difference ever reaches
  a new rating: ``tests/algorithms/test_elo.py`` checks every gap from -400 to 400 with K 10, 20
  and 40 and every result against the V8 port kept there (``tests/algorithms/v8_pow.py``), which
  also lets the tests compare :func:`fide_expected` with the library bit for bit.
"""

from __future__ import annotations

import math
from numbers import Real

from ratings.algorithms._checks import finite_number

__all__ = ["classic", "fide", "fide_expected", "fide_k_factor"]

RESULTS = (0, 0.5, 1)
FIDE_MAX_DIFF = 400  # FIDE's 400-point rule: a bigger rating gap counts as 400


# Classic Elo -------------------------------------------------------------------------------------


def classic(
    a: float, b: float, result: float, k: float = 32, divisor: float = 400
) -> tuple[float, float]:
    """New ratings of A and B after one game, by Chess::Elo (higher is better).

    ``result`` is A's result: 1 for a win, 0.5 for a draw, 0 for a loss. ``k`` is the module's
    ``$factor`` and ``divisor`` its ``$divisor``::

        A2 = A + k * (result - 1 / (1 + 10 ** ((B - A) / divisor)))

    and the same for B with ``1 - result``. The two changes cancel out (up to float rounding).

    >>> classic(2100, 1200, 0)
    (2068.1789429538826, 1231.8210570461172)
    """
    a = _perl_number("rating a", a)
    b = _perl_number("rating b", b)
    _result(result)
    if finite_number("k", k) <= 0:
        raise ValueError(f"k must be a positive number, got {k!r}")
    if finite_number("divisor", divisor) <= 0:
        raise ValueError(f"divisor must be a positive number, got {divisor!r}")
    # Perl keeps whole numbers as integers, so B - A is exact like Python's int arithmetic; the
    # rest is float arithmetic in the module's order.
    a_exp = _pow10((b - a) / divisor)
    a2 = a + k * (result - (1 / (1 + a_exp)))
    b_exp = _pow10((a - b) / divisor)
    b_result = 1 - result
    b2 = b + k * (b_result - (1 / (1 + b_exp)))
    return float(a2), float(b2)


def _pow10(exponent: float) -> float:
    """``10 ** exponent`` with the C library's pow (as Perl computes it), infinity on overflow.

    Both systems use it; node's pow differs from it in the last bit now and then, which never
    changes a FIDE rating (see the module's docstring).
    """
    try:
        return 10.0**exponent
    except OverflowError:
        return math.inf


# FIDE Elo ----------------------------------------------------------------------------------------


def fide_k_factor(
    rating: float,
    *,
    games: float | None = None,
    age: float | None = None,
    ever_2400: bool = False,
    blitz: bool = False,
    rapid: bool = False,
) -> int:
    """FIDE's K for one player, by @echecs/elo's ``kFactor`` (the first rule that applies wins).

    1. rapid or blitz: 20;
    2. ``games <= 30``, or ``age < 18`` with ``rating < 2300``: 40;
    3. ``rating < 2400`` and never reached 2400: 20;
    4. otherwise 10.

    ``None`` means "not given", as in the library: games default to 32 and age to 18, so a player
    with no record counts as experienced and adult. ``games=0`` and ``age=0`` are real values.
    """
    rating_value = finite_number("rating", rating)
    games_value = 32.0 if games is None else _non_negative("games", games)
    age_value = 18.0 if age is None else _non_negative("age", age)
    _flag("ever_2400", ever_2400)
    _flag("blitz", blitz)
    _flag("rapid", rapid)
    if blitz or rapid:
        return 20
    if games_value <= 30 or (age_value < 18 and rating_value < 2300):
        return 40
    if rating_value < 2400 and not ever_2400:
        return 20
    return 10


def fide_expected(a: float, b: float) -> float:
    """A's expected score against B, by @echecs/elo's ``expected``.

    The rating difference is capped at 400 points each way before ``1 / (1 + 10 ** (d / 400))``.
    Python's pow may put the result a unit or two in the last place from node's (see the
    module's docstring); :func:`fide`'s whole-number ratings never show it.
    """
    a_value = finite_number("rating a", a)
    b_value = finite_number("rating b", b)
    diff = min(max(b_value - a_value, -FIDE_MAX_DIFF), FIDE_MAX_DIFF)
    return 1 / (1 + _pow10(diff / 400))


def fide(
    a: float,
    b: float,
    result: float,
    *,
    k: float | None = None,
    k_a: float | None = None,
    k_b: float | None = None,
    games_a: float | None = None,
    games_b: float | None = None,
    age_a: float | None = None,
    age_b: float | None = None,
    ever_2400_a: bool = False,
    ever_2400_b: bool = False,
    blitz: bool = False,
    rapid: bool = False,
) -> tuple[int, int]:
    """New ratings of A and B after one game, by @echecs/elo's ``update`` (higher is better).

    ``result`` is A's result (1, 0.5 or 0). Each player's K is ``k_a`` / ``k_b`` when given, else
    ``k`` when given, else :func:`fide_k_factor` from that player's rating, games, age and peak.
    The new ratings are rounded with JavaScript's ``Math.round`` (halves go up: -2.5 gives -2).

    >>> fide(1400, 1400, 1)
    (1410, 1390)
    >>> fide(1400, 1400, 1, age_a=15)
    (1420, 1390)
    """
    a_value = finite_number("rating a", a)
    b_value = finite_number("rating b", b)
    _result(result)
    for name, given in (("k", k), ("k_a", k_a), ("k_b", k_b)):
        if given is not None and finite_number(name, given) <= 0:
            raise ValueError(f"{name} must be a positive number, got {given!r}")
    # Checked here, under the caller's names, even when an explicit K makes them unused.
    for name, given in (
        ("games_a", games_a),
        ("games_b", games_b),
        ("age_a", age_a),
        ("age_b", age_b),
    ):
        if given is not None:
            _non_negative(name, given)
    for name, flag in (("ever_2400_a", ever_2400_a), ("ever_2400_b", ever_2400_b)):
        _flag(name, flag)
    _flag("blitz", blitz)
    _flag("rapid", rapid)
    odds_a = fide_expected(a_value, b_value)
    odds_b = fide_expected(b_value, a_value)
    # options.kA ?? options.k ?? kFactor(...): an explicit K is used as given.
    k_a_value = _first_given(k_a, k)
    if k_a_value is None:
        k_a_value = fide_k_factor(
            a_value, games=games_a, age=age_a, ever_2400=ever_2400_a, blitz=blitz, rapid=rapid
        )
    k_b_value = _first_given(k_b, k)
    if k_b_value is None:
        k_b_value = fide_k_factor(
            b_value, games=games_b, age=age_b, ever_2400=ever_2400_b, blitz=blitz, rapid=rapid
        )
    # delta(actual, expected, k) = k * (actual - expected), added to the old rating.
    new_a = a_value + float(k_a_value) * (result - odds_a)
    new_b = b_value + float(k_b_value) * ((1 - result) - odds_b)
    return _js_math_round(new_a), _js_math_round(new_b)


def _first_given(*values: float | None) -> float | None:
    return next((value for value in values if value is not None), None)


def _js_math_round(x: float) -> int:
    """JavaScript's ``Math.round``: the nearest integer, halves toward +infinity, exactly."""
    whole = math.floor(x)
    # x - floor(x) is exact for doubles, so this never misreads 0.49999999999999994 as a half.
    return whole + 1 if x - whole >= 0.5 else whole


# Validation --------------------------------------------------------------------------------------


def _perl_number(name: str, value: object) -> float:
    """A finite number kept as Perl keeps it: whole numbers exact, anything else a float."""
    number = finite_number(name, value)
    return value if isinstance(value, int) else number


def _non_negative(name: str, value: object) -> float:
    number = finite_number(name, value)
    if number < 0:
        raise ValueError(f"{name} cannot be negative, got {value!r}")
    return number


def _result(value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, Real) or value not in RESULTS:
        raise ValueError(f"result must be 1 (win), 0.5 (draw) or 0 (loss), got {value!r}")


def _flag(name: str, value: object) -> None:
    if not isinstance(value, bool):
        raise ValueError(f"{name} must be True or False, got {value!r}")
