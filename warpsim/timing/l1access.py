"""The L1 side of one line access: the L1D/L1C/L1T lookups (``mem_access``'s work), and
GPGPU-Sim 4.x's L1 latency queue in front of the L1D's tag lookup.

Follows: GPGPU-Sim 3.x ``ldst_unit`` / ``gpu-cache.cc`` ``data_cache`` (write-evict global /
write-back local; see ``memsys.py``); GPGPU-Sim 4.2 ``shader.cc``
``ldst_unit::process_memory_access_queue_l1cache`` and ``L1_latency_queue_cycle`` for the
latency queue (``l1d.latency_queue``): the LD/ST unit puts one L1D access per cycle into the
last of ``l1d.hit_latency_cycles`` slots (refused while that slot is taken); every cycle the
access in slot 0 looks the L1D up, and the queue shifts into free slots. A lookup that fails
(no MSHR, merge slot, way or miss-queue entry: a reservation fail) keeps slot 0 and is retried
next cycle, so the accesses behind it wait in order while the LD/ST unit goes on filling the
queue. Modelled as a FIFO of that many entries, each looked up at the earliest
``hl = l1d.hit_latency_cycles`` cycles after it entered, one lookup per SM per cycle (one L1
bank, ``-gpgpu_l1_banks 1``); a hit completes and a miss enters the miss queue in the lookup's
cycle, so an unloaded access takes the same ``hl`` cycles as without the queue. [A] The
lookups come first in the memory system's cycle (``tick_memsys``), so an MSHR freed by a fill
serves the head from the next cycle on, as it serves an access the LD/ST unit offers itself
(GPGPU-Sim fills first and sends a miss to the interconnect one cycle after its lookup).
Accesses that skip the L1D (atomics, ``l1d.bypass_global``) and the L1C/L1T do not use it.
"""

from __future__ import annotations

from warpsim._jit import jit, jit_inline
from warpsim.stats import (
    C_L1C_TOTAL_CACHE_ACCESSES,
    C_L1C_TOTAL_CACHE_MISSES,
    C_L1D_TOTAL_CACHE_ACCESSES,
    C_L1D_TOTAL_CACHE_MISSES,
    C_L1D_TOTAL_CACHE_PENDING_HITS,
    C_L1D_TOTAL_CACHE_RESERVATION_FAILS,
    C_L1D_TOTAL_CACHE_WRITES,
    C_L1T_TOTAL_CACHE_ACCESSES,
    C_L1T_TOTAL_CACHE_MISSES,
)
from warpsim.timing.cache import (
    R_HIT,
    R_HIT_RESERVED,
    R_RESERVATION_FAIL,
    cache_read,
    cache_write,
    mq_free,
)
from warpsim.timing.l1group import group_miss, l1_push, l1_writeback
from warpsim.timing.l1sector import l1d_sectored, l1s_load, l1s_store
from warpsim.timing.memconsts import (
    A_BYPASS,
    A_COMPLETIONS,
    A_L1_LQ,
    A_MSHR,
    C_MEM_FIRST,
    G_HIT_LATENCY,
    G_LINE_SHIFT,
    G_WRITE_POLICY,
    L1_C,
    L1_D,
    L1_T,
    LQ_ADDR,
    LQ_GROUP,
    LQ_KIND,
    LQ_NSEC,
    LQ_READY,
    LQ_SMASK,
    LQ_TOKEN,
    MEM_ATOMIC,
    MEM_LD_CONST,
    MEM_LD_GLOBAL,
    MEM_LD_LOCAL,
    MEM_LD_TEX,
    MEM_ST_LOCAL,
    N_L1_KINDS,
    P_BYPASS_GLOBAL,
    P_L1_LATQ,
    P_N_SMS,
    PK_ATOMIC,
    PK_READ,
    PK_WRITE,
    RB_COUNT,
    RB_HEAD,
    S_BYP_USED,
    S_GROUP_LINES,
    S_LQ_COUNT,
    S_LQ_HEAD,
    S_PEND_ANY,
    SECTOR_BYTES,
    SRC_BYPASS,
    SRC_NONE,
    T_READY,
    T_TOKEN,
    WP_LOCAL_WB_GLOBAL_WT,
    WP_WRITE_BACK,
    WP_WRITE_EVICT,
)
from warpsim.timing.memstate import pack_info
from warpsim.timing.store_ack import ack_slot

