"""Figures and tables of the Register-Sharing reproduction (the paper's Figs. 8-15, Tables 4-5)
drawn from ``rs_analysis.analyse``'s summary.

Each figure is a grouped bar chart per benchmark, as in the paper; a value that was not
measured is left out of its group. Files: ``fig08_resident_blocks``, ``fig09_speedup_lrr``,
``fig10_ablation``, ``fig11_idle_stall``, ``fig12_speedup_gto``, ``fig13_vs_64k``,
``fig14_speedup_two_level``, ``fig15_set2`` (``.png``), ``tables_4_5.md`` and
``summary.md`` (the measured numbers next to the paper's).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from warpsim.experiments.rs_analysis import ABLATION, GTO, LRR, MAIN, R64, TWO
from warpsim.experiments.rs_configs import THRESHOLDS

__all__ = ["summary_markdown", "tables_markdown", "write_figures"]


def _bars(path: Path, title: str, ylabel: str, groups: Sequence[str],
          series: Mapping[str, Sequence[float | None]]) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(max(5.0, 0.9 * len(groups) + 2), 3.4))
    n = max(1, len(series))
    width = 0.8 / n
    for i, (name, vals) in enumerate(series.items()):
        xs = [g + (i - (n - 1) / 2) * width for g, v in enumerate(vals) if v is not None]
        ys = [v for v in vals if v is not None]
        ax.bar(xs, ys, width, label=name)
    ax.set_xticks(range(len(groups)), groups, rotation=30, ha="right")
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.axhline(0, color="black", linewidth=0.6)
    if len(series) > 1:
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    fig.tight_layout()
    fig.savefig(path, dpi=120, bbox_inches="tight")  # the legend is outside
    plt.close(fig)
    return path


def tables_markdown(summary: Mapping[str, Any]) -> str:
    """Tables 4 (IPC) and 5 (resident blocks per SM) of the threshold sweep as Markdown."""
    per = {b: r for b, r in summary["per_benchmark"].items() if r["set"] == 1}
    head = "| benchmark | " + " | ".join(f"{round((1 - t) * 100)}% (t={t:g})"
                                         for t in THRESHOLDS) + " |"
    rule = "|---" * (len(THRESHOLDS) + 1) + "|"

    def fmt(v: Any, spec: str) -> str:
        return "-" if v is None else format(v, spec)

    t4 = [head, rule] + [f"| {b} | " + " | ".join(fmt(r["threshold_ipc"].get(f"{t:g}"), ".1f")
                                                  for t in THRESHOLDS) + " |"
                         for b, r in per.items()]
    t5 = [head, rule] + [f"| {b} | " + " | ".join(fmt(r["threshold_blocks"].get(f"{t:g}"), "d")
                                                  for t in THRESHOLDS) + " |"
                         for b, r in per.items()]
    return ("Table 4: IPC of Shared-OWF-Unroll-Dyn (per kernel)\n\n" + "\n".join(t4)
            + "\n\nTable 5: resident blocks per SM\n\n" + "\n".join(t5) + "\n")


def write_figures(summary: Mapping[str, Any], out: str | Path) -> list[Path]:
    """Write the figures and tables of ``summary`` into ``out``; returns the files."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    per = summary["per_benchmark"]
    s1 = [b for b, r in per.items() if r["set"] == 1]
    s2 = [b for b, r in per.items() if r["set"] == 2]
    files = []
    if s1:
        def col(key: str, sub: str | None = None) -> list[float | None]:
            return [(per[b][key] or {}).get(sub) if sub else per[b][key] for b in s1]

        files.append(_bars(out / "fig08_resident_blocks.png", "Fig. 8: resident blocks per SM",
                           "blocks", s1, {"Unshared-LRR": [
                               (per[b]["blocks"] or {}).get("baseline") for b in s1],
                               MAIN: [(per[b]["blocks"] or {}).get("blocks") for b in s1]}))
        files.append(_bars(out / "fig09_speedup_lrr.png", f"Fig. 9: {MAIN} over {LRR}",
                           "IPC speedup (%)", s1, {MAIN: col("speedup_over_lrr", MAIN)}))
        files.append(_bars(out / "fig10_ablation.png", f"Fig. 10: optimisations over {LRR}",
                           "IPC speedup (%)", s1,
                           {lab: col("speedup_over_lrr", lab) for lab in ABLATION}))
        files.append(_bars(out / "fig11_idle_stall.png", f"Fig. 11: {MAIN} vs {LRR}",
                           "% decrease", s1, {"idle cycles": col("idle_decrease_pct"),
                                              "stall cycles": col("stall_decrease_pct")}))
        files.append(_bars(out / "fig12_speedup_gto.png", f"Fig. 12: {MAIN} over {GTO}",
                           "IPC speedup (%)", s1, {MAIN: col("speedup_over_gto")}))
        files.append(_bars(out / "fig13_vs_64k.png", f"Fig. 13: {MAIN} vs {R64} (over LRR)",
                           "IPC speedup (%)", s1, {R64: col("speedup_over_lrr", R64),
                                                   MAIN: col("speedup_over_lrr", MAIN)}))
        files.append(_bars(out / "fig14_speedup_two_level.png", f"Fig. 14: {MAIN} over {TWO}",
                           "IPC speedup (%)", s1, {MAIN: col("speedup_over_two_level")}))
        tables = out / "tables_4_5.md"
        tables.write_text(tables_markdown(summary))
        files.append(tables)
        text = out / "summary.md"
        text.write_text(summary_markdown(summary))
        files.append(text)
    if s2:
        labels = ("Shared-LRR-Unrolled-Dyn", GTO, "Shared-GTO-Unroll-Dyn", MAIN)
        files.append(_bars(out / "fig15_set2.png", f"Fig. 15: Set-2 over {LRR}",
                           "IPC speedup (%)", s2,
                           {lab: [per[b]["speedup_over_lrr"].get(lab) for b in s2]
                            for lab in labels}))
    return files


