"""Hand-computed cycle counts of ALU micro-kernels on one SM with one scheduler (GTX480 otherwise).

The pipeline timing these expectations follow (docs/timing-model.md "Timing of one
instruction"): the CTA is dispatched in cycle 0, its warp decodes in cycle 1 and issues its first
instruction in cycle 2. An instruction issued in cycle t enters a collector unit in t+1, reads one
source operand per cycle from t+2 (GPGPU-Sim 3.2.2: one operand per collector unit per cycle),
is dispatched to its unit the cycle after its last read (t+2 without sources) and writes back
``latency`` cycles after dispatch; a dependent instruction issues in that writeback cycle.
``gpu_sim_cycle`` is the last busy cycle + 1. INT ADD latency 4; SFU latency 8 / interval 8
(GPGPU-Sim 4.2's defaults, which SM2_GTX480 keeps); f32 DIV 39 / 4 (-ptx_opcode_latency_fp).
"""

from __future__ import annotations

import pytest
from timing_helpers import EXIT, FakeAlloc, FakeProgram, Inst, rec, simulate, small_config

from warpsim.errors import ConfigError
from warpsim.timing import consts as tc
from warpsim.timing import fields as fl
from warpsim.timing.static import build_static

X = Inst("exit", kind=EXIT)


def _chain(n, reads, cfg=None):
    insts = [Inst("add", reads=reads, writes=(reads[0],), n_imm=2 - len(reads))
             for _ in range(n)] + [X]
    return simulate(cfg or small_config(), insts, [[rec(i) for i in range(n + 1)]])


@pytest.mark.parametrize("n", [1, 2, 8])
def test_dependent_chain_one_source_takes_latency_plus_three_per_link(n):
    # per link: collector 1 + read 1 + dispatch 1 + latency 4 = 7; first issue at 2, +1 at end
    r = _chain(n, (2,))
    assert r.cycles == 3 + 7 * n
    assert r.stats["gpgpu_n_tot_w_icount"] == n + 1
    assert r.stats["gpu_sim_insn"] == 32 * (n + 1)
    assert r.stats["regfile_bank_reads"] == n
    assert r.stats["regfile_bank_writes"] == n


def test_two_sources_read_in_two_cycles_under_gpgpusim_322():
    # one operand per collector unit per cycle: 8 cycles per link even in different banks
    assert _chain(8, (2, 3)).cycles == 3 + 8 * 8


def test_independent_adds_issue_one_per_cycle():
    # issue at 2..11, the last one writes back at 11 + 3 + 4 = 18
    n = 10
    insts = [Inst("add", reads=(0,), writes=(i + 1,), n_imm=1) for i in range(n)] + [X]
    r = simulate(small_config(), insts, [[rec(i) for i in range(n + 1)]])
    assert r.cycles == n + 9
    assert r.stats["sched_warp_insts_issued"] == n + 1


def test_sfu_initiation_interval_spaces_independent_instructions():
    # dispatches at 5, 13, 21, ... (interval 8); the last result 8 cycles later
    n = 6
    insts = [Inst("sin", types=("f32",), mods=("approx",), reads=(0,), writes=(i + 1,))
             for i in range(n)] + [X]
    r = simulate(small_config(), insts, [[rec(i) for i in range(n + 1)]])
    assert r.cycles == 5 + 8 * (n - 1) + 8 + 1
    assert r.stats["exec_sfu_warp_insts"] == n


@pytest.mark.parametrize(("opcode", "types", "mods"), [
    ("sqrt", ("f32",), ("rn",)), ("sqrt", ("f32",), ("approx",)), ("rcp", ("f32",), ("rn",)),
    ("rsqrt", ("f32",), ("approx",)), ("ex2", ("f32",), ("approx",)),
    ("lg2", ("f32",), ("approx",)), ("cos", ("f32",), ("approx",)),
    ("sqrt", ("f64",), ("rn",)),
])
def test_gpgpusim_sfu_ops_share_the_sfu_at_its_interval(opcode, types, mods):
    # GPGPU-Sim 4.2 set_opcode_and_latency: SQRT/SIN/COS/EX2/LG2/RSQRT/RCP of any type and
    # rounding are SFU_OP with the sfu latency/interval (8/8): same timing as the sin above
    n = 6
    insts = [Inst(opcode, types=types, mods=mods, reads=(0,), writes=(2 * i + 2,))
             for i in range(n)] + [X]
    r = simulate(small_config(), insts, [[rec(i) for i in range(n + 1)]])
    assert r.cycles == 5 + 8 * (n - 1) + 8 + 1
    assert r.stats["exec_sfu_warp_insts"] == n


@pytest.mark.parametrize(("types", "latency", "interval"), [
    (("f32",), 39, 4),    # -ptx_opcode_latency_fp / _initiation_fp DIV entry
    (("s32",), 145, 8),   # -ptx_opcode_latency_int / _initiation_int DIV entry
    (("f64",), 330, 130),  # -ptx_opcode_latency_dp / _initiation_dp DIV entry
])
def test_div_runs_on_the_sfu_with_its_types_div_latency(types, latency, interval):
    # GPGPU-Sim 4.2: DIV_OP/REM_OP are SFU_OP (issued to the SFU) with the DIV entry of the
    # type's list; two independent divs: dispatches at 5 and 5 + interval, + latency + 1
    insts = [Inst("div", types=types, mods=("rn",) if types[0][0] == "f" else (),
                  reads=(0,), writes=(2 * i + 2,)) for i in range(2)] + [X]
    r = simulate(small_config(), insts, [[rec(i) for i in range(3)]])
    assert r.cycles == 5 + interval + latency + 1
    assert r.stats["exec_sfu_warp_insts"] == 2


