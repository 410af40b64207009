"""Exact IEEE-754 rounding for every PTX rounding mode, built from numpy's round-to-nearest.

Follows: PTX ISA 9.x §9.7.3 (floating-point rounding modifiers .rn/.rz/.rm/.rp; .ftz; .sat);
error-free transformations: TwoSum (Knuth), TwoProduct with Veltkamp/Dekker splitting;
round-to-odd emulation of FMA (Boldo & Melquiond, IEEE TC 57(4), 2008).

How the directed modes are made exact:
* f32 results: the exact result x is held as ``hi + lo`` in f64 (``hi`` = RN64(x), ``lo`` of
  the residual's sign); ``to_odd`` folds the residual into the sticky bit of ``hi`` (round to
  odd at 53 bits) and ``round_f64_to_f32`` rounds that once to f32 in the requested mode.
  Round-to-odd at p+2 or more bits followed by any rounding to p bits is a correct rounding.
* f64 results: ``directed_f64`` nudges RN64(x) by one ulp (``np.nextafter``) when the sign of
  the exact residual demands it. Error-free transforms are exact only away from the overflow
  and underflow limits; lanes outside that safe range (rare: |x| near 2^1000 or 2^-960) are
  recomputed with exact rational arithmetic (``slow_lanes``).
NaN results: an f32 arithmetic instruction returns the canonical NaN 0x7FFFFFFF (all-ones
payload, sign clear). An f64 one propagates its first NaN operand, quieted, sign and payload
kept, and returns 0xFFF8000000000000 for an invalid operation (``nan64``): both measured on an
NVIDIA H200 (validation/results/h200/float32_ops.json, float64_ops.json).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

__all__ = [
    "CANON_NAN16",
    "CANON_NAN32",
    "CANON_NAN64",
    "DEFAULT_NAN64",
    "MODES",
    "canon16",
    "canon32",
    "canon64",
    "nan64",
    "directed_f64",
    "flush32",
    "round_f64_to",
    "round_f64_to_f32",
    "round_fraction",
    "sat",
    "slow_lanes",
    "split_prod",
    "step_ulp",
    "to_odd",
    "two_prod",
    "two_sum",
]

MODES = ("rn", "rz", "rm", "rp")
CANON_NAN32 = np.uint32(0x7FFFFFFF)
CANON_NAN64 = np.uint64(0x7FFFFFFFFFFFFFFF)
CANON_NAN16 = np.uint16(0x7FFF)
DEFAULT_NAN64 = np.uint64(0xFFF8000000000000)
_QUIET64 = np.uint64(1 << 51)
_MAG64 = np.uint64((1 << 63) - 1)
_INF64 = np.uint64(0x7FF0000000000000)
_SPLIT = 134217729.0  # 2^27 + 1 (Veltkamp)
_INT_OF_SIZE = {2: np.int16, 4: np.int32, 8: np.int64}


def two_sum(a: Any, b: Any) -> tuple[Any, Any]:
    """(s, e) with s = RN(a + b) and s + e == a + b exactly (f64; no overflow)."""
    s = a + b
    bb = s - a
    e = (a - (s - bb)) + (b - bb)
    return s, e


def split_prod(a: Any) -> tuple[Any, Any]:
    """Veltkamp split of f64 ``a`` into two 26-bit halves (|a| < 2^995)."""
    c = _SPLIT * a
    hi = c - (c - a)
    return hi, a - hi


def two_prod(a: Any, b: Any) -> tuple[Any, Any]:
    """(p, e) with p = RN(a * b) and p + e == a * b exactly (f64; safe range only)."""
    p = a * b
    ah, al = split_prod(a)
    bh, bl = split_prod(b)
    e = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    return p, e


def step_ulp(x: Any, cond: Any, inc_mag: Any) -> Any:
    """Move finite-or-infinite floats ``x`` one ulp where ``cond``: away from zero where
    ``inc_mag`` else toward zero (integer arithmetic on the bits; np.nextafter is ~20x slower).
    Never called to move a zero toward the opposite sign."""
    it = _INT_OF_SIZE[x.dtype.itemsize]
    d = cond.astype(it) * (inc_mag.astype(it) * it(2) - it(1))
    return (x.view(it) + d).view(x.dtype)


def to_odd(hi: Any, lo: Any) -> Any:
    """Round-to-odd at 53 bits of hi + lo, where hi = RN(hi + lo) and only lo's sign matters."""
    inexact = (lo > 0) | (lo < 0)
    even = (hi.view(np.uint64) & np.uint64(1)) == 0
    return step_ulp(hi, inexact & even, (lo > 0) != (hi < 0))


def round_f64_to_f32(v: Any, mode: str) -> Any:
    """Round f64 ``v`` to f32 in ``mode`` (exact; overflow per IEEE for each mode)."""
    return round_f64_to(v, mode, np.float32)


def round_f64_to(v: Any, mode: str, ft: Any) -> Any:
    """Round f64 ``v`` to float type ``ft`` (np.float32 or np.float16) in ``mode``, exactly
    (numpy's f64 -> f32/f16 casts round to nearest even directly from the f64 bits)."""
    r = v.astype(ft)
    if mode == "rn":
        return r
    d = v - r.astype(np.float64)  # exact; NaN when v is infinite
    return _directed(r, d, mode)