__all__ = ["l1_access", "l1_count", "lq_next_event", "lq_push", "lq_wanted", "tick_l1_queue"]


# -- counters buffered by mem_access -------------------------------------------------------------
@jit
def l1_count(pend, sm_s, sm: int, counter: int) -> None:
    pend[sm, counter - C_MEM_FIRST] += 1
    sm_s[sm, S_PEND_ANY] = 1


@jit
def _hq_push(hq, hq_hc, act, sm: int, lk: int, token: int, ready: int) -> None:
    cap = hq.shape[2]
    i = (hq_hc[sm, lk, RB_HEAD] + hq_hc[sm, lk, RB_COUNT]) % cap
    hq[sm, lk, i, T_TOKEN] = token
    hq[sm, lk, i, T_READY] = ready
    hq_hc[sm, lk, RB_COUNT] += 1
    act[A_COMPLETIONS] += 1


@jit
def _bypass(ca, byp_token, sm_s, pend, act, sm: int, line_addr: int, n_sectors: int,
            kind: int, token: int, cycle: int) -> int:
    """Atomics and L1-bypassing global loads: a bypass slot and the L1D miss queue."""
    c = sm * N_L1_KINDS + L1_D
    n_byp = byp_token.shape[1]
    if sm_s[sm, S_BYP_USED] >= n_byp or mq_free(ca, c) < 1:
        l1_count(pend, sm_s, sm, C_L1D_TOTAL_CACHE_RESERVATION_FAILS)
        return 0
    slot = 0
    while byp_token[sm, slot, 0] != -1:
        slot += 1
    byp_token[sm, slot, 0] = token if token >= 0 else -2
    byp_token[sm, slot, 1] = n_sectors * SECTOR_BYTES
    sm_s[sm, S_BYP_USED] += 1
    act[A_BYPASS] += 1
    pt = PK_ATOMIC if kind == MEM_ATOMIC else PK_READ
    info = pack_info(sm, pt, SRC_BYPASS, n_sectors * SECTOR_BYTES, slot)
    l1_push(ca, act, c, line_addr, info, cycle)
    return 1


@jit
def _load(p, ca, hq, hq_hc, sm_s, pend, act, sm: int, lk: int, line_addr: int, token: int,
          cycle: int, group: int) -> int:
    """A load through L1 ``lk``; ``group`` > 1: a miss fetches the absent lines of its aligned
    group of that many lines too (``l1group.py``)."""
    c = sm * N_L1_KINDS + lk
    if token >= 0 and hq_hc[sm, lk, RB_COUNT] >= hq.shape[2]:
        return 0
    shift = ca.geo[c, G_LINE_SHIFT]
    line = line_addr >> shift
    status, victim = cache_read(ca, c, line, token)
    c_acc = C_L1D_TOTAL_CACHE_ACCESSES
    c_miss = C_L1D_TOTAL_CACHE_MISSES
    if lk == L1_C:
        c_acc = C_L1C_TOTAL_CACHE_ACCESSES
        c_miss = C_L1C_TOTAL_CACHE_MISSES
    elif lk == L1_T:
        c_acc = C_L1T_TOTAL_CACHE_ACCESSES
        c_miss = C_L1T_TOTAL_CACHE_MISSES
    if status == R_RESERVATION_FAIL:
        if lk == L1_D:
            l1_count(pend, sm_s, sm, C_L1D_TOTAL_CACHE_RESERVATION_FAILS)
        return 0
    l1_count(pend, sm_s, sm, c_acc)
    ready = cycle + ca.geo[c, G_HIT_LATENCY]
    if status == R_HIT:
        if token >= 0:
            _hq_push(hq, hq_hc, act, sm, lk, token, ready)
    elif status == R_HIT_RESERVED:
        if lk == L1_D:
            l1_count(pend, sm_s, sm, C_L1D_TOTAL_CACHE_PENDING_HITS)
    else:
        l1_count(pend, sm_s, sm, c_miss)
        act[A_MSHR] += 1
        if group > 1:
            if victim >= 0:
                l1_writeback(ca, act, c, sm, victim, shift, ready)
            group_miss(p, ca, pend, sm_s, act, sm, c, line, shift, group, ready)
            return 1
        l1_push(ca, act, c, line << shift, pack_info(sm, PK_READ, lk, 1 << shift, 0), ready)
        if victim >= 0:
            l1_writeback(ca, act, c, sm, victim, shift, ready)
    return 1


