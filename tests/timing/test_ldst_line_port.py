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
