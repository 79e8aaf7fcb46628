"""Classic Elo (Chess::Elo) and FIDE Elo (@echecs/elo) for head-to-head games.

Direction: **higher is better** in both systems; a win moves the rating up.

Sources, reproduced to the last digit:

- :func:`classic` is ``elo($A, $result, $B)`` of the Perl module Chess::Elo 1.0a (the seed's
  source), with its package variables ``$factor`` (K, 32) and ``$divisor`` (400). Floats, no
  rounding, the same operations in the same order, so the results equal Perl's bit for bit (both
  use the C library's ``pow``).
- :func:`fide_k_factor`, :func:`fide_expected` and :func:`fide` are ``kFactor``, ``expected`` and
  ``update`` of the npm package ``@echecs/elo`` 1.0.2 (``dist/index.js``), including JavaScript's
  defaults, ``??`` and ``Math.round``. Node's ``Math.pow`` is V8's port of fdlibm, which differs
  from the C library's ``pow`` in the last bit about once in ten calls, so :func:`_v8_pow` ports
  it too.
"""

from __future__ import annotations

import functools
import math
import struct
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
    a_exp = _c_pow10((b - a) / divisor)
    a2 = a + k * (result - (1 / (1 + a_exp)))
    b_exp = _c_pow10((a - b) / divisor)
    b_result = 1 - result
    b2 = b + k * (b_result - (1 / (1 + b_exp)))
    return float(a2), float(b2)


