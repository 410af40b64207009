"""Warp-level instructions on the lane axis: ``shfl[.sync]``, ``vote[.sync]``, ``redux.sync``,
``match.sync``, ``activemask``.

Follows: PTX ISA §9.7.8.6 (``shfl.sync``: the ``c`` operand packs the clamp value in bits 0-4
and the segment mask in bits 8-12; ``j``/``pval`` as in the ISA pseudocode), §9.7.8.7
(``vote``), §9.7.8.8 (``match``), §9.7.8.12 (``redux.sync``), §9.7.3.x (``activemask``).
Assumptions:
  [A] The participating lanes are the executing lanes (active and guard true) that are also in
      ``membermask``; a ``shfl`` from a lane that does not participate reads that lane's
      current register value (the ISA leaves it undefined).
  Each lane's membermask is its own: lanes of one warp that execute one ``vote``/``redux``/
  ``match`` with different masks (the groups of a labelled partition) form separate groups,
  each reduced over its own participants (the ISA: a thread waits for the threads of *its*
  membermask that execute the instruction with the same membermask).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from warpsim._jit import jit
from warpsim.functional.ldst import lanes_of
from warpsim.functional.simt_stack import own
from warpsim.ptx.ir import Instruction, Operand, OpKind

__all__ = ["build_warp_op"]

_BITS = (np.uint32(1) << np.arange(32, dtype=np.uint32))


def _operand(inst: Instruction, op: Operand, ctx: Any, dtype: Any) -> Any:
    from warpsim.functional.loader import imm_bits

    if op.kind is OpKind.REG:
        return op.reg
    if op.kind is OpKind.IMM:
        return imm_bits(op, dtype, False)
    raise ctx.error(inst, f"operand of kind {op.kind.name}")


def _warp_vals(bs: Any, g: Any, spec: Any, dtype: Any = np.uint32) -> np.ndarray:
    """[n_warps, 32] lane values of a register (or a broadcast immediate)."""
    if isinstance(spec, int):
        return g.warp_view(bs.regs[spec])
    return np.full((g.nw, 32), spec, dtype=dtype)


def _write(bs: Any, g: Any, r: int, vals: np.ndarray, tsel: Any, lanes: np.ndarray | None,
           whole: bool) -> None:
    """Write the [n_warps, 32] ``vals`` to register ``r`` on the executing lanes."""
    flat = vals.reshape(-1)
    reg = bs.regs[r]
    if flat.dtype != reg.dtype:
        flat = flat.astype(reg.dtype)
    if whole:
        bs.regs[r] = flat.copy() if flat.base is not None else flat
        return
    reg = own(bs.regs, r)
    if lanes is None:
        reg[tsel] = flat
    else:
        reg[tsel] = flat[lanes]


def _exec_lanes(g: Any, pred: Any, exm: Any) -> tuple[Any, Any, Any, bool, np.ndarray]:
    tsel, tidx, _, whole = lanes_of(g, pred)
    if pred is None:
        lanes = g.partial_lanes()
        masks = g.masks
    else:
        lanes = g.lanes_of_act()[g.pred_on_act(pred)]
        masks = exm
    return tsel, lanes, masks, whole, tidx


def build_warp_op(inst: Instruction, ctx: Any) -> Any:
    """The closure of a warp-level instruction."""
    op = inst.opcode
    if op == "shfl":
        return _build_shfl(inst, ctx)
    if op == "vote":
        return _build_vote(inst, ctx)
    if op == "redux":
        return _build_redux(inst, ctx)
    if op == "match":
        return _build_match(inst, ctx)
    dreg = inst.dsts[0].reg

    def run_activemask(bs: Any, g: Any, pred: Any, exm: Any) -> None:
        tsel, lanes, masks, whole, _ = _exec_lanes(g, pred, exm)
        _write(bs, g, dreg, np.repeat(masks[:, None], 32, axis=1), tsel, lanes, whole)
    return run_activemask


def _member(bs: Any, g: Any, spec: Any) -> np.ndarray:
    """[n_warps, 32] membermask of each lane: a register operand may differ between lanes
    (a labelled partition's groups execute one instruction together, each lane naming its
    own group), an immediate is the same for all."""
    if spec is None:
        return np.full((g.nw, 32), 0xFFFFFFFF, np.uint32)
    if isinstance(spec, int):
        return g.warp_view(bs.regs[spec]).astype(np.uint32, copy=False)
    return np.full((g.nw, 32), spec, np.uint32)


def _groups(masks: np.ndarray, member: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each lane's participants, the executing lanes of its membermask: ([n_warps, 32] mask,
    [n_warps, 32 lanes, 32 participants] bool)."""
    partm = (masks[:, None] & member).astype(np.uint32)
    return partm, (partm[:, :, None] & _BITS) != 0


