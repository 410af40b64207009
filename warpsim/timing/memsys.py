"""The memory system behind the SMs' LD/ST units: L1D/L1C/L1T, interconnect, L2 slices, DRAM.

This module is the interface of docs/dev-contracts.md "Timing engine": ``make_mem_state``,
``mem_access``, ``tick_memsys``, ``mem_next_event``, ``mem_pop_completion``, ``mem_idle``, plus
``mem_flush_counters`` (adds the counts that ``mem_access`` buffered, see below) and
``mem_has_completion`` (an inlined guard for the pop loop; docs/memory-model.md "Speed") and
``mem_set_fetch_group`` (the L1 fetch-group seam, ``l1group.py``).

Path of a load that misses everywhere (times in core cycles unless noted): the L1 tag pipeline
(``l1d.hit_latency_cycles``: a hit completes then, a miss enters the L1 miss queue then); the
request crossbar (``icnt.latency_cycles + flits - 1`` icnt ticks); the ROP delay
(``l2.hit_latency_cycles``); the L2 lookup, whose miss enters the DRAM queue one cycle later; DRAM
(dram.py, DRAM ticks) plus ``dram.latency_cycles``; the L2 fill, whose replies leave one cycle
later; the reply crossbar (``latency + flits - 1`` icnt ticks); the L1 fill, which completes every
merged token in that cycle. docs/memory-model.md works the GTX480 numbers out.

L1 policies per kind: global and local loads use the L1D (global loads skip it with
``l1d.bypass_global``), ``ld.const`` the L1C, texture fetches the L1T; atomics skip the L1s and
are performed at the L2. Stores follow ``l1d.write_policy``: ``local_wb_global_wt`` (Fermi) is
write-evict for global data (a hit invalidates the line, the write always goes to the L2, no
allocation on a miss) and write-back for local data (a hit makes the line dirty; a miss follows
``l1d.write_alloc_policy``; dirty lines are written back on eviction).

Counters: ``mem_access`` has no ``counters`` argument, so it buffers its counts (L1 accesses,
misses, pending hits, reservation fails, writes; ``gpgpu_n_mem_{read,write}_{global,local}``)
in ``MemState.pend``; every ``tick_memsys`` adds them into ``counters``; call
``mem_flush_counters`` once after the last access so none stays behind.

Follows: docs/dev-contracts.md; GPGPU-Sim 3.x ``shader.cc`` ``ldst_unit`` / ``gpu-cache.cc``
``data_cache`` (write-evict global / write-back local), reference/gpu-simulators.md §2.
Assumptions: [A] one line per SM per cycle across the three L1s (the LD/ST port); [A] an SM
fills at most one returned line per cycle; [A] requests that skip the L1 use one of
``l1d.mshr_entries`` bypass slots and the L1D miss queue; [A] a store with a token completes
after the L1 hit latency (posted write), except one with a store-acknowledgement token
(``store_ack.py``) that goes below the L1: it completes when the L2's acknowledgement arrives.
Deviations: L1 lines smaller than the trace's 128 B line are accessed as the one line holding
the first byte; the L1C and L1T are not sectored (a line is filled once replies for all its
bytes arrived: one reply, or one per sector from a sectored L2); a sectored L1D
(``l1d.sector_bytes`` 32) is ``l1sector.py``. The lookups themselves are ``l1access.py``,
which also holds GPGPU-Sim 4.x's L1 latency queue (``l1d.latency_queue``): with it an L1D
access is looked up at the queue's head, ``l1d.hit_latency_cycles`` or more after it was
accepted.
"""

from __future__ import annotations

from warpsim._jit import jit
from warpsim.arch import GPUConfig
from warpsim.timing.cache import (
    cache_fill,
    mshr_find,
    mshr_free,
)
from warpsim.timing.dram import dram_next_event, tick_dram
from warpsim.timing.icnt import icnt_next_event, tick_icnt
from warpsim.timing.l1access import l1_access, lq_next_event, lq_push, lq_wanted, tick_l1_queue
from warpsim.timing.l1group import MAX_GROUP_LINES, fq_push, l1_writeback
from warpsim.timing.l1sector import l1d_sectored, l1s_fill, split_line
from warpsim.timing.l2 import l2_next_event, tick_l2
from warpsim.timing.memconsts import (
    A_BYPASS,
    A_COMPLETIONS,
    A_DRAM_Q,
    A_DRAM_RET,
    A_EJECT,
    A_L1_LQ,
    A_L1_MQ,
    A_L2_MQ,
    A_L2_RQ,
    A_MSHR,
    A_ROP,
    C_MEM_FIRST,
    C_MEM_LAST,
    DOM_DRAM,
    DOM_ICNT,
    DOM_L2,
    FAULT_BAD_KIND,
    FAULT_BAD_SECTORS,
    FAULT_BAD_SM,
    FAULT_NEGATIVE_ADDRESS,
    G_LINE_SHIFT,
    INT64_MAX,
    L1_D,
    N_ACT,
    N_L1_KINDS,
    N_MEM_KINDS,
    P_N_SMS,
    PK_WRITE,
    Q_ADDR,
    Q_INFO,
    Q_READY,
    RB_COUNT,
    RB_HEAD,
    S_BYP_USED,
    S_EJ_COUNT,
    S_EJ_HEAD,
    S_FQ_COUNT,
    S_FQ_HEAD,
    S_GROUP_LINES,
    S_PEND_ANY,
    S_PORT_CYCLE,
    SRC_BYPASS,
    T_READY,
    T_TOKEN,
)
from warpsim.timing.memstate import (
    MemState,
    build_mem_state,
    first_tick,
    info_bytes,
    info_ptype,
    info_slot,
    info_src,
)
from warpsim.timing.store_ack import ack_token

