"""Vectorised semantics of the PTX integer arithmetic instructions (exact wrap-around).

Follows: PTX ISA 9.x §9.7.1 (add, sub, mul, mad, mul24, mad24, sad, div, rem, abs, neg, min,
max; add/sub/min/max on packed .u16x2/.s16x2, min/max.relu on .s16x2/.s32) and §9.7.2
(extended precision: add.cc, addc, sub.cc, subc, mad.cc, madc).
Division by zero (PTX: "unspecified, machine-specific") gives all ones for ``div`` and for
``rem`` (u32 0xFFFFFFFF, s32 -1, likewise for 64 bits), whatever the dividend and signedness:
measured on an NVIDIA H200 (validation/results/h200/int32_ops.json, int64_ops.json); [A] the
same for 16 bits (not measured). [A] ``div.s`` of INT_MIN by -1 wraps to INT_MIN and ``rem``
gives 0. [A] The carry flag of ``sub.cc``/``subc`` is the borrow, matching
PTX's definition ``subc: d = a - (b + CC.CF)``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from warpsim.functional.opdef import CC, I_OF, U_OF, Core, unsupported
from warpsim.ptx.ir import TYPE_BITS, Instruction

__all__ = ["INT_OPCODES", "build_int", "mul_hi64"]

INT_OPCODES = frozenset({"add", "sub", "mul", "mad", "mul24", "mad24", "sad", "div", "rem",
                         "abs", "neg", "min", "max", "addc", "subc", "madc"})
_ITYPES = frozenset({"u16", "u32", "u64", "s16", "s32", "s64"})
_M32 = np.uint64(0xFFFFFFFF)
_S32 = np.uint64(32)
_ONE32 = np.uint32(1)


def mul_hi64(a: Any, b: Any, signed: bool) -> Any:
    """High 64 bits of the 128-bit product of raw uint64 a, b (exact, via 32-bit halves)."""
    al, ah = a & _M32, a >> _S32
    bl, bh = b & _M32, b >> _S32
    ll, lh, hl, hh = al * bl, al * bh, ah * bl, ah * bh
    mid = (ll >> _S32) + (lh & _M32) + (hl & _M32)
    hi = hh + (lh >> _S32) + (hl >> _S32) + (mid >> _S32)
    if signed:  # two's complement correction: hi -= (a<0)*b + (b<0)*a (mod 2^64)
        hi = hi - np.where(a.view(np.int64) < 0, b, np.uint64(0))
        hi = hi - np.where(b.view(np.int64) < 0, a, np.uint64(0))
    return hi


def _mul_parts(bits: int, signed: bool, part: str) -> Callable[[Any, Any], Any]:
    """a*b in the requested part: lo (type width), hi, wide (double width raw bits)."""
    ut, it = U_OF[bits], I_OF[bits]
    if part == "lo":
        return lambda a, b: a * b
    if bits == 64:
        if part == "wide":
            raise KeyError("wide")
        return lambda a, b: mul_hi64(a, b, signed)
    wu, wi = U_OF[2 * bits], I_OF[2 * bits]
    sh = wu(bits)
    if signed:
        def wide_s(a: Any, b: Any) -> Any:
            return (a.view(it).astype(wi) * b.view(it).astype(wi)).view(wu)
        w = wide_s
    else:
        def wide_u(a: Any, b: Any) -> Any:
            return a.astype(wu) * b.astype(wu)
        w = wide_u
    if part == "wide":
        return w
    return lambda a, b: (w(a, b) >> sh).astype(ut)


def _sat32(x: Any) -> Any:
    """Clamp an int64 array to the s32 range and return raw u32 bits."""
    return np.clip(x, -(2**31), 2**31 - 1).astype(np.int32).view(np.uint32)


def _s64(a: Any) -> Any:
    return a.view(np.int32).astype(np.int64)


def _mul24(signed: bool, hi: bool) -> Callable[[Any, Any], Any]:
    def prod(a: Any, b: Any) -> Any:
        if signed:  # sign-extend the low 24 bits
            x = (a << np.uint32(8)).view(np.int32).astype(np.int64) >> 8
            y = (b << np.uint32(8)).view(np.int32).astype(np.int64) >> 8
        else:
            x = (a & np.uint32(0xFFFFFF)).astype(np.int64)
            y = (b & np.uint32(0xFFFFFF)).astype(np.int64)
        p = x * y  # at most 48 bits
        return ((p >> 16) if hi else p).astype(np.uint64).astype(np.uint32)
    return prod


def _divrem(bits: int, signed: bool, rem: bool) -> Callable[[Any], tuple[Any, ...]]:
    ut, it = U_OF[bits], I_OF[bits]
    ones = ut(~0 & ((1 << bits) - 1))
    one = ut(1)
    if bits <= 32:
        # trunc(RN64(x / y)) is the exact truncated quotient for |x|, |y| < 2^32: a quotient
        # just below an integer k is at least 2^-32 relative from it, RN64 errs by <= 2^-53.
        vt = it if signed else ut

        def fn_small(s: Any) -> tuple[Any, ...]:
            a, b = s
            x, y = a.view(vt), b.view(vt)
            q = np.trunc(x.astype(np.float64) / y.astype(np.float64))
            q = q.astype(np.int64).astype(ut)  # wraps INT_MIN / -1 back to INT_MIN
            zero = b == 0
            if rem:
                return (np.where(zero, ones, a - q * b),)
            return (np.where(zero, ones, q),)
        return fn_small

    def fn(s: Any) -> tuple[Any, ...]:
        a, b = s
        zero = b == 0
        bs = np.where(zero, one, b)
        if signed:
            x, y = a.view(it), bs.view(it)
            ovf = (x == np.iinfo(it).min) & (y == -1)
            y = np.where(ovf, it(1), y)
            q = x // y
            q = q + ((q * y != x) & ((x < 0) ^ (y < 0))).astype(it)  # floor -> trunc
            q = q.view(ut)
            if rem:
                r = (a - q * bs)
                r = np.where(ovf, ut(0), r)
                return (np.where(zero, ones, r),)
            return (np.where(zero, ones, q),)  # INT_MIN / -1: q = INT_MIN / 1 = INT_MIN
        if rem:
            return (np.where(zero, ones, a % bs),)
        return (np.where(zero, ones, a // bs),)
    return fn


def _packed16(op: str, signed: bool, relu: bool) -> Callable[[Any], tuple[Any, ...]]:
    """add/sub (wrapping) and min/max{.relu} on the two 16-bit halves of a .b32 (.u16x2 /
    .s16x2, PTX ISA 8.0+, sm_90)."""
    vt = np.int16 if signed else np.uint16

    def fn(s: Any) -> tuple[Any, ...]:
        a, b = s
        out = np.uint32(0)
        for sh in (np.uint32(0), np.uint32(16)):
            x = (a >> sh).astype(np.uint16)
            y = (b >> sh).astype(np.uint16)
            if op == "add":
                r = x + y
            elif op == "sub":
                r = x - y
            else:
                f = np.minimum if op == "min" else np.maximum
                r = f(x.view(vt), y.view(vt))
                if relu:
                    r = np.maximum(r, vt(0))
                r = r.view(np.uint16)
            out = out | (r.astype(np.uint32) << sh)
        return (out,)
    return fn


def build_int(inst: Instruction) -> Core:
    """Core for an integer arithmetic instruction (raises UnsupportedPTXError otherwise)."""
    op = inst.opcode
    if len(inst.types) == 1 and inst.types[0] in ("u16x2", "s16x2"):
        t = inst.types[0]
        relu = "relu" in inst.mods
        if op not in ("add", "sub", "min", "max") or set(inst.mods) - {"relu"} or (
                relu and (op in ("add", "sub") or t == "u16x2")):
            raise unsupported(inst, f"{op}.{t} is not a PTX form (add/sub/min/max take "
                              ".u16x2/.s16x2; .relu only min/max.s16x2)")
        return Core(_packed16(op, t == "s16x2", relu), ("b32", "b32"), ("b32",))
    if len(inst.types) != 1 or inst.types[0] not in _ITYPES:
        raise unsupported(inst, f"type .{'.'.join(inst.types)} not implemented for {op}",
                          "integer arithmetic takes .u16/.u32/.u64/.s16/.s32/.s64")
    t = inst.types[0]
    bits = TYPE_BITS[t]
    signed = t[0] == "s"
    ut, it = U_OF[bits], I_OF[bits]
    mods = set(inst.mods)
    cc = "cc" in mods
    part = [m for m in ("lo", "hi", "wide") if m in mods]
    satm = "sat" in mods

    def reject(extra: set[str]) -> None:
        if extra:
            raise unsupported(inst, f"modifier(s) {sorted(extra)} not valid for {op}.{t}")

    if op in ("add", "sub", "addc", "subc"):
        reject(mods - {"cc", "sat"})
        if satm and (t != "s32" or cc or op in ("addc", "subc")):
            reject({"sat"})
        if (cc or op in ("addc", "subc")) and bits == 16:
            reject({"cc"} if cc else {op})
        return _addsub(op, t, bits, cc, satm)
    if op in ("mul", "mad", "madc"):
        reject(mods - {"lo", "hi", "wide", "cc", "sat"})
        if len(part) != 1:
            raise unsupported(inst, f"{op} needs exactly one of .lo/.hi/.wide")
        p = part[0]
        if p == "wide" and bits == 64:
            reject({"wide"})
        if satm and not (op == "mad" and p == "hi" and t == "s32"):
            reject({"sat"})
        if (cc or op == "madc") and (bits == 16 or p == "wide"):
            reject({"cc"} if cc else {op})
        dt = (("s" if signed else "u") + str(2 * bits)) if p == "wide" else t
        prod = _mul_parts(bits, signed, p)
        if op == "mul":
            return Core(lambda s: (prod(s[0], s[1]),), (t, t), (dt,))
        return _mad(op, t, dt, prod, cc, satm)
    if op in ("mul24", "mad24"):
        reject(mods - {"lo", "hi", "sat"})
        if t not in ("u32", "s32") or len(part) != 1 or part[0] == "wide":
            raise unsupported(inst, f"{op} takes .lo/.hi with .u32/.s32")
        if satm and not (op == "mad24" and part[0] == "hi" and t == "s32"):
            reject({"sat"})
        p24 = _mul24(signed, part[0] == "hi")
        if op == "mul24":
            return Core(lambda s: (p24(s[0], s[1]),), (t, t), (t,))
        if satm:
            return Core(lambda s: (_sat32(_s64(p24(s[0], s[1])) + _s64(s[2])),), (t,) * 3, (t,))
        return Core(lambda s: (p24(s[0], s[1]) + s[2],), (t,) * 3, (t,))
    reject(mods - ({"relu"} if op in ("min", "max") and t == "s32" else set()))
    if op in ("div", "rem"):
        return Core(_divrem(bits, signed, op == "rem"), (t, t), (t,))
    if op == "sad":
        def f_sad(s: Any) -> tuple[Any, ...]:
            a, b, c = s
            lt = (a.view(it) < b.view(it)) if signed else (a < b)
            return (c + np.where(lt, b - a, a - b),)
        return Core(f_sad, (t,) * 3, (t,))
    if op == "abs":
        if not signed:
            raise unsupported(inst, "abs takes a signed type")
        return Core(lambda s: (np.abs(s[0].view(it)).view(ut),), (t,), (t,))
    if op == "neg":
        if not signed:
            raise unsupported(inst, "neg takes a signed type")
        return Core(lambda s: (ut(0) - s[0],), (t,), (t,))
    if op in ("min", "max"):
        f = np.minimum if op == "min" else np.maximum
        if t == "s32" and mods == {"relu"}:  # min/max.relu.s32: negative results become 0
            return Core(lambda s: (np.maximum(f(s[0].view(it), s[1].view(it)), it(0)).view(ut),),
                        (t, t), (t,))
        if signed:
            return Core(lambda s: (f(s[0].view(it), s[1].view(it)).view(ut),), (t, t), (t,))
        return Core(lambda s: (f(s[0], s[1]),), (t, t), (t,))
    raise unsupported(inst, f"opcode {op} is not an integer arithmetic instruction")


def _addsub(op: str, t: str, bits: int, cc: bool, satm: bool) -> Core:
    sub = op in ("sub", "subc")
    cin = op in ("addc", "subc")
    srcs = (t, t, CC) if cin else (t, t)
    dsts = (t, CC) if cc else (t,)
    if satm:
        if sub:
            return Core(lambda s: (_sat32(_s64(s[0]) - _s64(s[1])),), srcs, dsts)
        return Core(lambda s: (_sat32(_s64(s[0]) + _s64(s[1])),), srcs, dsts)
    if not cin and not cc:
        f = np.subtract if sub else np.add
        return Core(lambda s: (f(s[0], s[1]),), srcs, dsts)
    ut = U_OF[bits]

    def fn(s: Any) -> tuple[Any, ...]:
        a, b = s[0], s[1]
        if sub:
            d = a - b
            flag = a < b
            if cin:
                c = s[2].astype(ut)
                flag = flag | (d < c)
                d = d - c
        else:
            d = a + b
            flag = d < a
            if cin:
                d2 = d + s[2].astype(ut)
                flag = flag | (d2 < d)
                d = d2
        return (d, flag.astype(np.uint32)) if cc else (d,)
    return Core(fn, srcs, dsts, reads_cc=cin, writes_cc=cc)


def _mad(op: str, t: str, dt: str, prod: Callable[[Any, Any], Any], cc: bool,
         satm: bool) -> Core:
    cin = op == "madc"
    srcs = (t, t, dt, CC) if cin else (t, t, dt)
    dsts = (dt, CC) if cc else (dt,)
    if satm:  # mad.hi.sat.s32
        return Core(lambda s: (_sat32(_s64(prod(s[0], s[1])) + _s64(s[2])),), srcs, dsts)
    if not cin and not cc:
        return Core(lambda s: (prod(s[0], s[1]) + s[2],), srcs, dsts)

    def fn(s: Any) -> tuple[Any, ...]:
        p = prod(s[0], s[1])
        d = p + s[2]
        flag = d < p
        if cin:
            d2 = d + s[3].astype(d.dtype)
            flag = flag | (d2 < d)
            d = d2
        return (d, flag.astype(np.uint32)) if cc else (d,)
    return Core(fn, srcs, dsts, reads_cc=cin, writes_cc=cc)
