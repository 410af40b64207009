"""Loops whose only changing input is ``%clock`` (``functional/clock_loops.py``): skipped in
bulk with the outputs and counters of running them one dispatch at a time.

Oracle: hand-computed from ``%clock`` = dispatches of the launch so far (the kernel reads the
clock at its 3rd dispatch, iteration ``m`` of the loop is dispatches ``7 + 5 m .. 11 + 5 m``
and reads the clock at its first: lane ``j`` leaves after the first ``m`` with
``5 m + 4 >= count + j``), and the
same launch with ``max_steps`` set, which turns the fast-forward off.
"""

from __future__ import annotations

import struct

import numpy as np
import pytest

from warpsim.functional.clock_loops import clock_loops
from warpsim.functional.executor import launch
from warpsim.functional.memory import GlobalMemory
from warpsim.functional.program import ModuleImage
from warpsim.ptx.parser import parse_ptx

HDR = ".version 9.0\n.target sm_80\n.address_size 64\n"
# out[2 * tid] = clock offset at the loop's exit, out[2 * tid + 1] = clock after the loop
SPIN = HDR + r"""
.visible .entry spin(.param .u64 po, .param .u64 count)
{
    .reg .pred %p<3>; .reg .b32 %r<4>; .reg .b64 %rd<16>;
    ld.param.u64 %rd1, [po];
    ld.param.u64 %rd5, [count];
    mov.u64 %rd6, %clock64;
    mov.u32 %r1, %tid.x;
    cvt.u64.u32 %rd2, %r1;
    add.s64 %rd5, %rd5, %rd2;
LOOP:
    mov.u64 %rd8, %clock64;
    sub.s64 %rd9, %rd8, %rd6;
    and.b64 %rd11, %rd9, 4294967295;
    setp.lt.s64 %p2, %rd11, %rd5;
    @%p2 bra LOOP;
    mov.u64 %rd12, %clock64;
    shl.b64 %rd3, %rd2, 4;
    add.s64 %rd4, %rd1, %rd3;
    st.global.u64 [%rd4], %rd11;
    st.global.u64 [%rd4+8], %rd12;
    ret;
}
"""
LOOP_PCS = range(6, 11)  # mov .. bra


def _run(count: int, threads: int, ptx: str = SPIN, **kw):
    mem = GlobalMemory()
    img = ModuleImage(parse_ptx(ptx, "spin.ptx"), mem)
    out = mem.alloc(16 * threads)
    res = launch(img, "spin", grid=1, block=threads, trace=False,
                 params=struct.pack("<QQ", out, count), **kw)
    return mem.read(out, 16 * threads).view(np.uint64).reshape(threads, 2), res


def test_the_spin_loop_is_recognised_and_a_loop_carried_one_is_not():
    prog = ModuleImage(parse_ptx(SPIN, "spin.ptx"), GlobalMemory()).program("spin")
    (lp,) = clock_loops(prog).values()
    assert (lp.t, lp.b) == (6, 10) and lp.clock_pcs == (6,)
    carried = SPIN.replace("sub.s64 %rd9, %rd8, %rd6;", "sub.s64 %rd9, %rd8, %rd9;")
    prog2 = ModuleImage(parse_ptx(carried, "c.ptx"), GlobalMemory()).program("spin")
    assert clock_loops(prog2) == {}


UNIFORM = SPIN.replace("add.s64 %rd5, %rd5, %rd2;", "add.s64 %rd5, %rd5, 0;")


@pytest.mark.parametrize("count, threads, same", [
    (1, 1, False), (2, 1, False), (14_100_000, 1, False), (100_003, 32, False),
    (700_000, 1024, True),      # 1024 lanes with equal inputs: evaluated as one
    (60, 4096, False)])         # 4096 distinct lanes: left to run one by one
def test_skipped_spin_equals_the_hand_computed_clock(count, threads, same):
    got, res = _run(count, threads, UNIFORM if same else SPIN)
    need = count + (0 if same else np.arange(threads))
    m = np.maximum(0, (need - 4 + 4) // 5)      # first m with 5 m + 4 >= need
    offset = 5 * m + 4
    iters = m + 1
    # one batch runs the loop max(iters) times (dispatches 7 .. 6 + 5 * total) as one group
    # while all its warps loop; the clock after it is read at the next dispatch
    total = int(iters.max())
    np.testing.assert_array_equal(got[:, 0], np.broadcast_to(offset, threads))
    np.testing.assert_array_equal(got[:, 1], 7 + 5 * total)
    per_thread = np.broadcast_to(iters, threads)
    per_warp = [int(per_thread[w:w + 32].max()) for w in range(0, threads, 32)]
    for pc in LOOP_PCS:  # a warp runs the loop as often as its longest lane
        assert res.pc_warp_counts[pc] == sum(per_warp)
        assert res.pc_thread_counts[pc] == int(per_thread.sum())


@pytest.mark.parametrize("ptx, threads", [(SPIN, 32), (UNIFORM, 96)], ids=["per-lane", "uniform"])
def test_skipped_spin_equals_the_one_by_one_run(ptx, threads):
    fast, rf = _run(3_001, threads, ptx)
    slow, rs = _run(3_001, threads, ptx, max_steps=10**9)   # max_steps: no fast-forward
    np.testing.assert_array_equal(fast, slow)
    np.testing.assert_array_equal(rf.pc_warp_counts, rs.pc_warp_counts)
    np.testing.assert_array_equal(rf.pc_thread_counts, rs.pc_thread_counts)
