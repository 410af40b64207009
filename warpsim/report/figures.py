"""Figures of a sweep's results, drawn as the papers draw them (matplotlib, Agg back end).

Follows: ARCHITECTURE.md §6 (reports query the records). The papers' figures are per-benchmark
bar groups of a metric normalised to the baseline configuration, with a geometric-mean group at
the right (WIR Fig. 12, RegLess Fig. 9, Warped-Compression Fig. 10), and per-benchmark stacked
energy breakdowns normalised to the baseline's total. The functions here take the pandas frame
that :func:`warpsim.runner.store.load_results` returns.

Assumptions: the geometric mean skips non-positive and missing values (a benchmark that failed
in one configuration does not zero the mean); it is NaN when nothing is left.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from warpsim.errors import ConfigError

__all__ = [
    "GMEAN",
    "add_derived_columns",
    "energy_components",
    "geomean",
    "normalized_table",
    "plot_energy_breakdown",
    "plot_normalized",
    "plot_per_benchmark",
    "save_figure",
]

GMEAN = "gmean"
"""Row label of the geometric mean in normalised tables."""


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    return plt


def geomean(values: Iterable[float]) -> float:
    """Geometric mean of the positive finite values (NaN when there are none)."""
    logs = [math.log(v) for v in values
            if v is not None and isinstance(v, int | float) and math.isfinite(v) and v > 0]
    return math.exp(sum(logs) / len(logs)) if logs else math.nan


def energy_components(df: Any) -> list[str]:
    """The ``energy_<component>_pj`` columns of ``df`` (totals, ``*_total_pj``, excluded)."""
    return [c for c in df.columns
            if c.startswith("energy_") and c.endswith("_pj") and not c.endswith("_total_pj")]


def add_derived_columns(df: Any) -> Any:
    """A copy of ``df`` with the derived metrics its counters allow.

    ``ipc`` = ``gpu_sim_insn / gpu_sim_cycle`` (timing records only); ``simt_efficiency_frac`` =
    ``gpu_sim_insn / (32 * gpgpu_n_tot_w_icount)``; ``energy_total_pj`` = the sum of the
    components when absent. Ratios with a zero denominator are NaN.
    """
    import numpy as np

    out = df.copy()

    def ratio(num: Any, den: Any) -> Any:
        num = out[num].astype("float64") if isinstance(num, str) else num
        den = den.astype("float64")
        return (num / den.where(den != 0, np.nan)).astype("float64")

    if {"gpu_sim_insn", "gpu_sim_cycle"} <= set(out.columns):
        out["ipc"] = ratio("gpu_sim_insn", out["gpu_sim_cycle"])
    if {"gpu_sim_insn", "gpgpu_n_tot_w_icount"} <= set(out.columns):
        out["simt_efficiency_frac"] = ratio("gpu_sim_insn", 32 * out["gpgpu_n_tot_w_icount"])
    comps = energy_components(out)
    if comps and "energy_total_pj" not in out.columns:
        out["energy_total_pj"] = out[comps].astype("float64").sum(axis=1, min_count=1)
    return out


def normalized_table(df: Any, metric: str, baseline: str, *, group: str = "benchmark",
                     series: str = "variant", order: Sequence[str] | None = None) -> Any:
    """``metric`` of each (benchmark, variant) divided by the baseline variant's, plus a
    geometric-mean row.

    Parameters
    ----------
    df
        Records (successful ones are used; ``status == "ok"``).
    metric
        A numeric column (``"ipc"``, ``"energy_total_pj"``).
    baseline
        The variant every value is divided by.
    group, series
        Row and column keys.
    order
        Column order (default: order of first appearance).

    Returns
    -------
    pandas.DataFrame
        Rows: benchmarks then ``gmean``; columns: variants.

    Raises
    ------
    ConfigError
        When ``metric`` is not a column or ``baseline`` is not a variant.
    """
    if metric not in df.columns:
        raise ConfigError("metric", metric, f"a column of the records ({', '.join(df.columns)})")
    ok = df[df["status"] == "ok"] if "status" in df.columns else df
    variants = list(order) if order else list(dict.fromkeys(ok[series]))
    if baseline not in set(ok[series]):
        raise ConfigError("baseline", baseline,
                          f"a {series} with results: {', '.join(map(str, variants))}")
    table = ok.pivot_table(index=group, columns=series, values=metric, aggfunc="mean",
                           sort=False).astype("float64")
    table = table.reindex(columns=[v for v in variants if v in table.columns])
    base = table[baseline]
    norm = table.div(base.where(base != 0), axis=0)
    norm.loc[GMEAN] = [geomean(norm[c].tolist()) for c in norm.columns]
    norm.index.name = group
    norm.columns.name = series
    return norm


def plot_normalized(table: Any, *, title: str = "", ylabel: str = "normalised",
                    reference: float | None = 1.0) -> Any:
    """Grouped bars of a :func:`normalized_table`: one group per benchmark, the geometric mean
    set apart at the right, a dashed line at ``reference``."""
    plt = _pyplot()
    rows = list(table.index)
    cols = list(table.columns)
    fig, ax = plt.subplots(figsize=(max(6.0, 0.55 * len(rows) * max(1, len(cols)) ** 0.5 + 2),
                                    3.6), layout="constrained")
    width = 0.8 / max(len(cols), 1)
    xs = [float(i) for i in range(len(rows))]
    if rows and rows[-1] == GMEAN:
        xs[-1] += 0.6  # the mean set apart, as the papers draw it
    for j, col in enumerate(cols):
        offs = [x - 0.4 + width * (j + 0.5) for x in xs]
        ax.bar(offs, table[col].to_numpy(dtype="float64"), width=width, label=str(col),
               edgecolor="black", linewidth=0.4)
    if reference is not None:
        ax.axhline(reference, color="black", linestyle="--", linewidth=0.8)
    ax.set_xticks(xs)
    ax.set_xticklabels([str(r) for r in rows], rotation=45, ha="right")
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)
    if len(cols) > 1:
        ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0),
                  frameon=False)
    ax.grid(axis="y", linewidth=0.3)
    ax.set_axisbelow(True)
    return fig


def plot_per_benchmark(df: Any, metric: str, *, series: str = "variant",
                       title: str = "", ylabel: str | None = None, log: bool = False) -> Any:
    """Grouped bars of the raw ``metric`` per benchmark and variant (successful records)."""
    ok = df[df["status"] == "ok"] if "status" in df.columns else df
    table = ok.pivot_table(index="benchmark", columns=series, values=metric, aggfunc="mean",
                           sort=False).astype("float64")
    fig = plot_normalized(table, title=title, ylabel=ylabel or metric, reference=None)
    if log:
        fig.axes[0].set_yscale("log")
    return fig


def plot_energy_breakdown(df: Any, baseline: str, *, series: str = "variant",
                          order: Sequence[str] | None = None, title: str = "") -> Any:
    """Stacked energy components per (benchmark, variant), normalised to the baseline
    variant's total energy of the same benchmark, with a geometric-mean group of totals."""
    plt = _pyplot()
    comps = energy_components(df)
    if not comps:
        raise ConfigError("energy", None, "records with energy_<component>_pj columns")
    ok = add_derived_columns(df[df["status"] == "ok"] if "status" in df.columns else df)
    variants = [v for v in (order or dict.fromkeys(ok[series])) if v in set(ok[series])]
    sums = ok.groupby(["benchmark", series], sort=False)[[*comps, "energy_total_pj"]].mean()
    benches = list(dict.fromkeys(ok["benchmark"]))
    fig, ax = plt.subplots(figsize=(max(6.0, 0.5 * len(benches) * len(variants) ** 0.5 + 2),
                                    3.8), layout="constrained")
    width = 0.8 / max(len(variants), 1)
    colors = plt.get_cmap("tab20").colors
    ticks = []
    for i, bench in enumerate(benches):
        if (bench, baseline) not in sums.index:
            continue
        base_total = float(sums.loc[(bench, baseline), "energy_total_pj"])
        for j, var in enumerate(variants):
            if (bench, var) not in sums.index or not base_total:
                continue
            x = i - 0.4 + width * (j + 0.5)
            bottom = 0.0
            for k, comp in enumerate(comps):
                val = float(sums.loc[(bench, var), comp]) / base_total
                if not math.isfinite(val):
                    continue
                ax.bar(x, val, width=width, bottom=bottom, color=colors[k % len(colors)],
                       edgecolor="black", linewidth=0.3)
                bottom += val
        ticks.append((i, bench))
    gx = len(benches) + 0.6
    for j, var in enumerate(variants):
        ratios = [float(sums.loc[(b, var), "energy_total_pj"])
                  / float(sums.loc[(b, baseline), "energy_total_pj"])
                  for b in benches if (b, var) in sums.index and (b, baseline) in sums.index]
        ax.bar(gx - 0.4 + width * (j + 0.5), geomean(ratios), width=width, color="lightgray",
               edgecolor="black", linewidth=0.4, hatch="//" if j else None)
    ticks.append((gx, GMEAN))
    ax.set_xticks([t for t, _ in ticks])
    ax.set_xticklabels([n for _, n in ticks], rotation=45, ha="right")
    ax.axhline(1.0, color="black", linestyle="--", linewidth=0.8)
    ax.set_ylabel(f"energy / {baseline} total")
    ax.set_title(title or "energy breakdown (bars left to right: " + ", ".join(variants) + ")")
    from matplotlib.patches import Patch

    # one entry per component whatever the first bar held, top of the stack first
    handles = [Patch(facecolor=colors[k % len(colors)], edgecolor="black", linewidth=0.3,
                     label=energy_label(comp)) for k, comp in enumerate(comps)][::-1]
    ax.legend(handles=handles, fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0),
              frameon=False, title="component")
    return fig


ENERGY_LABELS = {"constant": "constant power (chip)", "idle_sm": "idle SMs (static)"}
"""Legend names of energy components that read ambiguously alone (``constant`` is GPUWattch's
constant power, not the constant cache)."""


def energy_label(column: str) -> str:
    """The legend name of an ``energy_<component>_pj`` column."""
    name = column[len("energy_"):-len("_pj")]
    return ENERGY_LABELS.get(name, name)


def save_figure(fig: Any, stem: str | Path, formats: Sequence[str] = ("png", "svg")) -> list[Path]:
    """Write ``fig`` as ``stem.<format>`` for each format and close it; returns the paths."""
    plt = _pyplot()
    paths = []
    stem = Path(stem)
    stem.parent.mkdir(parents=True, exist_ok=True)
    for fmt in formats:
        if fmt not in ("png", "svg", "pdf"):
            raise ConfigError("format", fmt, "png, svg or pdf")
        path = stem.with_suffix(f".{fmt}")
        # a tight box: a title wider than the axes is not clipped
        fig.savefig(path, dpi=150 if fmt == "png" else None, bbox_inches="tight")
        paths.append(path)
    plt.close(fig)
    return paths
