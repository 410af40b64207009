"""RegLess's jitted hooks: the capacity manager admits regions (``on_cycle_end``), gates issue
(``can_issue``), the OSU stages operands (``on_issue``/``on_retire``: destination entries,
erase/evict flags) and register lines move through the SM's L1 port (``mem_request``,
``on_mem_sent``, ``on_mem_complete``).

Follows: Kloosterman et al., RegLess (MICRO-50 2017) §4.2 (capacity manager, Fig. 9), §4.3
(OSU, Fig. 10), §4.5 (backing store through a write-back L1); specs/regless.md §4.2.3-§4.2.7,
§4.3.2-§4.3.4.

Assumptions (docs/mechanisms/regless.md):
  [A] One admission per shard per cycle: the topmost stacked warp whose next region is known
      (its first instruction was offered to ``can_issue``: the header is decoded); it is
      admitted only when every rotated bank need fits the free counters, else the shard waits
      (head of line, spec A5).
  [A] Preloads: an OSU hit costs the bank's tag port one cycle; a miss allocates an entry
      (free, then the oldest clean, then the oldest dirty line: one 128 B store) and, when a
      memory copy exists, loads the line through the L1 port (+1 cycle for the compressor's
      bit-vector check); a register never written is not fetched (``preload_undefined``).
  [A] A region ends when its last instruction issues (a barrier or exit: when it is offered at
      its turn); its reservation returns to the free counters except long-latency destinations
      not yet written, which return as they retire; the warp is pushed on its shard's stack
      once every instruction it issued has retired.
  [A] The compressor (``compressor.py``): an evicted dirty line whose value (the trace's
      real register value, ``RL_PATTERN_BIT``) matches a pattern goes into the shard's
      compressor cache, else it is one 128 B store; a preload miss costs +1 cycle (bit-vector
      check) and +2 more when the register is compressed; compressor operations (checks,
      matches, decompressions) are counted for energy.
  [A] Metadata in the fetch stage (§5.4, spec §3.7: one fetch and decode slot per word, no
      issue slot, ``fetch_word``): a region's header words, extra preload words and first
      last-use flag word are decoded in front of its first instruction, each later flag word
      in front of region instructions 9, 18, ...; they take decode slots of the warp's fetch,
      so the I-buffer's run-ahead hides them unless the warp waits for that instruction
      (``meta_words_fetched``). The capacity manager learns a region once its first
      instruction, behind its header, reached the I-buffer (A9).
  [A] A preloaded line is an L1 hit when its data arrives at most ``l1d.hit_latency_cycles +
      l2.hit_latency_cycles // 2`` cycles after the L1 port accepted it, else it came from L2
      or DRAM (the engine reports no hit/miss per request).
"""

from __future__ import annotations

import numpy as np

from warpsim._jit import jit
from warpsim.mechanisms.regless.backing_store import (
    TAG_FILL,
    TAG_STORE,
    enqueue,
    line_addr,
)
from warpsim.mechanisms.regless.compressor import cc_filled, cc_read, cc_write
from warpsim.mechanisms.regless.state import (
    F_DST_ERASE,
    F_DST_EVICT,
    F_SRC_ERASE,
    F_SRC_EVICT,
    K_BANKS,
    P_BANK_CAP,
    P_COMP,
    P_L1_LAT,
    P_MAXREG,
    P_NS,
    P_NW,
    P_QCAP,
    R_ABSENT,
    R_CACHED,
    R_PINNED,
    RC_COMPRESSED,
    RC_MEM,
    RC_PATTERN,
    RCOL_META,
    RCOL_PATTERN,
    RG_END,
    RG_META,
    RG_NHINV,
    RG_NIN,
    RG_NOISSUE_END,
    RG_START,
    S_ACTIVE,
    S_DRAINING,
    S_EXITED,
    S_INACTIVE,
    S_NONE,
    S_PRELOADING,
    ST_ACTIVE_CYCLES,
    ST_COMP_OPS,
    ST_COMP_PATTERN,
    ST_EVICT_CLEAN,
    ST_EVICT_COMPRESSED,
    ST_EVICT_DIRTY,
    ST_EVICT_INCOMPRESSIBLE,
    ST_HDR_INV,
    ST_INV_READS,
    ST_L1_INV,
    ST_LINE_LOADS,
    ST_LINE_STORES,
    ST_MEM_LAT,
    ST_META,
    ST_META_FETCHED,
    ST_OSU_READS,
    ST_OSU_WRITES,
    ST_OVERCOMMIT,
    ST_PRELOAD_L1,
    ST_PRELOAD_L2,
    ST_PRELOAD_MEM,
    ST_PRELOAD_OSU,
    ST_PRELOAD_UNDEF,
    ST_PRELOADS,
    ST_REGION_INSNS,
    ST_REGIONS,
    W_ACT_CYCLE,
    W_ALLOW_PC,
    W_INFLIGHT,
    W_META_DONE,
    W_META_REC,
    W_NEXT_PC,
    W_OUT,
    W_POS,
    W_READY,
    W_REGION,
    W_STATE,
)
from warpsim.timing.consts import INT64_MAX, ISSUE_EXECUTE, MK_LD_LOCAL, MK_NONE, MK_ST_LOCAL