def _c_pow10(exponent: float) -> float:
    """``10 ** exponent`` as Perl computes it: the C library's pow, infinity on overflow."""
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
    """
    a_value = finite_number("rating a", a)
    b_value = finite_number("rating b", b)
    diff = min(max(b_value - a_value, -FIDE_MAX_DIFF), FIDE_MAX_DIFF)
    return 1 / (1 + _v8_pow(10.0, diff / 400))


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


# V8's Math.pow -----------------------------------------------------------------------------------
# Node 20's Math.pow is base::ieee754::legacy::pow, V8's copy of fdlibm's e_pow.c. This is a line by
# line port for a positive finite base and a finite exponent (all expected() ever needs); every
# step is one IEEE double operation, as in the C code.

_BP = (1.0, 1.5)
_DP_H = (0.0, 5.84962487220764160156e-01)
_DP_L = (0.0, 1.35003920212974897128e-08)
_TWO53 = 9007199254740992.0
_L1 = 5.99999999999994648725e-01
_L2 = 4.28571428578550184252e-01
_L3 = 3.33333329818377432918e-01
_L4 = 2.72728123808534006489e-01
_L5 = 2.30660745775561754067e-01
_L6 = 2.06975017800338417784e-01
_P1 = 1.66666666666666019037e-01
_P2 = -2.77777777770155933842e-03
_P3 = 6.61375632143793436117e-05
_P4 = -1.65339022054652515390e-06
_P5 = 4.13813679705723846039e-08
_LG2 = 6.93147180559945286227e-01
_LG2_H = 6.93147182464599609375e-01
_LG2_L = -1.90465429995776804525e-09
_OVT = 8.0085662595372944372e-17
_CP = 9.61796693925975554329e-01
_CP_H = 9.61796700954437255859e-01
_CP_L = -7.02846165095275826516e-09
_IVLN2 = 1.44269504088896338700e00
_IVLN2_H = 1.44269502162933349609e00
_IVLN2_L = 1.92596299112661746887e-08


_DOUBLE = struct.Struct("<d")
_INT64 = struct.Struct("<q")
_UINT64 = struct.Struct("<Q")


def _words(x: float) -> tuple[int, int]:
    """The signed high and unsigned low 32-bit words of a double."""
    bits = _INT64.unpack(_DOUBLE.pack(x))[0]
    return bits >> 32, bits & 0xFFFFFFFF


def _from_words(high: int, low: int) -> float:
    bits = ((high & 0xFFFFFFFF) << 32) | (low & 0xFFFFFFFF)
    return _DOUBLE.unpack(_UINT64.pack(bits))[0]


def _low_word_cleared(x: float) -> float:
    return _from_words(_words(x)[0], 0)


def _int32(value: int) -> int:
    value &= 0xFFFFFFFF
    return value - (1 << 32) if value & 0x80000000 else value


@functools.lru_cache(maxsize=4096)  # whole-number ratings only ever need 801 exponents
def _v8_pow(x: float, y: float) -> float:
    """``Math.pow(x, y)`` of Node 20 (fdlibm) for ``x > 0`` finite and ``y`` finite."""
    if not (math.isfinite(x) and x > 0 and math.isfinite(y)):
        raise ValueError("_v8_pow is ported for a positive finite base and a finite exponent")
    hx, lx = _words(x)
    hy, ly = _words(y)
    ix = hx & 0x7FFFFFFF
    iy = hy & 0x7FFFFFFF

    if (iy | ly) == 0:  # x ** 0 = 1
        return 1.0
    if ly == 0:
        if iy == 0x3FF00000:  # y is +-1
            return 1.0 / x if hy < 0 else x
        if hy == 0x40000000:  # y is 2
            return x * x
        if hy == 0x3FE00000:  # y is 0.5 (x >= +0)
            return math.sqrt(x)

    ax = abs(x)
    if lx == 0 and ix == 0x3FF00000:  # x is 1 (+-0 and +-inf are refused above)
        return 1.0 / ax if hy < 0 else ax

    s = 1.0  # the sign of the result; x > 0
    if iy > 0x41E00000:  # |y| > 2**31
        if iy > 0x43F00000:  # |y| > 2**64, must over/underflow
            if ix <= 0x3FEFFFFF:
                return math.inf if hy < 0 else 0.0
            if ix >= 0x3FF00000:
                return math.inf if hy > 0 else 0.0
        if ix < 0x3FEFFFFF:
            return s * math.inf if hy < 0 else s * 0.0
        if ix > 0x3FF00000:
            return s * math.inf if hy > 0 else s * 0.0
        # |1 - x| is tiny <= 2**-20: log(x) by x - x^2/2 + x^3/3 - x^4/4
        t = ax - 1.0
        w = (t * t) * (0.5 - t * (0.3333333333333333333333 - t * 0.25))
        u = _IVLN2_H * t
        v = t * _IVLN2_L - w * _IVLN2
        t1 = _low_word_cleared(u + v)
        t2 = v - (t1 - u)
    else:
        n = 0
        if ix < 0x00100000:  # subnormal x
            ax *= _TWO53
            n -= 53
            ix = _words(ax)[0]
        n += (ix >> 20) - 0x3FF
        j = ix & 0x000FFFFF
        ix = j | 0x3FF00000  # normalize ix
        if j <= 0x3988E:
            k = 0  # |x| < sqrt(3/2)
        elif j < 0xBB67A:
            k = 1  # |x| < sqrt(3)
        else:
            k = 0
            n += 1
            ix -= 0x00100000
        ax = _from_words(ix, _words(ax)[1])

        # ss = s_h + s_l = (x - 1) / (x + 1) or (x - 1.5) / (x + 1.5)
        u = ax - _BP[k]
        v = 1.0 / (ax + _BP[k])
        ss = u * v
        s_h = _low_word_cleared(ss)
        t_h = _from_words(((ix >> 1) | 0x20000000) + 0x00080000 + (k << 18), 0)
        t_l = ax - (t_h - _BP[k])
        s_l = v * ((u - s_h * t_h) - s_h * t_l)
        # log(ax)
        s2 = ss * ss
        r = s2 * s2 * (_L1 + s2 * (_L2 + s2 * (_L3 + s2 * (_L4 + s2 * (_L5 + s2 * _L6)))))
        r += s_l * (s_h + ss)
        s2 = s_h * s_h
        t_h = _low_word_cleared(3.0 + s2 + r)
        t_l = r - ((t_h - 3.0) - s2)
        u = s_h * t_h
        v = s_l * t_h + t_l * ss
        p_h = _low_word_cleared(u + v)
        p_l = v - (p_h - u)
        z_h = _CP_H * p_h
        z_l = _CP_L * p_h + p_l * _CP + _DP_L[k]
        t = float(n)
        t1 = _low_word_cleared(((z_h + z_l) + _DP_H[k]) + t)
        t2 = z_l - (((t1 - t) - _DP_H[k]) - z_h)

    # (y1 + y2) * (t1 + t2)
    y1 = _low_word_cleared(y)
    p_l = (y - y1) * t1 + y * t2
    p_h = y1 * t1
    z = p_l + p_h
    j, i = _words(z)
    if j >= 0x40900000:  # z >= 1024
        if ((j - 0x40900000) | i) != 0 or p_l + _OVT > z - p_h:
            return s * math.inf
    elif (j & 0x7FFFFFFF) >= 0x4090CC00 and (  # z <= -1075
        (((j - 0xC090CC00) & 0xFFFFFFFF) | i) != 0 or p_l <= z - p_h
    ):
        return s * 0.0

    # 2 ** (p_h + p_l)
    i = j & 0x7FFFFFFF
    k = (i >> 20) - 0x3FF
    n = 0
    if i > 0x3FE00000:  # |z| > 0.5: n = [z + 0.5]
        n = j + (0x00100000 >> (k + 1))
        k = ((n & 0x7FFFFFFF) >> 20) - 0x3FF
        t = _from_words(n & ~(0x000FFFFF >> k), 0)
        n = ((n & 0x000FFFFF) | 0x00100000) >> (20 - k)
        if j < 0:
            n = -n
        p_h -= t
    t = _low_word_cleared(p_l + p_h)
    u = t * _LG2_H
    v = (p_l - (t - p_h)) * _LG2 + t * _LG2_L
    z = u + v
    w = v - (z - u)
    t = z * z
    t1 = z - t * (_P1 + t * (_P2 + t * (_P3 + t * (_P4 + t * _P5))))
    r = (z * t1) / ((t1 - 2.0) - (w + z * w))
    z = 1.0 - (r - z)
    high, low = _words(z)
    if (_int32(high + (n << 20)) >> 20) <= 0:
        z = math.ldexp(z, n)  # subnormal output
    else:
        z = _from_words(high + (n << 20), low)
    return s * z


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
