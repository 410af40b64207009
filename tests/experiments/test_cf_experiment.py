"""The coarse-grained L1 fetch reproduction's bookkeeping with a stand-in runner (no
simulation): speedups, geometric means, max / min from hand-picked cycle counts; the registered
reproduction."""

from __future__ import annotations

import json

import pytest

from warpsim.experiments.cf_runs import BenchSel, overrides
from warpsim.experiments.coarse_fetch import gm_speedup, run_experiment
from warpsim.runner.reproduce import list_reproductions

CYCLES = {"a": {"base": 1000, "coarse2": 800, "coarse4": 500, "coarse2_duel": 800,
                "coarse4_duel": 625},
          "b": {"base": 900, "coarse2": 1000, "coarse4": 1200, "coarse2_duel": 900,
                "coarse4_duel": 900}}


def _fake(sel, policy):
    c = CYCLES[sel.name][policy]
    return {"bench": sel.name, "policy": policy, "verified": True, "cycles": c, "insn": 10,
            "l1d_miss_rate": 0.5, "l2_accesses": c // 10, "dram_reads": 1,
            "cf_lines_sent": 3, "cf_dueling_epochs": 2, "cf_dueling_epochs_coarse": 1}


def test_summary_from_hand_picked_runs(tmp_path):
    s = run_experiment((BenchSel("a", "tiny"), BenchSel("b", "tiny")), tmp_path, runner=_fake,
                       with_locality=False)
    # with dueling: coarse2 a 1000/800 - 1 = 0.25, b 0 -> sqrt(1.25) - 1
    assert s["coarse2_mean_speedup"] == pytest.approx(1.25 ** 0.5 - 1)
    # coarse4 a 1000/625 - 1 = 0.6, b 0 -> sqrt(1.6) - 1
    assert s["coarse4_mean_speedup"] == pytest.approx(1.6 ** 0.5 - 1)
    assert s["max_speedup"] == pytest.approx(0.6)
    assert s["min_speedup_with_dueling"] == pytest.approx(0.0)
    # without dueling b slows down: 900/1200 - 1 = -0.25
    assert s["min_speedup_no_dueling"] == pytest.approx(-0.25)
    assert s["max_speedup_no_dueling"] == pytest.approx(1.0)
    assert s["per_benchmark"]["b"]["coarse4"]["l2_traffic_ratio"] == pytest.approx(120 / 90)
    assert s["per_benchmark"]["a"]["coarse2_duel"]["epochs_coarse"] == 1
    assert json.loads((tmp_path / "summary.json").read_text())["max_speedup"] == \
        pytest.approx(0.6)


def test_gm_speedup_and_policy_overrides():
    assert gm_speedup([0.21, 0.0]) == pytest.approx(1.21 ** 0.5 - 1)
    assert gm_speedup([]) != gm_speedup([])  # NaN
    assert overrides("base") == []
    assert overrides("coarse4_duel") == ["coarse_fetch.enabled=true",
                                         "coarse_fetch.n_group_lines=4",
                                         "coarse_fetch.dueling=true"]


def test_reproduction_is_registered():
    import warpsim.experiments  # noqa: F401 - registers the reproductions

    assert "l1-coarse-fetch" in {r.name for r in list_reproductions()}
