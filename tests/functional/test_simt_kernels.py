"""Compiled SIMT-stack helpers (``functional/simt_stack.py``): active-lane selections, pops of
reconverged entries and top-of-stack reads.

Oracles: numpy bit expansion of the masks (the lanes whose bit is set, in order) and stacks
built by hand with the entries each warp must keep.
"""

from __future__ import annotations

import numpy as np

from warpsim.functional.simt_stack import Group, SimtStacks


def _lanes(masks: np.ndarray) -> np.ndarray:
    bits = (masks[:, None] >> np.arange(32, dtype=np.uint32)) & 1
    return np.flatnonzero(bits.reshape(-1))


def test_active_lanes_of_contiguous_and_scattered_groups() -> None:
    rng = np.random.default_rng(5)
    masks = rng.integers(0, 2**32, 40, dtype=np.uint32)
    masks[3] = 0
    masks[7] = 0xFFFFFFFF
    masks[9] = 0x80000001
    live = np.full(100, 0xFFFFFFFF, np.uint32)
    for ws in (np.arange(10, 50), np.sort(rng.choice(100, 40, replace=False))):
        g = Group(0, ws, masks, np.zeros(0, np.int64), 0)
        g.prepare(live, 100)
        lpos = _lanes(masks)
        np.testing.assert_array_equal(g.lanes_of_act(), lpos)
        np.testing.assert_array_equal(g.act_idx, ws[lpos // 32] * 32 + lpos % 32)
        assert g.n_act == lpos.size


def test_settle_pops_reconverged_and_empty_entries_only() -> None:
    st = SimtStacks(4, np.full(4, 0xFFFFFFFF, np.uint32))
    # warp 0: entry reconverged (pc == rpc) over a live one -> depth 1
    st.push(np.array([0]), 7, 7, np.array([0xF], np.uint32))
    # warp 1: two entries, the top one lost every lane, the next reconverged -> depth 1
    st.push(np.array([1]), 5, 9, np.array([0xF0], np.uint32))
    st.push(np.array([1]), 3, 9, np.array([0], np.uint32))
    st.pc[1, 1] = 9
    # warp 2: a live top entry stays -> depth 2
    st.push(np.array([2]), 4, 9, np.array([0x3], np.uint32))
    st.settle(np.array([0, 1, 2, 3]))
    np.testing.assert_array_equal(st.depth, [1, 1, 2, 1])
    pcs, rpcs, masks = st.tops(np.array([2, 0]))
    np.testing.assert_array_equal(pcs, [4, 0])
    np.testing.assert_array_equal(rpcs, [9, -1])
    np.testing.assert_array_equal(masks, [0x3, 0xFFFFFFFF])
