"""The sectored L1D: per-sector valid bits, a miss fetches only the missing 32-byte sectors.

GPGPU-Sim 4.2's Volta and later configurations (SM7_QV100 ``-gpgpu_cache:dl1 S:4:128:64``)
have a sectored L1D: the coalescer of compute capability >= 4.0 makes one 32-byte request per
sector a warp touches (``warp_inst_t::memory_coalescing_arch``, ``sector_segment_size``), and
the L1D, a ``sector_cache`` keyed in its ``mshr_table`` by sector address
(``cache_config::mshr_addr``), handles each one: a valid sector hits, a sector whose fill is
pending merges into its MSHR (``HIT_RESERVED``, up to ``n_mshr_max_merge`` requests), an
absent one takes an MSHR and sends one 32-byte read to the L2 (``SECTOR_MISS`` in a present
line, ``MISS`` with a line allocated, its victim evicted, when absent). This module does that
per 128-byte line the LD/ST unit offers (``l1d.sector_bytes`` 32 < ``l1d.line_bytes`` 128;
sector bits and sector MSHRs of ``timing/sector.py``, the sectored L2's):

* the trace gives the sectors of each line (``TraceChunk.line_sectors``); the driver puts them
  into bits 0-3 of the engine's line addresses (``engine_lines``) and ``memsys.mem_access``
  takes them out again (``split_line``); without them (a mechanism's own request) the line's
  first ``n_sectors`` sectors are meant;
* a load is accepted when every sector it wants can be served: each pending one has a merge
  slot, each absent one an MSHR and a miss-queue entry (plus one for a dirty victim); else it
  is refused whole (one reservation fail) and offered again;
* the load completes when its last sector is there: at the hit latency when all hit, else at
  the fill of its last outstanding sector; a load waiting for several sectors holds a join
  slot (``byp_token[sm, slot]``: its token and the sector bytes still to come) that its MSHR
  entries name (payload ``JOIN - slot``);
* stores under ``l1d.write_policy`` per sector (``sector.sec_write``); a forwarded write is one
  packet of the line's written sectors from the first of them;
* counts are per sector, as GPGPU-Sim's: each sector is an L1D access, a miss, a pending hit
  or a write; a refused line is one reservation fail.

Assumptions: [A] one line per cycle through the L1 port (GPGPU-Sim: one sector per L1 bank
per cycle, 4 banks interleaved by 32 B, so the 4 sectors of a line in one cycle); [A] a line
is accepted or refused whole (GPGPU-Sim handles its sector accesses one by one, a refused one
stalling the rest); [A] join slots share the ``l1d.mshr_entries`` bypass slots; [A] a write
miss never allocates in a write-through L1D (GPGPU-Sim 4.2's ``L`` lazy fetch-on-read write
allocation marks the written bytes; warpsim's unsectored L1D does not allocate either).
"""

from __future__ import annotations

import numpy as np

from warpsim._jit import jit
from warpsim.stats import (
    C_L1D_TOTAL_CACHE_ACCESSES,
    C_L1D_TOTAL_CACHE_MISSES,
    C_L1D_TOTAL_CACHE_PENDING_HITS,
    C_L1D_TOTAL_CACHE_RESERVATION_FAILS,
    C_L1D_TOTAL_CACHE_WRITES,
)
from warpsim.timing.cache import (
    R_MISS,
    cache_probe,
    cache_set,
    cache_victim,
    mq_free,
    mshr_find,
    mshr_free,
)
from warpsim.timing.l1group import fq_push, l1_push
from warpsim.timing.memconsts import (
    A_BYPASS,
    A_MSHR,
    C_MEM_FIRST,
    G_LINE_SHIFT,
    G_MSHR_ENTRIES,
    G_MSHR_MAX_MERGE,
    G_SECTOR_SHIFT,
    G_WRITE_POLICY,
    K_MSHR_USED,
    L1_D,
    MEM_ST_LOCAL,
    N_L1_KINDS,
    PK_READ,
    PK_WRITE,
    S_BYP_USED,
    S_PEND_ANY,
    SEC_MASK,
    SEC_PEND_SHIFT,
    SECTOR_BYTES,
    SRC_NONE,
    WP_LOCAL_WB_GLOBAL_WT,
    WP_WRITE_BACK,
    WP_WRITE_EVICT,
)
from warpsim.timing.memstate import info_slot, pack_info
from warpsim.timing.sector import sec_dirty_bytes, sec_fill, sec_read, sec_write, sector_key

