"""Per-record facts of a trace chunk that follow from each warp's program order alone: whether
the instruction is convergent, the warp's store flags and barrier count when it runs, and the
64-bit signature of each destination's 32-lane value.

Follows: specs/wir.md §2.8 (convergent = every lane executes), §2.12 (store flags set by a
store, cleared at a barrier; barrier count per TB = barriers its warps passed), §8 item 13.
Assumptions:
  [A17] Every warp of a TB passes the same barriers, so the TB's count when a warp runs an
       instruction is the number of barriers that warp passed; flags clear at the barrier.
  [A] A destination the trace does not annotate gets a unique value (never shared).
"""

from __future__ import annotations

import numpy as np

from warpsim._jit import jit
from warpsim.mechanisms.wir.layout import BC_MAX, C_BC, C_FLAGS, C_SIG0, FL_CONV, FL_STGL, FL_STSH
from warpsim.mechanisms.wir.static_info import MAX_DST, PX_DIDX, PX_STORE, ST_GLOBAL, ST_SHARED

__all__ = ["walk_chunk"]

_FULL = np.uint32(0xFFFFFFFF)


@jit
def walk_chunk(order, offsets, pc, exec_mask, val_start, sig, pcx, is_bar, token,
               cols):  # pragma: no cover - jit
    """Fill ``cols[i, C_FLAGS/C_BC/C_SIG0+k]`` for row ``i`` = record ``order[i]``."""
    for w in range(offsets.shape[0] - 1):
        bc = 0
        flags = 0
        for i in range(offsets[w], offsets[w + 1]):
            r = order[i]
            p = pc[r]
            f = flags
            if exec_mask[r] == _FULL:
                f |= FL_CONV
            cols[i, C_FLAGS] = f
            cols[i, C_BC] = bc
            for k in range(MAX_DST):
                e = pcx[p, PX_DIDX + k]
                if e >= 0:
                    cols[i, C_SIG0 + k] = np.int64(sig[val_start[r] + e])
                else:
                    token[0] += 1
                    cols[i, C_SIG0 + k] = np.int64(0x7FF0000000000000) | token[0]
            st = pcx[p, PX_STORE]
            if st & ST_SHARED:
                flags |= FL_STSH
            if st & ST_GLOBAL:
                flags |= FL_STGL
            if is_bar[p]:
                flags = 0
                if bc < BC_MAX:
                    bc += 1
