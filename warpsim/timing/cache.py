"""Generic set-associative cache: tags, LRU/FIFO replacement, MSHRs with merging, miss queue,
write policies. Used for every L1 (data, constant, texture) and every L2 slice.

A cache is one index ``c`` of a ``CacheArrays`` group. ``cache_read`` and ``cache_write``
decide hit or miss and update tags, MSHRs and replacement state; the caller moves packets into
the miss queue (``mq_push``), which it checked first with ``mq_free``. A read miss allocates one
MSHR; later reads of the same line merge into it (``n_mshr_max_merge`` requests in all, the first
included) until ``cache_fill`` brings the line.

Follows: GPGPU-Sim 3.x ``gpu-cache.{h,cc}`` (``tag_array::probe``/``access``/``fill``,
``mshr_table``, ``data_cache::wr_hit_*``/``wr_miss_*``, ``cache_config::set_index`` incl. the
Fermi hash), reference/gpu-simulators.md §2.
Assumptions: [A] a write miss that allocates (write-back caches with ``write_allocate``,
``fetch_on_write`` or ``lazy_fetch_on_read``) installs the line dirty without fetching it;
[A] a write to a line whose fill is pending merges into its MSHR when write-back (the line
becomes dirty at the fill) and is sent on otherwise; [A] ``ipoly`` set indexing uses the XOR
hash; hash functions fall back to linear indexing for a set count that is not a power of two.
Deviations: lines are valid as a whole (``sector_bytes`` is not tracked); a read-only cache
that receives a write behaves as write-evict.
"""

from __future__ import annotations

from warpsim._jit import jit
from warpsim.timing.memconsts import (
    AP_ON_FILL,
    G_ALLOC_POLICY,
    G_LINE_SHIFT,
    G_MQ_ENTRIES,
    G_MSHR_ENTRIES,
    G_MSHR_MAX_MERGE,
    G_N_SETS,
    G_PART_CHAN_SHIFT,
    G_PART_N_CHANNELS,
    G_PART_SPC,
    G_PART_SUB_MASK,
    G_REPL,
    G_SET_FN,
    G_WAYS,
    G_WRITE_ALLOC,
    K_MQ_COUNT,
    K_MQ_HEAD,
    K_MSHR_LOW_FREE,
    K_MSHR_USED,
    K_USE_CLOCK,
    LS_INVALID,
    LS_MODIFIED,
    LS_RESERVED,
    LS_VALID,
    Q_ADDR,
    Q_INFO,
    Q_READY,
    REPL_LRU,
    SI_FERMI_HASH,
    SI_LINEAR,
    WA_NO_WRITE_ALLOCATE,
    WP_WRITE_BACK,
    WP_WRITE_THROUGH,
)

__all__ = [
    "mshr_alloc",
    "mshr_merge",
    "stamp_use",
    "R_HIT",
    "R_HIT_RESERVED",
    "R_MISS",
    "R_RESERVATION_FAIL",
    "cache_fill",
    "cache_probe",
    "cache_read",
    "cache_reserve",
    "cache_set",
    "cache_victim",
    "cache_write",
    "mq_free",
    "mq_pop",
    "mq_push",
    "mshr_find",
    "mshr_free",
    "partition_line",
]

R_HIT = 0
"""Read found the line valid."""
R_HIT_RESERVED = 1
"""Read found the line in flight and merged into its MSHR (GPGPU-Sim HIT_RESERVED)."""
R_MISS = 2
"""Read missed: a new MSHR was allocated; the caller sends the request."""
R_RESERVATION_FAIL = 3
"""Read refused: no MSHR, no merge slot, no replaceable way or no miss-queue entry."""