__all__ = ["rl_can_issue", "rl_fetch_word", "rl_mem_request", "rl_on_cycle_end", "rl_on_issue",
           "rl_on_mem_complete", "rl_on_mem_sent", "rl_on_retire", "rl_on_warp_exit",
           "rl_on_warp_launch"]

@jit
def _release(hs, sm, w, r, cycle):  # pragma: no cover - jit
    """A pinned entry joins the clean or dirty list (evict)."""
    if hs.reg[sm, w, r, 0] == R_PINNED:
        hs.reg[sm, w, r, 0] = R_CACHED
        hs.reg_stamp[sm, w, r] = cycle


@jit
def _drop(hs, sm, w, r):  # pragma: no cover - jit
    """The entry goes to the free list (erase, invalidation, exit)."""
    if hs.reg[sm, w, r, 0] != R_ABSENT:
        hs.occ[sm, w % hs.prm[P_NS], (w + r) & 7] -= 1
    hs.reg[sm, w, r, 0] = R_ABSENT
    hs.reg[sm, w, r, 1] = 0


@jit
def _evict_dirty(hs, sm, w, r, cycle):  # pragma: no cover - jit
    """A dirty line leaves the OSU: into the compressor when its value matches a pattern
    (§4.4), else one 128 B store to its backing-store line (§4.3.4)."""
    hs.st[ST_EVICT_DIRTY] += 1
    hs.reg[sm, w, r, RC_MEM] = 1
    hs.reg[sm, w, r, RC_COMPRESSED] = 0
    if hs.prm[P_COMP]:
        hs.st[ST_COMP_OPS] += 1  # the pattern match
        pid = hs.reg[sm, w, r, RC_PATTERN]
        if pid == 0:
            hs.st[ST_EVICT_INCOMPRESSIBLE] += 1
        elif cc_write(hs, sm, w, r, cycle):
            hs.st[ST_EVICT_COMPRESSED] += 1
            hs.st[ST_COMP_PATTERN + pid - 1] += 1
            hs.reg[sm, w, r, RC_COMPRESSED] = 1
            return
    enqueue(hs, sm, MK_ST_LOCAL, line_addr(hs, sm, w, r), TAG_STORE)


