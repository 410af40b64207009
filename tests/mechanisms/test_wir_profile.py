"""The repeated-computation profiler (specs/wir.md §4.5, Fig. 2) on hand-built chunks: the
primary metric counts Σ(m−1), the alternative Σ[m≥2]·m, '>10' the instructions whose key occurs
more than 10 times; stores and control flow never repeat; source values are part of the key."""

from __future__ import annotations

import numpy as np

from warpsim.mechanisms.wir.profile import (
    N_PROF,
    PR_ALT,
    PR_GT10,
    PR_INSTS,
    PR_REPEATED,
    PR_WINDOWS,
    profile_chunk,
)
from warpsim.mechanisms.wir.static_info import MAX_DST, N_PCX, PX_DIDX, PX_NVAL, PX_PROF


def _tables():
    # pc 0: add r1 <- r0 (identity 1); pc 1: a store (identity 0); pc 2: mov r0 <- imm (id 2)
    pcx = np.zeros((4, N_PCX), np.int64)
    pcx[:, PX_DIDX:PX_DIDX + MAX_DST] = -1
    pcx[0, PX_PROF], pcx[0, PX_NVAL], pcx[0, PX_DIDX] = 1, 1, 0
    pcx[2, PX_PROF], pcx[2, PX_NVAL], pcx[2, PX_DIDX] = 2, 1, 0
    src = np.array([[0], [1], [-1], [-1]], np.int64)
    dst = np.array([[1], [-1], [0], [-1]], np.int64)
    return pcx, src, dst


def _run(pcs_per_warp, sigs_per_warp):
    """One chunk: warp w runs ``pcs_per_warp[w]`` with result signatures ``sigs``; records
    are dispatched warp by warp."""
    pcx, src, dst = _tables()
    pc, sig, vs, order, off = [], [], [], [], [0]
    for pcs, sigs in zip(pcs_per_warp, sigs_per_warp, strict=True):
        for p, s in zip(pcs, sigs, strict=True):
            order.append(len(pc))
            vs.append(len(sig))
            pc.append(p)
            if s is not None:
                sig.append(s)
        off.append(len(pc))
    out = np.zeros(N_PROF, np.int64)
    profile_chunk(np.array(order, np.int32), np.array(off, np.int64), np.array(pc, np.int32),
                  np.full(len(pc), 0xFFFFFFFF, np.uint32), np.array(vs, np.int64),
                  np.array([*sig, 0], np.int64), pcx, src, dst, 2, out)
    return out


def test_identical_computations_of_four_warps_count_three_repeats():
    # every warp: r0 = 7 (mov), r1 = r0 + 1 = 8 (add), store
    out = _run([[2, 0, 1]] * 4, [[7, 8, None]] * 4)
    assert out[PR_INSTS] == 12 and out[PR_WINDOWS] == 1
    assert out[PR_REPEATED] == 3 + 3        # mov x4 and add x4: m - 1 each; stores never
    assert out[PR_ALT] == 4 + 4
    assert out[PR_GT10] == 0


def test_same_result_from_different_source_values_is_not_a_repeat():
    # warp 0: r0 = 7, r1 = 8; warp 1: r0 = 5, r1 = 8 (same result, other source value)
    out = _run([[2, 0], [2, 0]], [[7, 8], [5, 8]])
    assert out[PR_REPEATED] == 0


def test_more_than_ten_occurrences():
    out = _run([[2]] * 12, [[7]] * 12)
    assert out[PR_REPEATED] == 11
    assert out[PR_GT10] == 12
