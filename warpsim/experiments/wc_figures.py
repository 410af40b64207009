"""The figures of the Warped-Compression paper (Lee et al., ISCA 2015), drawn from our numbers.

Follows: specs/warped-compression.md §8.0 (figure index) and §9. Per-benchmark bar groups with an
arithmetic-mean group at the right ("AVG", as the paper averages), stacked bars for breakdowns
(Figs. 2, 5, 9), one line per cluster position for Fig. 10 and per-parameter curves for the
sensitivity studies (Figs. 14-21). Input: the per-benchmark metric rows of
:func:`warpsim.experiments.wc_metrics.benchmark_metrics` and the sensitivity tables that
:mod:`warpsim.experiments.warped_compression` builds. Figures without data are skipped.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from warpsim.experiments.wc_metrics import BDI_FULL_OPTIONS, SIM_BINS, mean_metrics

__all__ = ["draw_figures"]

AVG = "AVG"


def _plt() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _val(v: Any) -> float:
    return float(v) if isinstance(v, int | float) and not math.isnan(float(v)) else 0.0


def _with_avg(rows: Mapping[str, Mapping[str, Any]], keys: Sequence[str]) -> dict[str, dict]:
    table = {b: {k: r.get(k) for k in keys} for b, r in rows.items()}
    table[AVG] = mean_metrics(rows.values(), keys)
    return table


def _bars(path: Path, rows: Mapping[str, Mapping[str, Any]], series: Mapping[str, str], *,
          title: str, ylabel: str, stacked: bool = False, hline: float | None = None,
          avg: bool = True) -> Path | None:
    """Per-benchmark grouped (or stacked) bars of ``series`` (key -> legend)."""
    if not rows or not any(r.get(k) is not None for r in rows.values() for k in series):
        return None
    plt = _plt()
    table = _with_avg(rows, list(series)) if avg else {b: dict(r) for b, r in rows.items()}
    names = list(table)
    fig, ax = plt.subplots(figsize=(max(6.0, 0.55 * len(names) * max(1, len(series)) ** 0.5),
                                    3.6))
    width = 0.8 if stacked else 0.8 / len(series)
    bottom = [0.0] * len(names)
    for i, (key, label) in enumerate(series.items()):
        vals = [_val(table[b].get(key)) for b in names]
        xs = list(range(len(names))) if stacked else \
            [x - 0.4 + width * (i + 0.5) for x in range(len(names))]
        ax.bar(xs, vals, width, bottom=bottom if stacked else None, label=label)
        if stacked:
            bottom = [a + b for a, b in zip(bottom, vals, strict=True)]
    if hline is not None:
        ax.axhline(hline, color="k", lw=0.8, ls="--")
    ax.set_xticks(range(len(names)), names, rotation=60, ha="right", fontsize=8)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    fig.tight_layout()
    fig.savefig(path, dpi=110, bbox_inches="tight")  # the legend is outside
    plt.close(fig)
    return path


def _lines(path: Path, xs: Sequence[Any], curves: Mapping[str, Sequence[Any]], *, title: str,
           xlabel: str, ylabel: str) -> Path | None:
    if not curves or not xs:
        return None
    plt = _plt()
    fig, ax = plt.subplots(figsize=(5.5, 3.4))
    for label, ys in curves.items():
        ax.plot(list(xs), [_val(y) if y is not None else math.nan for y in ys], marker="o",
                label=label)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    fig.tight_layout()
    fig.savefig(path, dpi=110, bbox_inches="tight")  # the legend is outside
    plt.close(fig)
    return path


def _fig9(path: Path, rows: Mapping[str, Mapping[str, Any]]) -> Path | None:
    """Two stacked bars per benchmark: baseline (leakage, dynamic) and WC (leakage, dynamic,
    compression, decompression), both over the baseline's total."""
    keys = {"base": ("base_leakage_norm", "base_dynamic_norm"),
            "wc": ("wc_leakage_norm", "wc_dynamic_norm", "wc_comp_norm", "wc_decomp_norm")}
    if not rows:
        return None
    plt = _plt()
    table = _with_avg(rows, [k for ks in keys.values() for k in ks])
    names = list(table)
    fig, ax = plt.subplots(figsize=(max(6.0, 0.8 * len(names)), 3.6))
    colors = ("tab:blue", "tab:orange", "tab:green", "tab:red")
    labels = ("leakage", "dynamic", "compression", "decompression")
    for j, series in enumerate(("base", "wc")):
        bottom = [0.0] * len(names)
        for i, key in enumerate(keys[series]):
            vals = [_val(table[b].get(key)) for b in names]
            ax.bar([x - 0.2 + 0.4 * j for x in range(len(names))], vals, 0.38, bottom=bottom,
                   color=colors[i], label=labels[i] if j == 1 else None,
                   hatch="//" if series == "base" else None, edgecolor="white")
            bottom = [a + b for a, b in zip(bottom, vals, strict=True)]
    ax.set_xticks(range(len(names)), names, rotation=60, ha="right", fontsize=8)
    ax.set_ylabel("energy / baseline total")
    ax.set_title("Fig. 9: RF energy, baseline (hatched) and WC, over the baseline", fontsize=10)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    fig.tight_layout()
    fig.savefig(path, dpi=110, bbox_inches="tight")  # the legend is outside
    plt.close(fig)
    return path


