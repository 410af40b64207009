"""Concurrent kernels: launches on disjoint SM sets co-simulated cycle by cycle, sharing the
memory system (interconnect, L2, DRAM) and one clock.

Follows: GPGPU-Sim's concurrent kernel execution (``-gpgpu_concurrent_kernel_sm``: each SM runs
CTAs of one kernel, kernels share the memory partitions); Xiang's dissertation §4.5 (GPU-H:
kernels steered to ILP-SMs or TLP-SMs run side by side; spatial partitioning of homogeneous
GPUs after Adriaens et al.). Each launch has its own core state, static tables, trace window,
parameters and hook state; its SMs are the ones with a CTA capacity >= 0
(``fields.F_SM_CTA_CAP``), the other launches' SMs are -1 in its state. One counts array
serves the group: core and memory counters go to the row of the SM that caused them, so a
launch's statistics are its SMs' rows.
Assumptions:
  [A] Every trace record of every launch is delivered before the group runs (no streaming):
      the functional passes of concurrent kernels run one after the other, a valid
      interleaving of independent kernels.
  [A] A launch of the group ends on the first cycle after its last CTA completed; stores it
      left in the memory system drain afterwards (their counters still go to its SMs' rows).
      The group ends when every launch ended and the memory system is empty.
  [A] ``on_cycle_end`` runs once per launch per cycle, with that launch's hook state.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from warpsim._jit import jit_alloc, jit_inline
from warpsim.timing.consts import (
    INT64_MAX,
    P_N_CTAS,
    SC_CTAS_DONE,
    SC_CYCLE,
    SC_DONE_AT,
    SC_FAULT,
    SC_NEXT_CTA,
    ST_CYCLE_LIMIT,
    ST_DONE,
    ST_FAULT,
    ST_LAUNCH_DONE,
)
from warpsim.timing.engine import FAULT_DEADLOCK, next_event, tick_cores

__all__ = ["LaunchSlot", "run_group"]


class LaunchSlot(NamedTuple):
    """One launch of a group: what ``run_engine`` takes for a single launch."""

    st: Any
    tb: Any
    tw: Any
    prm: Any
    hs: Any


@jit_alloc
def run_group(slots, counters, mem_kind_map, ms, mem, hooks, skip,
              max_cycle):  # pragma: no cover
    """Run the launches of ``slots`` (a tuple of ``LaunchSlot`` of one type, their states'
    ``sc[SC_CYCLE]`` equal) from that cycle until one of them ends (ST_LAUNCH_DONE; its
    ``sc[SC_DONE_AT]`` is set), all ended and the memory system is empty (ST_DONE), a deadlock
    (ST_FAULT, set in every running launch's ``sc[SC_FAULT]``) or ``max_cycle``
    (ST_CYCLE_LIMIT). Idle cycles are skipped as in ``run_engine`` when ``skip``."""
    snap = np.empty_like(counters)
    while True:
        cycle = slots[0].st.sc[SC_CYCLE]
        if cycle >= max_cycle:
            return ST_CYCLE_LIMIT
        snap[:, :] = counters
        progress = False
        for g in slots:
            if g.st.sc[SC_DONE_AT] == 0 and tick_cores(g.st, g.tb, g.tw, g.prm, counters, cycle,
                                                       ms, mem, mem_kind_map, g.hs, hooks):
                progress = True
        if mem.busy(ms) and mem.tick(ms, counters, cycle):
            progress = True
        hook_next = INT64_MAX
        for g in slots:
            if g.st.sc[SC_DONE_AT] == 0:
                hook_next = min(hook_next, hooks.on_cycle_end(g.hs, counters, cycle))
        ended = False
        running = False
        for g in slots:
            sc = g.st.sc
            if sc[SC_DONE_AT] != 0:
                continue
            n = g.prm[P_N_CTAS]
            if sc[SC_CTAS_DONE] >= n and sc[SC_NEXT_CTA] >= n:
                sc[SC_DONE_AT] = cycle + 1
                ended = True
            else:
                running = True
        nxt = cycle + 1
        if not (progress and running):
            mem_next = mem.next_event(ms, cycle + 1)
            if not running and mem_next == INT64_MAX:
                _set_cycle(slots, cycle + 1)
                return ST_DONE
            if not progress and not ended:
                far = mem_next
                for g in slots:
                    if g.st.sc[SC_DONE_AT] == 0:
                        far = min(far, next_event(g.st, g.prm, cycle))
                if far == INT64_MAX:
                    for g in slots:
                        if g.st.sc[SC_DONE_AT] == 0:
                            g.st.sc[SC_FAULT] = FAULT_DEADLOCK
                    _set_cycle(slots, cycle + 1)
                    return ST_FAULT
                far = min(far, hook_next, max_cycle)
                if skip and far > cycle + 1:
                    counters += (counters - snap) * (far - cycle - 1)
                    nxt = far
        _set_cycle(slots, nxt)
        if ended:
            return ST_LAUNCH_DONE


@jit_inline
def _set_cycle(slots, cycle):  # pragma: no cover - jit
    for g in slots:
        g.st.sc[SC_CYCLE] = cycle
