"""RegLess's compressor between a shard's OSU and the L1: its 16-line cache of compressed lines,
its one read or write per cycle, and preloads that share one compressed line in flight.

Follows: Kloosterman et al., RegLess (MICRO-50 2017) §4.4 ("one read or write per cycle", 16
lines of internal storage, 15 compressed registers per 128 B line); specs/regless.md §4.4.

Assumptions (docs/mechanisms/regless.md):
  [A] The compressor cache is fully associative, LRU, write-back; a line missing when a
      register is compressed into it is first read from memory (read-modify-write: the other
      14 slots may be live); its LRU victim, when dirty, is one 128 B store.
  [A] Each compression (an evicted dirty line that matches a pattern) and each decompression
      (a preload of a compressed register) takes the shard's compressor for one cycle, in the
      order the capacity manager asks; a second access in a cycle waits for the next free one
      (``comp_port_wait_cycles``), and a preload's wait delays its warp's activation.
  [A] A line whose data is still in flight (its fill was sent, not returned) holds only the
      slots compressed into it since; a preload of another of its slots is merged into that
      fill (``comp_merged_preloads``: no second load) and its warp waits for it. A line in
      flight is never the LRU victim; when every line is in flight a preload loads its line
      without caching it and an eviction is stored uncompressed (``comp_cache_full``).
"""

from __future__ import annotations

from warpsim._jit import jit
from warpsim.mechanisms.regless.backing_store import (
    TAG_FILL,
    TAG_STORE,
    compressed_addr,
    compressed_line_slot,
    enqueue,
)
from warpsim.mechanisms.regless.state import (
    P_CC_LINES,
    P_NS,
    P_NW,
    ST_COMP_FILLS,
    ST_COMP_FULL,
    ST_COMP_MERGED,
    ST_COMP_PORT_WAIT,
    ST_COMP_WB,
    ST_PRELOAD_COMP,
    ST_PRELOAD_MEM,
    W_OUT,
    W_READY,
)
from warpsim.timing.consts import MK_LD_LOCAL, MK_ST_LOCAL

__all__ = ["ALL_SLOTS", "cc_filled", "cc_port", "cc_read", "cc_write"]

ALL_SLOTS = (1 << 15) - 1
"""``cc_valid`` of a line whose 15 slots are all present."""


@jit
def cc_port(hs, sm, s, cycle):  # pragma: no cover - jit
    """Take shard ``s``'s compressor for one cycle at ``cycle`` or the first free one after:
    the cycles waited."""
    slot = max(cycle, hs.cc_busy[sm, s])
    hs.cc_busy[sm, s] = slot + 1
    hs.st[ST_COMP_PORT_WAIT] += slot - cycle
    return slot - cycle


@jit
def _find(hs, sm, s, line):  # pragma: no cover - jit
    for i in range(hs.prm[P_CC_LINES]):
        if hs.cc_tag[sm, s, i] == line:
            return i
    return -1


@jit
def _victim(hs, sm, s):  # pragma: no cover - jit
    """An empty line, else the LRU line not in flight (its dirty data stored); -1 when every
    line is in flight."""
    victim = -1
    for i in range(hs.prm[P_CC_LINES]):
        if hs.cc_tag[sm, s, i] < 0:
            return i
        if hs.cc_pend[sm, s, i] == 0 and (
                victim < 0 or hs.cc_stamp[sm, s, i] < hs.cc_stamp[sm, s, victim]):
            victim = i
    if victim >= 0 and hs.cc_dirty[sm, s, victim]:
        hs.st[ST_COMP_WB] += 1
        enqueue(hs, sm, MK_ST_LOCAL, compressed_addr(hs, sm, s, hs.cc_tag[sm, s, victim]),
                TAG_STORE)
    return victim


