"""``warpsim reproduce regless``: the summary's arithmetic on stubbed runs (hand values), the
JSON fields the issue asks for, the Pareto frontier, and the registration."""

from __future__ import annotations

import json
import math

import warpsim.experiments.regless as rl
from warpsim.experiments.rl_analysis import pareto
from warpsim.runner.reproduce import list_reproductions


def _fake(bench, size, entries, extra=()):
    cycles = {"a": 100, "b": 400}[bench]
    base = {"gpu_sim_cycle": cycles, "regfile_bank_reads": 1000, "regfile_bank_writes": 500,
            "L2_total_cache_accesses": 200}
    if entries is None and extra == rl.RFH:  # the RFH run: 5 % slower, half the reads off MRF
        acc = {"mrf_reads": 500, "orf_reads": 400, "lrf_reads": 100, "mrf_writes": 300,
               "orf_writes": 200, "lrf_writes": 100, "values": 500}
        c = round(cycles * 1.05)
        return {"bench": bench, "entries": None, "verified": True, "cycles": c,
                "stats": {**base, "gpu_sim_cycle": c}, "rfh_accesses": acc}
    if entries is None:
        return {"bench": bench, "entries": None, "verified": True, "cycles": cycles,
                "stats": base}
    slow = {"a": 1.10, "b": 0.90}[bench]
    c = round(cycles * slow * (1.2 if extra else 1.0))
    stats = {**base, "gpu_sim_cycle": c, "L2_total_cache_accesses": 210,
             "rl_preloads": 10, "rl_preload_osu": 7, "rl_preload_mem": 3, "rl_preload_l1": 2,
             "rl_preload_l2": 1, "rl_regions_executed": 5, "rl_region_insns": 30,
             "rl_region_cycles": 500, "rl_line_loads": 3, "rl_line_stores": 2 * entries // 512}
    return {"bench": bench, "entries": entries, "verified": True, "cycles": c, "stats": stats,
            "static_insns_per_region": 6.0}


def test_summary_geomean_fractions_and_traffic(monkeypatch, tmp_path):
    monkeypatch.setattr(rl, "run_one", _fake)
    s = rl.run_experiment((("a", "tiny"), ("b", "tiny")), (512,), tmp_path)
    # geomean(1.1, 0.9) = sqrt(0.99); preloads from L1 2/10, from L2 1/10 in both
    assert math.isclose(s["mean_slowdown"], math.sqrt(0.99) - 1.0)
    assert math.isclose(s["preload_l1_fraction"], 0.2)
    assert math.isclose(s["preload_l2_fraction"], 0.1)
    a = s["per_benchmark"]["a"]["rl512"]
    # 3 loads + 2 stores over 110 cycles x 16 SMs; 10 more L2 accesses than 200
    assert math.isclose(a["l1_requests_per_cycle_per_sm"], 5 / (110 * 16))
    assert math.isclose(a["added_l2_requests_frac"], 0.05)
    assert s["mean_region_instructions"] == 6.0
    assert a["dynamic_insns_per_region"] == 6.0
    for key in ("rf_energy_saving", "gpu_energy_saving", "no_rf_bound"):
        assert isinstance(s[key], float) and 0 < s[key] < 1, key
    assert s["rfv"] == {"rf_energy_saving": None, "gpu_energy_saving": None,
                        "runtime_geomean": None}
    assert math.isclose(s["rfh"]["runtime_geomean"], 1.05)
    assert 0 < s["rfh"]["rf_energy_saving"] < s["rf_energy_saving"]
    assert s["per_benchmark"]["a"]["rfh"]["mrf_read_fraction"] == 0.5
    assert json.loads((tmp_path / "summary.json").read_text())["capacities"] == [512]
    assert "regless" in [r.name for r in list_reproductions()]


def test_capacity_sweep_has_a_pareto_frontier(monkeypatch, tmp_path):
    monkeypatch.setattr(rl, "run_one", _fake)
    s = rl.run_experiment((("a", "tiny"),), (128, 512), tmp_path, no_compressor=True,
                          rfv=True)
    assert math.isclose(s["no_compressor_slowdown"], 132 / 110 - 1)
    # the stub's RFV run (any extra overrides) takes 1.1 x 1.2 of the baseline's 100 cycles
    assert math.isclose(s["rfv"]["runtime_geomean"], 1.32)
    assert 0 < s["rfv"]["rf_energy_saving"] < 1
    sweep = s["capacity_sweep"]
    # same runtime; the smaller OSU costs less energy, so 128 dominates 512
    assert sweep["rl128"]["runtime_geomean"] == sweep["rl512"]["runtime_geomean"]
    assert sweep["rl128"]["gpu_energy_geomean"] < sweep["rl512"]["gpu_energy_geomean"]
    assert s["pareto_capacities"] == ["rl128"]


def test_pareto_by_hand():
    pts = {"x": (1.0, 1.0), "y": (0.9, 1.2), "z": (1.1, 1.1), "w": (1.0, 0.9)}
    # z is dominated by x (and w), x by w; y is fastest, w the most frugal
    assert pareto(pts) == ["y", "w"]