@jit
def partition_line(ca, c: int, line: int) -> int:
    """Line number inside an L2 slice: the address without its channel and slice bits
    (GPGPU-Sim ``partition_address``); ``line`` itself for the L1s."""
    cs = ca.geo[c, G_PART_CHAN_SHIFT]
    if cs == 0:
        return line
    ls = ca.geo[c, G_LINE_SHIFT]
    addr = line << ls
    local = (((addr >> cs) // ca.geo[c, G_PART_N_CHANNELS]) << cs) | (addr & ((1 << cs) - 1))
    mask = ca.geo[c, G_PART_SUB_MASK]
    if mask == 0:
        spc = ca.geo[c, G_PART_SPC]
        return (local >> ls) // spc
    b = 0                               # remove the mask's bits, lowest first: a bit
    gone = 0                            # ``gone`` places lower once the bits below it left
    while mask != 0:
        if mask & 1:
            q = b - gone
            local = ((local >> (q + 1)) << q) | (local & ((1 << q) - 1))
            gone += 1
        mask >>= 1
        b += 1
    return local >> ls


@jit
def cache_set(ca, c: int, line: int) -> int:
    """Set index of line number ``line`` (``set_fn``: linear, Fermi hash, XOR), computed from
    the line's address inside its L2 slice for an L2 (``partition_line``)."""
    line = partition_line(ca, c, line)
    n = ca.geo[c, G_N_SETS]
    fn = ca.geo[c, G_SET_FN]
    if fn == SI_LINEAR or (n & (n - 1)) != 0:
        return line % n
    if fn == SI_FERMI_HASH and (n == 32 or n == 64):
        addr = line << ca.geo[c, G_LINE_SHIFT]
        lower = line & 0x1F
        upper = ((addr & 0xE000) >> 13) | ((addr & 0x20000) >> 14) | ((addr & 0x80000) >> 15)
        s = lower ^ upper
        if n == 64:
            s |= (addr & 0x1000) >> 7
        return s
    bits = 0
    while (1 << bits) < n:
        bits += 1
    return (line ^ (line >> bits)) & (n - 1)


@jit
def cache_probe(ca, c: int, s: int, line: int) -> int:
    """Way holding ``line`` in set ``s`` (valid, dirty or reserved), or -1."""
    for w in range(ca.geo[c, G_WAYS]):
        if ca.tag[c, s, w] == line and ca.tag_state[c, s, w] != LS_INVALID:
            return w
    return -1


@jit
def cache_victim(ca, c: int, s: int) -> int:
    """Way to replace in set ``s``: an invalid way, else the oldest stamp that is not reserved
    (LRU: least recently used; FIFO: first installed); -1 when every way is reserved."""
    best = -1
    best_stamp = 0
    for w in range(ca.geo[c, G_WAYS]):
        st = ca.tag_state[c, s, w]
        if st == LS_INVALID:
            return w
        if st == LS_RESERVED:
            continue
        if best < 0 or ca.tag_stamp[c, s, w] < best_stamp:
            best = w
            best_stamp = ca.tag_stamp[c, s, w]
    return best


@jit
def _stamp(ca, c: int) -> int:
    t = ca.cnt[c, K_USE_CLOCK]
    ca.cnt[c, K_USE_CLOCK] = t + 1
    return t


@jit
def stamp_use(ca, c: int, s: int, w: int) -> None:
    """Replacement bookkeeping of a use of way ``w`` (LRU: restamp; FIFO: nothing)."""
    _touch(ca, c, s, w)


@jit
def _touch(ca, c: int, s: int, w: int) -> None:
    if ca.geo[c, G_REPL] == REPL_LRU:
        ca.tag_stamp[c, s, w] = _stamp(ca, c)


@jit
def _install(ca, c: int, s: int, w: int, line: int, state: int) -> int:
    """Put ``line`` in way ``w``; returns the evicted dirty line number or -1."""
    victim = -1
    if ca.tag_state[c, s, w] == LS_MODIFIED:
        victim = ca.tag[c, s, w]
    ca.tag[c, s, w] = line
    ca.tag_state[c, s, w] = state
    ca.tag_stamp[c, s, w] = _stamp(ca, c)
    return victim


@jit
def _mshr_home(ca, line: int) -> int:
    """Home slot of ``line`` in ``mshr_index`` (multiplicative hash)."""
    return ((line * 0x5851F42D4C957F2D) >> 29) & (ca.mshr_index.shape[1] - 1)


@jit
def mshr_find(ca, c: int, line: int) -> int:
    """MSHR entry waiting for ``line``, or -1 (a probe of ``mshr_index``; busy entries hold
    distinct lines)."""
    if ca.cnt[c, K_MSHR_USED] == 0 or line < 0:
        return -1
    mask = ca.mshr_index.shape[1] - 1
    h = _mshr_home(ca, line)
    while True:
        m = ca.mshr_index[c, h]
        if m < 0:
            return -1
        if ca.mshr_line[c, m] == line:
            return m
        h = (h + 1) & mask


@jit
def mshr_alloc(ca, c: int, line: int, payload: int) -> int:
    """Take the lowest free MSHR entry for ``line`` (-1 when all are busy)."""
    n = ca.geo[c, G_MSHR_ENTRIES]
    m = ca.cnt[c, K_MSHR_LOW_FREE]
    if m >= n:
        return -1
    ca.mshr_line[c, m] = line
    ca.mshr_n_req[c, m] = 1
    ca.mshr_got[c, m] = 0
    ca.mshr_req[c, m, 0] = payload
    ca.cnt[c, K_MSHR_USED] += 1
    low = m + 1
    while low < n and ca.mshr_line[c, low] >= 0:
        low += 1
    ca.cnt[c, K_MSHR_LOW_FREE] = low
    mask = ca.mshr_index.shape[1] - 1
    h = _mshr_home(ca, line)
    while ca.mshr_index[c, h] >= 0:
        h = (h + 1) & mask
    ca.mshr_index[c, h] = m
    return m


@jit
def mshr_merge(ca, c: int, m: int, payload: int) -> bool:
    k = ca.mshr_n_req[c, m]
    if k >= ca.geo[c, G_MSHR_MAX_MERGE]:
        return False
    ca.mshr_req[c, m, k] = payload
    ca.mshr_n_req[c, m] = k + 1
    return True


@jit
def mshr_free(ca, c: int, m: int) -> None:
    """Release MSHR entry ``m`` after its fill was handled (its ``mshr_index`` slot emptied by
    backward-shift deletion, so every probe sequence stays unbroken)."""
    mask = ca.mshr_index.shape[1] - 1
    h = _mshr_home(ca, ca.mshr_line[c, m])
    while ca.mshr_index[c, h] != m:
        h = (h + 1) & mask
    j = h
    while True:
        j = (j + 1) & mask
        mj = ca.mshr_index[c, j]
        if mj < 0:
            break
        k = _mshr_home(ca, ca.mshr_line[c, mj])
        stays = (h < k <= j) if h < j else (k > h or k <= j)
        if not stays:                   # its home is at or before the hole: move it there
            ca.mshr_index[c, h] = mj
            h = j
    ca.mshr_index[c, h] = -1
    ca.mshr_line[c, m] = -1
    ca.mshr_n_req[c, m] = 0
    ca.mshr_got[c, m] = 0
    ca.cnt[c, K_MSHR_USED] -= 1
    if m < ca.cnt[c, K_MSHR_LOW_FREE]:
        ca.cnt[c, K_MSHR_LOW_FREE] = m


@jit
def mq_free(ca, c: int) -> int:
    """Free miss-queue entries."""
    return ca.geo[c, G_MQ_ENTRIES] - ca.cnt[c, K_MQ_COUNT]


@jit
def mq_push(ca, c: int, addr: int, info: int, ready: int) -> None:
    """Append a packet to the miss queue (the caller checked ``mq_free``)."""
    cap = ca.geo[c, G_MQ_ENTRIES]
    i = (ca.cnt[c, K_MQ_HEAD] + ca.cnt[c, K_MQ_COUNT]) % cap
    ca.mq[c, i, Q_ADDR] = addr
    ca.mq[c, i, Q_INFO] = info
    ca.mq[c, i, Q_READY] = ready
    ca.cnt[c, K_MQ_COUNT] += 1


@jit
def mq_pop(ca, c: int) -> None:
    """Drop the head of the miss queue."""
    ca.cnt[c, K_MQ_HEAD] = (ca.cnt[c, K_MQ_HEAD] + 1) % ca.geo[c, G_MQ_ENTRIES]
    ca.cnt[c, K_MQ_COUNT] -= 1


@jit
def cache_read(ca, c: int, line: int, payload: int) -> tuple[int, int]:
    """Read access: ``(R_*, evicted dirty line or -1)``. On ``R_MISS`` the caller pushes the
    fetch (and the write-back of the evicted line) into the miss queue: this function checked
    that the queue has room for both."""
    s = cache_set(ca, c, line)
    w = cache_probe(ca, c, s, line)
    if w >= 0 and ca.tag_state[c, s, w] != LS_RESERVED:
        _touch(ca, c, s, w)
        return R_HIT, -1
    m = mshr_find(ca, c, line)
    if m >= 0:
        if mshr_merge(ca, c, m, payload):
            return R_HIT_RESERVED, -1
        return R_RESERVATION_FAIL, -1
    if w >= 0 or ca.cnt[c, K_MSHR_USED] >= ca.geo[c, G_MSHR_ENTRIES]:
        return R_RESERVATION_FAIL, -1  # a reserved line without MSHR cannot happen; be safe
    victim = -1
    if ca.geo[c, G_ALLOC_POLICY] != AP_ON_FILL:
        v = cache_victim(ca, c, s)
        if v < 0:
            return R_RESERVATION_FAIL, -1
        need = 2 if ca.tag_state[c, s, v] == LS_MODIFIED else 1
        if mq_free(ca, c) < need:
            return R_RESERVATION_FAIL, -1
        victim = _install(ca, c, s, v, line, LS_RESERVED)
    elif mq_free(ca, c) < 1:
        return R_RESERVATION_FAIL, -1
    mshr_alloc(ca, c, line, payload)
    return R_MISS, victim


@jit
def cache_reserve(ca, c: int, line: int, mq_spare: int) -> tuple[int, int]:
    """Allocate the absent ``line`` for a fetch that another access's request carries (the L1
    fetch group, ``timing/l1group.py``): an MSHR without requester and, unless allocate-on-fill,
    a reserved way. ``(1, evicted dirty line or -1)``; ``(0, -1)`` when no MSHR or way is free,
    or the miss queue would keep fewer than ``mq_spare`` free entries after the write-back of a
    dirty victim. The caller checked that ``line`` is neither present nor in flight."""
    if ca.cnt[c, K_MSHR_USED] >= ca.geo[c, G_MSHR_ENTRIES]:
        return 0, -1
    victim = -1
    if ca.geo[c, G_ALLOC_POLICY] != AP_ON_FILL:
        s = cache_set(ca, c, line)
        v = cache_victim(ca, c, s)
        if v < 0:
            return 0, -1
        need = mq_spare + (1 if ca.tag_state[c, s, v] == LS_MODIFIED else 0)
        if mq_free(ca, c) < need:
            return 0, -1
        victim = _install(ca, c, s, v, line, LS_RESERVED)
    elif mq_free(ca, c) < mq_spare:
        return 0, -1
    mshr_alloc(ca, c, line, -1)
    return 1, victim


@jit
def cache_fill(ca, c: int, line: int, dirty: bool) -> int:
    """Install ``line`` whose data arrived (valid, or dirty when ``dirty``). Returns the evicted
    dirty line number, -1 when none, -2 when an allocate-on-fill cache would have to evict a
    dirty line and its miss queue is full (the fill must wait)."""
    s = cache_set(ca, c, line)
    w = cache_probe(ca, c, s, line)
    state = LS_MODIFIED if dirty else LS_VALID
    if w >= 0:
        ca.tag_state[c, s, w] = state
        _touch(ca, c, s, w)
        return -1
    v = cache_victim(ca, c, s)
    if v < 0:
        return -1  # every way reserved: the data bypasses the cache [A]
    if ca.tag_state[c, s, v] == LS_MODIFIED and mq_free(ca, c) < 1:
        return -2
    return _install(ca, c, s, v, line, state)


@jit
def cache_write(ca, c: int, line: int, policy: int, payload: int) -> tuple[int, int, int]:
    """Write access under write policy ``policy`` (``WP_*``, already resolved for global or
    local data): ``(hit, forward, evicted dirty line or -1)``; ``forward`` = 1 when the write
    goes on to the next level. The caller checked ``mq_free >= 2``."""
    s = cache_set(ca, c, line)
    w = cache_probe(ca, c, s, line)
    if w >= 0 and ca.tag_state[c, s, w] != LS_RESERVED:
        if policy == WP_WRITE_BACK:
            ca.tag_state[c, s, w] = LS_MODIFIED
            _touch(ca, c, s, w)
            return 1, 0, -1
        if policy == WP_WRITE_THROUGH:
            _touch(ca, c, s, w)
            return 1, 1, -1
        ca.tag_state[c, s, w] = LS_INVALID  # write-evict (and read-only caches)
        return 1, 1, -1
    if w >= 0:  # fill pending
        if policy == WP_WRITE_BACK:
            m = mshr_find(ca, c, line)
            if m >= 0 and mshr_merge(ca, c, m, payload):
                return 0, 0, -1
        return 0, 1, -1
    if policy == WP_WRITE_BACK and ca.geo[c, G_WRITE_ALLOC] != WA_NO_WRITE_ALLOCATE:
        v = cache_victim(ca, c, s)
        if v >= 0:
            return 0, 0, _install(ca, c, s, v, line, LS_MODIFIED)
    return 0, 1, -1
