"""GPUWattch-derived energy table for the GTX480 (Fermi GF100, 40 nm) baseline.

Follows: reference/energy-and-configs.md §2.1 (counter -> component mapping), §2.3 (GTX480
XML scaling factors, idle-SM power, CONST_DYNAMICN), §2.6 (effective per-event energies =
McPAT base x scaling factor, tag [C]), §2.7 caveat 2 (INT weight 25 for 2013-era results),
§3.5 (CACTI 7 bank leakage, 40 nm).

Assumptions:
- [A] Like GPUWattch's default (``-gpgpu_clock_gated_lanes 0``, ``-gpgpu_clock_gated_reg_file
  0``), register energy is charged for all 8 granules of every warp register and ALU energy
  for inactive lanes too (at half weight, GPGPU-Sim ``inactive_lanes_accesses_*``); the
  lane-gated variant charges active lanes only.
- ALU, SFU and scheduler energy are charged per GPUWattch activity unit
  (``gpuwattch_sp_acc``, ``_fpu_acc``, ``_sfu_acc``, ``_fp_int_insts``, computed per opcode by
  ``power.activity`` as GPGPU-Sim 3.x does, INT weight 25 as calibrated in 2013, §2.7).
  Without those counters ``power_counts`` falls back to the per-pipeline counters: every
  INT warp instruction at weight 25, every SFU one at the SQRT weight 25 [A], all 32 lanes.
- ``register_file`` is GPUWattch's RFP: bank reads/writes (REG_RD/REG_WR, whose read
  coefficient already includes the RF->collector crossbar, arbiter and collector) and the
  non-RF operands (NON_REG_OPs) that GPUWattch routes through the same collector, crossbar and
  arbiter (``RegFU::computeEnergy``, src/gpuwattch/core.cc).
- [A] The stored sources give no McPAT base energy for the constant and texture caches: the
  constant cache uses the I-cache base (a small read-only array) and the texture cache the L1D
  base, each times GPUWattch's own CC_* / TC_* scaling factors (§2.3).
- [A] The regression constant CONST_DYNAMICN = 11 W is charged whole (GPUWattch subtracts
  McPAT's own constant-dynamic estimate, which warpsim does not have).
Deviations: GPUWattch adds no leakage for active SMs; warpsim adds register-bank leakage from
CACTI 7 (4 KB x 128-bit bank, 40 nm, ITRS-HP: 3.26 mW) so that bank gating has something to
save, 32 banks x 3.26 mW = 104 mW per SM (§3.5 "Leakage vs dynamic").
"""

from __future__ import annotations

from warpsim.power.table import (
    EnergyEntry,
    EnergyTable,
    StaticEntry,
    StaticScope,
    make_entries,
)

__all__ = ["GTX480_GPUWATTCH", "GTX480_GPUWATTCH_LANE_GATED"]

_REF = "reference/energy-and-configs.md"
_S26 = f"{_REF} §2.6 GPUWattch GTX480 effective (McPAT base x XML scale) [C]"

_RF_READ_PJ_PER_THREAD = 7.27
"""51.91 pJ McPAT base x REG_RD 0.14 (§2.6)."""
_RF_WRITE_PJ_PER_THREAD = 5.99
"""28.51 pJ x REG_WR 0.21 (§2.6)."""
_LANES = 32
"""GPUWattch counts warp_size per warp operand and per warp instruction (§2.1)."""
_GRANULE_LANES = 4
"""Thread operands per 128-bit granule."""

_ICACHE_BASE_HIT_PJ, _ICACHE_BASE_MISS_PJ = 29.6, 96.5
_L1D_BASE_HIT_PJ, _L1D_BASE_MISS_PJ = 132.5, 90.2

