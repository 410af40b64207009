"""WarpMan's jitted hooks: the dispatch logic of Fig. 30, the workload buffer of Fig. 31, warp
completion (resources freed per warp), SM dueling and the concurrent-warp threshold.

Follows: specs/xiang-simt-efficiency.md §2.3 and the dissertation §3.4. The engine's seam
(``warps_to_place``, ``release_warp_slot``, ``cta_fit``; timing/dispatch.py) places the warps;
these hooks answer from the mechanism's own account of registers and scheduler entries:

- ``cta_fit``: a free TB slot (shared memory is block-granular: the slot cap includes it), then
  the block-level check (room for every warp of the block), else -- only while the SM's
  workload buffer is invalid -- the warp-level check (room for at least one warp);
- ``warps_to_place``: as many warps as the caps allow (warp-id order; a block started with only
  some of them fills the workload buffer, whose warps the engine offers freed resources every
  cycle before any new block);
- ``on_warp_exit`` + ``release_warp_slot``: a warp's registers and scheduler entry are freed at
  its exit (mode ``tb``: with its block, as the baseline).

Caps (§2.3): ``temp`` allocates within the block-level occupancy's registers and warps;
``temp_spatial`` within the SM's; ``threshold`` allows allocation beyond the block-level caps
only while fewer than ``n_warp_threshold`` warps are live [A]; ``dueling``: SM
``n_leader_spatial_sm`` always spatial, ``n_leader_temp_sm`` always temp, the others follow the
leader that executed more thread instructions in the last epoch [A].

Counters (§2.6): every allocation change goes through ``_advance`` (the time integrals of the
values held since the last change) and ``_record`` (the SM's log row for the cycle);
``on_cycle_end`` adds, per simulated cycle, the warps of partially dispatched blocks waiting at
a barrier (the engine scales it over skipped idle cycles); the ``threshold`` mode flags each
warp whose allocation the threshold refused while temp+spatial's caps would have allowed it.
"""

from __future__ import annotations

import numpy as np

from warpsim._jit import jit
from warpsim.mechanisms.warpman.state import (
    L_ACTIVE,
    L_CTAS,
    L_CYCLE,
    L_REGS,
    L_SHMEM,
    L_WARPS,
    M_DUELING,
    M_SPATIAL,
    M_TB,
    M_THRESHOLD,
    P_EPOCH,
    P_EPOCHS,
    P_EPOCHS_SPATIAL,
    P_INSN_SP,
    P_INSN_TEMP,
    P_LEAD_SP,
    P_LEAD_TEMP,
    P_MODE,
    P_N_WARPS,
    P_NEXT_EPOCH,
    P_PHYS_REGS,
    P_PHYS_WARPS,
    P_RPW,
    P_SHMEM,
    P_SLOTS,
    P_SPATIAL_ON,
    P_TEMP_REGS,
    P_TEMP_WARPS,
    P_THRESH,
    P_WPC,
    S_ACTIVE,
    S_ACTIVE_CYC,
    S_CTA_CYC,
    S_CTAS,
    S_LAST,
    S_LOG_DROPPED,
    S_LOG_N,
    S_MAX_REGS,
    S_MAX_WARPS,
    S_N_PARTIAL,
    S_N_WARP_LEVEL,
    S_PARTIAL,
    S_REG_CYC,
    S_REGS,
    S_SHMEM,
    S_SHMEM_CYC,
    S_WARP_CYC,
    S_WARPS,
    W_DISPATCH,
    W_ELIGIBLE,
    W_EXIT,
    W_SM,
    W_TBLOCKED,
)
from warpsim.stats import C_GPU_SIM_INSN
from warpsim.timing.consts import INT64_MAX
from warpsim.timing.fields import F_CTA_N_BAR, F_CTA_N_PLACED, F_CTA_VALID

__all__ = ["room", "wm_cta_fit", "wm_on_cta_release", "wm_on_cycle_end", "wm_on_warp_exit",
           "wm_on_warp_launch", "wm_release_warp_slot", "wm_warps_to_place"]


@jit
def _fit(free_warps, free_regs, rpw):  # pragma: no cover - jit
    """Warps that fit in ``free_warps`` entries and ``free_regs`` registers."""
    if free_warps <= 0 or free_regs < rpw:
        return np.int64(0)
    k = free_regs // rpw if rpw > 0 else free_warps
    return np.int64(min(free_warps, k))


@jit
def _spatial(hs, sm):  # pragma: no cover - jit
    """Whether ``sm`` may allocate beyond the block-level caps now (its mode)."""
    p = hs.prm
    mode = p[P_MODE]
    if mode == M_SPATIAL or mode == M_THRESHOLD:
        return True
    if mode == M_DUELING:
        if sm == p[P_LEAD_SP]:
            return True
        if sm == p[P_LEAD_TEMP]:
            return False
        return p[P_SPATIAL_ON] != 0
    return False


