"""Sectored cache lines: per-sector valid, pending and dirty bits, sector MSHRs.

A sectored cache (``<cache>.sector_bytes`` < ``line_bytes``; GPGPU-Sim's ``S`` caches, e.g. the
4.2 SM2_GTX480 L2 ``S:64:128:8``) keeps one tag per line and, in ``tag_sec[cache, set, way]``,
a valid, a pending and a dirty bit per sector (``SEC_*``). ``tag_state`` follows the bits:
RESERVED while any sector's fill is pending (the line cannot be evicted), else MODIFIED when
any sector is dirty, VALID when any is valid, INVALID otherwise. A read of sector ``i`` hits
when the sector is valid; misses on an absent line (the line is allocated on the miss, its
victim's dirty sectors written back) or on an absent sector of a present line
(``SECTOR_MISS``): either way only that sector is fetched. MSHRs are keyed by sector number
(``address >> log2 sector_bytes``), so requests for one sector merge
(``n_mshr_max_merge``) and different sectors of a line take separate entries, as GPGPU-Sim
4.2's sector caches do (``mshr_addr`` is the sector address).

Writes (write-back): the sector becomes valid and dirty (a sector whose fill is pending
becomes dirty now and valid at its fill); a write miss allocates the line when
``write_alloc_policy`` allocates, with only the written sector valid; write-evict invalidates
the written sector; write-through forwards.

Follows: GPGPU-Sim 4.2 ``gpu-cache.{h,cc}`` (``sector_cache_block``, ``tag_array::probe`` /
``access`` / ``fill`` with ``SECTOR_MISS``, ``mshr_table`` keyed by ``mshr_addr``,
``data_cache::wr_hit_wb`` / ``wr_miss_wa_lazy_fetch_on_read``).
Assumptions: [A] a write covers the whole sector (GPGPU-Sim tracks byte masks and fetches a
partially written sector on a later read); [A] allocation on miss only (a sectored cache with
``alloc_policy`` ``on_fill`` is refused by the configuration).
"""

from __future__ import annotations

from warpsim._jit import jit
from warpsim.timing.cache import (
    R_HIT,
    R_HIT_RESERVED,
    R_MISS,
    R_RESERVATION_FAIL,
    cache_probe,
    cache_set,
    cache_victim,
    mq_free,
    mshr_alloc,
    mshr_find,
    mshr_merge,
    stamp_use,
)
from warpsim.timing.memconsts import (
    G_LINE_SHIFT,
    G_MSHR_ENTRIES,
    G_SECTOR_SHIFT,
    G_WRITE_ALLOC,
    K_MSHR_USED,
    K_USE_CLOCK,
    LS_INVALID,
    LS_MODIFIED,
    LS_RESERVED,
    LS_VALID,
    SEC_DIRTY_SHIFT,
    SEC_MASK,
    SEC_PEND_SHIFT,
    WA_NO_WRITE_ALLOCATE,
    WP_WRITE_BACK,
    WP_WRITE_THROUGH,
)

__all__ = ["sec_dirty_bytes", "sec_fill", "sec_read", "sec_write", "sector_key"]


@jit
def _state_of(sec: int) -> int:
    if (sec >> SEC_PEND_SHIFT) & SEC_MASK:
        return LS_RESERVED
    if (sec >> SEC_DIRTY_SHIFT) & SEC_MASK:
        return LS_MODIFIED
    if sec & SEC_MASK:
        return LS_VALID
    return LS_INVALID


@jit
def _put(ca, c: int, s: int, w: int, sec: int) -> None:
    ca.tag_sec[c, s, w] = sec
    ca.tag_state[c, s, w] = _state_of(sec)


put_sectors = _put
"""Set way ``w``'s sector bits (valid, pending, dirty) and its state from them."""


@jit
def sec_dirty_bytes(ca, c: int, s: int, w: int) -> int:
    """Bytes a write-back of way ``w`` carries: its dirty sectors (0 when none)."""
    if ca.tag_state[c, s, w] == LS_INVALID:
        return 0
    d = (ca.tag_sec[c, s, w] >> SEC_DIRTY_SHIFT) & SEC_MASK
    n = 0
    while d:
        n += d & 1
        d >>= 1
    return n << ca.geo[c, G_SECTOR_SHIFT]


@jit
def _allocate(ca, c: int, s: int, v: int, line: int, sec: int) -> int:
    """Put ``line`` into way ``v`` with sector bits ``sec``; the dirty bytes the evicted line
    leaves to write back (0 when none)."""
    nbytes = sec_dirty_bytes(ca, c, s, v)
    ca.tag[c, s, v] = line
    t = ca.cnt[c, K_USE_CLOCK]
    ca.cnt[c, K_USE_CLOCK] = t + 1
    ca.tag_stamp[c, s, v] = t
    _put(ca, c, s, v, sec)
    return nbytes


