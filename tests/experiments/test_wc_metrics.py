"""Aggregation of the Warped-Compression paper's metrics (spec §4, §9, A3) on synthetic counter
dicts, against values computed by hand."""

from __future__ import annotations

import pytest

from warpsim.experiments.wc_energy import RFEnergyParams
from warpsim.experiments.wc_metrics import benchmark_metrics, compression_ratio, mean_metrics


def test_compression_ratio_is_bank_granular_aggregate():
    assert compression_ratio([1, 1, 1, 1]) == pytest.approx(32 / 17)       # 8*4 / (1+3+5+8)
    assert compression_ratio([1, 1, 1, 1], byte=True) == pytest.approx(512 / 233)
    assert compression_ratio([10, 0, 0, 0]) == pytest.approx(8.0)           # all <4,0>
    assert compression_ratio([10, 0, 0, 0], byte=True) == pytest.approx(32.0)
    assert compression_ratio([0, 0, 0, 7]) == pytest.approx(1.0)
    assert compression_ratio([0, 0, 0, 0]) is None


def _wc_stats(**extra):
    s = {"wc_warp_insts_nondiv": 790, "wc_warp_insts_div": 210, "wc_mov_insts": 15,
         "wc_enc_nondiv_0": 20, "wc_enc_nondiv_1": 40, "wc_enc_nondiv_2": 20,
         "wc_enc_nondiv_3": 20, "wc_enc_div_3": 30,
         "wc_whatif_enc_div_1": 10, "wc_whatif_enc_div_3": 20,
         "wc_sim_nondiv_zero": 30, "wc_sim_nondiv_128": 40, "wc_sim_nondiv_32k": 9,
         "wc_sim_nondiv_random": 21, "wc_sim_div_random": 30,
         "wc_bdi_full_4_0": 20, "wc_bdi_full_8_1": 5, "wc_bdi_full_4_1": 35,
         "wc_bdi_full_unc": 40,
         "wc_bank_reads": 500, "wc_bank_writes": 200, "wc_mov_bank_reads": 20,
         "wc_mov_bank_writes": 80, "wc_base_bank_reads": 800, "wc_base_bank_writes": 400,
         "wc_comp_activations": 100, "wc_decomp_activations": 60,
         "wc_bank_cycles": 32 * 1000, "wc_gated_bank_cycles": 3200,
         "wc_gated_bank_cycles_resident": 1600, "wc_gated_bank_cycles_b7": 1000,
         "wc_compressed_regs_nondiv": 600, "wc_allocated_regs_nondiv": 1000,
         "wc_compressed_regs_div": 0, "wc_allocated_regs_div": 0,
         "gpu_tot_sim_cycle": 1001}
    s.update(extra)
    return s


BASE = {"regfile_bank_reads": 100, "regfile_bank_writes": 50, "gpu_tot_sim_cycle": 1000}


def test_benchmark_metrics_by_hand():
    m = benchmark_metrics(BASE, _wc_stats(), RFEnergyParams(), 1)
    assert m["compression_ratio_nondivergent"] == pytest.approx(800 / (20 + 120 + 100 + 160))
    assert m["compression_ratio_divergent"] == pytest.approx(240 / (30 + 160))
    assert m["compression_ratio_stored"] == pytest.approx(1040 / (400 + 240))
    assert m["compression_ratio_all_whatif"] == pytest.approx(1040 / (20 + 150 + 100 + 320))
    assert m["compression_ratio_full_bdi"] == pytest.approx(800 / (20 + 10 + 105 + 320))
    assert m["nondivergent_instruction_fraction"] == pytest.approx(0.79)
    assert m["dummy_mov_fraction"] == pytest.approx(0.015)
    assert m["execution_time_increase"] == pytest.approx(0.001)
    assert m["sim_nondiv_random_fraction"] == pytest.approx(0.21)
    assert m["sim_div_random_fraction"] == pytest.approx(1.0)
    assert m["sim_div_zero_fraction"] == 0.0
    assert m["bdi_full_8_1_fraction"] == pytest.approx(0.05)
    assert m["gated_bank_cycle_fraction"] == pytest.approx(0.1)
    assert m["gated_bank_cycle_fraction_resident"] == pytest.approx(0.05)
    assert m["gated_fraction_b7"] == pytest.approx(1.0)
    assert m["gated_fraction_b0"] == 0.0
    assert m["compressed_reg_fraction_nondivergent"] == pytest.approx(0.6)
    assert m["compressed_reg_fraction_divergent"] is None          # never diverged: N/A
    assert m["banks_per_access"] == pytest.approx((700 - 100) / 150)
    assert m["base_access_agreement"] == pytest.approx(1.0)        # 1200 = 8 x 150
    # Fig. 9 breakdown sums to the WC total over the baseline total
    parts = sum(m[k] for k in ("wc_leakage_norm", "wc_dynamic_norm", "wc_comp_norm",
                               "wc_decomp_norm"))
    assert parts == pytest.approx(1 - m["rf_energy_saving"])
    assert m["base_leakage_norm"] + m["base_dynamic_norm"] == pytest.approx(1.0)


def test_mean_is_arithmetic_and_skips_missing():
    rows = [{"a": 1.0, "b": None}, {"a": 3.0, "b": 2.0}, {"a": float("nan"), "b": 4.0}]
    assert mean_metrics(rows) == {"a": 2.0, "b": 3.0}
    assert mean_metrics(rows, ["c"]) == {"c": None}