__all__ = [
    "make_mem_state",
    "mem_access",
    "mem_flush_counters",
    "mem_busy",
    "mem_has_completion",
    "mem_idle",
    "mem_next_event",
    "mem_pop_completion",
    "mem_set_fetch_group",
    "tick_memsys",
]


def make_mem_state(cfg: GPUConfig) -> MemState:
    """A fresh, empty memory system for ``cfg`` (all caches invalid, all queues empty)."""
    return build_mem_state(cfg)


@jit
def _flush(pend, sm_s, counters) -> bool:
    flushed = False
    for sm in range(sm_s.shape[0]):
        if sm_s[sm, S_PEND_ANY] == 0:
            continue
        for j in range(C_MEM_LAST - C_MEM_FIRST):
            counters[sm, C_MEM_FIRST + j] += pend[sm, j]
            pend[sm, j] = 0
        sm_s[sm, S_PEND_ANY] = 0
        flushed = True
    return flushed


@jit
def mem_flush_counters(ms, counters) -> None:
    """Add the counts buffered by ``mem_access`` into ``counters`` (also done by every tick)."""
    _flush(ms.pend, ms.sm_s, counters)


@jit
def _fault(fault, code: int, sm: int, kind: int, addr: int) -> int:
    if fault[0] == 0:
        fault[0] = code
        fault[1] = sm
        fault[2] = kind
        fault[3] = addr
    return 1


@jit
def mem_access(ms, sm: int, line_addr: int, n_sectors: int, kind: int, token: int,
               cycle: int) -> int:
    """Offer one 128 B line of a warp memory instruction; 1 = accepted, 0 = refused this cycle
    (L1 port taken, no MSHR / merge slot / way / miss-queue entry). Bits 0-3 of ``line_addr``
    may name the sectors it touches (``l1sector.split_line``). Bad arguments are accepted
    and recorded in ``ms.fault``."""
    if sm < 0 or sm >= ms.p[P_N_SMS]:
        return _fault(ms.fault, FAULT_BAD_SM, sm, kind, line_addr)
    if kind < 0 or kind >= N_MEM_KINDS:
        return _fault(ms.fault, FAULT_BAD_KIND, sm, kind, line_addr)
    if n_sectors < 1 or n_sectors > 4:
        return _fault(ms.fault, FAULT_BAD_SECTORS, sm, kind, line_addr)
    if line_addr < 0:
        return _fault(ms.fault, FAULT_NEGATIVE_ADDRESS, sm, kind, line_addr)
    if ms.sm_s[sm, S_PORT_CYCLE] == cycle:
        return 0
    line_addr, smask = split_line(line_addr, n_sectors)
    if lq_wanted(ms.p, kind):  # GPGPU-Sim 4.x: the tag lookup comes at the queue's head
        ok = lq_push(ms.p, ms.caches.geo, ms.lq, ms.sm_s, ms.act, sm, line_addr, smask,
                     n_sectors, kind, token, cycle)
    else:
        ok = l1_access(ms, sm, line_addr, smask, n_sectors, kind, token, cycle)
    if ok:
        ms.sm_s[sm, S_PORT_CYCLE] = cycle
    return ok


@jit
def mem_set_fetch_group(ms, sm: int, n_lines: int) -> None:
    """Set SM ``sm``'s L1D fetch group: a global-load miss also fetches the absent lines of its
    aligned group of ``n_lines`` lines, in the same lookup and request (``l1group.py``); 1: the
    line alone (the baseline). Clamped to 1 .. ``MAX_GROUP_LINES``; it stays until set again."""
    ms.sm_s[sm, S_GROUP_LINES] = min(MAX_GROUP_LINES, max(1, n_lines))


