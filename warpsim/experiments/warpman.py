"""Reproduction of WarpMan (Xiang, "Toward Efficient SIMT Execution", ch. 3; HPCA 2014) on the
GTX480-like configuration: ``warpsim reproduce warpman [--quick] [--json]``.

Runs warpsim's own benchmarks (``wm_runs.BENCH_QUICK`` / ``BENCH_FULL``: block-level occupancy
that wastes registers or scheduler entries, and warp-level imbalance) under the baseline and
each resource-management mode (``tb`` observes the baseline's allocation for RTRU and the
per-warp instruction histogram), with the paper's RR scheduler (``sm.sched_policy=lrr``);
then the sensitivity studies (two-level scheduler; 16K / 64K registers and SIMD 8 / 16 with
dueling). Writes
``summary.json`` into the result folder and returns the summary (the CLI prints it with
``--json``): ``unused_register_fraction``, ``speedup_temp``, ``speedup_temp_spatial``,
``speedup_dueling``, ``speedup_threshold``, ``energy_saving_*``, ``per_benchmark``, ``rtru``,
``targets`` (B-R1 ... B-R15, ours next to the paper's), ``paper``.

Follows: specs/xiang-simt-efficiency.md §2.4-§2.6; docs/reproductions/warpman.md.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from warpsim.experiments.wm_analysis import (
    PAPER,
    gm_ratio,
    paper_unused,
    register_series,
    rtru_summary,
    unused_registers,
)
from warpsim.experiments.wm_runs import BENCH_FULL, BENCH_QUICK, MODES, BenchSel, run_one
from warpsim.runner.reproduce import register_reproduction
from warpsim.runner.residency import RESIDENCY_KEYS

__all__ = ["BASE_OVERRIDES", "reproduce_warpman", "run_experiment"]

_log = logging.getLogger(__name__)

BASE_OVERRIDES = ("sm.sched_policy=lrr",)
"""The dissertation's baseline scheduler is round robin (Table 4)."""
TWO_LEVEL = ("sm.sched_policy=two_level",)
SENS_MODES = ("base", "temp_spatial", "dueling", "threshold")
COUNTER_KEYS = ("reg_utilization", "avg_warp_entries", "avg_active_warps",
                "avg_resident_blocks", "avg_shmem_bytes", "partial_barrier_stall_cycles",
                "threshold_blocked_warps", "series_dropped")
"""Spec §2.6 counters kept per mode in ``per_benchmark`` (``wm_runs.allocation_counters``;
``tb`` gives block-level allocation's)."""
FIG_BENCH = "stencil_naive"
"""The benchmark whose allocated-register series is drawn (``fig_register_series.png``)."""
FIG_MODES = ("tb", "temp")
_ST, _RS, _MM = "stencil_naive", "radix_sort", "matrix_mul"
"""The benchmarks standing for the dissertation's ST (B-R3), RS (B-R9) and MM (B-R8)."""
SIMD_WIDTHS = {"simd8": 4, "simd16": 2}
"""B-R14: SIMD width -> how many times longer a warp instruction holds an fp32/int32 unit
(32 / NumSP)."""


def simd_overrides(factor: int, config: str = "gtx480") -> tuple[str, ...]:
    """Overrides that hold the fp32 and int32 pipelines ``factor`` times longer per warp
    instruction: their initiation interval and every per-operation one (which take precedence
    over the pipeline's own in ``timing/static.py``). On a config with ``pipelines.other_ops``
    ``alu1`` (gtx480 since README §7.9) the untabled instructions (logic, ``mov``, ``setp``,
    branches, ...) have a fixed latency and initiation of 1 that no table scales, so the study
    runs them with ``other_ops=add`` (their type's ADD entry, which the intervals above scale):
    every ALU instruction of the narrower SIMD then holds its unit ``factor`` times longer."""
    from warpsim.arch import resolve_config
    from warpsim.arch.policies import OtherOps

    pipes = resolve_config(config).pipelines
    out: list[str] = []
    for name in ("fp32", "int32"):
        p = getattr(pipes, name)
        out.append(f"pipelines.{name}.initiation_interval_cycles="
                   f"{p.initiation_interval_cycles * factor}")
        if p.op_initiation_interval_cycles:
            ops = ",".join(str(v * factor) for v in p.op_initiation_interval_cycles)
            out.append(f"pipelines.{name}.op_initiation_interval_cycles=[{ops}]")
    if pipes.other_ops is OtherOps.ALU1:
        out.append("pipelines.other_ops=add")
    return tuple(out)


