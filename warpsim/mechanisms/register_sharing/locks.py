"""Register Sharing at issue: which warps are shared, the per-warp-pair lock on the shared
registers (try at issue, commit when the instruction issues, hold until the warp finishes),
the deadlock-avoidance rule, owner/non-owner blocks and the hand-over of ownership.

Follows: Jatala et al. Sec. 4.2-4.3, Figs. 4-5; specs/register-sharing.md §3.4-§3.8:
``try_acquire`` (grant when the warp holds the lock; deny when the partner warp holds it or any
warp of the partner slot holds a lock -- the deadlock rule), a grant makes the acquirer's slot
the owner, the owner block's completion hands ownership to its partner, and a block launched
into an empty pair (its partner slot empty) owns it.
Assumptions:
  [A] Checked in the issue stage with the scoreboard (``can_issue``; the engine counts a denied
      warp as not ready) and committed in ``on_issue``; the SM's schedulers issue one after
      the other within a cycle, so a commit is seen by the next scheduler at once.
  [A] ``bar``/``exit`` are resolved at issue without reading registers (timing model), so they
      never need the lock.
  [A] The lock is released when the warp exits (all records issued, nothing in flight).
"""

from __future__ import annotations

import numpy as np

from warpsim._jit import jit
from warpsim.mechanisms.register_sharing.dwe import dwe_allow
from warpsim.mechanisms.register_sharing.state import (
    G_ACQ,
    G_CYC_DENY,
    G_CYC_DWE_DENY,
    G_DENY,
    G_DENY_RULE,
    G_DWE,
    G_DWE_DENY,
    G_ISSUED_NONOWNER,
    G_ISSUED_OWNER,
    G_ISSUED_UNSHARED,
    G_N_SCHED,
    G_NONOWNER_MEM,
    G_OWN_CHANGES,
    G_SHARING,
    G_TRANSFERS,
    G_WARP_RULE,
    M_DYN_CTR,
    PC_DWE,
    PC_SHARED,
    S_HOLDERS,
    S_LIVE,
    SC_DENY,
    SC_LAST,
    SC_PASS,
    T_PAIR,
    T_PARTNER,
    W_DYN,
    W_LOCK,
    W_POS,
    W_SLOT,
    W_STICKY,
)
from warpsim.timing.consts import ISSUE_EXECUTE

__all__ = ["rs_can_issue", "rs_on_cta_release", "rs_on_issue", "rs_on_warp_exit",
           "rs_on_warp_launch"]


@jit
def rs_can_issue(hs, sm, w, pc, cycle):  # pragma: no cover - jit
    """Lock check (Fig. 4) and DWE throttle of warp ``w``'s next instruction ``pc``."""
    g = hs.g
    if g[G_SHARING] == 0:
        return True
    slot = hs.warp[sm, w, W_SLOT]
    s = w % g[G_N_SCHED]
    k = hs.slot_tab[slot, T_PAIR]
    if k >= 0:
        if hs.pc_tab[pc, PC_SHARED] != 0 and hs.warp[sm, w, W_LOCK] == 0:
            partner = hs.slot_tab[slot, T_PARTNER]
            held = hs.lock[sm, k, 1 + hs.warp[sm, w, W_POS]] >= 0
            if held or (g[G_WARP_RULE] == 0 and hs.slot[sm, partner, S_HOLDERS] > 0):
                if not held:  # the deadlock rule: the partner block holds another lock
                    g[G_DENY_RULE] += 1
                g[G_DENY] += 1
                g[G_CYC_DENY] += 1
                hs.sched[sm, s, SC_DENY] = cycle
                return False
        if (g[G_DWE] != 0 and hs.pc_tab[pc, PC_DWE] != 0 and hs.lock[sm, k, 0] != slot
                and not dwe_allow(hs, sm, w, cycle)):
            g[G_DWE_DENY] += 1
            g[G_CYC_DWE_DENY] += 1
            return False
    hs.sched[sm, s, SC_PASS] = cycle
    return True


