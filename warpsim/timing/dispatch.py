"""CTA dispatch: occupancy limits per SM, round-robin CTA placement, warp launch, warp exit,
CTA barriers and CTA release.

Follows: GPGPU-Sim 3.x ``shader_core_config::max_cta`` (the minimum over threads, warps, CTAs,
registers ``(regs + 3) & ~3`` per thread times the warp-padded CTA size, and shared memory;
``n_regs_alloc_granule`` generalises the ``& ~3``) and ``issue_block2core`` (one CTA per SM per
cycle, SMs visited round robin after the last one that received a CTA); barriers per warp
arrival (exited warps count as arrived), hardware warp slots freed when the whole CTA completes.
Warp-level dispatch and release (the seam for WarpMan, Xiang's dissertation §3.4, Figs. 30-31):
the ``warps_to_place`` hook may start a CTA with only its first warps (warp-id order); the
dispatcher offers free warp slots to the SM's partially dispatched CTAs (per-CTA field
``N_PLACED``, per-SM count ``N_PARTIAL``, launch-wide ``SC_N_PARTIAL`` so the baseline never
scans) every cycle before it considers a new CTA, and the ``release_warp_slot`` hook may free an
exited warp's slot at its exit. A CTA's warps not placed yet count as live: its barriers wait
for them and it completes only when every warp was placed and exited.
Assumptions:
  [A] ``bar.arrive`` and a barrier's thread count are not modelled: every ``bar.sync`` waits for
      all live warps of the CTA (the functional executor already checked the program).
  [A] A warp exits when it has issued its last trace record and every issued instruction has
      written back (stores: once their lines were sent; with ``l2.store_acks`` once the L2
      acknowledged them, GPGPU-Sim's ``hardware_done``, ``store_ack.py``).
  [A] Warps of a partially dispatched CTA are placed on the lowest free warp slots in the cycle
      the hook allows it, at the dispatch stage (after the SMs ticked), like a whole CTA; they
      decode from the next cycle. Several partially dispatched CTAs of an SM are offered slots
      oldest (lowest CTA id) first; SMs in index order (the resources are per SM).
  [A] Registers and shared memory are not tracked by the engine beyond the CTAs-per-SM
      occupancy: a mechanism allocating them per warp keeps its own account (its hooks see
      every warp launch and exit) and answers ``warps_to_place`` from it.
"""

from __future__ import annotations

import numpy as np

from warpsim._jit import jit
from warpsim.arch import GPUConfig
from warpsim.errors import LaunchError
from warpsim.stats import (
    C_SM_CTAS_LAUNCHED,
    C_SM_WARPS_LAUNCHED,
)
from warpsim.timing.consts import (
    INT64_MAX,
    P_CTA_WARPS,
    P_LAUNCH_LAT,
    P_N_CTAS,
    SC_AGE,
    SC_CTAS_DONE,
    SC_LAST_SM,
    SC_N_DELIVERED,
    SC_N_PARTIAL,
    SC_NEXT_CTA,
    SC_TL_SEQ,
)
from warpsim.timing.fields import (
    F_CTA_ID,
    F_CTA_N_BAR,
    F_CTA_N_LIVE,
    F_CTA_N_PLACED,
    F_CTA_VALID,
    F_SM_CTA_CAP,
    F_SM_N_CTAS,
    F_SM_N_PARTIAL,
    F_SM_N_WARPS,
    F_WARP_ACK_WAIT,
    F_WARP_AGE,
    F_WARP_AT_BAR,
    F_WARP_CTA,
    F_WARP_END,
    F_WARP_FETCH_READY,
    F_WARP_GID,
    F_WARP_INFLIGHT,
    F_WARP_POS,
    F_WARP_SB_COUNT,
    F_WARP_STORES,
    F_WARP_TL_ACTIVE,
    F_WARP_TL_SEQ,
    F_WARP_VALID,
    F_WT_BEG,
    F_WT_END,
)
from warpsim.timing.warpbits import set_at_bar, set_ibuf_empty, set_sb_wait, set_valid

__all__ = ["ctas_per_sm", "occupancy_limits", "release_barrier", "tick_dispatch",
           "warp_try_exit"]


