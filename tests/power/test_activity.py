"""GPUWattch activity counters against hand-computed GPGPU-Sim counts.

Expected values are written out from GPGPU-Sim 3.x (``set_mul_div_or_other_archop``,
``incexecstat`` weights, ``inactive_lanes_accesses_nonsfu`` = (32 - active) / 2 x weight,
``inactive_lanes_accesses_sfu`` = 0.75 x (32 - active) x weight, ``num_operands - num_regs``),
never from the module's own output.
"""

from __future__ import annotations

import pytest

from warpsim.errors import InternalError
from warpsim.power import GTX480_GPUWATTCH, GTX480_GPUWATTCH_LANE_GATED, energy
from warpsim.power.activity import (
    ACTIVITY_COUNTERS,
    exec_stat,
    gpuwattch_activity,
    inst_info,
    inst_info_from_text,
    non_rf_operands,
    sum_activity,
)


def _i(opcode: str, dsts: tuple[str, ...], srcs: tuple[str, ...]):
    return inst_info_from_text(opcode, dsts, srcs)


R = "REG"


@pytest.mark.parametrize(("opcode", "stat"), [
    ("add.s32", "int"), ("mov.u32", "int"), ("setp.lt.s32", "int"), ("cvta.to.global.u64", "int"),
    ("mad.lo.s32", "imul32"), ("mul.wide.s32", "imul32"), ("mul.lo.s64", "imul"),
    ("mul24.lo.s32", "imul24"), ("div.s32", "idiv"), ("rem.s32", "int"),
    ("add.f32", "fp"), ("fma.rn.f32", "fp"), ("setp.lt.f32", "fp"), ("cvt.rn.f32.s32", "fp"),
    ("cvt.rzi.s32.f32", "int"), ("add.f64", "fp"), ("mul.f32", "fp_mul"), ("mad.f32", "fp_mul"),
    ("div.rn.f32", "fp_div"), ("rcp.rn.f32", "fp_div"), ("sqrt.rn.f32", "sqrt"),
    ("rsqrt.approx.f32", "sqrt"), ("lg2.approx.f32", "lg"), ("sin.approx.f32", "sin"),
    ("cos.approx.f32", "sin"), ("ex2.approx.ftz.f32", "exp"),
    ("ld.global.f32", ""), ("st.shared.u32", ""), ("atom.global.add.u32", ""), ("bra", ""),
    ("bar.sync", ""), ("ret", ""), ("exit", ""), ("membar.gl", ""),
])
def test_exec_stat_follows_gpgpusim_classification(opcode, stat):
    assert exec_stat(_i(opcode, (R,), (R, R))) == stat


@pytest.mark.parametrize(("dsts", "srcs", "expected"), [
    ((R,), (R, "IMM"), 1),                 # add.s32 %r1, %r2, 4
    ((R,), ("SPECIAL",), 1),               # mov.u32 %r1, %tid.x
    ((R,), ("ADDRESS",), 1),               # ld.global.f32 %f1, [%rd1] (address reg read too)
    ((), ("ADDRESS", R), 0),               # st.global.f32 [%rd1], %f1: the first is skipped
    ((), ("SYMBOL",), 0),                  # bra $L: the label is the first operand
    ((), ("IMM",), 0),                     # bar.sync 0
    ((R,), (R, R, R), 0),                  # mad.lo.s32
    ((R, R), (R, "IMM", "IMM", "IMM"), 3),  # shfl.sync.bfly.b32 %r|%p, %r, 1, 31, -1
    (("VECTOR",), ("ADDRESS",), 1),        # ld.global.v4.f32 {...}, [%rd1]
])
def test_non_rf_operands_count_operands_after_the_first_that_are_not_registers(
        dsts, srcs, expected):
    assert non_rf_operands(_i("x.u32", dsts, srcs)) == expected


