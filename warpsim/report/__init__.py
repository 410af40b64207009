"""Reports of a sweep's result folder: PNG/SVG figures and one self-contained HTML page.

Follows: ARCHITECTURE.md §6 (reports query the records with DuckDB). :func:`make_report` reads
the records (one per job), derives the metrics their counters allow (``ipc`` only from timing
records, never estimated), and draws what the papers draw: per-benchmark bars normalised to the
baseline variant with a geometric mean, and energy breakdowns when records carry energy. What
the records cannot support is said on the page instead of drawn.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from warpsim.errors import ConfigError
from warpsim.report.figures import (
    GMEAN,
    add_derived_columns,
    energy_components,
    geomean,
    normalized_table,
    plot_energy_breakdown,
    plot_normalized,
    plot_per_benchmark,
    save_figure,
)
from warpsim.report.html import Section, figure_html, render_page, table_html, text_html

__all__ = [
    "GMEAN",
    "Section",
    "add_derived_columns",
    "energy_components",
    "figure_html",
    "geomean",
    "make_report",
    "normalized_table",
    "plot_energy_breakdown",
    "plot_normalized",
    "plot_per_benchmark",
    "render_page",
    "save_figure",
    "table_html",
]

_log = logging.getLogger(__name__)

_NORMALISED = (
    ("ipc", "Normalised IPC", "IPC / baseline IPC"),
    ("energy_total_pj", "Normalised energy", "energy / baseline energy"),
    ("gpu_sim_cycle", "Normalised cycles", "cycles / baseline cycles"),
)
"""(metric, section title, y label) of the normalised figures drawn when the column exists."""


def _variant_order(df: Any, manifest: dict[str, Any] | None) -> list[str]:
    present = list(dict.fromkeys(df["variant"])) if "variant" in df.columns else []
    listed = (manifest or {}).get("variants") or []
    return [v for v in listed if v in present] + [v for v in present if v not in listed]


def _in_sweep_order(df: Any, manifest: dict[str, Any] | None) -> Any:
    """Rows in the sweep file's job order (benchmarks as listed), unknown jobs last."""
    order = {j.get("job_id"): i for i, j in enumerate((manifest or {}).get("jobs") or [])}
    rank = df["job_id"].map(lambda j: order.get(j, len(order))).astype("int64")
    return df.assign(_order=rank).sort_values("_order", kind="stable").drop(
        columns="_order").reset_index(drop=True)


def _has_values(df: Any, column: str) -> bool:
    return column in df.columns and bool(df[column].notna().any())


def _summary(df: Any, manifest: dict[str, Any] | None) -> Section:
    import pandas as pd

    sec = Section("Summary")
    n_ok = int((df["status"] == "ok").sum()) if len(df) else 0
    total = len((manifest or {}).get("jobs") or []) or len(df)
    rows = [("sweep", (manifest or {}).get("name", "")),
            ("description", (manifest or {}).get("description", "")),
            ("jobs in sweep", total), ("records", len(df)), ("ok", n_ok),
            ("failed", len(df) - n_ok), ("not run yet", max(total - len(df), 0))]
    for col in ("mode", "warpsim_version", "git_revision", "gpu"):
        if col in df.columns:
            rows.append((col, ", ".join(sorted(map(str, df[col].dropna().unique())))))
    if "wall_s" in df.columns and len(df):
        rows.append(("total job wall time (s)", f"{df['wall_s'].astype('float64').sum():.1f}"))
    sec.blocks.append(table_html(pd.DataFrame(rows, columns=["", "value"]), index=False))
    return sec


def _failures(df: Any) -> Section | None:
    bad = df[df["status"] != "ok"]
    if not len(bad):
        return None
    cols = [c for c in ("job_id", "benchmark", "size", "variant", "error_type") if c in bad]
    table = bad[cols].copy()
    table["error"] = bad["error_message"].fillna("").map(lambda m: str(m).splitlines()[0]
                                                         if str(m) else "")
    return Section("Failed jobs", [table_html(table, index=False)])


def _normalised_sections(df: Any, baseline: str, order: list[str], fig_dir: Path,
                         formats: Sequence[str], files: list[Path]) -> list[Section]:
    out = []
    for metric, title, ylabel in _NORMALISED:
        if not _has_values(df, metric):
            continue
        table = normalized_table(df, metric, baseline, order=order)
        fig = plot_normalized(table, title=title, ylabel=ylabel)
        block = figure_html(fig, f"{title}: per benchmark, normalised to {baseline}; "
                                 f"{GMEAN} = geometric mean")
        files.extend(save_figure(fig, fig_dir / f"normalised_{metric}", formats))
        out.append(Section(title, [block, table_html(table)]))
    return out


