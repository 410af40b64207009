"""Program-order decode analysis of one trace chunk: per warp, the token-design detection of
intra-warp uniform instructions (spec §1.4: immediates, thread-independent special registers,
tracked uniform registers, the full active mask), checked against the trace's true uniformity,
and the per-record columns the timing hooks use (flags, the IRB value key, thread count).

Follows: specs/xiang-simt-efficiency.md §1.3-§1.5, §1.8 (IRB tag and values). Detection is a
decode-time function of each warp's own instruction stream, so the program-order walk gives
exactly what the token design's ID stage sees; the hooks repeat the same logic at issue (they
also run the SRF design, whose tracking depends on the SRF's occupancy, a timing effect).
Assumptions:
  [A] The value key of a record hashes its pc, the last-written values of its source registers
      (trace signatures of the warp's registers) and its result values: equal keys = same
      instruction with the same inputs (results are included so that inputs the trace does not
      record, thread-independent special registers, are covered; equal inputs give equal
      results, so this never hides a true reuse).
  [A] A partial last warp's "full" mask is its launch mask (spec §1.15 item 1).
"""

from __future__ import annotations

import numpy as np

from warpsim._jit import jit
from warpsim.mechanisms.uniform_vectors.counters import (
    COL_FLAGS,
    COL_KEY,
    COL_NTHR,
    RF_BCAST,
    RF_DET,
    RF_FULL,
    RF_TRUE,
    W,
)
from warpsim.mechanisms.uniform_vectors.decode import PF_ELIG, PF_LOAD, PF_TIDDEP

__all__ = ["popcount32", "walk_chunk"]

_S_ELIG = W["uv_walk_eligible_insts"]
_S_DET = W["uv_walk_detected_insts"]
_S_TRUE = W["uv_walk_true_uniform_insts"]
_S_BAD = W["uv_walk_detected_not_true"]
_S_OPS = W["uv_walk_eligible_thread_ops"]
_S_BCAST = W["uv_walk_broadcast_loads"]

_K1 = np.uint64(0x9E3779B97F4A7C15)
_K2 = np.uint64(0xC2B2AE3D27D4EB4F)


@jit
def popcount32(x):  # pragma: no cover - jit
    """Set bits of a 32-bit mask."""
    x = np.uint64(x) & np.uint64(0xFFFFFFFF)
    n = 0
    while x:
        x &= x - np.uint64(1)
        n += 1
    return n


@jit
def _mix(h, v):  # pragma: no cover - jit
    return (h ^ np.uint64(v)) * _K2 + _K1


@jit
def walk_chunk(order, offsets, warp_in_cta, pc_col, mask, exec_mask, val_start, sig, uniform,
               bdi, n_values, pc_flags, pc_sbsrc, pc_sbdst, n_regs, n_sb, cta_threads, bcast_on,
               stats, cols):  # pragma: no cover - jit
    """Fill ``cols[i]`` for record ``order[i]`` and add the chunk's statistics to ``stats``;
    ``bcast_on``: a broadcast load's result is tracked (token set by the broadcast path)."""
    tok = np.zeros(max(1, n_sb), np.uint8)
    val = np.zeros(max(1, n_sb), np.uint64)
    tval = np.zeros(max(1, n_sb), np.uint8)  # one value in every lane of the warp (trace)
    for w in range(offsets.shape[0] - 1):
        tok[:] = 0
        val[:] = 0
        tval[:] = 0
        nthr = min(32, cta_threads - 32 * np.int64(warp_in_cta[w]))
        valid = np.uint32(0xFFFFFFFF) if nthr >= 32 else np.uint32((1 << max(nthr, 0)) - 1)
        for i in range(offsets[w], offsets[w + 1]):
            r = order[i]
            pc = pc_col[r]
            pf = pc_flags[pc]
            full = np.uint32(exec_mask[r]) == valid and np.uint32(mask[r]) == valid
            flags = RF_FULL if full else 0
            nt = popcount32(exec_mask[r])
            uni = full and (pf & (PF_ELIG | PF_LOAD)) != 0 and (pf & PF_TIDDEP) == 0
            # the broadcast path: a load whose address registers hold one value in every lane
            bc = full and (pf & PF_LOAD) != 0 and (pf & PF_TIDDEP) == 0
            h = (np.uint64(pc) + np.uint64(1)) * _K1
            for k in range(pc_sbsrc.shape[1]):
                s = pc_sbsrc[pc, k]
                if s < 0:
                    break
                if tok[s] == 0:
                    uni = False
                if tval[s] == 0:
                    bc = False
                h = _mix(h, val[s])
            if bc:
                flags |= RF_BCAST
                if not uni:
                    stats[_S_BCAST] += 1
            for k in range(pc_sbdst.shape[1]):  # redefined: one value only if traced so
                d = pc_sbdst[pc, k]
                if d < 0 or nt == 0:
                    break
                tval[d] = 0
            # results: register values in order, then predicates (BDI code 255)
            nv = n_values[pc]
            all_uni = nv > 0
            jr = 0
            jp = 0
            for e in range(val_start[r], val_start[r] + nv):
                h = _mix(h, sig[e])
                if not uniform[e] & 1:  # bit 0: all active lanes equal
                    all_uni = False
                pred = bdi[e] == 255
                # the e-th result's scoreboard id
                d = -1
                j = 0
                for k in range(pc_sbdst.shape[1]):
                    x = pc_sbdst[pc, k]
                    if x < 0:
                        break
                    if (x >= n_regs) == pred:
                        if j == (jp if pred else jr):
                            d = x
                            break
                        j += 1
                if pred:
                    jp += 1
                else:
                    jr += 1
                if d >= 0:
                    val[d] = sig[e]
                    tval[d] = 1 if full and (uniform[e] & 1) else 0
            if pf & PF_ELIG:
                stats[_S_ELIG] += 1
                stats[_S_OPS] += nt
                if full and all_uni:
                    flags |= RF_TRUE
                    stats[_S_TRUE] += 1
                if uni:
                    flags |= RF_DET
                    stats[_S_DET] += 1
                    if not (flags & RF_TRUE):
                        stats[_S_BAD] += 1
            for k in range(pc_sbdst.shape[1]):
                d = pc_sbdst[pc, k]
                if d < 0 or nt == 0:  # no lane executes: nothing is written
                    break
                tok[d] = 1 if uni or (bcast_on and (flags & RF_BCAST) != 0) else 0
            cols[i, COL_FLAGS] = flags
            cols[i, COL_KEY] = np.int64(h >> np.uint64(1))
            cols[i, COL_NTHR] = nt
