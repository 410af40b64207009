"""Dynamic Warp Execution: per-SM probability of letting non-owner warps issue long-latency
memory instructions, moved by one step per window against the reference SM 0.

Follows: Jatala et al. Sec. 5.3; specs/register-sharing.md §4.3 (P in tenths, P_0 = 0 for good,
P_i = 1 at each launch, every ``dwe_window_cycles`` SM_i compares its stall cycles of the
window with SM_0's: more -> P_i - p, fewer -> P_i + p, equal -> unchanged, P kept in [0, 1]).
Assumptions:
  [A] Draws: a counter-based 32-bit integer hash of (seed, SM, the SM's draw count), so runs
      are deterministic and independent of idle-cycle skipping (a cycle with a draw is never
      skipped); a warp issues when ``hash % 10 < P``. Per issue attempt by default;
      ``dwe_sticky`` keeps a denial for the rest of the window.
  [A] Windows start at the launch's first cycle; a window in which SM_i or SM_0 had no
      resident thread block (no active cycle) leaves P_i unchanged (spec §10.10 "freeze").
  [A] Stall cycles: the window's ``sched_pipe_stall_cycles`` of the SM (``pipeline_stall``),
      or every scheduler-cycle without an issue (``all_nonissue``).
"""

from __future__ import annotations

from warpsim._jit import jit
from warpsim.mechanisms.register_sharing.state import (
    G_DWE_DRAWS,
    G_DWE_WINDOWS,
    G_FORCE,
    G_METRIC,
    G_SEED,
    G_STEP,
    G_STICKY,
    G_WIN_START,
    G_WINDOW,
    M_P,
    M_RNG_CTR,
    M_WIN_ACTIVE,
    M_WIN_METRIC,
    W_STICKY,
)
from warpsim.stats import (
    C_SCHED_BARRIER_STALL_CYCLES,
    C_SCHED_IBUFFER_EMPTY_CYCLES,
    C_SCHED_IDLE_CYCLES,
    C_SCHED_PIPE_STALL_CYCLES,
    C_SCHED_SCOREBOARD_STALL_CYCLES,
    C_SM_ACTIVE_CYCLES,
)

__all__ = ["draw_tenth", "dwe_allow", "dwe_window_end", "hash32", "stall_metric"]

_M32 = 0xFFFFFFFF


@jit
def hash32(x):  # pragma: no cover - jit
    """A 32-bit integer mixing function (xorshift-multiply; every product fits in int64)."""
    x = x & _M32
    x = (((x >> 16) ^ x) * 0x45D9F3B) & _M32
    x = (((x >> 16) ^ x) * 0x45D9F3B) & _M32
    return (x >> 16) ^ x


@jit
def draw_tenth(seed, sm, ctr):  # pragma: no cover - jit
    """The ``ctr``-th draw of SM ``sm``: an integer in 0..9."""
    h = hash32(hash32(hash32(seed) ^ sm) ^ (ctr & _M32))
    return h % 10


@jit
def dwe_allow(hs, sm, w, cycle):  # pragma: no cover - jit
    """Whether SM ``sm`` lets warp ``w`` (a non-owner) issue a throttled memory instruction."""
    g = hs.g
    p = hs.smr[sm, M_P]
    if p <= 0:
        return False
    if p >= 10:
        return True
    if g[G_STICKY] != 0 and hs.warp[sm, w, W_STICKY] > cycle:
        return False
    g[G_DWE_DRAWS] += 1
    g[G_FORCE] = cycle  # a draw may differ next cycle: that cycle must not be skipped
    r = draw_tenth(g[G_SEED], sm, hs.smr[sm, M_RNG_CTR])
    hs.smr[sm, M_RNG_CTR] += 1
    if r < p:
        return True
    if g[G_STICKY] != 0 and g[G_WIN_START] >= 0:
        win = g[G_WINDOW]
        hs.warp[sm, w, W_STICKY] = g[G_WIN_START] + ((cycle - g[G_WIN_START]) // win + 1) * win
    return False


@jit
def stall_metric(counters, sm, all_nonissue):  # pragma: no cover - jit
    """The SM's stall cycles DWE compares (cumulative over the launch)."""
    v = counters[sm, C_SCHED_PIPE_STALL_CYCLES]
    if all_nonissue != 0:
        v += (counters[sm, C_SCHED_SCOREBOARD_STALL_CYCLES]
              + counters[sm, C_SCHED_BARRIER_STALL_CYCLES]
              + counters[sm, C_SCHED_IBUFFER_EMPTY_CYCLES] + counters[sm, C_SCHED_IDLE_CYCLES])
    return v


@jit
def dwe_window_end(hs, counters):  # pragma: no cover - jit
    """Close a window: move every SM's P by one step against SM 0, record the trace row."""
    g = hs.g
    smr = hs.smr
    n_sms = smr.shape[0]
    metric = g[G_METRIC]
    ref = stall_metric(counters, 0, metric) - smr[0, M_WIN_METRIC]
    ref_active = counters[0, C_SM_ACTIVE_CYCLES] - smr[0, M_WIN_ACTIVE]
    step = g[G_STEP]
    for sm in range(1, n_sms):
        stalls = stall_metric(counters, sm, metric) - smr[sm, M_WIN_METRIC]
        active = counters[sm, C_SM_ACTIVE_CYCLES] - smr[sm, M_WIN_ACTIVE]
        if active == 0 or ref_active == 0:
            continue
        if stalls > ref:
            smr[sm, M_P] = max(0, smr[sm, M_P] - step)
        elif stalls < ref:
            smr[sm, M_P] = min(10, smr[sm, M_P] + step)
    for sm in range(n_sms):
        smr[sm, M_WIN_METRIC] = stall_metric(counters, sm, metric)
        smr[sm, M_WIN_ACTIVE] = counters[sm, C_SM_ACTIVE_CYCLES]
    n = g[G_DWE_WINDOWS]
    if n < hs.trace.shape[0]:
        for sm in range(n_sms):
            hs.trace[n, sm] = smr[sm, M_P]
    g[G_DWE_WINDOWS] = n + 1
