"""Reproduction of the coarse-grained L1 fetch (Xiang, "Toward Efficient SIMT Execution",
ch. 5) on the dissertation's Table 8 GPU: ``warpsim reproduce l1-coarse-fetch [--quick]
[--json]``.

Runs warpsim's own Rodinia-like benchmarks (``cf_runs.BENCH_QUICK`` / ``BENCH_FULL``) under the
baseline, coarse2 and coarse4 without (Fig. 57) and with set dueling (Fig. 58), plus each
benchmark's locality at the chapter's reference points. Writes ``summary.json`` into the result
folder and returns the summary: ``coarse2_mean_speedup``, ``coarse4_mean_speedup`` (with
dueling, the dissertation's 2.7 % / 3.5 %), ``max_speedup`` (25.7 %),
``min_speedup_with_dueling`` (no slowdown), the same without dueling, ``per_benchmark``,
``targets`` (D-R1, D-R2), ``paper``.

Follows: specs/xiang-simt-efficiency.md §4; docs/reproductions/l1-coarse-fetch.md.
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from warpsim.experiments.cf_runs import BENCH_FULL, BENCH_QUICK, POLICIES, BenchSel, run_one
from warpsim.runner.reproduce import register_reproduction

__all__ = ["PAPER", "gm_speedup", "reproduce_coarse_fetch", "run_experiment"]

_log = logging.getLogger(__name__)

PAPER: dict[str, Any] = {
    "coarse2_mean_speedup": 0.027, "coarse4_mean_speedup": 0.035, "max_speedup": 0.257,
    "min_speedup_with_dueling": 0.0,
    "strong_gain": ["b+tree", "heartwall", "kmeans", "pathfinder", "sradv1"],
    "trivial_gain": ["backprop", "bfs"], "fine_grained_off": ["lavaMD", "myocyte"],
    "hurt_without_dueling": ["lud", "nw"],
    "locality_kmeans": {"w32_n128": 0.00407, "w2_n2048": 0.142297},
    "locality_myocyte": {"w128_n2": 0.184621, "w64_n4": 0.132478},
}
"""The dissertation's numbers (§5.3, §5.5; spec §4 [A]: 2.7 % coarse2, 3.5 % coarse4)."""

LOCALITY_POINTS = ((32, 128), (2, 2048), (128, 2), (64, 4))
"""(window, neighbourhood) of the chapter's kmeans and myocyte reference values."""


def gm_speedup(values: Sequence[float]) -> float:
    """Geometric-mean speedup: GM(1 + s) - 1 (NaN when empty)."""
    vals = [1.0 + v for v in values if v == v]
    if not vals:
        return float("nan")
    return math.exp(sum(math.log(v) for v in vals) / len(vals)) - 1.0


def _per_bench(runs: dict[str, dict[str, Any]]) -> dict[str, Any]:
    base = runs["base"]
    out: dict[str, Any] = {"cycles_base": base["cycles"],
                           "l1d_miss_rate_base": base["l1d_miss_rate"],
                           "l2_accesses_base": base["l2_accesses"],
                           "verified": all(r["verified"] for r in runs.values())}
    for pol, r in runs.items():
        if pol == "base":
            continue
        row = {"cycles": r["cycles"], "speedup": base["cycles"] / r["cycles"] - 1.0,
               "l1d_miss_rate": r["l1d_miss_rate"],
               "l2_traffic_ratio": (r["l2_accesses"] / base["l2_accesses"]
                                    if base["l2_accesses"] else float("nan")),
               "neighbour_lines_sent": r.get("cf_lines_sent", 0) + r.get("l1d_group_lines", 0),
               "neighbour_lines_dropped": (r.get("cf_lines_dropped", 0)
                                           + r.get("l1d_group_lines_dropped", 0)),
               "paired_requests": r.get("l1d_group_requests", 0),
               "paired_splits": r.get("l1d_group_splits", 0)}
        if pol.endswith("_duel"):
            row["epochs"] = r.get("cf_dueling_epochs", 0)
            row["epochs_coarse"] = r.get("cf_dueling_epochs_coarse", 0)
        out[pol] = row
    return out


