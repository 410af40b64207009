"""``warpsim reproduce regless``: the summary's arithmetic on stubbed runs (hand values), the
JSON fields the issue asks for, and the registration."""

from __future__ import annotations

import json
import math

import warpsim.experiments.regless as rl
from warpsim.runner.reproduce import list_reproductions


def _fake(bench, size, entries):
    cycles = {"a": 100, "b": 400}[bench]
    if entries is None:
        return {"bench": bench, "entries": None, "verified": True, "cycles": cycles}
    slow = {"a": 1.10, "b": 0.90}[bench]
    return {"bench": bench, "entries": entries, "verified": True, "cycles": round(cycles * slow),
            "rl_preloads": 10, "rl_preload_osu": 8, "rl_preload_l1": 2, "rl_regions_executed": 5,
            "rl_region_insns": 30, "rl_region_cycles": 500, "static_insns_per_region": 6.0}


def test_summary_geomean_and_fractions(monkeypatch, tmp_path):
    monkeypatch.setattr(rl, "run_one", _fake)
    s = rl.run_experiment((("a", "tiny"), ("b", "tiny")), (512,), tmp_path)
    # geomean(1.1, 0.9) = sqrt(0.99); preload L1 share 2/10 in both
    assert math.isclose(s["mean_slowdown"], math.sqrt(0.99) - 1.0)
    assert math.isclose(s["preload_l1_fraction"], 0.2)
    assert s["mean_region_instructions"] == 6.0
    assert s["per_benchmark"]["a"]["rl512"]["dynamic_insns_per_region"] == 6.0
    for key in ("rf_energy_saving", "gpu_energy_saving", "preload_l2_fraction", "rfv", "rfh",
                "per_benchmark"):
        assert key in s
    assert json.loads((tmp_path / "summary.json").read_text())["capacities"] == [512]
    assert "regless" in [r.name for r in list_reproductions()]