@jit
def _store(ca, hq, hq_hc, sm_s, pend, act, sm: int, line_addr: int, n_sectors: int,
           kind: int, token: int, cycle: int) -> int:
    c = sm * N_L1_KINDS + L1_D
    if mq_free(ca, c) < 2 or (token >= 0 and hq_hc[sm, L1_D, RB_COUNT] >= hq.shape[2]):
        l1_count(pend, sm_s, sm, C_L1D_TOTAL_CACHE_RESERVATION_FAILS)
        return 0
    policy = ca.geo[c, G_WRITE_POLICY]
    if policy == WP_LOCAL_WB_GLOBAL_WT:
        policy = WP_WRITE_BACK if kind == MEM_ST_LOCAL else WP_WRITE_EVICT
    shift = ca.geo[c, G_LINE_SHIFT]
    hit, fwd, victim = cache_write(ca, c, line_addr >> shift, policy, -2)
    ready = cycle + ca.geo[c, G_HIT_LATENCY]
    slot = ack_slot(token)  # > 0: the L2 acknowledges the write (store_ack.py)
    if fwd:
        l1_push(ca, act, c, line_addr,
                 pack_info(sm, PK_WRITE, SRC_NONE, n_sectors * SECTOR_BYTES, slot), ready)
    if victim >= 0:
        l1_writeback(ca, act, c, sm, victim, shift, ready)
    if token >= 0 and not (fwd and slot > 0):
        _hq_push(hq, hq_hc, act, sm, L1_D, token, ready)
    l1_count(pend, sm_s, sm, C_L1D_TOTAL_CACHE_ACCESSES)
    l1_count(pend, sm_s, sm, C_L1D_TOTAL_CACHE_WRITES)
    if not hit:
        l1_count(pend, sm_s, sm, C_L1D_TOTAL_CACHE_MISSES)
    return 1


@jit
def _sectored(ca, hq, hq_hc, byp_token, sm_s, pend, act, sm: int, line_addr: int,
              smask: int, kind: int, token: int, cycle: int) -> int:
    """A load or store through a sectored L1D (``l1sector.py``)."""
    if token >= 0 and hq_hc[sm, L1_D, RB_COUNT] >= hq.shape[2]:
        return 0
    ready = cycle + ca.geo[sm * N_L1_KINDS + L1_D, G_HIT_LATENCY]
    if kind == MEM_LD_GLOBAL or kind == MEM_LD_LOCAL:
        r = l1s_load(ca, byp_token, sm_s, pend, act, sm, line_addr, smask, token, ready)
    else:
        r = 2 * l1s_store(ca, sm_s, pend, act, sm, line_addr, smask, kind, ready)
    if r == 2 and token >= 0:
        _hq_push(hq, hq_hc, act, sm, L1_D, token, ready)
    return 1 if r > 0 else 0


@jit_inline
def l1_access(ms, sm: int, line_addr: int, smask: int, n_sectors: int, kind: int, token: int,
              cycle: int) -> int:
    """Look line ``line_addr`` up in the L1 of ``kind`` (or send it past the L1s); a hit
    completes, a miss enters the miss queue, ``l1d.hit_latency_cycles`` after ``cycle``.
    1 = done, 0 = refused (reservation fail, full hit pipeline)."""
    ca, hq, hq_hc, sm_s, pend, act = ms.caches, ms.hq, ms.hq_hc, ms.sm_s, ms.pend, ms.act
    if kind == MEM_ATOMIC or (kind == MEM_LD_GLOBAL and ms.p[P_BYPASS_GLOBAL] != 0):
        return _bypass(ca, ms.byp_token, sm_s, pend, act, sm, line_addr, n_sectors, kind, token,
                       cycle)
    if kind != MEM_LD_CONST and kind != MEM_LD_TEX and l1d_sectored(ca, sm):
        return _sectored(ca, hq, hq_hc, ms.byp_token, sm_s, pend, act, sm, line_addr, smask,
                         kind, token, cycle)
    if kind == MEM_LD_GLOBAL:
        return _load(ms.p, ca, hq, hq_hc, sm_s, pend, act, sm, L1_D, line_addr, token, cycle,
                     sm_s[sm, S_GROUP_LINES])
    if kind == MEM_LD_LOCAL:
        return _load(ms.p, ca, hq, hq_hc, sm_s, pend, act, sm, L1_D, line_addr, token, cycle, 0)
    if kind == MEM_LD_CONST:
        return _load(ms.p, ca, hq, hq_hc, sm_s, pend, act, sm, L1_C, line_addr, token, cycle, 0)
    if kind == MEM_LD_TEX:
        return _load(ms.p, ca, hq, hq_hc, sm_s, pend, act, sm, L1_T, line_addr, token, cycle, 0)
    return _store(ca, hq, hq_hc, sm_s, pend, act, sm, line_addr, n_sectors, kind, token, cycle)


