"""The WarpMan reproduction's bookkeeping with a stand-in runner (no simulation): speedups,
energy savings and geometric means from hand-picked cycle counts and energies, RTRU and the
instruction histogram from hand-made per-warp records, the registered reproduction."""

from __future__ import annotations

import json

import numpy as np
import pytest

from warpsim.experiments.warpman import run_experiment, simd_overrides
from warpsim.experiments.wm_analysis import (
    gm_ratio,
    histogram,
    register_series,
    time_average,
    unused_registers,
)
from warpsim.experiments.wm_runs import BenchSel
from warpsim.mechanisms.warpman.mechanism import LaunchRecord
from warpsim.runner.reproduce import list_reproductions

CYCLES = {"a": {"base": 1000, "tb": 1000, "temp": 800, "temp_spatial": 500, "dueling": 500,
                "threshold": 625},
          "b": {"base": 900, "tb": 900, "temp": 900, "temp_spatial": 1000, "dueling": 900,
                "threshold": 900}}


def _fake(sel, mode, extra, keep_warps=False):
    c = CYCLES[sel.name][mode]
    out = {"bench": sel.name, "mode": mode, "verified": True, "cycles": c, "insn": 10,
           "l1d_miss_rate": 0.5, "dram_row_acc_per_act": 2.0, "energy_j": c * 1e-3,
           "dynamic_j": 0.1, "static_j": c * 1e-3 - 0.1, "partial_blocks": 0,
           "warp_level_placements": 0, "dueling_epochs": 0, "dueling_epochs_spatial": 0,
           "residency": {"resident_warps": 12.0 if mode == "base" else 40.0,
                         "max_warps_per_sm": 48}}
    if mode == "tb":
        # one launch, 2 blocks of 2 warps: times (10, 40) and (20, 20); 30 and 600 records
        lr = LaunchRecord(kernel="k", warps_per_cta=2, dispatch=np.zeros(4, np.int64),
                          eligible=np.zeros(4, np.int64), exit=np.array([10, 40, 20, 20]),
                          insts=np.array([30, 600, 30, 30]), rtru=np.array([30 / 80, 0.0]),
                          cta_threads=64, regs_per_thread=30, shmem_bytes=0,
                          baseline_ctas_per_sm=8)
        out["warps"] = [lr]
        out["kernels"] = {"k": {"cta_threads": 64, "warps_per_cta": 2, "regs_per_thread": 30,
                                "shmem_bytes": 0, "baseline_ctas_per_sm": 8, "launches": 1,
                                "warp_insts": 690}}
    return out


def test_summary_from_hand_picked_runs(tmp_path):
    s = run_experiment((BenchSel("a", "tiny"), BenchSel("b", "tiny")), tmp_path,
                       sensitivity=False, runner=_fake)
    # a: temp 1000/800 - 1 = 0.25, b: 0 -> GM sqrt(1.25) - 1
    assert s["speedup_temp"] == pytest.approx(1.25 ** 0.5 - 1)
    # temp+spatial: a 1.0, b 900/1000 - 1 = -0.1 -> sqrt(2 x 0.9) - 1
    assert s["speedup_temp_spatial"] == pytest.approx(1.8 ** 0.5 - 1)
    # energy = cycles x 1e-3: saving a 0.5, b 0 (dueling)
    assert s["energy_saving_dueling"] == pytest.approx(1.5 ** 0.5 - 1)
    assert s["per_benchmark"]["a"]["threshold"]["speedup"] == pytest.approx(0.6)
    # 30 regs -> 32 x 64 threads x 8 blocks = 16384 of 32768: half unused
    assert s["unused_register_fraction"] == pytest.approx(0.5)
    assert s["rtru"]["a"]["tb0"] == pytest.approx(0.375)
    assert s["rtru"]["a"]["app_gm"] == pytest.approx(1.375 ** 0.5 - 1)
    assert s["rtru"]["a"]["warp_inst_histogram"] == {"0-500": 0.75, "500-1000": 0.25}
    assert json.loads((tmp_path / "summary.json").read_text())["speedup_temp"] == \
        pytest.approx(s["speedup_temp"])
    assert set(s["targets"]) == {f"B-R{i}" for i in range(1, 16)}
    # the baseline run's resident warps per SM, next to each benchmark
    assert s["per_benchmark"]["a"]["resident_warps"] == 12.0
    assert s["residency"]["b"]["resident_warps"] == 12.0
    assert s["residency"]["b"]["max_warps_per_sm"] == 48


