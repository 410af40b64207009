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
