"""Register-Sharing reproduction: result records -> the paper's metrics (pure functions).

Speedup of a configuration = IPC_config / IPC_baseline - 1, in percent (spec §7.6; Figs. 9,
10, 12-15); "% decrease" of idle/stall cycles = (base - new) / base x 100 (Fig. 11). IPC is
per evaluated kernel, Σinsn / Σcycles over its launches (``rs_kernels`` column of
``rs_jobs.simulate_rs``), else the benchmark's. Set-2 is "identical" when the shared
configuration runs exactly the cycles of its unshared scheduler (Fig. 15, spec §8.8).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from typing import Any

from warpsim.experiments.rs_configs import THRESHOLDS, BenchSel, threshold_label

__all__ = ["MAIN", "analyse", "index_records", "kernel_counts", "speedup_pct"]

MAIN = "Shared-OWF-Unroll-Dyn"
"""The paper's approach (t = 0.1)."""
LRR, GTO, TWO, R64 = "Unshared-LRR", "Unshared-GTO", "Unshared-two-level", \
    "Unshared-LRR-Reg#65536"
ABLATION = ("Shared-LRR-NoOpt", "Shared-LRR-Unrolled", "Shared-LRR-Unrolled-Dyn", MAIN)


def speedup_pct(new: float | None, base: float | None) -> float | None:
    """(new / base - 1) x 100; None when either is missing or base is not positive."""
    if new is None or base is None or not base > 0 or not math.isfinite(new):
        return None
    return (new / base - 1.0) * 100.0


def _decrease_pct(new: float | None, base: float | None) -> float | None:
    s = speedup_pct(new, base)
    return None if s is None else -s


def index_records(records: Iterable[Mapping[str, Any]]) -> dict[tuple[str, str, str], dict]:
    """``{(benchmark, size, label): record}`` of the successful records (the last one
    wins)."""
    out: dict[tuple[str, str, str], dict] = {}
    for rec in records:
        if rec.get("status", "ok") == "ok":
            out[(str(rec["benchmark"]), str(rec["size"]), str(rec["label"]))] = dict(rec)
    return out


def kernel_counts(rec: Mapping[str, Any] | None, kernel: str | None) -> dict[str, float]:
    """Counters of ``kernel`` in record ``rec`` (from ``rs_kernels``), else the benchmark's
    cumulative ones; empty when ``rec`` is None."""
    if rec is None:
        return {}
    raw = rec.get("rs_kernels")
    if kernel and isinstance(raw, str) and raw:
        per = json.loads(raw)
        if kernel in per:
            return {k: float(v) for k, v in per[kernel].items()}
    return {k: float(v) for k, v in rec.items()
            if isinstance(v, int | float) and not isinstance(v, bool)
            and not (isinstance(v, float) and math.isnan(v))}


def _ipc(c: Mapping[str, float]) -> float | None:
    insn, cyc = c.get("gpu_sim_insn"), c.get("gpu_sim_cycle")
    return insn / cyc if insn is not None and cyc else None


def _blocks(c: Mapping[str, float]) -> dict[str, int] | None:
    if "rs_blocks_per_sm" not in c:
        return None
    return {"baseline": int(c.get("rs_baseline_blocks_per_sm", 0)),
            "blocks": int(c["rs_blocks_per_sm"]), "shared_pairs": int(c.get("rs_shared_pairs", 0)),
            "unshared_blocks": int(c.get("rs_unshared_blocks", 0))}


def _set1_row(idx: dict, bench: str, size: str, kernel: str | None,
              labels: Iterable[str]) -> dict[str, Any]:
    counts = {lab: kernel_counts(idx.get((bench, size, lab)), kernel) for lab in labels}
    ipc = {lab: _ipc(c) for lab, c in counts.items() if c}
    over = {lab: speedup_pct(v, ipc.get(LRR)) for lab, v in ipc.items() if lab != LRR}
    main, lrr = counts.get(MAIN, {}), counts.get(LRR, {})
    row: dict[str, Any] = {
        "set": 1, "size": size, "kernel": kernel, "ipc": ipc, "speedup_over_lrr": over,
        "speedup_over_gto": speedup_pct(ipc.get(MAIN), ipc.get(GTO)),
        "speedup_over_two_level": speedup_pct(ipc.get(MAIN), ipc.get(TWO)),
        "speedup_64k_over_lrr": over.get(R64),
        "idle_decrease_pct": _decrease_pct(main.get("sched_idle_cycles"),
                                           lrr.get("sched_idle_cycles")),
        "stall_decrease_pct": _decrease_pct(main.get("sched_pipe_stall_cycles"),
                                            lrr.get("sched_pipe_stall_cycles")),
        "blocks": _blocks(main),
        "threshold_ipc": {f"{t:g}": ipc.get(threshold_label(t)) for t in THRESHOLDS},
        "threshold_blocks": {f"{t:g}": (_blocks(counts.get(threshold_label(t), {})) or {})
                             .get("blocks") for t in THRESHOLDS},
        "missing": sorted(lab for lab, c in counts.items() if not c),
    }
    a, b = ipc.get(MAIN), ipc.get(R64)
    row["sharing_beats_64k"] = None if a is None or b is None else bool(a > b)
    return row


