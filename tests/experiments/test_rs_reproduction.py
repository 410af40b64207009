"""The Register-Sharing reproduction pipeline (warpsim/experiments/register_sharing.py and its
rs_* helpers): the paper's metrics on hand-built records, the whole pipeline (jobs, result
store, resume, figures, summary) with a stand-in job function, a tiny end-to-end timed run,
and the full quick reproduction (slow)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from warpsim.experiments.register_sharing import occupancy_tables, run_experiment
from warpsim.experiments.rs_analysis import analyse, speedup_pct
from warpsim.experiments.rs_configs import (
    CONFIGS,
    QUICK,
    SET1_CONFIGS,
    SET2_CONFIGS,
    BenchSel,
    experiment_jobs,
)
from warpsim.runner.executors import InlineExecutor
from warpsim.runner.reproduce import list_reproductions

ROOT = Path(__file__).resolve().parents[2]


def _rec(bench, label, insn, cycles, kernel=None, k_insn=None, k_cycles=None, **more):
    rec = {"benchmark": bench, "size": "small", "label": label, "status": "ok",
           "gpu_sim_insn": insn,
           "gpu_sim_cycle": cycles, **more}
    if kernel:
        rec["rs_kernels"] = json.dumps({kernel: {"gpu_sim_insn": k_insn,
                                                 "gpu_sim_cycle": k_cycles, **more}})
    return rec


def test_speedup_pct():
    assert speedup_pct(12.5, 10.0) == pytest.approx(25.0)
    assert speedup_pct(None, 10.0) is None and speedup_pct(1.0, 0.0) is None


def test_analyse_hand_computed():
    sel = BenchSel(set1={"A": ("small", "k")}, set2={"B": ("small", None)})
    # kernel k of A: IPC 10 (LRR), 12.5 (ours: +25%), 1000/85 (GTO), 8 (two-level), 1000/90
    # (64K); the benchmark-level counts (other kernels included) must not be used.
    recs = [
        _rec("A", "Unshared-LRR", 9999, 1, "k", 1000, 100, sched_idle_cycles=200,
             sched_pipe_stall_cycles=50),
        _rec("A", "Shared-OWF-Unroll-Dyn", 9999, 1, "k", 1000, 80, sched_idle_cycles=20,
             sched_pipe_stall_cycles=60, rs_blocks_per_sm=6, rs_baseline_blocks_per_sm=4,
             rs_shared_pairs=2, rs_unshared_blocks=2),
        _rec("A", "Unshared-GTO", 9999, 1, "k", 1000, 85),
        _rec("A", "Unshared-two-level", 9999, 1, "k", 1000, 125),
        _rec("A", "Unshared-LRR-Reg#65536", 9999, 1, "k", 1000, 90),
        _rec("A", "Shared-LRR-NoOpt", 9999, 1, "k", 1000, 110),
        {**_rec("A", "Shared-LRR-NoOpt", 9999, 1, "k", 1000, 1), "status": "failed"},
        {**_rec("A", "Shared-LRR-NoOpt", 9999, 1, "k", 1000, 1), "size": "tiny"},
        _rec("B", "Unshared-LRR", 5000, 500), _rec("B", "Shared-LRR-Unrolled-Dyn", 5000, 500),
        _rec("B", "Unshared-GTO", 5000, 400), _rec("B", "Shared-GTO-Unroll-Dyn", 5000, 400),
        _rec("B", "Shared-OWF-Unroll-Dyn", 5000, 410),
    ]
    s = analyse(recs, sel, SET1_CONFIGS, SET2_CONFIGS)
    a, b = s["per_benchmark"]["A"], s["per_benchmark"]["B"]
    assert a["speedup_over_lrr"]["Shared-OWF-Unroll-Dyn"] == pytest.approx(25.0)
    assert a["speedup_over_gto"] == pytest.approx(12.5 / (1000 / 85) * 100 - 100)
    assert a["speedup_over_two_level"] == pytest.approx(56.25)
    assert a["speedup_over_lrr"]["Shared-LRR-NoOpt"] == pytest.approx(1000 / 110 / 10 * 100
                                                                      - 100)
    assert a["sharing_beats_64k"] is True
    assert a["idle_decrease_pct"] == pytest.approx(90.0)
    assert a["stall_decrease_pct"] == pytest.approx(-20.0)
    assert a["blocks"] == {"baseline": 4, "blocks": 6, "shared_pairs": 2, "unshared_blocks": 2}
    assert a["threshold_ipc"]["0.1"] == pytest.approx(12.5) and a["threshold_ipc"]["0.5"] is None
    assert "Shared-LRR-Unrolled" in a["missing"]
    assert b["lrr_identical"] is True and b["gto_identical"] is True
    assert b["owf_vs_gto_pct"] == pytest.approx(400 / 410 * 100 - 100)
    assert s["max_speedup_over_lrr"] == pytest.approx(25.0)
    assert s["mean_speedup_over_lrr"] == pytest.approx(25.0)
    assert s["max_speedup_over_lrr_benchmark"] == "A"
    assert s["set2_identical"] is True and s["wins_vs_64k"] == "1/1"
    recs[-2] = _rec("B", "Shared-GTO-Unroll-Dyn", 5000, 401)
    assert analyse(recs, sel, SET1_CONFIGS, SET2_CONFIGS)["set2_identical"] is False
    assert analyse(recs[:6], sel, SET1_CONFIGS, SET2_CONFIGS)["set2_identical"] is False


def test_jobs_and_configurations():
    jobs = experiment_jobs(QUICK)
    assert len(jobs) == len(QUICK.set1) * len(SET1_CONFIGS) + len(QUICK.set2) * len(SET2_CONFIGS)
    assert len({j.job_id for j in jobs}) == len(jobs)
    main = CONFIGS["Shared-OWF-Unroll-Dyn"].job("hotspot", "small")
    cfg = main.resolve()
    rs = cfg.register_sharing
    assert (rs.enabled, rs.owf, rs.unroll_reorder, rs.dwe, rs.threshold_frac) == \
        (True, True, True, True, 0.1)
    assert cfg.sm.sched_policy.value == "lrr" and cfg.sm.n_sms == 14
    assert CONFIGS["Unshared-LRR-Reg#65536"].job("x", "tiny").resolve().sm.n_registers == 65536
    assert CONFIGS["Shared-GTO-Unroll-Dyn"].job("x", "tiny").resolve().sm.sched_policy.value \
        == "gto"
    t5 = CONFIGS["Shared-OWF-Unroll-Dyn@t=0.5"].job("x", "tiny").resolve().register_sharing
    assert t5.threshold_frac == 0.5 and t5.owf
    assert not CONFIGS["Unshared-GTO"].job("x", "tiny").resolve().register_sharing.enabled


def test_quick_jobs_run_on_the_c2050_scaled_to_7_sms():
    from warpsim.experiments.quick_runs import quick_gpu_overrides
    from warpsim.experiments.rs_configs import C2050_OVERRIDES

    jobs = experiment_jobs(QUICK, gpu=quick_gpu_overrides("c2050", C2050_OVERRIDES))
    assert len(jobs) == len(experiment_jobs(QUICK))
    for job in jobs[:len(SET1_CONFIGS)]:
        cfg = job.resolve()
        assert (cfg.sm.n_sms, cfg.dram.n_channels, cfg.sm.n_max_ctas) == (7, 3, 8)
        want = 65536 if job.label == "Unshared-LRR-Reg#65536" else 32768
        assert cfg.sm.n_registers == want, job.label


def test_occupancy_tables_are_table5():
    t = occupancy_tables()["paper_table5"]
    assert t["hotspot"]["0.1"] == [6, 3, 0] and t["LIB"]["0.7"] == [5, 1, 3]
    assert t["stencil"]["0.3"] == [2, 0, 2]


def fake_simulate(job):
    """Stand-in job function: LRR 100 cycles per benchmark letter, every shared configuration
    20% faster, Set-2 shared runs as their unshared scheduler."""
    base = 100 * len(job.benchmark)
    shared = bool(job.mechanisms)
    set2 = job.benchmark.startswith("s2")
    cycles = base if not shared or set2 else int(base / 1.25)
    if job.label.endswith("GTO-Unroll-Dyn") or job.label == "Unshared-GTO":
        cycles = base - 1
    # residency: 8 warps per active SM-cycle over the benchmark; its kernel k 16 (24 shared)
    stats = {"gpu_sim_insn": 1000, "gpu_sim_cycle": cycles, "gpgpu_n_tot_w_icount": 40,
             "rs_blocks_per_sm": 6 if shared else 0, "sm_active_cycles": 14 * cycles,
             "sm_active_warp_cycles": 8 * 14 * cycles}
    kernels = {"k": {"gpu_sim_insn": 1000, "gpu_sim_cycle": cycles,
                     "sm_active_cycles": 7 * cycles,
                     "sm_active_warp_cycles": (24 if shared else 16) * 7 * cycles}}
    return {"stats": stats, "energy": {}, "verified": True, "mode": "timing",
            "extra": {"rs_kernels": json.dumps(kernels)}}


def test_pipeline_with_stand_in_jobs(tmp_path):
    sel = BenchSel(set1={"aa": ("tiny", "k")}, set2={"s2b": ("tiny", None)})
    s = run_experiment(sel, tmp_path, executor=InlineExecutor(), simulate=fake_simulate,
                       report=False)
    assert s["jobs"]["ok"] == len(SET1_CONFIGS) + len(SET2_CONFIGS) and not s["jobs"]["failed"]
    assert s["max_speedup_over_lrr"] == pytest.approx(25.0)
    assert s["set2_identical"] is True
    assert s["per_benchmark"]["aa"]["threshold_ipc"]["0.5"] == pytest.approx(1000 / 160)
    # resident warps of the evaluated kernel (k: 7 of 14 SMs busy), else of the benchmark
    aa, s2b = s["per_benchmark"]["aa"], s["per_benchmark"]["s2b"]
    assert (aa["resident_warps"], aa["resident_warps_shared"]) == (16.0, 24.0)
    assert aa["sm_busy_frac"] == pytest.approx(0.5) and aa["max_warps_per_sm"] == 48
    assert s2b["resident_warps"] == 8.0 and s2b["sm_busy_frac"] == pytest.approx(1.0)
    assert s["residency"]["aa"] == {k: aa[k] for k in s["residency"]["aa"]}
    assert json.loads((tmp_path / "summary.json").read_text())["n_set1"] == 1
    names = {Path(f).name for f in s["figures"]}
    assert {"fig09_speedup_lrr.png", "fig15_set2.png", "tables_4_5.md", "summary.md"} <= names
    assert "| aa |" in (tmp_path / "figures" / "tables_4_5.md").read_text()
    again = run_experiment(sel, tmp_path, executor=InlineExecutor(), simulate=fake_simulate,
                           figures=False, report=False)
    assert again["jobs"]["skipped"] == again["jobs"]["total"]  # resumed: nothing reran


def test_registered():
    assert "register-sharing" in {r.name for r in list_reproductions()}


@pytest.mark.slow  # a reproduction run: several cycle-loop compilations (minutes on 2 cores)
def test_tiny_end_to_end(tmp_path):
    # one register-limited benchmark timed for real with the paper's approach (one numba
    # compile of the cycle loop); the speedups need the unshared runs too (the slow test)
    sel = BenchSel(set1={"hotspot": ("tiny", "calculate_temp")}, set2={})
    s = run_experiment(sel, tmp_path, executor=InlineExecutor(),
                       set1_labels=("Shared-OWF-Unroll-Dyn",), set2_labels=(),
                       figures=False, report=False)
    assert s["jobs"]["ok"] == 1, s["jobs"]
    row = s["per_benchmark"]["hotspot"]
    # 26 registers x 256 threads (ptxas): 4 blocks per SM, 2 pairs + 2 unshared with sharing
    assert row["blocks"] == {"baseline": 4, "blocks": 6, "shared_pairs": 2,
                             "unshared_blocks": 2}
    assert row["ipc"]["Shared-OWF-Unroll-Dyn"] > 0


@pytest.mark.slow
def test_quick_reproduction_from_the_cli(tmp_path):
    out = subprocess.run([sys.executable, "-m", "warpsim.cli", "reproduce", "register-sharing",
                          "--quick", "--json", "--out", str(tmp_path)], cwd=ROOT,
                         capture_output=True, text=True, timeout=3600, check=True)
    s = json.loads(out.stdout)
    for key in ("max_speedup_over_lrr", "mean_speedup_over_lrr", "max_speedup_over_gto",
                "set2_identical", "per_benchmark"):
        assert key in s
    assert s["jobs"]["failed"] == 0


def test_split_size():
    from warpsim.experiments.rs_jobs import split_size

    assert split_size("small") == ("small", {})
    assert split_size("small+nx=256,iterations=1,f=0.5") == ("small", {"nx": 256,
                                                                       "iterations": 1,
                                                                       "f": 0.5})


def test_residency_never_mixes_kernel_cycles_with_benchmark_activity():
    from warpsim.experiments.register_sharing import _residency

    # a record from before the per-kernel SM counts: the kernel has only its cycles, so the
    # benchmark's own (1400 active SM-cycles of 14 SMs x 100 cycles, 10 warps) are reported
    rec = {"benchmark": "aa", "size": "tiny", "label": "Unshared-LRR", "status": "ok",
           "gpu_sim_cycle": 100, "sm_active_cycles": 1400, "sm_active_warp_cycles": 14000,
           "res_n_sms": 14, "res_max_warps_per_sm": 48,
           "rs_kernels": json.dumps({"k": {"gpu_sim_insn": 5, "gpu_sim_cycle": 10}})}
    row = _residency([rec], BenchSel(set1={"aa": ("tiny", "k")}, set2={}))["aa"]
    assert row["sm_busy_frac"] == pytest.approx(1.0) and row["resident_warps"] == 10.0
    assert row["resident_warps_shared"] is None
