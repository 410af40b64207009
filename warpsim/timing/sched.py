"""Front end and warp schedulers: instruction fetch/decode into per-warp I-buffers, the per-warp
scoreboard, and the LRR, GTO, two-level and oldest-first issue policies.

Follows: GPGPU-Sim 3.x ``shader_core_ctx::fetch/decode`` (a 2-entry I-buffer per warp,
``IBUFFER_SIZE``), ``scheduler_unit::cycle`` (warp ``w`` belongs to scheduler
``w % n_schedulers``; the first warp in priority order whose next instruction passes the
scoreboard and finds its pipeline register free issues, up to ``n_max_issue_per_warp``
instructions), ``lrr_scheduler`` (round robin from the warp after the last issued), ``gto``
(last issued warp, then oldest), ``two_level_active`` (Narasiman MICRO'11: LRR over N active
warps; a warp waiting on a long-latency load or a barrier is demoted to a FIFO of pending warps,
as is one with nothing left to issue),
``scoreboard::checkCollision`` (RAW and WAW on pending writes; no WAR with in-order issue).
Assumptions:
  [A] Perfect instruction cache (every fetch hits; ``L1I_total_cache_accesses`` counts them).
  [A] Fetch/decode: ``n_fetch_per_cycle`` warps per SM per cycle (round robin from the clock)
      that have I-buffer space decode up to ``n_decode_per_cycle`` records each; decoding stops
      after a branch, and resumes ``BRANCH_BUBBLE`` cycle(s) after the branch issues.
  [A] A new warp decodes from the cycle after its CTA was dispatched.
  [A] Two-level: only warps that are not waiting are promoted (oldest pending first), which
      keeps the active set unchanged on cycles where nothing happens (idle-cycle skipping).
"""

from __future__ import annotations

import numpy as np

from warpsim._jit import jit, jit_inline
from warpsim.stats import (
    C_DECODE_INSTS,
    C_GPGPU_N_TOT_W_ICOUNT,
    C_GPU_SIM_INSN,
    C_L1I_FETCHES,
    C_L1I_TOTAL_CACHE_ACCESSES,
    C_SCHED_ACTIVE_CYCLES,
    C_SCHED_BARRIER_STALL_CYCLES,
    C_SCHED_DUAL_ISSUES,
    C_SCHED_IBUFFER_EMPTY_CYCLES,
    C_SCHED_IDLE_CYCLES,
    C_SCHED_PIPE_STALL_CYCLES,
    C_SCHED_SCOREBOARD_STALL_CYCLES,
    C_SCHED_WARP_INSTS_ISSUED,
    C_SCOREBOARD_RESERVATIONS,
    C_SIMT_BRANCHES,
    C_SIMT_DIVERGENT_BRANCHES,
    C_SM_BARRIER_WAITS,
)
from warpsim.timing.consts import (
    F_BAR_ARRIVE,
    F_BARRIER,
    F_BRANCH,
    F_EXIT,
    F_LONGOP,
    INT64_MAX,
    ISSUE_DROP,
    ISSUE_EXECUTE,
    P_BRANCH_BUBBLE,
    P_IBUF,
    P_MAX_ISSUE,
    P_N_DECODE,
    P_N_FETCH,
    P_N_SCHED,
    P_POLICY,
    P_SB_ENTRIES,
    P_TL_ACTIVE,
    POL_GTO,
    POL_OLDEST,
    POL_TWO_LEVEL,
    SC_TL_SEQ,
)
from warpsim.timing.dispatch import release_barrier, warp_try_exit
from warpsim.timing.fields import (
    F_CTA_N_BAR,
    F_CTA_N_LIVE,
    F_IDOC_COUNT,
    F_PC_FLAGS,
    F_PC_OCSET,
    F_REC_DIVERGED,
    F_REC_NTHR,
    F_REC_PC,
    F_SET_IDOC_CAP,
    F_WARP_AGE,
    F_WARP_AT_BAR,
    F_WARP_CTA,
    F_WARP_END,
    F_WARP_FETCH_READY,
    F_WARP_IBUF,
    F_WARP_INFLIGHT,
    F_WARP_POS,
    F_WARP_SB_COUNT,
    F_WARP_SB_WAIT,
    F_WARP_TL_ACTIVE,
    F_WARP_TL_SEQ,
    F_WARP_VALID,
    WB_AT_BAR,
    WB_IBUF,
    WB_IBUF_FULL,
    WB_SB_WAIT,
    WB_VALID,
)
from warpsim.timing.inflight import hold_issued, push_idoc
from warpsim.timing.warpbits import lowest_bit, set_at_bar, set_ibuf, set_sb_wait

