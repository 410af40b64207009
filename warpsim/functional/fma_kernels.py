"""Compiled round-to-nearest fused multiply-add kernels (f32 and f64), lane by lane in numba.

Follows: PTX ISA 9.x §9.7.3.6 (fma.rn.f32, fma.rn.f64); error-free transformations TwoSum and
TwoProduct (Veltkamp/Dekker split), as in `fp_rounding`, written as scalar loops so that the
~30 floating-point operations per lane need no numpy temporaries (about 30x faster than the
vectorised form). Double rounding is avoided by detecting the one hazardous case explicitly:
the f64 sum of the leading parts lands exactly on a midpoint of the target format while the
neglected tail is nonzero; the tail's sign then picks the neighbour.
Lanes whose operands are near the f64 overflow/underflow limits are flagged and recomputed
exactly by the caller (`fp_rounding.slow_lanes`). Under ``NUMBA_DISABLE_JIT=1`` the callers use
the numpy formulation instead (``JIT_ENABLED``).
"""

from __future__ import annotations

import math

import numba
import numpy as np

from warpsim._jit import jit

__all__ = ["JIT_ENABLED", "fma32_rn", "fma64_rn"]

JIT_ENABLED = not numba.config.DISABLE_JIT
_SPLIT = 134217729.0
_F32_MAX = float(np.finfo(np.float32).max)
_F32_OVF_MID = 2.0**128 - 2.0**103  # midpoint between FLT_MAX and 2^128


@jit
def fma32_rn(a: np.ndarray, b: np.ndarray, c: np.ndarray, out: np.ndarray) -> None:
    """out = RN32(a*b + c) for float32 arrays (exact; NaN handling left to the caller)."""
    for i in range(out.size):
        p = np.float64(a[i]) * np.float64(b[i])  # exact
        cc = np.float64(c[i])
        s = p + cc
        bb = s - p
        e = (p - (s - bb)) + (cc - bb)
        r = np.float32(s)
        if e != 0.0 and math.isfinite(s):
            rd = np.float64(r)
            if math.isfinite(rd):
                d = s - rd
                if d != 0.0:
                    t = s + d  # the other f32 neighbour iff s is a midpoint
                    if np.float64(np.float32(t)) == t and (e > 0.0) == (d > 0.0):
                        r = np.float32(t)
            elif abs(s) == _F32_OVF_MID and (e > 0.0) != (s > 0.0):
                r = np.float32(_F32_MAX if s > 0.0 else -_F32_MAX)
        out[i] = r


@jit
def fma64_rn(a: np.ndarray, b: np.ndarray, c: np.ndarray, out: np.ndarray,
             slow: np.ndarray) -> int:
    """out = RN64(a*b + c); lanes outside the exact range get slow[i] = 1 (count returned)."""
    n_slow = 0
    for i in range(out.size):
        x, y, z = a[i], b[i], c[i]
        p = x * y
        r = p + z
        slow[i] = 0
        if not (math.isfinite(x) and math.isfinite(y) and math.isfinite(z)):
            out[i] = r
            continue
        ap = abs(p)
        if x == 0.0 or y == 0.0:
            out[i] = r  # exact product zero: IEEE sum of signed zeros / z
            continue
        if (abs(x) >= 2.0**995 or abs(y) >= 2.0**995 or abs(z) >= 2.0**1015
                or ap >= 2.0**1015 or ap < 2.0**-960):
            slow[i] = 1
            n_slow += 1
            out[i] = r
            continue
        t = _SPLIT * x
        xh = t - (t - x)
        xl = x - xh
        t = _SPLIT * y
        yh = t - (t - y)
        yl = y - yh
        ul = ((xh * yh - p) + xh * yl + xl * yh) + xl * yl  # p + ul == x*y exactly
        th = z + p
        bb = th - z
        tl = (z - (th - bb)) + (p - bb)  # th + tl == z + p exactly
        if th != 0.0 and abs(th) < 2.0**-900:
            slow[i] = 1
            n_slow += 1
            out[i] = r
            continue
        v = tl + ul
        bb = v - tl
        ve = (tl - (v - bb)) + (ul - bb)  # v + ve == tl + ul exactly
        rs = th + v
        bb = rs - th
        re = (th - (rs - bb)) + (v - bb)  # rs + re == th + v exactly
        if ve != 0.0 and re != 0.0:
            w = rs + 2.0 * re
            if w - rs == 2.0 * re and (ve > 0.0) == (re > 0.0):
                rs = w  # th + v sat on a midpoint; the tail ve decides
        if rs == 0.0 and th == 0.0 and v == 0.0:
            rs = 0.0  # exact cancellation: +0 under round-to-nearest
        out[i] = rs
    return n_slow
