"""Figures of the WIR reproduction (Kim & Ro, HPCA 2018), drawn from ``wir.run_experiment``'s
summary as the paper draws them.

Bars per benchmark, with an average group last (``AVG``: arithmetic mean; ``GM``: geometric
mean for speedups): Fig. 2 (repeated computations, and those repeated more than 10 times),
Fig. 14 (GPU energy of Base / RPV / RLPV relative to Base, stacked by component when the
summary holds the components), Fig. 16 (SM energy of the designs relative to Base), Fig. 17
(speedup of R / RL / RLP / RLPV). Lines over the swept size, when the summary holds the sweeps
(full run): Fig. 20 (VSB entries vs. VSB hit rate), Fig. 21 (RB entries vs. reused
instructions), Fig. 22 (extra backend delay vs. speedup). A design or sweep the summary lacks
is left out. Files ``fig02_repeated.png``, ``fig14_gpu_energy.png``, ``fig16_sm_energy.png``,
``fig17_speedup.png``, ``fig20_vsb_entries.png``, ``fig21_rb_entries.png``,
``fig22_extra_delay.png``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

__all__ = ["FIGURES", "draw_figures", "write_figures"]

SPEEDUP_DESIGNS = ("R", "RL", "RLP", "RLPV")
"""Fig. 17's designs."""
SM_ENERGY_DESIGNS = ("Affine", "RPV", "RLPV", "Affine+RLPV")
"""Fig. 16's designs besides Base (relative SM energy)."""
GPU_ENERGY_DESIGNS = ("base", "RPV", "RLPV")
"""Fig. 14's bars (a: Base, b: RPV, c: RLPV)."""


def _plt() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _mean(vals: Sequence[float]) -> float:
    v = [x for x in vals if math.isfinite(x)]
    return sum(v) / len(v) if v else float("nan")


def _gm(vals: Sequence[float]) -> float:
    v = [x for x in vals if x > 0 and math.isfinite(x)]
    return math.exp(sum(math.log(x) for x in v) / len(v)) if v else float("nan")


def _label(bench: str, row: Mapping[str, Any]) -> str:
    return str(row.get("paper_benchmark") or bench)


