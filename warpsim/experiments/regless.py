"""Reproduction of RegLess (Kloosterman et al., MICRO-50 2017) on the GTX980-like configuration
(the paper's Table 1): ``warpsim reproduce regless [--quick] [--json]``.

Runs warpsim's Rodinia-like benchmarks under the baseline register file and RegLess at 512
entries per SM (the full run adds the 128/256/1024 capacity sweep), and reports runtime
against the full register file (Fig. 11's geomean), preload sources (Fig. 17) and region
statistics (Table 2's instructions per region). Writes ``summary.json`` in the result folder and
returns it (``--json`` prints it): ``mean_slowdown``, ``preload_l1_fraction``,
``preload_l2_fraction``, ``mean_region_instructions``, ``per_benchmark``,
``rf_energy_saving``/``gpu_energy_saving`` and the RFV/RFH entries (None: not modelled yet),
``paper``.

Follows: specs/regless.md §8; docs/reproductions/regless.md.
"""

from __future__ import annotations

import json
import math
import time
from pathlib import Path
from typing import Any

from warpsim.runner.reproduce import register_reproduction

__all__ = ["BENCH_FULL", "BENCH_QUICK", "PAPER", "reproduce_regless", "run_one"]

CONFIG = "gtx980"
BENCH_QUICK = (("hotspot", "tiny"), ("pathfinder", "tiny"), ("bfs", "tiny"))
BENCH_FULL = (*BENCH_QUICK, ("nw", "tiny"), ("srad", "tiny"), ("backprop", "tiny"))
CAPACITIES_FULL = (128, 256, 512, 1024)
PAPER = {"rf_energy_saving": 0.753, "gpu_energy_saving": 0.11, "mean_slowdown": 0.0,
         "preload_l1_fraction": 0.009, "preload_l2_fraction": 0.00013,
         "mean_region_instructions": 7.23, "rfv_rf_energy_saving": 0.452,
         "rfv_gpu_energy_saving": 0.037, "rfh_rf_energy_saving": 0.620,
         "rfh_gpu_energy_saving": 0.029}
"""The paper's headline numbers (§6; Table 2 mean over its 21 benchmarks)."""


def run_one(bench: str, size: str, entries: int | None) -> dict[str, Any]:
    """One benchmark, baseline (``entries`` None) or RegLess with ``entries`` per SM."""
    from warpsim.bench import run_benchmark
    from warpsim.runtime import Device

    ov = [] if entries is None else ["regless.enabled=true",
                                      f"regless.entries_per_sm={entries}"]
    dev = Device(config=CONFIG, overrides=ov)
    t0 = time.perf_counter()
    try:
        res = run_benchmark(bench, size=size, device=dev)
        stats = dict(dev.stats)
        sim = getattr(dev, "_timing_sim", None)
        plans = dict(getattr(getattr(sim, "mechanism", None), "plans", {}) or {})
    finally:
        dev.close()
    out = {"bench": bench, "entries": entries, "verified": bool(res.verified),
           "cycles": int(stats.get("gpu_tot_sim_cycle", 0)),
           "wall_s": round(time.perf_counter() - t0, 2),
           **{k: v for k, v in stats.items() if k.startswith("rl_")}}
    if plans:
        regs = [r for p in plans.values() for r in p.regions]
        out["static_insns_per_region"] = sum(r.n_insns for r in regs) / max(1, len(regs))
        out["static_inputs_per_region"] = sum(len(r.inputs) for r in regs) / max(1, len(regs))
        out["static_need_per_region"] = sum(r.need_total for r in regs) / max(1, len(regs))
    return out


def _gm(xs: list[float]) -> float | None:
    xs = [x for x in xs if x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def run_experiment(benches: tuple[tuple[str, str], ...], capacities: tuple[int, ...],
                   out: Path) -> dict[str, Any]:
    """Every benchmark at the baseline and each capacity; the summary."""
    per: dict[str, Any] = {}
    for bench, size in benches:
        base = run_one(bench, size, None)
        row: dict[str, Any] = {"cycles_base": base["cycles"], "verified": base["verified"]}
        for cap in capacities:
            r = run_one(bench, size, cap)
            pre = max(1, r.get("rl_preloads", 0))
            row[f"rl{cap}"] = {
                "cycles": r["cycles"], "runtime_ratio": r["cycles"] / max(1, base["cycles"]),
                "verified": r["verified"],
                "preload_osu_fraction": r.get("rl_preload_osu", 0) / pre,
                "preload_l1_fraction": r.get("rl_preload_l1", 0) / pre,
                "preload_undefined_fraction": r.get("rl_preload_undefined", 0) / pre,
                "evictions_dirty": r.get("rl_evictions_dirty", 0),
                "cm_capacity_stall_cycles": r.get("rl_cm_capacity_stall_cycles", 0),
                "regions_executed": r.get("rl_regions_executed", 0),
                "dynamic_insns_per_region": (r.get("rl_region_insns", 0)
                                             / max(1, r.get("rl_regions_executed", 0))),
                "cycles_per_region": (r.get("rl_region_cycles", 0)
                                      / max(1, r.get("rl_regions_executed", 0))),
                "static_insns_per_region": r.get("static_insns_per_region"),
                "static_need_per_region": r.get("static_need_per_region"),
                "static_inputs_per_region": r.get("static_inputs_per_region"),
                "meta_words": r.get("rl_meta_words", 0),
                "osu_overcommits": r.get("rl_osu_overcommits", 0)}
        per[bench] = row
    main = "rl512"
    ratios = [p[main]["runtime_ratio"] for p in per.values() if main in p]
    gm = _gm(ratios)
    pre = [p[main] for p in per.values() if main in p]
    summary: dict[str, Any] = {
        "config": CONFIG, "capacities": list(capacities),
        "mean_slowdown": None if gm is None else gm - 1.0,
        "preload_l1_fraction": (sum(x["preload_l1_fraction"] for x in pre) / len(pre)
                                if pre else None),
        "preload_l2_fraction": None,
        "mean_region_instructions": (sum(x["static_insns_per_region"] or 0 for x in pre)
                                     / len(pre) if pre else None),
        "rf_energy_saving": None, "gpu_energy_saving": None,
        "rfv": {"rf_energy_saving": None, "gpu_energy_saving": None},
        "rfh": {"rf_energy_saving": None, "gpu_energy_saving": None},
        "not_modelled": ["energy (no event energies declared yet)", "compressor",
                         "L1 vs L2 source of register lines", "RFV and RFH baselines",
                         "metadata fetch slots"],
        "capacity_sweep": {f"rl{c}": _gm([p[f"rl{c}"]["runtime_ratio"] for p in per.values()
                                           if f"rl{c}" in p]) for c in capacities},
        "per_benchmark": per, "paper": PAPER}
    out.mkdir(parents=True, exist_ok=True)
    (out / "summary.json").write_text(json.dumps(summary, indent=2))
    return summary


def reproduce_regless(*, quick: bool, out: Path, jobs: int | None = None,
                      dask: str | None = None) -> dict[str, Any]:
    """``warpsim reproduce regless``: quick = 3 tiny benchmarks at 512 entries per SM; the
    full run adds benchmarks and the capacity sweep. ``jobs``/``dask`` unused (in-process)."""
    del jobs, dask
    if quick:
        return run_experiment(BENCH_QUICK, (512,), out)
    return run_experiment(BENCH_FULL, CAPACITIES_FULL, out)


register_reproduction(
    "regless", reproduce_regless,
    "RegLess (Kloosterman et al., MICRO-50 2017): runtime vs the full register file, preload "
    "sources, region statistics, capacity sweep")