def _per_bench(runs: dict[str, dict[str, Any]]) -> dict[str, Any]:
    base = runs["base"]
    out: dict[str, Any] = {"cycles_base": base["cycles"], "verified": all(
        r["verified"] for r in runs.values())}
    for mode, r in runs.items():
        if mode == "base":
            continue
        out[mode] = {
            "cycles": r["cycles"], "speedup": base["cycles"] / r["cycles"] - 1.0,
            "energy_saving": 1.0 - r["energy_j"] / base["energy_j"],
            "dynamic_energy_change": r["dynamic_j"] / base["dynamic_j"] - 1.0,
            "l1d_miss_rate": r["l1d_miss_rate"],
            "dram_row_acc_per_act": r["dram_row_acc_per_act"],
            "partial_blocks": r["partial_blocks"],
            "warp_level_placements": r["warp_level_placements"],
        }
        out[mode].update({k: r[k] for k in COUNTER_KEYS if k in r})
        if mode == "dueling":
            out[mode]["epochs"] = r["dueling_epochs"]
            out[mode]["epochs_spatial"] = r["dueling_epochs_spatial"]
    out.update(base.get("residency") or {})  # resident warps per SM of the baseline run
    out["l1d_miss_rate_base"] = base["l1d_miss_rate"]
    out["dram_row_acc_per_act_base"] = base["dram_row_acc_per_act"]
    return out


def _gm(per: dict[str, Any], mode: str, key: str) -> float:
    return gm_ratio([p[mode][key] for p in per.values() if mode in p])


def run_experiment(benches: tuple[BenchSel, ...], out: str | Path, *,
                   sensitivity: bool = True, modes: tuple[str, ...] = MODES,
                   runner: Any = None) -> dict[str, Any]:
    """Run every benchmark under ``modes`` (and the sensitivity studies), analyse, write
    ``summary.json`` into ``out``. ``runner`` replaces ``run_one`` (tests)."""
    run = runner or run_one
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    per: dict[str, Any] = {}
    rtru: dict[str, Any] = {}
    unused: dict[str, Any] = {}
    figures: dict[str, str] = {}
    for sel in benches:
        runs = {}
        for mode in modes:
            _log.info("warpman: %s %s", sel.name, mode)
            keep = mode == "tb" or (sel.name == FIG_BENCH and mode in FIG_MODES)
            runs[mode] = run(sel, mode, BASE_OVERRIDES, keep_warps=keep)
        if sel.name == FIG_BENCH:
            figures.update(_figure(sel.name, runs, out))
            for m in FIG_MODES:  # only tb's records are kept past here
                if m != "tb" and m in runs:
                    runs[m].pop("warps", None)
        per[sel.name] = _per_bench({m: r for m, r in runs.items()})
        per[sel.name]["paper_benchmark"] = sel.paper
        per[sel.name]["input"] = {"size": sel.size, **dict(sel.params)}
        if "tb" in runs:
            tb = runs["tb"]
            rtru[sel.name] = rtru_summary(tb.get("warps", []))
            unused[sel.name] = unused_registers(tb.get("kernels", {}), 32768)
            per[sel.name]["rtru"] = rtru[sel.name].get("app_gm")
            per[sel.name]["unused_register_fraction"] = unused[sel.name]["weighted"]
    summary: dict[str, Any] = {
        # 1 - GM(allocated / total), the dissertation's 29.4 % (spec §2.2 [D])
        "unused_register_fraction": -gm_ratio([-u["weighted"] for u in unused.values()]),
        "unused_register_fraction_paper_table5": paper_unused(),
        "speedup_temp": _gm(per, "temp", "speedup"),
        "speedup_temp_spatial": _gm(per, "temp_spatial", "speedup"),
        "speedup_dueling": _gm(per, "dueling", "speedup"),
        "speedup_threshold": _gm(per, "threshold", "speedup"),
        "energy_saving_temp": _gm(per, "temp", "energy_saving"),
        "energy_saving_temp_spatial": _gm(per, "temp_spatial", "energy_saving"),
        "energy_saving_dueling": _gm(per, "dueling", "energy_saving"),
        "energy_saving_threshold": _gm(per, "threshold", "energy_saving"),
        "rtru_rr": gm_ratio([r["app_gm"] for r in rtru.values() if r]),
        "rtru": rtru,
        "per_benchmark": per,
        "residency": {b: {k: p.get(k) for k in RESIDENCY_KEYS} for b, p in per.items()
                      if "resident_warps" in p},
        "paper": PAPER,
        "figures": figures,
    }
    if sensitivity:
        summary["sensitivity"] = _sensitivity(benches, run, rtru)
        summary["rtru_two_level"] = summary["sensitivity"]["two_level"].get("rtru")
    summary["targets"] = _targets(summary)
    summary["out"] = str(out)
    (out / "summary.json").write_text(json.dumps(summary, indent=2, default=str))
    return summary


