"""The cycle loop of the SM cores: every SM's units ticked back to front (writeback, execute,
operand collect, issue, decode), then CTA dispatch and the memory system; idle cycles skipped.

Follows: GPGPU-Sim 3.2.2 ``shader_core_ctx::cycle`` (writeback, execute, read_operands, issue,
decode, fetch, so an instruction advances one stage per cycle) and ``gpgpu_sim::cycle`` (CTA
issue to cores, memory partitions); STYLE.md §2.4 (tick functions report progress; when nothing
progressed the clock jumps to the next event and every per-cycle counter advances by the jump;
hooks and the memory system are jitted functions passed as arguments, one uncached loop;
``on_cycle_end`` ends every simulated cycle and may forbid skipping past a cycle).
Assumptions:
  [A] Idle skipping: a cycle in which no SM unit, the dispatcher or the memory system changed
      state is repeated identically until the next timed event (a result becoming ready, a
      unit's initiation interval ending, a fetch becoming possible, the launch latency, the
      memory system's next event), so its counter increments are multiplied by the skipped
      count. Round-robin pointers derive from the clock, so skipping changes nothing else.
      The counters are copied only at the start of a cycle that follows an idle one: the
      first idle cycle of a stretch is simulated, the second (identical) one is copied and
      measured, and the skip starts after it (same totals; a copy per cycle cost 2-3 % of a
      compute-bound kernel's loop, where idle cycles are rare).
  [A] The launch ends on the first cycle after every CTA finished and the memory system holds
      nothing (GPGPU-Sim also waits for outstanding memory before a kernel ends).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from warpsim._bundle import register_bundle
from warpsim._jit import jit_alloc, jit_inline
from warpsim.stats import (
    C_SM_ACTIVE_CYCLES,
    C_SM_ACTIVE_WARP_CYCLES,
    C_SM_IDLE_CYCLES,
)
from warpsim.timing.borrow import borrowed
from warpsim.timing.consts import (
    INT64_MAX,
    P_LAUNCH_LAT,
    P_MECH_MEM,
    P_N_CTAS,
    P_OC_STEPS,
    P_SKIP_IDLE,
    SC_CTAS_DONE,
    SC_CYCLE,
    SC_FAULT,
    SC_FINAL,
    SC_N_DELIVERED,
    SC_N_PARTIAL,
    SC_NEXT_CTA,
    ST_CYCLE_LIMIT,
    ST_DONE,
    ST_FAULT,
    ST_NEED_CTAS,
)
from warpsim.timing.dispatch import tick_dispatch
from warpsim.timing.fields import (
    F_CU_VALID,
    F_IDOC_COUNT,
    F_LDST_CUR,
    F_SM_CTA_CAP,
    F_SM_LINES_OUT,
    F_SM_N_CTAS,
    F_SM_N_PARKED,
    F_SM_N_WARPS,
    F_SM_NEXT_WB,
    F_WARP_FETCH_READY,
    F_WARP_VALID,
)
from warpsim.timing.inflight import tick_parked
from warpsim.timing.mechport import tick_mech_port
from warpsim.timing.pipeline import (
    dispatch_ready_collectors,
    tick_execute,
    tick_writeback,
)
from warpsim.timing.regfile import tick_operand_collector
from warpsim.timing.sched import tick_decode, tick_issue

__all__ = ["FAULT_DEADLOCK", "MemPorts", "next_event", "run_engine", "tick_cores"]

FAULT_DEADLOCK = 1
"""``sc[SC_FAULT]``: nothing can ever happen again but CTAs are unfinished."""


@jit_inline
def next_event(st, prm, cycle):  # pragma: no cover - jit
    """Earliest cycle > ``cycle`` at which a core unit can change state (INT64_MAX: never)."""
    nxt = INT64_MAX
    if prm[P_LAUNCH_LAT] > cycle:
        nxt = prm[P_LAUNCH_LAT]
    n_sms = st.warp.shape[0]
    for sm in range(n_sms):
        if st.smv[sm, F_LDST_CUR] >= 0:
            return cycle + 1
        v = st.smv[sm, F_SM_NEXT_WB]
        if v < INT64_MAX:
            nxt = min(nxt, max(v, cycle + 1))
        for u in range(st.unit_free_at.shape[1]):
            v = st.unit_free_at[sm, u]
            if cycle < v < nxt:
                nxt = v
        for w in range(st.warp.shape[1]):
            if st.warp[sm, w, F_WARP_VALID] != 0:
                v = st.warp[sm, w, F_WARP_FETCH_READY]
                if cycle < v < nxt:
                    nxt = v
    return nxt


@jit_inline
def _may_dispatch(st, prm, cycle):  # pragma: no cover - jit
    """A CTA is waiting and some SM has a free CTA slot (``tick_dispatch`` decides)."""
    cta = st.sc[SC_NEXT_CTA]
    if cycle < prm[P_LAUNCH_LAT] or cta >= prm[P_N_CTAS] or cta >= st.sc[SC_N_DELIVERED]:
        return False
    for sm in range(st.smv.shape[0]):
        if st.smv[sm, F_SM_N_CTAS] < st.smv[sm, F_SM_CTA_CAP]:
            return True
    return False


@jit_inline
def tick_cores(st, tb, tw, prm, counters, cycle, ms, mem, mem_kind_map, hs,
               hooks):  # pragma: no cover - jit
    """One cycle of the SMs the launch owns (each SM's units back to front, then CTA and warp
    dispatch); returns True when any unit or the dispatcher changed state."""
    n_sms = st.warp.shape[0]
    sc = st.sc
    mech_port = prm[P_MECH_MEM] != 0
    progress = False
    # units are only called when they can have work (the checks below are exact, not
    # heuristics): each call still scans state and binds its tuple arguments
    for sm in range(n_sms):  # each SM's units back to front
        if st.smv[sm, F_SM_CTA_CAP] < 0:  # another launch's SM (concurrent kernels)
            continue
        # asked per SM: an earlier SM may have popped the last completion queued
        if ((st.smv[sm, F_SM_LINES_OUT] > 0 and mem.has_completion(ms))
                or st.smv[sm, F_SM_NEXT_WB] <= cycle):
            if tick_writeback(st, tb, tw, prm, counters, sm, cycle, ms, mem, hs, hooks):
                progress = True
        if st.smv[sm, F_LDST_CUR] >= 0:
            if tick_execute(st, tw, counters, sm, cycle, ms, mem, mem_kind_map):
                progress = True
        elif mech_port and tick_mech_port(st, counters, sm, cycle, ms, mem, mem_kind_map,
                                          hs, hooks):
            progress = True
        busy = False
        for i in range(st.cu.shape[1]):
            if st.cu[sm, i, F_CU_VALID] != 0:
                busy = True
                break
        for i in range(st.idoc_hc.shape[1]):
            if st.idoc_hc[sm, i, F_IDOC_COUNT] != 0:
                busy = True
                break
        if busy:
            for step in range(prm[P_OC_STEPS]):
                if dispatch_ready_collectors(st, tb, tw, prm, counters, sm, cycle, hs,
                                             hooks):
                    progress = True
                if tick_operand_collector(st, tb, tw, prm, counters, sm, cycle, step, hs,
                                          hooks):
                    progress = True
        # parked instructions a mechanism releases re-enter at the issue stage
        if st.smv[sm, F_SM_N_PARKED] > 0 and tick_parked(st, tb, tw, counters, sm, cycle,
                                                          hs, hooks):
            progress = True
        if st.smv[sm, F_SM_N_CTAS] > 0:
            # no pre-scan for "any instruction" / "any fetch": each unit's own scan answers
            # it as cheaply, and with one the pre-scan was a second pass over the warp rows
            if tick_issue(st, tb, tw, prm, counters, sm, cycle, hs, hooks):
                progress = True
            if tick_decode(st.warp, st.warp_bits, tw.rec, tw.base, tb.pc_info, prm, counters,
                           sm, cycle, hs, hooks):
                progress = True
            counters[sm, C_SM_ACTIVE_CYCLES] += 1
            counters[sm, C_SM_ACTIVE_WARP_CYCLES] += st.smv[sm, F_SM_N_WARPS]
        else:
            counters[sm, C_SM_IDLE_CYCLES] += 1
    # partially dispatched CTAs (a mechanism's ``warps_to_place``) are offered warp slots
    # every cycle; the baseline never has any
    if (sc[SC_N_PARTIAL] > 0 or _may_dispatch(st, prm, cycle)) and tick_dispatch(
            st, tw, prm, counters, cycle, hs, hooks):
        progress = True
    return progress


@register_bundle
class MemPorts(NamedTuple):
    """The memory system's jitted functions, one bundle (``driver.MemSystem`` builds it)."""

    access: Any
    tick: Any
    next_event: Any
    pop_completion: Any
    has_completion: Any
    busy: Any
    set_fetch_group: Any


