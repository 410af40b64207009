"""Vectorised semantics of the PTX SIMD video instructions (vop4 / vop2 on bytes / half-words).

Follows: PTX ISA 9.x §9.7.16.2 (vadd4, vsub4, vavrg4, vabsdiff4, vmin4, vmax4 and the two-way
vadd2 ... vmax2): ``vop4.dtype.atype.btype{.sat} d, a, b, c`` and
``vop4.dtype.atype.btype.add d, a, b, c``. With the default selectors (``.asel`` = .b3210 /
.h10, ``.bsel`` = .b7654 / .h32) lane i of a and of b is byte (half-word) i of the operand,
sign- or zero-extended per ``.atype`` / ``.btype``; the lane result t[i] is a + b, a - b,
the average rounded up for non-negative sums (``(a + b + 1) >> 1``, else ``(a + b) >> 1``),
|a - b|, min or max, clamped to the 8-bit (16-bit) range of ``.dtype`` under ``.sat``. The
merge form writes the low 8 (16) bits of t[i] into lane i of d (default mask .b3210 / .h10:
every lane, so c is not read); ``.add`` returns c + sum t[i] modulo 2^32.
These are what CUDA's __vadd4, __vabsdiffu4, __vsads4, ... become (checked bit for bit on an
H200: validation/results/h200/int32_ops.json, k_int32_simd).
Gaps: operand selectors and destination masks (``a.b0123``, ``d.b10``) are not parsed (the
parser reports a syntax error), so only the default lanes are modelled; vset2/vset4 and the
scalar video instructions (vadd, vshl, vmad, ...) are not implemented.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from warpsim.functional.opdef import Core, unsupported
from warpsim.ptx.ir import Instruction

__all__ = ["VIDEO_OPCODES", "build_video"]

_OPS = ("vadd", "vsub", "vavrg", "vabsdiff", "vmin", "vmax")
VIDEO_OPCODES = frozenset({f"{o}{n}" for o in _OPS for n in (2, 4)})
_M32 = np.int64(0xFFFFFFFF)


def _lane(x: Any, i: int, bits: int, signed: bool) -> Any:
    """Lane i (bits wide) of uint32 x as int64, sign-extended when ``signed``."""
    v = ((x >> np.uint32(i * bits)) & np.uint32((1 << bits) - 1)).astype(np.int64)
    if signed:
        v = v - ((v >> (bits - 1)) << bits)
    return v


def _video(op: str, bits: int, sd: bool, sa: bool, sb: bool, sat: bool,
           acc: bool) -> Callable[[Any], tuple[Any, ...]]:
    n = 32 // bits
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if sd else (0, (1 << bits) - 1)
    lane_mask = np.int64((1 << bits) - 1)

    def lane_op(x: Any, y: Any) -> Any:
        if op == "vadd":
            return x + y
        if op == "vsub":
            return x - y
        if op == "vavrg":
            t = x + y
            return np.where(t >= 0, (t + 1) >> 1, t >> 1)
        if op == "vabsdiff":
            return np.abs(x - y)
        return np.minimum(x, y) if op == "vmin" else np.maximum(x, y)

    def fn(s: Any) -> tuple[Any, ...]:
        a, b, c = s
        out = c.astype(np.int64) if acc else np.int64(0)
        for i in range(n):
            t = lane_op(_lane(a, i, bits, sa), _lane(b, i, bits, sb))
            if sat:
                t = np.clip(t, lo, hi)
            out = out + t if acc else out | ((t & lane_mask) << (i * bits))
        return ((out & _M32).astype(np.uint32),)
    return fn


def build_video(inst: Instruction) -> Core:
    """Core for a SIMD video instruction (raises UnsupportedPTXError for other forms)."""
    op = inst.opcode
    types = inst.types
    mods = set(inst.mods)
    if len(types) != 3 or any(t not in ("u32", "s32") for t in types):
        raise unsupported(inst, f"{op} takes .dtype.atype.btype from .u32/.s32")
    if mods - {"sat", "add"} or mods == {"sat", "add"}:
        raise unsupported(inst, f"modifier(s) {sorted(mods)} not valid for {op}",
                          "vop2/vop4 take .sat or .add (default selectors and mask only)")
    dt, at, bt = types
    fn = _video(op[:-1], 32 // int(op[-1]), dt == "s32", at == "s32", bt == "s32",
                "sat" in mods, "add" in mods)
    return Core(fn, (at, bt, dt), (dt,))