def test_helpers():
    assert gm_ratio([0.21, 0.0]) == pytest.approx(1.21 ** 0.5 - 1)
    assert histogram(np.array([0, 499, 500, 1700])) == {"0-500": 0.5, "500-1000": 0.25,
                                                         "1500-2000": 0.25}
    k = {"x": {"warps_per_cta": 8, "regs_per_thread": 26, "baseline_ctas_per_sm": 4,
               "warp_insts": 1}}
    # hotspot's calculate_temp: 28 x 256 = 7168 per block, 4 blocks = 28672 of 32768
    assert unused_registers(k, 32768)["weighted"] == pytest.approx(4096 / 32768)


def test_reproduction_is_registered():
    assert "warpman" in {r.name for r in list_reproductions()}


def test_sensitivity_studies_are_summarised(tmp_path):
    s = run_experiment((BenchSel("a", "tiny"),), tmp_path, runner=_fake)
    sens = s["sensitivity"]
    # the stand-in ignores the overrides: the same ratios as the RR runs
    assert sens["two_level"]["dueling"] == pytest.approx(1.0)
    assert sens["regs_16k"]["speedup_dueling"] == pytest.approx(1.0)
    assert sens["dram_x2"]["temp"] == pytest.approx(0.25)
    assert s["rtru_two_level"] == pytest.approx(s["rtru_rr"])
    assert s["targets"]["B-R13"]["ours"] == [pytest.approx(1.0), pytest.approx(1.0)]
    assert s["targets"]["B-R14"]["ours"] == [pytest.approx(1.0), pytest.approx(1.0)]


def test_simd_widths_stretch_the_alu_pipelines(tmp_path):
    seen = []

    def spy(sel, mode, extra, keep_warps=False):
        seen.append(tuple(extra))
        return _fake(sel, mode, extra, keep_warps)

    run_experiment((BenchSel("a", "tiny"),), tmp_path, runner=spy)
    # SIMD 8 / 16: a warp instruction holds a pipeline 32 / NumSP = 4 / 2 times longer; the
    # gtx480 preset's per-operation intervals (fp32 1,2,1,1,4; int32 1,2,2,1,8,4) scale too,
    # and the preset's alu1 untabled instructions (fixed initiation 1) take ADD's entry instead
    for f in (4, 2):
        want = {"sm.sched_policy=lrr", "pipelines.other_ops=add",
                f"pipelines.fp32.initiation_interval_cycles={f}",
                f"pipelines.int32.initiation_interval_cycles={f}",
                "pipelines.fp32.op_initiation_interval_cycles=[{}]".format(
                    ",".join(str(v * f) for v in (1, 2, 1, 1, 4))),
                "pipelines.int32.op_initiation_interval_cycles=[{}]".format(
                    ",".join(str(v * f) for v in (1, 2, 2, 1, 8, 4)))}
        assert sum(set(e) == want for e in seen) == 2      # base and dueling
    # and the timing model's tables take them: an fp32 add now holds its unit 4 cycles
    from warpsim.arch import resolve_config
    from warpsim.arch.policies import LatencyOp, OtherOps

    cfg = resolve_config("gtx480", overrides=list(simd_overrides(4)))
    assert cfg.pipelines.fp32.initiation_of(LatencyOp.ADD) == 4
    assert cfg.pipelines.int32.initiation_of(LatencyOp.DIV) == 32
    # an untabled instruction (and, mov, setp, ...) takes its type's ADD entry: 4 cycles too
    assert cfg.pipelines.other_ops is OtherOps.ADD
    assert cfg.pipelines.int32.initiation_of(LatencyOp.ADD) == 4
    # a config that already uses ``add`` (c2050: GTX480_3X's pipelines) gets no extra override
    assert not any(o.startswith("pipelines.other_ops") for o in simd_overrides(4, "c2050"))


