"""Arrive-wait barriers in shared memory: ``mbarrier`` and ``cp.async.mbarrier.arrive``.

Follows: PTX ISA §9.7.13.15 (``mbarrier.init [a], count`` sets the expected arrival count of
the current phase and of every later one; ``mbarrier.arrive{.noComplete} state, [a]{, count}``
counts ``count`` (default 1) arrivals of the executing thread and returns an opaque state
naming the phase it arrived in; when the pending count reaches zero the phase completes, the
phase flips and the pending count is reset to the expected count; ``arrive_drop`` also
lowers the expected count of the later phases; ``test_wait`` / ``try_wait`` set a predicate
that is true when the phase named by ``state`` (or, with ``.parity``, the phase of parity
``phaseParity``) has completed; ``pending_count`` reads the count out of a state;
``mbarrier.inval`` invalidates the object) and §9.7.9.25.3 (``cp.async.mbarrier.arrive``: an
arrive-on triggered when the thread's earlier ``cp.async`` copies complete; without ``.noinc``
the pending count is raised by one first, so it counts no arrival of its own). This is what
``cuda::barrier``, ``cuda::pipeline`` and ``cuda::memcpy_async`` compile to on sm_80.
Assumptions:
  [A] The 64-bit object holds the pending count in bits 0-30, the phase parity in bit 31 and
      the expected count in bits 32-62 (the hardware layout is opaque, programs only pass it
      to these instructions). A state token has the same layout: the pending count after its
      arrival and the parity of the phase it arrived in.
  [A] Lanes of one instruction arrive in thread order. ``try_wait`` does not suspend: it is
      ``test_wait`` (a loop on it yields to the other warps, executor.py), and its time hint
      is ignored; memory-ordering qualifiers (``.acquire``, ``.release``, ``.cta``) need
      nothing in a model that completes every access in order.
  [A] ``cp.async`` copies complete when they execute (cp_async.py), so
      ``cp.async.mbarrier.arrive.noinc`` is an ordinary arrival and the form without
      ``.noinc`` changes nothing.
Not supported (``UnsupportedPTXError`` at load): transaction counts (``expect_tx``,
``complete_tx``, ``.expect_tx`` arrivals: sm_90 bulk copies) and ``.shared::cluster``
barriers.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from warpsim.functional.simt_stack import own
from warpsim.ptx.ir import Instruction, OpKind

__all__ = ["build_cp_async_arrive", "build_mbarrier"]

_PENDING = (1 << 31) - 1
_PHASE = 1 << 31


def _lanes(bs: Any, space: str, tidx: np.ndarray, addr: np.ndarray, off: int
           ) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """(lane positions, word indices, word view) per memory part of the 8-byte objects."""
    from warpsim.functional.memops import resolve_parts, space_view

    out = []
    for p in resolve_parts(bs, space, tidx, addr, off, 8, 3):
        pos = np.arange(tidx.size) if p.pos is None else np.asarray(p.pos)
        out.append((pos, np.asarray(p.idx, np.int64), space_view(bs, p.space, np.uint64)))
    return out


def _arrive(view: np.ndarray, idx: int, counts: np.ndarray, drop: bool) -> np.ndarray:
    """Arrivals of ``counts`` (in lane order) on the object ``view[idx]``; their states."""
    w = int(view[idx])
    pending, phase, expected = w & _PENDING, w & _PHASE, (w >> 32) & _PENDING
    c = counts.astype(np.int64)
    after = pending - np.cumsum(c)
    if after[-1] >= 0:  # no arrival but the last one can complete the phase
        if drop:
            expected = max(expected - int(c.sum()), 0)
        states = (after.astype(np.uint64) | np.uint64(phase)
                  | np.uint64(expected << 32))
        pending = int(after[-1])
        if pending == 0:
            phase ^= _PHASE
            pending = expected
    else:  # more arrivals than pending: later lanes arrive in the next phase(s)
        states = np.zeros(c.size, np.uint64)
        for i, k in enumerate(c.tolist()):
            if drop:
                expected = max(expected - k, 0)
            pending -= k
            states[i] = max(pending, 0) | phase | (expected << 32)
            if pending <= 0:
                phase ^= _PHASE
                pending = expected
    view[idx] = np.uint64(pending | phase | (expected << 32))
    return states


def _arrive_all(bs: Any, space: str, tidx: np.ndarray, addr: np.ndarray, off: int,
                counts: np.ndarray, drop: bool) -> np.ndarray:
    """Every lane's arrival, lanes grouped by object and kept in thread order."""
    states = np.zeros(tidx.size, np.uint64)
    for pos, idx, view in _lanes(bs, space, tidx, addr, off):
        order = np.lexsort((pos, idx))
        sidx = idx[order]
        starts = np.flatnonzero(np.r_[True, sidx[1:] != sidx[:-1]])
        ends = np.r_[starts[1:], sidx.size]
        for s, e in zip(starts.tolist(), ends.tolist(), strict=True):
            lanes = pos[order[s:e]]
            states[lanes] = _arrive(view, int(sidx[s]), counts[lanes], drop)
    return states