# -- GPGPU-Sim 4.x's L1 latency queue (``l1d.latency_queue``) ---------------------------------
@jit
def lq_wanted(p, kind: int) -> bool:
    """The access goes through the latency queue: the queue is on and the access uses the
    L1D (not an atomic, a bypassing global load, a constant or texture load)."""
    if p[P_L1_LATQ] == 0 or kind == MEM_ATOMIC or kind == MEM_LD_CONST or kind == MEM_LD_TEX:
        return False
    return not (kind == MEM_LD_GLOBAL and p[P_BYPASS_GLOBAL] != 0)


@jit
def lq_push(p, geo, lq, sm_s, act, sm: int, line_addr: int, smask: int, n_sectors: int,
            kind: int, token: int, cycle: int) -> int:
    """Enter the access into SM ``sm``'s latency queue: 1, or 0 when all its slots are
    taken. The fetch group (``mem_set_fetch_group``) in force now travels with it."""
    n = sm_s[sm, S_LQ_COUNT]
    if n >= p[P_L1_LATQ]:
        return 0
    i = (sm_s[sm, S_LQ_HEAD] + n) % lq.shape[1]
    lq[sm, i, LQ_ADDR] = line_addr
    lq[sm, i, LQ_SMASK] = smask
    lq[sm, i, LQ_NSEC] = n_sectors
    lq[sm, i, LQ_KIND] = kind
    lq[sm, i, LQ_TOKEN] = token
    lq[sm, i, LQ_READY] = cycle + geo[sm * N_L1_KINDS + L1_D, G_HIT_LATENCY]
    lq[sm, i, LQ_GROUP] = sm_s[sm, S_GROUP_LINES]
    sm_s[sm, S_LQ_COUNT] = n + 1
    act[A_L1_LQ] += 1
    return 1


@jit_inline
def tick_l1_queue(ms, cycle: int) -> bool:
    """Every SM's queue head whose time has come looks the L1D up (one per SM per cycle); it
    leaves the queue unless the lookup was refused. True when one left."""
    lq, sm_s = ms.lq, ms.sm_s
    moved = False
    for sm in range(ms.p[P_N_SMS]):
        if sm_s[sm, S_LQ_COUNT] == 0:
            continue
        i = sm_s[sm, S_LQ_HEAD]
        if lq[sm, i, LQ_READY] > cycle:
            continue
        hl = ms.caches.geo[sm * N_L1_KINDS + L1_D, G_HIT_LATENCY]
        group = sm_s[sm, S_GROUP_LINES]
        sm_s[sm, S_GROUP_LINES] = lq[sm, i, LQ_GROUP]
        ok = l1_access(ms, sm, lq[sm, i, LQ_ADDR], lq[sm, i, LQ_SMASK], lq[sm, i, LQ_NSEC],
                       lq[sm, i, LQ_KIND], lq[sm, i, LQ_TOKEN], cycle - hl)
        sm_s[sm, S_GROUP_LINES] = group
        if ok:
            sm_s[sm, S_LQ_HEAD] = (i + 1) % lq.shape[1]
            sm_s[sm, S_LQ_COUNT] -= 1
            ms.act[A_L1_LQ] -= 1
            moved = True
    return moved


@jit
def lq_next_event(lq, sm_s) -> int:
    """Earliest cycle a queue head may look the L1D up (a refused head: a past cycle)."""
    ev = 1 << 62
    for sm in range(sm_s.shape[0]):
        if sm_s[sm, S_LQ_COUNT] > 0:
            ev = min(ev, lq[sm, sm_s[sm, S_LQ_HEAD], LQ_READY])
    return ev
