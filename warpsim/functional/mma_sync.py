"""Warp-level matrix multiply-accumulate with the ISA's fragment layouts: ``mma.sync.aligned``.

Follows: PTX ISA 9.x §9.7.14.5.14 (``mma.sync.aligned.shape.row.col{.satfinite}.dtype.atype
.btype.ctype d, a, b, c``: D = A x B + C with A M x K, B K x N, C and D M x N) and the
fragment layouts of §9.7.14.5 "Matrix Fragments for mma.m8n8k4" (.f64), "... mma.m8n8k16",
"... mma.m16n8k4", "... mma.m16n8k8", "... mma.m16n8k16", "... mma.m16n8k32": element ``i``
of a lane's fragment (elements numbered low to high over the registers, low bits of a
register first) is tile element (row, col) given as formulas of ``groupID = %laneid >> 2``
and ``threadID_in_group = %laneid % 4`` (the table ``_LAYOUTS`` spells each one).
Shapes and types (sm_80): m16n8k16 and m16n8k8 .f16 (.f16 or .f32 C/D) and .bf16 (.f32),
m16n8k8 and m16n8k4 .tf32 (.f32), m16n8k16 and m16n8k32 .s8/.u8 (.s32, ``.satfinite``),
m8n8k16 .s8/.u8 (.s32), m8n8k4 .f64.
Assumptions:
  [A] Arithmetic: the products and their sum with C are exact (float64; int64 for integers)
      and rounded once to the D type (round to nearest even); the ISA leaves the order and
      the intermediate precision of the floating-point sum unspecified, so the last bit may
      differ from a GPU. .tf32 inputs use their top 19 bits (the ISA ignores the low 13).
      Integer D wraps modulo 2**32, or clamps to the .s32 range with ``.satfinite``.
  [A] All 32 lanes execute the instruction (``.aligned``); a partial warp is a launch error.
  [A] Timing: one tensor-unit instruction, as ``wmma.mma`` (timing/static.py).
Not supported (``UnsupportedPTXError`` at load): m8n8k4 .f16 (Volta's quad-pair form), .f64
shapes other than m8n8k4, sub-byte and .b1 types, FP8 (.e4m3/.e5m2), ``mma.sp``, block scaling.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from warpsim.functional.wmma import (
    Fragment,
    fragment_regs,
    require_full_warp,
    result_bits,
    tile_operands,
)
from warpsim.ptx.ir import Instruction

__all__ = ["build_mma_sync", "fragment_coords"]

_Rule = Callable[[np.ndarray, np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]

_C4: _Rule = lambda g, t, i: (g + 8 * (i >> 1), 2 * t + (i & 1))   # noqa: E731  16x8 C/D
_C2: _Rule = lambda g, t, i: (g + 0 * i, 2 * t + i)                 # noqa: E731  8x8 C/D

_LAYOUTS: dict[tuple[str, str], tuple[_Rule, _Rule, _Rule]] = {
    # (shape, input family): (A rule, B rule, C/D rule)
    ("m16n8k16", "f16"): (lambda g, t, i: (g + 8 * ((i >> 1) & 1), 2 * t + (i & 1) + 8 * (i >> 2)),
                          lambda g, t, i: (2 * t + (i & 1) + 8 * (i >> 1), g + 0 * i), _C4),
    ("m16n8k8", "f16"): (lambda g, t, i: (g + 8 * (i >> 1), 2 * t + (i & 1)),
                         lambda g, t, i: (2 * t + i, g + 0 * i), _C4),
    ("m16n8k8", "tf32"): (lambda g, t, i: (g + 8 * (i & 1), t + 4 * (i >> 1)),
                          lambda g, t, i: (t + 4 * i, g + 0 * i), _C4),
    ("m16n8k4", "tf32"): (lambda g, t, i: (g + 8 * i, t + 0 * i),
                          lambda g, t, i: (t + 0 * i, g + 0 * i), _C4),
    ("m16n8k16", "i8"): (lambda g, t, i: (g + 8 * (i >> 2), 4 * t + (i & 3)),
                         lambda g, t, i: (4 * t + i, g + 0 * i), _C4),
    ("m16n8k32", "i8"): (lambda g, t, i: (g + 8 * ((i >> 2) & 1), 4 * t + (i & 3) + 16 * (i >> 3)),
                         lambda g, t, i: (4 * t + (i & 3) + 16 * (i >> 2), g + 0 * i), _C4),
    ("m8n8k16", "i8"): (lambda g, t, i: (g + 0 * i, 4 * t + i),
                        lambda g, t, i: (4 * t + i, g + 0 * i), _C2),
    ("m8n8k4", "f64"): (lambda g, t, i: (g + 0 * i, t + 0 * i),
                        lambda g, t, i: (t + 0 * i, g + 0 * i), _C2),
}
"""The ISA's row/col formulas of fragment element ``i`` of lane (groupID g, threadID_in_group
t); .bf16 uses the .f16 layouts, .u8 the .s8 ones."""

_DIMS = {"m16n8k16": (16, 8, 16), "m16n8k8": (16, 8, 8), "m16n8k4": (16, 8, 4),
         "m16n8k32": (16, 8, 32), "m8n8k16": (8, 8, 16), "m8n8k4": (8, 8, 4)}
_FAMILY = {"f16": "f16", "bf16": "f16", "tf32": "tf32", "s8": "i8", "u8": "i8", "f64": "f64"}
_ACC = {"f16": ("f16", "f32"), "bf16": ("f32",), "tf32": ("f32",), "s8": ("s32",),
        "u8": ("s32",), "f64": ("f64",)}
_BITS = {"f16": 16, "bf16": 16, "tf32": 32, "s8": 8, "u8": 8, "f64": 64, "f32": 32, "s32": 32}


def fragment_coords(shape: str, atype: str, operand: str) -> tuple[np.ndarray, np.ndarray]:
    """(row, col) arrays [32 lanes, elements] of fragment ``operand`` ("a", "b", "c")."""
    m, n, k = _DIMS[shape]
    ra, rb, rc = _LAYOUTS[(shape, _FAMILY[atype])]
    rows, cols = {"a": (m, k), "b": (k, n), "c": (m, n)}[operand]
    count = rows * cols // 32
    lane = np.arange(32)[:, None]
    i = np.arange(count)[None, :]
    rule = {"a": ra, "b": rb, "c": rc}[operand]
    r, c = rule(lane >> 2, lane & 3, i)
    return np.broadcast_to(r, (32, count)).copy(), np.broadcast_to(c, (32, count)).copy()


def _fragment(inst: Instruction, ctx: Any, op: Any, shape: str, atype: str, operand: str,
              typ: str) -> Fragment:
    m, n, k = _DIMS[shape]
    rows, cols = {"a": (m, k), "b": (k, n), "c": (m, n)}[operand]
    regs = fragment_regs(inst, op, ctx)
    frag = Fragment(inst, ctx, regs, rows, cols, _BITS[typ])
    r, c = fragment_coords(shape, atype, operand)
    if frag.element.shape != r.shape:
        raise ctx.error(inst, f"the {operand.upper()} fragment of mma.{shape}.{typ} holds "
                        f"{r.shape[1]} elements per lane, not {frag.element.shape[1]}")
    frag.element = r * cols + c
    return frag


def _check(inst: Instruction, ctx: Any) -> tuple[str, str, str, str, str]:
    mods = inst.mods
    shape = next((m for m in mods if m.startswith("m") and m[1:2].isdigit()), "")
    if "sync" not in mods or "aligned" not in mods:
        raise ctx.error(inst, "mma without .sync.aligned")
    if len(inst.types) != 4:
        raise ctx.error(inst, "mma needs .dtype.atype.btype.ctype")
    dt, at, bt, ct = inst.types
    fam_a, fam_b = _FAMILY.get(at), _FAMILY.get(bt)
    ok = (fam_a is not None and fam_a == fam_b and (at == bt or fam_a == "i8")
          and (shape, fam_a) in _LAYOUTS and dt in _ACC[at] and ct in _ACC[at])
    if not ok:
        done = ", ".join(f".{s}.{f}" for s, f in _LAYOUTS)
        raise ctx.error(inst, f"mma.{shape or '?'} of types .{dt}.{at}.{bt}.{ct}",
                        hint=f"supported shapes and input types: {done} (.bf16 as .f16, .u8 "
                             "as .s8); m8n8k4 .f16, sub-byte, .b1 and FP8 types are not")
    layouts = [m for m in mods if m in ("row", "col")]
    if layouts != ["row", "col"]:
        raise ctx.error(inst, f"mma.{shape} with layouts .{'.'.join(layouts) or '?'}",
                        hint="these shapes take .row.col (A row-major, B column-major)")
    extra = set(mods) - {"sync", "aligned", "row", "col", shape, "satfinite"}
    if extra or ("satfinite" in mods and fam_a != "i8"):
        raise ctx.error(inst, f"mma qualifier .{sorted(extra or {'satfinite'})[0]}")
    return shape, dt, at, bt, ct


def build_mma_sync(inst: Instruction, ctx: Any) -> Any:
    """The closure of an ``mma.sync.aligned`` instruction (see the module docstring)."""
    shape, dt, at, bt, ct = _check(inst, ctx)
    m, n, k = _DIMS[shape]
    if len(inst.dsts) != 1 or len(inst.srcs) != 3:
        raise ctx.error(inst, "mma needs the operands d, a, b, c")
    fd = _fragment(inst, ctx, inst.dsts[0], shape, at, "c", dt)
    fa = _fragment(inst, ctx, inst.srcs[0], shape, at, "a", at)
    fb = _fragment(inst, ctx, inst.srcs[1], shape, at, "b", bt)
    fc = _fragment(inst, ctx, inst.srcs[2], shape, at, "c", ct)
    sat = "satfinite" in inst.mods
    integer = _FAMILY[at] == "i8"

    def run(bs: Any, g: Any, pred: Any, exm: Any) -> None:
        require_full_warp(inst, bs, g, pred)
        nw = g.nw
        a, b, c = tile_operands(bs, g, (fa, fb, fc), (at, bt, ct), (m, n, k))
        if integer:
            d = np.matmul(a, b) + c
        else:
            d = np.matmul(a.astype(np.float64), b.astype(np.float64)) + c.astype(np.float64)
        fd.write(bs, g, result_bits(d.reshape(nw, m * n), dt, sat))
    return run
