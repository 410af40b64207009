"""The locality surface drawn as a 3-D mesh over log2(window) and log2(neighbourhood), as the
dissertation's Figs 54-56.

Follows: Xiang's dissertation §5.2.1 / §5.3 (Figs 54-56).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from warpsim.mechanisms.coarse_fetch.locality import LocalitySurface

__all__ = ["plot_surface"]


def plot_surface(surface: LocalitySurface, path: str | Path, title: str = "") -> Path:
    """Write the surface to ``path`` (any format matplotlib knows by suffix)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    x = np.log2(surface.windows.astype(np.float64))
    y = np.log2(surface.neighbourhoods.astype(np.float64))
    xx, yy = np.meshgrid(x, y)
    fig = plt.figure(figsize=(7, 5))
    ax = fig.add_subplot(projection="3d")
    ax.plot_wireframe(xx, yy, surface.values, color="tab:blue", linewidth=0.8)
    ax.set_xlabel("log2 near-future window (accesses)")
    ax.set_ylabel("log2 neighbourhood (bytes)")
    ax.set_zlabel("locality")
    ax.set_zlim(0.0, 1.0)
    if title:
        ax.set_title(title)
    out = Path(path)
    fig.savefig(out, dpi=120, bbox_inches="tight")
    plt.close(fig)
    return out
