"""The RegLess reproduction's arithmetic: one benchmark's row (runtime, preload sources, L1/L2
traffic, region statistics, energy) and the summary over benchmarks (geomeans, savings, the
capacity sweep's Pareto frontier).

Follows: Kloosterman et al., RegLess (MICRO-50 2017) §6.3-§6.6 (Figs. 13-19, Table 2);
specs/regless.md §6.1 (report the arithmetic mean and the geomean of normalized energies),
§7.5 (preloads from L1 and from L2/DRAM, L1 requests per cycle per SM, added L2 requests),
§8.1.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from warpsim.experiments.rl_energy import regless_energy, rfh_access_saving, rfh_energy

__all__ = ["PAPER", "bench_row", "geomean", "pareto", "rfh_row", "summarize"]

PAPER = {"rf_energy_saving": 0.753, "gpu_energy_saving": 0.11, "mean_slowdown": 0.0,
         "preload_l1_fraction": 0.009, "preload_l2_fraction": 0.00013,
         "l1_requests_per_cycle_per_sm": 0.02, "no_rf_bound": 0.167,
         "mean_region_instructions": 7.23, "no_compressor_slowdown": 0.102,
         "rfv_rf_energy_saving": 0.452,
         "rfv_gpu_energy_saving": 0.037, "rfh_rf_energy_saving": 0.620,
         "rfh_gpu_energy_saving": 0.029}
"""The paper's headline numbers (§6; Table 2 mean over its 21 benchmarks; L1 requests: "fewer
than 0.02")."""

NOT_MODELLED = ["metadata words shifting PCs and I-cache lines (the I-cache is perfect; the "
                "words take fetch and decode slots only)"]

PATTERNS = ("constant", "stride1", "stride4", "half_stride1", "half_stride4")
"""The compressor's patterns, in the order of ``rl_evictions_compressed_<pattern>``."""


