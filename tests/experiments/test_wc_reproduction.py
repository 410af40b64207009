"""The ``warped-compression`` reproduction pipeline: runs, resume, aggregation, figures and the
``--json`` CLI, on a synthetic job function whose counters give hand-computable results; plus
one real end-to-end run on a tiny benchmark and (slow) the whole quick reproduction."""

from __future__ import annotations

import json

import pytest

from warpsim.experiments.warped_compression import HEADLINE_KEYS, run_reproduction
from warpsim.runner.executors import InlineExecutor
from warpsim.runner.reproduce import (
    list_reproductions,
    register_reproduction,
    unregister_reproduction,
)

CALLS: list[str] = []

_ENC = {"wc": [20, 40, 20, 20], "4_0": [20, 0, 0, 80], "4_1": [0, 60, 0, 40],
        "4_2": [0, 0, 80, 20], "full_bdi": [20, 40, 20, 20]}


def fake_simulate(job):
    """Baseline: 150 warp-register accesses, 1400 cycles. WC: 500 bank accesses (LRR: 400),
    1 % slower, +14 cycles per extra compression cycle, +28 per extra decompression cycle."""
    CALLS.append(job.benchmark)
    if job.benchmark == "nw":
        raise ValueError("this benchmark fails on purpose")
    stats = {"regfile_bank_reads": 100, "regfile_bank_writes": 50,
             "gpgpu_n_tot_w_icount": 1000, "gpu_tot_sim_cycle": 1400, "gpu_sim_cycle": 1400}
    mech = dict(job.mechanisms).get("warped_compression")
    if mech is not None:
        p = dict(mech)
        cycles = 1414 + 14 * (p.get("comp_latency_cycles", 2) - 2) \
            + 28 * (p.get("decomp_latency_cycles", 1) - 1)
        enc = _ENC[p.get("scheme", "wc")]
        stats.update({
            "gpu_tot_sim_cycle": cycles, "gpu_sim_cycle": cycles,
            "wc_warp_insts_nondiv": 790, "wc_warp_insts_div": 210, "wc_mov_insts": 15,
            **{f"wc_enc_nondiv_{i}": n for i, n in enumerate(enc)},
            "wc_whatif_enc_div_1": 10, "wc_whatif_enc_div_3": 20,
            "wc_bank_reads": 200 if job.label == "lrr" else 300, "wc_bank_writes": 200,
            "wc_comp_activations": 50, "wc_decomp_activations": 40,
            "wc_bank_cycles": 15 * 32 * cycles, "wc_gated_bank_cycles": 15 * 32 * cycles // 10,
            "wc_gated_bank_cycles_b7": 15 * cycles})
    return {"stats": stats, "verified": True, "mode": "test"}


def _leak_base(e_bank):
    return 1200 * e_bank + 15 * 32 * 5.8 * 1000.0           # 1400 cycles at 1.4 GHz = 1 us


def _wc_total(e_bank, reads=300, cycles=1414, comp=23.0, decomp=21.0):
    t_us = cycles / 1400
    leak = 5.8 * 15 * 32 * cycles * 0.9 / 1.4 + 15 * 0.56 * 1000.0 * t_us
    return (reads + 200) * e_bank + 50 * comp + 40 * decomp + leak


