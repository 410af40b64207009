"""Warp matrix instructions on the tensor cores: ``wmma.load``, ``wmma.store``, ``wmma.mma``.

Follows: PTX ISA 9.x §9.7.14 ("Warp Level Matrix Multiply-Accumulate Instructions":
``wmma.load.{a,b,c}``, ``wmma.store.d``, ``wmma.mma`` with shapes m16n16k16, m32n8k16,
m8n32k16 (.f16, .bf16, .s8, .u8), m16n16k8 (.tf32) and m8n8k4 (.f64); D = A x B + C with A
M x K, B K x N, C and D M x N); CUDA's ``nvcuda::wmma`` API (``mma.h``).

Assumptions:
  [A] Fragment layout. The ISA documents how fragment elements map to lanes, but CUDA states
      the mapping is unspecified and programs use fragments only through load / store / mma
      / fill and element-wise loops over ``x[i]``, which give the same result under any
      layout that is a fixed permutation of the tile. warpsim's: slot ``s`` of lane ``t`` (a
      fragment of ``S`` element slots per lane; a register holds ``bits/element_bits`` slots,
      low bits first) holds tile element ``(t * S + s) mod (rows * cols)`` in row-major order;
      A/B fragments of m16n16k16 .f16 hold each element twice, as the hardware's do.
  [A] Arithmetic: products of .f16/.bf16/.tf32 inputs accumulate in float32 (then round to
      the .f16 accumulator type where D is .f16); .tf32 inputs use their top 19 bits (the
      low 13 mantissa bits are ignored, as the ISA says); integers accumulate exactly in 32
      bits (wrapping; ``.satfinite`` clamps); .f64 in float64. The hardware's summation order
      is unspecified: float results may differ from it in the last bits.
  [A] All 32 lanes of the warp execute the instruction (``.aligned``); the address and the
      stride are taken from lane 0 (the ISA requires them uniform across the warp).
  [A] Timing: a load or store is one memory instruction whose trace footprint is the tile's
      ``rows * cols`` element addresses (sectors, lines, shared-bank degree as for ``ld``);
      ``wmma.mma`` is one tensor-unit instruction.
Deviations: sub-byte (.s4/.u4/.b1) shapes are refused with a message.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from warpsim.functional.ldst import _address, _space, lanes_of
from warpsim.functional.memops import load_parts, resolve_parts, store_parts, trace_access
from warpsim.functional.simt_stack import own
from warpsim.ptx.ir import TYPE_BITS, Instruction, Operand, OpKind

__all__ = ["Fragment", "build_wmma", "element_values", "fragment_regs", "require_full_warp",
           "result_bits", "tile_operands"]

_SHAPES = {"m16n16k16": (16, 16, 16), "m32n8k16": (32, 8, 16), "m8n32k16": (8, 32, 16),
           "m16n16k8": (16, 16, 8), "m8n8k4": (8, 8, 4)}
_INPUT_BITS = {"f16": 16, "bf16": 16, "tf32": 32, "s8": 8, "u8": 8, "f64": 64}
_ACC_BITS = {"f16": 16, "f32": 32, "s32": 32, "f64": 64}
_U = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}


def _shape(inst: Instruction, ctx: Any) -> tuple[int, int, int]:
    for m in inst.mods:
        if m in _SHAPES:
            return _SHAPES[m]
        if re.fullmatch(r"m\d+n\d+k\d+", m):
            raise ctx.error(inst, f"wmma shape .{m}",
                            hint="supported: " + ", ".join(f".{s}" for s in _SHAPES))
    raise ctx.error(inst, "wmma without a shape")


def fragment_regs(inst: Instruction, op: Operand, ctx: Any) -> list[int]:
    """The registers of a fragment operand (a ``{...}`` list or one register)."""
    elems = op.elems if op.kind is OpKind.VECTOR else (op,)
    if any(e.kind is not OpKind.REG for e in elems):
        raise ctx.error(inst, "a wmma fragment must be a list of registers")
    return [e.reg for e in elems]


class Fragment:
    """Slot <-> tile-element map of one fragment: ``n_regs`` registers of ``reg_bits``, each
    holding ``reg_bits // bits`` elements of a ``rows x cols`` tile."""

    def __init__(self, inst: Instruction, ctx: Any, regs: list[int], rows: int, cols: int,
                 bits: int) -> None:
        reg_bits = {TYPE_BITS.get(ctx.reg_types[r], 0) for r in regs}
        if len(reg_bits) != 1 or next(iter(reg_bits)) < bits:
            raise ctx.error(inst, "wmma fragment registers of mixed or too narrow types")
        self.regs, self.bits, self.reg_bits = regs, bits, next(iter(reg_bits))
        self.per_reg = self.reg_bits // bits
        slots = len(regs) * self.per_reg
        n = rows * cols
        if (32 * slots) % n:
            raise ctx.error(inst, f"a fragment of {len(regs)} registers does not hold a "
                            f"{rows}x{cols} tile")
        e = (np.arange(32)[:, None] * slots + np.arange(slots)[None, :]) % n
        self.element = e                     # [32, slots] tile element (row-major index)
        self.n = n

    def read(self, bs: Any, g: Any) -> np.ndarray:
        """[n_warps, rows*cols] element bits of the fragment registers."""
        u = _U[self.bits]
        slots = []
        for r in self.regs:
            v = np.ascontiguousarray(g.warp_view(bs.regs[r])).view(_U[self.reg_bits])
            for j in range(self.per_reg):
                slots.append(((v >> (j * self.bits)) & ((1 << self.bits) - 1)).astype(u)
                             if self.per_reg > 1 else v.astype(u))
        frag = np.stack(slots, axis=2)       # [nw, 32, slots]
        tile = np.zeros((frag.shape[0], self.n), u)
        tile[:, self.element.reshape(-1)] = frag.reshape(frag.shape[0], -1)
        return tile

    def write(self, bs: Any, g: Any, tile: np.ndarray) -> None:
        """Set the fragment registers from [n_warps, rows*cols] element bits."""
        frag = tile[:, self.element]         # [nw, 32, slots]
        ru = _U[self.reg_bits]
        for k, r in enumerate(self.regs):
            v = np.zeros(frag.shape[:2], ru)
            for j in range(self.per_reg):
                v |= frag[:, :, k * self.per_reg + j].astype(ru) << ru(j * self.bits)
            flat = v.reshape(-1)
            if g.allb:
                bs.regs[r] = flat.astype(bs.regs[r].dtype, copy=True)
            else:
                own(bs.regs, r)[g.act] = flat.astype(bs.regs[r].dtype)