@jit
def _l1_fill(ca, ej, byp_token, fq, sm_s, act, sm: int, cycle: int) -> bool:
    """Take the reply at the head of SM ``sm``'s ejection buffer (one per cycle)."""
    i = sm_s[sm, S_EJ_HEAD]
    if ej[sm, i, Q_READY] > cycle:
        return False
    info = ej[sm, i, Q_INFO]
    src = info_src(info)
    if info_ptype(info) == PK_WRITE:  # a store acknowledgement (store_ack.py)
        if info_slot(info) > 0:
            fq_push(fq, sm_s, act, sm, ack_token(info_slot(info)), cycle)
    elif src == SRC_BYPASS:
        slot = info_slot(info)
        left = byp_token[sm, slot, 1] - info_bytes(info)
        byp_token[sm, slot, 1] = left
        if left <= 0:
            token = byp_token[sm, slot, 0]
            if token >= 0:
                fq_push(fq, sm_s, act, sm, token, cycle)
            byp_token[sm, slot, 0] = -1
            sm_s[sm, S_BYP_USED] -= 1
            act[A_BYPASS] -= 1
    elif src == L1_D and l1d_sectored(ca, sm):
        l1s_fill(ca, byp_token, fq, sm_s, act, sm, ej[sm, i, Q_ADDR], info, cycle)
    else:
        c = sm * N_L1_KINDS + src
        shift = ca.geo[c, G_LINE_SHIFT]
        line = ej[sm, i, Q_ADDR] >> shift
        m = mshr_find(ca, c, line)
        got = 0
        if m >= 0:
            got = ca.mshr_got[c, m] + info_bytes(info)
            if got < (1 << shift):
                ca.mshr_got[c, m] = got         # more sectors of the line still to come
        if m >= 0 and got >= (1 << shift):
            n = ca.mshr_n_req[c, m]
            dirty = False
            for k in range(n):
                if ca.mshr_req[c, m, k] == -2:
                    dirty = True
            victim = cache_fill(ca, c, line, dirty)
            if victim == -2:
                return False
            if victim >= 0:
                l1_writeback(ca, act, c, sm, victim, shift, cycle)
            for k in range(n):
                token = ca.mshr_req[c, m, k]
                if token >= 0:
                    fq_push(fq, sm_s, act, sm, token, cycle)
            mshr_free(ca, c, m)
            act[A_MSHR] -= 1
    sm_s[sm, S_EJ_HEAD] = (i + 1) % ej.shape[1]
    sm_s[sm, S_EJ_COUNT] -= 1
    act[A_EJECT] -= 1
    return True


# -- the clock ---------------------------------------------------------------------------------
@jit
def tick_memsys(ms, counters, cycle: int) -> bool:
    """Advance the memory system through core cycle ``cycle``: the L1 latency queues' lookups,
    DRAM, L2 and interconnect ticks that fall in it (back to front), then L1 fills. True when
    anything moved or any counter changed (so an engine that extrapolates counters over skipped
    cycles never scales memory counters)."""
    progress = _flush(ms.pend, ms.sm_s, counters)
    act = ms.act
    # the latency queues' lookups first: a miss reaches the interconnect in the cycle it was
    # looked up, as an access the LD/ST unit looks up itself (an MSHR a fill frees is used
    # from the next cycle on in both)
    if act[A_L1_LQ] > 0 and tick_l1_queue(ms, cycle):
        progress = True
    if act[A_L2_MQ] + act[A_DRAM_Q] > 0:
        num = ms.clk[0, DOM_DRAM]
        den = ms.clk[1, DOM_DRAM]
        for k in range(first_tick(cycle, num, den), first_tick(cycle + 1, num, den)):
            if tick_dram(ms.p, ms.clk, ms.caches, ms.dq, ms.bank, ms.ch_s, ms.ret, ms.act,
                         counters, k, cycle):
                progress = True
    if act[A_ROP] + act[A_DRAM_RET] > 0:
        num = ms.clk[0, DOM_L2]
        den = ms.clk[1, DOM_L2]
        for _ in range(first_tick(cycle, num, den), first_tick(cycle + 1, num, den)):
            if tick_l2(ms.p, ms.caches, ms.rop, ms.rq, ms.sl_s, ms.ret, ms.ch_s, ms.act,
                       counters, cycle):
                progress = True
    if act[A_L1_MQ] + act[A_L2_RQ] > 0:
        num = ms.clk[0, DOM_ICNT]
        den = ms.clk[1, DOM_ICNT]
        for k in range(first_tick(cycle, num, den), first_tick(cycle + 1, num, den)):
            if tick_icnt(ms.p, ms.clk, ms.caches, ms.sm_s, ms.sl_s, ms.rop, ms.rq, ms.ej,
                         ms.act, counters, k, cycle):
                progress = True
    if act[A_EJECT] > 0:
        for sm in range(ms.p[P_N_SMS]):
            if ms.sm_s[sm, S_EJ_COUNT] > 0 and _l1_fill(ms.caches, ms.ej, ms.byp_token, ms.fq,
                                                             ms.sm_s, ms.act, sm, cycle):
                progress = True
    return progress