def _grouped(title: str, ylabel: str, groups: Sequence[str],
             series: Mapping[str, Sequence[float]], ref: float | None = None) -> Any:
    """A grouped bar chart: one bar per (series, group)."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(max(5.0, 0.55 * len(groups) * max(1, len(series)) / 2 + 2),
                                    3.4))
    n = max(1, len(series))
    width = 0.8 / n
    for i, (name, vals) in enumerate(series.items()):
        xs = [g + (i - (n - 1) / 2) * width for g in range(len(groups))]
        ax.bar(xs, list(vals), width, label=name)
    ax.set_xticks(range(len(groups)), groups, rotation=30, ha="right")
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    if ref is not None:
        ax.axhline(ref, color="black", linewidth=0.6)
    if len(series) > 1:
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    fig.tight_layout()
    return fig


def fig02_repeated(s: Mapping[str, Any]) -> Any:
    """Fig. 2: repeated computations per 1K-instruction window, per benchmark (%)."""
    per = s["per_benchmark"]
    groups = [_label(b, p) for b, p in per.items()] + ["AVG"]
    rep = [100 * p["repeated_fraction"] for p in per.values()]
    gt10 = [100 * p["repeated_gt10_fraction"] for p in per.values()]
    return _grouped("Fig. 2: repeated computations (1K-instruction windows)", "% of computations",
                    groups, {"repeated": [*rep, _mean(rep)],
                             "repeated > 10 times": [*gt10, _mean(gt10)]})


def fig17_speedup(s: Mapping[str, Any]) -> Any | None:
    """Fig. 17: speedup over Base of R / RL / RLP / RLPV, per benchmark and geometric mean."""
    per = s["per_benchmark"]
    designs = [d for d in SPEEDUP_DESIGNS if all(d in p for p in per.values())]
    if not designs:
        return None
    groups = [_label(b, p) for b, p in per.items()] + ["GM"]
    series = {}
    for d in designs:
        v = [p[d]["speedup"] for p in per.values()]
        series[d] = [*v, _gm(v)]
    return _grouped("Fig. 17: speedup relative to Base", "speedup", groups, series, ref=1.0)


def fig16_sm_energy(s: Mapping[str, Any]) -> Any | None:
    """Fig. 16: SM energy of each design relative to Base (1 - its SM energy saving)."""
    per = s["per_benchmark"]
    designs = [d for d in SM_ENERGY_DESIGNS if all(d in p for p in per.values())]
    if not designs:
        return None
    groups = [_label(b, p) for b, p in per.items()] + ["AVG"]
    series = {}
    for d in designs:
        v = [1.0 - p[d]["sm_energy_saving"] for p in per.values()]
        series[d] = [*v, _mean(v)]
    return _grouped("Fig. 16: SM energy relative to Base", "relative SM energy", groups,
                    series, ref=1.0)


def _components(p: Mapping[str, Any], d: str) -> Mapping[str, float] | None:
    row = p.get(d) if d != "base" else p
    if not isinstance(row, Mapping):
        return None
    key = "energy_by_component_j" if d != "base" else "energy_by_component_j_base"
    return row.get(key)


def fig14_gpu_energy(s: Mapping[str, Any]) -> Any | None:
    """Fig. 14: GPU energy of Base / RPV / RLPV relative to Base, per benchmark; each bar
    stacked by energy component when every bar's components are in the summary, else one
    bar of the relative total."""
    per = s["per_benchmark"]
    designs = [d for d in GPU_ENERGY_DESIGNS if d == "base" or all(d in p for p in per.values())]
    if len(designs) < 2:
        return None
    benches = list(per)
    groups = [_label(b, per[b]) for b in benches]
    comps = {(b, d): _components(per[b], d) for b in benches for d in designs}
    plt = _plt()
    fig, ax = plt.subplots(figsize=(max(6.0, 0.8 * len(groups) + 2.5), 3.6))
    n = len(designs)
    width = 0.8 / n
    tag = {"base": "a", "RPV": "b", "RLPV": "c"}
    if all(comps.values()):
        names = sorted({c for v in comps.values() for c, j in v.items() if j})  # no empty ones
        colors = plt.get_cmap("tab20")
        for i, d in enumerate(designs):
            xs = [g + (i - (n - 1) / 2) * width for g in range(len(groups))]
            bottom = [0.0] * len(benches)
            tot = [sum(comps[(b, "base")].values()) for b in benches]
            for k, c in enumerate(names):
                h = [comps[(b, d)].get(c, 0.0) / t if t else 0.0
                     for b, t in zip(benches, tot, strict=True)]
                ax.bar(xs, h, width, bottom=bottom, color=colors(k % 20),
                       label=c if i == 0 else None, edgecolor="none")
                bottom = [x + y for x, y in zip(bottom, h, strict=True)]
    else:
        for i, d in enumerate(designs):
            xs = [g + (i - (n - 1) / 2) * width for g in range(len(groups))]
            h = [1.0 if d == "base" else 1.0 - per[b][d]["gpu_energy_saving"] for b in benches]
            ax.bar(xs, h, width, label=f"{tag[d]}: {'Base' if d == 'base' else d}")
    ax.set_xticks(range(len(groups)), groups, rotation=30, ha="right")
    ax.set_ylabel("GPU energy relative to Base")
    ax.set_title("Fig. 14: GPU energy (a: Base, b: RPV, c: RLPV)", fontsize=10)
    ax.axhline(1.0, color="black", linewidth=0.6)
    ax.legend(fontsize=6, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    fig.tight_layout()
    return fig


def _sweep_line(s: Mapping[str, Any], name: str, key: str, title: str, xlabel: str,
                ylabel: str, scale: float, xfmt: Callable[[str], str] = str) -> Any | None:
    rows = s.get("sweeps", {}).get(name)
    if not rows:
        return None
    plt = _plt()
    fig, ax = plt.subplots(figsize=(4.8, 3.2))
    xs = list(rows)
    ax.plot(range(len(xs)), [scale * rows[x][key] for x in xs], marker="o")
    ax.set_xticks(range(len(xs)), [xfmt(x) for x in xs])
    if scale == 100.0:  # percentages from 0, as the paper's axes
        ax.set_ylim(bottom=0)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    return fig


def fig20_vsb(s: Mapping[str, Any]) -> Any | None:
    """Fig. 20: VSB entries vs. VSB hit rate (verified hits per lookup, mean over benchmarks)."""
    return _sweep_line(s, "vsb_entries", "vsb_hit_rate", "Fig. 20: VSB entries vs. hit rate",
                       "VSB entries", "VSB hit rate (%)", 100.0)


def fig21_rb(s: Mapping[str, Any]) -> Any | None:
    """Fig. 21: RB entries vs. instructions that bypass execution (mean over benchmarks)."""
    return _sweep_line(s, "rb_entries", "reused_fraction",
                       "Fig. 21: RB entries vs. reused instructions", "reuse buffer entries",
                       "% instructions reused", 100.0)


def fig22_delay(s: Mapping[str, Any]) -> Any | None:
    """Fig. 22: extra backend delay (D3-D7) vs. geometric-mean speedup over Base."""
    fig = _sweep_line(s, "extra_delay_cycles", "speedup_geomean",
                      "Fig. 22: backend delay vs. speedup", "extra backend delay",
                      "speedup (GM)", 1.0, xfmt=lambda x: f"D{x}")
    if fig is not None:
        fig.axes[0].axhline(1.0, color="black", linewidth=0.6)
    return fig


FIGURES: dict[str, Callable[[Mapping[str, Any]], Any]] = {
    "fig02_repeated": fig02_repeated, "fig14_gpu_energy": fig14_gpu_energy,
    "fig16_sm_energy": fig16_sm_energy, "fig17_speedup": fig17_speedup,
    "fig20_vsb_entries": fig20_vsb, "fig21_rb_entries": fig21_rb,
    "fig22_extra_delay": fig22_delay,
}
"""File stem -> drawing function (``None`` when the summary lacks its data)."""


def draw_figures(summary: Mapping[str, Any]) -> dict[str, Any]:
    """The figures ``summary`` has data for, as open matplotlib Figures by file stem."""
    out = {}
    for stem, draw in FIGURES.items():
        fig = draw(summary)
        if fig is not None:
            out[stem] = fig
    return out


def write_figures(summary: Mapping[str, Any], out: str | Path) -> list[Path]:
    """Draw and save every figure ``summary`` has data for into ``out`` (PNG); returns them."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    plt = _plt()
    files = []
    for stem, fig in draw_figures(summary).items():
        path = out / f"{stem}.png"
        fig.savefig(path, dpi=120, bbox_inches="tight")
        plt.close(fig)
        files.append(path)
    return files