def test_pipeline_on_synthetic_counters(tmp_path):
    CALLS.clear()
    out = tmp_path / "wc"
    # the full GPU (15 SMs: the hand values' leakage), tiny inputs
    s = run_reproduction(quick=False, size="tiny", out=out, benchmarks=["aes", "bfs", "nw"],
                         executor=InlineExecutor(), simulate=fake_simulate)
    assert set(HEADLINE_KEYS) <= set(s)
    assert s["benchmarks_measured"] == ["aes", "bfs"]
    assert {f["benchmark"] for f in s["failed"]} == {"nw"}
    assert s["compression_ratio_nondivergent"] == pytest.approx(800 / 400)
    assert s["compression_ratio_divergent"] == pytest.approx(240 / 190)
    assert s["nondivergent_instruction_fraction"] == pytest.approx(0.79)
    assert s["dummy_mov_fraction"] == pytest.approx(0.015)
    assert s["execution_time_increase"] == pytest.approx(0.01)
    assert s["rf_energy_saving"] == pytest.approx(1 - _wc_total(16.6) / _leak_base(16.6))
    assert s["lrr_rf_energy_saving"] == pytest.approx(
        1 - _wc_total(16.6, reads=200) / _leak_base(16.6))
    assert s["gated_bank_cycle_fraction"] == pytest.approx(0.1, rel=1e-3)
    assert s["cr_by_scheme"]["4_0"] == pytest.approx(800 / 660)
    assert s["cr_4_0_over_wc"] == pytest.approx((800 / 660) / 2.0)
    assert s["wire_activity_1.0_saving"] == pytest.approx(
        1 - _wc_total(26.2) / _leak_base(26.2))
    assert s["comp_scale_2.5_saving"] == pytest.approx(
        1 - _wc_total(16.6, comp=57.5, decomp=52.5) / _leak_base(16.6))
    lat = s["sensitivity"]["latency"]
    assert lat["comp"] == pytest.approx({"2": 1414 / 1400, "4": 1442 / 1400, "8": 1498 / 1400})
    assert lat["decomp"]["8"] == pytest.approx((1414 + 196) / 1400)
    assert s["latency_8_execution_time_increase"] == pytest.approx((1414 + 196) / 1400 - 1)
    assert set(s["per_benchmark"]) == {"aes", "bfs"}
    assert json.loads((out / "summary.json").read_text()) == s
    figs = {p.split("/")[-1] for p in s["figures"]}
    assert {"fig08_compression_ratio.png", "fig09_energy_breakdown.png",
            "fig14_gto_lrr_energy.png", "fig15_cr_schemes.png", "fig19_wire_activity.png",
            "fig21_decomp_latency.png"} <= figs
    # a rerun resumes: only the failed jobs (nw's 13 configurations) are simulated again
    n = len(CALLS)
    again = run_reproduction(quick=False, size="tiny", out=out,
                             benchmarks=["aes", "bfs", "nw"], executor=InlineExecutor(),
                             simulate=fake_simulate)
    assert CALLS[n:] == ["nw"] * 13
    assert again["rf_energy_saving"] == s["rf_energy_saving"]


def test_registered_and_cli_json(capsys):
    assert "warped-compression" in {r.name for r in list_reproductions()}
    from warpsim.runner.cli import main

    def fake(*, quick, out, jobs=None, dask=None):
        return {"quick": quick, "x": 1.5}

    register_reproduction("wc-json-test", fake, "test")
    try:
        assert main(["reproduce", "wc-json-test", "--quick", "--json"]) == 0
    finally:
        unregister_reproduction("wc-json-test")
    assert json.loads(capsys.readouterr().out) == {"quick": True, "x": 1.5}


@pytest.mark.slow  # a reproduction run: the baseline and WC cycle loops (minutes on 2 cores)
def test_end_to_end_on_one_tiny_benchmark(tmp_path):
    s = run_reproduction(quick=True, out=tmp_path / "e2e", benchmarks=["aes"],
                         variants=["base", "wc"], executor=InlineExecutor())
    assert s["failed"] == [] and s["benchmarks_measured"] == ["aes"]
    row = s["per_benchmark"]["aes"]
    assert 1.0 <= row["compression_ratio_nondivergent"] <= 8.0
    assert row["nondivergent_instruction_fraction"] == pytest.approx(1.0)  # AES never diverges
    assert -1.0 < row["rf_energy_saving"] < 1.0
    assert row["base_access_agreement"] == pytest.approx(1.0, rel=0.05)


@pytest.mark.slow
def test_quick_reproduction(tmp_path):
    s = run_reproduction(quick=True, out=tmp_path / "quick", jobs=2)
    assert s["failed"] == []
    assert 0.0 < s["rf_energy_saving"] < 1.0
