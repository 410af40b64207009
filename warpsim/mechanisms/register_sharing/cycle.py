"""Register Sharing's once-per-cycle work: counts that stand still over skipped idle cycles,
and the DWE window boundaries.

Follows: docs/timing-model.md "Idle cycles and determinism" (a skipped cycle repeats the last
simulated one, so the mechanism's per-cycle counts of that cycle are multiplied by the gap,
as the engine does with its counters); specs/register-sharing.md §4.3 (windows).
"""

from __future__ import annotations

from warpsim._jit import jit
from warpsim.mechanisms.register_sharing.dwe import dwe_window_end
from warpsim.mechanisms.register_sharing.state import (
    G_CYC_DENY,
    G_CYC_DWE_DENY,
    G_DENY,
    G_DWE,
    G_DWE_DENY,
    G_DWE_WINDOWS,
    G_FORCE,
    G_LAST_CYCLE,
    G_LAST_DENY,
    G_LAST_DWE_DENY,
    G_LAST_STALL,
    G_LOCK_STALL,
    G_SHARING,
    G_WIN_START,
    G_WINDOW,
    SC_DENY,
    SC_PASS,
)
from warpsim.timing.consts import INT64_MAX

__all__ = ["rs_on_cycle_end"]


@jit
def rs_on_cycle_end(hs, counters, cycle):  # pragma: no cover - jit
    """End of simulated cycle ``cycle``: count lock-stall scheduler-cycles, close a DWE window.
    Returns the next cycle the engine must simulate (INT64_MAX: no constraint)."""
    g = hs.g
    if g[G_SHARING] == 0:
        return INT64_MAX
    last = g[G_LAST_CYCLE]
    if last >= 0 and cycle > last + 1:  # cycles skipped since: repeats of cycle ``last``
        gap = cycle - last - 1
        g[G_LOCK_STALL] += g[G_LAST_STALL] * gap
        g[G_DENY] += g[G_LAST_DENY] * gap
        g[G_DWE_DENY] += g[G_LAST_DWE_DENY] * gap
    sched = hs.sched
    stall = 0
    for sm in range(sched.shape[0]):
        for s in range(sched.shape[1]):
            if sched[sm, s, SC_DENY] == cycle and sched[sm, s, SC_PASS] != cycle:
                stall += 1
    g[G_LOCK_STALL] += stall
    g[G_LAST_STALL] = stall
    g[G_LAST_DENY] = g[G_CYC_DENY]
    g[G_LAST_DWE_DENY] = g[G_CYC_DWE_DENY]
    g[G_CYC_DENY] = 0
    g[G_CYC_DWE_DENY] = 0
    g[G_LAST_CYCLE] = cycle
    nxt = INT64_MAX
    if g[G_DWE] != 0:
        if g[G_WIN_START] < 0:
            g[G_WIN_START] = cycle
        win = g[G_WINDOW]
        end = g[G_WIN_START] + (g[G_DWE_WINDOWS] + 1) * win  # first cycle of the next window
        if cycle + 1 >= end:
            dwe_window_end(hs, counters)
            end += win
            nxt = cycle + 1
        nxt = min(nxt, max(end - 1, cycle + 1))
        if g[G_FORCE] == cycle:
            nxt = cycle + 1
    return nxt
