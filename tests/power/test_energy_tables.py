"""Energy-table presets: every entry sourced and charged to a declared counter (STYLE §2.6)."""

from __future__ import annotations

import pytest

from warpsim.arch import PRESETS
from warpsim.errors import ConfigError
from warpsim.power import (
    CACTI_BANKS,
    COMPONENTS,
    DERIVATION_RULES,
    ENERGY_TABLES,
    GTX480_GPUWATTCH,
    POWER_COUNTERS,
    POWER_REGISTRY,
    QV100_ACCELWATTCH,
    REGLESS_CLAIMS,
    WARPED_COMPRESSION_TABLE3,
    WIR_TABLE3,
    XIANG_TABLE2,
    EnergyEntry,
    cacti_bank,
    get_energy_table,
    regfile_entries_from_bank,
    regless_capacity_ratio,
    table_for_gpu,
)
from warpsim.stats import BASELINE

TABLES = list(ENERGY_TABLES.values())


@pytest.mark.parametrize("table", TABLES, ids=lambda t: t.name)
def test_every_entry_has_a_source_and_a_declared_counter(table):
    for e in table.dynamic:
        assert e.counter in POWER_REGISTRY, (table.name, e.counter)
        assert e.component in COMPONENTS
        assert e.source.strip() and e.energy_pj >= 0
    for s in table.static:
        assert s.component in COMPONENTS and s.source.strip() and s.power_mw >= 0
    assert table.source.strip()


@pytest.mark.parametrize("table", TABLES, ids=lambda t: t.name)
def test_every_table_charges_the_register_file_and_memory(table):
    comps = {e.component for e in table.dynamic}
    assert {"register_file", "alu_int", "alu_fp", "l1d", "l2", "dram", "interconnect",
            "fetch_decode", "scheduler"} <= comps


def test_power_counters_are_new_and_each_has_a_derivation():
    base = {c.name for c in BASELINE}
    names = [c.name for c in POWER_COUNTERS]
    assert len(set(names)) == len(names)
    assert not base & set(names)
    assert set(DERIVATION_RULES) == set(names)


def test_gtx480_warp_register_read_is_232_pj_and_write_192_pj():
    # reference §0: 232.5 / 191.6 pJ per full-warp operand = 8 granules
    assert 8 * GTX480_GPUWATTCH.energy_pj("regfile_granule_reads") == pytest.approx(232.5,
                                                                                  rel=2e-3)
    assert 8 * GTX480_GPUWATTCH.energy_pj("regfile_granule_writes") == pytest.approx(191.6,
                                                                                   rel=2e-3)


def test_qv100_warp_register_read_is_80_pj_and_write_68_pj():
    assert 8 * QV100_ACCELWATTCH.energy_pj("regfile_granule_reads") == pytest.approx(80.0)
    assert 8 * QV100_ACCELWATTCH.energy_pj("regfile_granule_writes") == pytest.approx(68.48)


def test_paper_tables_match_the_specs():
    assert WARPED_COMPRESSION_TABLE3.bank_plus_wire_pj == pytest.approx(16.6)
    assert 8 * WARPED_COMPRESSION_TABLE3.bank_plus_wire_pj == pytest.approx(132.8)
    assert WIR_TABLE3.max_overhead_pj_per_inst == pytest.approx(51.0, abs=0.5)
    assert XIANG_TABLE2.vrf_lane_read_pj == 2.46 and XIANG_TABLE2.srf_static_mw == 1.0
    assert REGLESS_CLAIMS.regfile_energy_saving_frac == 0.753
    assert regless_capacity_ratio(512) == pytest.approx(0.245, abs=1e-3)


def test_cacti_lookup_and_entries():
    bank = cacti_bank(4096, 128, 40)
    assert (bank.read_pj, bank.write_pj, bank.leak_mw) == (2.95, 7.79, 3.26)
    assert len(CACTI_BANKS) == 9 * 5
    dyn, leak = regfile_entries_from_bank(cacti_bank(8192, 1024, 40), wire_pj_per_granule=9.6,
                                          wire_source="WC Table 3")
    assert dyn[0].energy_pj == pytest.approx(61.9 / 8 + 9.6)
    assert leak.power_mw == 6.16
    with pytest.raises(ConfigError, match="nodes"):
        cacti_bank(4096, 128, 7)


