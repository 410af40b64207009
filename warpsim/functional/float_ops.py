"""Vectorised semantics of the PTX f32/f64 arithmetic instructions (IEEE-exact rounding).

Follows: PTX ISA 9.x §9.7.3 (add, sub, mul, fma, mad, div, abs, neg, min, max, copysign, rcp,
sqrt, testp) with the .rn/.rz/.rm/.rp, .ftz, .sat and .NaN modifiers.
NaN results follow the H200 (fp_rounding: f32 canonical, f64 the first NaN operand quieted).
Assumptions: [A] ``mad.f32``/``mad.f64`` without a rounding modifier behave as ``fma.rn``;
[A] ``div.full.f32`` and the ``.approx`` forms of ``div``/``rcp``/``sqrt`` return the correctly
rounded result (inside PTX's error bounds). abs/neg/copysign are bit operations (a NaN operand
keeps its payload), except that abs.f32 and neg.f32 of a NaN give the canonical NaN 0x7FFFFFFF,
as the H200 does.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np

from warpsim.functional.fma_kernels import JIT_ENABLED, fma32_rn, fma64_rn
from warpsim.functional.fp_rounding import (
    CANON_NAN32,
    CANON_NAN64,
    canon32,
    directed_f64,
    flush32,
    nan64,
    round_f64_to_f32,
    round_fraction,
    sat,
    slow_lanes,
    to_odd,
    two_prod,
    two_sum,
)
from warpsim.functional.opdef import Core, unsupported
from warpsim.ptx.ir import Instruction

__all__ = ["FLOAT_OPCODES", "build_float", "flush64", "kernel32", "kernel64"]

F32, F64 = np.float32, np.float64
_RND = frozenset({"rn", "rz", "rm", "rp"})
_ALLOWED = {
    "add": {"ftz", "sat"}, "sub": {"ftz", "sat"}, "mul": {"ftz", "sat"},
    "fma": {"ftz", "sat"}, "mad": {"ftz", "sat"}, "div": {"ftz", "approx", "full"},
    "abs": {"ftz"}, "neg": {"ftz"}, "min": {"ftz", "NaN"}, "max": {"ftz", "NaN"},
    "copysign": set(), "rcp": {"ftz", "approx"}, "sqrt": {"ftz", "approx"},
    "testp": {"finite", "infinite", "number", "notanumber", "normal", "subnormal"},
}
FLOAT_OPCODES = frozenset(_ALLOWED)


def _p(k: int) -> float:
    return float(2.0 ** k)


# ----------------------------------------------------------------------------------- f32 ---
def _rm_zero(r: Any, hi: Any, x: Any, y: Any) -> Any:
    """Under .rm an exact zero sum (hi == 0) is -0 unless both addends are +0 (f64 x, y)."""
    both_pos = (x.view(np.uint64) | y.view(np.uint64)) == 0
    return np.where((hi == 0) & ~both_pos, F32(-0.0), r)


def kernel32(op: str, mode: str) -> Callable[..., Any]:
    """Exact f32 kernel (float views in, float32 out) for op in add/sub/mul/fma/div/sqrt/rcp."""
    if mode == "rn" and op in ("add", "sub", "mul", "div", "sqrt", "rcp"):
        return {"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.divide,
                "sqrt": np.sqrt, "rcp": lambda b: np.divide(F32(1.0), b)}[op]
    if op in ("add", "sub"):
        def k_add(a: Any, b: Any) -> Any:
            x, y = a.astype(F64), b.astype(F64)
            if op == "sub":
                y = -y
            hi, lo = two_sum(x, y)
            r = round_f64_to_f32(to_odd(hi, lo), mode)
            return _rm_zero(r, hi, x, y) if mode == "rm" else r
        return k_add
    if op == "mul":
        return lambda a, b: round_f64_to_f32(a.astype(F64) * b.astype(F64), mode)
    if op == "fma" and mode == "rn" and JIT_ENABLED:
        def k_fma_jit(a: Any, b: Any, c: Any) -> Any:
            shape, (x, y, z) = _flat3(a, b, c)
            out = np.empty(x.size, F32)
            fma32_rn(x, y, z, out)
            return out.reshape(shape)
        return k_fma_jit
    if op == "fma":
        def k_fma(a: Any, b: Any, c: Any) -> Any:
            p = a.astype(F64) * b.astype(F64)  # exact: 48-bit product
            c64 = c.astype(F64)
            hi, lo = two_sum(p, c64)
            r = round_f64_to_f32(to_odd(hi, lo), mode)
            return _rm_zero(r, hi, p, c64) if mode == "rm" else r
        return k_fma
    if op in ("div", "rcp"):
        def k_div(a: Any, b: Any) -> Any:
            x, y = a.astype(F64), b.astype(F64)
            q = x / y
            ph, pl = two_prod(q, y)
            resid = ((x - ph) - pl) * y  # sign of a/b - q
            return round_f64_to_f32(to_odd(q, resid), mode)
        if op == "rcp":
            return lambda b: k_div(np.ones_like(b), b)
        return k_div
    if op == "sqrt":
        def k_sqrt(a: Any) -> Any:
            x = a.astype(F64)
            s = np.sqrt(x)
            ph, pl = two_prod(s, s)
            return round_f64_to_f32(to_odd(s, (x - ph) - pl), mode)
        return k_sqrt
    raise KeyError(op)


_FLT_MIN = F32(2.0 ** -126)


def _wrap32(kernel: Callable[..., Any], ftz: bool, sat_: bool,
            kernel_rz: Callable[..., Any] | None = None) -> Callable[..., Any]:
    """f32 instruction from its kernel. With ``.ftz`` inputs are flushed, and a result whose
    exact value is below FLT_MIN in magnitude becomes a zero of its sign even where it rounds
    to +-FLT_MIN (tininess before rounding, as the H200 does: mul.rn.ftz.f32(0.5, 0x00FFFFFF)
    = +0). Only results of magnitude FLT_MIN can be affected; for those lanes the exact value
    is classified by ``kernel_rz``, the same operation rounded toward zero (None: the kernel
    itself rounds toward zero, or the instruction is approximate)."""
    if ftz:
        def fn_ftz(s: Any) -> tuple[Any, ...]:
            x = [flush32(v).view(F32) for v in s]
            r = kernel(*x)
            if kernel_rz is not None:
                edge = np.abs(r) == _FLT_MIN
                if edge.any():
                    tiny = edge & (np.abs(kernel_rz(*x)) < _FLT_MIN)
                    r = np.where(tiny, np.copysign(F32(0.0), r), r)
            if sat_:
                r = sat(r)
            return (flush32(canon32(r)),)
        return fn_ftz

    def fn(s: Any) -> tuple[Any, ...]:
        r = kernel(*[x.view(F32) for x in s])
        if sat_:
            r = sat(r)
        return (canon32(r),)
    return fn


# ----------------------------------------------------------------------------------- f64 ---
def _zero_sign(x: float, y: float, mode: str) -> float:
    """Sign of an exact zero sum x + y under IEEE rules."""
    if x == 0 and y == 0 and math.copysign(1.0, x) == math.copysign(1.0, y):
        return x
    return -0.0 if mode == "rm" else 0.0


def _exact64(op: str, mode: str) -> Callable[..., float]:
    """Exact rational evaluation of one lane (the slow path for extreme exponents)."""
    def add(a: float, b: float) -> float:
        x = Fraction(a) + Fraction(b)
        return round_fraction(x, mode) if x else _zero_sign(a, b, mode)

    def mul(a: float, b: float) -> float:
        x = Fraction(a) * Fraction(b)
        return round_fraction(x, mode) if x else a * b

    def fma(a: float, b: float, c: float) -> float:
        x = Fraction(a) * Fraction(b) + Fraction(c)
        return round_fraction(x, mode) if x else _zero_sign(a * b, c, mode)

    def div(a: float, b: float) -> float:
        return round_fraction(Fraction(a) / Fraction(b), mode)
    return {"add": add, "mul": mul, "fma": fma, "div": div}[op]


def _flat3(a: Any, b: Any, c: Any) -> tuple[tuple[int, ...], list[Any]]:
    """Common shape and 1-D views of three operands (immediates broadcast, no copies)."""
    shape = max((np.shape(a), np.shape(b), np.shape(c)), key=len)
    return shape, [(x if np.shape(x) == shape else np.broadcast_to(x, shape)).reshape(-1)
                   for x in (a, b, c)]


def _fma64(mode: str) -> Callable[..., Any]:
    exact = _exact64("fma", mode)
    if mode == "rn" and JIT_ENABLED:
        def k_jit(a: Any, b: Any, c: Any) -> Any:
            shape, (x, y, z) = _flat3(a, b, c)
            out = np.empty(x.size, F64)
            slow = np.empty(x.size, np.uint8)
            if fma64_rn(x, y, z, out, slow):
                out = slow_lanes(out, slow.view(bool), (x, y, z), exact)
            return out.reshape(shape)
        return k_jit
    lo_p, hi_p, hi_c = _p(-960), _p(995), _p(1015)

    def k(a: Any, b: Any, c: Any) -> Any:
        uh, ul = two_prod(a, b)
        th, tl = two_sum(c, uh)
        z, ze = two_sum(tl, ul)
        v = to_odd(z, ze)  # Boldo-Melquiond: RO(tl + ul)
        if mode == "rn":
            r = th + v
        else:
            s, e = two_sum(th, v)
            r = directed_f64(s, e, mode)
        fin = np.isfinite(a) & np.isfinite(b) & np.isfinite(c)
        r = np.where(fin, r, a * b + c)
        zero = (r == 0) & fin
        if zero.any():  # exact zero: IEEE sign rules
            pz = (a == 0) | (b == 0)
            ps = np.signbit(a) ^ np.signbit(b)
            cs = np.signbit(c)
            bz = pz & (c == 0)
            neg = ~(bz & ~ps & ~cs) if mode == "rm" else bz & ps & cs
            r = np.where(zero, np.where(neg, -0.0, 0.0), r)
        aa, ab, ap = np.abs(a), np.abs(b), np.abs(uh)
        safe = ((aa < hi_p) & (ab < hi_p) & (np.abs(c) < hi_c) & (ap < hi_c)
                & ((ap >= lo_p) | _pz(a, b)) & ((np.abs(th) >= lo_p) | (th == 0)))
        return slow_lanes(r, fin & ~safe, (a, b, c), exact)
    return k


def _pz(a: Any, b: Any) -> Any:
    """Lanes where the product a*b is an exact zero."""
    return (a == 0) | (b == 0)


def kernel64(op: str, mode: str) -> Callable[..., Any]:
    """Exact f64 kernel (float64 views in and out) for add/sub/mul/fma/div/sqrt/rcp."""
    if op == "fma":
        return _fma64(mode)
    if mode == "rn" and op in ("add", "sub", "mul", "div", "sqrt", "rcp"):
        return {"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.divide,
                "sqrt": np.sqrt, "rcp": lambda b: np.divide(1.0, b)}[op]
    big = _p(1020)
    if op in ("add", "sub"):
        exact = _exact64("add", mode)

        def k_add(a: Any, b: Any) -> Any:
            if op == "sub":
                b = -b
            s, e = two_sum(a, b)
            r = directed_f64(s, e, mode)
            if mode == "rm":
                both_pos = (a.view(np.uint64) | b.view(np.uint64)) == 0
                r = np.where((s == 0) & ~both_pos, -0.0, r)
            fin = np.isfinite(a) & np.isfinite(b)
            return slow_lanes(r, fin & ~((np.abs(a) < big) & (np.abs(b) < big)), (a, b), exact)
        return k_add
    if op == "mul":
        exact = _exact64("mul", mode)
        lo_p, hi_p = _p(-960), _p(995)

        def k_mul(a: Any, b: Any) -> Any:
            p, e = two_prod(a, b)
            r = directed_f64(p, e, mode)
            ap = np.abs(p)
            safe = ((np.abs(a) < hi_p) & (np.abs(b) < hi_p) & (ap < big)
                    & ((ap >= lo_p) | _pz(a, b)))
            fin = np.isfinite(a) & np.isfinite(b)
            return slow_lanes(r, fin & ~safe, (a, b), exact)
        return k_mul
    if op in ("div", "rcp"):
        exact = _exact64("div", mode)
        lo_p, hi_p = _p(-960), _p(990)

        def k_div(a: Any, b: Any) -> Any:
            q = a / b
            ph, pl = two_prod(q, b)
            resid = ((a - ph) - pl) * np.sign(b)
            r = directed_f64(q, resid, mode)
            aa, ab, aq = np.abs(a), np.abs(b), np.abs(q)
            safe = ((aa >= lo_p) & (aa < hi_p) & (ab >= lo_p) & (ab < hi_p)
                    & (aq >= lo_p) & (aq < hi_p))
            live = np.isfinite(a) & np.isfinite(b) & (a != 0) & (b != 0)
            return slow_lanes(r, live & ~safe, (a, b), exact)
        if op == "rcp":
            return lambda b: k_div(np.ones_like(b), b)
        return k_div
    if op == "sqrt":
        def k_sqrt(a: Any) -> Any:
            # sqrt(a * 4^k) = sqrt(a) * 2^k exactly, and sqrt results are never subnormal
            up, down = a < _p(-900), a > _p(900)
            x = a * np.where(up, _p(200), np.where(down, _p(-200), 1.0))
            s = np.sqrt(x)
            ph, pl = two_prod(s, s)
            r = directed_f64(s, (x - ph) - pl, mode)
            return r * np.where(up, _p(-100), np.where(down, _p(100), 1.0))
        return k_sqrt
    raise KeyError(op)


_RCP64_NAN = np.uint64(0x7FFFFFFF00000000)


def flush64(bits: Any) -> Any:
    """Flush f64 subnormals (raw bits) to sign-preserving zero."""
    return np.where((bits & np.uint64(0x7FF0000000000000)) == 0,
                    bits & np.uint64(0x8000000000000000), bits)


def _wrap64(kernel: Callable[..., Any], order: tuple[int, ...], ftz: bool = False
            ) -> Callable[..., Any]:
    """f64 instruction from its kernel; a NaN result propagates the first NaN operand in
    ``order`` (quieted) or is 0xFFF8000000000000 (``nan64``, as on the H200)."""
    if ftz:  # rcp.approx.ftz.f64, which computes the high word only: a NaN gives
        # 0x7FFFFFFF00000000 on the H200
        def fn_ftz(s: Any) -> tuple[Any, ...]:
            r = kernel(*[flush64(x).view(F64) for x in s])
            return (flush64(np.where(r != r, _RCP64_NAN, r.view(np.uint64))),)
        return fn_ftz

    def fn(s: Any) -> tuple[Any, ...]:
        return (nan64(kernel(*[x.view(F64) for x in s]), s, order),)
    return fn


# ---------------------------------------------------------------------- bitwise f ops ---
def _minmax(is_max: bool, bits: int, ftz: bool, nan_prop: bool) -> Callable[..., Any]:
    ft = F32 if bits == 32 else F64
    nan_bits = CANON_NAN32 if bits == 32 else CANON_NAN64

    def fn(s: Any) -> tuple[Any, ...]:
        a, b = s
        if ftz:
            a, b = flush32(a), flush32(b)
        x, y = a.view(ft), b.view(ft)
        xn, yn = x != x, y != y
        r = (np.fmax if is_max else np.fmin)(x, y)
        # two NaNs: f32 gives the canonical NaN, f64 the first operand quieted (H200)
        rb = canon32(r) if bits == 32 else nan64(r, s, (0, 1))
        # one NaN: the other operand (np.fmin/fmax may return a signalling NaN operand)
        rb = np.where(xn & ~yn, b, np.where(yn & ~xn, a, rb))
        # equal operands (incl. +0/-0): max takes the AND of the bits, min the OR
        rb = np.where(x == y, (a & b) if is_max else (a | b), rb)
        if nan_prop:
            rb = np.where(xn | yn, nan_bits, rb)
        return (rb,)
    return fn


def _testp(kind: str, bits: int) -> Callable[..., Any]:
    ft = F32 if bits == 32 else F64

    def fn(s: Any) -> tuple[Any, ...]:
        x = s[0].view(ft)
        if kind == "finite":
            return (np.isfinite(x),)
        if kind == "infinite":
            return (np.isinf(x),)
        if kind == "number":
            return (x == x,)
        if kind == "notanumber":
            return (x != x,)
        ax = np.abs(x)
        tiny = np.finfo(ft).tiny
        if kind == "normal":
            return ((ax >= tiny) & (ax < np.inf),)
        return ((ax < tiny) & (ax > 0),)
    return fn


def build_float(inst: Instruction) -> Core:
    """Core for an f32/f64 arithmetic instruction (raises UnsupportedPTXError otherwise)."""
    op = inst.opcode
    if len(inst.types) != 1 or inst.types[0] not in ("f32", "f64"):
        raise unsupported(inst, f"type {'.'.join(inst.types)} is not implemented for {op}",
                          "only .f32 and .f64 are implemented (no f16/bf16)")
    t = inst.types[0]
    bits = 32 if t == "f32" else 64
    mods = set(inst.mods)
    rnd = mods & _RND
    bad = mods - rnd - _ALLOWED[op]
    if op in ("abs", "neg", "min", "max", "copysign", "testp") and rnd:
        bad |= rnd
    if bits == 64 and {"ftz", "sat"} & mods and not ("approx" in mods and op == "rcp"):
        bad |= {"ftz", "sat"} & mods
    if op == "div" and bits == 64 and mods & {"approx", "full"}:
        bad |= mods & {"approx", "full"}
    if len(rnd) > 1 or ("approx" in mods and rnd) or bad:
        raise unsupported(inst, f"modifier(s) {sorted(bad or rnd)} not valid here")
    mode = next(iter(rnd)) if rnd else "rn"
    ftz, sat_ = "ftz" in mods, "sat" in mods
    n = {"abs": 1, "neg": 1, "rcp": 1, "sqrt": 1, "testp": 1, "fma": 3, "mad": 3}.get(op, 2)
    srcs = (t,) * n
    if op == "testp":
        kinds = mods & _ALLOWED["testp"]
        if len(kinds) != 1:
            raise unsupported(inst, "testp needs exactly one test")
        return Core(_testp(kinds.pop(), bits), srcs, ("pred",))
    if op in ("abs", "neg", "copysign"):
        return Core(_signop(op, bits, ftz), srcs, (t,))
    if op in ("min", "max"):
        return Core(_minmax(op == "max", bits, ftz, "NaN" in mods), srcs, (t,))
    kop = "fma" if op == "mad" else op
    if op == "div" and "approx" in mods:
        return Core(_wrap32(_div_approx, ftz, False), srcs, (t,))
    kernel = kernel32(kop, mode) if bits == 32 else kernel64(kop, mode)
    if bits == 32:
        rz = kernel32(kop, "rz") if ftz and mode != "rz" and "approx" not in mods else None
        return Core(_wrap32(kernel, ftz, sat_, rz), srcs, (t,))
    # NaN operands: the first one propagates, for sub the subtrahend's first (H200)
    order = (1, 0) if op == "sub" else tuple(range(n))
    return Core(_wrap64(kernel, order, ftz), srcs, (t,))


def _div_approx(a: Any, b: Any) -> Any:
    """div.approx.f32: a * (1/b); for 2^126 < |b| < 2^128 the result is 0 (NaN for a = inf).
    A subnormal divisor is scaled by 2^24 first and the product scaled back in f64, rounded
    once: where 1/b overflows (|b| < 2^-128) the result is the quotient, as on the H200
    (div.approx.f32(0x00800000, 0x00000001) = 2^23, 0 / 0x00000001 = 0; not inf/NaN), and for
    2^-128 <= |b| < 2^-126 it equals a * RN(1/b) as before."""
    ab = np.abs(b)
    sub = (ab > 0) & (ab < _FLT_MIN)
    if sub.any():
        rec = np.divide(F32(1.0), np.where(sub, b * F32(2.0 ** 24), b))
        r = (a.astype(F64) * rec.astype(F64) * np.where(sub, 2.0 ** 24, 1.0)).astype(F32)
    else:
        r = a * np.divide(F32(1.0), b)
    huge = (ab > F32(2.0 ** 126)) & (ab < np.inf)
    return np.where(huge, a * F32(0.0), r)


def _signop(op: str, bits: int, ftz: bool) -> Callable[..., Any]:
    ut = np.uint32 if bits == 32 else np.uint64
    sign = ut(1 << (bits - 1))
    mag = ut((1 << (bits - 1)) - 1)
    # abs.f32 / neg.f32 of a NaN give the canonical NaN (measured on an H200: fabsf and -x of
    # 0x7FC00000, 0x7F800001, 0xFFC12345, ... are all 0x7FFFFFFF); f64 abs/neg stay bit
    # operations (not measured)
    exp = ut(0x7F800000) if bits == 32 else ut(0x7FF0000000000000)
    canon = CANON_NAN32 if bits == 32 else None
    if op == "abs":
        def f_abs(s: Any) -> tuple[Any, ...]:
            a = flush32(s[0]) if ftz else s[0]
            r = a & mag
            return (r if canon is None else np.where(r > exp, canon, r),)
        return f_abs
    if op == "neg":
        def f_neg(s: Any) -> tuple[Any, ...]:
            a = flush32(s[0]) if ftz else s[0]
            r = a ^ sign
            return (r if canon is None else np.where((a & mag) > exp, canon, r),)
        return f_neg

    def f_copysign(s: Any) -> tuple[Any, ...]:
        a, b = s
        return ((a & sign) | (b & mag),)
    return f_copysign
