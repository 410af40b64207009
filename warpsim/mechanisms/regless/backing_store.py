"""RegLess's register lines on the L1 port and the compressor between the OSU and the L1:
backing-store addresses, the queue of register lines, the compressor's line cache and the
per-record pattern bits of the written values.

Follows: Kloosterman et al., RegLess (MICRO-50 2017) §4.4 (compressor: 5 lane patterns, 15
registers per 128 B line, 16-line cache, bit vector), §4.5 (backing store: registers in order
of register number, compressed lines in a separate space next to it); specs/regless.md §4.4,
§4.5.

Assumptions (docs/mechanisms/regless.md):
  [A] Each shard's compressed lines hold its own warps: register (w, r) is slot
      ``k mod 15`` of line ``k // 15``, k = r x warps-per-shard + w // shards.
  [A] The compressor cache is fully associative, LRU, write-back; a line missing when a
      register is compressed into it is first read from memory (read-modify-write: the other
      14 slots may be live); its LRU victim, when dirty, is one 128 B store.
  [A] A preload of a compressed register that misses in the compressor cache loads the whole
      compressed line and keeps it in the cache (clean); concurrent misses on one line are
      not merged.
"""

from __future__ import annotations

import numpy as np

from warpsim._jit import jit
from warpsim.mechanisms.regless.state import (
    P_BASE,
    P_CC_LINES,
    P_LPS,
    P_MAXREG,
    P_NS,
    P_NW,
    P_QCAP,
    ST_COMP_FILLS,
    ST_COMP_WB,
    ST_MEMQ_FULL,
)
from warpsim.timing.consts import MK_LD_LOCAL, MK_ST_LOCAL

__all__ = ["TAG_STORE", "cc_access", "compressed_addr", "compressed_line_addr", "enqueue",
           "line_addr",
           "record_patterns"]

TAG_STORE = 1 << 30
"""Tags at or above this are lines no warp waits for (stores, compressor fills)."""
_TAG_FILL = TAG_STORE + 1
_COMPRESSED_SPACE = 1 << 40
"""Offset of the compressed lines from the uncompressed backing store (§4.5)."""
_PATTERN_BIT = 128
"""``functional.trace.RL_PATTERN_BIT`` of a value entry's BDI byte."""
_PRED = 255
"""``functional.trace.BDI_NA``: a predicate value entry."""


@jit
def line_addr(hs, sm, w, r):  # pragma: no cover - jit
    """Register backing-store line of (sm, warp slot, register): R-major, then warp (§4.5)."""
    p = hs.prm
    return p[P_BASE] + ((sm * p[P_MAXREG] + r) * p[P_NW] + w) * 128


@jit
def _cline(hs, w, r):  # pragma: no cover - jit
    """Compressed line (within its shard) holding register (w, r)."""
    ns = hs.prm[P_NS]
    wps = (hs.prm[P_NW] + ns - 1) // ns
    return (r * wps + w // ns) // 15


@jit
def compressed_addr(hs, sm, s, line):  # pragma: no cover - jit
    """Address of compressed line ``line`` of shard ``s`` of SM ``sm``."""
    p = hs.prm
    return p[P_BASE] + _COMPRESSED_SPACE + ((sm * p[P_NS] + s) * p[P_LPS] + line) * 128


@jit
def compressed_line_addr(hs, sm, w, r):  # pragma: no cover - jit
    """Address of the compressed line holding register (w, r)."""
    return compressed_addr(hs, sm, w % hs.prm[P_NS], _cline(hs, w, r))


@jit
def enqueue(hs, sm, kind, addr, tag):  # pragma: no cover - jit
    """Queue a register line for the L1 port; a load's tag is ``warp + n_warps x ring slot``
    (the slot keeps the cycle the port accepts it: its latency tells L1 from L2)."""
    q = hs.memq_ht
    cap = hs.prm[P_QCAP]
    if q[sm, 1] >= cap:
        hs.st[ST_MEMQ_FULL] += 1
        return False
    k = (q[sm, 0] + q[sm, 1]) % cap
    hs.memq[sm, k, 0] = kind
    hs.memq[sm, k, 1] = addr
    hs.memq[sm, k, 2] = tag if tag >= TAG_STORE else tag + hs.prm[P_NW] * k
    q[sm, 1] += 1
    return True


@jit
def cc_access(hs, sm, w, r, write):  # pragma: no cover - jit
    """Touch the compressed line of (w, r) in its shard's compressor cache: 1 on a hit. On a
    miss the line is inserted (the LRU victim written back when dirty); a write that misses
    first reads the line (read-modify-write)."""
    s = w % hs.prm[P_NS]
    line = _cline(hs, w, r)
    hs.cc_clock[sm] += 1
    now = hs.cc_clock[sm]
    n = hs.prm[P_CC_LINES]
    for i in range(n):
        if hs.cc_tag[sm, s, i] == line:
            hs.cc_stamp[sm, s, i] = now
            if write:
                hs.cc_dirty[sm, s, i] = 1
            return 1
    victim = 0
    for i in range(n):
        if hs.cc_tag[sm, s, i] < 0:
            victim = i
            break
        if hs.cc_stamp[sm, s, i] < hs.cc_stamp[sm, s, victim]:
            victim = i
    if hs.cc_tag[sm, s, victim] >= 0 and hs.cc_dirty[sm, s, victim]:
        hs.st[ST_COMP_WB] += 1
        enqueue(hs, sm, MK_ST_LOCAL, compressed_addr(hs, sm, s, hs.cc_tag[sm, s, victim]),
                TAG_STORE)
    if write:
        hs.st[ST_COMP_FILLS] += 1
        enqueue(hs, sm, MK_LD_LOCAL, compressed_addr(hs, sm, s, line), _TAG_FILL)
    hs.cc_tag[sm, s, victim] = line
    hs.cc_stamp[sm, s, victim] = now
    hs.cc_dirty[sm, s, victim] = write
    return 0


@jit
def record_patterns(order, pc, val_start, bdi, n_values, out):  # pragma: no cover - jit
    """``out[i, 0]``: bit j set when the j-th non-predicate value written by record
    ``order[i]`` matches a compressor pattern (its BDI byte's ``RL_PATTERN_BIT``)."""
    nb = bdi.shape[0]
    for i in range(order.shape[0]):
        rec = order[i]
        p = pc[rec]
        mask = 0
        j = 0
        e0 = val_start[rec]
        for e in range(e0, e0 + n_values[p]):
            if e >= nb:
                break
            code = np.int64(bdi[e])
            if code == _PRED:
                continue
            if code & _PATTERN_BIT:
                mask |= 1 << j
            j += 1
        out[i, 0] = mask
