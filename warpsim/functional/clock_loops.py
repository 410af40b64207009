"""Fast-forward of loops whose only changing input is ``%clock``: a warp spinning on
``while (clock() - start < n) {}`` (CUDA samples simpleHyperQ, graphMemoryFootprint) skips its
iterations in bulk with the result of running them one by one.

Follows: executor.py's assumption that ``%clock``/``%clock64``/``%globaltimer`` read the number of
warp-instruction dispatches of the launch so far (refreshed at each reading instruction); issue
18 cause 8 (samples spinning for 14 M clocks ran 14 M dispatches of one warp each).
Assumptions:
  [A] A *clock loop* is a guarded backward branch at ``b`` to ``t`` whose body ``t .. b-1`` is
      straight-line, unguarded, elementwise ALU instructions (no memory, warp, barrier or
      carry-flag instruction), reads ``%clock`` (or ``%clock64``, ``%globaltimer``...), and
      reads no register the body writes unless the body wrote it earlier in the same iteration.
      Iteration ``m`` of such a loop is then a function of its clock readings alone, which are
      ``c + m * P + (q - t) + 1`` at body pc ``q`` (``P = b - t + 1`` dispatches per iteration)
      while the group runs alone.
  [A] The fast-forward runs only when the looping group is the only runnable group of its
      batch, with traces off and no ``max_steps``: it evaluates the next iterations' bodies
      side by side (one copy of the group's distinct active lanes per iteration: lanes
      whose body inputs are equal compute the same; chunks of up to ``LANES_PER_CHUNK``
      lanes), finds the first iteration whose branch is not taken by every
      active lane, and skips the iterations before it: registers the body writes are set to
      the last skipped iteration's values on every lane the group computes (one more
      evaluation over those lanes), the clock registers to its last reading, and the clock,
      per-pc counters, step and branch counts advance as if each had been dispatched. That
      iteration then runs normally. Outputs, counters and registers equal the one-by-one run;
      the watchdog's spin checks fall on other branches (a clock loop never repeats a state).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from warpsim.functional.loader import Kind
from warpsim.functional.simt_stack import own
from warpsim.ptx.ir import OpKind

__all__ = ["LANES_PER_CHUNK", "ClockLoop", "clock_loops", "skip_clock_loop"]

LANES_PER_CHUNK = 1 << 16
"""Lanes (iterations x active lanes) evaluated side by side per chunk."""
_CARRY_OPS = frozenset({"addc", "subc", "madc"})


@dataclass(frozen=True, slots=True)
class ClockLoop:
    """A loop whose only changing input is the clock (the body is ``t .. b-1``)."""

    t: int
    b: int
    reads: tuple[int, ...]
    """Registers the body reads and does not write (loop invariant), clock registers aside."""
    writes: tuple[int, ...]
    """Registers the body writes."""
    clock_pcs: tuple[int, ...]
    """Body pcs that read a clock register."""
    guard: int
    neg: bool


def _reads(inst: Any, special: dict[str, int]) -> list[int] | None:
    """Register ids ``inst`` reads (special registers by id), None for an operand not
    understood here."""
    out: list[int] = []
    stack = list(inst.srcs)
    while stack:
        op = stack.pop()
        if op.kind is OpKind.VECTOR:
            stack.extend(op.elems)
        elif op.kind is OpKind.REG:
            out.append(op.reg)
        elif op.kind is OpKind.SPECIAL:
            if op.name not in special:
                return None
            out.append(special[op.name])
        elif op.kind is OpKind.ADDRESS:
            if op.base is not None:
                stack.append(op.base)
        elif op.kind not in (OpKind.IMM, OpKind.SYMBOL):
            return None
    return out


def _loop_at(prog: Any, b: int, clock_rids: frozenset[int]) -> ClockLoop | None:
    t = int(prog.targets[b])
    gr, neg = prog.guards[b]
    if gr < 0 or t < 0 or t >= b:
        return None
    written: set[int] = set()
    body_writes: set[int] = set()
    reads_all: set[int] = set()
    per_pc: list[tuple[list[int], tuple[int, ...]]] = []
    for q in range(t, b):
        inst = prog.insts[q]
        run = prog.runs[q]
        if (prog.kinds[q] != Kind.STRAIGHT or prog.guards[q][0] >= 0
                or getattr(getattr(run, "__code__", None), "co_filename", "") != "<alu dispatch>"
                or inst.opcode in _CARRY_OPS or "cc" in inst.mods):
            return None
        rd = _reads(inst, prog.special_regs)
        if rd is None:
            return None
        per_pc.append((rd, prog.val_regs[q]))
        body_writes.update(prog.val_regs[q])
    for rd, wr in per_pc:  # a body-written register must be written before it is read
        for r in rd:
            if r in body_writes and r not in written:
                return None
        reads_all.update(rd)
        written.update(wr)
    if gr not in written:
        return None
    clock_pcs = tuple(q for q in range(t, b) if q in prog.dynamic_pcs)
    if not clock_pcs or body_writes & clock_rids:
        return None
    return ClockLoop(t, b, tuple(sorted(reads_all - body_writes - clock_rids)),
                     tuple(sorted(body_writes)), clock_pcs, gr, bool(neg))


def clock_loops(prog: Any) -> dict[int, ClockLoop]:
    """The clock loops of ``prog`` by branch pc (kept in ``prog.launch_cache``)."""
    found = prog.launch_cache.get("clock_loops")
    if found is None:
        found = {}
        if prog.dynamic_pcs:
            rids = frozenset(_clock_regs(prog))
            for b in np.flatnonzero(np.asarray(prog.kinds) == int(Kind.BRANCH)).tolist():
                lp = _loop_at(prog, b, rids)
                if lp is not None:
                    found[b] = lp
        prog.launch_cache["clock_loops"] = found
    return found


def _clock_regs(prog: Any) -> dict[int, str]:
    """The clock registers (those ``_Launch._refresh_clock`` sets) by id."""
    return {rid: name for name, rid in prog.special_regs.items()
            if name.startswith("%clock") or name.startswith("%globaltimer")}


class _Batch:
    """The one attribute an ALU closure reads of its launch."""

    __slots__ = ("regs",)

    def __init__(self, regs: list[Any]) -> None:
        self.regs = regs


class _Whole:
    """A group covering every lane of a ``_Batch``."""

    allb = True
    sel = slice(None)


def _evaluate(run: Any, lp: ClockLoop, lanes: Any, copies: np.ndarray, c0: int,
              n_lanes: int) -> list[Any]:
    """Registers after the bodies of iterations ``copies`` (each over ``lanes`` of the batch),
    side by side: lane ``k * n_lanes + j`` is lane ``j`` of iteration ``copies[k]``."""
    prog = run.prog
    k = copies.size
    regs: list[Any] = [None] * len(run.regs)
    for r in lp.reads:
        regs[r] = np.tile(run.regs[r][lanes], k)
    for r in lp.writes:
        z = np.zeros(k * n_lanes, prog.reg_dtypes[r])
        z.flags.writeable = False
        regs[r] = z
    m = np.repeat(copies.astype(np.uint64), n_lanes)
    clock = _clock_regs(prog)
    span = np.uint64(lp.b - lp.t + 1)
    bs, g = _Batch(regs), _Whole()
    for q in range(lp.t, lp.b):
        if q in prog.dynamic_pcs:
            v = np.uint64(c0 + (q - lp.t) + 1) + m * span
            for rid, name in clock.items():
                dt = np.dtype(prog.reg_dtypes[rid])
                w = v >> np.uint64(32) if name == "%clock_hi" else v
                regs[rid] = (w & np.uint64(np.iinfo(dt).max)).astype(dt)
        prog.runs[q](bs, g, None, None)
    return regs


def _distinct_lanes(run: Any, lp: ClockLoop, lanes: np.ndarray) -> np.ndarray:
    """One lane of each set of ``lanes`` that hold equal values in every register the body
    reads: they compute the same iterations (the clock is the same for all)."""
    if not lp.reads:
        return lanes[:1]
    cols = []
    for r in lp.reads:
        v = run.regs[r][lanes]
        cols.append((v.view(np.uint8) if v.dtype == np.bool_ else
                     v.view(f"u{v.dtype.itemsize}")).astype(np.uint64))
    _, first = np.unique(np.stack(cols, axis=1), axis=0, return_index=True)
    return lanes[np.sort(first)]


def skip_clock_loop(run: Any, g: Any, lp: ClockLoop) -> int:
    """Skip the iterations of clock loop ``lp`` that group ``g`` (just sent back to ``lp.t``
    by its branch, alone in its batch) would run before the first one whose branch some
    active lane does not take; returns how many were skipped. Lanes with equal inputs are
    evaluated once; a group with more than ``LANES_PER_CHUNK // 32`` distinct lanes is left
    to run (and not examined again at this loop)."""
    declined = run.clock_loop_declined
    if declined is not None and declined[0] is g and declined[1] == lp.b:
        return 0
    n = run.n_threads
    sel = slice(None) if g.allb else g.sel
    tids = np.arange(n, dtype=np.int64)[sel]
    wmask = np.zeros(run.n_warps, np.uint32)
    wmask[g.ws] = g.masks
    active = ((wmask[tids // 32] >> (tids % 32).astype(np.uint32)) & 1).astype(np.bool_)
    lanes = _distinct_lanes(run, lp, tids[active])
    na = lanes.size
    if na == 0 or na > LANES_PER_CHUNK // 32:
        run.clock_loop_declined = (g, lp.b)
        return 0
    span = lp.b - lp.t + 1
    c0 = run.clock
    done = 0
    k = 32
    while True:
        copies = np.arange(done, done + k, dtype=np.int64)
        regs = _evaluate(run, lp, lanes, copies, c0, na)
        p = regs[lp.guard].reshape(k, na)
        ok = (~p if lp.neg else p).all(axis=1)
        if ok.all():
            done += k
            k = min(k * 2, max(32, LANES_PER_CHUNK // na))
            continue
        done += int(np.argmin(ok))
        break
    if done == 0:
        return 0
    last = _evaluate(run, lp, sel, np.array([done - 1]), c0, tids.size)
    for r in lp.writes:
        if g.allb:
            run.regs[r] = last[r].copy()
        else:
            own(run.regs, r)[sel] = last[r]
    run.clock = c0 + (done - 1) * span + (lp.clock_pcs[-1] - lp.t) + 1
    run._refresh_clock()
    run.clock = c0 + done * span
    pcw, pct = run.pc_warps, run.pc_threads
    for q in range(lp.t, lp.b + 1):
        pcw[q] += done * g.nw
        pct[q] += done * g.n_act
    g.nexec += done * span
    run.n_branches += done
    run.turn = max(0, run.turn - done)
    return done