@jit
def _allocate(hs, sm, w, r, cycle):  # pragma: no cover - jit
    """An OSU entry for (w, r), pinned: free, then the oldest clean, then the oldest dirty line
    of the bank (a dirty victim is written to its backing-store line)."""
    p = hs.prm
    ns = p[P_NS]
    s = w % ns
    b = (w + r) & 7
    if hs.reg[sm, w, r, 0] != R_ABSENT:  # a cached copy: reuse its entry (spec A29)
        hs.reg[sm, w, r, 0] = R_PINNED
        return
    if hs.occ[sm, s, b] >= p[P_BANK_CAP]:
        best_w = -1
        best_r = -1
        best_key = INT64_MAX
        for v in range(s, p[P_NW], ns):
            r0 = (b - v) & 7
            for q in range(r0, p[P_MAXREG], 8):
                if hs.reg[sm, v, q, 0] != R_CACHED:
                    continue
                key = hs.reg_stamp[sm, v, q] + (INT64_MAX // 2 if hs.reg[sm, v, q, 1] else 0)
                if key < best_key:
                    best_key = key
                    best_w = v
                    best_r = q
        if best_w < 0:
            hs.st[ST_OVERCOMMIT] += 1  # every entry pinned (spec §4.2.8: transient)
        else:
            if hs.reg[sm, best_w, best_r, 1]:
                _evict_dirty(hs, sm, best_w, best_r, cycle)
            else:
                hs.st[ST_EVICT_CLEAN] += 1
            _drop(hs, sm, best_w, best_r)
    hs.occ[sm, s, b] += 1
    hs.reg[sm, w, r, 0] = R_PINNED
    hs.reg[sm, w, r, 1] = 0


@jit
def _push(hs, sm, w):  # pragma: no cover - jit
    s = w % hs.prm[P_NS]
    n = hs.stack_n[sm, s]
    hs.stack[sm, s, n] = w
    hs.stack_n[sm, s] = n + 1
    hs.w[sm, w, W_STATE] = S_INACTIVE


@jit
def _unstack(hs, sm, w):  # pragma: no cover - jit
    s = w % hs.prm[P_NS]
    n = hs.stack_n[sm, s]
    k = 0
    for i in range(n):
        if hs.stack[sm, s, i] != w:
            hs.stack[sm, s, k] = hs.stack[sm, s, i]
            k += 1
    hs.stack_n[sm, s] = k


@jit
def _drained(hs, sm, w, cycle):  # pragma: no cover - jit
    """Every write of the region landed: reclaim the rest and push the warp on the stack."""
    s = w % hs.prm[P_NS]
    for b in range(K_BANKS):
        hs.free[sm, s, b] += hs.w_held[sm, w, b]
        hs.w_held[sm, w, b] = 0
    hs.st[ST_ACTIVE_CYCLES] += cycle - hs.w[sm, w, W_ACT_CYCLE]
    _push(hs, sm, w)


@jit
def _end_region(hs, sm, w, cycle):  # pragma: no cover - jit
    """The region's last instruction issued: free its reservation but pending writes."""
    s = w % hs.prm[P_NS]
    for b in range(K_BANKS):
        keep = min(hs.w_pend[sm, w, b], hs.w_res[sm, w, b])
        hs.free[sm, s, b] += hs.w_res[sm, w, b] - keep
        hs.w_held[sm, w, b] = keep
        hs.w_res[sm, w, b] = 0
    hs.w[sm, w, W_STATE] = S_DRAINING
    hs.w[sm, w, W_NEXT_PC] = -1
    if hs.w[sm, w, W_INFLIGHT] == 0:
        _drained(hs, sm, w, cycle)


@jit
def _admit(hs, sm, w, pc, cycle):  # pragma: no cover - jit
    """Reserve the region's rotated need, queue its preloads and header invalidations."""
    s = w % hs.prm[P_NS]
    rid = hs.pc_region[pc]
    for b in range(K_BANKS):
        n = hs.rg_need[rid, (b - w) & 7]
        hs.free[sm, s, b] -= n
        hs.w_res[sm, w, b] = n
    for k in range(hs.rg[rid, RG_NHINV]):
        r = hs.rg_hinv[rid, k]
        hs.st[ST_HDR_INV] += 1
        if hs.reg[sm, w, r, 0] == R_CACHED:
            _drop(hs, sm, w, r)
        if hs.reg[sm, w, r, 2]:
            hs.st[ST_L1_INV] += 1
            hs.reg[sm, w, r, 2] = 0
            hs.reg[sm, w, r, RC_COMPRESSED] = 0
    per_bank = np.zeros(K_BANKS, np.int64)
    lat = 0
    miss = 0
    comp = 0
    for k in range(hs.rg[rid, RG_NIN]):
        r = hs.rg_in[rid, k, 0]
        b = (w + r) & 7
        per_bank[b] += 1
        hs.st[ST_PRELOADS] += 1
        if hs.reg[sm, w, r, 0] != R_ABSENT:
            hs.st[ST_PRELOAD_OSU] += 1
            hs.reg[sm, w, r, 0] = R_PINNED
        else:
            _allocate(hs, sm, w, r, cycle)
            miss = hs.prm[P_COMP]  # the compressed bit-vector check: +1 cycle (§4.3.3)
            hs.st[ST_COMP_OPS] += miss
            if hs.reg[sm, w, r, RC_COMPRESSED]:
                # tag match and decompression (§4.3.3), after any wait for the compressor
                comp = max(comp, 2 + cc_read(hs, sm, w, r, cycle))
                hs.st[ST_COMP_OPS] += 1
            elif hs.reg[sm, w, r, RC_MEM]:
                hs.st[ST_PRELOAD_MEM] += 1
                if enqueue(hs, sm, MK_LD_LOCAL, line_addr(hs, sm, w, r), w):
                    hs.w[sm, w, W_OUT] += 1
            else:
                hs.st[ST_PRELOAD_UNDEF] += 1
        if hs.rg_in[rid, k, 1]:
            hs.st[ST_INV_READS] += 1
            hs.reg[sm, w, r, 2] = 0
            hs.reg[sm, w, r, RC_COMPRESSED] = 0
        if per_bank[b] > lat:
            lat = per_bank[b]
    hs.w[sm, w, W_STATE] = S_PRELOADING
    hs.w[sm, w, W_REGION] = rid
    hs.w[sm, w, W_POS] = pc - 1
    hs.w[sm, w, W_ALLOW_PC] = -1
    hs.w[sm, w, W_READY] = cycle + 1 + lat + miss + comp
    hs.w[sm, w, W_ACT_CYCLE] = cycle
    hs.st[ST_REGIONS] += 1
    hs.st[ST_META] += hs.rg[rid, RG_META]
    hs.st[ST_REGION_INSNS] += hs.rg[rid, RG_END] - hs.rg[rid, RG_START] + 1


@jit
def rl_on_cycle_end(hs, counters, cycle):  # pragma: no cover - jit
    """Each shard's capacity manager admits at most one region per cycle (§4.2.3)."""
    p = hs.prm
    ns = p[P_NS]
    nxt = INT64_MAX
    for sm in range(hs.stack.shape[0]):
        for s in range(ns):
            for i in range(hs.stack_n[sm, s] - 1, -1, -1):
                w = hs.stack[sm, s, i]
                pc = hs.w[sm, w, W_NEXT_PC]
                if pc < 0:
                    continue  # header not decoded yet: skip (spec A5)
                rid = hs.pc_region[pc]
                fits = True
                for b in range(K_BANKS):
                    if hs.rg_need[rid, (b - w) & 7] > hs.free[sm, s, b]:
                        fits = False
                if fits:
                    _unstack(hs, sm, w)
                    _admit(hs, sm, w, pc, cycle)
                else:
                    hs.cnt[sm, 0] += 1
                break
        for w in range(p[P_NW]):
            if hs.w[sm, w, W_STATE] == S_PRELOADING and hs.w[sm, w, W_OUT] == 0:
                nxt = min(nxt, max(hs.w[sm, w, W_READY], cycle + 1))
    return nxt


@jit
def rl_can_issue(hs, sm, warp, pc, cycle):  # pragma: no cover - jit
    """Only ACTIVE warps issue, and only their region's instructions (§4.2.2)."""
    w = warp
    st = hs.w[sm, w, W_STATE]
    if st == S_PRELOADING and hs.w[sm, w, W_OUT] == 0 and cycle >= hs.w[sm, w, W_READY]:
        hs.w[sm, w, W_STATE] = S_ACTIVE
        st = S_ACTIVE
    if st == S_ACTIVE:
        rid = hs.w[sm, w, W_REGION]
        if hs.pc_region[pc] == rid and pc > hs.w[sm, w, W_POS]:
            if pc == hs.rg[rid, RG_END] and hs.rg[rid, RG_NOISSUE_END]:
                hs.w[sm, w, W_ALLOW_PC] = pc  # barrier / exit: issued without on_issue
                _end_region(hs, sm, w, cycle)
            return True
        _end_region(hs, sm, w, cycle)  # left the region (branch, loop back edge)
        st = hs.w[sm, w, W_STATE]
    if pc == hs.w[sm, w, W_ALLOW_PC]:
        return True
    if st == S_INACTIVE or st == S_DRAINING:
        hs.w[sm, w, W_NEXT_PC] = pc
    return False


@jit
def rl_fetch_word(hs, sm, warp, rec, cycle):  # pragma: no cover - jit
    """One of the metadata words in front of record ``rec`` takes this decode slot (§5.4)."""
    row = rec - hs.rec_base[0]
    if row < 0 or row >= hs.rec.shape[0]:
        return False
    due = hs.rec[row, RCOL_META]
    if due == 0:
        return False
    if hs.w[sm, warp, W_META_REC] != rec:
        hs.w[sm, warp, W_META_REC] = rec
        hs.w[sm, warp, W_META_DONE] = 0
    if hs.w[sm, warp, W_META_DONE] >= due:
        return False
    hs.w[sm, warp, W_META_DONE] += 1
    hs.st[ST_META_FETCHED] += 1
    return True


@jit
def rl_on_issue(hs, sm, warp, pc, rec, cycle):  # pragma: no cover - jit
    """Operands read from the OSU, destination entries reserved, source flags applied."""
    w = warp
    hs.w[sm, w, W_POS] = pc
    hs.w[sm, w, W_INFLIGHT] += 1
    row = rec - hs.rec_base[0]
    pat = hs.rec[row, RCOL_PATTERN] if 0 <= row < hs.rec.shape[0] else 0
    if pc < hs.eng_dst.shape[0]:
        for j in range(hs.eng_dst.shape[1]):  # the written values' compressor patterns
            r = hs.eng_dst[pc, j]
            if r < 0:
                break
            if r < hs.prm[P_MAXREG]:
                hs.reg[sm, w, r, RC_PATTERN] = (pat >> (3 * j)) & 7 if j < 21 else 0
    hs.st[ST_OSU_READS] += hs.pc_info[pc, 1]
    ll = hs.pc_info[pc, 0]
    for k in range(hs.pc_dst.shape[1]):
        r = hs.pc_dst[pc, k]
        if r < 0:
            break
        _allocate(hs, sm, w, r, cycle)
        hs.reg[sm, w, r, 1] = 1
        if ll:
            hs.w_pend[sm, w, (w + r) & 7] += 1
    for k in range(hs.pc_flags.shape[1]):
        r = hs.pc_flags[pc, k, 0]
        if r < 0:
            break
        kind = hs.pc_flags[pc, k, 1]
        if kind == F_SRC_ERASE:
            _drop(hs, sm, w, r)
        elif kind == F_SRC_EVICT:
            _release(hs, sm, w, r, cycle)
    rid = hs.w[sm, w, W_REGION]
    if pc == hs.rg[rid, RG_END] and hs.w[sm, w, W_STATE] == S_ACTIVE:
        _end_region(hs, sm, w, cycle)
    return ISSUE_EXECUTE, np.int64(0)


@jit
def rl_on_retire(hs, sm, warp, pc, rec, cycle):  # pragma: no cover - jit
    """Results written: destination flags applied, pending entries reclaimed, drains end."""
    w = warp
    s = w % hs.prm[P_NS]
    ll = hs.pc_info[pc, 0]
    for k in range(hs.pc_dst.shape[1]):
        r = hs.pc_dst[pc, k]
        if r < 0:
            break
        hs.st[ST_OSU_WRITES] += 1
        if ll:
            b = (w + r) & 7
            hs.w_pend[sm, w, b] -= 1
            if hs.w_held[sm, w, b] > 0:
                hs.w_held[sm, w, b] -= 1
                hs.free[sm, s, b] += 1
    for k in range(hs.pc_flags.shape[1]):
        r = hs.pc_flags[pc, k, 0]
        if r < 0:
            break
        kind = hs.pc_flags[pc, k, 1]
        if kind == F_DST_ERASE:
            _drop(hs, sm, w, r)
        elif kind == F_DST_EVICT:
            _release(hs, sm, w, r, cycle)
    hs.w[sm, w, W_INFLIGHT] -= 1
    if hs.w[sm, w, W_STATE] == S_DRAINING and hs.w[sm, w, W_INFLIGHT] == 0:
        _drained(hs, sm, w, cycle)


@jit
def rl_on_warp_launch(hs, sm, warp, cta_slot, pos, cycle):  # pragma: no cover - jit
    """A new warp holds nothing and waits on its shard's stack (§4.2.7)."""
    hs.w[sm, warp, :] = 0
    hs.w[sm, warp, W_NEXT_PC] = -1
    hs.w[sm, warp, W_ALLOW_PC] = -1
    hs.w[sm, warp, W_META_REC] = -1
    hs.w[sm, warp, W_STATE] = S_NONE
    _push(hs, sm, warp)


@jit
def rl_on_warp_exit(hs, sm, warp, cycle):  # pragma: no cover - jit
    """Flash-free the warp's entries and return its capacity (§4.2.7)."""
    w = warp
    s = w % hs.prm[P_NS]
    for r in range(hs.prm[P_MAXREG]):
        _drop(hs, sm, w, r)
        hs.reg[sm, w, r, 2] = 0
        hs.reg[sm, w, r, RC_COMPRESSED] = 0
    for b in range(K_BANKS):
        hs.free[sm, s, b] += hs.w_res[sm, w, b] + hs.w_held[sm, w, b]
        hs.w_res[sm, w, b] = 0
        hs.w_held[sm, w, b] = 0
        hs.w_pend[sm, w, b] = 0
    if hs.w[sm, w, W_STATE] == S_INACTIVE:
        _unstack(hs, sm, w)
    hs.w[sm, w, W_STATE] = S_EXITED


@jit
def rl_mem_request(hs, sm, cycle):  # pragma: no cover - jit
    """The oldest queued register line (preload load or dirty write-back)."""
    q = hs.memq_ht
    if q[sm, 1] == 0:
        return MK_NONE, np.int64(0), np.int64(0), np.int64(0)
    k = q[sm, 0]
    return hs.memq[sm, k, 0], hs.memq[sm, k, 1], np.int64(4), hs.memq[sm, k, 2]


@jit
def rl_on_mem_sent(hs, sm, tag, accepted, cycle):  # pragma: no cover - jit
    """An accepted line leaves the queue; a refused one is offered again."""
    if accepted:
        q = hs.memq_ht
        k = q[sm, 0]
        hs.sent[sm, k] = cycle
        if hs.memq[sm, k, 0] == MK_LD_LOCAL:
            hs.st[ST_LINE_LOADS] += 1
        else:
            hs.st[ST_LINE_STORES] += 1
        q[sm, 0] = (k + 1) % hs.prm[P_QCAP]
        q[sm, 1] -= 1


@jit
def rl_on_mem_complete(hs, sm, tag, cycle):  # pragma: no cover - jit
    """A preloaded line arrived: one fewer outstanding preload of the warp; its latency since
    the port accepted it classifies the source (L1 hit, else L2/DRAM). A compressor line's
    arrival also ends the preloads merged into it (``compressor.cc_filled``)."""
    if tag < TAG_STORE:
        nw = hs.prm[P_NW]
        w = tag % nw
        lat = cycle - hs.sent[sm, tag // nw]
        hs.st[ST_MEM_LAT] += lat
        if lat <= hs.prm[P_L1_LAT]:
            hs.st[ST_PRELOAD_L1] += 1
        else:
            hs.st[ST_PRELOAD_L2] += 1
        hs.w[sm, w, W_OUT] -= 1
        hs.w[sm, w, W_READY] = max(hs.w[sm, w, W_READY], cycle + 1)
        cc_filled(hs, sm, tag // nw + 1, cycle)
    elif TAG_FILL <= tag < TAG_FILL + hs.prm[P_QCAP]:
        cc_filled(hs, sm, tag - TAG_FILL + 1, cycle)
