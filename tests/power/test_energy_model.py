"""The energy model's arithmetic against hand-computed joules (STYLE.md §2.6, §2.9).

Every expected value is written out from the documented per-event numbers
(reference/energy-and-configs.md §2.3-§2.6, §3.5; specs/warped-compression.md §6.4-§6.5),
never from the model's own output.
"""

from __future__ import annotations

import json
import math

import pytest

from warpsim.arch import GTX480, QV100
from warpsim.errors import ConfigError, InternalError
from warpsim.power import (
    COMPONENTS,
    GTX480_GPUWATTCH,
    GTX480_WARPED_COMPRESSION,
    QV100_ACCELWATTCH,
    EnergyEntry,
    EnergyTable,
    StaticEntry,
    StaticScope,
    energy,
    energy_for_gpu,
    power_counts,
)

REL = 1e-9


def _bank_table(**fields) -> EnergyTable:
    """A one-bank-entry table: 7 pJ per granule read, 5.8 mW leakage per bank."""
    return EnergyTable(
        name="test_bank", source="test",
        dynamic=(EnergyEntry(counter="regfile_granule_reads", component="register_file",
                             energy_pj=7.0, source="WC Table 3"),),
        static=(StaticEntry(component="register_file", scope=StaticScope.RF_BANK,
                            power_mw=5.8, source="WC Table 3"),),
        **fields)


def test_bank_reads_plus_leakage_equal_hand_sum():
    # 1000 granule reads x 7 pJ + 1 SM x 1 bank x 5.8 mW x 1 us (1000 cycles at 1 GHz)
    bd = energy({"regfile_granule_reads": 1000}, _bank_table(), cycles=1000,
                clock_mhz=1000.0, n_sms=1, n_rf_banks_per_sm=1)
    assert bd.seconds == pytest.approx(1e-6, rel=REL)
    assert bd.dynamic_by_component_j["register_file"] == pytest.approx(7e-9, rel=REL)
    assert bd.static_by_component_j["register_file"] == pytest.approx(5.8e-9, rel=REL)
    assert bd.total_j == pytest.approx(7e-9 + 5.8e-9, rel=REL)
    assert bd.avg_power_w == pytest.approx(12.8e-9 / 1e-6, rel=REL)


def test_zero_counters_give_only_static_and_constant_energy():
    # GTX480 table, 15 SMs all idle for 700 cycles at 700 MHz = 1 us:
    # constant 11 W, idle SMs 15 x 1.59 W, RF leakage 15 x 32 banks x 3.26 mW
    bd = energy({}, GTX480_GPUWATTCH, cycles=700, clock_mhz=700.0, n_sms=15,
                active_sm_cycles=0, n_rf_banks_per_sm=32)
    assert bd.dynamic_j == 0.0
    assert bd.static_by_component_j["constant"] == pytest.approx(11.0 * 1e-6, rel=REL)
    assert bd.static_by_component_j["idle_sm"] == pytest.approx(15 * 1.59 * 1e-6, rel=REL)
    assert bd.static_by_component_j["register_file"] == pytest.approx(
        15 * 32 * 3.26e-3 * 1e-6, rel=REL)
    assert bd.total_j == pytest.approx((11.0 + 23.85 + 1.5648) * 1e-6, rel=REL)
    assert bd.avg_power_w == pytest.approx(11.0 + 23.85 + 1.5648, rel=REL)


def test_all_sms_active_have_no_idle_energy():
    bd = energy({"sm_active_cycles": 15 * 700}, GTX480_GPUWATTCH, cycles=700,
                clock_mhz=700.0, n_sms=15, n_rf_banks_per_sm=32)
    assert bd.static_by_component_j["idle_sm"] == 0.0


def test_units_pj_to_joules_and_mw_times_seconds():
    table = EnergyTable(
        name="units", source="test",
        dynamic=(EnergyEntry(counter="decode_insts", component="fetch_decode", energy_pj=1.0,
                             source="1 pJ"),),
        static=(StaticEntry(component="constant", scope=StaticScope.CHIP, power_mw=1.0,
                            source="1 mW"),))
    # 1e12 events x 1 pJ = 1 J; 1 mW for 1 s (1e9 cycles at 1000 MHz) = 1 mJ
    bd = energy({"decode_insts": 10**12}, table, cycles=10**9, clock_mhz=1000.0, n_sms=1)
    assert bd.dynamic_j == pytest.approx(1.0, rel=REL)
    assert bd.static_j == pytest.approx(1e-3, rel=REL)


