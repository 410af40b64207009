"""Independent exact oracle for the float semantics tests: rationals rounded by hand.

Rounding here brackets the exact value between two adjacent representable numbers (found from
CPython's correctly rounded ``float(Fraction)`` and neighbour search) and picks one per mode;
it shares no code with warpsim.functional.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

__all__ = ["bits_of", "exact", "ref_round", "val"]

_MAX = {16: Fraction(65504), 32: Fraction(int(np.finfo(np.float32).max)),
        64: Fraction(int(np.finfo(np.float64).max))}
_OVER = {16: Fraction(2) ** 16, 32: Fraction(2) ** 128, 64: Fraction(2) ** 1024}
_FT = {16: np.float16, 32: np.float32}
_UT = {16: np.uint16, 32: np.uint32, 64: np.uint64}


def val(bits: int, w: int) -> float:
    """Float value (as Python float) of raw bits."""
    if w in _FT:
        return float(_UT[w](bits).view(_FT[w]))
    return float(np.uint64(bits).view(np.float64))


def bits_of(x: float, w: int) -> int:
    if w in _FT:
        return int(_FT[w](x).view(_UT[w]))
    return int(np.float64(x).view(np.uint64))


def exact(x: float) -> Fraction:
    return Fraction(x)


def _neighbours(x: Fraction, w: int) -> tuple[float, float]:
    """(lower, upper): adjacent representable values with lower <= x <= upper (finite x)."""
    y = float(x)  # RN64, correct in CPython
    if w in _FT:
        ft = _FT[w]
        with np.errstate(all="ignore"):
            c = ft(y)
            cands = [np.nextafter(c, ft(-np.inf)), c, np.nextafter(c, ft(np.inf))]
        cands = [float(v) for v in cands if np.isfinite(v)]
    else:
        cands = [math.nextafter(y, -math.inf), y, math.nextafter(y, math.inf)]
        cands = [v for v in cands if math.isfinite(v)]
    lower = max(v for v in cands if Fraction(v) <= x)
    uppers = [v for v in cands if Fraction(v) >= x]
    return lower, (min(uppers) if uppers else math.inf)


def ref_round(x: Fraction, mode: str, w: int) -> float:
    """Correctly rounded value of nonzero rational x in binary32/binary64 (Python float)."""
    if abs(x) >= _OVER[w] or abs(x) > _MAX[w]:
        neg = x < 0
        big = float(_MAX[w])
        if mode == "rn":
            half_ulp = (_OVER[w] - _MAX[w]) / 2
            r = math.inf if abs(x) >= _MAX[w] + half_ulp else big
        elif mode == "rz":
            r = big
        elif mode == "rm":
            r = math.inf if neg else big
        else:
            r = big if neg else math.inf
        return -r if neg else r
    lo, hi = _neighbours(x, w)
    if lo == hi:
        return lo
    if mode == "rz":
        r = lo if x > 0 else hi
    elif mode == "rm":
        r = lo
    elif mode == "rp":
        r = hi
    else:
        dl, dh = x - Fraction(lo), Fraction(hi) - x
        if dl != dh:
            r = lo if dl < dh else hi
        else:
            r = lo if bits_of(lo, w) % 2 == 0 else hi
    if r == 0:  # underflow to zero keeps the sign of x
        return -0.0 if x < 0 else 0.0
    return r
