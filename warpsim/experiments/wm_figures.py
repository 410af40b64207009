"""Figure of the WarpMan reproduction: one benchmark's allocated registers on SM 0 over time,
block-level allocation (``tb``, the baseline's) against WarpMan's ``temp``.

Drawn as the dissertation draws its register utilisation (Fig. 20: allocated registers over
the register file, in per cent) but along the run instead of per block at launch, from the
§2.6 allocation log (``wm_analysis.register_series``). File: ``fig_register_series.png``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from warpsim.experiments.wm_analysis import time_average

__all__ = ["register_series_figure"]


def register_series_figure(series: dict[str, dict[str, Any]], bench: str,
                           path: Path) -> Path:
    """Step plot of ``series[label]`` (``register_series`` outputs) as a percentage of the
    register file, the time average of each in its legend entry."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7.0, 3.2))
    for label, s in series.items():
        n = max(1, s["n_registers"])
        pct = [100.0 * r / n for r in s["regs"]]
        avg = 100.0 * time_average(s["cycle"], s["regs"], s["end"]) / n
        ax.step(s["cycle"], pct, where="post", linewidth=0.9,
                label=f"{label} (time average {avg:.1f} %)")
    ax.set_ylim(0, 105)
    ax.set_xlabel("cycle")
    ax.set_ylabel("allocated registers / RF (%)")
    ax.set_title(f"{bench}: allocated registers on SM 0", fontsize=10)
    ax.legend(fontsize=8, loc="lower right")
    fig.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(fig)
    return path