def occupancy_limits(cfg: GPUConfig, cta_threads: int, regs_per_thread: int,
                     shmem_bytes: int) -> dict[str, int]:
    """CTAs per SM allowed by each resource (GPGPU-Sim ``max_cta``), by resource name."""
    sm = cfg.sm
    warps = -(-cta_threads // sm.n_threads_per_warp)
    padded = warps * sm.n_threads_per_warp
    granule = sm.n_regs_alloc_granule
    regs = -(-regs_per_thread // granule) * granule * padded
    out = {"ctas": sm.n_max_ctas, "threads": sm.n_max_threads // padded,
           "warps": sm.n_max_warps // warps,
           "registers": sm.n_registers // regs if regs else sm.n_max_ctas,
           "shared_memory": cfg.shmem.size_bytes // shmem_bytes if shmem_bytes else
           sm.n_max_ctas}
    if regs > sm.n_max_regs_per_cta:
        out["registers"] = 0
    if shmem_bytes > cfg.shmem.cta_limit_bytes:
        out["shared_memory"] = 0
    return out


def ctas_per_sm(cfg: GPUConfig, cta_threads: int, regs_per_thread: int,
                shmem_bytes: int, kernel: str = "") -> int:
    """Resident CTAs one SM can hold; ``LaunchError`` when not even one fits."""
    lim = occupancy_limits(cfg, cta_threads, regs_per_thread, shmem_bytes)
    n = min(lim.values())
    if n < 1:
        short = [k for k, v in lim.items() if v < 1]
        raise LaunchError(kernel or "<kernel>", f"one CTA of {cta_threads} threads, "
                          f"{regs_per_thread} registers per thread and {shmem_bytes} bytes of "
                          f"shared memory does not fit on an SM of {cfg.name} "
                          f"(limited by {', '.join(short)})",
                          hint="use smaller blocks or fewer registers/shared memory")
    return n


@jit
def release_barrier(st, sm, c):  # pragma: no cover - jit
    """Release every warp of CTA slot ``c`` waiting at its barrier."""
    for w in range(st.warp.shape[1]):
        if st.warp[sm, w, F_WARP_CTA] == c and st.warp[sm, w, F_WARP_AT_BAR] != 0:
            set_at_bar(st.warp, st.warp_bits, sm, w, 0)
    st.cta[sm, c, F_CTA_N_BAR] = 0


@jit
def warp_try_exit(st, sm, w, cycle, hs, hooks):  # pragma: no cover
    """Retire warp ``w`` when it has issued and completed everything; free its warp slot when
    the ``release_warp_slot`` hook says so (WarpMan), release its CTA when it was the CTA's
    last warp (its warps not placed yet count as live). Returns True when the warp exited."""
    if st.warp[sm, w, F_WARP_VALID] == 0:
        return False
    if (st.warp[sm, w, F_WARP_POS] < st.warp[sm, w, F_WARP_END]
            or st.warp[sm, w, F_WARP_INFLIGHT] != 0):
        return False
    if st.warp[sm, w, F_WARP_STORES] != 0:  # stores not acknowledged yet (``store_ack.py``)
        if st.warp[sm, w, F_WARP_ACK_WAIT] < 0:
            st.warp[sm, w, F_WARP_ACK_WAIT] = cycle
        return False
    set_valid(st.warp, st.warp_bits, sm, w, 0)
    set_ibuf_empty(st.warp, st.warp_bits, sm, w)
    st.warp[sm, w, F_WARP_TL_ACTIVE] = 0
    st.smv[sm, F_SM_N_WARPS] -= 1
    hooks.on_warp_exit(hs, sm, w, cycle)
    c = st.warp[sm, w, F_WARP_CTA]
    if hooks.release_warp_slot(hs, sm, w, cycle):
        st.warp[sm, w, F_WARP_CTA] = -1
    st.cta[sm, c, F_CTA_N_LIVE] -= 1
    if st.cta[sm, c, F_CTA_N_LIVE] == 0:
        for v in range(st.warp.shape[1]):
            if st.warp[sm, v, F_WARP_CTA] == c:
                st.warp[sm, v, F_WARP_CTA] = -1
        st.cta[sm, c, F_CTA_VALID] = 0
        st.cta[sm, c, F_CTA_N_BAR] = 0
        st.smv[sm, F_SM_N_CTAS] -= 1
        st.cta_done[st.cta[sm, c, F_CTA_ID]] = 1
        st.sc[SC_CTAS_DONE] += 1
        hooks.on_cta_release(hs, sm, c, cycle)
    elif 0 < st.cta[sm, c, F_CTA_N_BAR] >= st.cta[sm, c, F_CTA_N_LIVE]:
        release_barrier(st, sm, c)
    return True


@jit
def _start_cta(st, counters, sm, c, cta, wpc):  # pragma: no cover - jit
    """Take CTA slot ``c`` of ``sm`` for CTA ``cta``; its ``wpc`` warps are all live (not
    exited) from now on, placed or not, so its barriers wait for the ones not placed yet."""
    st.cta[sm, c, F_CTA_VALID] = 1
    st.cta[sm, c, F_CTA_ID] = cta
    st.cta[sm, c, F_CTA_N_LIVE] = wpc
    st.cta[sm, c, F_CTA_N_BAR] = 0
    st.cta[sm, c, F_CTA_N_PLACED] = 0
    st.smv[sm, F_SM_N_CTAS] += 1
    counters[sm, C_SM_CTAS_LAUNCHED] += 1


@jit
def _place_warps(st, tw, prm, counters, sm, c, k, cycle, hs, hooks):  # pragma: no cover - jit
    """Place the next ``k`` warps of the CTA in slot ``c`` on the lowest free warp slots (the
    caller checked they are free); warps without records exit at once."""
    wpc = prm[P_CTA_WARPS]
    cta = st.cta[sm, c, F_CTA_ID]
    first = st.cta[sm, c, F_CTA_N_PLACED]
    if first == 0 and k < wpc:
        st.smv[sm, F_SM_N_PARTIAL] += 1
        st.sc[SC_N_PARTIAL] += 1
    elif first > 0 and first + k == wpc:
        st.smv[sm, F_SM_N_PARTIAL] -= 1
        st.sc[SC_N_PARTIAL] -= 1
    st.cta[sm, c, F_CTA_N_PLACED] = first + k
    st.smv[sm, F_SM_N_WARPS] += k
    w = 0
    for i in range(first, first + k):
        while st.warp[sm, w, F_WARP_CTA] != -1:
            w += 1
        gw = cta * wpc + i
        st.warp[sm, w, F_WARP_CTA] = c
        set_valid(st.warp, st.warp_bits, sm, w, 1)
        st.warp[sm, w, F_WARP_GID] = gw
        st.warp[sm, w, F_WARP_POS] = tw.wt[gw, F_WT_BEG]
        st.warp[sm, w, F_WARP_END] = tw.wt[gw, F_WT_END]
        set_ibuf_empty(st.warp, st.warp_bits, sm, w)
        st.warp[sm, w, F_WARP_FETCH_READY] = cycle + 1
        st.warp[sm, w, F_WARP_AGE] = st.sc[SC_AGE]
        st.sc[SC_AGE] += 1
        set_at_bar(st.warp, st.warp_bits, sm, w, 0)
        st.warp[sm, w, F_WARP_INFLIGHT] = 0
        for j in range(st.warp_sb.shape[2]):
            st.warp_sb[sm, w, j] = 0
            st.warp_sb_long[sm, w, j] = 0
        st.warp[sm, w, F_WARP_SB_COUNT] = 0
        set_sb_wait(st.warp, st.warp_bits, sm, w, 0)
        st.warp[sm, w, F_WARP_TL_ACTIVE] = 0
        st.warp[sm, w, F_WARP_TL_SEQ] = st.sc[SC_TL_SEQ]
        st.sc[SC_TL_SEQ] += 1
        hooks.on_warp_launch(hs, sm, w, c, i, cycle)
    counters[sm, C_SM_WARPS_LAUNCHED] += k
    for v in range(st.warp.shape[1]):  # warps without records exit at once
        if st.warp[sm, v, F_WARP_CTA] == c:
            warp_try_exit(st, sm, v, cycle, hs, hooks)


@jit
def _free_warp_slots(st, sm):  # pragma: no cover - jit
    """Warp slots of ``sm`` no CTA holds."""
    free = 0
    for w in range(st.warp.shape[1]):
        if st.warp[sm, w, F_WARP_CTA] == -1:
            free += 1
    return free


@jit
def _place_partial(st, tw, prm, counters, sm, cycle, hs, hooks):  # pragma: no cover - jit
    """Offer the free warp slots of ``sm`` to its partially dispatched CTAs, oldest (lowest
    CTA id) first (WarpMan's workload buffer: unplaced warps of a started block take freed
    resources before a new block). Returns True when a warp was placed."""
    wpc = prm[P_CTA_WARPS]
    n_c = st.cta.shape[1]
    last = np.int64(-1)
    progress = False
    while True:
        c = -1
        best = INT64_MAX
        for s in range(n_c):
            if (st.cta[sm, s, F_CTA_VALID] != 0 and st.cta[sm, s, F_CTA_N_PLACED] < wpc
                    and last < st.cta[sm, s, F_CTA_ID] < best):
                c = s
                best = st.cta[sm, s, F_CTA_ID]
        if c < 0:
            return progress
        last = best
        placed = st.cta[sm, c, F_CTA_N_PLACED]
        rem = wpc - placed
        free = _free_warp_slots(st, sm)
        k = hooks.warps_to_place(hs, sm, best, c, placed, wpc, free,
                                 rem if free >= rem else 0)
        k = min(k, rem, free)
        if k > 0:
            _place_warps(st, tw, prm, counters, sm, c, k, cycle, hs, hooks)
            progress = True


@jit
def tick_dispatch(st, tw, prm, counters, cycle, hs, hooks):  # pragma: no cover - jit
    """Place more warps of partially dispatched CTAs where the ``warps_to_place`` hook allows
    (never in the baseline); then give at most one new CTA to each SM that has room, SMs in
    round-robin order starting after the last SM that received one. Returns True when a CTA
    or a warp was placed."""
    if cycle < prm[P_LAUNCH_LAT]:
        return False
    n_sms = st.warp.shape[0]
    progress = False
    if st.sc[SC_N_PARTIAL] > 0:
        for sm in range(n_sms):
            if st.smv[sm, F_SM_N_PARTIAL] > 0 and _place_partial(st, tw, prm, counters, sm,
                                                                  cycle, hs, hooks):
                progress = True
    first = st.sc[SC_LAST_SM] + 1
    wpc = prm[P_CTA_WARPS]
    n_c = st.cta.shape[1]
    for i in range(n_sms):
        sm = (first + i) % n_sms
        cta = st.sc[SC_NEXT_CTA]
        if cta >= prm[P_N_CTAS] or cta >= st.sc[SC_N_DELIVERED]:
            break
        cap = st.smv[sm, F_SM_CTA_CAP]
        if cap < 0:  # not in the launch's SM set
            continue
        fits = st.smv[sm, F_SM_N_CTAS] < cap
        free = 0
        if fits:
            free = _free_warp_slots(st, sm)
            fits = free >= wpc
        if not hooks.cta_fit(hs, sm, cta, fits):
            continue
        if not fits:  # admitted beyond the baseline: only where a CTA slot is free
            if st.smv[sm, F_SM_N_CTAS] >= n_c:
                continue
            free = _free_warp_slots(st, sm)
        c = 0
        while st.cta[sm, c, F_CTA_VALID] != 0:
            c += 1
        k = hooks.warps_to_place(hs, sm, cta, c, 0, wpc, free, wpc if free >= wpc else 0)
        k = min(k, wpc, free)
        if k <= 0:
            continue
        _start_cta(st, counters, sm, c, cta, wpc)
        _place_warps(st, tw, prm, counters, sm, c, k, cycle, hs, hooks)
        st.sc[SC_NEXT_CTA] = cta + 1
        st.sc[SC_LAST_SM] = sm
        progress = True
    return progress
