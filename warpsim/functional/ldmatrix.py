"""Warp-collective 8x8 matrix moves between shared memory and registers: ``ldmatrix``,
``stmatrix``, and the register transpose ``movmatrix``.

Follows: PTX ISA 9.x §9.7.14.5.15 (``ldmatrix.sync.aligned.m8n8.num{.trans}{.shared{::cta}}
.b16 r, [p]``: .x1/.x2/.x4 matrices; lanes 8i..8i+7 give the addresses of the eight 16-byte
rows of matrix i (.x1: lanes 0-7 only, .x2: lanes 0-15); lane l receives in register r_i the
two elements (row groupID, cols 2*threadID_in_group and +1) of matrix i, the lower column in
the lower half, groupID = l >> 2, threadID_in_group = l % 4; ``.trans`` delivers the
transposed matrix), §9.7.14.5.16 (``stmatrix``, sm_90: the same layouts, storing), and
§9.7.14.5.17 (``movmatrix.sync.aligned.m8n8.trans.b16 d, a``: ``a`` holds the row fragment of
an 8x8 matrix as above, ``d`` the same fragment of its transpose).
Assumptions:
  [A] Row addresses must be 16-byte aligned and inside their state space (checked exactly:
      ``MemoryAccessError``); a generic address may point anywhere warpsim can address,
      although the ISA expects shared memory.
  [A] All 32 lanes execute the instruction (``.aligned``); a partial warp is a launch error.
  [A] Timing: ``ldmatrix``/``stmatrix`` are one shared-memory instruction each; the shared
      banks serve one 8x8 matrix (eight 16-byte rows, 128 bytes) per pass, so the bank
      conflict degree recorded for the warp is the sum over its matrices of the conflict
      degree of that matrix's eight rows (an .x4 without conflicts takes 4 passes).
      ``movmatrix`` is timed as a shuffle (timing/static.py).
Not supported (``UnsupportedPTXError`` at load): the .m16n16/.m8n16 shapes and .b8 /
sub-byte formats (sm_100), ``stmatrix.m16n8``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from warpsim.functional.ldst import _address, _space, lanes_of
from warpsim.functional.memops import (
    MemSpace,
    resolve_parts,
    space_view,
    trace_access,
)
from warpsim.functional.simt_stack import own
from warpsim.functional.trace import bank_conflict_degree
from warpsim.functional.wmma import fragment_regs, require_full_warp
from warpsim.ptx.ir import Instruction, OpKind

__all__ = ["build_ldmatrix", "build_movmatrix", "matrix_lanes"]

_NUM = {"x1": 1, "x2": 2, "x4": 4}
_COLS = np.arange(8)


def matrix_lanes(trans: bool) -> tuple[np.ndarray, np.ndarray]:
    """(row, col) [32 lanes, 2 halves] of the 8x8 matrix elements a lane's register holds."""
    lane = np.arange(32)[:, None]
    g, t = lane >> 2, lane & 3
    r = np.broadcast_to(g, (32, 2))
    c = 2 * t + np.arange(2)[None, :]
    return (c, r.copy()) if trans else (r.copy(), c)


def _shape(inst: Instruction, ctx: Any, store: bool) -> tuple[int, bool]:
    name = inst.opcode
    mods = set(inst.mods)
    if "sync" not in mods or "aligned" not in mods:
        raise ctx.error(inst, f"{name} without .sync.aligned")
    nums = [m for m in inst.mods if m in _NUM]
    if "m8n8" not in mods or len(nums) != 1 or inst.types != ("b16",):
        raise ctx.error(inst, f"{name} of this shape or type",
                        hint=f"supported: {name}.sync.aligned.m8n8.{{x1,x2,x4}}{{.trans}}"
                             ".shared.b16")
    extra = mods - {"sync", "aligned", "m8n8", "trans", nums[0]}
    if extra:
        raise ctx.error(inst, f"{name} qualifier .{sorted(extra)[0]}")
    if inst.space not in ("shared", ""):
        raise ctx.error(inst, f"{name} in the .{inst.space} state space",
                        hint="ldmatrix/stmatrix address shared memory")
    return _NUM[nums[0]], "trans" in mods


def _trace(bs: Any, space: str, tidx: np.ndarray, rows: np.ndarray, parts: list[Any],
           nw: int, num: int) -> None:
    """Per warp: bank passes (sum of the per-matrix conflict degrees) for shared rows, else
    the sectors and lines of the rows as for ``ld``."""
    flat = rows.reshape(-1)
    if {p.space for p in parts} != {MemSpace.SHARED}:
        seg = np.arange(nw + 1, dtype=np.int64) * 8 * num
        trace_access(bs, space, tidx, flat, 0, 16, seg, parts)
        return
    from warpsim.functional.memory import SHARED_WINDOW

    rel = flat if space == "shared" else flat - np.uint64(SHARED_WINDOW)
    seg = np.arange(nw * num + 1, dtype=np.int64) * 8
    deg = np.zeros(nw * num, np.int64)
    bank_conflict_degree(rel, seg, 16, bs.shmem_banks, bs.shmem_bank_width_bytes, deg)
    bank = np.minimum(deg.reshape(nw, num).sum(axis=1), 255).astype(np.uint8)
    zeros = np.zeros(nw, np.uint8)
    bs.tracer.memory(bs.tracer.n_rec, zeros, zeros, bank, np.zeros(0, np.uint64))


