"""WIR's Affine comparison point (``experiments/wir_affine.py``): affine register reads, writes
and lane operations counted on a hand-written kernel, and the energy arithmetic of the model.

Oracles: the counts worked out by hand from the PTX below (one full warp, tid = lane); the
spec's rules (1/8 of a bank access per affine read or write, one lane of 32 per affine op).
"""

from __future__ import annotations

import numpy as np
import pytest

import warpsim
from warpsim.experiments.wir_affine import AffineCounter, affine_saving_j, affine_shares

PTX = r"""
.version 7.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 out)
{
    .reg .b32 %r<5>; .reg .b64 %rd<5>;
    mov.u32 %r1, %tid.x;           // affine (stride 1): an affine op, saved
    shl.b32 %r2, %r1, 2;           // affine (stride 4): saved
    ld.param.u64 %rd1, [out];      // uniform: an affine write, no ALU op
    cvta.to.global.u64 %rd2, %rd1; // affine (uniform), but cvta is no affine op
    mul.wide.u32 %rd3, %r1, 4;     // affine 64-bit (high half 0): saved
    add.s64 %rd4, %rd2, %rd3;      // affine: saved
    mul.lo.u32 %r3, %r1, %r1;      // tid^2: not affine
    add.u32 %r4, %r3, %r2;         // reads a non-affine register
    st.global.u32 [%rd4], %r4;
    ret;
}
"""


def test_hand_counted_affine_reads_writes_and_lanes():
    dev = warpsim.Device()
    counter = AffineCounter()
    dev.trace = True
    dev.trace_sink = counter.consume
    dev.add_launch_observer(counter.done)
    mod = dev.load_ptx(PTX, name="affine.ptx")
    out = dev.device_array(32, np.uint32)
    mod.get_kernel("k")[1, 32](out)
    t = np.arange(32)
    np.testing.assert_array_equal(out.copy_to_host(), t * t + 4 * t)
    # reads: shl r1, cvta rd1, mul.wide r1, add rd2 rd3, mul.lo r1, add r3 r2, st rd4 r4 = 10,
    # 8 of them affine; writes: 8, all but r3 and r4 affine; 7 integer ALU ops of 32 lanes,
    # 4 of them affine ops with affine inputs and output (mov, shl, mul.wide, add.s64)
    assert counter.counts.tolist() == [10, 8, 8, 6, 7 * 32, 4 * 31, 0, 0]
    shares = affine_shares(counter.counts)
    assert shares == {"read": 0.8, "write": 0.75, "int_lanes_saved": 124 / 224,
                      "fp_lanes_saved": 0.0}


def test_saving_follows_the_models_fractions():
    shares = {"read": 0.5, "write": 0.25, "int_lanes_saved": 0.5, "fp_lanes_saved": 0.1}
    by_counter = {"regfile_granule_reads": 8.0, "regfile_granule_writes": 16.0,
                  "gpuwattch_sp_acc": 2.0, "gpuwattch_fpu_acc": 10.0, "dram_read_bytes": 99.0}
    # 7/8 * (8 * 0.5 + 16 * 0.25) + 2 * 0.5 + 10 * 0.1 = 7 + 1 + 1
    assert affine_saving_j(by_counter, shares) == pytest.approx(9.0)