@jit
def sector_key(ca, c: int, line: int, i: int) -> int:
    """MSHR key of sector ``i`` of ``line``: the sector number (address >> log2 sector)."""
    return (line << (ca.geo[c, G_LINE_SHIFT] - ca.geo[c, G_SECTOR_SHIFT])) + i


@jit
def sec_read(ca, c: int, line: int, i: int, payload: int) -> tuple[int, int, int]:
    """Read sector ``i`` of ``line``: ``(R_*, evicted line or -1, its dirty bytes)``. On
    ``R_MISS`` the caller sends the sector's fetch (and the write-back of a dirty victim) to
    the miss queue: this function checked that it has room for both."""
    s = cache_set(ca, c, line)
    w = cache_probe(ca, c, s, line)
    bit = 1 << i
    key = sector_key(ca, c, line, i)
    if w >= 0:
        sec = ca.tag_sec[c, s, w]
        if sec & bit:
            stamp_use(ca, c, s, w)
            return R_HIT, -1, 0
        if (sec >> SEC_PEND_SHIFT) & bit:
            m = mshr_find(ca, c, key)
            if m >= 0 and mshr_merge(ca, c, m, payload):
                return R_HIT_RESERVED, -1, 0
            return R_RESERVATION_FAIL, -1, 0
        if ca.cnt[c, K_MSHR_USED] >= ca.geo[c, G_MSHR_ENTRIES] or mq_free(ca, c) < 1:
            return R_RESERVATION_FAIL, -1, 0
        _put(ca, c, s, w, sec | (bit << SEC_PEND_SHIFT))
        stamp_use(ca, c, s, w)
        mshr_alloc(ca, c, key, payload)
        return R_MISS, -1, 0
    if ca.cnt[c, K_MSHR_USED] >= ca.geo[c, G_MSHR_ENTRIES]:
        return R_RESERVATION_FAIL, -1, 0
    v = cache_victim(ca, c, s)
    if v < 0:
        return R_RESERVATION_FAIL, -1, 0
    dirty = sec_dirty_bytes(ca, c, s, v)
    if mq_free(ca, c) < (2 if dirty > 0 else 1):
        return R_RESERVATION_FAIL, -1, 0
    victim = ca.tag[c, s, v] if dirty > 0 else -1
    _allocate(ca, c, s, v, line, bit << SEC_PEND_SHIFT)
    mshr_alloc(ca, c, key, payload)
    return R_MISS, victim, dirty


@jit
def sec_fill(ca, c: int, line: int, i: int, dirty: bool) -> None:
    """Sector ``i`` of ``line`` arrived: valid (and dirty when ``dirty``), no longer pending.
    A line that is not present (it cannot have been evicted while pending) is ignored."""
    s = cache_set(ca, c, line)
    w = cache_probe(ca, c, s, line)
    if w < 0:
        return
    bit = 1 << i
    sec = (ca.tag_sec[c, s, w] | bit) & ~(bit << SEC_PEND_SHIFT)
    if dirty:
        sec |= bit << SEC_DIRTY_SHIFT
    _put(ca, c, s, w, sec)
    stamp_use(ca, c, s, w)


@jit
def sec_write(ca, c: int, line: int, i: int, policy: int) -> tuple[int, int, int, int]:
    """Write sector ``i`` of ``line`` under ``policy`` (``WP_*``): ``(hit, forward, evicted
    line or -1, its dirty bytes)``; ``forward`` = 1 when the write goes on to the next level.
    The caller checked ``mq_free >= 2``."""
    s = cache_set(ca, c, line)
    w = cache_probe(ca, c, s, line)
    bit = 1 << i
    if w >= 0:
        sec = ca.tag_sec[c, s, w]
        hit = 1 if sec & bit else 0
        if policy == WP_WRITE_BACK:
            if (sec >> SEC_PEND_SHIFT) & bit:
                sec |= bit << SEC_DIRTY_SHIFT         # valid when its fill arrives
            else:
                sec |= bit | (bit << SEC_DIRTY_SHIFT)
            _put(ca, c, s, w, sec)
            stamp_use(ca, c, s, w)
            return hit, 0, -1, 0
        if policy == WP_WRITE_THROUGH:
            if hit:
                stamp_use(ca, c, s, w)
            return hit, 1, -1, 0
        if hit:
            _put(ca, c, s, w, sec & ~bit & ~(bit << SEC_DIRTY_SHIFT))  # write-evict
        return hit, 1, -1, 0
    if policy == WP_WRITE_BACK and ca.geo[c, G_WRITE_ALLOC] != WA_NO_WRITE_ALLOCATE:
        v = cache_victim(ca, c, s)
        if v >= 0:
            dirty = sec_dirty_bytes(ca, c, s, v)
            victim = ca.tag[c, s, v] if dirty > 0 else -1
            _allocate(ca, c, s, v, line, bit | (bit << SEC_DIRTY_SHIFT))
            return 0, 0, victim, dirty
    return 0, 1, -1, 0