__all__ = ["READY", "WAIT_PIPE", "WAIT_SCOREBOARD", "issue_check", "policy_key", "tick_decode",
           "tick_issue"]

READY = 0
WAIT_SCOREBOARD = 1
WAIT_PIPE = 2


@jit_inline
def tick_decode(warp, bits, trec, base_arr, pc_info, prm, counters, sm, cycle, hs,
                hooks):  # pragma: no cover - jit
    """Fetch and decode into the I-buffers. Returns True when a warp decoded something.
    Takes the arrays it needs (``CoreState.warp`` and ``warp_bits``, ``TraceWindow.rec`` and
    ``base``, ``StaticTables.pc_info``): it runs every SM-cycle. Visits only the valid warps
    whose I-buffer has room (``warp_bits``), round robin from the clock. A decode slot that
    ``hooks.fetch_word`` claims decodes a mechanism's extra word in front of the record."""
    n_w = warp.shape[1]
    n_words = bits.shape[2]
    base = base_arr[0]
    cap = prm[P_IBUF]
    fetched = 0
    progress = False
    start = cycle % n_w
    sw = start >> 6
    sb = np.uint64(start & 63)
    ones = ~np.uint64(0)
    for i in range(n_words + 1):  # the start word's upper bits, the others, its lower bits
        word = sw + i
        if word >= n_words:
            word -= n_words
        m = bits[sm, WB_VALID, word] & ~bits[sm, WB_IBUF_FULL, word]
        if i == 0:
            m &= ones << sb
        elif i == n_words:
            m &= (np.uint64(1) << sb) - np.uint64(1)
        while m != 0:
            if fetched >= prm[P_N_FETCH]:
                return progress
            w = word * 64 + lowest_bit(m)
            m &= m - np.uint64(1)
            if warp[sm, w, F_WARP_FETCH_READY] > cycle:
                continue
            ib = warp[sm, w, F_WARP_IBUF]
            nxt = warp[sm, w, F_WARP_POS] + ib
            end = warp[sm, w, F_WARP_END]
            if ib >= cap or nxt >= end:
                continue
            if ib > 0 and pc_info[trec[nxt - 1 - base, F_REC_PC], F_PC_FLAGS] & F_BRANCH:
                continue
            k = 0
            n = 0
            while k < prm[P_N_DECODE] and ib < cap and nxt < end:
                k += 1
                if hooks.fetch_word(hs, sm, w, nxt, cycle):
                    continue  # the slot decoded a mechanism's word in front of nxt
                pc = trec[nxt - base, F_REC_PC]
                ib += 1
                nxt += 1
                n += 1
                if pc_info[pc, F_PC_FLAGS] & F_BRANCH:
                    break
            set_ibuf(warp, bits, sm, w, ib, cap)
            counters[sm, C_L1I_FETCHES] += 1
            counters[sm, C_L1I_TOTAL_CACHE_ACCESSES] += 1
            counters[sm, C_DECODE_INSTS] += n
            fetched += 1
            progress = True
    return progress


@jit
def _sb_hit(sb, sm, w, ids, pc):  # pragma: no cover - jit
    for k in range(ids.shape[1]):
        r = ids[pc, k]
        if r < 0:
            return False
        if (sb[sm, w, r >> 6] >> np.uint64(r & 63)) & np.uint64(1):
            return True
    return False