__all__ = ["JOIN", "LINE_SECTOR_BITS", "engine_lines", "l1d_sectored", "l1s_fill", "l1s_load",
           "l1s_store", "split_line"]

LINE_SECTOR_BITS = 0xF
"""Bits of an engine line address that carry the line's sector mask (``engine_lines``)."""
JOIN = -3
"""MSHR payload ``JOIN - slot``: the load of join slot ``slot`` (payloads >= 0 are tokens,
-1 none, -2 a write merged into the fill)."""


def engine_lines(lines: np.ndarray, line_sectors: np.ndarray | None) -> np.ndarray:
    """The engine's int64 line addresses of a trace chunk: each 128 B line address with its
    sector mask (``TraceChunk.line_sectors``) in bits 0-3."""
    out = lines.astype(np.int64)
    if line_sectors is not None and line_sectors.size == out.size:
        out |= line_sectors.astype(np.int64) & LINE_SECTOR_BITS
    return out


@jit
def split_line(line_addr: int, n_sectors: int) -> tuple[int, int]:
    """``(line address, sector mask)`` of an engine line address; a mask of 0 (none given)
    means the first ``n_sectors`` sectors."""
    m = line_addr & LINE_SECTOR_BITS
    base = line_addr - m
    if m == 0:
        m = (1 << min(4, max(1, n_sectors))) - 1
    return base, m


@jit
def l1d_sectored(ca, sm: int) -> bool:
    """True when SM ``sm``'s L1D is sectored (``l1d.sector_bytes`` < ``l1d.line_bytes``)."""
    c = sm * N_L1_KINDS + L1_D
    return ca.geo[c, G_SECTOR_SHIFT] < ca.geo[c, G_LINE_SHIFT]


@jit
def _count(pend, sm_s, sm: int, counter: int, n: int) -> None:
    if n != 0:
        pend[sm, counter - C_MEM_FIRST] += n
        sm_s[sm, S_PEND_ANY] = 1


@jit
def _bits(m: int) -> int:
    n = 0
    while m:
        n += m & 1
        m >>= 1
    return n


@jit
def l1s_load(ca, byp_token, sm_s, pend, act, sm: int, line_addr: int, smask: int, token: int,
             ready: int) -> int:
    """Read the sectors ``smask`` of the line at ``line_addr`` in SM ``sm``'s L1D for
    ``token`` (-1: nobody waits). Returns 0 when refused (nothing changed but the
    reservation-fail count), 1 when accepted and the token completes at a fill, 2 when every
    sector hit (the caller completes the token at ``ready``, the hit latency)."""
    c = sm * N_L1_KINDS + L1_D
    shift = ca.geo[c, G_LINE_SHIFT]
    line = line_addr >> shift
    s = cache_set(ca, c, line)
    w = cache_probe(ca, c, s, line)
    sec = ca.tag_sec[c, s, w] if w >= 0 else 0
    valid = sec & SEC_MASK
    pending = (sec >> SEC_PEND_SHIFT) & SEC_MASK & ~valid
    wait = smask & pending
    miss = smask & ~valid & ~pending
    n_wait = _bits(wait)
    n_miss = _bits(miss)
    ok = True
    for i in range(4):
        if (wait >> i) & 1:
            m = mshr_find(ca, c, sector_key(ca, c, line, i))
            if m < 0 or ca.mshr_n_req[c, m] >= ca.geo[c, G_MSHR_MAX_MERGE]:
                ok = False
    need_mq = n_miss
    if n_miss > 0:
        if ca.cnt[c, K_MSHR_USED] + n_miss > ca.geo[c, G_MSHR_ENTRIES]:
            ok = False
        if w < 0:
            v = cache_victim(ca, c, s)
            if v < 0:
                ok = False
            elif sec_dirty_bytes(ca, c, s, v) > 0:
                need_mq += 1
    if mq_free(ca, c) < need_mq:
        ok = False
    payload = token if token >= 0 else -1
    if ok and token >= 0 and n_wait + n_miss > 1:
        if sm_s[sm, S_BYP_USED] >= byp_token.shape[1]:
            ok = False
        else:
            slot = 0
            while byp_token[sm, slot, 0] != -1:
                slot += 1
            byp_token[sm, slot, 0] = token
            byp_token[sm, slot, 1] = (n_wait + n_miss) * SECTOR_BYTES
            sm_s[sm, S_BYP_USED] += 1
            act[A_BYPASS] += 1
            payload = JOIN - slot
    if not ok:
        _count(pend, sm_s, sm, C_L1D_TOTAL_CACHE_RESERVATION_FAILS, 1)
        return 0
    for i in range(4):
        if (smask >> i) & 1 == 0:
            continue
        status, victim, vbytes = sec_read(ca, c, line, i, payload)
        if status == R_MISS:
            act[A_MSHR] += 1
            l1_push(ca, act, c, (line << shift) + i * SECTOR_BYTES,
                    pack_info(sm, PK_READ, L1_D, SECTOR_BYTES, i), ready)
            if victim >= 0:
                l1_push(ca, act, c, victim << shift,
                        pack_info(sm, PK_WRITE, SRC_NONE, vbytes, 0), ready)
    _count(pend, sm_s, sm, C_L1D_TOTAL_CACHE_ACCESSES, _bits(smask))
    _count(pend, sm_s, sm, C_L1D_TOTAL_CACHE_MISSES, n_miss)
    _count(pend, sm_s, sm, C_L1D_TOTAL_CACHE_PENDING_HITS, n_wait)
    return 2 if n_wait + n_miss == 0 else 1