def _build_shfl(inst: Instruction, ctx: Any) -> Any:
    mode = next((m for m in inst.mods if m in ("up", "down", "bfly", "idx")), None)
    if mode is None:
        raise ctx.error(inst, "shfl without .up/.down/.bfly/.idx")
    if inst.types and inst.types[-1] not in ("b32", "u32", "s32", "f32"):
        raise ctx.error(inst, f"shfl.{inst.types[-1]}")
    dreg = inst.dsts[0].reg
    preg = inst.dsts[1].reg if len(inst.dsts) > 1 and inst.dsts[1].kind is OpKind.REG else -1
    a, b, c = (_operand(inst, s, ctx, np.uint32) for s in inst.srcs[:3])
    if len(inst.srcs) > 3:  # membermask: validated; lanes outside it read their own value
        _operand(inst, inst.srcs[3], ctx, np.uint32)

    code = _SHFL_MODES[mode]

    def run(bs: Any, g: Any, pred: Any, exm: Any) -> None:
        tsel, lanes, _, whole, _ = _exec_lanes(g, pred, exm)
        av = _warp_vals(bs, g, a)
        bv = _warp_vals(bs, g, b)
        cv = _warp_vals(bs, g, c)
        out = np.empty((g.nw, 32), av.dtype)
        pval = np.empty((g.nw, 32), np.bool_)
        _shfl_lanes(av, bv, cv, code, out, pval)
        _write(bs, g, dreg, out, tsel, lanes, whole)
        if preg >= 0:
            _write(bs, g, preg, pval, tsel, lanes, whole)
    return run


_SHFL_MODES = {"up": 0, "down": 1, "bfly": 2, "idx": 3}


@jit
def _shfl_lanes(av, bv, cv, mode, out, pval):  # pragma: no cover - jit
    """``shfl`` of every lane of [warps, 32] ``av`` (PTX ISA §9.7.8.6 pseudocode): source lane
    ``j`` from ``b`` and the clamp/segment mask ``c``, ``pval`` whether ``j`` is in range (else
    the lane reads itself). One pass instead of a dozen [warps, 32] numpy temporaries."""
    for w in range(av.shape[0]):
        for lane in range(32):
            bb = np.int64(bv[w, lane]) & 31
            cc = np.int64(cv[w, lane])
            segmask = (cc >> 8) & 31
            max_lane = (lane & segmask) | ((cc & 31) & ~segmask)
            if mode == 0:
                j = lane - bb
                ok = j >= max_lane
            elif mode == 1:
                j = lane + bb
                ok = j <= max_lane
            elif mode == 2:
                j = lane ^ bb
                ok = j <= max_lane
            else:
                j = (lane & segmask) | (bb & ~segmask)
                ok = j <= max_lane
            out[w, lane] = av[w, j if ok else lane]
            pval[w, lane] = ok


def _pred_source(inst: Instruction, ctx: Any) -> tuple[Any, bool]:
    s = inst.srcs[0]
    if s.kind is OpKind.REG:
        return s.reg, s.neg
    if s.kind is OpKind.IMM:
        return np.bool_(s.value != 0), False
    raise ctx.error(inst, "vote source must be a predicate")