def geomean(xs: Sequence[float]) -> float | None:
    """Geometric mean of the positive values (None when there are none)."""
    xs = [x for x in xs if x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def pareto(points: Mapping[str, tuple[float, float]]) -> list[str]:
    """Keys of the points no other point dominates (both coordinates <=, one <): Fig. 13's
    frontier of (runtime, energy), both lower-is-better."""
    out = []
    for k, (x, y) in points.items():
        if not any((x2 <= x and y2 <= y and (x2 < x or y2 < y))
                   for k2, (x2, y2) in points.items() if k2 != k):
            out.append(k)
    return out


def bench_row(base: Mapping[str, Any], r: Mapping[str, Any], base_cfg: Any,
              rl_cfg: Any) -> dict[str, Any]:
    """One benchmark at one capacity against its baseline run (``run_one``'s dicts)."""
    s = r["stats"]
    b = base["stats"]
    pre = max(1, s.get("rl_preloads", 0))
    regions = max(1, s.get("rl_regions_executed", 0))
    cycles = max(1, r["cycles"])
    l2_base = b.get("L2_total_cache_accesses", 0)
    en = regless_energy(b, s, base_cfg, rl_cfg)
    return {
        "cycles": r["cycles"], "runtime_ratio": r["cycles"] / max(1, base["cycles"]),
        "verified": r["verified"],
        "preload_osu_fraction": s.get("rl_preload_osu", 0) / pre,
        "preload_compressor_fraction": s.get("rl_preload_compressor", 0) / pre,
        "preload_mem_fraction": s.get("rl_preload_mem", 0) / pre,
        "preload_l1_fraction": s.get("rl_preload_l1", 0) / pre,
        "preload_l2_fraction": s.get("rl_preload_l2", 0) / pre,
        "preload_undefined_fraction": s.get("rl_preload_undefined", 0) / pre,
        "evictions_dirty": s.get("rl_evictions_dirty", 0),
        "evictions_clean": s.get("rl_evictions_clean", 0),
        "evictions_compressed": s.get("rl_evictions_compressed", 0),
        "evictions_incompressible": s.get("rl_evictions_incompressible", 0),
        "evictions_compressed_by_pattern": {k: s.get(f"rl_evictions_compressed_{k}", 0)
                                            for k in PATTERNS},
        "l1_line_loads": s.get("rl_line_loads", 0), "l1_line_stores": s.get("rl_line_stores", 0),
        "l1_requests_per_cycle_per_sm": ((s.get("rl_line_loads", 0) + s.get("rl_line_stores", 0))
                                         / (cycles * rl_cfg.sm.n_sms)),
        "added_l2_requests_frac": ((s.get("L2_total_cache_accesses", 0) - l2_base) / l2_base
                                   if l2_base else None),
        "cm_capacity_stall_cycles": s.get("rl_cm_capacity_stall_cycles", 0),
        "regions_executed": s.get("rl_regions_executed", 0),
        "dynamic_insns_per_region": s.get("rl_region_insns", 0) / regions,
        "cycles_per_region": s.get("rl_region_cycles", 0) / regions,
        "static_insns_per_region": r.get("static_insns_per_region"),
        "static_need_per_region": r.get("static_need_per_region"),
        "static_inputs_per_region": r.get("static_inputs_per_region"),
        "meta_words": s.get("rl_meta_words", 0),
        "meta_words_fetched": s.get("rl_meta_words_fetched", 0),
        "compressor_ops": s.get("rl_compressor_ops", 0),
        "osu_overcommits": s.get("rl_osu_overcommits", 0),
        "energy": en.to_dict()}


def rfh_row(base: Mapping[str, Any], r: Mapping[str, Any], base_cfg: Any,
            rfh_cfg: Any) -> dict[str, Any]:
    """The RFH baseline's row: runtime (two-level scheduler) and energy (its accesses)."""
    acc = r["rfh_accesses"]
    en = rfh_energy(base["stats"], r["stats"], acc, base_cfg, rfh_cfg)
    reads = acc["mrf_reads"] + acc["orf_reads"] + acc["lrf_reads"]
    return {"cycles": r["cycles"], "runtime_ratio": r["cycles"] / max(1, base["cycles"]),
            "verified": r["verified"], "accesses": dict(acc),
            "mrf_read_fraction": acc["mrf_reads"] / reads if reads else None,
            "rf_access_energy_saving": rfh_access_saving(r["stats"], acc, rfh_cfg),
            "energy": en.to_dict()}


def _mean(xs: Sequence[float]) -> float | None:
    return sum(xs) / len(xs) if xs else None


def _capacity(per: Mapping[str, Any], key: str) -> dict[str, Any]:
    rows = [p[key] for p in per.values() if key in p]
    en = [x["energy"] for x in rows]
    return {
        "runtime_geomean": geomean([x["runtime_ratio"] for x in rows]),
        "gpu_energy_geomean": geomean([e["gpu_j"] / e["gpu_base_j"] for e in en
                                       if e["gpu_base_j"]]),
        "rf_energy_saving": _mean([e["rf_energy_saving"] for e in en]),
        "gpu_energy_saving": _mean([e["gpu_energy_saving"] for e in en]),
        "worst_runtime_ratio": max((x["runtime_ratio"] for x in rows), default=None)}


def _no_compressor(per: Mapping[str, Any]) -> float | None:
    """Geomean runtime of RegLess-512 without the compressor over RegLess-512, minus 1."""
    gm = geomean([p["rl512_nc"]["cycles"] / max(1, p["rl512"]["cycles"]) for p in per.values()
                  if "rl512_nc" in p and "rl512" in p])
    return None if gm is None else gm - 1.0


def _pattern_shares(rows: Sequence[Mapping[str, Any]]) -> dict[str, float] | None:
    """Share of each pattern among the compressed evictions of all rows (None: none)."""
    n = {k: sum(x.get("evictions_compressed_by_pattern", {}).get(k, 0) for x in rows)
         for k in PATTERNS}
    total = sum(n.values())
    return {k: v / total for k, v in n.items()} if total else None


def _baseline(per: Mapping[str, Any], key: str) -> dict[str, float | None]:
    """Savings and geomean runtime of a comparison baseline's rows (None when not run)."""
    rows = [p[key] for p in per.values() if key in p]
    en = [x["energy"] for x in rows]
    return {"rf_energy_saving": _mean([e["rf_energy_saving"] for e in en]),
            "gpu_energy_saving": _mean([e["gpu_energy_saving"] for e in en]),
            "runtime_geomean": geomean([x["runtime_ratio"] for x in rows])}


def summarize(per: Mapping[str, Any], capacities: Sequence[int], config: str) -> dict[str, Any]:
    """The reproduction's summary; the headline numbers are those of 512 entries per SM (or
    the first capacity run when 512 is not)."""
    main = "rl512" if 512 in capacities else f"rl{capacities[0]}"
    rows = [p[main] for p in per.values() if main in p]
    en = [x["energy"] for x in rows]
    sweep = {f"rl{c}": _capacity(per, f"rl{c}") for c in capacities}
    pts = {k: (v["runtime_geomean"], v["gpu_energy_geomean"]) for k, v in sweep.items()
           if v["runtime_geomean"] is not None and v["gpu_energy_geomean"] is not None}
    gm = geomean([x["runtime_ratio"] for x in rows])
    rs_gm = geomean([e["rs_j"] for e in en])
    rf_gm = geomean([e["rf_base_j"] for e in en])
    return {
        "config": config, "capacities": list(capacities), "headline": main,
        "mean_slowdown": None if gm is None else gm - 1.0,
        "rf_energy_saving": _mean([e["rf_energy_saving"] for e in en]),
        "rf_energy_saving_geomean": (None if rs_gm is None or not rf_gm
                                     else 1.0 - rs_gm / rf_gm),
        "rf_energy_saving_with_l1": _mean([e["rf_energy_saving_with_l1"] for e in en]),
        "gpu_energy_saving": _mean([e["gpu_energy_saving"] for e in en]),
        "gpu_energy_saving_geomean": (None if not en else 1.0 - (geomean(
            [e["gpu_j"] / e["gpu_base_j"] for e in en if e["gpu_base_j"]]) or 1.0)),
        "no_rf_bound": _mean([e["no_rf_bound"] for e in en]),
        "preload_l1_fraction": _mean([x["preload_l1_fraction"] for x in rows]),
        "preload_l2_fraction": _mean([x["preload_l2_fraction"] for x in rows]),
        "l1_requests_per_cycle_per_sm": _mean([x["l1_requests_per_cycle_per_sm"]
                                               for x in rows]),
        "mean_region_instructions": _mean([x["static_insns_per_region"] or 0 for x in rows]),
        "no_compressor_slowdown": _no_compressor(per),
        "compressed_pattern_shares": _pattern_shares(rows),
        "rfv": _baseline(per, "rfv"),
        "rfh": {**_baseline(per, "rfh"), "rf_access_energy_saving": _mean(
            [p["rfh"]["rf_access_energy_saving"] for p in per.values() if "rfh" in p])},
        "not_modelled": NOT_MODELLED,
        "capacity_sweep": sweep, "pareto_capacities": pareto(pts),
        "per_benchmark": per, "paper": PAPER}
