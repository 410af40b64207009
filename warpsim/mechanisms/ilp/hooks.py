"""The ILP core's jitted hooks: the TLP core's ready bit, ALU bypassing, the many-thread-aware
scoreboard (stall rules at issue, allocation, completion, in-order commit), branch handling with
prediction, and the per-warp-cycle stall classes.

Follows: the dissertation §4.4 (TLP core: ready cleared at issue, set at writeback), §4.4.1
(EX_L -> EX1 bypass for ALU results only), §4.4.2 (Figs 39-40: CAM match with the NM bit, WAW
allowed only when the new mask covers the old one, a store waits until it is its warp's oldest,
a load waits while its warp has a store on board, structural fallback to the one-in-flight rule
when the board is full and the warp has nothing on it, commit at the head of each warp's list),
§4.4.3 (no BTB, divergent branches cannot mispredict, a mispredicted branch nullifies its own
warp's wrong path); specs/xiang-simt-efficiency.md §3.2, §3.4, §3.7 (counters).
Mapping onto the engine (docs/mechanisms/ilp.md):
  [A] The engine's own per-warp scoreboard still blocks a source or destination register whose
      producer has not written back: that is the scoreboard's "match & not complete" stall (a
      complete entry is read from the data store, as the register file would give it). WAW on
      an incomplete producer therefore waits for its completion even when the masks nest.
  [A] Bypassing makes an ALU result ready one cycle earlier (``result_delay`` -1: the consumer
      issues in the cycle the producer's last EX stage ends, spec §3.4.1 s' >= s + L), not for
      memory or SFU instructions nor latencies below 2.
  [A] Branch prediction: a correctly predicted (or divergent, or unconditional) branch lets its
      warp issue from the cycle after it enters execution; a mispredicted one holds the warp
      until it writes back. The trace holds the correct path only: each cycle the warp is held
      by a misprediction while otherwise ready counts one nullified wrong-path instruction (an
      upper bound). The predictor is updated at issue with the outcome (the predicted
      direction for a divergent branch).
  [A] SMs outside ``ilp.sm_kinds`` are TLP cores (GPU-H's TLP-SMs): the ready bit and the
      branch rule without prediction; the ILP techniques act on the listed kinds only.
  [A] One scoreboard entry per instruction with a destination (its first scoreboard id is the
      tag) and per store; commit in the cycle of completion, any number of warps per cycle.
  [A] Branch hazard (C-R7, the dissertation §4.4.3: a branch "does not present a control
      hazard due to TLP" or "results in pipeline stalls"): a branch stalls the pipeline when
      its warp's scheduler leaves an issue slot empty in a cycle after the branch issued and
      before it resolves (writes back); issue slots are those of instructions the hooks see
      (``on_issue``: not barriers or exits).
"""

from __future__ import annotations

import numpy as np

from warpsim._jit import jit
from warpsim.mechanisms.ilp.state import (
    BP_GSHARE,
    BP_NONE,
    BP_PERFECT,
    BP_STATIC,
    C_BRANCH,
    C_LOAD,
    C_STORE,
    E_COMPLETE,
    E_MASK,
    E_NEXT,
    E_NM,
    E_REC,
    E_STORE,
    E_TAG,
    E_VALID,
    E_WARP,
    I_COUNT,
    I_LAST,
    K_BARRIER,
    K_BP_CORRECT,
    K_BP_PRED,
    K_BR_STALLS,
    K_BRANCHES,
    K_BYPASSED,
    K_COND,
    K_CONTROL,
    K_DIVERGENT,
    K_INFLIGHT,
    K_LOAD_AFTER_STORE,
    K_NULLIFIED,
    K_RAW_ALU,
    K_RAW_MEM,
    K_SB_ALLOCS,
    K_SB_COMMITS,
    K_SB_FALLBACK,
    K_SB_FULL,
    K_SB_OCC,
    K_STORE_DRAIN,
    K_WAW,
    P_BYPASS,
    P_ENTRIES,
    P_HIST_MASK,
    P_N_SCHED,
    P_PREDICTOR,
    P_REC_BASE,
    R_DIVERGED,
    R_MASK,
    R_PC,
    R_TAKEN,
    T_BACKWARD,
    T_BYPASS,
    T_CLASS,
    T_COND,
    T_DST,
    W_BR,
    W_BR_AT,
    W_BR_ISSUE,
    W_BR_REC,
    W_BR_SLOTS,
    W_COUNTED,
    W_FB,
    W_FB_REC,
    W_HEAD,
    W_HIST,
    W_IN_BOARD,
    W_IN_STORE,
    W_TAIL,
)
from warpsim.timing.consts import INT64_MAX, ISSUE_EXECUTE
from warpsim.timing.fields import (
    F_CTA_ID,
    F_WARP_AT_BAR,
    F_WARP_CTA,
    F_WARP_END,
    F_WARP_POS,
    F_WARP_SB_WAIT,
    F_WARP_VALID,
)
from warpsim.timing.sched import _sb_hit  # the engine's scoreboard-bit test

