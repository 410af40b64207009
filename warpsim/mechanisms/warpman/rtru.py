"""The temporal resource-underutilization metric RTRU (dissertation §3.3; spec §2.2).

For a block of N warps with execution times T_i and maxT = max T_i:
``RTRU_TB = sum_i (maxT - T_i) / (N * maxT)``. Per application the dissertation takes the
geometric mean over blocks; zeros make that degenerate, so ``rtru_app`` gives GM(1 + RTRU) - 1
and the arithmetic mean [A]. T_i runs from the warp's start (its eligibility: the cycle it got
a scheduler entry) to its exit [A].
"""

from __future__ import annotations

import numpy as np

__all__ = ["rtru_app", "rtru_blocks", "rtru_of_times"]


def rtru_of_times(times) -> float:
    """RTRU of one block from its warps' execution times."""
    t = np.asarray(times, dtype=np.float64)
    if t.size == 0:
        return 0.0
    m = float(t.max())
    if m <= 0:
        return 0.0
    return float((m - t).sum() / (t.size * m))


def rtru_blocks(start: np.ndarray, end: np.ndarray, warps_per_cta: int) -> np.ndarray:
    """RTRU of each block from per-warp start and exit cycles (global warp order); blocks
    with a warp that never ran (-1) are left out (NaN)."""
    start = np.asarray(start, np.int64).reshape(-1, warps_per_cta)
    end = np.asarray(end, np.int64).reshape(-1, warps_per_cta)
    out = np.full(start.shape[0], np.nan)
    for b in range(start.shape[0]):
        if (start[b] < 0).any() or (end[b] < 0).any():
            continue
        out[b] = rtru_of_times(end[b] - start[b])
    return out


def rtru_app(per_block) -> dict[str, float]:
    """Application RTRU: ``gm`` = GM(1 + RTRU) - 1 over blocks, ``mean`` (arithmetic)."""
    r = np.asarray(per_block, np.float64)
    r = r[~np.isnan(r)]
    if r.size == 0:
        return {"gm": 0.0, "mean": 0.0, "n_blocks": 0}
    return {"gm": float(np.exp(np.log1p(r).mean()) - 1.0), "mean": float(r.mean()),
            "n_blocks": int(r.size)}
