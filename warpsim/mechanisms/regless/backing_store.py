"""RegLess's register lines on the L1 port: backing-store addresses (uncompressed and
compressed), the queue of register lines and the per-record patterns of the written values
(the compressor's cache is ``compressor.py``).

Follows: Kloosterman et al., RegLess (MICRO-50 2017) §4.4 (compressor: 5 lane patterns, 15
registers per 128 B line, 16-line cache, bit vector), §4.5 (backing store: registers in order
of register number, compressed lines in a separate space next to it); specs/regless.md §4.4,
§4.5.

Assumptions (docs/mechanisms/regless.md):
  [A] Each shard's compressed lines hold its own warps: register (w, r) is slot
      ``k mod 15`` of line ``k // 15``, k = r x warps-per-shard + w // shards.
"""

from __future__ import annotations

import numpy as np

from warpsim._jit import jit
from warpsim.mechanisms.regless.state import (
    P_BASE,
    P_LPS,
    P_MAXREG,
    P_NS,
    P_NW,
    P_QCAP,
    ST_MEMQ_FULL,
)

__all__ = ["TAG_FILL", "TAG_STORE", "compressed_addr", "compressed_line_addr",
           "compressed_line_slot", "enqueue", "line_addr", "record_patterns"]

TAG_STORE = 1 << 30
"""Tags at or above this are lines no warp waits for (stores, compressor fills)."""
TAG_FILL = TAG_STORE + 1
"""A compressor line's fill (read-modify-write): stored as ``TAG_FILL + ring slot``."""
_COMPRESSED_SPACE = 1 << 40
"""Offset of the compressed lines from the uncompressed backing store (§4.5)."""
_PATTERN_SHIFT = 2
"""``functional.lane_patterns.RL_PATTERN_SHIFT``: the pattern's bits in a value entry's
``uniform`` byte."""
_MAX_VALUES = 21
"""Written values whose pattern a record column holds (3 bits each in an int64)."""
_PRED = 255
"""``functional.trace.BDI_NA``: a predicate value entry."""


@jit
def line_addr(hs, sm, w, r):  # pragma: no cover - jit
    """Register backing-store line of (sm, warp slot, register): R-major, then warp (§4.5)."""
    p = hs.prm
    return p[P_BASE] + ((sm * p[P_MAXREG] + r) * p[P_NW] + w) * 128


@jit
def compressed_line_slot(hs, w, r):  # pragma: no cover - jit
    """(compressed line within its shard, slot 0-14 in it) of register (w, r)."""
    ns = hs.prm[P_NS]
    wps = (hs.prm[P_NW] + ns - 1) // ns
    k = r * wps + w // ns
    return k // 15, k % 15


@jit
def compressed_addr(hs, sm, s, line):  # pragma: no cover - jit
    """Address of compressed line ``line`` of shard ``s`` of SM ``sm``."""
    p = hs.prm
    return p[P_BASE] + _COMPRESSED_SPACE + ((sm * p[P_NS] + s) * p[P_LPS] + line) * 128


@jit
def compressed_line_addr(hs, sm, w, r):  # pragma: no cover - jit
    """Address of the compressed line holding register (w, r)."""
    return compressed_addr(hs, sm, w % hs.prm[P_NS], compressed_line_slot(hs, w, r)[0])


@jit
def enqueue(hs, sm, kind, addr, tag):  # pragma: no cover - jit
    """Queue a register line for the L1 port: its ring slot + 1, or 0 when the queue is full.
    A load's tag is ``warp + n_warps x ring slot`` (the slot keeps the cycle the port accepts
    it: its latency tells L1 from L2), a compressor fill's ``TAG_FILL + ring slot``."""
    q = hs.memq_ht
    cap = hs.prm[P_QCAP]
    if q[sm, 1] >= cap:
        hs.st[ST_MEMQ_FULL] += 1
        return 0
    k = (q[sm, 0] + q[sm, 1]) % cap
    hs.memq[sm, k, 0] = kind
    hs.memq[sm, k, 1] = addr
    if tag == TAG_FILL:
        hs.memq[sm, k, 2] = TAG_FILL + k
    elif tag >= TAG_STORE:
        hs.memq[sm, k, 2] = tag
    else:
        hs.memq[sm, k, 2] = tag + hs.prm[P_NW] * k
    q[sm, 1] += 1
    return k + 1


@jit
def record_patterns(order, pc, val_start, bdi, uniform, n_values, out):  # pragma: no cover - jit
    """``out[i, 0]``: bits 3j..3j+2 hold which compressor pattern (1-5, 0 none) the j-th
    non-predicate value written by record ``order[i]`` matches (bits 2-4 of its ``uniform``
    byte, ``lane_patterns.rl_pattern_id``); values past the 21st count as none."""
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
            if j < _MAX_VALUES:
                mask |= ((np.int64(uniform[e]) >> _PATTERN_SHIFT) & 7) << (3 * j)
            j += 1
        out[i, 0] = mask