__all__ = ["gshare_index", "ilp_can_issue", "ilp_on_cycle_end", "ilp_on_issue",
           "ilp_on_retire", "ilp_result_delay", "predict"]

BR_FREE, BR_WAIT, BR_PREDICTED, BR_MISPREDICTED = 0, 1, 2, 3


@jit
def gshare_index(pc, hist, mask):  # pragma: no cover - jit
    """Pattern-table index: the branch's instruction index XOR the warp's history."""
    return (pc ^ hist) & mask


@jit
def predict(kind, pht_row, hist, hist_mask, pc, backward, taken):  # pragma: no cover - jit
    """Predicted direction (1 taken) of predictor ``kind`` (``BP_*``)."""
    if kind == BP_PERFECT:
        return taken
    if kind == BP_STATIC:
        return backward
    return 1 if pht_row[gshare_index(pc, hist, hist_mask)] >= 2 else 0


@jit
def gshare_update(pht_row, hist, hist_mask, pc, outcome):  # pragma: no cover - jit
    """Train the two-bit counter with ``outcome``; returns the warp's new history."""
    i = gshare_index(pc, hist, hist_mask)
    if outcome:
        if pht_row[i] < 3:
            pht_row[i] += 1
    elif pht_row[i] > 0:
        pht_row[i] -= 1
    return ((hist << 1) | outcome) & hist_mask


@jit
def _free_entry(sb, ne, sm):  # pragma: no cover - jit
    for e in range(ne):
        if sb[sm, e, E_VALID] == 0:
            return e
    return -1


@jit
def _stall(hs, sm, warp, k, cycle):  # pragma: no cover - jit
    """Count one warp-cycle of stall class ``k`` (once per warp and cycle)."""
    if hs.ws[sm, warp, W_COUNTED] != cycle + 1:
        hs.ws[sm, warp, W_COUNTED] = cycle + 1
        hs.cnt[sm, k] += 1
    return False


@jit
def ilp_can_issue(hs, sm, warp, pc, cycle):  # pragma: no cover - jit
    """The TLP core's ready bit, the branch rule and the scoreboard's stall rules."""
    ws = hs.ws
    if ws[sm, warp, W_FB] != 0:
        return _stall(hs, sm, warp, K_INFLIGHT, cycle)
    br = ws[sm, warp, W_BR]
    if br == BR_WAIT or br == BR_MISPREDICTED or (br == BR_PREDICTED
                                                   and cycle < ws[sm, warp, W_BR_AT]):
        if br == BR_MISPREDICTED and ws[sm, warp, W_COUNTED] != cycle + 1:
            hs.cnt[sm, K_NULLIFIED] += 1
        return _stall(hs, sm, warp, K_CONTROL, cycle)
    ne = hs.prm[P_ENTRIES] * hs.sm_ilp[sm]
    if ne == 0:
        return True
    cls = hs.pct[pc, T_CLASS]
    if cls == C_STORE and ws[sm, warp, W_IN_BOARD] > 0:
        return _stall(hs, sm, warp, K_STORE_DRAIN, cycle)
    if cls == C_LOAD and ws[sm, warp, W_IN_STORE] != 0:
        return _stall(hs, sm, warp, K_LOAD_AFTER_STORE, cycle)
    tag = hs.pct[pc, T_DST]
    if tag >= 0:
        r = hs.core_warp[sm, warp, F_WARP_POS] - hs.prm[P_REC_BASE]
        mask = hs.rc[r, R_MASK]
        for e in range(ne):
            if (hs.sb[sm, e, E_VALID] != 0 and hs.sb[sm, e, E_WARP] == warp
                    and hs.sb[sm, e, E_TAG] == tag and hs.sb[sm, e, E_NM] != 0):
                old = hs.sb[sm, e, E_MASK]
                if (mask & old) != old:
                    return _stall(hs, sm, warp, K_WAW, cycle)
    if (tag >= 0 or cls == C_STORE) and ws[sm, warp, W_IN_BOARD] > 0:
        if _free_entry(hs.sb, ne, sm) < 0:
            return _stall(hs, sm, warp, K_SB_FULL, cycle)
    return True