_DYNAMIC: tuple[EnergyEntry, ...] = (
    *make_entries("register_file", f"{_S26}: RF read 7.27 pJ per thread operand (REG_RD; banks "
                  "+ RF->collector crossbar + arbiter + collector, §2.6 'Structure') x 4 "
                  "thread operands per 128-bit granule", {
                      "regfile_granule_reads": _RF_READ_PJ_PER_THREAD * _GRANULE_LANES}),
    *make_entries("register_file", f"{_S26}: RF write 5.99 pJ per thread operand (REG_WR) x 4 "
                  "per granule", {
                      "regfile_granule_writes": _RF_WRITE_PJ_PER_THREAD * _GRANULE_LANES}),
    *make_entries("register_file", f"{_S26}: non-RF operand 25.12 pJ per thread (RF->collector "
                  "crossbar/32 + arbiter/32 + collector, the read coefficient less its bank "
                  "term) x NON_REG_OPs 2.11 = 53.0 pJ x 32 per warp operand (§2.1). GPUWattch "
                  "charges it to RFP: RegFU::computeEnergy adds non_rf_operands to the OPC, "
                  "xbar_rfu and arbiter_rfu accesses (src/gpuwattch/core.cc)", {
                      "gpuwattch_non_rf_operands": 53.0 * _LANES}),
    *make_entries("alu_int", f"{_S26}: INT 1.132 pJ x SP_ACC 2.38 = 2.696 pJ per SP_ACC unit "
                  "(67.4 pJ per thread op at the 2013 weight 25, §2.7); units = lanes x "
                  "incexecstat weight, inactive lanes at half (power.activity)", {
                      "gpuwattch_sp_acc": 67.4 / 25}),
    *make_entries("alu_fp", f"{_S26}: FPU 46.22 x FPU_ACC 0.64 = 29.6 pJ per FPU_ACC unit "
                  "(FP 1, FP_MUL 1.8, FP_DIV 48, IMUL 7.2, IMUL24 4.2 per lane; f64 goes the "
                  "same path: GPUWattch has no DP counter)", {"gpuwattch_fpu_acc": 29.6}),
    *make_entries("sfu", f"{_S26}: SFU 94.81 x SFU_ACC 0.51 = 48.4 pJ per SFU_ACC unit "
                  "(IMUL32 4, IDIV 40, SQRT 25, LG 35, SIN 12, EXP 35 per lane)", {
                      "gpuwattch_sfu_acc": 48.4}),
    *make_entries("fetch_decode", f"{_S26}: IB + decode 1.81 x TOT_INST 2.0 = 3.61 pJ per "
                  "decoded warp instruction", {"decode_insts": 3.61}),
    *make_entries("fetch_decode", f"{_S26}: I-cache hit 29.6 x IC_H 2.14 = 63.4 pJ", {
        "l1i_hits": 63.4}),
    *make_entries("fetch_decode", f"{_S26}: I-cache miss 96.5 x IC_M 22.47 = 2169 pJ", {
        "L1I_total_cache_misses": 2169.0}),
    *make_entries("scheduler", f"{_S26}: scheduler 12.01 x FP_INT 4.57 = 54.9 pJ per INT- or "
                  "FP-class decoded warp instruction (FP_INT)", {
                      "gpuwattch_fp_int_insts": 54.9}),
    *make_entries("l1d", f"{_S26}: L1D read hit (incl. coalescer) 132.5 x DC_RH 22.14", {
        "l1d_read_hits": 2935.0}),
    *make_entries("l1d", f"{_S26}: L1D read miss / write hit / write miss (DC_RM 24.66, "
                  "DC_WH 1.53, DC_WM 39.79)", {"l1d_read_misses": 2225.0,
                                               "l1d_write_hits": 220.0,
                                               "l1d_write_misses": 2604.0}),
    *make_entries("shared_memory", f"{_S26}: shared memory 301.1 x SHRD_ACC 7.04 = 2119 pJ "
                  "per warp access cycle (a bank conflict adds a cycle, §2.1)", {
                      "shmem_warp_accesses": 2119.0, "gpgpu_n_shmem_bkconflict": 2119.0}),
    *make_entries("constant_cache", f"{_REF} §2.3 CC_H 11.07 x I-cache McPAT base 29.6 pJ "
                  "(no constant-cache base in the stored sources) [A]", {
                      "l1c_hits": _ICACHE_BASE_HIT_PJ * 11.07}),
    *make_entries("constant_cache", f"{_REF} §2.3 CC_M 12.33 x I-cache McPAT miss base "
                  "96.5 pJ [A]", {"L1C_total_cache_misses": _ICACHE_BASE_MISS_PJ * 12.33}),
    *make_entries("texture_cache", f"{_REF} §2.3 TC_H 10.21 x L1D McPAT read-hit base "
                  "132.5 pJ (no texture base in the stored sources) [A]", {
                      "l1t_hits": _L1D_BASE_HIT_PJ * 10.21}),
    *make_entries("texture_cache", f"{_REF} §2.3 TC_M 24.66 x L1D McPAT read-miss base "
                  "90.2 pJ [A]", {"L1T_total_cache_misses": _L1D_BASE_MISS_PJ * 24.66}),
    *make_entries("interconnect", f"{_S26}: NoC 6.35 x NOC_A 305.48 = 1939 pJ per 40-B flit",
                  {"icnt_flits_to_mem": 1939.0, "icnt_flits_to_sm": 1939.0}),
    *make_entries("l2", f"{_S26}: L2 RH 13.79 / RM 35.18 / WH 43.07 / WM 28.72 scales", {
        "l2_read_hits": 2805.0, "l2_read_misses": 102.0, "l2_write_hits": 13851.0,
        "l2_write_misses": 15024.0}),
    *make_entries("dram", f"{_S26}: DRAM read command 81662 x MEM_RD 0.33 = 26948 pJ per 64-B "
                  "atom = 52.6 pJ/bit, charged per byte", {"dram_read_bytes": 26948.0 / 64}),
    *make_entries("dram", f"{_S26}: DRAM write command 39662 x MEM_WR 0.40 = 15865 pJ per "
                  "64 B = 31.0 pJ/bit, charged per byte", {"dram_write_bytes": 15865.0 / 64}),
    *make_entries("dram", f"{_S26}: DRAM precharge 38475 x MEM_PRE 0.11", {
        "dram_precharges": 4232.0}),
)