@jit
def rs_on_issue(hs, sm, w, pc, rec, cycle):  # pragma: no cover - jit
    """Commit the lock acquisition of an issued instruction; count issue slots by class."""
    g = hs.g
    hs.sched[sm, w % g[G_N_SCHED], SC_LAST] = w
    if g[G_SHARING] == 0:
        return ISSUE_EXECUTE, np.int64(0)
    slot = hs.warp[sm, w, W_SLOT]
    k = hs.slot_tab[slot, T_PAIR]
    if k < 0:
        g[G_ISSUED_UNSHARED] += 1
        return ISSUE_EXECUTE, np.int64(0)
    if hs.lock[sm, k, 0] != slot:
        g[G_ISSUED_NONOWNER] += 1
        if hs.pc_tab[pc, PC_DWE] != 0:
            g[G_NONOWNER_MEM] += 1
    else:
        g[G_ISSUED_OWNER] += 1
    if hs.pc_tab[pc, PC_SHARED] != 0 and hs.warp[sm, w, W_LOCK] == 0:
        hs.lock[sm, k, 1 + hs.warp[sm, w, W_POS]] = w
        hs.warp[sm, w, W_LOCK] = 1
        hs.slot[sm, slot, S_HOLDERS] += 1
        g[G_ACQ] += 1
        if hs.lock[sm, k, 0] != slot:  # the partner's warps now wait on this block
            hs.lock[sm, k, 0] = slot
            g[G_OWN_CHANGES] += 1
    return ISSUE_EXECUTE, np.int64(0)


@jit
def rs_on_warp_launch(hs, sm, w, cta_slot, pos, cycle):  # pragma: no cover - jit
    """Warp slot ``w`` starts position ``pos`` of the thread block in CTA slot ``cta_slot``."""
    ws = hs.warp
    ws[sm, w, W_SLOT] = cta_slot
    ws[sm, w, W_POS] = pos
    ws[sm, w, W_DYN] = hs.smr[sm, M_DYN_CTR]
    hs.smr[sm, M_DYN_CTR] += 1
    ws[sm, w, W_LOCK] = 0
    ws[sm, w, W_STICKY] = 0
    if pos < hs.slot_warps.shape[2]:
        hs.slot_warps[sm, cta_slot, pos] = w
    if pos == 0:
        hs.slot[sm, cta_slot, S_LIVE] = 1
        hs.slot[sm, cta_slot, S_HOLDERS] = 0
        k = hs.slot_tab[cta_slot, T_PAIR]
        if k >= 0 and hs.slot[sm, hs.slot_tab[cta_slot, T_PARTNER], S_LIVE] == 0:
            hs.lock[sm, k, 0] = cta_slot  # alone in its pair: the block owns it


@jit
def rs_on_warp_exit(hs, sm, w, cycle):  # pragma: no cover - jit
    """Warp ``w`` finished: release its lock (spec §3.6 release)."""
    ws = hs.warp
    slot = ws[sm, w, W_SLOT]
    if slot < 0:
        return
    pos = ws[sm, w, W_POS]
    if ws[sm, w, W_LOCK] != 0:
        k = hs.slot_tab[slot, T_PAIR]
        hs.lock[sm, k, 1 + pos] = -1
        hs.slot[sm, slot, S_HOLDERS] -= 1
        ws[sm, w, W_LOCK] = 0
    if pos < hs.slot_warps.shape[2]:
        hs.slot_warps[sm, slot, pos] = -1
    ws[sm, w, W_SLOT] = -1


@jit
def rs_on_cta_release(hs, sm, cta_slot, cycle):  # pragma: no cover - jit
    """The block in ``cta_slot`` completed: an owner hands ownership to its live partner."""
    hs.slot[sm, cta_slot, S_LIVE] = 0
    k = hs.slot_tab[cta_slot, T_PAIR]
    if k >= 0 and hs.lock[sm, k, 0] == cta_slot:
        partner = hs.slot_tab[cta_slot, T_PARTNER]
        if hs.slot[sm, partner, S_LIVE] != 0:
            hs.lock[sm, k, 0] = partner
            hs.g[G_OWN_CHANGES] += 1
            hs.g[G_TRANSFERS] += 1