@jit
def _branch(hs, sm, warp, pc, rec, cycle):  # pragma: no cover - jit
    ws = hs.ws
    hs.cnt[sm, K_BRANCHES] += 1
    ws[sm, warp, W_BR_ISSUE] = cycle
    ws[sm, warp, W_BR_SLOTS] = hs.iss[sm, warp % hs.prm[P_N_SCHED], I_COUNT]
    r = rec - hs.prm[P_REC_BASE]
    kind = hs.prm[P_PREDICTOR] if hs.sm_ilp[sm] != 0 else BP_NONE
    cond = hs.pct[pc, T_COND]
    div = hs.rc[r, R_DIVERGED]
    ws[sm, warp, W_BR_REC] = rec
    ws[sm, warp, W_BR_AT] = INT64_MAX
    if cond:
        hs.cnt[sm, K_COND] += 1
        hs.cnt[sm, K_DIVERGENT] += div
    if kind == BP_NONE:
        ws[sm, warp, W_BR] = BR_WAIT
        return
    if cond == 0:  # the target is computed in the fetch slot: no control hazard
        ws[sm, warp, W_BR] = BR_PREDICTED
        return
    taken = hs.rc[r, R_TAKEN]
    hm = hs.prm[P_HIST_MASK]
    hist = ws[sm, warp, W_HIST]
    guess = predict(kind, hs.pht[sm], hist, hm, pc, hs.pct[pc, T_BACKWARD], taken)
    correct = True
    outcome = guess
    if div == 0:
        outcome = taken
        correct = guess == taken
        hs.cnt[sm, K_BP_PRED] += 1
        if correct:
            hs.cnt[sm, K_BP_CORRECT] += 1
    if kind == BP_GSHARE:
        ws[sm, warp, W_HIST] = gshare_update(hs.pht[sm], hist, hm, pc, outcome)
    ws[sm, warp, W_BR] = BR_PREDICTED if correct else BR_MISPREDICTED


@jit
def ilp_on_issue(hs, sm, warp, pc, rec, cycle):  # pragma: no cover - jit
    """Clear the ready bit, or allocate a scoreboard entry (or fall back), or predict."""
    ws = hs.ws
    s = warp % hs.prm[P_N_SCHED]
    if hs.iss[sm, s, I_LAST] != cycle:  # the scheduler's issue slot of this cycle is used
        hs.iss[sm, s, I_LAST] = cycle
        hs.iss[sm, s, I_COUNT] += 1
    cls = hs.pct[pc, T_CLASS]
    if cls == C_BRANCH:
        _branch(hs, sm, warp, pc, rec, cycle)
        return ISSUE_EXECUTE, np.int64(0)
    ne = hs.prm[P_ENTRIES] * hs.sm_ilp[sm]
    tag = hs.pct[pc, T_DST]
    if ne > 0 and tag < 0 and cls != C_STORE:
        return ISSUE_EXECUTE, np.int64(0)  # no destination: nothing to track
    e = _free_entry(hs.sb, ne, sm) if ne > 0 else -1
    if e < 0:  # the TLP core, or the scoreboard's structural fallback
        ws[sm, warp, W_FB] = 1
        ws[sm, warp, W_FB_REC] = rec
        if ne > 0:
            hs.cnt[sm, K_SB_FALLBACK] += 1
        return ISSUE_EXECUTE, np.int64(0)
    sb = hs.sb
    r = rec - hs.prm[P_REC_BASE]
    if tag >= 0:
        for o in range(ne):
            if (sb[sm, o, E_VALID] != 0 and sb[sm, o, E_WARP] == warp
                    and sb[sm, o, E_TAG] == tag):
                sb[sm, o, E_NM] = 0
    sb[sm, e, E_VALID] = 1
    sb[sm, e, E_WARP] = warp
    sb[sm, e, E_REC] = rec
    sb[sm, e, E_TAG] = tag
    sb[sm, e, E_NM] = 1
    sb[sm, e, E_MASK] = hs.rc[r, R_MASK]
    sb[sm, e, E_COMPLETE] = 0
    sb[sm, e, E_NEXT] = -1
    sb[sm, e, E_STORE] = 1 if cls == C_STORE else 0
    if ws[sm, warp, W_IN_BOARD] == 0:
        ws[sm, warp, W_HEAD] = e
    else:
        sb[sm, ws[sm, warp, W_TAIL], E_NEXT] = e
    ws[sm, warp, W_TAIL] = e
    ws[sm, warp, W_IN_BOARD] += 1
    if cls == C_STORE:
        ws[sm, warp, W_IN_STORE] = 1
    hs.cnt[sm, K_SB_ALLOCS] += 1
    return ISSUE_EXECUTE, np.int64(0)