def test_activity_of_a_micro_kernel_matches_hand_computed_units():
    insts = [
        _i("add.s32", (R,), (R, "IMM")),          # 2 warps, 40 lanes active
        _i("mad.lo.s32", (R,), (R, R, R)),        # 1 warp, 32 lanes
        _i("sin.approx.f32", (R,), (R,)),         # 1 warp, 16 lanes
        _i("div.rn.f32", (R,), (R, R)),           # 1 warp, 8 lanes
        _i("mul.f32", (R,), (R, R)),              # 1 warp, 32 lanes
        _i("ld.global.f32", (R,), ("ADDRESS",)),  # 1 warp, 32 lanes
        _i("bra", (), ("SYMBOL",)),               # 3 warps, 96 lanes
        _i("tex.2d.v4.f32.f32", ("VECTOR",), ("ADDRESS",)),  # 1 warp, 32 lanes
        _i("mov.u32", (R,), ("SPECIAL",)),        # never executed
    ]
    warps = [2, 1, 1, 1, 1, 1, 3, 1, 0]
    lanes = [40, 32, 16, 8, 32, 32, 96, 32, 0]
    a = gpuwattch_activity(insts, warps, lanes)
    # INT weight 25: 40 active + (64 - 40) / 2 inactive lanes
    assert a["gpuwattch_sp_acc"] == pytest.approx(25 * (40 + 12))
    assert a["gpuwattch_sp_acc_active"] == pytest.approx(25 * 40)
    # IMUL32 4 x 32 lanes; SIN 12 x (16 + 0.75 x 16)
    assert a["gpuwattch_sfu_acc"] == pytest.approx(4 * 32 + 12 * (16 + 12))
    assert a["gpuwattch_sfu_acc_active"] == pytest.approx(4 * 32 + 12 * 16)
    # FP_DIV 48 x (8 + 0.75 x 24) on the FPU path; FP_MUL 1.8 x 32; texture 1 per lane
    assert a["gpuwattch_fpu_acc"] == pytest.approx(48 * (8 + 18) + 1.8 * 32 + 32)
    assert a["gpuwattch_fpu_acc_active"] == pytest.approx(48 * 8 + 1.8 * 32 + 32)
    # every executed warp instruction but the 3 branches
    assert a["gpuwattch_fp_int_insts"] == 2 + 1 + 1 + 1 + 1 + 1 + 1
    # add's immediate (x 2 warps), the load's and the texture's memory operands
    assert a["gpuwattch_non_rf_operands"] == 2 + 1 + 1


def test_instructions_completed_without_a_unit_cost_no_alu_access():
    # a mechanism completed one of the two adds (a reuse hit): 2 warps issued, 1 executed
    # with 32 lanes; the decoded-instruction and operand counts still see both
    insts = [_i("add.s32", (R,), (R, "IMM"))]
    a = gpuwattch_activity(insts, [2], [64], [1], [32])
    assert a["gpuwattch_sp_acc"] == pytest.approx(25 * 32)
    assert a["gpuwattch_sp_acc_active"] == pytest.approx(25 * 32)
    assert a["gpuwattch_fp_int_insts"] == 2
    assert a["gpuwattch_non_rf_operands"] == 2
    # nothing reached a unit: no ALU energy at all
    none = gpuwattch_activity(insts, [2], [64], [0], [0])
    assert none["gpuwattch_sp_acc"] == 0 and none["gpuwattch_fp_int_insts"] == 2


def test_activity_energy_on_gtx480_is_units_times_gpuwattch_coefficients():
    insts = [_i("add.s32", (R,), (R, "IMM")), _i("mad.lo.s32", (R,), (R, R, R))]
    a = gpuwattch_activity(insts, [1, 1], [32, 32])
    kw = {"cycles": 0, "clock_mhz": 700.0, "n_sms": 1, "n_rf_banks_per_sm": 32}
    bd = energy(a, GTX480_GPUWATTCH, **kw)
    pj = 1e-12
    assert bd.dynamic_by_component_j["alu_int"] == pytest.approx(32 * 67.4 * pj)
    assert bd.dynamic_by_component_j["sfu"] == pytest.approx(4 * 32 * 48.4 * pj)
    assert bd.dynamic_by_component_j["scheduler"] == pytest.approx(2 * 54.9 * pj)
    assert bd.dynamic_by_component_j["register_file"] == pytest.approx(53.0 * 32 * pj)
    gated = energy(gpuwattch_activity(insts, [1, 1], [8, 8]), GTX480_GPUWATTCH_LANE_GATED, **kw)
    assert gated.dynamic_by_component_j["alu_int"] == pytest.approx(8 * 67.4 * pj)
    assert gated.dynamic_by_component_j["sfu"] == pytest.approx(4 * 8 * 48.4 * pj)


def test_inst_info_reads_the_ptx_ir():
    from warpsim.ptx.parser import parse_ptx

    text = """
.version 7.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 p)
{
    .reg .b32 %r<3>;
    .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [p];
    mov.u32 %r1, %tid.x;
    mad.lo.s32 %r2, %r1, %r1, 3;
    st.global.u32 [%rd1], %r2;
    ret;
}
"""
    fn = next(iter(parse_ptx(text).functions.values()))
    infos = [inst_info(i) for i in fn.instructions]
    assert [exec_stat(x) for x in infos] == ["", "int", "imul32", "", ""]
    assert [non_rf_operands(x) for x in infos] == [1, 1, 1, 0, 0]


def test_activity_rejects_mismatched_lengths_and_too_many_lanes():
    with pytest.raises(InternalError, match="2 instructions"):
        gpuwattch_activity([_i("add.s32", (R,), (R, R))] * 2, [1], [32])
    with pytest.raises(InternalError, match="33 lanes"):
        gpuwattch_activity([_i("add.s32", (R,), (R, R))], [1], [33])


def test_sum_activity_adds_launches_counter_by_counter():
    a = dict.fromkeys(ACTIVITY_COUNTERS, 1.0)
    b = {"gpuwattch_sp_acc": 2.0}
    total = sum_activity([a, b])
    assert total["gpuwattch_sp_acc"] == 3.0 and total["gpuwattch_non_rf_operands"] == 1.0