@jit
def _pop(hq, hq_hc, fq, sm_s, act, sm: int, cycle: int) -> int:
    for lk in range(N_L1_KINDS):
        if hq_hc[sm, lk, RB_COUNT] > 0:
            i = hq_hc[sm, lk, RB_HEAD]
            if hq[sm, lk, i, T_READY] <= cycle:
                hq_hc[sm, lk, RB_HEAD] = (i + 1) % hq.shape[2]
                hq_hc[sm, lk, RB_COUNT] -= 1
                act[A_COMPLETIONS] -= 1
                return hq[sm, lk, i, T_TOKEN]
    if sm_s[sm, S_FQ_COUNT] > 0:
        i = sm_s[sm, S_FQ_HEAD]
        if fq[sm, i, T_READY] <= cycle:
            sm_s[sm, S_FQ_HEAD] = (i + 1) % fq.shape[1]
            sm_s[sm, S_FQ_COUNT] -= 1
            act[A_COMPLETIONS] -= 1
            return fq[sm, i, T_TOKEN]
    return -1


@jit
def mem_has_completion(ms) -> bool:
    """False when no SM has a completion queued (then ``mem_pop_completion`` returns -1 for
    every SM). Tiny and call-free, so numba inlines it into the caller: the cheap guard for the
    per-SM, per-cycle pop loop (a call that receives the whole ``MemState`` costs about 15 ns
    per array it holds)."""
    return ms.act[A_COMPLETIONS] > 0


@jit
def mem_pop_completion(ms, sm: int, cycle: int) -> int:
    """Token of one access of SM ``sm`` whose data arrived by ``cycle``, or -1."""
    if ms.act[A_COMPLETIONS] == 0:
        return -1
    return _pop(ms.hq, ms.hq_hc, ms.fq, ms.sm_s, ms.act, sm, cycle)


@jit
def _sm_next_event(hq, hq_hc, fq, ej, sm_s) -> int:
    ev = INT64_MAX
    for sm in range(sm_s.shape[0]):
        for lk in range(N_L1_KINDS):
            if hq_hc[sm, lk, RB_COUNT] > 0:
                ev = min(ev, hq[sm, lk, hq_hc[sm, lk, RB_HEAD], T_READY])
        if sm_s[sm, S_FQ_COUNT] > 0:
            ev = min(ev, fq[sm, sm_s[sm, S_FQ_HEAD], T_READY])
        if sm_s[sm, S_EJ_COUNT] > 0:
            ev = min(ev, ej[sm, sm_s[sm, S_EJ_HEAD], Q_READY])
    return ev


@jit
def mem_next_event(ms, cycle: int) -> int:
    """Earliest core cycle >= ``cycle`` at which the memory system has something to do or a
    completion to deliver; ``INT64_MAX`` when nothing is in flight. Every cycle before it is a
    no-op for ``tick_memsys`` and ``mem_pop_completion``."""
    ev = INT64_MAX
    act = ms.act
    if act[A_COMPLETIONS] + act[A_EJECT] > 0:
        ev = _sm_next_event(ms.hq, ms.hq_hc, ms.fq, ms.ej, ms.sm_s)
    if act[A_L1_LQ] > 0:
        ev = min(ev, lq_next_event(ms.lq, ms.sm_s))
    if ev <= cycle:
        return cycle
    ev = min(ev, icnt_next_event(ms.p, ms.clk, ms.caches, ms.sm_s, ms.sl_s, ms.rq,
                                     ms.act, cycle))
    ev = min(ev, l2_next_event(ms.p, ms.clk, ms.rop, ms.sl_s, ms.ret, ms.ch_s, ms.act,
                                   cycle))
    ev = min(ev, dram_next_event(ms.p, ms.clk, ms.caches, ms.dq, ms.bank, ms.ch_s, ms.act,
                                     cycle))
    return max(ev, cycle)


@jit
def mem_idle(ms) -> bool:
    """True when nothing is in flight (no queued packet, MSHR, bypass slot or completion)."""
    for a in range(N_ACT):
        if ms.act[a] != 0:
            return False
    return True


@jit
def mem_busy(ms) -> bool:
    """False when ``tick_memsys`` would change nothing: nothing in flight and no count buffered
    by ``mem_access`` (the engine's guard of the per-cycle tick)."""
    for a in range(N_ACT):
        if ms.act[a] != 0:
            return True
    for sm in range(ms.sm_s.shape[0]):
        if ms.sm_s[sm, S_PEND_ANY] != 0:
            return True
    return False