_STATIC: tuple[StaticEntry, ...] = (
    StaticEntry(component="constant", scope=StaticScope.CHIP, power_mw=11_000.0,
                source=f"{_REF} §2.3 CONST_DYNAMICN 11 W (GPUWattch regression constant; "
                       "charged whole [A])"),
    StaticEntry(component="idle_sm", scope=StaticScope.IDLE_SM, power_mw=1590.0,
                source=f"{_REF} §2.3 idle_core_power 1.59 W per idle SM [S]"),
    StaticEntry(component="register_file", scope=StaticScope.RF_BANK, power_mw=3.26,
                source=f"{_REF} §3.5 CACTI 7, 4 KB x 128-bit bank, 40 nm ITRS-HP, 350 K: "
                       "3.26 mW leakage [C] (warpsim addition: GPUWattch reports no leakage)"),
)

GTX480_GPUWATTCH = EnergyTable(
    name="gtx480_gpuwattch",
    source=f"GPUWattch (Leng et al., ISCA 2013) GTX480 40 nm: GPGPU-Sim "
           f"configs/tested-cfgs/SM2_GTX480/gpuwattch_gtx480.xml scaling factors x McPAT "
           f"per-access energies, extracted in {_REF} §2.6; CACTI 7 RF-bank leakage (§3.5)",
    dynamic=_DYNAMIC,
    static=_STATIC,
    regfile_bank_bytes=4096,
)
"""GPUWattch GTX480 (40 nm) per-event energies; time in the GTX480 core clock (700 MHz)."""

GTX480_GPUWATTCH_LANE_GATED: EnergyTable = GTX480_GPUWATTCH.with_entries(
    (
        *make_entries("alu_int", f"{_S26}: 2.696 pJ per SP_ACC unit of active lanes only "
                      "(-gpgpu_clock_gated_lanes 1)", {"gpuwattch_sp_acc_active": 67.4 / 25}),
        *make_entries("alu_fp", f"{_S26}: 29.6 pJ per FPU_ACC unit of active lanes", {
            "gpuwattch_fpu_acc_active": 29.6}),
        *make_entries("sfu", f"{_S26}: 48.4 pJ per SFU_ACC unit of active lanes", {
            "gpuwattch_sfu_acc_active": 48.4}),
    ),
    drop_counters=("gpuwattch_sp_acc", "gpuwattch_fpu_acc", "gpuwattch_sfu_acc"),
    name="gtx480_gpuwattch_lane_gated",
    source=f"{GTX480_GPUWATTCH.source}; ALU energy per active lane (GPGPU-Sim "
           "-gpgpu_clock_gated_lanes 1; GPUWattch case study: lane clock gating, §1.1)",
)
"""GTX480 GPUWattch with clock-gated inactive lanes: ALU energy per active thread."""