@jit
def ilp_result_delay(hs, sm, warp, rec, cycle):  # pragma: no cover - jit
    """A predicted branch frees its warp after entering execution; a bypassed ALU result is
    ready one cycle early."""
    pc = hs.rc[rec - hs.prm[P_REC_BASE], R_PC]
    if hs.ws[sm, warp, W_BR] == BR_PREDICTED and hs.ws[sm, warp, W_BR_REC] == rec:
        hs.ws[sm, warp, W_BR_AT] = cycle + 1
    if hs.prm[P_BYPASS] != 0 and hs.sm_ilp[sm] != 0 and hs.pct[pc, T_BYPASS] != 0:
        hs.cnt[sm, K_BYPASSED] += 1
        return -1
    return 0


@jit
def _branch_resolved(hs, sm, warp, cycle):  # pragma: no cover - jit
    """The branch resolves at ``cycle`` (before this cycle's issue): it stalled the pipeline
    when its scheduler issued in fewer of the cycles since its issue than there were."""
    used = hs.iss[sm, warp % hs.prm[P_N_SCHED], I_COUNT] - hs.ws[sm, warp, W_BR_SLOTS]
    if used < cycle - hs.ws[sm, warp, W_BR_ISSUE] - 1:
        hs.cnt[sm, K_BR_STALLS] += 1
        cta = hs.core_cta[sm, hs.core_warp[sm, warp, F_WARP_CTA], F_CTA_ID]
        if 0 <= cta < hs.cta_br_stalls.shape[0]:
            hs.cta_br_stalls[cta] += 1


@jit
def ilp_on_retire(hs, sm, warp, pc, rec, cycle):  # pragma: no cover - jit
    """Set the ready bit, resolve the branch, complete the entry and commit in order."""
    ws = hs.ws
    if ws[sm, warp, W_FB] != 0 and ws[sm, warp, W_FB_REC] == rec:
        ws[sm, warp, W_FB] = 0
    if ws[sm, warp, W_BR] != BR_FREE and ws[sm, warp, W_BR_REC] == rec:
        ws[sm, warp, W_BR] = BR_FREE
        _branch_resolved(hs, sm, warp, cycle)
    ne = hs.prm[P_ENTRIES] * hs.sm_ilp[sm]
    if ne == 0 or ws[sm, warp, W_IN_BOARD] == 0:
        return None
    sb = hs.sb
    for e in range(ne):
        if sb[sm, e, E_VALID] != 0 and sb[sm, e, E_WARP] == warp and sb[sm, e, E_REC] == rec:
            sb[sm, e, E_COMPLETE] = 1
            break
    while ws[sm, warp, W_IN_BOARD] > 0:
        h = ws[sm, warp, W_HEAD]
        if sb[sm, h, E_COMPLETE] == 0:
            break
        if sb[sm, h, E_STORE] != 0:
            ws[sm, warp, W_IN_STORE] = 0
        sb[sm, h, E_VALID] = 0
        ws[sm, warp, W_HEAD] = sb[sm, h, E_NEXT]
        ws[sm, warp, W_IN_BOARD] -= 1
        hs.cnt[sm, K_SB_COMMITS] += 1
    if ws[sm, warp, W_IN_BOARD] == 0:
        ws[sm, warp, W_HEAD] = -1
        ws[sm, warp, W_TAIL] = -1
    return None


@jit
def ilp_on_cycle_end(hs, counters, cycle):  # pragma: no cover - jit
    """Per warp-cycle: warps at a barrier, and warps the engine's scoreboard holds (RAW on a
    memory or an ALU producer, else WAW); the scoreboard's occupancy."""
    cw = hs.core_warp
    base = hs.prm[P_REC_BASE]
    ne = hs.prm[P_ENTRIES]
    n_r = hs.rc.shape[0]
    for sm in range(cw.shape[0]):
        for w in range(cw.shape[1]):
            if cw[sm, w, F_WARP_VALID] == 0:
                continue
            if cw[sm, w, F_WARP_AT_BAR] != 0:
                hs.cnt[sm, K_BARRIER] += 1
            elif cw[sm, w, F_WARP_SB_WAIT] != 0 and cw[sm, w, F_WARP_POS] < cw[sm, w, F_WARP_END]:
                r = cw[sm, w, F_WARP_POS] - base
                if r < 0 or r >= n_r:
                    continue
                pc = hs.rc[r, R_PC]
                if _sb_hit(hs.core_sb_long, sm, w, hs.sbsrc, pc):
                    hs.cnt[sm, K_RAW_MEM] += 1
                elif _sb_hit(hs.core_sb, sm, w, hs.sbsrc, pc):
                    hs.cnt[sm, K_RAW_ALU] += 1
                else:
                    hs.cnt[sm, K_WAW] += 1
        if ne > 0 and hs.sm_ilp[sm] != 0:
            for e in range(ne):
                hs.cnt[sm, K_SB_OCC] += hs.sb[sm, e, E_VALID]
    return INT64_MAX
