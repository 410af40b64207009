"""Vectorised semantics of the PTX half-precision arithmetic: .f16 and packed .f16x2.

Follows: PTX ISA 9.x §9.7.4 (half precision: add, sub, mul, fma, neg, abs, min, max with .rn,
.ftz, .sat, .NaN). Every result is exact: f16 sums and products are exact in f64, the f16 FMA
goes through TwoSum and round-to-odd (`fp_rounding`), then one correctly rounded f64 -> f16
cast. ``.f16x2`` applies the same operation to the low and high halves of a .b32 independently.
Assumptions: [A] a NaN result is the canonical f16 NaN 0x7FFF; [A] ``.rz/.rm/.rp`` are accepted
and exact, although PTX documents only ``.rn`` for most f16 forms.
Deviations: approximate f16 math (ex2.approx.f16, tanh.approx.f16), f16 compares (setp.f16)
and bf16 are not implemented.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from warpsim.functional.fp_rounding import (
    CANON_NAN16,
    canon16,
    round_f64_to,
    sat,
    to_odd,
    two_sum,
)
from warpsim.functional.opdef import Core, unsupported
from warpsim.ptx.ir import Instruction

__all__ = ["HALF_OPCODES", "HALF_TYPES", "build_half", "flush16"]

HALF_TYPES = frozenset({"f16", "f16x2"})
HALF_OPCODES = frozenset({"add", "sub", "mul", "fma", "neg", "abs", "min", "max"})
_F16, _F64, _U16, _U32 = np.float16, np.float64, np.uint16, np.uint32
_RND = frozenset({"rn", "rz", "rm", "rp"})


def flush16(bits: Any) -> Any:
    """Flush f16 subnormals (raw bits) to sign-preserving zero."""
    return np.where((bits & _U16(0x7C00)) == 0, bits & _U16(0x8000), bits)


def _arith(op: str, mode: str) -> Callable[..., Any]:
    """Exact kernel over f16 views returning an f16 array."""
    def add(a: Any, b: Any) -> Any:
        x, y = a.astype(_F64), b.astype(_F64)
        if op == "sub":
            y = -y
        s = x + y  # exact: f16 operands span < 53 bits
        r = round_f64_to(s, mode, _F16)
        if mode == "rm":
            both_pos = (x.view(np.uint64) | y.view(np.uint64)) == 0
            r = np.where((s == 0) & ~both_pos, _F16(-0.0), r)
        return r

    def mul(a: Any, b: Any) -> Any:
        return round_f64_to(a.astype(_F64) * b.astype(_F64), mode, _F16)

    def fma(a: Any, b: Any, c: Any) -> Any:
        p = a.astype(_F64) * b.astype(_F64)
        z = c.astype(_F64)
        hi, lo = two_sum(p, z)
        r = round_f64_to(to_odd(hi, lo), mode, _F16)
        if mode == "rm":
            both_pos = (p.view(np.uint64) | z.view(np.uint64)) == 0
            r = np.where((hi == 0) & ~both_pos, _F16(-0.0), r)
        return r
    return {"add": add, "sub": add, "mul": mul, "fma": fma}[op]


def _scalar(op: str, mods: set[str], mode: str) -> Callable[[Any], Any]:
    """Function over a list of raw-bit uint16 operands returning raw uint16 bits."""
    ftz, sat_, nan_prop = "ftz" in mods, "sat" in mods, "NaN" in mods
    if op in ("neg", "abs"):
        def sign_op(s: Any) -> Any:
            a = flush16(s[0]) if ftz else s[0]
            return a ^ _U16(0x8000) if op == "neg" else a & _U16(0x7FFF)
        return sign_op
    if op in ("min", "max"):
        is_max = op == "max"

        def minmax(s: Any) -> Any:
            a, b = (flush16(s[0]), flush16(s[1])) if ftz else (s[0], s[1])
            x, y = a.view(_F16), b.view(_F16)
            rb = canon16((np.fmax if is_max else np.fmin)(x, y))
            rb = np.where(x == y, (a & b) if is_max else (a | b), rb)  # -0 < +0
            if nan_prop:
                rb = np.where((x != x) | (y != y), CANON_NAN16, rb)
            return rb
        return minmax
    k = _arith(op, mode)

    def arith(s: Any) -> Any:
        vals = [(flush16(x) if ftz else x).view(_F16) for x in s]
        r = k(*vals)
        if sat_:
            r = sat(r)
        b = canon16(r)
        return flush16(b) if ftz else b
    return arith


def _packed(f: Callable[[Any], Any]) -> Callable[[Any], tuple[Any, ...]]:
    def fn(s: Any) -> tuple[Any, ...]:
        lo = f([(x & _U32(0xFFFF)).astype(_U16) for x in s])
        hi = f([(x >> _U32(16)).astype(_U16) for x in s])
        return (lo.astype(_U32) | (hi.astype(_U32) << _U32(16)),)
    return fn


def build_half(inst: Instruction) -> Core:
    """Core for an .f16 / .f16x2 arithmetic instruction (UnsupportedPTXError otherwise)."""
    op = inst.opcode
    t = inst.types[0] if len(inst.types) == 1 else ""
    mods = set(inst.mods)
    rnd = mods & _RND
    allowed = {"add": {"ftz", "sat"}, "sub": {"ftz", "sat"}, "mul": {"ftz", "sat"},
               "fma": {"ftz", "sat"}, "neg": {"ftz"}, "abs": {"ftz"}, "min": {"ftz", "NaN"},
               "max": {"ftz", "NaN"}}.get(op)
    if t not in HALF_TYPES or allowed is None:
        raise unsupported(inst, f"{op}.{t} is not implemented",
                          "f16 support covers add/sub/mul/fma/neg/abs/min/max and cvt")
    bad = mods - rnd - allowed
    if op in ("neg", "abs", "min", "max") and rnd:
        bad |= rnd
    if bad or len(rnd) > 1:
        raise unsupported(inst, f"modifier(s) {sorted(bad or rnd)} not valid here")
    f = _scalar(op, mods, next(iter(rnd)) if rnd else "rn")
    n = {"neg": 1, "abs": 1, "fma": 3}.get(op, 2)
    if t == "f16":
        return Core(lambda s: (f(s),), ("f16",) * n, ("f16",))
    return Core(_packed(f), ("b32",) * n, ("b32",))
