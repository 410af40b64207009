"""Ampere's asynchronous global-to-shared copies: ``cp.async`` and its group operations.

Follows: PTX ISA §9.7.9.25 (``cp.async.ca|cg.shared{::cta}.global [dst], [src], cp-size{,
src-size | ignore-src}{, cache-policy}``: copies ``cp-size`` (4, 8, 16; ``.cg`` only 16)
bytes, of which the bytes from ``src-size`` on, or all of them when the predicate
``ignore-src`` is true, are zeros; ``cp.async.commit_group`` and ``cp.async.wait_group N`` /
``cp.async.wait_all`` order them).
Assumptions:
  [A] The copy completes when the instruction executes: in a lockstep executor that is one of
      the orders the asynchronous copy allows (a program that reads the shared destination
      before its ``wait_group`` has a data race), so the group operations do nothing
      functionally. The timing model treats the copy as a global load with no destination
      register (docs/timing-model.md), so ``wait_group`` does not wait for it there [A].
  [A] ``src`` is a global address (``.global`` state space: the generic address of a global
      allocation is the same number in warpsim). Only the source bytes that are copied
      (``src-size``) are bounds-checked.
``cp.async.mbarrier.arrive`` is mbarrier.py's. Not supported (``UnsupportedPTXError`` at
load): ``cp.async.bulk*``, ``cp.reduce.async``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from warpsim.functional.memops import (
    Access,
    MemSpace,
    load_parts,
    resolve_parts,
    store_parts,
    trace_access,
)
from warpsim.ptx.ir import Instruction, OpKind

__all__ = ["build_cp"]


def _noop(bs: Any, g: Any, pred: Any, exm: Any) -> None:
    return None


def build_cp(inst: Instruction, ctx: Any) -> Any:
    """The closure of a ``cp.async`` copy, or a no-op for its group operations."""
    from warpsim.functional.ldst import lanes_of, operand_address

    mods = inst.mods
    if mods[:3] == ("async", "mbarrier", "arrive"):
        from warpsim.functional.mbarrier import build_cp_async_arrive

        return build_cp_async_arrive(inst, ctx)
    if "async" not in mods or any(m in mods for m in ("bulk", "mbarrier", "reduce")):
        raise ctx.error(inst, "only cp.async (global to shared) and its commit_group / "
                              "wait_group / wait_all are supported",
                        hint="cp.async.bulk and mbarrier-based copies are not implemented")
    if any(m in mods for m in ("commit_group", "wait_group", "wait_all")):
        return _noop
    if inst.space != "shared" or "global" not in mods:
        raise ctx.error(inst, "cp.async must copy from .global to .shared")
    ops = list(inst.srcs)
    if len(ops) < 3 or ops[2].kind is not OpKind.IMM or int(ops[2].value) not in (4, 8, 16):
        raise ctx.error(inst, "cp.async needs a cp-size of 4, 8 or 16")
    cp_size = int(ops[2].value)
    if "cg" in mods and cp_size != 16:
        raise ctx.error(inst, "cp.async.cg copies 16 bytes")
    dst_base, dst_off = operand_address(inst, ops[0], ctx)
    src_base, src_off = operand_address(inst, ops[1], ctx)
    extra = ops[3] if len(ops) > 3 else None  # src-size (integer) or ignore-src (predicate)
    ignore = extra is not None and extra.kind is OpKind.REG and \
        ctx.fn.regs[extra.reg].type == "pred"
    n_words = cp_size // 4

    def lane_sizes(bs: Any, tsel: Any, n: int) -> np.ndarray:
        """Source bytes each lane copies (the rest of ``cp_size`` are zeros)."""
        if extra is None:
            return np.full(n, cp_size, np.int64)
        if extra.kind is OpKind.IMM:
            return np.full(n, min(int(extra.value), cp_size), np.int64)
        v = bs.regs[extra.reg][tsel]
        if ignore:
            on = v.astype(np.bool_) != bool(extra.neg)
            return np.where(on, 0, cp_size).astype(np.int64)
        return np.minimum(v.astype(np.int64), cp_size).clip(0)

    def run(bs: Any, g: Any, pred: Any, exm: Any) -> None:
        tsel, tidx, seg, _ = lanes_of(g, pred)
        n = tidx.size
        dst = bs.regs[dst_base][tsel] if dst_base >= 0 else np.zeros(n, np.uint64)
        src = bs.regs[src_base][tsel] if src_base >= 0 else np.zeros(n, np.uint64)
        sizes = lane_sizes(bs, tsel, n)
        data = np.zeros((n, cp_size), np.uint8)
        full = np.flatnonzero(sizes == cp_size)
        if full.size:  # whole copies: one aligned vector read per lane
            parts = resolve_parts(bs, "global", tidx[full], src[full], src_off, cp_size, 2)
            words = load_parts(bs, parts, full.size, 4, n_words)
            data[full] = np.stack(words, axis=1).view(np.uint8).reshape(full.size, cp_size)
        for b in range(cp_size):  # partial copies (src-size < cp-size): byte by byte
            lanes = np.flatnonzero((sizes > b) & (sizes < cp_size))
            if lanes.size:
                parts = resolve_parts(bs, "global", tidx[lanes], src[lanes], src_off + b, 1, 0)
                data[lanes, b] = load_parts(bs, parts, lanes.size, 1, 1)[0]
        parts = resolve_parts(bs, "shared", tidx, dst, dst_off, cp_size, 2)
        words = data.view(np.uint32)
        store_parts(bs, parts, [np.ascontiguousarray(words[:, j]) for j in range(n_words)], 4)
        if bs.tracer is not None:  # the timing model sees the global read
            heap = [Access(MemSpace.HEAP, None, np.zeros(0, np.int64))]
            trace_access(bs, "global", tidx, src, src_off, cp_size, seg, heap)
    return run
