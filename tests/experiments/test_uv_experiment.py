"""The uniform-vector reproduction's bookkeeping with a stand-in runner (no simulation):
the issue's JSON keys, speedups, energy savings, Fig. 2 ratios and geometric means from
hand-picked numbers, and the registered reproduction."""

from __future__ import annotations

import json

import pytest

from warpsim.experiments.uniform_vectors import MAIN, run_experiment
from warpsim.experiments.uv_analysis import gm_ratio, redundancy, rf_alu_energy_pj
from warpsim.experiments.uv_runs import BenchSel
from warpsim.runner.reproduce import list_reproductions

CYCLES = {"base": 1000, "intra_token": 900, "inter_token": 950, "combined_token": 800,
          "intra_srf": 920, "inter_srf": 950, "combined_srf": 850, "reliable_token": 800,
          "reliable_srf": 850, "oracle_token": 780, "nobcast_token": 820, "wb_srf": 860,
          "norename_srf": 840, "irb_faults_token": 810}


def _fake(sel, config, extra=()):
    c = CYCLES[config]
    if any("n_irb_entries=2" in e or "n_srf_entries=16" in e for e in extra):
        c = 900
    out = {"bench": sel.name, "config": config, "verified": True, "cycles": c, "insn": 3200,
           "ipc": 3200 / c, "energy_j": 2.0, "dynamic_j": 1.0, "static_j": 1.0,
           "rf_alu_pj": 1e11 if config != "base" else 2e11, "rf_alu_base_pj": 2e11,
           "dram_row_acc_per_act": 2.0, "uv": {}, "wall_s": 0.0}
    if config.startswith("reliable"):  # +0.001 J of lane energy; 10 faults: 3 detected, 1 masked
        out["rf_alu_pj"] = 1.01e11
        out["uv"] = {"uv_alu_faults": 10, "uv_alu_faults_detected": 3,
                     "uv_alu_faults_masked": 1}
    if config == "irb_faults_token":
        out["uv"] = {"uv_irb_faults": 5, "uv_irb_parity_errors": 5}
    if config != "base":
        out["redundancy"] = {"intra": 0.31, "inter": 0.32, "combined": 0.32, "intra_true": 0.4}
        if config == "oracle_token":
            out["redundancy"] = {"intra": 0.31, "inter": 0.64, "combined": 0.33,
                                 "intra_true": 0.4}
        out["coverage"] = {"alu": 0.25, "vrf": 0.5}
        out["cow_ratio"] = 0.0
        out["cow_all_ratio"] = 0.0
    return out


def test_summary_has_the_issue_keys_and_hand_computed_values(tmp_path):
    s = run_experiment((BenchSel("a", "tiny"), BenchSel("b", "tiny")), tmp_path, configs=MAIN,
                       runner=_fake)
    for key in ("intra_redundancy", "inter_redundancy", "combined_redundancy", "speedup_token",
                "speedup_srf", "dynamic_energy_saving_token", "dynamic_energy_saving_srf",
                "alu_coverage", "vrf_coverage", "per_benchmark", "irb_size", "srf_size",
                "simd16"):
        assert key in s
    assert s["speedup_token"]["combined"] == pytest.approx(1000 / 800 - 1)
    assert s["speedup_srf"]["intra"] == pytest.approx(1000 / 920 - 1)
    # 0.1 J of lane-level energy saved on a 1 J dynamic baseline (power model unchanged)
    assert s["dynamic_energy_saving_token"] == pytest.approx(0.1)
    assert s["energy_saving_token"]["combined"] == pytest.approx(0.05)
    assert s["intra_redundancy"] == pytest.approx(0.31)
    assert s["alu_coverage"] == pytest.approx(0.25)
    assert s["irb_size"]["2"] == pytest.approx(1000 / 900 - 1)
    assert s["irb_size"]["8"] == pytest.approx(0.25)
    assert s["srf_size"]["16"] == pytest.approx(1000 / 900 - 1)
    assert s["srf_size"]["128"] == pytest.approx(1000 / 850 - 1)
    assert s["srf_size"]["unlimited"] == pytest.approx(0.25)
    assert s["inter_redundancy_oracle"] == pytest.approx(0.64)
    assert s["speedup_token_oracle_irb"] == pytest.approx(1000 / 780 - 1)
    assert s["speedup_srf_release_wb"] == pytest.approx(1000 / 860 - 1)
    assert s["speedup_srf_no_rename_stage"] == pytest.approx(1000 / 840 - 1)
    assert s["speedup_token_no_broadcast"] == pytest.approx(1000 / 820 - 1)
    # two benchmarks x 10 faults, 2 x (3 + 1) detected or masked
    assert s["fault_injection"]["alu_token"] == {"injected": 20, "detected_or_masked": 8,
                                                 "ratio": 0.4, "ratio_gm": pytest.approx(0.4)}
    assert s["fault_injection"]["irb_token"]["parity_detected"] == 10
    # reliable: dynamic 1 - 0.099 J against Combined's 1 - 0.1 J; total 2 - 0.099 vs 2 - 0.1
    assert s["reliability_energy_overhead"]["dynamic_token"] == pytest.approx(0.901 / 0.9 - 1)
    assert s["reliability_energy_overhead"]["total_srf"] == pytest.approx(1.901 / 1.9 - 1)
    assert s["storage_bits"]["combined"]["irb"] == 1192
    assert s["storage_bits"]["reliable"]["irb"] == 1200
    assert json.loads((tmp_path / "summary.json").read_text())["per_benchmark"]["a"]


def test_helpers():
    st = {"gpu_sim_insn": 3200, "uv_redundant_ops_intra": 310, "uv_redundant_ops_inter": 320,
          "uv_redundant_ops_combined": 320}
    st["uv_walk_true_uniform_insts"] = 20
    assert redundancy(st) == {"intra": 310 / 3200, "inter": 0.1, "combined": 0.1,
                              "intra_true": 620 / 3200}
    assert rf_alu_energy_pj({"uv_base_vrf_lane_reads": 100, "uv_base_vrf_lane_writes": 10,
                             "uv_base_alu_lane_ops": 1}, baseline=True) == pytest.approx(
        246 + 58.2 + 10)
    assert gm_ratio([0.21, 0.0]) == pytest.approx(1.21 ** 0.5 - 1)


def test_reproduction_is_registered():
    assert "uniform-vectors" in {r.name for r in list_reproductions()}
