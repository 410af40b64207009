"""L2 slices (memory sub-partitions): address mapping, ROP delay queue, lookup, fills, replies.

Address mapping with ``dram.addr_mapping`` set: GPGPU-Sim's ``addrdec_tlx`` (channel
``(addr >> K) % n_channels`` for ``dramid@K``, bank and row bits picked from the address inside
the channel by the mapping's B and R letters, slice = bank % slices per channel). Without it
(GPGPU-Sim-like linear interleaving): the address space is cut into chunks of
``MEM_CHANNEL_INTERLEAVE_BYTES`` (256 B) dealt round robin to the ``dram.n_channels`` channels;
``local = (chunk // n_channels) * 256 + addr % 256`` is the address inside the channel. The slice
inside the channel is ``(local // l2.line_bytes) % l2.n_slices_per_channel`` (global slice id
``channel * n_slices_per_channel + that``); the DRAM bank is ``(local // dram.row_bytes) %
dram.n_banks`` and the row ``local // (dram.row_bytes * dram.n_banks)``.

Per L2 tick each slice handles at most one DRAM fill (the head of its channel's return queue,
when it is for this slice) and one request from its ROP queue. A request becomes visible
``l2.hit_latency_cycles`` core cycles after it left the interconnect (GPGPU-Sim's ROP delay,
``-rop_latency``). Reads that hit reply; reads that miss allocate an MSHR (or merge) and send
one read for the whole line to DRAM (a sectored L2, ``l2.sector_bytes`` 32: one lookup per
sector per tick, one 32 B DRAM read per missing sector and one reply per sector, sector.py);
writes follow ``l2.write_policy`` and ``l2.write_alloc_policy`` (GTX480: write-back,
write-allocate); atomics are reads that leave the line dirty. Replies and DRAM requests
enter their queues one core cycle after the lookup.

Follows: GPGPU-Sim 3.x/4.2 ``l2cache.cc`` (``memory_sub_partition::cache_cycle``, ROP queue,
4.2 ``breakdown_request_to_sector_requests``,
``dram_L2_queue`` / ``L2_dram_queue``), ``addrdec.cc`` (channel bits at ``dramid@8``).
Assumptions: [A] interleaving granularity 256 B and slice selection by the line bit(s) after
it. A write whose packet carries a warp slot (``l2.store_acks``, store_ack.py) is
acknowledged: each sector written puts a data-less reply (one flit) on the reply queue, which
must have room before the lookup, as GPGPU-Sim's L2-to-icnt queue; without it writes are not
acknowledged.
Deviations: a trace line of 128 B maps to the one L2 line that holds its first byte when the L2
line is smaller (gtx285: 64 B).
"""

from __future__ import annotations

from warpsim._jit import jit, jit_inline
from warpsim.stats import (
    C_L2_TOTAL_CACHE_ACCESSES,
    C_L2_TOTAL_CACHE_MISSES,
    C_L2_TOTAL_CACHE_PENDING_HITS,
    C_L2_TOTAL_CACHE_RESERVATION_FAILS,
    C_L2_TOTAL_CACHE_WRITES,
    C_STORE_ACKS,
)
from warpsim.timing.cache import (
    R_HIT,
    R_HIT_RESERVED,
    R_MISS,
    R_RESERVATION_FAIL,
    cache_fill,
    cache_read,
    cache_write,
    mq_free,
    mq_push,
    mshr_find,
    mshr_free,
)
from warpsim.timing.memconsts import (
    A_DRAM_RET,
    A_L2_MQ,
    A_L2_RQ,
    A_MSHR,
    A_ROP,
    DOM_L2,
    G_LINE_SHIFT,
    G_SECTOR_SHIFT,
    G_WRITE_POLICY,
    H_RET_COUNT,
    H_RET_HEAD,
    INT64_MAX,
    P_BANK_MASK,
    P_CHAN_SHIFT,
    P_L2_BASE,
    P_L2_LINE_BYTES,
    P_N_BANKS,
    P_N_CHANNELS,
    P_N_SLICES,
    P_ROW_BYTES,
    P_ROW_MASK,
    P_SLICES_PER_CHANNEL,
    PK_ATOMIC,
    PK_GROUP,
    PK_READ,
    PK_WRITE,
    Q_ADDR,
    Q_INFO,
    Q_READY,
    SRC_NONE,
    WP_WRITE_BACK,
    X_ROP_COUNT,
    X_ROP_GROUPS,
    X_ROP_HEAD,
    X_ROP_SEC,
    X_RQ_COUNT,
    X_RQ_HEAD,
)
from warpsim.timing.memstate import (
    core_of_tick,
    first_tick,
    info_bytes,
    info_lead,
    info_ptype,
    info_slot,
    info_sm,
    info_src,
    pack_info,
)
from warpsim.timing.sector import sec_fill, sec_read, sec_write
from warpsim.timing.store_ack import ack_info

