"""Several LD/ST units share the SM's one line register (``F_LDST_CUR``, fed to the L1 port by
``pipeline.tick_execute``): a memory instruction that sends lines is not dispatched to a second
unit while the register still holds another's. Regression of the a100/qv100 deadlock (4 LD/ST
units): a warp's second load of the same lines was dispatched to unit 1 while the first one still
had a line to send, took the register, and the first load waited forever for its last line.

Timeline as in test_engine_memory.py (fixed-latency stand-in: 200-cycle miss, 35-cycle hit after
the line is accepted; a 1-source instruction issued at 2 is dispatched at 5, its lines offered
from 6 on, one per cycle; the run ends the cycle after the last completion). Load 1: issued 2,
dispatched 5, lines at 6 and 7 (misses, back at 206 and 207). Load 2: issued 3, operands read
at 5, ready for a unit at 6, but the line register is busy until load 1 sends its last line at
7; it is dispatched to the second unit in that cycle (execute runs before dispatch) and offers
its lines at 8 and 9.
"""

from __future__ import annotations

from timing_helpers import EXIT, Inst, rec, simulate, small_config

TWO_LDST_UNITS = {"pipelines.ldst.n_units": 2, "pipelines.ldst.n_id_oc_slots": 2,
                  "pipelines.ldst.n_oc_ex_slots": 2}
LOADS = [Inst("ld", space="global", types=("f32",), reads=(1,), writes=(2,)),
         Inst("ld", space="global", types=("f32",), reads=(1,), writes=(3,)),
         Inst("exit", kind=EXIT)]
A, B = 0x1000, 0x1080


def test_second_load_of_the_same_lines_completes_with_two_ldst_units():
    # load 2's lines (8, 9) hit: back at 43 and 44; load 1's last line is back at 207
    r = simulate(small_config(**TWO_LDST_UNITS), LOADS,
                 [[rec(0, lines=[A, B]), rec(1, lines=[A, B]), rec(2)]])
    assert r.cycles == 208
    assert r.stats["mem_loads_completed"] == 2
    assert r.stats["gpgpu_n_load_insn"] == 64
    assert r.stats["mem_load_latency_cycles"] == (207 - 5) + (44 - 7)


def test_second_load_waits_for_the_line_register_not_for_the_first_unit():
    # load 2 misses on other lines: sent at 8 and 9, back at 208 and 209; with one LD/ST unit
    # it would be dispatched at 8 (the unit is free the cycle after the last line) and end at 211
    other = [0x2000, 0x2080]
    r = simulate(small_config(**TWO_LDST_UNITS), LOADS,
                 [[rec(0, lines=[A, B]), rec(1, lines=other), rec(2)]])
    assert r.cycles == 210
    assert r.stats["mem_loads_completed"] == 2
    assert r.stats["mem_load_latency_cycles"] == (207 - 5) + (209 - 7)
    one = simulate(small_config(), LOADS, [[rec(0, lines=[A, B]), rec(1, lines=other),
                                            rec(2)]])
    assert one.cycles == 211
    assert one.stats["mem_load_latency_cycles"] == (207 - 5) + (210 - 8)


PTX_TWICE = r"""
.version 7.0
.target sm_80
.address_size 64
.visible .entry twice(.param .u64 pin, .param .u64 pout)
{
  .reg .b32 %r<2>; .reg .b64 %rd<6>; .reg .f32 %f<6>;
  ld.param.u64 %rd1, [pin];
  ld.param.u64 %rd2, [pout];
  cvta.to.global.u64 %rd1, %rd1;
  cvta.to.global.u64 %rd2, %rd2;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 8;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.v2.f32 {%f0,%f1}, [%rd4];
  ld.global.v2.f32 {%f2,%f3}, [%rd4];
  add.f32 %f4, %f0, %f2;
  add.f32 %f5, %f1, %f3;
  add.s64 %rd5, %rd2, %rd3;
  st.global.v2.f32 [%rd5], {%f4,%f5};
  ret;
}
"""


def test_a100_warp_loading_its_lines_twice_completes():
    # the reported case on the real memory system (a100: 4 LD/ST units, write-through L1D):
    # 32 threads x 8 B = two 128 B lines per load. Load 1 misses both lines; load 2 is sent a
    # few cycles later while they are in flight: two pending hits merged into the MSHRs. The
    # store writes two lines of another array (write-through, no allocation: two write misses)
    import numpy as np

    import warpsim

    dev = warpsim.Device(config="a100")
    k = dev.load_ptx(PTX_TWICE, name="twice.ptx").get_kernel("twice")
    a = np.arange(64, dtype=np.float32)
    out = dev.device_array(64, np.float32)
    k[1, 32](dev.to_device(a), out)
    np.testing.assert_array_equal(out.copy_to_host(), 2 * a)
    st = dev.last_launch.stats
    assert st["mem_loads_completed"] == 2
    assert st["gpgpu_n_load_insn"] == 64
    assert st["gpgpu_n_store_insn"] == 32
    assert st["L1D_total_cache_accesses"] == 6
    assert st["L1D_total_cache_pending_hits"] == 2
    assert st["L1D_total_cache_writes"] == 2
    assert st["L1D_total_cache_misses"] == 4