def test_exit_takes_an_issue_slot():
    # three 1-warp CTAs dispatched in cycles 0, 1, 2; GTO issues add, exit of warp 0 (2, 3),
    # of warp 1 (4, 5), of warp 2 (6, 7); warp 2's add writes back at 6 + 3 + 4 = 13
    insts = [Inst("add", reads=(1,), writes=(1,), n_imm=1), X]
    r = simulate(small_config(), insts, [[rec(0), rec(1)] for _ in range(3)])
    assert r.cycles == 14
    assert r.stats["sm_ctas_launched"] == 3


def test_thread_instructions_count_executed_lanes():
    insts = [Inst("add", reads=(1,), writes=(1,), n_imm=1), X]
    r = simulate(small_config(), insts, [[rec(0, mask=0x0000FFFF), rec(1, mask=0x1)]])
    assert r.stats["gpu_sim_insn"] == 17
    assert r.stats["exec_int32_thread_insts"] == 16


@pytest.mark.parametrize("opcode", ["xor", "shl", "mov"])
def test_gpgpusim_times_untabled_operations_in_one_cycle(opcode):
    # pipelines.other_ops=alu1 (GPGPU-Sim 4.2's set_opcode_and_latency: latency 1): per link
    # collector 1 + read 1 + dispatch 1 + latency 1 = 4; an add keeps its table's 4 (7 a link)
    cfg = small_config(**{"pipelines.other_ops": "alu1"})
    n = 8
    insts = [Inst(opcode, types=("b32",), reads=(2,), writes=(2,), n_imm=1)
             for _ in range(n)] + [X]
    assert simulate(cfg, insts, [[rec(i) for i in range(n + 1)]]).cycles == 3 + 4 * n
    assert simulate(small_config(), insts, [[rec(i) for i in range(n + 1)]]).cycles == 3 + 7 * n
    assert _chain(n, (2,), cfg).cycles == 3 + 7 * n


def test_gpgpusim_times_an_f32_setp_on_the_int_unit_when_there_is_one():
    # GPGPU-Sim sends everything but SP_OP to the INT unit when the SM has one (shader.cc)
    insts = [Inst("setp", types=("f32",), reads=(2,), writes=(3,)),
             Inst("add", types=("f32",), reads=(2,), writes=(3,)), X]
    with_int = {"pipelines.int32.n_units": 1, "pipelines.int32.n_id_oc_slots": 1,
                "pipelines.int32.n_oc_ex_slots": 1}
    for over, setp_unit in (({}, tc.UNIT_SP), (with_int, tc.UNIT_INT)):
        cfg = small_config(**{"pipelines.other_ops": "alu1", **over})
        tb = build_static(FakeProgram(insts), FakeAlloc(insts), cfg)
        assert tb.pc_info[0, fl.F_PC_UNIT] == setp_unit
        assert (tb.pc_info[0, fl.F_PC_LATENCY], tb.pc_info[0, fl.F_PC_II]) == (1, 1)
        assert tb.pc_info[1, fl.F_PC_UNIT] == tc.UNIT_SP  # f32 add: an SP_OP stays on SP


@pytest.mark.parametrize(("opcode", "latency"), [("add", 4), ("xor", 1)])
def test_register_stages_put_a_link_at_latency_plus_six(opcode, latency):
    # pipelines.register_stage_cycles=3 (GPGPU-Sim's OC_EX register, the unit's dispatch
    # register and EX_WB, one cycle each; shader.cc cycle(): writeback, execute,
    # read_operands, issue). Issue t; collector t+1; read t+2; OC_EX t+3; dispatch register t+4;
    # unit pipeline t+5 .. t+4+latency; EX_WB t+5+latency; writeback and the dependent's issue
    # t+6+latency. GPGPU-Sim 4.2 SM2_GTX480, instrumented, one warp: add.u32 chain issues 10
    # cycles apart (latency 4); the alu1 xor chain 7 apart (latency 1).
    cfg = small_config(**{"pipelines.other_ops": "alu1", "pipelines.register_stage_cycles": 3})
    n = 8
    insts = [Inst(opcode, types=("u32",), reads=(2,), writes=(2,), n_imm=1)
             for _ in range(n)] + [X]
    r = simulate(cfg, insts, [[rec(i) for i in range(n + 1)]])
    assert r.cycles == 3 + (latency + 6) * n


def test_register_stages_leave_loads_and_stores_alone():
    insts = [Inst("ld", types=("u32",), space="shared", reads=(2,), writes=(3,)),
             Inst("add", types=("u32",), reads=(2,), writes=(4,), n_imm=1), X]
    base = build_static(FakeProgram(insts), FakeAlloc(insts), small_config())
    staged = build_static(FakeProgram(insts), FakeAlloc(insts),
                          small_config(**{"pipelines.register_stage_cycles": 3}))
    assert staged.pc_info[0, fl.F_PC_LATENCY] == base.pc_info[0, fl.F_PC_LATENCY]
    assert staged.pc_info[1, fl.F_PC_LATENCY] == base.pc_info[1, fl.F_PC_LATENCY] + 3 == 7
    assert staged.pc_info[1, fl.F_PC_II] == base.pc_info[1, fl.F_PC_II] == 1


def test_register_stages_must_not_be_negative():
    with pytest.raises(ConfigError, match="register_stage_cycles"):
        small_config(**{"pipelines.register_stage_cycles": -1})
