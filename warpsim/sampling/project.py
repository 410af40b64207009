"""Projection of a launch's cycles and statistics from the replay of its first CTA waves.

Follows: issue 17 (intra-kernel sampling: replay the first waves, project the rest, report the
projected fraction and an error estimate). The replay pauses at the dispatch of the first CTA
of each later wave (``Stop``: cycle, CTAs dispatched); the cycles per unit of work (a CTA's
dynamic warp instructions, from the functional pass) between pauses, the first third of the
intervals (warm-up) left out, averaged (the fastest and slowest dropped from four on), is the
steady wave rate; the launch's cycles are the replayed cycles plus that rate times the work of
the CTAs not replayed:

    T = T_keep + rate * (W(N) - W(n_keep))

[A] CTAs after the sample run at the steady rate of the sampled waves (the rate's wave-to-wave
variation, e.g. hotspot's rows of CTAs, averages out; a later phase change is not seen);
[A] counters of events scale with the work, counters of cycles with the cycles. The error
estimate is the projected fraction times twice the rate's relative standard error over the
steady intervals (the projected fraction itself with fewer than two: unknown).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

import numpy as np

from warpsim.stats import BASELINE, derive

__all__ = ["CYCLE_SCALED", "EXACT_FROM_FUNCTIONAL", "Projection", "Stop", "interval_rates",
           "is_stable", "project_cycles", "scale_stats", "steady_rate"]

CYCLE_SCALED = frozenset(c.name for c in BASELINE if c.unit == "cycle" and c.combine == "sum"
                         and c.name.endswith("cycles") and c.name != "mem_load_latency_cycles"
                         ) | {"gpgpu_n_stall_shd_mem"}
"""Counters of time (SM, scheduler, interconnect, DRAM cycles): scaled with the cycles."""

EXACT_FROM_FUNCTIONAL = ("gpu_sim_insn", "gpgpu_n_tot_w_icount")
"""Counters the functional pass knows exactly for the whole launch."""

_MAX_COMBINED = frozenset(c.name for c in BASELINE if c.combine == "max")
_DERIVED_FROM = frozenset(("gpu_tot_sim_cycle", "gpu_tot_sim_insn"))


@dataclass(frozen=True, slots=True)
class Stop:
    """The replay paused for CTAs: ``cycle`` (from the launch's start) with ``dispatched``
    CTAs started."""

    cycle: int
    dispatched: int


@dataclass(frozen=True, slots=True)
class Projection:
    """The projected launch."""

    cycles: int
    """Projected ``gpu_sim_cycle`` of the whole launch."""
    measured_cycles: int
    """Cycles of the replayed CTAs."""
    work_ratio: float
    """Work of the launch over work replayed (warp instructions)."""
    projected_fraction: float
    """Share of the projected cycles not replayed: ``(cycles - measured) / cycles``."""
    error: float
    """Estimated relative error of ``cycles``."""
    rate: float
    """Cycles per warp instruction used for the rest."""


def _points(stops: list[Stop], cum: np.ndarray) -> list[tuple[int, int]]:
    """(cycle, work started) at each pause, pauses without new work dropped."""
    pts: list[tuple[int, int]] = []
    for s in stops:
        p = (s.cycle, int(cum[min(s.dispatched, cum.size - 1)]))
        if not pts or p[1] > pts[-1][1]:
            pts.append(p)
    return pts


def interval_rates(stops: list[Stop], work: np.ndarray) -> list[float]:
    """Cycles per unit of work between consecutive pauses."""
    pts = _points(stops, np.concatenate([[0], np.cumsum(work.astype(np.int64))]))
    return [(b[0] - a[0]) / (b[1] - a[1]) for a, b in itertools.pairwise(pts)]


def steady_rate(rates: list[float]) -> tuple[float, float]:
    """``(rate, relative standard error)`` of the steady intervals: the last two thirds (the
    first third, at least one interval, is warm-up: caches, DRAM queues and the CTA mix still
    filling); with four or more the fastest and the slowest are dropped, the rest averaged.
    ``(nan, inf)`` with fewer than two steady intervals."""
    steady = sorted(rates[max(1, -(-len(rates) // 3)):])
    if len(steady) < 2:
        return float("nan"), float("inf")
    core = steady[1:-1] if len(steady) >= 4 else steady
    rate = float(np.mean(core))
    se = float(np.std(steady, ddof=1)) / np.sqrt(len(steady))
    return rate, (se / rate if rate > 0 else float("inf"))


def is_stable(stops: list[Stop], work: np.ndarray, stability: float) -> bool:
    """The steady intervals' rate is known within ``stability`` (relative standard error)."""
    return steady_rate(interval_rates(stops, work))[1] <= stability


def project_cycles(stops: list[Stop], measured: int, work: np.ndarray, n_keep: int
                   ) -> Projection:
    """Project the cycles of a launch whose CTAs have ``work`` (warp instructions each) from a
    replay of its first ``n_keep`` CTAs that took ``measured`` cycles and paused at ``stops``,
    at the steady intervals' rate (``steady_rate``); error: twice its relative standard error
    times the projected fraction."""
    cum = np.concatenate([[0], np.cumsum(work.astype(np.int64))])
    total, kept = int(cum[-1]), int(cum[n_keep])
    rest = total - kept
    pts = _points(stops, cum)
    rates = [(b[0] - a[0]) / (b[1] - a[1]) for a, b in itertools.pairwise(pts)]
    rate, rel_se = steady_rate(rates)
    dev = 2 * rel_se
    if not rate == rate:  # fewer than two steady intervals: what there is, error unknown
        rate = rates[-1] if rates else (measured / kept if kept else 0.0)
        dev = 1.0 if rest else 0.0
    cycles = measured + round(rate * rest)
    frac = (cycles - measured) / cycles if cycles else 0.0
    return Projection(cycles=cycles, measured_cycles=measured,
                      work_ratio=total / kept if kept else 1.0, projected_fraction=frac,
                      error=frac * min(dev, 1.0), rate=rate)


def scale_stats(stats: dict[str, Any], cycles: int, cycle_ratio: float, work_ratio: float,
                exact: dict[str, int]) -> dict[str, Any]:
    """``stats`` of a replayed part scaled to the whole launch: ``gpu_sim_cycle`` = ``cycles``,
    ``exact`` counters (from the functional pass) as given, cycle counters times
    ``cycle_ratio``, other integer counters (the mechanisms' too) times ``work_ratio``; floats
    that are not derived metrics are kept; derived metrics recomputed."""
    out: dict[str, Any] = {}
    for name, value in stats.items():
        if name in exact:
            out[name] = int(exact[name])
        elif name == "gpu_sim_cycle":
            out[name] = int(cycles)
        elif name in _MAX_COMBINED or name in _DERIVED_FROM:
            out[name] = value
        elif isinstance(value, (bool, np.bool_)):
            out[name] = value
        elif isinstance(value, (int, np.integer)):
            ratio = cycle_ratio if name in CYCLE_SCALED else work_ratio
            out[name] = round(int(value) * ratio)
        else:
            out[name] = value
    out.update(derive(out))
    return out