def test_gtx480_micro_kernel_matches_hand_computed_gpuwattch_energy():
    # One SM, 100 cycles at 700 MHz; 10 warp instructions: 6 INT, 2 FP32, 1 SFU, 1 load.
    # 16 warp-register reads, 9 writes (1024-bit banks = 8 granules each),
    # 1 L1D read miss, 2 flits each way, 1 L2 read miss, one 64-B DRAM read + 1 precharge,
    # 10 decoded instructions, 1 I-cache access (hit), 1 non-RF operand.
    stats = {
        "gpu_sim_cycle": 100, "sm_active_cycles": 100, "decode_insts": 10,
        "exec_int32_warp_insts": 6, "exec_fp32_warp_insts": 2, "exec_sfu_warp_insts": 1,
        "exec_ldst_warp_insts": 1, "regfile_bank_reads": 16, "regfile_bank_writes": 9,
        "regfile_non_rf_operands": 1,
        "L1D_total_cache_accesses": 1, "L1D_total_cache_misses": 1,
        "icnt_flits_to_mem": 2, "icnt_flits_to_sm": 2,
        "L2_total_cache_accesses": 1, "L2_total_cache_misses": 1,
        "dram_reads": 1, "dram_read_bytes": 64, "dram_precharges": 1,
        "L1I_total_cache_accesses": 1,
    }
    bd = energy(stats, GTX480_GPUWATTCH, cycles=100, clock_mhz=700.0, n_sms=1,
                n_rf_banks_per_sm=32)
    pj = 1e-12
    expected = {
        # 7.27 pJ per thread operand x 32 lanes per warp register (= 8 granules x 4), plus
        # the non-RF operand (53.0 pJ x 32): GPUWattch's RFP holds both (core.cc RegFU)
        "register_file": (16 * 7.27 * 32 + 9 * 5.99 * 32 + 1 * 53.0 * 32) * pj,
        # without GPUWattch activity counters: every INT warp instruction, 32 lanes, weight 25
        "alu_int": 6 * 67.4 * 32 * pj,
        "alu_fp": 2 * 29.6 * 32 * pj,
        "sfu": 1 * 48.4 * 25 * 32 * pj,
        "fetch_decode": (10 * 3.61 + 1 * 63.4) * pj,
        "scheduler": (6 + 2) * 54.9 * pj,
        "l1d": 2225.0 * pj,
        "interconnect": 4 * 1939.0 * pj,
        "l2": 102.0 * pj,
        "dram": (26948.0 + 4232.0) * pj,
    }
    for comp, joules in expected.items():
        assert bd.dynamic_by_component_j[comp] == pytest.approx(joules, rel=1e-9), comp
    others = set(COMPONENTS) - set(expected)
    assert all(bd.dynamic_by_component_j[c] == 0 for c in others)
    assert bd.dynamic_j == pytest.approx(sum(expected.values()), rel=1e-9)
    seconds = 100 / 700e6
    assert bd.static_j == pytest.approx((11.0 + 32 * 3.26e-3) * seconds, rel=1e-9)


def test_gtx480_dram_costs_52_6_pj_per_bit():
    bd = energy({"dram_read_bytes": 1000, "dram_write_bytes": 1000}, GTX480_GPUWATTCH,
                cycles=0, clock_mhz=700.0, n_sms=1, n_rf_banks_per_sm=32)
    assert bd.dynamic_by_component_j["dram"] == pytest.approx(
        8000 * (52.6 + 31.0) * 1e-12, rel=2e-3)


def test_granule_counters_override_the_bank_fallback():
    # a compressed read: 1 warp-register access that read 3 granules
    stats = {"regfile_bank_reads": 1, "regfile_granule_reads": 3}
    bd = energy(stats, GTX480_WARPED_COMPRESSION, cycles=0, clock_mhz=1400.0, n_sms=1,
                n_rf_banks_per_sm=32)
    assert bd.dynamic_by_component_j["register_file"] == pytest.approx(3 * 16.6e-12, rel=REL)