def _directed(r: Any, d: Any, mode: str) -> Any:
    """Nudge RN result r by one ulp per directed ``mode``; d has the sign of exact - r."""
    if mode == "rz":
        return step_ulp(r, _opposite(d, r), np.False_)
    if mode == "rm":
        return step_ulp(r, d < 0, np.signbit(r))
    return step_ulp(r, d > 0, ~np.signbit(r))


def _opposite(x: Any, y: Any) -> Any:
    """x and y are nonzero with opposite signs (no product: it could underflow)."""
    return ((x > 0) & (y < 0)) | ((x < 0) & (y > 0))


def directed_f64(s: Any, resid: Any, mode: str) -> Any:
    """Round the exact value s + resid (s = RN64 of it) in ``mode``; resid's sign matters."""
    if mode == "rn":
        return s
    return _directed(s, resid, mode)


def flush32(bits: Any) -> Any:
    """Flush f32 subnormals (raw bits) to sign-preserving zero."""
    return np.where((bits & np.uint32(0x7F800000)) == 0, bits & np.uint32(0x80000000), bits)


def canon32(r: Any) -> Any:
    """Raw bits of f32 result ``r`` with any NaN replaced by the canonical NaN (a view of
    ``r``'s bits when it has no NaN)."""
    nan = r != r
    return np.where(nan, CANON_NAN32, r.view(np.uint32)) if nan.any() else r.view(np.uint32)


def canon16(r: Any) -> Any:
    """Raw bits of f16 result ``r`` with any NaN replaced by the canonical NaN (a view of
    ``r``'s bits when it has no NaN)."""
    nan = r != r
    return np.where(nan, CANON_NAN16, r.view(np.uint16)) if nan.any() else r.view(np.uint16)


def canon64(r: Any) -> Any:
    """Raw bits of f64 result ``r`` with any NaN replaced by the canonical NaN (a view of
    ``r``'s bits when it has no NaN)."""
    nan = r != r
    return np.where(nan, CANON_NAN64, r.view(np.uint64)) if nan.any() else r.view(np.uint64)


def nan64(r: Any, srcs: Sequence[Any], order: Sequence[int]) -> Any:
    """Raw bits of f64 result ``r`` with the H200's NaN results: where ``r`` is NaN, the first
    NaN among the raw-bit operands ``srcs`` taken in ``order``, quieted (sign and payload
    kept), else (an invalid operation: 0 * inf, inf - inf, 0 / 0, sqrt(-1)) the default NaN
    0xFFF8000000000000."""
    bits = r.view(np.uint64)
    nan = r != r
    if not nan.any():
        return bits
    out = np.where(nan, DEFAULT_NAN64, bits)
    for k in reversed(order):
        x = srcs[k]
        out = np.where(nan & ((x & _MAG64) > _INF64), x | _QUIET64, out)
    return out


def sat(r: Any) -> Any:
    """PTX .sat: clamp to [0.0, 1.0]; NaN and -0.0 give +0.0."""
    one = r.dtype.type(1.0)
    return np.where(r > 0, np.minimum(r, one), r.dtype.type(0.0))


_FMT = {64: (53, -1022, 1023), 32: (24, -126, 127)}


def round_fraction(x: Fraction, mode: str, bits: int = 64) -> float:
    """Correctly round a nonzero rational to binary64/binary32 in ``mode`` (as a float)."""
    p, emin, emax = _FMT[bits]
    neg = x < 0
    ax = -x if neg else x
    n, d = ax.numerator, ax.denominator
    e = n.bit_length() - d.bit_length()
    if (n << max(-e, 0)) < (d << max(e, 0)):
        e -= 1
    q = max(e, emin) - (p - 1)
    scaled = ax / Fraction(2) ** q
    m = scaled.numerator // scaled.denominator
    rem = scaled - m
    if mode == "rn":
        if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and m & 1):
            m += 1
    elif rem and ((mode == "rm" and neg) or (mode == "rp" and not neg)):
        m += 1
    if m and q + m.bit_length() - 1 > emax:  # overflow
        to_inf = mode == "rn" or (mode == "rm" and neg) or (mode == "rp" and not neg)
        big = math.inf if to_inf else (2.0 - 2.0 ** (1 - p)) * 2.0 ** emax
        return -big if neg else big
    val = math.ldexp(m, q) if m else 0.0
    return -val if neg else val


def slow_lanes(out: Any, mask: Any, inputs: tuple[Any, ...],
               exact: Callable[..., float]) -> Any:
    """Recompute the (rare) lanes of ``out`` selected by ``mask`` with ``exact(*floats)``."""
    if not mask.any():
        return out
    out = np.array(out, copy=True)
    flat = out.reshape(-1)
    idx = np.flatnonzero(mask)
    cols = [np.broadcast_to(x, out.shape).reshape(-1) for x in inputs]
    for i in idx:  # only lanes with extreme exponents ever get here
        flat[i] = exact(*(float(c[i]) for c in cols))
    return out
