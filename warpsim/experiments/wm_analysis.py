"""Metrics of the WarpMan reproduction from the runs of ``wm_runs`` (pure functions).

Follows: specs/xiang-simt-efficiency.md §2.2 (unused registers, RTRU, the per-warp instruction
histogram), §2.5 (speedups, L1D miss rate, DRAM row locality, energy), §2.6 (targets B-R1 ...
B-R15) and §5.4 (geometric means of ratios; speedup = IPC_new / IPC_base - 1; the runs
execute the same instructions, so it is cycles_base / cycles_new - 1).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from warpsim.mechanisms.warpman.occupancy import PAPER_TABLE5, unused_register_gm
from warpsim.mechanisms.warpman.rtru import rtru_app

__all__ = ["PAPER", "gm_ratio", "histogram", "register_series", "rtru_summary", "time_average",
           "unused_registers"]

PAPER = {
    "unused_register_fraction": 0.294, "unused_register_fraction_reg_limited": 0.136,
    "speedup_temp": 0.141, "speedup_temp_spatial": 0.168, "speedup_dueling": 0.178,
    "speedup_threshold": 0.178, "energy_saving_temp": 0.059,
    "speedup_temp_per_benchmark": {"ST": 0.714, "RAY": 0.301, "RS": 0.084, "CT": 0.042},
    "energy_saving_temp_spatial": 0.068, "energy_saving_dueling": 0.073,
    "rtru_rr": 0.118, "rtru_two_level": 0.132, "rtru_ray_tb0": 0.497, "rtru_ray": 0.392,
    "rtru_st_tb0": 0.701, "rtru_st": 0.817,
    "ray_hist": {"<500": 0.525, "1000-1500": 0.296, "3500-4000": 0.019},
    "mm_l1d_miss": [0.577, 0.607], "rs_row_acc_per_act": [24.96, 10.74],
    "two_level": {"temp_spatial": 0.157, "dueling": 0.167, "threshold": 0.171},
    "regs_16k_dueling": 0.110, "regs_64k_dueling": 0.121, "simd8": 0.195, "simd16": 0.194,
}
"""The dissertation's text numbers (spec §2.5, §2.6)."""


def gm_ratio(values) -> float:
    """GM(1 + v) - 1 (speedups, savings as ratios); NaN when empty."""
    v = [x for x in values if x is not None and not math.isnan(x)]
    if not v:
        return float("nan")
    return float(math.exp(sum(math.log1p(x) for x in v) / len(v)) - 1.0)


def unused_registers(kernels: dict[str, dict[str, int]], n_registers: int,
                     granule: int = 4) -> dict[str, Any]:
    """Registers block-level occupancy leaves unallocated, per kernel (exact: blocks x
    ceil(regs/granule) x granule x warp-padded threads), and the benchmark's value weighted
    by the kernels' warp instructions."""
    per: dict[str, float] = {}
    w_sum = tot = 0.0
    for name, k in kernels.items():
        padded = k["warps_per_cta"] * 32
        regs = -(-k["regs_per_thread"] // granule) * granule * padded
        frac = 1.0 - k["baseline_ctas_per_sm"] * regs / n_registers
        per[name] = frac
        w_sum += k["warp_insts"] * frac
        tot += k["warp_insts"]
    return {"per_kernel": per, "weighted": w_sum / tot if tot else float("nan")}


def histogram(insts: np.ndarray, width: int = 500) -> dict[str, float]:
    """Fraction of warps per instruction-count bin [i*width, (i+1)*width) (B-R5)."""
    insts = np.asarray(insts, np.int64)
    if insts.size == 0:
        return {}
    bins = insts // width
    out = {}
    for b in range(int(bins.max()) + 1):
        n = int((bins == b).sum())
        if n:
            out[f"{b * width}-{(b + 1) * width}"] = n / insts.size
    return out


def rtru_summary(launches: list[Any]) -> dict[str, Any]:
    """RTRU over every block of every launch (GM(1+RTRU)-1 and mean), TB0's (first launch)
    and the per-warp instruction histogram."""
    if not launches:
        return {}
    per = np.concatenate([np.asarray(lr.rtru, np.float64) for lr in launches])
    app = rtru_app(per)
    insts = np.concatenate([np.asarray(lr.insts) for lr in launches])
    return {"app_gm": app["gm"], "app_mean": app["mean"], "n_blocks": app["n_blocks"],
            "tb0": float(launches[0].rtru[0]) if len(launches[0].rtru) else float("nan"),
            "warp_inst_histogram": histogram(insts)}


def paper_unused() -> dict[str, Any]:
    """B-R1 from the dissertation's Table 5 (exact arithmetic)."""
    reg = {k: PAPER_TABLE5[k] for k in ("RS", "HS", "RAY", "MM", "NN", "CT")}
    return {"gm_all": unused_register_gm(PAPER_TABLE5), "gm_reg_limited": unused_register_gm(reg)}


def register_series(launches: list[Any], sm: int = 0) -> dict[str, Any]:
    """SM ``sm``'s allocated registers over the whole run (spec §2.6): the launches' logs
    one after the other (each launch's cycles offset by the ones before), as step points
    ``cycle`` (the value holds from there to the next point) and ``regs``; ``end`` is the
    run's last cycle."""
    cyc: list[int] = [0]
    regs: list[int] = [0]
    t0 = 0
    for lr in launches:
        rows = getattr(lr, "series", None)
        if rows is not None and len(rows):
            rows = np.asarray(rows)[np.asarray(rows)[:, 0] == sm]
            cyc.extend(int(t0 + c) for c in rows[:, 1])
            regs.extend(int(r) for r in rows[:, 2])
        t0 += int(getattr(lr, "cycles", 0))
        cyc.append(t0)
        regs.append(0)
    n_reg = max((int(getattr(lr, "n_registers", 0)) for lr in launches), default=0)
    return {"cycle": cyc, "regs": regs, "end": t0, "n_registers": n_reg}


def time_average(cycle, values, end: int) -> float:
    """Time average of a step series (``values[i]`` holds from ``cycle[i]`` to the next
    point, the last one to ``end``) over [0, end)."""
    c = np.append(np.asarray(cycle, np.int64), end)
    v = np.asarray(values, np.float64)
    return float((v * np.diff(c)).sum() / end) if end > 0 else float("nan")
