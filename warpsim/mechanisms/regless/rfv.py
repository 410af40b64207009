"""RFV, the paper's first comparison baseline (Jeon et al., MICRO'15, "GPU register file
virtualization"): a half-size physical register file whose registers are renamed, allocated at
a value's first write and released at the compiler's release points. RegLess's own lifetime
annotations (erase flags, header invalidations) are the release points.

Follows: Kloosterman et al., RegLess (MICRO-50 2017) §6 ("a half-size register file and a
negligible cost for the rename table and metadata instructions", a two-level scheduler);
specs/regless.md §5.3 item 2 (the model: allocation on first write, a stall at issue when no
physical register is free, "register throttling": below one warp's registers free, only the
oldest warp of the scheduler may allocate).

Assumptions (docs/mechanisms/regless.md): [A] one physical pool per scheduler
(``entries_per_sm / n_schedulers``); [A] a register is mapped from the issue of its first
write to its erase (at issue for a source, at writeback for a destination), a header
invalidation of its region, or the warp's exit; [A] the rename table costs no time.
"""

from __future__ import annotations

import numpy as np

from warpsim._jit import jit
from warpsim.mechanisms.regless.state import (
    F_DST_ERASE,
    F_SRC_ERASE,
    P_MAXREG,
    P_NS,
    P_NW,
    RG_NHINV,
    RG_START,
    S_ACTIVE,
    S_EXITED,
    S_NONE,
    ST_OSU_READS,
    ST_OSU_WRITES,
    ST_RFV_PEAK,
    ST_RFV_STALLS,
    ST_RFV_THROTTLED,
    W_ACT_CYCLE,
    W_STATE,
)
from warpsim.timing.consts import ISSUE_EXECUTE

__all__ = ["rfv_can_issue", "rfv_on_issue", "rfv_on_retire", "rfv_on_warp_exit",
           "rfv_on_warp_launch"]


@jit
def _unmap(hs, sm, w, r):  # pragma: no cover - jit
    if hs.reg[sm, w, r, 0]:
        hs.reg[sm, w, r, 0] = 0
        hs.free[sm, w % hs.prm[P_NS], 0] += 1


@jit
def _oldest(hs, sm, s):  # pragma: no cover - jit
    """The live warp of shard ``s`` launched first."""
    best = -1
    for v in range(s, hs.prm[P_NW], hs.prm[P_NS]):
        st = hs.w[sm, v, W_STATE]
        if st == S_EXITED or st == S_NONE:
            continue
        if best < 0 or hs.w[sm, v, W_ACT_CYCLE] < hs.w[sm, best, W_ACT_CYCLE]:
            best = v
    return best


@jit
def rfv_can_issue(hs, sm, warp, pc, cycle):  # pragma: no cover - jit
    """Issue unless the instruction's new registers do not fit the free physical registers,
    or fewer than one warp's registers are free and this warp is not the oldest of its
    scheduler (throttling)."""
    need = 0
    for k in range(hs.pc_dst.shape[1]):
        r = hs.pc_dst[pc, k]
        if r < 0:
            break
        if hs.reg[sm, warp, r, 0] == 0:
            need += 1
    if need == 0:
        return True
    s = warp % hs.prm[P_NS]
    free = hs.free[sm, s, 0]
    if need > free:
        hs.st[ST_RFV_STALLS] += 1
        return False
    if free < hs.prm[P_MAXREG] and _oldest(hs, sm, s) != warp:
        hs.st[ST_RFV_THROTTLED] += 1
        return False
    return True


@jit
def rfv_on_issue(hs, sm, warp, pc, rec, cycle):  # pragma: no cover - jit
    """Header invalidations at a region's first instruction, the destinations renamed, sources
    at their last use released."""
    w = warp
    s = w % hs.prm[P_NS]
    rid = hs.pc_region[pc]
    if pc == hs.rg[rid, RG_START]:
        for k in range(hs.rg[rid, RG_NHINV]):
            _unmap(hs, sm, w, hs.rg_hinv[rid, k])
    hs.st[ST_OSU_READS] += hs.pc_info[pc, 1]
    for k in range(hs.pc_dst.shape[1]):
        r = hs.pc_dst[pc, k]
        if r < 0:
            break
        if hs.reg[sm, w, r, 0] == 0:
            hs.reg[sm, w, r, 0] = 1
            hs.free[sm, s, 0] -= 1
    used = hs.free[sm, s, 1] - hs.free[sm, s, 0]
    if used > hs.st[ST_RFV_PEAK]:
        hs.st[ST_RFV_PEAK] = used
    for k in range(hs.pc_flags.shape[1]):
        r = hs.pc_flags[pc, k, 0]
        if r < 0:
            break
        if hs.pc_flags[pc, k, 1] == F_SRC_ERASE:
            _unmap(hs, sm, w, r)
    return ISSUE_EXECUTE, np.int64(0)


@jit
def rfv_on_retire(hs, sm, warp, pc, rec, cycle):  # pragma: no cover - jit
    """Destinations written; a dead one is released."""
    for k in range(hs.pc_dst.shape[1]):
        if hs.pc_dst[pc, k] < 0:
            break
        hs.st[ST_OSU_WRITES] += 1
    for k in range(hs.pc_flags.shape[1]):
        r = hs.pc_flags[pc, k, 0]
        if r < 0:
            break
        if hs.pc_flags[pc, k, 1] == F_DST_ERASE:
            _unmap(hs, sm, warp, r)


@jit
def rfv_on_warp_launch(hs, sm, warp, cta_slot, pos, cycle):  # pragma: no cover - jit
    """A new warp maps nothing; its launch order decides throttling."""
    hs.w[sm, warp, :] = 0
    hs.w[sm, warp, W_STATE] = S_ACTIVE
    hs.w[sm, warp, W_ACT_CYCLE] = cycle * hs.prm[P_NW] + warp


@jit
def rfv_on_warp_exit(hs, sm, warp, cycle):  # pragma: no cover - jit
    """Release every register of the warp."""
    for r in range(hs.prm[P_MAXREG]):
        _unmap(hs, sm, warp, r)
    hs.w[sm, warp, W_STATE] = S_EXITED
