"""Vectorised semantics of the PTX comparison and selection instructions.

Follows: PTX ISA 9.x §9.7.7 (setp, set, selp, slct) and Table 24-26 (integer, bit-size and
floating-point comparison operators). Ordered float comparisons are false when either operand
is NaN (``ne`` included); the ``u`` forms are true then. ``.ftz`` flushes f32 (and f16)
subnormal operands to zero before comparing. ``setp.f16`` is implemented, ``setp.f16x2`` not.
With a boolean combine ``setp.cmp.op p|q, a, b, c`` gives
``p = (a cmp b) op c`` and ``q = !(a cmp b) op c``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from warpsim.functional.fp_rounding import flush32
from warpsim.functional.half_ops import flush16
from warpsim.functional.opdef import I_OF, Core, unsupported
from warpsim.ptx.ir import TYPE_BITS, Instruction

__all__ = ["COMPARE_OPCODES", "build_compare", "comparator"]


class _InvalidComparison(KeyError):
    """A comparison operator not defined for the operand type."""

COMPARE_OPCODES = frozenset({"setp", "set", "selp", "slct"})
_ORD = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal,
        "gt": np.greater, "ge": np.greater_equal}
_UNS = {"lo": np.less, "ls": np.less_equal, "hi": np.greater, "hs": np.greater_equal}
_FLT_U = {"equ": "ne", "neu": "eq", "ltu": "ge", "leu": "gt", "gtu": "le", "geu": "lt"}
_BOOL = {"and": np.logical_and, "or": np.logical_or, "xor": np.logical_xor}
_INT = frozenset({"u16", "u32", "u64", "s16", "s32", "s64"})
_BIT = frozenset({"b16", "b32", "b64"})
_FLOAT_T: dict[str, Any] = {"f16": np.float16, "f32": np.float32, "f64": np.float64}


def comparator(cmp: str, t: str, ftz: bool) -> Callable[[Any, Any], Any]:
    """Vectorised ``a cmp b`` on raw bits of type ``t`` (KeyError if the pair is invalid)."""
    if t in _BIT:
        if cmp not in ("eq", "ne"):
            raise _InvalidComparison(cmp)
        return _ORD[cmp]
    if t in _INT:
        if t[0] == "s":
            if cmp not in _ORD:
                raise _InvalidComparison(cmp)
            f, it = _ORD[cmp], I_OF[TYPE_BITS[t]]
            return lambda a, b: f(a.view(it), b.view(it))
        if cmp not in _ORD and cmp not in _UNS:
            raise _InvalidComparison(cmp)
        return _ORD.get(cmp) or _UNS[cmp]
    if t not in _FLOAT_T:
        raise _InvalidComparison(t)
    ft = _FLOAT_T[t]
    fl = (flush16 if t == "f16" else flush32) if ftz else (lambda x: x)

    def views(a: Any, b: Any) -> tuple[Any, Any]:
        return fl(a).view(ft), fl(b).view(ft)
    if cmp in _ORD:
        g = _ORD[cmp]
        if cmp == "ne":  # ordered: false when either is NaN
            return lambda a, b: _ne_ordered(*views(a, b))
        return lambda a, b: g(*views(a, b))
    if cmp in _FLT_U:
        h = _ORD[_FLT_U[cmp]]
        if cmp == "neu":
            return lambda a, b: np.logical_not(np.equal(*views(a, b)))
        return lambda a, b: np.logical_not(h(*views(a, b))) | _unord(*views(a, b))
    if cmp == "num":
        return lambda a, b: _num(*views(a, b))
    if cmp == "nan":
        return lambda a, b: _unord(*views(a, b))
    raise _InvalidComparison(cmp)


def _ne_ordered(x: Any, y: Any) -> Any:
    return (x != y) & (x == x) & (y == y)


def _num(x: Any, y: Any) -> Any:
    return (x == x) & (y == y)


def _unord(x: Any, y: Any) -> Any:
    return (x != x) | (y != y)


def _parse_cmp(inst: Instruction, t: str, allowed_extra: set[str]) -> tuple[Any, str]:
    mods = set(inst.mods)
    cmps = [m for m in inst.mods if m in _ORD or m in _UNS or m in _FLT_U or m in
            ("num", "nan")]
    bools = mods & set(_BOOL)
    ftz = "ftz" in mods
    extra = mods - set(cmps) - bools - {"ftz"} - allowed_extra
    if len(cmps) != 1 or len(bools) > 1 or extra or (ftz and t not in ("f16", "f32")):
        raise unsupported(inst, "bad comparison modifiers")
    try:
        f = comparator(cmps[0], t, ftz)
    except _InvalidComparison:
        raise unsupported(inst, f"comparison .{cmps[0]} is not defined for .{t}") from None
    return f, (next(iter(bools)) if bools else "")


def build_compare(inst: Instruction) -> Core:
    """Core for setp / set / selp / slct (raises UnsupportedPTXError otherwise)."""
    op = inst.opcode
    if op == "setp":
        if len(inst.types) != 1:
            raise unsupported(inst, "setp takes one type")
        t = inst.types[0]
        f, bop = _parse_cmp(inst, t, set())
        two = len(inst.dsts) == 2
        dsts = ("pred", "pred") if two else ("pred",)
        if not bop:
            if len(inst.srcs) != 2:
                raise unsupported(inst, "setp without a boolean operator takes two sources")
            if two:
                return Core(lambda s: _pq(f(s[0], s[1])), (t, t), dsts)
            return Core(lambda s: (f(s[0], s[1]),), (t, t), dsts)
        g = _BOOL[bop]

        def fn(s: Any) -> tuple[Any, ...]:
            r = f(s[0], s[1])
            if two:
                return g(r, s[2]), g(np.logical_not(r), s[2])
            return (g(r, s[2]),)
        return Core(fn, (t, t, "pred"), dsts)
    if op == "set":
        if len(inst.types) != 2 or inst.types[0] not in ("u32", "s32", "f32"):
            raise unsupported(inst, "set takes .u32/.s32/.f32 destination and a source type")
        dt, st = inst.types
        f, bop = _parse_cmp(inst, st, set())
        true = np.uint32(0x3F800000 if dt == "f32" else 0xFFFFFFFF)
        zero = np.uint32(0)
        if bop:
            g = _BOOL[bop]
            return Core(lambda s: (np.where(g(f(s[0], s[1]), s[2]), true, zero),),
                        (st, st, "pred"), (dt,))
        return Core(lambda s: (np.where(f(s[0], s[1]), true, zero),), (st, st), (dt,))
    if op == "selp":
        if inst.mods or len(inst.types) != 1 or inst.types[0] not in (
                _INT | _BIT | {"f32", "f64"}):
            raise unsupported(inst, "selp takes one integer, bit or f32/f64 type")
        t = inst.types[0]
        return Core(lambda s: (np.where(s[2], s[0], s[1]),), (t, t, "pred"), (t,))
    if op == "slct":
        if len(inst.types) != 2 or inst.types[1] not in ("s32", "f32") or (
                inst.types[0] not in _INT | _BIT | {"f32", "f64"}):
            raise unsupported(inst, "slct takes .dtype.s32 or .dtype.f32")
        dt, ct = inst.types
        mods = set(inst.mods)
        if mods - {"ftz"} or (mods and ct != "f32"):
            raise unsupported(inst, "slct accepts only .ftz (with .f32)")
        if ct == "s32":
            return Core(lambda s: (np.where(s[2].view(np.int32) >= 0, s[0], s[1]),),
                        (dt, dt, ct), (dt,))
        fl = flush32 if mods else (lambda x: x)
        return Core(lambda s: (np.where(fl(s[2]).view(np.float32) >= 0, s[0], s[1]),),
                    (dt, dt, ct), (dt,))
    raise unsupported(inst, f"opcode {op} is not a compare/select instruction")


def _pq(r: Any) -> tuple[Any, Any]:
    return r, np.logical_not(r)