def _set2_row(idx: dict, bench: str, size: str, labels: Iterable[str]) -> dict[str, Any]:
    recs = {lab: idx.get((bench, size, lab)) for lab in labels}
    cyc = {lab: (int(r["gpu_sim_cycle"]) if r is not None else None) for lab, r in recs.items()}
    ipc = {lab: _ipc(kernel_counts(r, None)) for lab, r in recs.items() if r is not None}

    def same(a: str, b: str) -> bool | None:
        return None if cyc.get(a) is None or cyc.get(b) is None else cyc[a] == cyc[b]

    return {"set": 2, "size": size, "kernel": None, "ipc": ipc, "cycles": cyc,
            "speedup_over_lrr": {lab: speedup_pct(v, ipc.get(LRR)) for lab, v in ipc.items()
                                 if lab != LRR},
            "lrr_identical": same("Shared-LRR-Unrolled-Dyn", LRR),
            "gto_identical": same("Shared-GTO-Unroll-Dyn", GTO),
            "owf_vs_gto_pct": speedup_pct(ipc.get(MAIN), ipc.get(GTO)),
            "missing": sorted(lab for lab, r in recs.items() if r is None)}


def _stat(values: Iterable[float | None], fn: Any) -> float | None:
    vals = [v for v in values if v is not None]
    return fn(vals) if vals else None


def analyse(records: Iterable[Mapping[str, Any]], sel: BenchSel,
            set1_labels: Iterable[str], set2_labels: Iterable[str]) -> dict[str, Any]:
    """The reproduction's summary: ``max_speedup_over_lrr``, ``mean_speedup_over_lrr``,
    ``max_speedup_over_gto``, ``max_speedup_over_two_level`` (percent, Set-1, Shared-OWF-
    Unroll-Dyn), ``wins_vs_64k``, ``set2_identical`` and ``per_benchmark``."""
    idx = index_records(records)
    s1, s2 = tuple(set1_labels), tuple(set2_labels)
    per = {b: _set1_row(idx, b, size, k, s1) for b, (size, k) in sel.set1.items()}
    per.update({b: _set2_row(idx, b, size, s2) for b, (size, _k) in sel.set2.items()})
    set1 = [r for r in per.values() if r["set"] == 1]
    main = [r["speedup_over_lrr"].get(MAIN) for r in set1]
    set2 = [r for r in per.values() if r["set"] == 2]
    checks = [r[k] for r in set2 for k in ("lrr_identical", "gto_identical")]
    wins = [r["sharing_beats_64k"] for r in set1 if r["sharing_beats_64k"] is not None]
    ablation = {lab: _stat((r["speedup_over_lrr"].get(lab) for r in set1),
                           lambda v: sum(v) / len(v)) for lab in ABLATION}
    return {
        "speedup_unit": "percent",
        "max_speedup_over_lrr": _stat(main, max),
        "max_speedup_over_lrr_benchmark": max(
            ((r["speedup_over_lrr"].get(MAIN), b) for b, r in per.items() if r["set"] == 1
             and r["speedup_over_lrr"].get(MAIN) is not None), default=(None, None))[1],
        "mean_speedup_over_lrr": _stat(main, lambda v: sum(v) / len(v)),
        "max_speedup_over_gto": _stat((r["speedup_over_gto"] for r in set1), max),
        "mean_speedup_over_gto": _stat((r["speedup_over_gto"] for r in set1),
                                       lambda v: sum(v) / len(v)),
        "max_speedup_over_two_level": _stat((r["speedup_over_two_level"] for r in set1), max),
        "mean_ablation_speedup_over_lrr": ablation,
        "wins_vs_64k": f"{sum(wins)}/{len(wins)}",
        "set2_identical": bool(checks) and all(c is True for c in checks),
        "set2_max_owf_vs_gto_pct": _stat((abs(r["owf_vs_gto_pct"]) for r in set2
                                          if r["owf_vs_gto_pct"] is not None), max),
        "n_set1": len(set1), "n_set2": len(set2),
        "missing_runs": {b: r["missing"] for b, r in per.items() if r["missing"]},
        "per_benchmark": per,
    }
