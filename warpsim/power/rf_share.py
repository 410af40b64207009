"""Register-file share of GPU energy per run, and its summary over a benchmark suite.

The acceptance figure of the energy model (issue #6, docs/energy-model.md §8): the register
file's share of dynamic GPU energy, which the literature puts at roughly 10-20% (Gebhart et al.
MICRO 2011: 15-20% of dynamic energy; Warped-Compression §1: 15% of total GPU power; RegLess
§6.3: the "No RF" bound saves 16.7% of GPU energy, and §1: up to 13% of GPU power on
GTX 980-like GPUs, after GPUWattch).

Follows: reference/energy-and-configs.md §1.3 (GPUWattch's RFP is the register-file
component: banks, RF->collector crossbar, arbiter, collectors, non-RF operands); RegLess §6.1
(its RF includes "register banks, arbitration logic for register read and write back units,
and operand collectors"). ``register_file`` of the GPUWattch tables is that RFP.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from warpsim.power.counters import power_counts
from warpsim.power.model import EnergyBreakdown, energy_for_gpu
from warpsim.power.presets import table_for_gpu
from warpsim.power.table import EnergyTable

__all__ = [
    "LITERATURE_RANGE",
    "RF_COMPONENT",
    "format_rf_share_table",
    "rf_share_row",
    "rf_share_summary",
]

RF_COMPONENT = "register_file"
"""The component whose share is reported (GPUWattch RFP in the GPUWattch tables)."""

LITERATURE_RANGE: tuple[float, float] = (0.10, 0.20)
"""RF share of dynamic GPU energy the literature reports (issue #6; module docstring)."""


def _top(parts: Mapping[str, float], total: float, n: int = 3) -> list[tuple[str, float]]:
    ranked = sorted(((k, v) for k, v in parts.items() if v > 0), key=lambda kv: -kv[1])
    return [(k, v / total) for k, v in ranked[:n]] if total > 0 else []


def rf_share_row(name: str, stats: Mapping[str, Any], gpu: Any, *,
                 activity: Mapping[str, float] | None = None,
                 table: EnergyTable | None = None, size: str = "",
                 verified: bool = True, launches: int = 0) -> dict[str, Any]:
    """One benchmark's row: energy by component and the register file's shares.

    ``stats`` are a run's cumulative counters (``Device.stats``); ``activity`` the GPUWattch
    activity counters of its launches (``power.activity``; absent counters fall back, see
    ``counters.DERIVATION_RULES``). Shares are fractions (0..1): ``rf_dyn_frac`` = dynamic RF
    energy / dynamic energy, ``rf_total_frac`` = RF energy (dynamic + bank leakage) / total
    energy (chip constant and idle SMs included).
    """
    table = table_for_gpu(gpu.name) if table is None else table
    counts = {**{k: v for k, v in stats.items() if v is not None}, **(activity or {})}
    bd: EnergyBreakdown = energy_for_gpu(counts, gpu, table)
    dyn = dict(bd.dynamic_by_component_j)
    rf_dyn = dyn.get(RF_COMPONENT, 0.0)
    non_rf_pj = sum(e.energy_pj for e in table.entries_of(RF_COMPONENT)
                    if e.counter == "gpuwattch_non_rf_operands")
    non_rf = power_counts(counts).get("gpuwattch_non_rf_operands", 0.0) * non_rf_pj * 1e-12
    return {
        "benchmark": name, "size": size, "table": bd.table, "verified": bool(verified),
        "launches": int(launches), "cycles": int(stats.get("gpu_sim_cycle") or 0),
        "ipc": float(stats.get("gpu_ipc") or 0.0),
        "dynamic_j": bd.dynamic_j, "static_j": bd.static_j, "total_j": bd.total_j,
        "rf_dynamic_j": rf_dyn, "rf_total_j": bd.by_component_j.get(RF_COMPONENT, 0.0),
        "rf_non_rf_operand_j": non_rf,
        "rf_dyn_frac": rf_dyn / bd.dynamic_j if bd.dynamic_j > 0 else 0.0,
        "rf_total_frac": bd.share(RF_COMPONENT),
        "dyn_total_frac": bd.dynamic_j / bd.total_j if bd.total_j > 0 else 0.0,
        "top_dynamic": _top(dyn, bd.dynamic_j),
        "dynamic_by_component_j": dyn,
    }


def rf_share_summary(rows: Sequence[Mapping[str, Any]],
                     range_frac: tuple[float, float] = LITERATURE_RANGE) -> dict[str, Any]:
    """Mean, median and energy-weighted RF shares over ``rows``, and how many fall below, in
    and above ``range_frac``."""
    if not rows:
        return {"n": 0}
    dyn = [float(r["rf_dyn_frac"]) for r in rows]
    tot = [float(r["rf_total_frac"]) for r in rows]
    lo, hi = range_frac
    return {
        "n": len(rows),
        "mean_rf_dyn_frac": statistics.fmean(dyn),
        "median_rf_dyn_frac": statistics.median(dyn),
        "mean_rf_total_frac": statistics.fmean(tot),
        "weighted_rf_dyn_frac": _ratio(rows, "rf_dynamic_j", "dynamic_j"),
        "weighted_rf_total_frac": _ratio(rows, "rf_total_j", "total_j"),
        "n_below": sum(d < lo for d in dyn),
        "n_in_range": sum(lo <= d <= hi for d in dyn),
        "n_above": sum(d > hi for d in dyn),
        "range": [lo, hi],
    }


def _ratio(rows: Iterable[Mapping[str, Any]], num: str, den: str) -> float:
    n = d = 0.0
    for r in rows:
        n += float(r[num])
        d += float(r[den])
    return n / d if d > 0 else 0.0


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


_SHORT = {"register_file": "RF", "shared_memory": "shared", "interconnect": "icnt"}


def format_rf_share_table(rows: Sequence[Mapping[str, Any]],
                          summary: Mapping[str, Any] | None = None) -> str:
    """A Markdown table of ``rows`` (docs/energy-model.md §8) with the summary lines."""
    head = ("| benchmark | launches | cycles | IPC | RF / dyn | RF / total | dyn / total "
            "| non-RF operands / RF | largest dynamic |")
    lines = [head, "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        top = ", ".join(f"{_SHORT.get(k, k)} {100 * f:.0f}%" for k, f in r["top_dynamic"])
        nonrf = r["rf_non_rf_operand_j"] / r["rf_dynamic_j"] if r["rf_dynamic_j"] else 0.0
        mark = "" if r["verified"] else " (not verified)"
        lines.append(f"| {r['benchmark']}{mark} | {r['launches']} | {r['cycles']:,} | "
                     f"{r['ipc']:.1f} | {_pct(r['rf_dyn_frac'])} | {_pct(r['rf_total_frac'])} "
                     f"| {100 * r['dyn_total_frac']:.0f}% | {100 * nonrf:.0f}% | {top} |")
    s = summary if summary is not None else rf_share_summary(rows)
    if s.get("n"):
        lines.append(f"| **mean of {s['n']}** | | | | **{_pct(s['mean_rf_dyn_frac'])}** | "
                     f"**{_pct(s['mean_rf_total_frac'])}** | | | median RF / dyn "
                     f"{_pct(s['median_rf_dyn_frac'])} |")
        lines.append(f"| energy-weighted (Σ RF / Σ E) | | | | "
                     f"{_pct(s['weighted_rf_dyn_frac'])} | {_pct(s['weighted_rf_total_frac'])} "
                     f"| | | |")
        lo, hi = s["range"]
        lines.append("")
        lines.append(f"RF / dyn below {_pct(lo)}: {s['n_below']}, in {_pct(lo)}-{_pct(hi)}: "
                     f"{s['n_in_range']}, above: {s['n_above']} (of {s['n']}).")
    return "\n".join(lines)