def test_zero_granules_with_bank_accesses_is_an_engine_bug():
    with pytest.raises(InternalError, match="regfile_granule_reads"):
        power_counts({"regfile_bank_reads": 5, "regfile_granule_reads": 0})


def test_bank_width_sets_granules_per_access():
    counts = power_counts({"regfile_bank_reads": 10}, granules_per_bank_access=1.0)
    assert counts["regfile_granule_reads"] == 10
    assert counts["regfile_lane_reads"] == 40


def test_cache_misses_split_between_reads_and_writes_by_share():
    # 100 accesses of which 25 writes, 20 misses -> 15 read misses, 5 write misses
    c = power_counts({"L1D_total_cache_accesses": 100, "L1D_total_cache_writes": 25,
                      "L1D_total_cache_misses": 20})
    assert (c["l1d_read_hits"], c["l1d_read_misses"]) == (60, 15)
    assert (c["l1d_write_hits"], c["l1d_write_misses"]) == (20, 5)


def test_inconsistent_cache_counters_raise():
    with pytest.raises(InternalError, match="L2"):
        power_counts({"L2_total_cache_accesses": 1, "L2_total_cache_misses": 2})


def test_gated_bank_cycles_remove_their_leakage():
    table = _bank_table()
    full = energy({}, table, cycles=1000, clock_mhz=1000.0, n_sms=2, n_rf_banks_per_sm=4)
    # 2 SMs x 4 banks x 1000 cycles = 8000 bank-cycles, 2000 of them gated
    half = energy({"regfile_gated_bank_cycles": 2000}, table, cycles=1000, clock_mhz=1000.0,
                  n_sms=2, n_rf_banks_per_sm=4)
    assert full.static_j == pytest.approx(8000 * 5.8e-3 / 1e9, rel=REL)
    assert half.static_j == pytest.approx(6000 * 5.8e-3 / 1e9, rel=REL)
    leaky = energy({"regfile_gated_bank_cycles": 2000}, _bank_table(regfile_gated_leak_frac=0.5),
                   cycles=1000, clock_mhz=1000.0, n_sms=2, n_rf_banks_per_sm=4)
    assert leaky.static_j == pytest.approx(7000 * 5.8e-3 / 1e9, rel=REL)


def test_warped_compression_baseline_equation():
    # spec §6.5: E_base = (N_rd + N_wr) x 16.6 pJ + 32 banks x 5.8 mW x T per SM, T at 1.4 GHz;
    # leakage = 4.143 pJ per bank per cycle (§6.4)
    n_rd, n_wr, cycles, n_sms = 80_000, 40_000, 10_000, 15
    rf_only = GTX480_WARPED_COMPRESSION
    bd = energy({"regfile_granule_reads": n_rd, "regfile_granule_writes": n_wr}, rf_only,
                cycles=cycles, clock_mhz=1400.0, n_sms=n_sms, n_rf_banks_per_sm=32)
    t_s = cycles / 1.4e9
    e_base = (n_rd + n_wr) * 16.6e-12 + n_sms * 32 * 5.8e-3 * t_s
    assert bd.by_component_j["register_file"] == pytest.approx(e_base, rel=1e-9)
    per_bank_cycle = bd.static_by_component_j["register_file"] / (n_sms * 32 * cycles)
    assert per_bank_cycle == pytest.approx(4.143e-12, rel=1e-3)


def test_qv100_active_sm_static_scales_with_active_lanes():
    # 1 SM active for 1132 cycles at 1132 MHz (1 us), 16 lanes per warp instruction on average:
    # (18.618 W / 80 - 64 x 0.68 mW + 15 x 0.6452 W / 80) x 1 us; RF banks 64 x 0.68 mW
    stats = {"gpu_sim_insn": 160, "gpgpu_n_tot_w_icount": 10, "sm_active_cycles": 1132}
    bd = energy(stats, QV100_ACCELWATTCH, cycles=1132, clock_mhz=1132.0, n_sms=1,
                n_rf_banks_per_sm=64)
    expected = (18.618 / 80 - 64 * 0.68e-3 + 15 * 0.6452 / 80) * 1e-6
    assert bd.static_by_component_j["static"] == pytest.approx(expected, rel=1e-9)
    assert bd.static_by_component_j["register_file"] == pytest.approx(64 * 0.68e-3 * 1e-6,
                                                                      rel=1e-9)
    assert bd.static_by_component_j["constant"] == pytest.approx(32.325e-6, rel=1e-9)


