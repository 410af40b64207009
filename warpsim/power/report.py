"""Energy breakdown as a text table (``warpsim run --energy``) and as stacked bars.

Follows: STYLE.md §2.6; the papers' energy figures (WIR Fig. 14 GPU energy breakdown,
Warped-Compression Fig. 9, RegLess Fig. 15): one stacked bar per run, by component,
optionally normalised to a baseline run.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from warpsim.errors import ConfigError
from warpsim.power.model import EnergyBreakdown

__all__ = ["format_energy_table", "plot_energy_breakdown"]


def _si(joules: float) -> str:
    """Joules with an SI prefix (``1.23 mJ``)."""
    mag = abs(joules)
    for scale, unit in ((1.0, "J"), (1e-3, "mJ"), (1e-6, "uJ"), (1e-9, "nJ"), (1e-12, "pJ")):
        if mag >= scale:
            return f"{joules / scale:.4g} {unit}"
    return f"{joules:.3g} J"


def format_energy_table(breakdown: EnergyBreakdown, *, show_zero: bool = False) -> str:
    """A fixed-width table: component, dynamic, static, total joules, share of total.

    Components with no energy are left out unless ``show_zero``; totals and average power
    follow the rows.
    """
    total = breakdown.total_j
    dyn_total = breakdown.dynamic_j
    lines = [f"energy ({breakdown.table}, {breakdown.seconds * 1e6:.4g} us simulated)",
             f"{'component':<20} {'dynamic':>12} {'static':>12} {'total':>12} {'share':>7} "
             f"{'of dyn':>7}"]
    lines.append("-" * len(lines[1]))
    for comp in breakdown.components:
        d = breakdown.dynamic_by_component_j[comp]
        s = breakdown.static_by_component_j[comp]
        if not show_zero and d == 0 and s == 0:
            continue
        share = f"{100 * (d + s) / total:6.2f}%" if total else "     -"
        dshare = f"{100 * d / dyn_total:6.2f}%" if dyn_total else "     -"
        lines.append(f"{comp:<20} {_si(d):>12} {_si(s):>12} {_si(d + s):>12} {share:>7} "
                     f"{dshare:>7}")
    lines.append("-" * len(lines[1]))
    lines.append(f"{'total':<20} {_si(dyn_total):>12} {_si(breakdown.static_j):>12} "
                 f"{_si(total):>12}")
    lines.append(f"average power {breakdown.avg_power_w:.4g} W")
    return "\n".join(lines)


def _as_breakdown(record: Any) -> EnergyBreakdown:
    """An ``EnergyBreakdown`` from itself, its ``to_dict()`` or a result record with 'energy'."""
    if isinstance(record, EnergyBreakdown):
        return record
    if isinstance(record, Mapping):
        data = record.get("energy", record)
        if isinstance(data, EnergyBreakdown):
            return data
        if isinstance(data, Mapping) and "dynamic_by_component" in data:
            return EnergyBreakdown.from_dict(data)
    raise ConfigError("records[i]", type(record).__name__,
                      "an EnergyBreakdown, its to_dict(), or a record with an 'energy' field")


def plot_energy_breakdown(records: Sequence[Any] | Mapping[str, Any], path: str | Path, *,
                          labels: Sequence[str] | None = None, normalize: bool = False,
                          baseline: int | None = None, title: str = "",
                          split_static: bool = False) -> Path:
    """Stacked bars of energy by component, one bar per run; writes ``path`` (PNG, PDF...).

    Parameters
    ----------
    records
        Breakdowns, their ``to_dict()``s or result records with an ``energy`` field; a mapping
        gives the labels as its keys.
    path
        Output file; the format follows its suffix.
    labels
        Bar labels (default: the mapping keys, else ``run 0``, ``run 1``...).
    normalize
        Divide every bar by the total of the ``baseline`` bar (default: each bar by its own
        total, i.e. shares; with ``baseline`` set, relative to that run as the papers do).
    baseline
        Index of the run to normalise to (implies ``normalize``).
    title
        Figure title.
    split_static
        Plot each component's static part as its own hatched segment.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    if isinstance(records, Mapping):
        labels = list(records) if labels is None else list(labels)
        items = list(records.values())
    else:
        items = list(records)
    bds = [_as_breakdown(r) for r in items]
    if not bds:
        raise ConfigError("records", records, "at least one run")
    labels = [f"run {i}" for i in range(len(bds))] if labels is None else list(labels)
    if len(labels) != len(bds):
        raise ConfigError("labels", labels, f"{len(bds)} labels, one per run")
    if baseline is not None and not 0 <= baseline < len(bds):
        raise ConfigError("baseline", baseline, f"an index in 0..{len(bds) - 1}")

    comps: list[str] = []
    for b in bds:
        for c in b.components:
            if c not in comps and any(
                    x.dynamic_by_component_j.get(c, 0) + x.static_by_component_j.get(c, 0) > 0
                    for x in bds):
                comps.append(c)
    segments: list[tuple[str, str, bool]] = []  # (component, kind, hatched)
    for c in comps:
        if split_static:
            segments += [(c, "dynamic", False), (c, "static", True)]
        else:
            segments.append((c, "total", False))

    def value(b: EnergyBreakdown, comp: str, kind: str) -> float:
        d = b.dynamic_by_component_j.get(comp, 0.0)
        s = b.static_by_component_j.get(comp, 0.0)
        return d if kind == "dynamic" else s if kind == "static" else d + s

    if baseline is not None:
        scales = [bds[baseline].total_j] * len(bds)
    elif normalize:
        scales = [b.total_j for b in bds]
    else:
        scales = [1.0] * len(bds)
    scales = [s if s > 0 else 1.0 for s in scales]

    fig, ax = plt.subplots(figsize=(max(4.0, 1.0 + 0.8 * len(bds)), 4.5))
    cmap = plt.get_cmap("tab20")
    bottoms = [0.0] * len(bds)
    xs = list(range(len(bds)))
    for comp, kind, hatched in segments:
        heights = [value(b, comp, kind) / sc for b, sc in zip(bds, scales, strict=True)]
        if not any(heights):
            continue
        colour = cmap(comps.index(comp) % 20)
        label = comp if kind != "static" else f"{comp} (static)"
        ax.bar(xs, heights, bottom=bottoms, color=colour, label=label, width=0.6,
               hatch="//" if hatched else None, edgecolor="white" if hatched else None)
        bottoms = [b + h for b, h in zip(bottoms, heights, strict=True)]
    ax.set_xticks(xs)
    ax.set_xticklabels(labels, rotation=30 if len(bds) > 4 else 0, ha="right"
                       if len(bds) > 4 else "center")
    if baseline is not None:
        ax.set_ylabel(f"energy relative to {labels[baseline]}")
    elif normalize:
        ax.set_ylabel("share of energy")
    else:
        ax.set_ylabel("energy (J)")
    if title:
        ax.set_title(title)
    ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.0, 0.5))
    fig.tight_layout()
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=120)
    plt.close(fig)
    return out