@jit
def cc_write(hs, sm, w, r, cycle):  # pragma: no cover - jit
    """Compress register (w, r) into its line: True, or False when every line is in flight
    (the caller stores it uncompressed). A line that misses is read first (read-modify-write)
    and holds only this slot until that fill returns."""
    s = w % hs.prm[P_NS]
    line, slot = compressed_line_slot(hs, w, r)
    hs.cc_clock[sm] += 1
    i = _find(hs, sm, s, line)
    if i < 0:
        i = _victim(hs, sm, s)
        if i < 0:
            hs.st[ST_COMP_FULL] += 1
            return False
        hs.st[ST_COMP_FILLS] += 1
        hs.cc_tag[sm, s, i] = line
        hs.cc_valid[sm, s, i] = 0
        hs.cc_pend[sm, s, i] = enqueue(hs, sm, MK_LD_LOCAL, compressed_addr(hs, sm, s, line),
                                       TAG_FILL)
        if hs.cc_pend[sm, s, i] == 0:  # queue full: the line is taken as present
            hs.cc_valid[sm, s, i] = ALL_SLOTS
    cc_port(hs, sm, s, cycle)
    hs.cc_stamp[sm, s, i] = hs.cc_clock[sm]
    hs.cc_dirty[sm, s, i] = 1
    hs.cc_valid[sm, s, i] |= 1 << slot
    return True


@jit
def cc_read(hs, sm, w, r, cycle):  # pragma: no cover - jit
    """Decompress register (w, r) for a preload: the cycles it waited for the compressor. A
    hit costs no load; a slot of a line in flight joins that line's fill; a miss loads the
    line (the warp's outstanding preloads count each load it waits for)."""
    s = w % hs.prm[P_NS]
    ns = hs.prm[P_NS]
    line, slot = compressed_line_slot(hs, w, r)
    hs.cc_clock[sm] += 1
    wait = cc_port(hs, sm, s, cycle)
    i = _find(hs, sm, s, line)
    if i >= 0:
        hs.cc_stamp[sm, s, i] = hs.cc_clock[sm]
        if (hs.cc_valid[sm, s, i] >> slot) & 1:
            hs.st[ST_PRELOAD_COMP] += 1
            return wait
        hs.st[ST_PRELOAD_MEM] += 1
        hs.st[ST_COMP_MERGED] += 1
        hs.cc_wait[sm, s, i, w // ns] += 1
        hs.w[sm, w, W_OUT] += 1
        return wait
    hs.st[ST_PRELOAD_MEM] += 1
    k = enqueue(hs, sm, MK_LD_LOCAL, compressed_addr(hs, sm, s, line), w)
    if k:
        hs.w[sm, w, W_OUT] += 1
    i = _victim(hs, sm, s)
    if i < 0:
        hs.st[ST_COMP_FULL] += 1
        return wait
    hs.cc_tag[sm, s, i] = line
    hs.cc_stamp[sm, s, i] = hs.cc_clock[sm]
    hs.cc_dirty[sm, s, i] = 0
    hs.cc_pend[sm, s, i] = k
    hs.cc_valid[sm, s, i] = 0 if k else ALL_SLOTS
    return wait


@jit
def cc_filled(hs, sm, k, cycle):  # pragma: no cover - jit
    """The line load sent from queue slot ``k - 1`` returned: when it is a compressor line in
    flight, its slots are all present and the preloads merged into it are done."""
    ns = hs.prm[P_NS]
    for s in range(ns):
        for i in range(hs.prm[P_CC_LINES]):
            if hs.cc_pend[sm, s, i] != k:
                continue
            hs.cc_pend[sm, s, i] = 0
            hs.cc_valid[sm, s, i] = ALL_SLOTS
            for j in range(hs.cc_wait.shape[3]):
                c = hs.cc_wait[sm, s, i, j]
                if c:
                    w = j * ns + s
                    if w < hs.prm[P_NW]:
                        hs.w[sm, w, W_OUT] -= c
                        hs.w[sm, w, W_READY] = max(hs.w[sm, w, W_READY], cycle + 1)
                    hs.cc_wait[sm, s, i, j] = 0
            return