def test_st_and_rs_targets_read_their_stand_ins(tmp_path):
    CYCLES["stencil_naive"] = CYCLES["radix_sort"] = CYCLES["a"]
    try:
        s = run_experiment((BenchSel("stencil_naive", "tiny"), BenchSel("radix_sort", "tiny")),
                           tmp_path, sensitivity=False, runner=_fake)
    finally:
        del CYCLES["stencil_naive"], CYCLES["radix_sort"]
    # B-R3: the ST stand-in's TB0 RTRU 30/80 and the mean over its blocks (0.375 + 0) / 2
    assert s["targets"]["B-R3"]["ours"] == [pytest.approx(0.375), pytest.approx(0.1875)]
    assert s["targets"]["B-R3"]["benchmark"] == "stencil_naive"
    # B-R9: temp and temp+spatial DRAM accesses per activation of the RS stand-in
    assert s["targets"]["B-R9"]["ours"]["radix_sort"] == [2.0, 2.0]
    assert s["targets"]["B-R6"]["paper_per_benchmark"]["ST"] == pytest.approx(0.714)


def _launch(series, cycles):
    rows = np.array(series, np.int64)
    return LaunchRecord(kernel="k", warps_per_cta=2, dispatch=np.zeros(2, np.int64),
                        eligible=np.zeros(2, np.int64), exit=np.array([10, 10]),
                        insts=np.array([5, 5]), rtru=np.array([0.0]), cycles=cycles,
                        n_registers=1000, series=rows)


def test_register_series_joins_the_launches_and_averages_over_time():
    # rows (sm, cycle, regs, warps, active, ctas, shmem); launch 1 lasts 10 cycles, launch 2 20
    a = _launch([[0, 0, 500, 2, 2, 1, 0], [1, 0, 900, 3, 3, 1, 0], [0, 4, 250, 1, 1, 1, 0],
                 [0, 9, 0, 0, 0, 0, 0]], 10)
    b = _launch([[0, 2, 1000, 4, 4, 2, 0], [0, 12, 0, 0, 0, 0, 0]], 20)
    s = register_series([a, b])
    assert s["cycle"] == [0, 0, 4, 9, 10, 12, 22, 30]
    assert s["regs"] == [0, 500, 250, 0, 0, 1000, 0, 0]
    assert (s["end"], s["n_registers"]) == (30, 1000)
    # 500 x 4 + 250 x 5 + 1000 x 10 = 13250 register-cycles over 30 cycles
    assert time_average(s["cycle"], s["regs"], s["end"]) == pytest.approx(13250 / 30)


def test_counters_per_mode_and_the_register_series_figure(tmp_path):
    def runner(sel, mode, extra, keep_warps=False):
        out = _fake(sel, mode, extra, keep_warps)
        if mode != "base":
            out.update(reg_utilization=0.5 if mode == "tb" else 0.75,
                       partial_barrier_stall_cycles=7, threshold_blocked_warps=3)
        if keep_warps and mode in ("tb", "temp"):
            regs = 400 if mode == "tb" else 800
            out["warps"] = [_launch([[0, 0, regs, 2, 2, 1, 0], [0, 8, 0, 0, 0, 0, 0]], 10)]
        return out

    CYCLES["stencil_naive"] = CYCLES["a"]
    try:
        s = run_experiment((BenchSel("stencil_naive", "tiny"),), tmp_path, sensitivity=False,
                           runner=runner)
    finally:
        del CYCLES["stencil_naive"]
    p = s["per_benchmark"]["stencil_naive"]
    assert p["tb"]["reg_utilization"] == 0.5 and p["temp"]["reg_utilization"] == 0.75
    assert p["threshold"]["threshold_blocked_warps"] == 3
    assert p["temp"]["partial_barrier_stall_cycles"] == 7
    fig = tmp_path / "fig_register_series.png"
    assert s["figures"]["register_series"] == str(fig) and fig.stat().st_size > 0