__all__ = [
    "addr_bank",
    "addr_channel",
    "addr_local",
    "addr_row",
    "addr_slice",
    "group_units",
    "l2_next_event",
    "tick_l2",
]


@jit
def addr_channel(p, addr: int) -> int:
    """DRAM channel (memory partition) of byte address ``addr``."""
    return (addr >> p[P_CHAN_SHIFT]) % p[P_N_CHANNELS]


@jit
def addr_local(p, addr: int) -> int:
    """Address inside its channel (the channel's chunks packed together)."""
    sh = p[P_CHAN_SHIFT]
    return (((addr >> sh) // p[P_N_CHANNELS]) << sh) | (addr & ((1 << sh) - 1))


@jit
def _pack_bits(value: int, mask: int) -> int:
    """The bits of ``value`` under ``mask``, packed from bit 0 (GPGPU-Sim addrdec_packbits)."""
    out = 0
    k = 0
    while mask != 0:
        low = mask & -mask
        if value & low:
            out |= 1 << k
        k += 1
        mask ^= low
    return out


@jit
def addr_bank(p, addr: int) -> int:
    """DRAM bank of ``addr`` inside its channel."""
    if p[P_BANK_MASK] != 0:
        return _pack_bits(addr_local(p, addr), p[P_BANK_MASK])
    return (addr_local(p, addr) // p[P_ROW_BYTES]) % p[P_N_BANKS]


@jit
def addr_slice(p, addr: int) -> int:
    """Global L2 slice id of ``addr``: with an address mapping the bank's low bits pick the
    slice in the channel (GPGPU-Sim addrdec_tlx), else the line bits after the channel's."""
    spc = p[P_SLICES_PER_CHANNEL]
    if p[P_BANK_MASK] != 0:
        return addr_channel(p, addr) * spc + addr_bank(p, addr) % spc
    return addr_channel(p, addr) * spc + (addr_local(p, addr) // p[P_L2_LINE_BYTES]) % spc


@jit
def addr_row(p, addr: int) -> int:
    """DRAM row of ``addr`` inside its bank."""
    if p[P_BANK_MASK] != 0:
        return _pack_bits(addr_local(p, addr), p[P_ROW_MASK])
    return addr_local(p, addr) // (p[P_ROW_BYTES] * p[P_N_BANKS])


@jit
def _rq_free(rq, sl_s, s: int) -> int:
    return rq.shape[1] - sl_s[s, X_RQ_COUNT]


@jit
def _rq_push(rq, sl_s, act, s: int, addr: int, info: int, ready: int) -> None:
    i = (sl_s[s, X_RQ_HEAD] + sl_s[s, X_RQ_COUNT]) % rq.shape[1]
    rq[s, i, Q_ADDR] = addr
    rq[s, i, Q_INFO] = info
    rq[s, i, Q_READY] = ready
    sl_s[s, X_RQ_COUNT] += 1
    act[A_L2_RQ] += 1


@jit
def _to_dram(ca, act, c: int, addr: int, info: int, ready: int) -> None:
    mq_push(ca, c, addr, info, ready)
    act[A_L2_MQ] += 1


@jit
def _writeback(ca, act, c: int, victim_line: int, sm: int, ready: int) -> None:
    shift = ca.geo[c, G_LINE_SHIFT]
    _writeback_bytes(ca, act, c, victim_line, 1 << shift, sm, ready)


@jit
def _writeback_bytes(ca, act, c: int, victim_line: int, nbytes: int, sm: int,
                     ready: int) -> None:
    """One write-back request of ``nbytes`` (a sectored line: its dirty sectors)."""
    shift = ca.geo[c, G_LINE_SHIFT]
    _to_dram(ca, act, c, victim_line << shift, pack_info(sm, PK_WRITE, SRC_NONE, nbytes, 0),
             ready)


@jit
def _with_bytes(info: int, nbytes: int) -> int:
    """``info`` with its payload bytes replaced (a per-sector request or reply)."""
    return (info & ~(0xFFFF << 24)) | (nbytes << 24)


@jit
def _with_slot(info: int, slot: int) -> int:
    """``info`` with its slot field replaced (a write going on to DRAM wants no ack)."""
    return (info & ~(0xFFFF << 40)) | (slot << 40)


@jit
def _mshr_replies(ca, c: int, m: int) -> tuple[int, bool]:
    """(reads of MSHR ``m`` to answer, whether a merged request wrote the line)."""
    n_replies = 0
    dirty = False
    for k in range(ca.mshr_n_req[c, m]):
        pt = info_ptype(ca.mshr_req[c, m, k])
        if pt != PK_WRITE:
            n_replies += 1
        if pt != PK_READ:
            dirty = True
    return n_replies, dirty


@jit
def _fill(p, ca, ret, ch_s, rq, sl_s, act, s: int, ch: int, cycle: int) -> bool:
    """Handle the DRAM data at the head of channel ``ch``'s return queue if it is for slice
    ``s`` (a line, or one sector of a sectored L2); one reply per merged read. False when
    there is none or it must wait."""
    c = s + p[P_L2_BASE]
    i = ch_s[ch, H_RET_HEAD]
    addr = ret[ch, i, Q_ADDR]
    if ret[ch, i, Q_READY] > cycle or addr_slice(p, addr) != s:
        return False
    shift = ca.geo[c, G_LINE_SHIFT]
    sh = ca.geo[c, G_SECTOR_SHIFT]              # == shift when the L2 is not sectored
    line = addr >> shift
    m = mshr_find(ca, c, addr >> sh)            # MSHRs keyed by sector (line) address
    if m >= 0:
        n = ca.mshr_n_req[c, m]
        n_replies, dirty = _mshr_replies(ca, c, m)
        if _rq_free(rq, sl_s, s) < n_replies:
            return False
        if sh < shift:
            sec_fill(ca, c, line, (addr >> sh) & ((1 << (shift - sh)) - 1), dirty)
        else:
            victim = cache_fill(ca, c, line, dirty)
            if victim == -2:
                return False
            if victim >= 0:
                _writeback(ca, act, c, victim, info_sm(ca.mshr_req[c, m, 0]), cycle + 1)
        for k in range(n):
            info = ca.mshr_req[c, m, k]
            if info_ptype(info) != PK_WRITE:
                _rq_push(rq, sl_s, act, s, addr, info, cycle + 1)
        mshr_free(ca, c, m)
        act[A_MSHR] -= 1
    ch_s[ch, H_RET_HEAD] = (i + 1) % ret.shape[1]
    ch_s[ch, H_RET_COUNT] -= 1
    act[A_DRAM_RET] -= 1
    return True


@jit
def _line_units(ca, c: int, a: int, nbytes: int) -> int:
    """Lookups the L2 makes for a read of ``nbytes`` at ``a`` (its sectors in the line holding
    ``a`` when the L2 is sectored, else 1)."""
    shift = ca.geo[c, G_LINE_SHIFT]
    sh = ca.geo[c, G_SECTOR_SHIFT]
    if sh >= shift:
        return 1
    per_line = 1 << (shift - sh)
    first = (a >> sh) & (per_line - 1)
    return min(max(1, nbytes >> sh), per_line - first)


@jit
def _group_lines(info: int) -> tuple[int, int]:
    """(lines, bytes per line) of a group read packet (``PK_GROUP``)."""
    m = info_slot(info)
    n = 0
    while m != 0:
        n += m & 1
        m >>= 1
    return n, info_bytes(info) // n


@jit
def group_units(ca, c: int, info: int) -> int:
    """Lookups slice cache ``c`` makes for the group read ``info`` (``l1group.py``); its lines
    lie at ``Q_ADDR + k * line bytes`` for the set bits k of the slot field. The address is not
    needed: the lines are whole L1 lines, aligned."""
    n, lbytes = _group_lines(info)
    return n * _line_units(ca, c, 0, lbytes)


@jit_inline
def _read_outcome(ca, rq, sl_s, act, counters, c: int, s: int, sm: int, status: int,
                  victim: int, vbytes: int, fetch_addr: int, sh: int, req_addr: int,
                  req_info: int, cycle: int) -> None:
    """A slice's read looked up (not refused): a hit replies ``req_addr``/``req_info`` the
    next cycle, a miss fetches the sector of ``2**sh`` bytes at ``fetch_addr`` from DRAM and
    writes back its victim's ``vbytes``; a hit on a reserved line waits for that fill."""
    counters[sm, C_L2_TOTAL_CACHE_ACCESSES] += 1
    if status == R_HIT:
        _rq_push(rq, sl_s, act, s, req_addr, req_info, cycle + 1)
    elif status == R_HIT_RESERVED:
        counters[sm, C_L2_TOTAL_CACHE_PENDING_HITS] += 1
    elif status == R_MISS:
        counters[sm, C_L2_TOTAL_CACHE_MISSES] += 1
        act[A_MSHR] += 1
        _to_dram(ca, act, c, fetch_addr, pack_info(sm, PK_READ, SRC_NONE, 1 << sh, 0),
                 cycle + 1)
        if victim >= 0:
            _writeback_bytes(ca, act, c, victim, vbytes, sm, cycle + 1)


@jit
def _access_group(p, ca, rop, rq, sl_s, act, counters, s: int, i: int, addr: int, info: int,
                  cycle: int) -> bool:
    """The group read at the head of slice ``s``'s ROP queue: each of its lines, its lead (the
    demand line) first, is a read of its own (one reply per line, or per sector of a sectored
    L2, which fills that L1 line), all in this L2 tick when the L2 is not sectored (the
    dissertation's "process them in the same cycle"), one sector per tick when it is. A line
    that cannot be looked up (reply queue full, reservation fail) waits for the next tick;
    ``X_ROP_SEC`` keeps the lookups done."""
    c = s + p[P_L2_BASE]
    sm = info_sm(info)
    src = info_src(info)
    shift = ca.geo[c, G_LINE_SHIFT]
    sh = ca.geo[c, G_SECTOR_SHIFT]
    sectored = sh < shift
    n_lines, lbytes = _group_lines(info)
    per = _line_units(ca, c, 0, lbytes)
    mask = info_slot(info)
    total = n_lines * per
    j = sl_s[s, X_ROP_SEC]
    moved = False
    while j < total:
        if _rq_free(rq, sl_s, s) < 1:
            break
        nth = j // per                          # the nth line of the packet, from its lead
        k = info_lead(info)                     # (the demand line) on, is at bit k
        while True:
            if (mask >> k) & 1:
                if nth == 0:
                    break
                nth -= 1
            k = (k + 1) & 15
        a = addr + k * lbytes
        line = a >> shift
        if sectored:
            k_sec = ((a >> sh) & ((1 << (shift - sh)) - 1)) + j % per
            req_addr = (line << shift) + (k_sec << sh)
            req_info = pack_info(sm, PK_READ, src, 1 << sh, 0)
            status, victim, vbytes = sec_read(ca, c, line, k_sec, req_info)
        else:
            k_sec = 0
            req_addr = a
            req_info = pack_info(sm, PK_READ, src, lbytes, 0)
            status, victim = cache_read(ca, c, line, req_info)
            vbytes = 1 << shift
        if status == R_RESERVATION_FAIL:
            counters[sm, C_L2_TOTAL_CACHE_RESERVATION_FAILS] += 1
            moved = True
            break
        _read_outcome(ca, rq, sl_s, act, counters, c, s, sm, status, victim, vbytes,
                      (line << shift) + (k_sec << sh), sh, req_addr, req_info, cycle)
        j += 1
        moved = True
        if sectored:
            break
    if j < total:
        sl_s[s, X_ROP_SEC] = j
        return moved
    sl_s[s, X_ROP_SEC] = 0
    sl_s[s, X_ROP_HEAD] = (i + 1) % rop.shape[1]
    sl_s[s, X_ROP_COUNT] -= 1
    sl_s[s, X_ROP_GROUPS] -= 1
    act[A_ROP] -= 1
    return True


@jit
def _access(p, ca, rop, rq, sl_s, act, counters, s: int, cycle: int) -> bool:
    """Look up the request at the head of slice ``s``'s ROP queue; False when it must wait
    without counting anything. A sectored L2 looks up one sector of the packet per L2 tick (as
    GPGPU-Sim 4.2 splits a request into sector requests before the ROP queue): ``bytes /
    sector_bytes`` sectors from the one its address falls in ([A] a write or atomic of n
    sectors covers the line's first n); the packet leaves after its last."""
    c = s + p[P_L2_BASE]
    i = sl_s[s, X_ROP_HEAD]
    if rop[s, i, Q_READY] > cycle:
        return False
    addr = rop[s, i, Q_ADDR]
    info = rop[s, i, Q_INFO]
    sm = info_sm(info)
    pt = info_ptype(info)
    if pt == PK_GROUP:
        return _access_group(p, ca, rop, rq, sl_s, act, counters, s, i, addr, info, cycle)
    shift = ca.geo[c, G_LINE_SHIFT]
    sh = ca.geo[c, G_SECTOR_SHIFT]
    sectored = sh < shift
    line = addr >> shift
    n = 1
    k_sec = 0
    req_addr = addr                             # what a hit replies / a write forwards
    req_info = info
    if sectored:
        per_line = 1 << (shift - sh)
        first = (addr >> sh) & (per_line - 1)
        n = min(max(1, info_bytes(info) >> sh), per_line - first)
        k_sec = first + sl_s[s, X_ROP_SEC]
        req_addr = (line << shift) + (k_sec << sh)
        req_info = _with_bytes(info, 1 << sh)
    if pt == PK_WRITE:
        acked = info_slot(info) > 0  # the store wants a WRITE_ACK (store_ack.py)
        if acked and _rq_free(rq, sl_s, s) < 1:
            return False
        if mq_free(ca, c) < 2:
            counters[sm, C_L2_TOTAL_CACHE_RESERVATION_FAILS] += 1
            return True  # a counter changed: report progress (see memsys.tick_memsys)
        if sectored:
            hit, fwd, victim, vbytes = sec_write(ca, c, line, k_sec, ca.geo[c, G_WRITE_POLICY])
        else:
            hit, fwd, victim = cache_write(ca, c, line, ca.geo[c, G_WRITE_POLICY], info)
            vbytes = 1 << shift
        if fwd:
            _to_dram(ca, act, c, req_addr, _with_slot(req_info, 0), cycle + 1)
        if victim >= 0:
            _writeback_bytes(ca, act, c, victim, vbytes, sm, cycle + 1)
        counters[sm, C_L2_TOTAL_CACHE_ACCESSES] += 1
        counters[sm, C_L2_TOTAL_CACHE_WRITES] += 1
        if not hit:
            counters[sm, C_L2_TOTAL_CACHE_MISSES] += 1
        if acked:
            _rq_push(rq, sl_s, act, s, req_addr, ack_info(info, sl_s[s, X_ROP_SEC] + 1 >= n),
                     cycle + 1)
            counters[sm, C_STORE_ACKS] += 1
    else:
        if _rq_free(rq, sl_s, s) < 1:
            return False
        if sectored:
            status, victim, vbytes = sec_read(ca, c, line, k_sec, req_info)
        else:
            status, victim = cache_read(ca, c, line, info)
            vbytes = 1 << shift
        if status == R_RESERVATION_FAIL:
            counters[sm, C_L2_TOTAL_CACHE_RESERVATION_FAILS] += 1
            return True  # a counter changed: report progress (see memsys.tick_memsys)
        if status == R_HIT and pt == PK_ATOMIC:
            if sectored:
                sec_write(ca, c, line, k_sec, WP_WRITE_BACK)
            else:
                cache_write(ca, c, line, WP_WRITE_BACK, info)
        _read_outcome(ca, rq, sl_s, act, counters, c, s, sm, status, victim, vbytes,
                      (line << shift) + (k_sec << sh), sh, req_addr, req_info, cycle)
    if sl_s[s, X_ROP_SEC] + 1 < n:
        sl_s[s, X_ROP_SEC] += 1
        return True
    sl_s[s, X_ROP_SEC] = 0
    sl_s[s, X_ROP_HEAD] = (i + 1) % rop.shape[1]
    sl_s[s, X_ROP_COUNT] -= 1
    act[A_ROP] -= 1
    return True


@jit
def tick_l2(p, ca, rop, rq, sl_s, ret, ch_s, act, counters, cycle: int) -> bool:
    """One L2 clock tick of every slice (slice order fixed); True when anything moved."""
    progress = False
    spc = p[P_SLICES_PER_CHANNEL]
    for s in range(p[P_N_SLICES]):
        ch = s // spc
        if ch_s[ch, H_RET_COUNT] > 0 and \
                _fill(p, ca, ret, ch_s, rq, sl_s, act, s, ch, cycle):
            progress = True
        if sl_s[s, X_ROP_COUNT] > 0 and \
                _access(p, ca, rop, rq, sl_s, act, counters, s, cycle):
            progress = True
    return progress


@jit
def _on_l2_tick(clk, ready: int, cycle: int) -> int:
    r = ready if ready > cycle else cycle
    num = clk[0, DOM_L2]
    den = clk[1, DOM_L2]
    return core_of_tick(first_tick(r, num, den), num, den)


@jit
def l2_next_event(p, clk, rop, sl_s, ret, ch_s, act, cycle: int) -> int:
    """Earliest core cycle >= ``cycle`` at which an L2 tick could do something."""
    ev = INT64_MAX
    if act[A_ROP] + act[A_DRAM_RET] == 0:
        return ev
    for s in range(p[P_N_SLICES]):
        if sl_s[s, X_ROP_COUNT] > 0:
            ev = min(ev, _on_l2_tick(clk, rop[s, sl_s[s, X_ROP_HEAD], Q_READY], cycle))
    for ch in range(p[P_N_CHANNELS]):
        if ch_s[ch, H_RET_COUNT] > 0:
            ev = min(ev, _on_l2_tick(clk, ret[ch, ch_s[ch, H_RET_HEAD], Q_READY], cycle))
    return ev