@jit
def l1s_store(ca, sm_s, pend, act, sm: int, line_addr: int, smask: int, kind: int,
              ready: int) -> int:
    """Write the sectors ``smask`` of the line at ``line_addr`` (``kind``: global or local
    store) under ``l1d.write_policy``; 0 when refused (fewer than 2 miss-queue entries free),
    else 1 (the caller completes the store's token)."""
    c = sm * N_L1_KINDS + L1_D
    if mq_free(ca, c) < 2:
        _count(pend, sm_s, sm, C_L1D_TOTAL_CACHE_RESERVATION_FAILS, 1)
        return 0
    policy = ca.geo[c, G_WRITE_POLICY]
    if policy == WP_LOCAL_WB_GLOBAL_WT:
        policy = WP_WRITE_BACK if kind == MEM_ST_LOCAL else WP_WRITE_EVICT
    shift = ca.geo[c, G_LINE_SHIFT]
    line = line_addr >> shift
    hits = 0
    fwd = 0
    first = -1
    for i in range(4):
        if (smask >> i) & 1 == 0:
            continue
        if first < 0:
            first = i
        hit, f, victim, vbytes = sec_write(ca, c, line, i, policy)
        hits += hit
        fwd |= f
        if victim >= 0:
            l1_push(ca, act, c, victim << shift, pack_info(sm, PK_WRITE, SRC_NONE, vbytes, 0),
                    ready)
    n = _bits(smask)
    if fwd:
        l1_push(ca, act, c, (line << shift) + first * SECTOR_BYTES,
                pack_info(sm, PK_WRITE, SRC_NONE, n * SECTOR_BYTES, 0), ready)
    _count(pend, sm_s, sm, C_L1D_TOTAL_CACHE_ACCESSES, n)
    _count(pend, sm_s, sm, C_L1D_TOTAL_CACHE_WRITES, n)
    _count(pend, sm_s, sm, C_L1D_TOTAL_CACHE_MISSES, n - hits)
    return 1


@jit
def l1s_fill(ca, byp_token, fq, sm_s, act, sm: int, addr: int, info: int, cycle: int) -> None:
    """The reply ``info`` for a sector of the line at ``addr`` arrived in SM ``sm``'s L1D (the
    sector index travels in the request's slot field: an unsectored L2 answers with the line's
    address): the sector becomes valid, its MSHR's loads are served (a token completes, a join
    slot counts the sector and completes its token with the last)."""
    c = sm * N_L1_KINDS + L1_D
    sh = ca.geo[c, G_SECTOR_SHIFT]
    shift = ca.geo[c, G_LINE_SHIFT]
    line = addr >> shift
    i = info_slot(info)
    m = mshr_find(ca, c, sector_key(ca, c, line, i))
    if m < 0:
        return
    n = ca.mshr_n_req[c, m]
    dirty = False
    for k in range(n):
        if ca.mshr_req[c, m, k] == -2:
            dirty = True
    sec_fill(ca, c, line, i, dirty)
    for k in range(n):
        p = ca.mshr_req[c, m, k]
        if p >= 0:
            fq_push(fq, sm_s, act, sm, p, cycle)
        elif p <= JOIN:
            slot = JOIN - p
            left = byp_token[sm, slot, 1] - (1 << sh)
            byp_token[sm, slot, 1] = left
            if left <= 0:
                fq_push(fq, sm_s, act, sm, byp_token[sm, slot, 0], cycle)
                byp_token[sm, slot, 0] = -1
                sm_s[sm, S_BYP_USED] -= 1
                act[A_BYPASS] -= 1
    mshr_free(ca, c, m)
    act[A_MSHR] -= 1
