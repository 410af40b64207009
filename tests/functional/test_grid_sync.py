"""Cooperative launches and grid-wide synchronisation (``cooperative_groups::this_grid()``),
issue 18 cause 2.

Oracles: numpy (each thread reads its right neighbour's value, written by another block before
the grid barrier); the barrier's contract (no thread passes it before every block arrived:
the value a thread reads is the one written before the barrier, never the one after).
"""

from __future__ import annotations

import numpy as np
import pytest

import warpsim
from warpsim.errors import DeviceTrapError

SRC = r"""
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void shift(int* a, int* out, int n) {
    cg::grid_group g = cg::this_grid();
    int i = g.thread_rank();
    a[i] = i;
    g.sync();
    out[i] = a[(i + 1) % n];       // written by the next thread, often in another block
    g.sync();
    a[i] = -1;                     // must not be seen by any read above
}
"""


@pytest.mark.parametrize("config", [None, "gtx480"])
def test_grid_sync_orders_the_phases_of_every_block(config):
    dev = warpsim.Device(config=config)
    mod = dev.compile(SRC, name="grid_sync.cu")
    blocks, threads = 6, 96
    n = blocks * threads
    a, out = dev.device_array(n, np.int32), dev.device_array(n, np.int32)
    mod.get_kernel("shift").configure(blocks, threads, cooperative=True)(a, out, np.int32(n))
    np.testing.assert_array_equal(out.copy_to_host(), (np.arange(n) + 1) % n)
    np.testing.assert_array_equal(a.copy_to_host(), np.full(n, -1))


def test_grid_sync_outside_a_cooperative_launch_traps_with_a_hint():
    dev = warpsim.Device()
    mod = dev.compile(SRC, name="grid_sync.cu")
    a, out = dev.device_array(64, np.int32), dev.device_array(64, np.int32)
    with pytest.raises(DeviceTrapError, match="cooperative=True"):
        mod.get_kernel("shift")[2, 32](a, out, np.int32(64))