def _energy_section(df: Any, baseline: str, order: list[str], fig_dir: Path,
                    formats: Sequence[str], files: list[Path]) -> Section | None:
    comps = [c for c in energy_components(df) if _has_values(df, c)]
    if not comps:
        return None
    fig = plot_energy_breakdown(df, baseline, order=order)
    block = figure_html(fig, f"energy by component, normalised to {baseline}'s total")
    files.extend(save_figure(fig, fig_dir / "energy_breakdown", formats))
    ok = df[df["status"] == "ok"]
    table = ok.groupby("variant", sort=False)[comps].sum().reindex(
        [v for v in order if v in set(ok["variant"])])
    return Section("Energy breakdown", [block, table_html(
        table, caption="energy summed over benchmarks (pJ)")])


def _functional_section(df: Any, order: list[str], fig_dir: Path, formats: Sequence[str],
                        files: list[Path]) -> Section | None:
    if not _has_values(df, "gpu_sim_insn"):
        return None
    ok = df[df["status"] == "ok"]
    sec = Section("Functional counts")
    cols = [c for c in ("gpu_sim_insn", "gpgpu_n_tot_w_icount", "simt_efficiency_frac",
                        "verified") if c in ok.columns]
    table = ok.groupby("benchmark", sort=False)[cols].first()
    if _has_values(ok, "simt_efficiency_frac"):
        fig = plot_per_benchmark(ok[ok["variant"] == order[0]] if order else ok,
                                 "simt_efficiency_frac", title="SIMT efficiency",
                                 ylabel="active lanes / (32 x warp instructions)")
        sec.blocks.append(figure_html(fig, "SIMT efficiency per benchmark (functional)"))
        files.extend(save_figure(fig, fig_dir / "simt_efficiency", formats))
    sec.blocks.append(table_html(table, caption="thread instructions (gpu_sim_insn), warp "
                                                "instructions (gpgpu_n_tot_w_icount)"))
    return sec


def _rate_section(df: Any, order: list[str]) -> Section | None:
    ok = df[df["status"] == "ok"]
    if not len(ok) or "wall_s" not in ok.columns:
        return None
    cols = {"wall_s": "mean"}
    if _has_values(ok, "sim_rate_insn_per_s"):
        cols["sim_rate_insn_per_s"] = "mean"
    table = ok.pivot_table(index="benchmark", columns="variant", values=list(cols),
                           aggfunc="mean", sort=False)
    return Section("Simulation speed", [table_html(
        table, caption="job wall time (s, a worker's one-off engine compile included) and "
                       "simulation rate (thread instructions per second, compile excluded)"
    )])


def make_report(directory: str | Path, out: str | Path | None = None, *,
                baseline: str | None = None,
                formats: Sequence[str] = ("png", "svg")) -> Path:
    """Write ``report.html`` and the figures of a result folder; returns the HTML path.

    Parameters
    ----------
    directory
        A result folder written by ``warpsim sweep``.
    out
        Where to write (default ``DIR/report``): ``report.html`` and ``figures/*.png|svg``.
    baseline
        The variant others are normalised to (default: the sweep's first variant).
    formats
        Figure files written beside the page.

    Raises
    ------
    ConfigError
        When the folder holds no records, or ``baseline`` is not one of its variants.
    """
    from warpsim.runner.store import ResultStore

    store = ResultStore(directory)
    df = store.load()
    if not len(df):
        raise ConfigError("results", str(directory), "a folder with result records",
                          hint="run `warpsim sweep FILE --out DIR` first")
    manifest = store.manifest()
    df = add_derived_columns(_in_sweep_order(df, manifest))
    order = _variant_order(df, manifest)
    ok_variants = [v for v in order if v in set(df.loc[df["status"] == "ok", "variant"])]
    if baseline is None:
        baseline = ok_variants[0] if ok_variants else (order[0] if order else "")
    elif baseline not in order:
        raise ConfigError("baseline", baseline, f"one of the variants {', '.join(order)}")
    out_dir = Path(out) if out is not None else Path(directory) / "report"
    fig_dir = out_dir / "figures"
    files: list[Path] = []
    sections = [_summary(df, manifest)]
    fail = _failures(df)
    if fail is not None:
        sections.append(fail)
    if ok_variants:
        norm = _normalised_sections(df, baseline, order, fig_dir, formats, files)
        if not norm:
            sections.append(Section("Normalised IPC", [text_html(
                "No timing counters in these records (mode = functional): IPC, cycles and "
                "energy figures need the cycle-level engine.", note=True)]))
        sections.extend(norm)
        for sec in (_energy_section(df, baseline, order, fig_dir, formats, files),
                    _functional_section(df, order, fig_dir, formats, files),
                    _rate_section(df, order)):
            if sec is not None:
                sections.append(sec)
    cols = [c for c in ("job_id", "benchmark", "size", "variant", "status", "mode", "verified",
                        "gpu_sim_insn", "ipc", "energy_total_pj", "wall_s") if c in df.columns]
    sections.append(Section("Records", [table_html(df[cols], index=False)]))
    name = (manifest or {}).get("name", Path(directory).name)
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    page = render_page(f"warpsim report: {name}", sections,
                       subtitle=f"{directory} - baseline {baseline} - written {stamp}")
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / "report.html"
    path.write_text(page, encoding="utf-8")
    _log.info("report %s (%d figure files)", path, len(files))
    return path