def _figure(bench: str, runs: dict[str, dict[str, Any]], out: Path) -> dict[str, str]:
    """``fig_register_series.png``: SM 0's allocated registers, block level (tb) vs temp."""
    from warpsim.experiments.wm_figures import register_series_figure

    series = {("block level (tb)" if m == "tb" else m): register_series(runs[m]["warps"])
              for m in FIG_MODES if runs.get(m, {}).get("warps")}
    if len(series) < len(FIG_MODES):
        return {}
    path = register_series_figure(series, bench, out / "fig_register_series.png")
    return {"register_series": str(path)}


def _sensitivity(benches: tuple[BenchSel, ...], run: Any,
                 rtru_rr: dict[str, Any]) -> dict[str, Any]:
    """Two-level scheduler (B-R12, B-R4), 16K / 64K registers with dueling (B-R13), and
    (ours, not the paper's) twice the DRAM channels: the slowdowns' cause."""
    two: dict[str, Any] = {}
    rt: list[float] = []
    for sel in benches:
        runs = {m: run(sel, m, TWO_LEVEL, keep_warps=False) for m in SENS_MODES}
        tb = run(sel, "tb", TWO_LEVEL, keep_warps=True)
        two[sel.name] = {m: runs["base"]["cycles"] / runs[m]["cycles"] - 1.0
                         for m in SENS_MODES if m != "base"}
        r = rtru_summary(tb.get("warps", []))
        two[sel.name]["rtru"] = r.get("app_gm")
        rt.append(r.get("app_gm", float("nan")))
    res: dict[str, Any] = {"two_level": {
        "per_benchmark": two, "rtru": gm_ratio(rt),
        **{m: gm_ratio([v[m] for v in two.values()]) for m in SENS_MODES if m != "base"}}}
    for regs in (16384, 65536):
        ov = (*BASE_OVERRIDES, f"sm.n_registers={regs}", f"sm.n_max_regs_per_cta={regs}")
        sp = {}
        for sel in benches:
            try:
                b = run(sel, "base", ov, keep_warps=False)
                d = run(sel, "dueling", ov, keep_warps=False)
            except Exception as exc:  # a block that does not fit (ST at 16K in the paper)
                sp[sel.name] = f"{type(exc).__name__}: {exc}"
                continue
            sp[sel.name] = b["cycles"] / d["cycles"] - 1.0
        res[f"regs_{regs // 1024}k"] = {
            "per_benchmark": sp,
            "speedup_dueling": gm_ratio([v for v in sp.values() if isinstance(v, float)])}
    # [ours] the cause of the slowdowns: twice the DRAM channels (bandwidth)
    dram: dict[str, Any] = {}
    ov = (*BASE_OVERRIDES, "dram.n_channels=12")
    for sel in benches:
        runs = {m: run(sel, m, ov, keep_warps=False) for m in ("base", "temp", "temp_spatial")}
        dram[sel.name] = {m: runs["base"]["cycles"] / runs[m]["cycles"] - 1.0
                          for m in ("temp", "temp_spatial")}
    res["dram_x2"] = {"per_benchmark": dram,
                      **{m: gm_ratio([v[m] for v in dram.values()])
                         for m in ("temp", "temp_spatial")}}
    # B-R14: SIMD width as the ALU pipelines' initiation interval (warpsize / NumSP cycles per
    # warp instruction on a unit, spec §0.4; [A] the issue port itself is not held)
    for name, factor in SIMD_WIDTHS.items():
        ov = (*BASE_OVERRIDES, *simd_overrides(factor))
        sp = {}
        for sel in benches:
            b = run(sel, "base", ov, keep_warps=False)
            d = run(sel, "dueling", ov, keep_warps=False)
            sp[sel.name] = b["cycles"] / d["cycles"] - 1.0
        res[name] = {"per_benchmark": sp, "speedup_dueling": gm_ratio(list(sp.values()))}
    return res