def test_qv100_alu_energy_counts_active_lanes():
    stats = {"exec_fp32_thread_insts": 100, "exec_tensor_thread_insts": 10}
    bd = energy(stats, QV100_ACCELWATTCH, cycles=0, clock_mhz=1132.0, n_sms=1,
                n_rf_banks_per_sm=64)
    assert bd.dynamic_by_component_j["alu_fp"] == pytest.approx(100 * 9.99e-12, rel=REL)
    assert bd.dynamic_by_component_j["tensor"] == pytest.approx(10 * 31.5e-12, rel=REL)


@pytest.mark.parametrize("kwargs, field", [
    ({"cycles": -1}, "cycles"),
    ({"clock_mhz": 0.0}, "clock_mhz"),
    ({"n_sms": 0}, "n_sms"),
    ({"active_sm_cycles": 10**9}, "active_sm_cycles"),
])
def test_bad_arguments_raise_config_error_naming_the_field(kwargs, field):
    args = {"cycles": 100, "clock_mhz": 700.0, "n_sms": 1, "n_rf_banks_per_sm": 32} | kwargs
    with pytest.raises(ConfigError) as err:
        energy({}, GTX480_GPUWATTCH, **args)
    assert err.value.field == field


def test_bank_leakage_without_bank_count_asks_for_it():
    with pytest.raises(ConfigError, match="energy_for_gpu"):
        energy({}, GTX480_GPUWATTCH, cycles=1, clock_mhz=700.0, n_sms=1)


def test_to_dict_has_the_record_keys_and_is_json():
    bd = energy({"regfile_granule_reads": 8}, GTX480_GPUWATTCH, cycles=10, clock_mhz=700.0,
                n_sms=1, n_rf_banks_per_sm=32)
    d = json.loads(json.dumps(bd.to_dict()))
    for key in ("total_j", "dynamic_j", "static_j", "by_component", "avg_power_w"):
        assert key in d
    assert "register_file" in d["by_component"]
    assert math.isclose(sum(d["by_component"].values()), d["total_j"], rel_tol=1e-12)
    assert d["dynamic_j"] + d["static_j"] == pytest.approx(d["total_j"], rel=1e-12)
    assert d["by_counter"]["regfile_granule_reads"] == pytest.approx(8 * 29.08e-12, rel=REL)


def test_energy_for_gpu_takes_clock_sms_and_banks_from_the_config():
    stats = {"gpu_sim_cycle": 700, "sm_active_cycles": 15 * 700, "regfile_bank_reads": 1}
    bd = energy_for_gpu(stats, GTX480)
    assert bd.table == "gtx480_gpuwattch"
    assert bd.seconds == pytest.approx(1e-6, rel=REL)
    # 15 SMs x 128 KB / 4 KB = 32 banks each; one 1024-bit read = 8 granules
    assert bd.static_by_component_j["register_file"] == pytest.approx(
        15 * 32 * 3.26e-3 * 1e-6, rel=REL)
    assert bd.dynamic_by_component_j["register_file"] == pytest.approx(8 * 29.08e-12, rel=REL)
    q = energy_for_gpu({"gpu_sim_cycle": 1132}, QV100)
    assert q.table == "qv100_accelwattch"
    assert q.static_by_component_j["register_file"] == pytest.approx(
        80 * 64 * 0.68e-3 * 1e-6, rel=REL)


def test_share_of_dynamic_energy():
    bd = energy({"regfile_granule_reads": 10, "decode_insts": 10}, _bank_table().with_entries(
        (EnergyEntry(counter="decode_insts", component="fetch_decode", energy_pj=3.0,
                     source="t"),)), cycles=0, clock_mhz=1.0, n_sms=1, n_rf_banks_per_sm=1)
    assert bd.share("register_file", dynamic_only=True) == pytest.approx(0.7, rel=REL)
    with pytest.raises(ConfigError):
        bd.share("regfile")


