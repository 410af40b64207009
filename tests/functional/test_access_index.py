"""Heap access indices (``access.global_index``): element indices, address range, and the
first bad lane (misaligned: kind 2, outside the heap: kind 1) with its index set to 0.

Oracle: a numpy restatement of the rule, lane by lane in Python for the first bad lane.
"""

from __future__ import annotations

import numpy as np
import pytest

from warpsim.functional.access import global_index

BASE, HEAP = 1 << 20, 1 << 16


def _oracle(addr: np.ndarray, off: int, size: int, shift: int):
    a = addr.astype(np.uint64) + np.uint64(off)
    idx = ((a - np.uint64(BASE)) >> np.uint64(shift)).astype(np.int64)
    bad, kind = -1, 0
    for i, v in enumerate(a.tolist()):
        if v % size:
            bad, kind = i, 2
            break
        if v < BASE or v - BASE > HEAP - size:
            bad, kind = i, 1
            break
    if bad >= 0:
        idx[bad] = 0
    return idx, int(a.min()), int(a.max()), bad, kind


@pytest.mark.parametrize("case", ["ok", "misaligned", "below", "above", "mixed"])
@pytest.mark.parametrize("n", [1, 32, 5000])
@pytest.mark.parametrize("dtype", [np.uint64, np.int64, np.uint32])
def test_indices_range_and_first_bad_lane(case, n, dtype):
    rng = np.random.default_rng(n)
    size, shift, off = 8, 3, 16
    addr = BASE + 8 * rng.integers(0, HEAP // 8 - 2, n, dtype=np.int64)
    k = n // 2
    if case == "misaligned":
        addr[k] += 4
    elif case == "below":
        addr[k] = BASE - 64
    elif case == "above":
        addr[k] = BASE + HEAP
    elif case == "mixed" and n > 2:
        addr[k] = BASE + HEAP + 8       # out of range first ...
        addr[k + 1] += 1                # ... then misaligned: the first one is reported
    if dtype is np.uint32:
        addr = addr - BASE              # 32-bit addresses: below the heap unless rebased
    idx = np.full(n, -7, np.int64)
    got = global_index(addr.astype(dtype), np.uint64(off), BASE, HEAP, size, shift, idx)
    want = _oracle(addr.astype(dtype), off, size, shift)
    np.testing.assert_array_equal(idx, want[0])
    assert (int(got[0]), int(got[1]), int(got[2]), int(got[3])) == want[1:]
