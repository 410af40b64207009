"""The repeated-computation profiler of the paper's motivation (Fig. 2): in every window of
1024 dynamic warp instructions, how many repeat a warp computation (operation, active mask,
source values, result values) seen earlier in the same window.

Follows: specs/wir.md §4.5 (methodology, two metrics, >10 repeats), §8 item 20.
Assumptions:
  [A20] Windows are 1024 consecutive records of a trace chunk in the functional executor's
       dispatch order (a CTA batch, GPU wide), not per SM in timing order: the profiler is an
       oracle of the program, run when a chunk arrives. Keys are 64-bit hashes of the operation
       identity, the active mask, the 32-lane signatures of the source registers (the warp's
       last write of each) and of every value the instruction produces.
  [A] Control flow, barriers, stores and atomics never repeat; instructions without a value
      entry (no register or predicate result) are not computations and never repeat.
"""

from __future__ import annotations

import numpy as np

from warpsim._jit import jit
from warpsim.mechanisms.wir.static_info import PX_DIDX, PX_NVAL, PX_PROF

__all__ = ["PR_ALT", "PR_GT10", "PR_INSTS", "PR_REPEATED", "PR_WINDOWS", "N_PROF",
           "profile_chunk"]

PR_INSTS, PR_REPEATED, PR_ALT, PR_GT10, PR_WINDOWS = 0, 1, 2, 3, 4
N_PROF = 5
WINDOW = 1024

_M1 = np.int64(-7046029254386353131)   # 0x9E3779B97F4A7C15 as int64
_M2 = np.int64(-4658895280553007687)   # 0xBF58476D1CE4E5B9


@jit
def _mix(h, v):  # pragma: no cover - jit
    h = (h ^ v) * _M1
    return h ^ ((h >> 29) & np.int64(0x7FFFFFFFF))


@jit
def profile_chunk(order, offsets, pc, mask, val_start, sig, pcx, pc_src, pc_dst, n_regs,
                  out):  # pragma: no cover - jit
    """Add the chunk's counts to ``out[PR_*]``."""
    n = pc.shape[0]
    keys = np.empty(n, np.int64)
    regs = np.zeros(max(n_regs, 1), np.int64)
    for w in range(offsets.shape[0] - 1):
        regs[:] = 0
        for i in range(offsets[w], offsets[w + 1]):
            r = order[i]
            p = pc[r]
            ident = pcx[p, PX_PROF]
            if ident == 0:
                keys[r] = (np.int64(1) << 62) | r
                continue
            h = _mix(ident * _M2, np.int64(mask[r]))
            for k in range(pc_src.shape[1]):
                s = pc_src[p, k]
                if s < 0:
                    break
                h = _mix(h, regs[s] if s < regs.shape[0] else 0)
            v0 = val_start[r]
            for k in range(pcx[p, PX_NVAL]):
                h = _mix(h, sig[v0 + k])
            keys[r] = h & np.int64(0x3FFFFFFFFFFFFFFF)
            for k in range(pc_dst.shape[1]):
                d = pc_dst[p, k]
                if d < 0 or k >= 4:
                    break
                e = pcx[p, PX_DIDX + k]
                if d < regs.shape[0]:
                    regs[d] = sig[v0 + e] if e >= 0 else _mix(h, k)
    for start in range(0, n, WINDOW):
        win = np.sort(keys[start:min(start + WINDOW, n)])
        out[PR_WINDOWS] += 1
        out[PR_INSTS] += win.shape[0]
        j = 0
        while j < win.shape[0]:
            m = 1
            while j + m < win.shape[0] and win[j + m] == win[j]:
                m += 1
            if win[j] < (np.int64(1) << 62):
                out[PR_REPEATED] += m - 1
                if m >= 2:
                    out[PR_ALT] += m
                if m > 10:
                    out[PR_GT10] += m
            j += m