def _targets(s: dict[str, Any]) -> dict[str, Any]:
    per = s["per_benchmark"]
    sens = s.get("sensitivity", {})

    st = s["rtru"].get(_ST, {})

    def pick(mode: str, key: str) -> dict[str, Any]:
        return {b: p[mode][key] for b, p in per.items() if mode in p}

    return {
        "B-R1": {"paper": PAPER["unused_register_fraction"],
                 "paper_table5_exact": s["unused_register_fraction_paper_table5"],
                 "ours": s["unused_register_fraction"]},
        "B-R2": {"paper": [PAPER["rtru_ray_tb0"], PAPER["rtru_ray"]],
                 "ours": [s["rtru"].get("ray", {}).get("tb0"),
                          s["rtru"].get("ray", {}).get("app_gm")]},
        "B-R3": {"paper": [PAPER["rtru_st_tb0"], PAPER["rtru_st"]],
                 "ours": [st.get("tb0"), st.get("app_mean")], "ours_app_gm": st.get("app_gm"),
                 "benchmark": _ST},
        "B-R4": {"paper": [PAPER["rtru_rr"], PAPER["rtru_two_level"]],
                 "ours": [s.get("rtru_rr"), s.get("rtru_two_level")]},
        "B-R5": {"paper": PAPER["ray_hist"],
                 "ours": s["rtru"].get("ray", {}).get("warp_inst_histogram")},
        "B-R6": {"paper": PAPER["speedup_temp"], "ours": s["speedup_temp"],
                 "paper_per_benchmark": PAPER["speedup_temp_per_benchmark"],
                 "per_benchmark": pick("temp", "speedup")},
        "B-R7": {"paper": PAPER["speedup_temp_spatial"], "ours": s["speedup_temp_spatial"],
                 "per_benchmark": pick("temp_spatial", "speedup")},
        "B-R8": {"paper": PAPER["mm_l1d_miss"],
                 "ours": {b: [p["temp"]["l1d_miss_rate"], p["temp_spatial"]["l1d_miss_rate"]]
                          for b, p in per.items() if "temp" in p and "temp_spatial" in p},
                 "benchmark": _MM},
        "B-R9": {"paper": PAPER["rs_row_acc_per_act"],
                 "ours": {b: [p["temp"]["dram_row_acc_per_act"],
                              p["temp_spatial"]["dram_row_acc_per_act"]]
                          for b, p in per.items() if "temp" in p and "temp_spatial" in p},
                 "benchmark": _RS},
        "B-R10": {"paper": [PAPER["speedup_dueling"], PAPER["speedup_threshold"]],
                  "ours": [s["speedup_dueling"], s["speedup_threshold"]]},
        "B-R11": {"paper": [PAPER["energy_saving_temp"], PAPER["energy_saving_temp_spatial"],
                            PAPER["energy_saving_dueling"]],
                  "ours": [s["energy_saving_temp"], s["energy_saving_temp_spatial"],
                           s["energy_saving_dueling"]]},
        "B-R12": {"paper": PAPER["two_level"],
                  "ours": {m: sens.get("two_level", {}).get(m)
                           for m in ("temp_spatial", "dueling", "threshold")}},
        "B-R13": {"paper": [PAPER["regs_16k_dueling"], PAPER["regs_64k_dueling"]],
                  "ours": [sens.get("regs_16k", {}).get("speedup_dueling"),
                           sens.get("regs_64k", {}).get("speedup_dueling")]},
        "B-R14": {"paper": [PAPER["simd8"], PAPER["simd16"]],
                  "ours": [sens.get("simd8", {}).get("speedup_dueling"),
                           sens.get("simd16", {}).get("speedup_dueling")]},
        "B-R15": {"paper": "the next block waits for warp 0 (block level)",
                  "ours": "tests/mechanisms/test_wm_timeline.py (hand-computed timelines)"},
    }


def reproduce_warpman(*, quick: bool, out: Path, jobs: int | None = None,
                      dask: str | None = None) -> dict[str, Any]:
    """``warpsim reproduce warpman``: the quick (5 benchmarks) or full selection (+ bfs, MM);
    ``jobs`` and ``dask`` are accepted for the CLI and unused (the runs are in-process)."""
    del jobs, dask
    return run_experiment(BENCH_QUICK if quick else BENCH_FULL, out)


register_reproduction(
    "warpman", reproduce_warpman,
    "WarpMan (Xiang, dissertation ch. 3): unused registers, RTRU, temp / temp+spatial / "
    "dueling / threshold speedups and energy, two-level and register-file sensitivity")