@jit
def issue_check(sb, warp, idoc_hc, pc_sbsrc, pc_sbdst, pc_info, set_info, sb_entries, sm, w,
                pc):  # pragma: no cover - jit
    """READY, WAIT_SCOREBOARD (RAW/WAW collision or full scoreboard) or WAIT_PIPE (the ID_OC
    register of the instruction's collector set is full). Takes arrays, not the state tuple:
    it runs once per warp per cycle and numba passes tuples of arrays as flattened arguments."""
    if _sb_hit(sb, sm, w, pc_sbsrc, pc) or _sb_hit(sb, sm, w, pc_sbdst, pc):
        return WAIT_SCOREBOARD
    if sb_entries > 0:
        nd = 0
        for k in range(pc_sbdst.shape[1]):
            if pc_sbdst[pc, k] >= 0:
                nd += 1
        if nd > 0 and warp[sm, w, F_WARP_SB_COUNT] + nd > sb_entries:
            return WAIT_SCOREBOARD
    if pc_info[pc, F_PC_FLAGS] & (F_BARRIER | F_BAR_ARRIVE | F_EXIT):
        return READY
    s = pc_info[pc, F_PC_OCSET]
    if idoc_hc[sm, s, F_IDOC_COUNT] >= set_info[s, F_SET_IDOC_CAP]:
        return WAIT_PIPE
    return READY


