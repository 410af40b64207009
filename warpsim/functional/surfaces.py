"""Surface loads and stores (``suld.b``, ``sust.b``) through the texture descriptor table.

Follows: PTX ISA 9.x §9.7.10.6-§9.7.10.8 (``suld.b.{1d,2d}{.v2,.v4}.{b8,b16,b32,b64}
{.trap,.clamp,.zero} d, [surf, {x, y}]`` and ``sust.b`` alike: the x coordinate counts bytes,
y counts rows; out-of-range accesses trap, clamp to the nearest element inside the surface,
or read zero and drop the store); CUDA's ``surf1Dread/Write`` and ``surf2Dread/Write`` on
``cudaSurfaceObject_t`` (``cudaCreateSurfaceObject`` over a ``cudaArray``).
Assumptions:
  [A] A surface handle is bound like a texture (``TextureDesc``: address, width in texels,
      height, row pitch, texel size); the element read or written is ``vec`` values of the
      instruction's size at byte ``x`` of row ``y``, which need not be texel-aligned.
  [A] ``.clamp`` clamps x to ``[0, row - size]`` and y to ``[0, height - 1]``; a ``.trap``
      violation fails the launch with a ``MemoryAccessError`` naming the coordinates, as a
      misaligned x does.
  [A] The timing model sees ``suld`` as a texture-path load and ``sust`` as a global store
      (``timing/static.py``), with the touched lines in the trace.
Deviations: formatted ``suld.p``/``sust.p``, 3-D and layered surfaces, ``sured`` and
``suq`` are refused with a message.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from warpsim.functional.access import BAD_ALIGN
from warpsim.functional.ldst import lanes_of
from warpsim.functional.memops import access_fault
from warpsim.functional.textures import trace_lines, write_lanes
from warpsim.ptx.ir import Instruction, OpKind

__all__ = ["build_surface"]

_SIZE = {"b8": 1, "b16": 2, "b32": 4, "b64": 8}
_MODES = ("trap", "clamp", "zero")


def _coords(bs: Any, f: Any, inst: Instruction, tidx: np.ndarray, x: np.ndarray,
            y: np.ndarray, total: int, mode: str) -> tuple[np.ndarray, np.ndarray]:
    """(byte offsets from texel (0, 0), in-range mask) after the boundary mode."""
    d = f.d
    row = d.width * d.texel_bytes
    bad = (x < 0) | (x > row - total) | (y < 0) | (y >= d.height)
    if mode == "trap" and bad.any():
        i = int(np.argmax(bad))
        addr = (d.address + y * d.row_bytes + x).astype(np.uint64)
        raise access_fault(bs, tidx, addr, i, 1, "surface",
                           f"x = {int(x[i])} bytes, y = {int(y[i])}: the surface is {row} "
                           f"bytes x {d.height} rows; surface x counts bytes")
    if mode == "clamp":
        x = np.clip(x, 0, row - total)
        y = np.clip(y, 0, d.height - 1)
        bad = np.zeros(x.shape, np.bool_)
    off = np.where(bad, 0, y * d.row_bytes + x)
    return off.astype(np.int64), ~bad


def build_surface(inst: Instruction, ctx: Any) -> Any:
    """The closure of a ``suld.b``/``sust.b`` instruction (see the module docstring)."""
    load = inst.opcode == "suld"
    mods = set(inst.mods)
    if inst.opcode not in ("suld", "sust") or "b" not in mods:
        raise ctx.error(inst, f"{inst.full_opcode}",
                        hint="only unformatted surface loads and stores (suld.b, sust.b)")
    geom = next((m for m in inst.mods if m in ("1d", "2d", "3d", "a1d", "a2d")), "")
    if geom not in ("1d", "2d"):
        raise ctx.error(inst, f"surface geometry .{geom or '?'}",
                        hint="1-D and 2-D surfaces are supported")
    mode = next((m for m in inst.mods if m in _MODES), "trap")
    size = _SIZE.get(inst.types[-1] if inst.types else "")
    if size is None:
        raise ctx.error(inst, "surface element type", hint="b8, b16, b32 or b64")
    vec = inst.vec
    total = size * vec
    surf = inst.srcs[0]
    if surf.kind is not OpKind.ADDRESS or surf.base is None or len(inst.srcs) < 2:
        raise ctx.error(inst, "surface operand", hint="[surface, {x[, y]}]")
    hop = surf.base
    handle: Any = hop.reg if hop.kind is OpKind.REG else hop.name
    cop = inst.srcs[1]
    coords = [c.reg for c in (cop.elems if cop.kind is OpKind.VECTOR else (cop,))
              if c.kind is OpKind.REG]
    if len(coords) < (2 if geom == "2d" else 1):
        raise ctx.error(inst, "surface coordinates must be registers")
    vals = inst.dsts[0] if load else inst.srcs[-1]
    vregs = [e.reg if e.kind is OpKind.REG else -1 for e in
             (vals.elems if vals.kind is OpKind.VECTOR else (vals,))]
    if len(vregs) != vec:
        raise ctx.error(inst, "the value count does not match the vector width")
    udt = np.dtype(f"<u{size}")

    def run(bs: Any, g: Any, pred: Any, exm: Any) -> None:
        tsel, tidx, seg, whole = lanes_of(g, pred)
        n = tidx.size
        hv = bs.regs[handle][tsel] if isinstance(handle, int) else None
        keys = [int(h) for h in np.unique(hv)] if hv is not None else [handle]
        x = bs.regs[coords[0]][tsel].view(np.int32).astype(np.int64)
        y = (bs.regs[coords[1]][tsel].view(np.int32).astype(np.int64) if geom == "2d"
             else np.zeros(n, np.int64))
        addrs = np.zeros(n, np.uint64)
        out = [np.zeros(n, udt) for _ in range(vec)]
        view = bs.memory.view(udt) if size > 1 else bs.memory.view(np.uint8)
        for key in keys:
            f = bs.texture(key, inst)
            pos = np.flatnonzero(hv == np.uint64(key)) if hv is not None else np.arange(n)
            off, ok = _coords(bs, f, inst, tidx[pos], x[pos], y[pos], total, mode)
            rel = np.int64(f.d.address - bs.memory.base) + off
            if (rel % size).any():
                i = int(np.argmax(rel % size != 0))
                raise access_fault(bs, tidx[pos], (rel + bs.memory.base).astype(np.uint64),
                                   i, BAD_ALIGN, "surface", f"{size}-byte elements")
            el = rel // size
            addrs[pos] = (rel + bs.memory.base).astype(np.uint64)
            for j in range(vec):
                if load:
                    out[j][pos] = np.where(ok, view[el + j], 0)
                elif vregs[j] >= 0:
                    v = bs.regs[vregs[j]][tsel][pos].astype(udt)
                    view[(el + j)[ok]] = v[ok]
        if load:
            write_lanes(bs, vregs, out, tsel, whole)
        if bs.tracer is not None:
            trace_lines(bs, addrs, seg)
    return run