def _write_regs(bs: Any, g: Any, regs: list[int], words: np.ndarray) -> None:
    """Set registers ``regs`` from ``words`` [n_warps, 32, len(regs)] uint32."""
    for k, r in enumerate(regs):
        flat = np.ascontiguousarray(words[:, :, k]).reshape(-1)
        dt = bs.regs[r].dtype
        v = flat.view(dt) if dt.itemsize == 4 else flat.astype(dt)
        if g.allb:
            bs.regs[r] = v.copy()
        else:
            own(bs.regs, r)[g.act] = v


def _read_regs(bs: Any, g: Any, regs: list[int]) -> np.ndarray:
    """[n_warps, 32, len(regs)] uint32 words of registers ``regs``."""
    out = []
    for r in regs:
        v = np.ascontiguousarray(g.warp_view(bs.regs[r]))
        out.append(v.view(np.uint32) if v.dtype.itemsize == 4 else v.astype(np.uint32))
    return np.stack(out, axis=2)


def _unpack(words: np.ndarray, trans: bool) -> np.ndarray:
    """Fragment words [nw, 32, num] -> matrices [nw, num, 8, 8] uint16."""
    r, c = matrix_lanes(trans)
    nw, _, num = words.shape
    mats = np.zeros((nw, num, 8, 8), np.uint16)
    for h in range(2):
        half = ((words >> np.uint32(16 * h)) & np.uint32(0xFFFF)).astype(np.uint16)
        mats[:, :, r[:, h], c[:, h]] = half.transpose(0, 2, 1)
    return mats


def _pack(mats: np.ndarray, trans: bool) -> np.ndarray:
    """Matrices [nw, num, 8, 8] uint16 -> fragment words [nw, 32, num] uint32."""
    r, c = matrix_lanes(trans)
    lo = mats[:, :, r[:, 0], c[:, 0]].astype(np.uint32)
    hi = mats[:, :, r[:, 1], c[:, 1]].astype(np.uint32)
    return (lo | (hi << np.uint32(16))).transpose(0, 2, 1)


def build_ldmatrix(inst: Instruction, ctx: Any) -> Any:
    """The closure of ``ldmatrix`` or ``stmatrix`` (see the module docstring)."""
    store = inst.opcode == "stmatrix"
    num, trans = _shape(inst, ctx, store)
    addr_op = inst.srcs[0]
    frag_op = inst.srcs[1] if store else inst.dsts[0]
    regs = fragment_regs(inst, frag_op, ctx)
    if len(regs) != num:
        raise ctx.error(inst, f"{inst.opcode}.x{num} needs {num} registers, not {len(regs)}")
    base, off, sym_space = _address(inst, addr_op, ctx)
    space = _space(inst, ctx, sym_space)

    def run(bs: Any, g: Any, pred: Any, exm: Any) -> None:
        require_full_warp(inst, bs, g, pred)
        nw = g.nw
        _, tidx, _, _ = lanes_of(g, None)
        lanes = tidx.reshape(nw, 32)[:, :8 * num]
        a = (np.ascontiguousarray(g.warp_view(bs.regs[base]))[:, :8 * num].astype(np.uint64)
             if base >= 0 else np.zeros((nw, 8 * num), np.uint64))
        rows = a + np.uint64(off & 0xFFFFFFFFFFFFFFFF)
        t_rows = lanes.reshape(-1)
        parts = resolve_parts(bs, space, t_rows, rows.reshape(-1), 0, 16, 4)
        elem = []
        for p in parts:
            elem.append((p.idx[:, None] * 8 + _COLS[None, :]).reshape(-1))
        n = rows.size
        if store:
            mats = _unpack(_read_regs(bs, g, regs), trans)           # [nw, num, 8, 8]
            vals = mats.reshape(n, 8)
            for p, e in zip(parts, elem, strict=True):
                view = space_view(bs, p.space, np.uint16)
                v = vals if p.pos is None else vals[p.pos]
                view[e] = v.reshape(-1)
        else:
            vals = np.zeros((n, 8), np.uint16)
            for p, e in zip(parts, elem, strict=True):
                got = space_view(bs, p.space, np.uint16)[e].reshape(-1, 8)
                if p.pos is None:
                    vals[:] = got
                else:
                    vals[p.pos] = got
            _write_regs(bs, g, regs, _pack(vals.reshape(nw, num, 8, 8), trans))
        if bs.tracer is not None:
            _trace(bs, space, t_rows, rows, parts, nw, num)
    return run


def build_movmatrix(inst: Instruction, ctx: Any) -> Any:
    """The closure of ``movmatrix.sync.aligned.m8n8.trans.b16 d, a``."""
    mods = set(inst.mods)
    if mods != {"sync", "aligned", "m8n8", "trans"} or inst.types != ("b16",):
        raise ctx.error(inst, "movmatrix of this form",
                        hint="supported: movmatrix.sync.aligned.m8n8.trans.b16")
    dst = fragment_regs(inst, inst.dsts[0], ctx)
    src = fragment_regs(inst, inst.srcs[0], ctx)
    if inst.srcs[0].kind is not OpKind.REG or len(dst) != 1:
        raise ctx.error(inst, "movmatrix moves one 32-bit register")

    def run(bs: Any, g: Any, pred: Any, exm: Any) -> None:
        require_full_warp(inst, bs, g, pred)
        mats = _unpack(_read_regs(bs, g, src), False)
        _write_regs(bs, g, dst, _pack(mats, True))
    return run

