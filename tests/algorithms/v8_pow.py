"""Node's ``Math.pow``, for comparing ``fide_expected`` with @echecs/elo bit for bit.

Node 20's Math.pow is ``base::ieee754::legacy::pow``, V8's copy of fdlibm's ``e_pow.c``; this is a
line by line port for a positive finite base and a finite exponent (all ``expected()`` ever needs),
every step one IEEE double operation, as in the C code.

The app computes the power with Python's ``**`` (the C library's pow), which differs from this
in the last bit now and then. That never changes a FIDE rating (``test_elo.py`` checks every
whole-number gap), but the library's unrounded expected scores in
``vectors/fide_expected.json.gz`` are only reproduced bit for bit with node's pow, so the tests
(and ``scripts/vectors/prefko_elo.py``) put this one in its place for those comparisons.
"""

from __future__ import annotations

import math
import struct

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


def v8_pow(x: float, y: float) -> float:
    """``Math.pow(x, y)`` of Node 20 (fdlibm) for ``x > 0`` finite and ``y`` finite."""
    if not (math.isfinite(x) and x > 0 and math.isfinite(y)):
        raise ValueError("v8_pow is ported for a positive finite base and a finite exponent")
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