def _locality(sel: BenchSel) -> dict[str, float]:
    from warpsim.experiments.locality_cli import benchmark_streams
    from warpsim.mechanisms.coarse_fetch.locality import locality

    ws = sorted({w for w, _ in LOCALITY_POINTS})
    ns = sorted({n for _, n in LOCALITY_POINTS})
    s = locality(benchmark_streams(sel.name, sel.size, 15, dict(sel.params) or None), ws, ns)
    return {f"w{w}_n{n}": s.at(w, n) for w, n in LOCALITY_POINTS}


def run_experiment(benches: tuple[BenchSel, ...], out: str | Path, *,
                   policies: tuple[str, ...] = POLICIES, runner: Any = None,
                   with_locality: bool = True) -> dict[str, Any]:
    """Run every benchmark under ``policies``, analyse, write ``summary.json`` into ``out``.
    ``runner`` replaces ``run_one`` (tests)."""
    run = runner or run_one
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    per: dict[str, Any] = {}
    for sel in benches:
        runs = {}
        for pol in policies:
            _log.info("l1-coarse-fetch: %s %s", sel.name, pol)
            runs[pol] = run(sel, pol)
        per[sel.name] = _per_bench(runs)
        per[sel.name]["paper_says"] = sel.paper
        per[sel.name]["input"] = {"size": sel.size, **dict(sel.params)}
        if with_locality:
            per[sel.name]["locality"] = _locality(sel)

    def sp(pol: str) -> list[float]:
        return [p[pol]["speedup"] for p in per.values() if pol in p]

    duel = sp("coarse2_duel") + sp("coarse4_duel")
    summary: dict[str, Any] = {
        "config": "table8",
        "coarse2_mean_speedup": gm_speedup(sp("coarse2_duel")),
        "coarse4_mean_speedup": gm_speedup(sp("coarse4_duel")),
        "max_speedup": max(duel, default=float("nan")),
        "min_speedup_with_dueling": min(duel, default=float("nan")),
        "coarse2_mean_speedup_no_dueling": gm_speedup(sp("coarse2")),
        "coarse4_mean_speedup_no_dueling": gm_speedup(sp("coarse4")),
        "max_speedup_no_dueling": max(sp("coarse2") + sp("coarse4"), default=float("nan")),
        "min_speedup_no_dueling": min(sp("coarse2") + sp("coarse4"), default=float("nan")),
        "per_benchmark": per,
        "paper": PAPER,
    }
    summary["targets"] = {
        "D-R1": {"paper": [PAPER["coarse2_mean_speedup"], PAPER["coarse4_mean_speedup"],
                           PAPER["max_speedup"]],
                 "ours": [summary["coarse2_mean_speedup"], summary["coarse4_mean_speedup"],
                          summary["max_speedup"]]},
        "D-R2": {"paper": "no benchmark below the baseline with dueling",
                 "ours": summary["min_speedup_with_dueling"]},
    }
    summary["out"] = str(out)
    (out / "summary.json").write_text(json.dumps(summary, indent=2, default=str))
    return summary


def reproduce_coarse_fetch(*, quick: bool, out: Path, jobs: int | None = None,
                           dask: str | None = None) -> dict[str, Any]:
    """``warpsim reproduce l1-coarse-fetch``: the quick (4 benchmarks) or full selection;
    ``jobs`` and ``dask`` are accepted for the CLI and unused (the runs are in-process)."""
    del jobs, dask
    return run_experiment(BENCH_QUICK if quick else BENCH_FULL, out)


register_reproduction(
    "l1-coarse-fetch", reproduce_coarse_fetch,
    "coarse-grained L1 fetch (Xiang, dissertation ch. 5): coarse2 / coarse4 with and without "
    "set dueling on the Table 8 GPU, locality at the chapter's reference points")
