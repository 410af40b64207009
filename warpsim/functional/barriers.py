"""CTA barriers of the functional executor: arrival (per warp), release, deadlock detection.

Follows: PTX ISA §9.7.13.1 (``bar{.cta}.sync``/``barrier.sync``/``bar.arrive`` with optional
thread count, counted per warp; without a count a barrier waits for all non-exited threads of
the CTA); §9.7.13.1 ``bar.red.popc.u32`` / ``bar.red.{and,or}.pred`` (``__syncthreads_count``,
``_and``, ``_or``): a ``bar.sync`` that also reduces the predicate of every thread that arrives
and, at release, writes the CTA's result (the number of true predicates, all true, any true)
to each arrived thread; GPGPU-Sim's per-warp barrier arrival. See ``executor.py`` for the
rules on lanes of a waiting warp that did not arrive.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from warpsim.errors import BarrierDeadlockError
from warpsim.functional.simt_stack import Group, ballot, own
from warpsim.ptx.ir import OpKind

__all__ = ["BarrierUnit"]


class BarrierUnit:
    """Barrier methods mixed into the executor's launch state (``executor._Launch``)."""

    prog: Any
    regs: list[Any]
    stacks: Any
    tracer: Any
    live: np.ndarray
    n_warps: int
    wpc: int
    cta_threads: int
    bar_wait: np.ndarray
    bar_id: np.ndarray
    bar_mask: np.ndarray
    bar_pc: np.ndarray
    cta_live: np.ndarray
    cta_count: np.ndarray
    cta_need: np.ndarray
    cta_red_true: np.ndarray
    cta_red_n: np.ndarray

    def _count(self, g: Group, pc: int) -> None:  # provided by the executor
        raise NotImplementedError

    def _dissolve(self, ws: np.ndarray, steps: int) -> None:  # provided by the executor
        raise NotImplementedError

    def thread_coords(self, t: int) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
        raise NotImplementedError

    def _operand_value(self, g: Group, op: Any) -> int:
        if op.kind is OpKind.IMM:
            return int(op.value)
        return int(self.regs[op.reg][g.act_idx[0]])

    def _barrier(self, g: Group, pc: int) -> None:
        self._count(g, pc)
        bid_op, cnt_op, waits, red = self.prog.barrier_args[pc]
        gr, neg = self.prog.guards[pc]
        arrive = g.masks
        if gr >= 0:
            p = self.regs[gr] if g.allb else self.regs[gr][g.sel]
            arrive = ballot(g, ~p if neg else p)
        if red is not None:
            self._reduce_arrival(g, red[2], arrive, self._operand_value(g, bid_op) & 15)
        if self.tracer is not None:
            self.tracer.record(pc, g.ws, g.masks, arrive)
        bid = self._operand_value(g, bid_op) & 15
        ws = g.ws
        self.stacks.set_top_pc(ws, pc + 1)
        slots = ws // self.wpc
        self.cta_count[:, bid] += np.bincount(slots, minlength=self.cta_count.shape[0])
        if cnt_op is not None:
            self.cta_need[slots, bid] = -(-self._operand_value(g, cnt_op) // 32)
        if waits:
            self.bar_wait[ws] = True
            self.bar_id[ws] = bid
            self.bar_mask[ws] = arrive
            self.bar_pc[ws] = pc
            self._release(np.unique(slots))
        else:
            self._release(np.unique(slots))
            self._dissolve(ws, g.steps0 + g.nexec)

    def _release(self, slots: np.ndarray) -> None:
        """Complete the barriers of CTAs ``slots`` that every participant reached."""
        released = []
        for bid in np.unique(self.bar_id[self.bar_wait]):
            need = np.where(self.cta_need[slots, bid] > 0, self.cta_need[slots, bid],
                            self.cta_live[slots])
            have = self.cta_count[slots, bid]
            done = slots[(have >= need) & (have > 0)]
            if done.size == 0:
                continue
            wslot = np.arange(self.n_warps) // self.wpc
            rel = self.bar_wait & (self.bar_id == bid) & np.isin(wslot, done)
            wr = np.flatnonzero(rel)
            for w in wr[self.bar_mask[wr] != self.live[wr]]:
                if self._lanes_may_reach_barrier(int(w)):
                    self._deadlock(int(w) // self.wpc)
            if self.cta_red_n[done, bid].any():  # some thread arrived at a bar.red
                self._reduction_results(wr, bid)
            self.bar_wait[wr] = False
            self.cta_count[done, bid] = 0
            self.cta_need[done, bid] = 0
            self.cta_red_true[done, bid] = 0
            self.cta_red_n[done, bid] = 0
            released.append(wr)
        if released:
            ws = np.sort(np.concatenate(released))
            self._dissolve(ws, 0)

    def _reduce_arrival(self, g: Group, c: Any, arrive: np.ndarray, bid: int) -> None:
        """Add the arriving lanes of ``g`` and those whose predicate ``c`` holds to their
        CTAs' ``bar.red`` tallies."""
        if c.kind is OpKind.IMM:
            true = arrive if c.value != 0 else np.zeros_like(arrive)
        else:
            p = self.regs[c.reg] if g.allb else self.regs[c.reg][g.sel]
            true = ballot(g, ~p if c.neg else p) & arrive
        slots = g.ws // self.wpc
        np.add.at(self.cta_red_true[:, bid], slots, np.bitwise_count(true).astype(np.int64))
        np.add.at(self.cta_red_n[:, bid], slots, np.bitwise_count(arrive).astype(np.int64))

    def _reduction_results(self, wr: np.ndarray, bid: int) -> None:
        """Write the result of each ``bar.red`` that warps ``wr`` wait at (barrier ``bid``) to
        the warps' arrived lanes."""
        args = self.prog.barrier_args
        pcs = self.bar_pc[wr]
        for pc in np.unique(pcs).tolist():
            red = args[pc][3]
            if red is None:
                continue
            ws = wr[pcs == pc]
            slots = ws // self.wpc
            true, n = self.cta_red_true[slots, bid], self.cta_red_n[slots, bid]
            kind, dst = red[0], red[1]
            value = true if kind == "popc" else (true == n) if kind == "and" else (true > 0)
            lanes = ((self.bar_mask[ws][:, None] >> np.arange(32, dtype=np.uint32)) & 1) != 0
            threads = (ws[:, None] * 32 + np.arange(32))[lanes]
            per_lane = np.broadcast_to(value[:, None], lanes.shape)[lanes]
            reg = own(self.regs, dst)
            reg[threads] = per_lane.astype(reg.dtype)

    def _lanes_may_reach_barrier(self, w: int) -> bool:
        """True when live lanes of waiting warp ``w`` that did not arrive wait (in stack entries
        below the top) at a PC from which a barrier is reachable: they could never arrive."""
        st = self.stacks
        pending = int(self.live[w]) & ~int(self.bar_mask[w])
        reach = self.prog.reaches_barrier
        for d in range(int(st.depth[w]) - 1):
            if int(st.mask[w, d]) & pending and reach[int(st.pc[w, d])]:
                return True
        return False

    def _deadlock(self, slot: int) -> None:
        prog = self.prog
        w0 = slot * self.wpc
        parts = []
        for w in range(w0, w0 + self.wpc):
            if self.bar_wait[w]:
                inst = prog.insts[int(self.bar_pc[w])]
                lanes = int(self.bar_mask[w])
                live = int(self.live[w])
                note = "" if lanes == live else \
                    f" with lanes {lanes:#010x} of live lanes {live:#010x}"
                parts.append(f"warp {w - w0} waits at line {inst.line} "
                             f"({inst.text.strip()}){note}")
            elif self.stacks.depth[w] == 0:
                parts.append(f"warp {w - w0} has exited")
            else:
                parts.append(f"warp {w - w0} cannot reach the barrier")
        _, cta = self.thread_coords(slot * self.cta_threads)
        raise BarrierDeadlockError(prog.name, cta, "; ".join(parts))