def summary_markdown(summary: Mapping[str, Any]) -> str:
    """The measured numbers next to the paper's (the table of
    docs/reproductions/register-sharing.md), then per-benchmark speedups and Tables 4-5."""
    def pct(v: Any) -> str:
        return "-" if v is None else f"{v:+.2f}%"

    abl = summary.get("mean_ablation_speedup_over_lrr", {})
    lines = [
        "| metric | paper | warpsim |", "|---|---|---|",
        f"| max speedup over Unshared-LRR | +24% | {pct(summary['max_speedup_over_lrr'])} "
        f"({summary.get('max_speedup_over_lrr_benchmark')}) |",
        f"| mean speedup over Unshared-LRR | +11% | {pct(summary['mean_speedup_over_lrr'])} |",
        f"| max speedup over Unshared-GTO | +3.9% | {pct(summary['max_speedup_over_gto'])} |",
        f"| max speedup over two-level | +27.22% | "
        f"{pct(summary['max_speedup_over_two_level'])} |",
        f"| sharing beats Unshared-LRR-Reg#65536 | 5/8 | {summary['wins_vs_64k']} |",
        f"| Set-2 shared = unshared (cycles) | exactly same | {summary['set2_identical']} |",
        f"| Set-2 OWF vs Unshared-GTO (max abs) | comparable | "
        f"{pct(summary.get('set2_max_owf_vs_gto_pct'))} |",
    ]
    lines += [f"| mean {lab} over LRR | Fig. 10 | {pct(v)} |" for lab, v in abl.items()]
    per = summary["per_benchmark"]
    cols = ("Shared-LRR-NoOpt", "Shared-LRR-Unrolled", "Shared-LRR-Unrolled-Dyn", MAIN,
            GTO, "Shared-GTO-Unroll-Dyn", TWO, R64)
    lines += ["", "Speedup over Unshared-LRR (per kernel IPC), blocks per SM, idle/stall "
              "decrease of Shared-OWF-Unroll-Dyn:", "",
              "| benchmark (kernel) | blocks | " + " | ".join(cols)
              + " | idle dec. | stall dec. |", "|---" * (len(cols) + 4) + "|"]
    for b, r in per.items():
        if r["set"] != 1:
            continue
        blk = r["blocks"] or {}
        lines.append(f"| {b} ({r['kernel']}) | {blk.get('baseline', '-')} -> "
                     f"{blk.get('blocks', '-')} | "
                     + " | ".join(pct(r["speedup_over_lrr"].get(c)) for c in cols)
                     + f" | {pct(r['idle_decrease_pct'])} | {pct(r['stall_decrease_pct'])} |")
    lines += ["", "Set-2 (cycles):", "",
              "| benchmark | Unshared-LRR | Shared-LRR-Unrolled-Dyn | Unshared-GTO | "
              "Shared-GTO-Unroll-Dyn | Shared-OWF-Unroll-Dyn |", "|---|---|---|---|---|---|"]
    for b, r in per.items():
        if r["set"] == 2:
            c = r["cycles"]
            lines.append(f"| {b} | " + " | ".join(str(c.get(k, "-")) for k in (
                LRR, "Shared-LRR-Unrolled-Dyn", GTO, "Shared-GTO-Unroll-Dyn", MAIN)) + " |")
    return "\n".join(lines) + "\n\n" + tables_markdown(summary)
