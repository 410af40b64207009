"""AccelWattch-derived energy table for the Quadro GV100 (Volta, Accel-Sim SM7_QV100).

Follows: reference/energy-and-configs.md §1.2-§1.3 (P = const + static + dynamic), §2.4
(``accelwattch_sass_sim.xml`` factors, constant and idle-SM power, static lane categories),
§2.5 (``calculate_static_power``), §2.6 (effective per-event energies, tag [C]), §3.5 (CACTI 7
bank leakage, 22 nm).

Assumptions:
- [A] ALU energy is charged per active lane (the QV100 config sets
  ``-gpgpu_clock_gated_lanes 1``); register energy per 128-bit granule = 4 thread operands.
- [A] The SFU uses the FP_SQRT energy (7.54 pJ per thread op; LG 4.85, SIN 5.16, EXP 14.0).
- [A] Static power of an active SM uses the INT+FP category (cat2, 18.618 W first lane +
  0.6452 W per additional lane, over 80 SMs) for every instruction mix; the lane count is the
  launch's average active lanes per warp instruction.
- [A] The constant cache's McPAT base is not in the stored sources: the I-cache base (17.4 /
  68.3 pJ) times CC_H 0.1107 / CC_M 0.1233. Texture accesses are charged per thread texture
  instruction at TEX_ACC (4.45 pJ); the sass_sim XML has no TC_* factors.
- [D] Register-bank leakage is carved out of the static power: 64 banks (256 KB / 4 KB) x
  0.68 mW (CACTI 7, 4 KB x 128-bit, 22 nm, the node nearest AccelWattch's 23 nm) = 43.52 mW
  per SM is moved from ``static`` to ``register_file`` so that bank gating can save it.
"""

from __future__ import annotations

from warpsim.power.table import (
    EnergyEntry,
    EnergyTable,
    StaticEntry,
    StaticScope,
    make_entries,
)

__all__ = ["QV100_ACCELWATTCH"]

_REF = "reference/energy-and-configs.md"
_S26 = f"{_REF} §2.6 AccelWattch QV100 effective (McPAT base x sass_sim XML scale) [C]"

_GRANULE_LANES = 4
_N_SMS = 80
_RF_BANKS_PER_SM = 64
_RF_BANK_LEAK_MW = 0.68