def draw_figures(folder: str | Path, rows: Mapping[str, Mapping[str, Any]],
                 sens: Mapping[str, Any]) -> list[Path]:
    """Draw every figure the data supports into ``folder``; returns the files written.

    ``rows``: benchmark -> metrics of the default WC run against the baseline (GTO);
    ``sens``: the sensitivity tables (``schemes``, ``scheduler``, ``energy_sweeps``,
    ``latency``), each benchmark -> value or parameter -> mean.
    """
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    made: list[Path | None] = []
    for region, name in (("nondiv", "non-divergent"), ("div", "divergent")):
        made.append(_bars(out / f"fig02_value_similarity_{region}.png", rows,
                          {f"sim_{region}_{b}_fraction": b for b in SIM_BINS}, stacked=True,
                          title=f"Fig. 2: value similarity of {name} register writes",
                          ylabel="fraction of writes"))
    made.append(_bars(out / "fig03_nondivergent_ratio.png", rows,
                      {"nondivergent_instruction_fraction": "non-divergent"},
                      title="Fig. 3: ratio of non-diverged warp instructions",
                      ylabel="fraction", hline=0.79))
    made.append(_bars(out / "fig05_bdi_full_breakdown.png", rows,
                      {f"bdi_full_{o}_fraction": f"<{o.replace('_', ',')}>"
                       for o in BDI_FULL_OPTIONS}, stacked=True,
                      title="Fig. 5: best <base,delta> under full BDI", ylabel="fraction"))
    made.append(_bars(out / "fig08_compression_ratio.png", rows,
                      {"compression_ratio_nondivergent": "non-divergent",
                       "compression_ratio_divergent": "divergent (what-if)"},
                      title="Fig. 8: compression ratio (bank-granular)", ylabel="ratio"))
    made.append(_fig9(out / "fig09_energy_breakdown.png", rows))
    per_bank = mean_metrics(rows.values(), [f"gated_fraction_b{b}" for b in range(32)])
    if any(v is not None for v in per_bank.values()):
        plt = _plt()
        fig, ax = plt.subplots(figsize=(7, 3.2))
        ax.bar(range(32), [_val(per_bank[f"gated_fraction_b{b}"]) for b in range(32)])
        ax.set_xlabel("bank index (4 clusters of 8)")
        ax.set_ylabel("gated cycle fraction")
        ax.set_title("Fig. 10: power-gated cycles per bank (mean over benchmarks)", fontsize=10)
        fig.tight_layout()
        fig.savefig(out / "fig10_gated_cycles_per_bank.png", dpi=110)
        plt.close(fig)
        made.append(out / "fig10_gated_cycles_per_bank.png")
    made.append(_bars(out / "fig11_dummy_movs.png", rows, {"dummy_mov_fraction": "MOV"},
                      title="Fig. 11: dummy MOVs / warp instructions", ylabel="fraction",
                      hline=0.02))
    made.append(_bars(out / "fig12_compressed_registers.png", rows,
                      {"compressed_reg_fraction_nondivergent": "non-divergent",
                       "compressed_reg_fraction_divergent": "divergent"},
                      title="Fig. 12: portion of compressed registers", ylabel="fraction"))
    made.append(_bars(out / "fig13_execution_time.png", rows,
                      {"execution_time_increase": "WC"},
                      title="Fig. 13: execution-time increase of WC", ylabel="fraction"))
    sched = sens.get("scheduler", {})
    made.append(_bars(out / "fig14_gto_lrr_energy.png", sched,
                      {"gto": "GTO", "lrr": "LRR"},
                      title="Fig. 14: RF energy saving, GTO vs LRR", ylabel="saving"))
    schemes = sens.get("schemes", {})
    made.append(_bars(out / "fig15_cr_schemes.png", schemes.get("cr", {}),
                      {k: k for k in ("wc", "4_0", "4_1", "4_2", "wc_all_writes",
                                      "full_bdi_all_writes")},
                      title="Fig. 15: compression ratio by <base,delta> choice "
                            "(non-divergent writes; *_all_writes: every write, merged)",
                      ylabel="ratio"))
    made.append(_bars(out / "fig16_energy_schemes.png", schemes.get("energy", {}),
                      {k: k for k in ("wc", "4_0", "4_1", "4_2", "full_bdi")}, hline=1.0,
                      title="Fig. 16: RF energy by <base,delta> choice (/ baseline)",
                      ylabel="energy / baseline"))
    sweeps = sens.get("energy_sweeps", {})
    for fig, key, xlabel in (("fig17_comp_energy", "comp_scale", "comp/decomp energy x"),
                             ("fig18_access_energy", "access_scale", "bank access energy x"),
                             ("fig19_wire_activity", "wire_activity_frac", "wire activity")):
        sweep = sweeps.get(key, {})
        xs = list(sweep)
        made.append(_lines(out / f"{fig}.png", [float(x) for x in xs],
                           {"RF energy saving (mean)": [sweep[x] for x in xs]},
                           title=f"{fig.split('_')[0].replace('fig', 'Fig. ')}: saving vs "
                                 f"{xlabel}", xlabel=xlabel, ylabel="RF energy saving"))
    lat = sens.get("latency", {})
    for fig, key, name in (("fig20_comp_latency", "comp", "compression"),
                           ("fig21_decomp_latency", "decomp", "decompression")):
        curve = lat.get(key, {})
        xs = list(curve)
        made.append(_lines(out / f"{fig}.png", [int(x) for x in xs],
                           {"execution time / baseline (mean)": [curve[x] for x in xs]},
                           title=f"{fig.split('_')[0].replace('fig', 'Fig. ')}: {name} "
                                 "latency", xlabel=f"{name} latency (cycles)",
                           ylabel="normalised execution time"))
    return [p for p in made if p is not None]