_COUNTERS = ("regfile_granule_reads", "regfile_granule_writes", "exec_int32_warp_insts",
             "exec_fp32_warp_insts", "decode_insts", "icnt_flits_to_sm", "dram_read_bytes",
             "shmem_warp_accesses", "L1I_total_cache_accesses")


def _linear_stats(values):
    stats = dict(zip(_COUNTERS, values, strict=True))
    return stats


def test_dynamic_energy_is_linear_in_the_counts():
    from hypothesis import given, settings
    from hypothesis import strategies as st

    counts = st.lists(st.integers(0, 10**9), min_size=len(_COUNTERS), max_size=len(_COUNTERS))

    @settings(max_examples=50, deadline=None)
    @given(counts, counts)
    def check(a, b):
        kw = {"cycles": 1000, "clock_mhz": 700.0, "n_sms": 15, "n_rf_banks_per_sm": 32}
        ea = energy(_linear_stats(a), GTX480_GPUWATTCH, **kw)
        eb = energy(_linear_stats(b), GTX480_GPUWATTCH, **kw)
        ab = energy(_linear_stats([x + y for x, y in zip(a, b, strict=True)]),
                    GTX480_GPUWATTCH, **kw)
        assert ab.dynamic_j == pytest.approx(ea.dynamic_j + eb.dynamic_j, rel=1e-9, abs=1e-18)
        assert ab.static_j == pytest.approx(ea.static_j, rel=1e-12)
        for c in ab.components:
            assert ab.by_component_j[c] >= 0

    check()


def test_lane_gated_gtx480_charges_active_lanes_only():
    from warpsim.power import GTX480_GPUWATTCH_LANE_GATED

    # one INT warp instruction with 8 active lanes
    stats = {"exec_int32_warp_insts": 1, "exec_int32_thread_insts": 8}
    kw = {"cycles": 0, "clock_mhz": 700.0, "n_sms": 1, "n_rf_banks_per_sm": 32}
    gated = energy(stats, GTX480_GPUWATTCH_LANE_GATED, **kw)
    full = energy(stats, GTX480_GPUWATTCH, **kw)
    assert gated.dynamic_by_component_j["alu_int"] == pytest.approx(8 * 67.4e-12, rel=REL)
    assert full.dynamic_by_component_j["alu_int"] == pytest.approx(32 * 67.4e-12, rel=REL)
    assert gated.dynamic_by_component_j["scheduler"] == pytest.approx(54.9e-12, rel=REL)


def test_saving_fractions_as_the_papers_state_them():
    from warpsim.power import saving_frac

    kw = {"cycles": 1000, "clock_mhz": 1000.0, "n_sms": 1, "n_rf_banks_per_sm": 1}
    base = energy({"regfile_granule_reads": 1000, "dram_read_bytes": 100}, _bank_table(), **kw)
    new = energy({"regfile_granule_reads": 250, "dram_read_bytes": 100}, _bank_table(), **kw)
    # RF: (1000 x 7 pJ + 5.8 nJ) -> (250 x 7 pJ + 5.8 nJ)
    assert saving_frac(base, new, component="register_file") == pytest.approx(
        1 - (1.75 + 5.8) / (7.0 + 5.8), rel=REL)
    assert saving_frac(base, new, component="register_file", part="dynamic") == \
        pytest.approx(0.75, rel=REL)
    assert saving_frac(base, new, part="sm") == pytest.approx(
        saving_frac(base, new), rel=REL)  # no chip-level component charged in this table
    with pytest.raises(ConfigError):
        saving_frac(base, new, part="gpu")
    with pytest.raises(ConfigError):
        saving_frac(base, new, component="regfile")


def test_sm_energy_excludes_memory_side_and_constant_power():
    bd = energy({"icnt_flits_to_sm": 10, "decode_insts": 10}, GTX480_GPUWATTCH, cycles=700,
                clock_mhz=700.0, n_sms=1, n_rf_banks_per_sm=32)
    expected = 10 * 3.61e-12 + 32 * 3.26e-3 * 1e-6
    assert bd.sm_j == pytest.approx(expected, rel=1e-9)