_DYNAMIC: tuple[EnergyEntry, ...] = (
    *make_entries("register_file", f"{_S26}: RF read 24.86 x REG_RD 0.1006 = 2.50 pJ per "
                  "thread operand x 4 per 128-bit granule", {
                      "regfile_granule_reads": 2.50 * _GRANULE_LANES}),
    *make_entries("register_file", f"{_S26}: RF write 15.20 x REG_WR 0.1406 = 2.14 pJ per "
                  "thread operand x 4 per granule", {
                      "regfile_granule_writes": 2.14 * _GRANULE_LANES}),
    *make_entries("alu_int", f"{_S26}: INT 0.462 x INT_ACC 14.99 = 6.92 pJ per thread op", {
        "exec_int32_thread_insts": 6.92}),
    *make_entries("alu_fp", f"{_S26}: FP32 18.85 x FP_ACC 0.530 = 9.99 pJ per thread op", {
        "exec_fp32_thread_insts": 9.99}),
    *make_entries("alu_dp", f"{_S26}: DP 18.85 x DP_ACC 0.777 = 14.65 pJ per thread op", {
        "exec_fp64_thread_insts": 14.65}),
    *make_entries("sfu", f"{_S26}: SFU path 38.67 x FP_SQRT_ACC 0.195 = 7.54 pJ per thread "
                  "op [A]", {"exec_sfu_thread_insts": 7.54}),
    *make_entries("tensor", f"{_S26}: TENSOR_ACC 0.815 -> 31.5 pJ per thread op", {
        "exec_tensor_thread_insts": 31.5}),
    *make_entries("fetch_decode", f"{_S26}: IB + decode 0.588 x TOT_INST 10 = 5.88 pJ per "
                  "decoded warp instruction", {"decode_insts": 5.88}),
    *make_entries("fetch_decode", f"{_S26}: I-cache hit 17.4 x IC_H 8.593 = 149.8 pJ", {
        "l1i_hits": 149.8}),
    *make_entries("fetch_decode", f"{_S26}: I-cache miss 68.3 x IC_M 29.74 = 2032 pJ", {
        "L1I_total_cache_misses": 2032.0}),
    *make_entries("scheduler", f"{_S26}: scheduler 3.71 x FP_INT 4.661 = 17.3 pJ per INT/FP "
                  "decoded warp instruction (DP counted as FP [A])", {
                      "exec_int32_warp_insts": 17.3, "exec_fp32_warp_insts": 17.3,
                      "exec_fp64_warp_insts": 17.3}),
    *make_entries("l1d", f"{_S26}: L1D read hit 51.6 x DC_RH 9.835 = 507 pJ", {
        "l1d_read_hits": 507.0}),
    *make_entries("l1d", f"{_S26}: L1D read miss / write hit / write miss (DC_RM 10.95, "
                  "DC_WH 0.680, DC_WM 17.68)", {"l1d_read_misses": 338.0,
                                                "l1d_write_hits": 37.4,
                                                "l1d_write_misses": 393.0}),
    *make_entries("shared_memory", f"{_S26}: shared memory 144.4 x SHRD_ACC 0.780 = 112.7 pJ "
                  "per warp access cycle (a bank conflict adds a cycle)", {
                      "shmem_warp_accesses": 112.7, "gpgpu_n_shmem_bkconflict": 112.7}),
    *make_entries("constant_cache", f"{_REF} §2.4 CC_H 0.1107 x I-cache McPAT base 17.4 pJ "
                  "[A]", {"l1c_hits": 17.4 * 0.1107}),
    *make_entries("constant_cache", f"{_REF} §2.4 CC_M 0.1233 x I-cache McPAT miss base "
                  "68.3 pJ [A]", {"L1C_total_cache_misses": 68.3 * 0.1233}),
    *make_entries("texture_cache", f"{_S26}: TEX_ACC 0.115 -> 4.45 pJ per thread texture "
                  "instruction", {"gpgpu_n_tex_insn": 4.45}),
    *make_entries("interconnect", f"{_S26}: NoC 2.68 x NOC_A 32.09 = 86.1 pJ per flit", {
        "icnt_flits_to_mem": 86.1, "icnt_flits_to_sm": 86.1}),
    *make_entries("l2", f"{_S26}: L2 RH 1.261 / RM 2.395 / WH 4.125 / WM 1.223 scales", {
        "l2_read_hits": 68.8, "l2_read_misses": 4.48, "l2_write_hits": 269.7,
        "l2_write_misses": 130.0}),
    *make_entries("dram", f"{_S26}: DRAM read command 79495 x MEM_RD 0.02594 = 2062 pJ per "
                  "32-B atom = 8.06 pJ/bit, charged per byte", {"dram_read_bytes": 2062.0 / 32}),
    *make_entries("dram", f"{_S26}: DRAM write command 37492 x MEM_WR 0.03144 = 1179 pJ per "
                  "32 B = 4.61 pJ/bit, charged per byte", {"dram_write_bytes": 1179.0 / 32}),
    *make_entries("dram", f"{_S26}: DRAM precharge 38475 x MEM_PRE 0.00865", {
        "dram_precharges": 333.0}),
)

_STATIC: tuple[StaticEntry, ...] = (
    StaticEntry(component="constant", scope=StaticScope.CHIP, power_mw=32_325.0,
                source=f"{_REF} §2.4 constant_power 32.325 W [S]"),
    StaticEntry(component="idle_sm", scope=StaticScope.IDLE_SM, power_mw=282.8,
                source=f"{_REF} §2.4 idle_core_power 0.2828 W per idle SM [S]"),
    StaticEntry(component="static", scope=StaticScope.ACTIVE_SM,
                power_mw=18_618.0 / _N_SMS - _RF_BANKS_PER_SM * _RF_BANK_LEAK_MW,
                lane_power_mw=645.2 / _N_SMS,
                source=f"{_REF} §2.4-§2.5 static cat2 (INT+FP) 18.618 W first lane + 0.6452 W "
                       f"per extra lane over {_N_SMS} SMs [S]/[D], minus the RF-bank leakage "
                       f"{_RF_BANKS_PER_SM} x {_RF_BANK_LEAK_MW} mW charged to register_file "
                       "[D]"),
    StaticEntry(component="register_file", scope=StaticScope.RF_BANK,
                power_mw=_RF_BANK_LEAK_MW,
                source=f"{_REF} §3.5 CACTI 7, 4 KB x 128-bit bank, 22 nm ITRS-HP: 0.68 mW [C]"),
)

QV100_ACCELWATTCH = EnergyTable(
    name="qv100_accelwattch",
    source=f"AccelWattch (Kandiah et al., MICRO 2021) Accel-Sim "
           f"configs/tested-cfgs/SM7_QV100/accelwattch_sass_sim.xml factors x McPAT (23 nm) "
           f"per-access energies, extracted in {_REF} §2.6; static model §2.5; CACTI 7 bank "
           f"leakage (§3.5)",
    dynamic=_DYNAMIC,
    static=_STATIC,
    regfile_bank_bytes=4096,
)
"""AccelWattch QV100 per-event energies; time in the QV100 core clock (1132 MHz)."""