@jit
def policy_key(warp, pol, n_sched, n_warps, sm, w, last):  # pragma: no cover - jit
    """Priority of warp slot ``w`` under policy ``pol`` (smaller issues first)."""
    if pol == POL_GTO:
        return -1 if w == last else warp[sm, w, F_WARP_AGE]
    if pol == POL_OLDEST:
        return warp[sm, w, F_WARP_AGE]
    n = n_warps // n_sched
    lj = last // n_sched if last >= 0 else -1
    return (w // n_sched - lj - 1) % n


@jit
def _waits_long(st, tb, tw, sm, w):  # pragma: no cover - jit
    """The warp waits at a barrier, on a long-latency load, or has nothing left to issue."""
    if (st.warp[sm, w, F_WARP_AT_BAR] != 0
            or st.warp[sm, w, F_WARP_POS] >= st.warp[sm, w, F_WARP_END]):
        return True
    if st.warp[sm, w, F_WARP_IBUF] == 0:
        return False
    pc = tw.rec[st.warp[sm, w, F_WARP_POS] - tw.base[0], F_REC_PC]
    return (_sb_hit(st.warp_sb_long, sm, w, tb.pc_sbsrc, pc)
            or _sb_hit(st.warp_sb_long, sm, w, tb.pc_sbdst, pc))


@jit
def _two_level_update(st, tb, tw, prm, sm, s):  # pragma: no cover - jit
    """Demote waiting active warps to the pending FIFO; promote the oldest ready pending."""
    ns = prm[P_N_SCHED]
    n_w = st.warp.shape[1]
    active = 0
    for w in range(s, n_w, ns):
        if st.warp[sm, w, F_WARP_TL_ACTIVE] == 0:
            continue
        if st.warp[sm, w, F_WARP_VALID] == 0:
            st.warp[sm, w, F_WARP_TL_ACTIVE] = 0
        elif _waits_long(st, tb, tw, sm, w):
            st.warp[sm, w, F_WARP_TL_ACTIVE] = 0
            st.warp[sm, w, F_WARP_TL_SEQ] = st.sc[SC_TL_SEQ]
            st.sc[SC_TL_SEQ] += 1
        else:
            active += 1
    while active < prm[P_TL_ACTIVE]:
        best = np.int64(-1)
        best_seq = INT64_MAX
        for w in range(s, n_w, ns):
            if (st.warp[sm, w, F_WARP_VALID] != 0 and st.warp[sm, w, F_WARP_TL_ACTIVE] == 0
                    and st.warp[sm, w, F_WARP_TL_SEQ] < best_seq
                    and not _waits_long(st, tb, tw, sm, w)):
                best = w
                best_seq = st.warp[sm, w, F_WARP_TL_SEQ]
        if best < 0:
            break
        st.warp[sm, best, F_WARP_TL_ACTIVE] = 1
        active += 1


@jit_inline
def tick_issue(st, tb, tw, prm, counters, sm, cycle, hs, hooks):  # pragma: no cover - jit
    """Every scheduler of the SM issues from its best ready warp, or counts why it could not.
    Returns True when anything issued."""
    ns = prm[P_N_SCHED]
    n_w = st.warp.shape[1]
    base = tw.base[0]
    pol = prm[P_POLICY]
    two_level = pol == POL_TWO_LEVEL
    sb_ent = prm[P_SB_ENTRIES]
    sb = st.warp_sb
    sbsrc = tb.pc_sbsrc
    sbdst = tb.pc_sbdst
    n_sbk = sbsrc.shape[1]
    n_sbk_dst = sbdst.shape[1]
    one = np.uint64(1)
    bits = st.warp_bits
    n_words = bits.shape[2]
    progress = False
    for s in range(ns):
        counters[sm, C_SCHED_ACTIVE_CYCLES] += 1
        if two_level:
            _two_level_update(st, tb, tw, prm, sm, s)
        last = st.sched_last[sm, s]
        best = np.int64(-1)
        best_key = INT64_MAX
        any_warp = False
        any_bar = False
        any_sb = False
        any_pipe = False
        for word in range(n_words):
            valid = bits[sm, WB_VALID, word] & st.sched_bits[s, word]
            if valid == 0:
                continue
            any_warp = True
            bar = valid & bits[sm, WB_AT_BAR, word]
            if bar != 0:
                any_bar = True
            cand = valid & ~bar & bits[sm, WB_IBUF, word]
            if not two_level:  # still blocked: nothing changed since
                if (cand & bits[sm, WB_SB_WAIT, word]) != 0:
                    any_sb = True
                cand &= ~bits[sm, WB_SB_WAIT, word]
            while cand != 0:  # the rest in warp order, as the priority ties need
                w = word * 64 + lowest_bit(cand)
                cand &= cand - np.uint64(1)
                if two_level:
                    if st.warp[sm, w, F_WARP_TL_ACTIVE] == 0:
                        continue
                    if st.warp[sm, w, F_WARP_SB_WAIT] != 0:
                        any_sb = True
                        continue
                pc = tw.rec[st.warp[sm, w, F_WARP_POS] - base, F_REC_PC]
                # issue_check, written out: a call per warp and cycle costs more than the check
                hit = False
                nd = 0
                for k in range(n_sbk):
                    r = sbsrc[pc, k]
                    if r < 0:
                        break
                    if (sb[sm, w, r >> 6] >> np.uint64(r & 63)) & one:
                        hit = True
                        break
                if not hit:
                    for k in range(n_sbk_dst):
                        r = sbdst[pc, k]
                        if r < 0:
                            break
                        nd += 1
                        if (sb[sm, w, r >> 6] >> np.uint64(r & 63)) & one:
                            hit = True
                            break
                if (not hit and sb_ent > 0 and nd > 0
                        and st.warp[sm, w, F_WARP_SB_COUNT] + nd > sb_ent):
                    hit = True
                if hit:
                    set_sb_wait(st.warp, bits, sm, w, 1)
                    any_sb = True
                    continue
                if (tb.pc_info[pc, F_PC_FLAGS] & (F_BARRIER | F_BAR_ARRIVE | F_EXIT)) == 0:
                    oc = tb.pc_info[pc, F_PC_OCSET]
                    if st.idoc_hc[sm, oc, F_IDOC_COUNT] >= tb.set_info[oc, F_SET_IDOC_CAP]:
                        any_pipe = True
                        continue
                if not hooks.can_issue(hs, sm, w, pc, cycle):  # a veto: the warp is not ready
                    any_sb = True
                    continue
                if pol == POL_GTO:
                    key = -1 if w == last else st.warp[sm, w, F_WARP_AGE]
                elif pol == POL_OLDEST:
                    key = st.warp[sm, w, F_WARP_AGE]
                else:
                    key = (w // ns - (last // ns if last >= 0 else -1) - 1) % (n_w // ns)
                key = hooks.issue_priority(hs, sm, w, key)
                if key < best_key:
                    best = w
                    best_key = key
        if best < 0:
            if any_pipe:
                counters[sm, C_SCHED_PIPE_STALL_CYCLES] += 1
            elif any_sb:
                counters[sm, C_SCHED_SCOREBOARD_STALL_CYCLES] += 1
            elif any_bar:
                counters[sm, C_SCHED_BARRIER_STALL_CYCLES] += 1
            elif any_warp:
                counters[sm, C_SCHED_IBUFFER_EMPTY_CYCLES] += 1
            else:
                counters[sm, C_SCHED_IDLE_CYCLES] += 1
            continue
        st.sched_last[sm, s] = best
        progress = True
        n = 0
        while True:  # issue (inline: a call per instruction costs about as much as the work)
            rec = st.warp[sm, best, F_WARP_POS]
            r = rec - tw.base[0]
            pc = tw.rec[r, F_REC_PC]
            st.warp[sm, best, F_WARP_POS] = rec + 1
            set_sb_wait(st.warp, bits, sm, best, 0)
            set_ibuf(st.warp, bits, sm, best, st.warp[sm, best, F_WARP_IBUF] - 1, prm[P_IBUF])
            counters[sm, C_GPGPU_N_TOT_W_ICOUNT] += 1
            counters[sm, C_GPU_SIM_INSN] += tw.rec[r, F_REC_NTHR]
            counters[sm, C_SCHED_WARP_INSTS_ISSUED] += 1
            fl = tb.pc_info[pc, F_PC_FLAGS]
            if fl & F_BRANCH:
                counters[sm, C_SIMT_BRANCHES] += 1
                counters[sm, C_SIMT_DIVERGENT_BRANCHES] += tw.rec[r, F_REC_DIVERGED]
                st.warp[sm, best, F_WARP_FETCH_READY] = cycle + prm[P_BRANCH_BUBBLE]
            if fl & F_BARRIER:
                c = st.warp[sm, best, F_WARP_CTA]
                set_at_bar(st.warp, bits, sm, best, 1)
                st.cta[sm, c, F_CTA_N_BAR] += 1
                counters[sm, C_SM_BARRIER_WAITS] += 1
                if st.cta[sm, c, F_CTA_N_BAR] >= st.cta[sm, c, F_CTA_N_LIVE]:
                    release_barrier(st, sm, c)
            elif (fl & (F_BAR_ARRIVE | F_EXIT)) == 0:
                outcome, t_done = hooks.on_issue(hs, sm, best, pc, rec, cycle)
                if outcome != ISSUE_DROP:
                    nd = 0
                    for k in range(tb.pc_sbdst.shape[1]):
                        reg = tb.pc_sbdst[pc, k]
                        if reg < 0:
                            break
                        bit = np.uint64(1) << np.uint64(reg & 63)
                        st.warp_sb[sm, best, reg >> 6] |= bit
                        if fl & F_LONGOP:
                            st.warp_sb_long[sm, best, reg >> 6] |= bit
                        nd += 1
                    st.warp[sm, best, F_WARP_SB_COUNT] += nd
                    counters[sm, C_SCOREBOARD_RESERVATIONS] += nd
                    if outcome == ISSUE_EXECUTE or not hold_issued(
                            st, counters, sm, best, rec, cycle, outcome, t_done):
                        push_idoc(st.idoc_q, st.idoc_hc, sm, tb.pc_info[pc, F_PC_OCSET],
                                  best, rec)
                    st.warp[sm, best, F_WARP_INFLIGHT] += 1
            if (st.warp[sm, best, F_WARP_POS] == st.warp[sm, best, F_WARP_END]
                    and st.warp[sm, best, F_WARP_INFLIGHT] == 0):
                warp_try_exit(st, sm, best, cycle, hs, hooks)
            n += 1
            if (n >= prm[P_MAX_ISSUE] or st.warp[sm, best, F_WARP_VALID] == 0
                    or st.warp[sm, best, F_WARP_IBUF] == 0
                    or st.warp[sm, best, F_WARP_AT_BAR] != 0):
                break
            pc = tw.rec[st.warp[sm, best, F_WARP_POS] - base, F_REC_PC]
            if issue_check(st.warp_sb, st.warp, st.idoc_hc, tb.pc_sbsrc, tb.pc_sbdst,
                           tb.pc_info, tb.set_info, sb_ent,
                           sm, best, pc) != READY or not hooks.can_issue(hs, sm, best, pc, cycle):
                break
        if n > 1:
            counters[sm, C_SCHED_DUAL_ISSUES] += 1
    return progress
