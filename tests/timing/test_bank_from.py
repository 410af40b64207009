"""``regfile.bank_from``: banks by the number in the PTX register's name (GPGPU-Sim 4.2
``arch_reg``) or by the allocator's physical registers.

Oracles: GPGPU-Sim 4.2's numbering read off ptx_parser.cc ``add_identifier`` (the first
decimal number of the name, ``%sp`` 0) and the bank counts worked out by hand below.
"""

from __future__ import annotations

import numpy as np
import pytest

import warpsim
from warpsim.arch import GTX480, apply_overrides
from warpsim.errors import ConfigError
from warpsim.ptx.regalloc import allocate_registers
from warpsim.timing.static import _name_number, build_static

HDR = ".version 7.0\n.target sm_75\n.address_size 64\n"

# One warp. The add reads %f1 and %f<b> (b = 5 or 6), both written by movs long before.
# 4 banks, warp 0, GPGPU-Sim 4.x collectors (several operands per cycle from different banks):
#   ptx_name: %f1 -> bank 1, %f5 -> bank 5 % 4 = 1: the add's second read waits one cycle
#             (1 bank-conflict stall, 1 cycle more); %f6 -> bank 2: both read together.
#   physical: the allocator gives %f1 and %f<b> registers 0 and 2 (checked below): banks 0
#             and 2 either way, no conflict and equal cycles for b = 5 and 6.
KERNEL = HDR + r"""
.visible .entry two_sources(.param .u64 out)
{
    .reg .f32 %f<8>; .reg .b64 %rd<3>;
    mov.f32 %f1, 0f3F800000;
    mov.f32 %f{b}, 0f40000000;
    add.f32 %f2, %f1, %f{b};
    ld.param.u64 %rd1, [out];
    cvta.to.global.u64 %rd2, %rd1;
    st.global.f32 [%rd2], %f2;
    ret;
}
"""
OVER = ["sm.n_sms=1", "regfile.n_banks=4", "regfile.collector_single_read_per_cycle=false"]


def _run(b: int, bank_from: str) -> dict:
    gpu = warpsim.Device(config="gtx480", overrides=[*OVER, f"regfile.bank_from={bank_from}"])
    k = gpu.load_ptx(KERNEL.replace("{b}", str(b))).get_kernel("two_sources")
    out = gpu.device_array(1, np.float32)
    k[1, 32](out)
    assert out.copy_to_host()[0] == 3.0
    return gpu.last_launch.stats


def test_name_number_is_the_first_decimal_number_of_the_name():
    assert [_name_number(n) for n in ("%f12", "%rd12", "%r0", "%p3", "%sp", "%tmp", "%fd1_2")] \
        == [12, 12, 0, 3, 0, -1, 1]


def test_same_bank_by_name_costs_one_conflict_and_one_cycle():
    by_name = {b: _run(b, "ptx_name") for b in (5, 6)}
    physical = {b: _run(b, "physical") for b in (5, 6)}
    assert by_name[5]["regfile_bank_conflict_stalls"] == 1
    assert by_name[6]["regfile_bank_conflict_stalls"] == 0
    assert by_name[5]["gpu_sim_cycle"] == by_name[6]["gpu_sim_cycle"] + 1
    assert physical[5]["regfile_bank_conflict_stalls"] == 0
    assert physical[6]["regfile_bank_conflict_stalls"] == 0
    assert physical[5]["gpu_sim_cycle"] == physical[6]["gpu_sim_cycle"]


def _tables(src: str, bank_from: str):
    gpu = warpsim.Device(config="gtx480", overrides=[f"regfile.bank_from={bank_from}"])
    k = gpu.load_ptx(src).get_kernel("two_sources")
    program = k.module.image.program(k.name)
    return build_static(program, allocate_registers(program.fn, schedule=False), gpu.gpu_config)


def test_static_tables_hold_name_numbers_one_per_operand():
    src = KERNEL.replace("{b}", "5")
    phys = _tables(src, "physical")
    named = _tables(src, "ptx_name")
    # pc 2 = the add: physical registers of %f1 and %f5 are 0 and 2 (precondition above)
    assert list(phys.pc_src[2][phys.pc_src[2] >= 0]) == [0, 2]
    assert list(named.pc_src[2][named.pc_src[2] >= 0]) == [1, 5]
    assert list(named.pc_dst[2][named.pc_dst[2] >= 0]) == [2]
    # pc 5 = st.global [%rd2], %f2: the address is a memory operand in GPGPU-Sim (no bank
    # read), %f2 is number 2; physically the 64-bit %rd2 (2 registers) and %f2 are read
    assert list(named.pc_src[5][named.pc_src[5] >= 0]) == [2]
    assert (phys.pc_src[5] >= 0).sum() == 3
    # pc 4 = cvta reads %rd1 (number 1, one read by name; two physical registers)
    assert list(named.pc_src[4][named.pc_src[4] >= 0]) == [1]
    assert (phys.pc_src[4] >= 0).sum() == 2
    # ... and writes the 64-bit %rd2: one bank write by name, two physical registers
    assert list(named.pc_dst[4][named.pc_dst[4] >= 0]) == [2]
    assert (phys.pc_dst[4] >= 0).sum() == 2


def test_unknown_value_and_mechanism_are_config_errors():
    with pytest.raises(ConfigError, match=r"regfile\.bank_from"):
        apply_overrides(GTX480, ["regfile.bank_from=arch"])
    from warpsim.timing.driver import TimingSimulator
    cfg = apply_overrides(GTX480, ["regfile.bank_from=ptx_name"])
    with pytest.raises(ConfigError, match="physical with a mechanism"):
        TimingSimulator(cfg, mechanism=object())


def test_repeated_numbers_of_different_types_are_read_once():
    # GPGPU-Sim numbers %r1 and %f1 both 1 and its collector drops repeated numbers: selp
    # reads %f1, %f3 and the predicate %p1 -> numbers 1, 3 (the 1 once); physical: 3 reads
    src = HDR + r"""
.visible .entry two_sources()
{
    .reg .pred %p<2>; .reg .f32 %f<4>; .reg .b32 %r<2>;
    mov.u32 %r1, %tid.x;
    mov.f32 %f1, 0f3F800000;
    mov.f32 %f3, 0f40000000;
    setp.eq.u32 %p1, %r1, 0;
    selp.f32 %f2, %f1, %f3, %p1;
    ret;
}
"""
    named = _tables(src, "ptx_name")
    assert list(named.pc_src[4][named.pc_src[4] >= 0]) == [1, 3]
    assert list(named.pc_dst[3][named.pc_dst[3] >= 0]) == [1]  # setp writes %p1
    assert list(_tables(src, "physical").pc_dst[3]) == [-1]