def _write(bs: Any, reg: int, dtype: Any, tsel: Any, whole: bool, v: np.ndarray) -> None:
    v = v.astype(dtype)
    if whole:
        bs.regs[reg] = v
    else:
        own(bs.regs, reg)[tsel] = v


def build_mbarrier(inst: Instruction, ctx: Any) -> Any:
    """The closure of an ``mbarrier`` instruction."""
    from warpsim.functional.ldst import (
        _addr_values,
        _address,
        _space,
        _value_spec,
        _values,
        lanes_of,
    )

    mods = inst.mods
    ops = [m for m in ("init", "inval", "arrive", "arrive_drop", "test_wait", "try_wait",
                       "pending_count") if m in mods]
    if len(ops) != 1 or "expect_tx" in mods or "complete_tx" in mods:
        raise ctx.error(inst, "mbarrier operation",
                        hint="init, inval, arrive, arrive_drop, test_wait, try_wait and "
                             "pending_count are supported; transaction counts (sm_90) are not")
    if inst.space not in (None, "", "shared", "shared::cta", "generic"):
        raise ctx.error(inst, f"mbarrier in .{inst.space}")
    op = ops[0]
    dreg = inst.dsts[0].reg if inst.dsts and inst.dsts[0].kind is OpKind.REG else -1
    ddt = ctx.reg_dtypes[dreg] if dreg >= 0 else None
    srcs = list(inst.srcs)
    if op == "pending_count":
        spec = _value_spec(inst, srcs[0], ctx, 8)

        def run_count(bs: Any, g: Any, pred: Any, exm: Any) -> None:
            tsel, tidx, _, whole = lanes_of(g, pred)
            st = _values(bs, spec, tsel, tidx.size, 8)[0]
            if dreg >= 0:
                _write(bs, dreg, ddt, tsel, whole, st & np.uint64(_PENDING))
        return run_count
    base, off, sym_space = _address(inst, srcs[0], ctx)
    space = _space(inst, ctx, sym_space)
    if space not in ("shared", "generic"):
        raise ctx.error(inst, f"mbarrier in the .{space} space")
    arg = _value_spec(inst, srcs[1], ctx, 8) if len(srcs) > 1 else None

    def run(bs: Any, g: Any, pred: Any, exm: Any) -> None:
        tsel, tidx, _, whole = lanes_of(g, pred)
        n = tidx.size
        if n == 0:
            return
        addr = _addr_values(bs, base, tsel, n)
        a = _values(bs, arg, tsel, n, 8)[0] if arg is not None else np.ones(n, np.uint64)
        if op in ("init", "inval"):
            count = a.astype(np.uint64) & np.uint64(_PENDING) if op == "init" else 0 * a
            word = count | (count << np.uint64(32))
            for pos, idx, view in _lanes(bs, space, tidx, addr, off):
                view[idx] = word[pos]
            return
        if op in ("arrive", "arrive_drop"):
            states = _arrive_all(bs, space, tidx, addr, off, a, op == "arrive_drop")
            if dreg >= 0:
                _write(bs, dreg, ddt, tsel, whole, states)
            return
        done = np.zeros(n, np.bool_)  # test_wait / try_wait
        want = (a & np.uint64(1)) << np.uint64(31) if "parity" in mods else \
            a & np.uint64(_PHASE)
        for pos, idx, view in _lanes(bs, space, tidx, addr, off):
            done[pos] = (view[idx] & np.uint64(_PHASE)) != want[pos]
        if dreg >= 0:
            _write(bs, dreg, ddt, tsel, whole, done)
    return run


def build_cp_async_arrive(inst: Instruction, ctx: Any) -> Any:
    """``cp.async.mbarrier.arrive{.noinc}.shared.b64 [a]``: an arrival with ``.noinc``,
    nothing without it (the copies it waits for have completed, [A] above)."""
    from warpsim.functional.ldst import _addr_values, _address, _space, lanes_of

    base, off, sym_space = _address(inst, inst.srcs[0], ctx)
    space = _space(inst, ctx, sym_space)
    if space not in ("shared", "generic"):
        raise ctx.error(inst, f"cp.async.mbarrier.arrive in the .{space} space")
    noinc = "noinc" in inst.mods

    def run(bs: Any, g: Any, pred: Any, exm: Any) -> None:
        tsel, tidx, _, _ = lanes_of(g, pred)
        n = tidx.size
        if n == 0:
            return
        addr = _addr_values(bs, base, tsel, n)
        if noinc:
            _arrive_all(bs, space, tidx, addr, off, np.ones(n, np.uint64), False)
        else:  # still resolve the address: a bad one faults as on a GPU
            _lanes(bs, space, tidx, addr, off)
    return run
