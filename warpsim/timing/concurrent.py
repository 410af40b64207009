"""Concurrent kernels on disjoint SM sets: the Python side of ``timing/group.py``.

Follows: Xiang's dissertation §4.5 (GPU-H runs a low-TLP and a high-TLP kernel side by side,
each on its kind of SM; "each kernel is wrapped in a loop and runs continuously; execution
stops when the longer kernel finishes at least one run"; weighted speedup from each kernel's
IPC in that window), specs/xiang-simt-efficiency.md §3.5.

>>> # sim = TimingSimulator(cfg, hooks=noop_hooks())
>>> # out = run_concurrent(sim, [ConcurrentLaunch(..., sms=range(0, 8)),
>>> #                            ConcurrentLaunch(..., sms=range(8, 15))], restart=True)
>>> # out[0].window_ipc, out[1].runs[0].cycles
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from warpsim.errors import InternalError, LaunchError
from warpsim.stats import C_GPU_SIM_CYCLE, C_GPU_SIM_INSN, C_GPU_TOT_SIM_CYCLE
from warpsim.timing import consts as tc
from warpsim.timing import fields as fl
from warpsim.timing.group import LaunchSlot, run_group

__all__ = ["ConcurrentLaunch", "ConcurrentResult", "run_concurrent"]


@dataclass
class ConcurrentLaunch:
    """One kernel launch of a concurrent group: what ``TimingSimulator.start`` takes, its
    whole trace (the functional pass's ``TraceChunk`` list) and its SM set."""

    program: Any
    alloc: Any
    n_ctas: int
    cta_threads: int
    regs_per_thread: int
    shmem_bytes: int
    chunks: Sequence[Any]
    sms: Sequence[int]
    tables: Any = None
    kernel: str = ""


@dataclass
class ConcurrentResult:
    """What one launch of the group did."""

    runs: list[Any] = field(default_factory=list)
    """``TimingResult`` of each completed run, in order (several with ``restart``)."""
    window_cycles: int = 0
    """Cycles of the measurement window: from the group's start until every launch had
    completed a run (with ``restart``) or until the group ended."""
    window_insn: int = 0
    """Thread instructions this launch issued in the window (runs not completed included)."""

    @property
    def window_ipc(self) -> float:
        """Thread instructions per cycle in the window (the weighted speedup's IPC)."""
        return self.window_insn / self.window_cycles if self.window_cycles else 0.0


def run_concurrent(sim: Any, launches: Sequence[ConcurrentLaunch], *,
                   restart: bool = False) -> list[ConcurrentResult]:
    """Co-simulate ``launches`` on ``sim`` (a ``TimingSimulator``), each on its SM set, sharing
    the memory system. With ``restart`` a launch that ends starts again (the same trace) until
    every launch has completed one run; the window ends there and the runs in progress finish
    without being counted. Returns one ``ConcurrentResult`` per launch, in order."""
    if not launches:
        return []
    if sim._launch is not None:
        raise InternalError("run_concurrent: the simulator has a launch in progress")
    n_sms = sim.cfg.sm.n_sms
    owner = np.full(n_sms, -1, np.int64)
    for i, lc in enumerate(launches):
        for x in lc.sms:
            if 0 <= int(x) < n_sms and owner[int(x)] >= 0:
                raise LaunchError(lc.kernel or "<kernel>", f"SM {int(x)} is in the SM sets of "
                                  f"launches {int(owner[int(x)])} and {i} of a concurrent "
                                  "group", hint="give concurrent kernels disjoint SM sets")
            if 0 <= int(x) < n_sms:
                owner[int(x)] = i
    t0 = time.perf_counter()
    counts = sim.make_counts()
    group_start = sim.clock
    out = [ConcurrentResult() for _ in launches]
    lws = [_start(sim, lc, counts) for lc in launches]
    insn0 = counts[:, C_GPU_SIM_INSN].copy()
    window_end = -1
    window_insn = insn0
    while True:
        slots = tuple(LaunchSlot(lw.state, lw.tables, lw.window, lw.prm,
                                 sim._hook_state(lw, lw.window)) for lw in lws)
        status = int(run_group(slots, counts, sim.memsys.kind_map, sim.ms, sim._ports,
                               sim.hooks, bool(sim.prm[tc.P_SKIP_IDLE]), sim.max_cycles))
        if status in (tc.ST_FAULT, tc.ST_CYCLE_LIMIT):
            bad = next((lw for lw in lws if lw.state.sc[tc.SC_DONE_AT] == 0), lws[0])
            bad.status = status
            sim._raise(bad)
        now = int(lws[0].state.sc[tc.SC_CYCLE])
        for i, lw in enumerate(lws):
            done_at = int(lw.state.sc[tc.SC_DONE_AT])
            if done_at == 0 or lw.recorded:
                continue
            lw.recorded = True
            out[i].runs.append(_run_result(sim, lw, counts, done_at))
            if restart and window_end < 0 and not all(r.runs for r in out):
                lws[i] = _start(sim, launches[i], counts, at=now)
        if restart and window_end < 0 and all(r.runs for r in out):
            window_end = now
            window_insn = counts[:, C_GPU_SIM_INSN].copy()
        if status == tc.ST_DONE:
            break
    end = int(lws[0].state.sc[tc.SC_CYCLE])
    if sim.memsys.flush_counters is not None:
        sim.memsys.flush_counters(sim.ms, counts)
    if window_end < 0:
        window_end = end
        window_insn = counts[:, C_GPU_SIM_INSN]
    for r, lc in zip(out, launches, strict=True):
        rows = np.asarray([int(x) for x in lc.sms], np.int64)
        r.window_cycles = window_end - group_start
        r.window_insn = int((window_insn[rows] - insn0[rows]).sum())
    sim.clock = end
    sim.total_cycles += end - group_start
    counts[:, C_GPU_SIM_CYCLE] = end - group_start
    sim.total_counts += counts
    sim.total_counts[:, C_GPU_TOT_SIM_CYCLE] = sim.total_cycles
    sim.n_launches += sum(len(r.runs) for r in out)
    wall = time.perf_counter() - t0
    for r in out:
        for res in r.runs:
            res.wall_s = wall
    return out


def _start(sim: Any, lc: ConcurrentLaunch, counts: np.ndarray, at: int | None = None) -> Any:
    """A launch of the group with its whole trace delivered, starting at the clock ``at``."""
    if at is not None:
        sim.clock = at
    lw = sim.new_launch(lc.program, lc.alloc, n_ctas=lc.n_ctas, cta_threads=lc.cta_threads,
                        regs_per_thread=lc.regs_per_thread, shmem_bytes=lc.shmem_bytes,
                        tables=lc.tables, kernel=lc.kernel, sms=lc.sms, counts=counts)
    for chunk in lc.chunks:
        sim._add_chunk(lw, chunk)
    sim._rebuild_window(lw, lc.n_ctas)
    lw.state.sc[tc.SC_FINAL] = 1
    mine = lw.state.smv[:, fl.F_SM_CTA_CAP] >= 0
    lw.rows = np.flatnonzero(mine)
    lw.counts0 = counts[lw.rows].copy()
    lw.recorded = False
    return lw


def _run_result(sim: Any, lw: Any, counts: np.ndarray, done_at: int) -> Any:
    """``TimingResult`` of one completed run: its SMs' counter rows since it started."""
    own = np.zeros_like(counts)
    own[lw.rows] = counts[lw.rows] - lw.counts0
    cycles = done_at - lw.start_cycle
    own[:, C_GPU_SIM_CYCLE] = cycles
    return sim._result(lw, own, cycles)