@jit_alloc
def run_engine(st, tb, tw, prm, counters, mem_kind_map, ms, mem, hs, hooks,
               max_cycle):  # pragma: no cover
    """Run cycles from ``sc[SC_CYCLE]`` until the launch is done (ST_DONE), the dispatcher may
    need CTAs not delivered yet (ST_NEED_CTAS; resume later at the same cycle), a deadlock
    (ST_FAULT) or ``max_cycle`` (ST_CYCLE_LIMIT). ``mem`` is a ``MemPorts`` bundle, ``hooks``
    a ``mechanisms.hooks.Hooks`` bundle and ``hs`` the hooks' state."""
    # unmanaged views: binding a state tuple to an inlined unit's argument otherwise costs an
    # atomic incref and decref per array (``timing/borrow.py``); the caller keeps them alive
    st = borrowed(st)
    tb = borrowed(tb)
    tw = borrowed(tw)
    prm = borrowed(prm)
    counters = borrowed(counters)
    mem_kind_map = borrowed(mem_kind_map)
    ms = borrowed(ms)
    hs = borrowed(hs)
    n_sms = st.warp.shape[0]
    skip = prm[P_SKIP_IDLE] != 0
    snap = np.empty_like(counters)
    snapped = False  # snap holds the counters at the start of this cycle
    sc = st.sc
    n_ctas = prm[P_N_CTAS]
    while True:
        cycle = sc[SC_CYCLE]
        if (sc[SC_FINAL] == 0 and sc[SC_NEXT_CTA] < n_ctas
                and sc[SC_N_DELIVERED] - sc[SC_NEXT_CTA] < n_sms):
            return ST_NEED_CTAS
        if cycle >= max_cycle:
            return ST_CYCLE_LIMIT
        if snapped:
            snap[:, :] = counters
        progress = tick_cores(st, tb, tw, prm, counters, cycle, ms, mem, mem_kind_map, hs,
                              hooks)
        if mem.busy(ms) and mem.tick(ms, counters, cycle):
            progress = True
        hook_next = hooks.on_cycle_end(hs, counters, cycle)
        # mem_next_event is a pure query: only asked when the launch may end or to skip cycles
        all_done = sc[SC_CTAS_DONE] >= n_ctas and sc[SC_NEXT_CTA] >= n_ctas
        measured = snapped
        snapped = False
        if progress and not all_done:
            sc[SC_CYCLE] = cycle + 1
            continue
        mem_next = mem.next_event(ms, cycle + 1)
        if all_done and mem_next == INT64_MAX:
            sc[SC_CYCLE] = cycle + 1
            return ST_DONE
        if progress:
            sc[SC_CYCLE] = cycle + 1
            continue
        # a mechanism's cycle limits the skip, and a mechanism waiting on time alone (a
        # preload latency) is not a deadlock: the baseline's no-op answers INT64_MAX
        nxt = min(next_event(st, prm, cycle), mem_next, hook_next)
        if nxt == INT64_MAX:
            sc[SC_FAULT] = FAULT_DEADLOCK
            sc[SC_CYCLE] = cycle + 1
            return ST_FAULT
        if not skip or nxt <= cycle + 1:
            sc[SC_CYCLE] = cycle + 1
            continue
        if not measured:  # the next cycle repeats this one: copy the counters before it
            snapped = True
            sc[SC_CYCLE] = cycle + 1
            continue
        nxt = min(nxt, max_cycle)
        jump = nxt - cycle - 1
        counters += (counters - snap) * jump
        sc[SC_CYCLE] = nxt