def require_full_warp(inst: Instruction, bs: Any, g: Any, pred: Any) -> None:
    """Raise ``LaunchError`` unless every lane of every warp executes ``inst`` (.aligned)."""
    if (pred is not None and not bool(np.all(pred))) or not g.full or \
            not bool((g.masks == np.uint32(0xFFFFFFFF)).all()):
        from warpsim.errors import LaunchError

        raise LaunchError(bs.prog.name, f"{inst.full_opcode} at line {inst.line} needs all "
                          "32 lanes of the warp (.aligned): it was executed by a part of one",
                          hint="execute warp matrix instructions outside divergent code")


def _dims(which: str, m: int, n: int, k: int) -> tuple[int, int]:
    return {"a": (m, k), "b": (k, n)}.get(which, (m, n))


def _footprint(bs: Any, g: Any, inst: Instruction, base: int, off: int, stride: Any,
               rows: int, cols: int, col_major: bool, esize: int
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(batch thread per element, element addresses, per-warp segments) of a tile."""
    _, tidx, _, _ = lanes_of(g, None)
    nw = g.nw
    lane0 = tidx.reshape(nw, 32)
    addr = (np.ascontiguousarray(g.warp_view(bs.regs[base]))[:, 0].astype(np.uint64)
            if base >= 0 else np.zeros(nw, np.uint64))
    ld = (np.ascontiguousarray(g.warp_view(bs.regs[stride]))[:, 0].astype(np.int64)
          if isinstance(stride, int) else np.full(nw, stride, np.int64))
    r = np.repeat(np.arange(rows), cols)
    c = np.tile(np.arange(cols), rows)
    elems = (r[None, :] + c[None, :] * ld[:, None]) if col_major else \
        (r[None, :] * ld[:, None] + c[None, :])
    a = addr[:, None] + np.uint64(off & 0xFFFFFFFFFFFFFFFF) + \
        (elems * esize).astype(np.uint64)
    t = lane0[:, np.arange(rows * cols) % 32]
    seg = np.arange(nw + 1, dtype=np.int64) * rows * cols
    return t.reshape(-1), a.reshape(-1), seg


def _build_ldst(inst: Instruction, ctx: Any) -> Any:
    is_load = inst.mods[0] == "load"
    which = inst.mods[1] if len(inst.mods) > 1 else ""
    if which not in (("a", "b", "c") if is_load else ("d",)):
        raise ctx.error(inst, f"wmma.{inst.mods[0]}.{which}")
    m, n, k = _shape(inst, ctx)
    typ = inst.types[-1] if inst.types else ""
    bits = (_INPUT_BITS if which in ("a", "b") else _ACC_BITS).get(typ)
    if bits is None:
        raise ctx.error(inst, f"wmma.{inst.mods[0]}.{which} of type .{typ or '?'}",
                        hint="sub-byte (.s4/.u4/.b1) fragments are not supported")
    rows, cols = _dims(which, m, n, k)
    col_major = "col" in inst.mods
    frag_op = inst.dsts[0] if is_load else inst.srcs[1]
    frag = Fragment(inst, ctx, fragment_regs(inst, frag_op, ctx), rows, cols, bits)
    base, off, sym_space = _address(inst, inst.srcs[0], ctx)
    space = _space(inst, ctx, sym_space)
    sop = inst.srcs[1 if is_load else 2] if len(inst.srcs) > (1 if is_load else 2) else None
    if sop is None:
        stride: Any = cols if not col_major else rows
    elif sop.kind is OpKind.REG:
        stride = sop.reg
    elif sop.kind is OpKind.IMM:
        stride = int(sop.value)
    else:
        raise ctx.error(inst, "the wmma stride must be a register or an immediate")
    esize = bits // 8
    shift = esize.bit_length() - 1

    def run(bs: Any, g: Any, pred: Any, exm: Any) -> None:
        require_full_warp(inst, bs, g, pred)
        tidx, addr, seg = _footprint(bs, g, inst, base, off, stride, rows, cols, col_major,
                                     esize)
        parts = resolve_parts(bs, space, tidx, addr, 0, esize, shift)
        if is_load:
            vals = load_parts(bs, parts, addr.size, esize, 1)[0]
            frag.write(bs, g, vals.reshape(g.nw, rows * cols))
        else:
            store_parts(bs, parts, [frag.read(bs, g).reshape(-1)], esize)
        if bs.tracer is not None:
            trace_access(bs, space, tidx, addr, 0, esize, seg, parts)
    return run


def element_values(bits: np.ndarray, typ: str) -> np.ndarray:
    """Element bits of PTX type ``typ`` as float32/float64 (int64 for integers)."""
    if typ == "f16":
        return bits.view(np.float16).astype(np.float32)
    if typ == "bf16":
        return (bits.astype(np.uint32) << np.uint32(16)).view(np.float32)
    if typ == "tf32":
        return (bits & np.uint32(0xFFFFE000)).view(np.float32)
    if typ == "f32":
        return bits.view(np.float32)
    if typ == "f64":
        return bits.view(np.float64)
    if typ in ("s8", "s32"):
        return bits.view(np.int8 if typ == "s8" else np.int32).astype(np.int64)
    return bits.astype(np.int64)             # u8


def result_bits(d: np.ndarray, typ: str, sat: bool) -> np.ndarray:
    """D values (float64 or int64) to the bits of type ``typ`` (shared with mma.sync)."""
    if typ == "f16":
        return d.astype(np.float16).view(np.uint16)
    if typ == "f32":
        return d.astype(np.float32).view(np.uint32)
    if typ == "f64":
        return d.astype(np.float64).view(np.uint64)
    if sat:
        d = np.clip(d, -(1 << 31), (1 << 31) - 1)
    return (d & 0xFFFFFFFF).astype(np.uint32)


def _build_mma(inst: Instruction, ctx: Any) -> Any:
    m, n, k = _shape(inst, ctx)
    types = inst.types
    if len(types) == 2:                      # .dtype.ctype with .f16 inputs
        dt, at, bt, ct = types[0], "f16", "f16", types[1]
    elif len(types) == 4:
        dt, at, bt, ct = types
    else:
        raise ctx.error(inst, "wmma.mma needs .dtype.ctype or .dtype.atype.btype.ctype")
    if at not in _INPUT_BITS or bt != at or dt not in _ACC_BITS or ct not in _ACC_BITS:
        raise ctx.error(inst, f"wmma.mma of types .{dt}.{at}.{bt}.{ct}",
                        hint="sub-byte (.s4/.u4/.b1) fragments are not supported")
    fd = Fragment(inst, ctx, fragment_regs(inst, inst.dsts[0], ctx), m, n, _ACC_BITS[dt])
    fa = Fragment(inst, ctx, fragment_regs(inst, inst.srcs[0], ctx), m, k, _INPUT_BITS[at])
    fb = Fragment(inst, ctx, fragment_regs(inst, inst.srcs[1], ctx), k, n, _INPUT_BITS[bt])
    fc = Fragment(inst, ctx, fragment_regs(inst, inst.srcs[2], ctx), m, n, _ACC_BITS[ct])
    sat = "satfinite" in inst.mods
    integer = at in ("s8", "u8")

    def run(bs: Any, g: Any, pred: Any, exm: Any) -> None:
        require_full_warp(inst, bs, g, pred)
        nw = g.nw
        a, b, c = tile_operands(bs, g, (fa, fb, fc), (at, bt, ct), (m, n, k))
        if integer:
            d = np.matmul(a, b) + c
        elif at == "f64":
            d = np.matmul(a, b) + c
        else:
            d = np.matmul(a, b, dtype=np.float32) + c.astype(np.float32)
        fd.write(bs, g, result_bits(d.reshape(nw, m * n), dt, sat))
    return run


def tile_operands(bs: Any, g: Any, frags: tuple[Any, Any, Any], types: tuple[str, str, str],
                  dims: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The A (m x k), B (k x n) and C (m x n) tiles of every warp of group ``g`` as element
    values, from their fragments (``wmma.mma`` and ``mma.sync``)."""
    (fa, fb, fc), (at, bt, ct), (m, n, k) = frags, types, dims
    nw = g.nw
    return (element_values(fa.read(bs, g), at).reshape(nw, m, k),
            element_values(fb.read(bs, g), bt).reshape(nw, k, n),
            element_values(fc.read(bs, g), ct).reshape(nw, m, n))


def build_wmma(inst: Instruction, ctx: Any) -> Any:
    """The closure of a ``wmma`` instruction (see the module docstring)."""
    kind = inst.mods[0] if inst.mods else ""
    if kind in ("load", "store"):
        return _build_ldst(inst, ctx)
    if kind == "mma":
        return _build_mma(inst, ctx)
    raise ctx.error(inst, f"wmma.{kind or '?'}")