@jit
def _room(hs, sm, thresh):  # pragma: no cover - jit
    """Warps ``sm`` may allocate now; ``thresh`` False: without the threshold's cap."""
    p, s = hs.prm, hs.sm
    live, regs, rpw = s[sm, S_WARPS], s[sm, S_REGS], p[P_RPW]
    k = _fit(p[P_TEMP_WARPS] - live, p[P_TEMP_REGS] - regs, rpw)
    if _spatial(hs, sm):
        ks = _fit(p[P_PHYS_WARPS] - live, p[P_PHYS_REGS] - regs, rpw)
        if thresh and p[P_MODE] == M_THRESHOLD:
            ks = min(ks, max(np.int64(0), p[P_THRESH] - live))
        k = max(k, ks)
    return k


@jit
def room(hs, sm):  # pragma: no cover - jit
    """Warps ``sm`` may allocate now (registers and scheduler entries)."""
    return _room(hs, sm, True)


@jit
def _admits(hs, sm, k):  # pragma: no cover - jit
    """Fig. 30 with room for ``k`` warps: the block-level check, else (workload buffer
    empty) the warp-level check."""
    return k >= hs.prm[P_WPC] or (hs.sm[sm, S_PARTIAL] == 0 and k >= 1)


@jit
def _flag_blocked(hs, first, count):  # pragma: no cover - jit
    """Warps ``first`` .. ``first + count - 1`` (global) were refused by the threshold."""
    for gw in range(first, min(first + count, hs.prm[P_N_WARPS])):
        hs.wt[gw, W_TBLOCKED] = 1


@jit
def wm_cta_fit(hs, sm, cta, fits):  # pragma: no cover - jit
    """Fig. 30: a TB slot, then the block-level check, else (workload buffer empty) the
    warp-level check."""
    p, s = hs.prm, hs.sm
    if p[P_MODE] == M_TB:
        return fits
    if s[sm, S_CTAS] >= p[P_SLOTS]:
        return False
    ok = _admits(hs, sm, room(hs, sm))
    if not ok and p[P_MODE] == M_THRESHOLD:
        k = _room(hs, sm, False)
        if _admits(hs, sm, k):
            _flag_blocked(hs, cta * p[P_WPC], min(k, p[P_WPC]))
    return ok


@jit
def wm_warps_to_place(hs, sm, cta, cta_slot, placed, n_warps, free_warps,
                      n):  # pragma: no cover - jit
    """As many of the block's remaining warps as the caps allow."""
    if placed == 0:
        hs.slot_cta[sm, cta_slot] = cta
    p = hs.prm
    if p[P_MODE] == M_TB:
        return n
    k = np.int64(min(room(hs, sm), n_warps - placed))
    if p[P_MODE] == M_THRESHOLD:
        k_free = min(_room(hs, sm, False), n_warps - placed, free_warps)
        if k_free > k:
            _flag_blocked(hs, cta * p[P_WPC] + placed + k, k_free - k)
    if placed == 0 and 0 < k < n_warps:
        hs.sm[sm, S_N_PARTIAL] += 1
    return k


@jit
def _advance(hs, sm, cycle):  # pragma: no cover - jit
    """Integrate the SM's allocation over the cycles since its last change."""
    s = hs.sm
    dt = cycle - s[sm, S_LAST]
    if dt > 0:
        s[sm, S_REG_CYC] += s[sm, S_REGS] * dt
        s[sm, S_WARP_CYC] += s[sm, S_WARPS] * dt
        s[sm, S_ACTIVE_CYC] += s[sm, S_ACTIVE] * dt
        s[sm, S_CTA_CYC] += s[sm, S_CTAS] * dt
        s[sm, S_SHMEM_CYC] += s[sm, S_SHMEM] * dt
        s[sm, S_LAST] = cycle


@jit
def _record(hs, sm, cycle):  # pragma: no cover - jit
    """The SM's log row for ``cycle`` (the values after its last change so far)."""
    s, log = hs.sm, hs.log
    n = s[sm, S_LOG_N]
    if n > 0 and log[sm, n - 1, L_CYCLE] == cycle:
        n -= 1
    elif n >= log.shape[1]:
        s[sm, S_LOG_DROPPED] += 1
        return
    else:
        s[sm, S_LOG_N] = n + 1
    log[sm, n, L_CYCLE] = cycle
    log[sm, n, L_REGS] = s[sm, S_REGS]
    log[sm, n, L_WARPS] = s[sm, S_WARPS]
    log[sm, n, L_ACTIVE] = s[sm, S_ACTIVE]
    log[sm, n, L_CTAS] = s[sm, S_CTAS]
    log[sm, n, L_SHMEM] = s[sm, S_SHMEM]