def test_scaled_table_multiplies_one_component():
    t = GTX480_GPUWATTCH.scaled("register_file", 2.5)
    assert t.energy_pj("regfile_granule_reads") == pytest.approx(
        2.5 * GTX480_GPUWATTCH.energy_pj("regfile_granule_reads"))
    assert t.energy_pj("decode_insts") == GTX480_GPUWATTCH.energy_pj("decode_insts")
    assert t.name != GTX480_GPUWATTCH.name


def test_duplicate_entry_for_a_counter_and_component_is_rejected():
    e = EnergyEntry(counter="decode_insts", component="fetch_decode", energy_pj=1, source="s")
    with pytest.raises(ConfigError):
        GTX480_GPUWATTCH.with_entries((e, e))


def test_unknown_component_and_missing_source_are_rejected():
    with pytest.raises(ConfigError, match="component"):
        EnergyEntry(counter="decode_insts", component="regfile", energy_pj=1, source="s")
    with pytest.raises(ConfigError, match="source"):
        EnergyEntry(counter="decode_insts", component="fetch_decode", energy_pj=1, source=" ")


def test_every_gpu_preset_has_a_default_table():
    for name in PRESETS:
        assert table_for_gpu(name).name in ENERGY_TABLES
    assert table_for_gpu("gtx480") is GTX480_GPUWATTCH
    assert table_for_gpu("qv100") is QV100_ACCELWATTCH
    with pytest.raises(ConfigError, match="gtx480_gpuwattch"):
        get_energy_table("gtx480-gpuwattch")


def test_xiang_table_charges_lanes_instead_of_granules():
    from warpsim.power import GTX480_XIANG_VRF, energy

    assert GTX480_XIANG_VRF.energy_pj("regfile_granule_reads") == 0
    # one full warp register read through the fallback: 8 granules = 32 lanes x 2.46 pJ
    bd = energy({"regfile_bank_reads": 1}, GTX480_XIANG_VRF, cycles=0, clock_mhz=700.0,
                n_sms=1)
    assert bd.dynamic_by_component_j["register_file"] == pytest.approx(32 * 2.46e-12)


def test_describe_lists_every_entry_with_its_source():
    rows = GTX480_GPUWATTCH.describe()
    assert len(rows) == len(GTX480_GPUWATTCH.dynamic) + len(GTX480_GPUWATTCH.static)
    assert all(r["source"] for r in rows)


def test_entry_with_the_same_counter_may_charge_two_components():
    t = GTX480_GPUWATTCH.with_entries(
        (EnergyEntry(counter="exec_int32_warp_insts", component="alu_int", energy_pj=1.0,
                     source="test"),
         EnergyEntry(counter="exec_int32_warp_insts", component="scheduler", energy_pj=2.0,
                     source="test")))
    assert t.energy_pj("exec_int32_warp_insts") == pytest.approx(3.0)
    assert {e.component for e in t.dynamic if e.counter == "exec_int32_warp_insts"} == {
        "alu_int", "scheduler"}


def test_gtx480_charges_gpuwattch_activity_units():
    # SP_ACC unit = 1.132 x 2.38 pJ (67.4 / 25 per lane-weight), FPU 29.6, SFU 48.4,
    # FP_INT 54.9 per decoded warp instruction, NON_REG_OPs 53.0 x 32 in the RF (RFP)
    t = GTX480_GPUWATTCH
    assert t.energy_pj("gpuwattch_sp_acc") == pytest.approx(67.4 / 25)
    assert t.energy_pj("gpuwattch_fpu_acc") == pytest.approx(29.6)
    assert t.energy_pj("gpuwattch_sfu_acc") == pytest.approx(48.4)
    assert t.energy_pj("gpuwattch_fp_int_insts") == pytest.approx(54.9)
    assert [e.component for e in t.dynamic if e.counter == "gpuwattch_non_rf_operands"] == [
        "register_file"]
    assert t.energy_pj("gpuwattch_non_rf_operands") == pytest.approx(1696.0)