def _build_vote(inst: Instruction, ctx: Any) -> Any:
    mode = next((m for m in inst.mods if m in ("all", "any", "uni", "ballot")), None)
    if mode is None:
        raise ctx.error(inst, "vote without .all/.any/.uni/.ballot")
    src, neg = _pred_source(inst, ctx)
    member = _operand(inst, inst.srcs[1], ctx, np.uint32) if len(inst.srcs) > 1 else None
    dreg = inst.dsts[0].reg

    def run(bs: Any, g: Any, pred: Any, exm: Any) -> None:
        tsel, lanes, masks, whole, _ = _exec_lanes(g, pred, exm)
        part = masks[:, None] & _member(bs, g, member)  # [n_warps, lane]
        if isinstance(src, int):
            p = g.warp_view(bs.regs[src])
            if neg:
                p = ~p
        else:
            p = np.full((g.nw, 32), bool(src))
        bits = (np.packbits(np.ascontiguousarray(p), axis=1, bitorder="little")
                .view("<u4").reshape(g.nw, 1).astype(np.uint32) & part)
        if mode == "ballot":
            res = bits
        elif mode == "all":
            res = bits == part
        elif mode == "any":
            res = bits != 0
        else:
            res = (bits == part) | (bits == 0)
        _write(bs, g, dreg, res, tsel, lanes, whole)
    return run


def _build_redux(inst: Instruction, ctx: Any) -> Any:
    mode = next((m for m in inst.mods if m in ("add", "min", "max", "and", "or", "xor")), None)
    typ = inst.types[-1] if inst.types else ""
    if mode is None or typ not in ("u32", "s32", "b32"):
        raise ctx.error(inst, "redux.sync form")
    a = _operand(inst, inst.srcs[0], ctx, np.uint32)
    member = _operand(inst, inst.srcs[1], ctx, np.uint32) if len(inst.srcs) > 1 else None
    dreg = inst.dsts[0].reg

    def run(bs: Any, g: Any, pred: Any, exm: Any) -> None:
        tsel, lanes, masks, whole, _ = _exec_lanes(g, pred, exm)
        _, part = _groups(masks, _member(bs, g, member))  # [n_warps, lane, participant]
        v = _warp_vals(bs, g, a)[:, None, :]
        if mode == "add":
            r = np.where(part, v, 0).sum(axis=2, dtype=np.uint64).astype(np.uint32)
        elif mode in ("min", "max"):
            sv = v.view(np.int32) if typ == "s32" else v
            info = np.iinfo(sv.dtype)
            fill = info.max if mode == "min" else info.min
            f = np.min if mode == "min" else np.max
            r = f(np.where(part, sv, fill), axis=2).astype(sv.dtype).view(np.uint32)
        elif mode == "and":
            r = np.bitwise_and.reduce(np.where(part, v, np.uint32(0xFFFFFFFF)), axis=2)
        elif mode == "or":
            r = np.bitwise_or.reduce(np.where(part, v, np.uint32(0)), axis=2)
        else:
            r = np.bitwise_xor.reduce(np.where(part, v, np.uint32(0)), axis=2)
        _write(bs, g, dreg, r.astype(np.uint32), tsel, lanes, whole)
    return run


def _build_match(inst: Instruction, ctx: Any) -> Any:
    mode = next((m for m in inst.mods if m in ("any", "all")), None)
    typ = inst.types[-1] if inst.types else ""
    if mode is None or typ not in ("b32", "b64"):
        raise ctx.error(inst, "match.sync form")
    a = _operand(inst, inst.srcs[0], ctx, np.uint64 if typ == "b64" else np.uint32)
    member = _operand(inst, inst.srcs[1], ctx, np.uint32) if len(inst.srcs) > 1 else None
    dreg = inst.dsts[0].reg
    preg = inst.dsts[1].reg if len(inst.dsts) > 1 and inst.dsts[1].kind is OpKind.REG else -1

    def run(bs: Any, g: Any, pred: Any, exm: Any) -> None:
        tsel, lanes, masks, whole, _ = _exec_lanes(g, pred, exm)
        partm, part = _groups(masks, _member(bs, g, member))
        v = _warp_vals(bs, g, a, np.uint64 if typ == "b64" else np.uint32)
        eq = (v[:, :, None] == v[:, None, :]) & part
        m = (np.packbits(np.ascontiguousarray(eq), axis=2, bitorder="little")
             .view("<u4").reshape(g.nw, 32).astype(np.uint32))
        if mode == "any":
            _write(bs, g, dreg, m, tsel, lanes, whole)
            return
        ok = m == partm  # every participant of the lane's group holds the lane's value
        _write(bs, g, dreg, np.where(ok, partm, np.uint32(0)), tsel, lanes, whole)
        if preg >= 0:
            _write(bs, g, preg, ok, tsel, lanes, whole)
    return run
