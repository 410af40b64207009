"""An enabled mechanism's units are charged by ``energy_for_gpu`` without the caller asking,
and Warped-Compression's statistics reach the register-file terms (hand-computed values)."""

from __future__ import annotations

import pytest

from warpsim.arch import apply_overrides
from warpsim.arch.presets import get_preset
from warpsim.mechanisms.warped_compression.mechanism import _power_counters
from warpsim.power import energy_for_gpu

STATS = {"gpu_sim_cycle": 1400, "gpgpu_n_tot_w_icount": 100, "gpu_sim_insn": 3200,
         "wc_comp_activations": 10, "wc_decomp_activations": 20}


def test_enabled_warped_compression_charges_its_units():
    base = get_preset("gtx480")
    wc = apply_overrides(base, ["warped_compression.enabled=true"])
    on = energy_for_gpu(STATS, wc)
    off = energy_for_gpu(STATS, base)
    assert "warped_compression" not in off.dynamic_by_component_j
    # Table 3: 23 pJ per compression, 21 pJ per decompression
    assert on.dynamic_by_component_j["warped_compression"] == pytest.approx(
        (10 * 23.0 + 20 * 21.0) * 1e-12)
    # 2 x 0.12 mW + 4 x 0.08 mW per SM, 15 SMs, 1400 cycles at the preset's clock
    seconds = 1400 / (base.clocks.core_mhz * 1e6)
    assert on.static_by_component_j["warped_compression"] == pytest.approx(
        (2 * 0.12 + 4 * 0.08) * 1e-3 * 15 * seconds)
    for comp, joules in off.dynamic_by_component_j.items():
        assert on.dynamic_by_component_j[comp] == joules


def test_power_counters_convert_gated_banks_to_4k_banks():
    cfg = apply_overrides(get_preset("gtx480"), ["sm.n_registers=65536"])
    out = {"wc_bank_reads": 45, "wc_bank_writes": 17, "wc_gated_bank_cycles": 300}
    # 65536 x 4 B / 32 banks = 8 KB per bank = two 4 KB banks of the energy tables
    assert _power_counters(out, cfg) == {"regfile_granule_reads": 45,
                                         "regfile_granule_writes": 17,
                                         "regfile_gated_bank_cycles": 600}


def test_wc_register_file_energy_equals_hand_sum_and_baseline_is_unchanged():
    """GTX480 GPUWattch table by hand: a granule read 4 x 7.27 pJ, a granule write 4 x 5.99 pJ,
    a 4 KB bank leaks 3.26 mW; 15 SMs x 32 banks, 1400 cycles at 700 MHz = 2 us."""
    base_cfg = get_preset("gtx480")
    wc_cfg = apply_overrides(base_cfg, ["warped_compression.enabled=true"])
    common = {"gpu_sim_cycle": 1400, "regfile_bank_reads": 10, "regfile_bank_writes": 5}
    wc_out = {"wc_bank_reads": 45, "wc_bank_writes": 17, "wc_gated_bank_cycles": 3000}
    wc_stats = {**common, **wc_out, **_power_counters(wc_out, wc_cfg)}
    seconds = 1400 / 700e6
    bank_s = 15 * 32 * seconds  # bank-seconds of the whole chip

    base = energy_for_gpu(common, base_cfg)
    # baseline: 8 granules per warp-register access, every bank leaks all the time
    assert base.dynamic_by_component_j["register_file"] == pytest.approx(
        (10 * 8 * 4 * 7.27 + 5 * 8 * 4 * 5.99) * 1e-12)
    assert base.static_by_component_j["register_file"] == pytest.approx(3.26e-3 * bank_s)

    wc = energy_for_gpu(wc_stats, wc_cfg)
    # WC: the 128-bit bank accesses of the compressed images, and 3000 gated bank-cycles
    assert wc.dynamic_by_component_j["register_file"] == pytest.approx(
        (45 * 4 * 7.27 + 17 * 4 * 5.99) * 1e-12)
    assert wc.static_by_component_j["register_file"] == pytest.approx(
        3.26e-3 * (bank_s - 3000 / 700e6))
    # the units (Table 3): no comp/decomp activations here, only their leakage
    assert wc.dynamic_by_component_j["warped_compression"] == 0.0
    assert wc.static_by_component_j["warped_compression"] == pytest.approx(
        (2 * 0.12 + 4 * 0.08) * 1e-3 * 15 * seconds)
    # the baseline is what it was before any mechanism existed: no mechanism component
    assert energy_for_gpu(common, base_cfg, mechanisms=()).to_dict() == base.to_dict()


def test_every_shipped_table_uses_the_bank_size_wc_converts_to():
    from warpsim.mechanisms.warped_compression.mechanism import POWER_BANK_BYTES
    from warpsim.power import ENERGY_TABLES

    for name, table in ENERGY_TABLES.items():
        assert table.regfile_bank_bytes == POWER_BANK_BYTES, name