@jit
def wm_on_warp_launch(hs, sm, warp, cta_slot, pos, cycle):  # pragma: no cover - jit
    """Allocate the warp's registers and entry; a block's first warp takes its TB slot and
    shared memory and fills the workload buffer until its last warp is placed."""
    p, s = hs.prm, hs.sm
    wpc = p[P_WPC]
    cta = hs.slot_cta[sm, cta_slot]
    gw = cta * wpc + pos
    _advance(hs, sm, cycle)
    if pos == 0:
        s[sm, S_CTAS] += 1
        s[sm, S_SHMEM] += p[P_SHMEM]
        for i in range(wpc):
            hs.wt[cta * wpc + i, W_DISPATCH] = cycle
            hs.wt[cta * wpc + i, W_SM] = sm
    hs.wt[gw, W_ELIGIBLE] = cycle
    hs.slot_gw[sm, warp] = gw
    s[sm, S_WARPS] += 1
    s[sm, S_ACTIVE] += 1
    s[sm, S_REGS] += p[P_RPW]
    s[sm, S_MAX_WARPS] = max(s[sm, S_MAX_WARPS], s[sm, S_WARPS])
    s[sm, S_MAX_REGS] = max(s[sm, S_MAX_REGS], s[sm, S_REGS])
    if pos == 0 and wpc > 1 and hs.wt[cta * wpc + wpc - 1, W_ELIGIBLE] < 0:
        s[sm, S_PARTIAL] = cta_slot + 1
    if cycle > hs.wt[gw, W_DISPATCH]:
        s[sm, S_N_WARP_LEVEL] += 1
    if pos == wpc - 1 and s[sm, S_PARTIAL] == cta_slot + 1:
        s[sm, S_PARTIAL] = 0
    _record(hs, sm, cycle)


@jit
def wm_on_warp_exit(hs, sm, warp, cycle):  # pragma: no cover - jit
    """Record the exit; free the warp's registers and entry (``tb``: with its block)."""
    gw = hs.slot_gw[sm, warp]
    if gw >= 0:
        hs.wt[gw, W_EXIT] = cycle
    hs.slot_gw[sm, warp] = -1
    _advance(hs, sm, cycle)
    hs.sm[sm, S_ACTIVE] -= 1
    if hs.prm[P_MODE] != M_TB:
        hs.sm[sm, S_WARPS] -= 1
        hs.sm[sm, S_REGS] -= hs.prm[P_RPW]
    _record(hs, sm, cycle)


@jit
def wm_release_warp_slot(hs, sm, warp, cycle):  # pragma: no cover - jit
    """The exited warp's scheduler entry is free now (``tb``: with its block)."""
    return hs.prm[P_MODE] != M_TB


@jit
def wm_on_cta_release(hs, sm, cta_slot, cycle):  # pragma: no cover - jit
    """The block's TB slot and shared memory (``tb``: and its warps' resources) are free."""
    p, s = hs.prm, hs.sm
    _advance(hs, sm, cycle)
    s[sm, S_CTAS] -= 1
    s[sm, S_SHMEM] -= p[P_SHMEM]
    hs.slot_cta[sm, cta_slot] = -1
    if p[P_MODE] == M_TB:
        s[sm, S_WARPS] -= p[P_WPC]
        s[sm, S_REGS] -= p[P_WPC] * p[P_RPW]
    _record(hs, sm, cycle)


@jit
def _barrier_stalls(hs):  # pragma: no cover - jit
    """Add this cycle's warps of partially dispatched blocks waiting at a barrier."""
    cta, wpc = hs.cta, hs.prm[P_WPC]
    for sm in range(min(cta.shape[0], hs.cnt.shape[0])):
        for c in range(cta.shape[1]):
            if cta[sm, c, F_CTA_VALID] != 0 and cta[sm, c, F_CTA_N_PLACED] < wpc:
                hs.cnt[sm, 0] += cta[sm, c, F_CTA_N_BAR]


@jit
def wm_on_cycle_end(hs, counters, cycle):  # pragma: no cover - jit
    """SM dueling: at each epoch boundary the leader with more thread instructions in the
    epoch decides the followers' allocation for the next one (ties: spatial). Also counts the
    barrier stall cycles of partially dispatched blocks' warps."""
    p = hs.prm
    if p[P_MODE] != M_TB:
        _barrier_stalls(hs)
    if p[P_MODE] != M_DUELING:
        return INT64_MAX
    if cycle >= p[P_NEXT_EPOCH]:
        a = counters[p[P_LEAD_SP], C_GPU_SIM_INSN]
        b = counters[p[P_LEAD_TEMP], C_GPU_SIM_INSN]
        win = (a - p[P_INSN_SP]) >= (b - p[P_INSN_TEMP])
        p[P_SPATIAL_ON] = 1 if win else 0
        p[P_EPOCHS] += 1
        p[P_EPOCHS_SPATIAL] += 1 if win else 0
        p[P_INSN_SP] = a
        p[P_INSN_TEMP] = b
        p[P_NEXT_EPOCH] = cycle + p[P_EPOCH]
    return p[P_NEXT_EPOCH]
