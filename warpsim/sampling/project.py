"""Projection of a launch's cycles and statistics from the replay of its first CTA waves.

Follows: issue 17 (intra-kernel sampling: replay the first waves, project the rest, report the
projected fraction and an error estimate). The replay pauses at the dispatch of the first CTA
of each later wave (``Stop``: cycle, CTAs dispatched); the cycles per unit of work (a CTA's
dynamic warp instructions, from the functional pass) over the last two intervals between pauses
is the steady wave rate, and the launch's cycles are the replayed cycles plus that rate times
the work of the CTAs not replayed:

    T = T_keep + rate * (W(N) - W(n_keep)),  rate = (c[-1] - c[-3]) / (W(n[-1]) - W(n[-3]))

[A] CTAs after the sample run at the steady rate of the last sampled waves (no phase change
later in the grid); [A] counters of events scale with the work, counters of cycles with the
cycles. The error estimate is the projected fraction times the larger relative deviation of the
two intervals' rates from the rate used (the projected fraction itself when there is a single
interval: nothing to compare it with).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

import numpy as np

from warpsim.stats import BASELINE, derive

__all__ = ["CYCLE_SCALED", "EXACT_FROM_FUNCTIONAL", "Projection", "Stop", "interval_rates",
           "is_stable", "project_cycles", "scale_stats"]

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


def is_stable(stops: list[Stop], work: np.ndarray, stability: float) -> bool:
    """The last two wave intervals ran at rates within ``stability`` of each other."""
    r = interval_rates(stops, work)
    return len(r) >= 2 and r[-1] > 0 and abs(r[-1] - r[-2]) <= stability * r[-1]


def project_cycles(stops: list[Stop], measured: int, work: np.ndarray, n_keep: int
                   ) -> Projection:
    """Project the cycles of a launch whose CTAs have ``work`` (warp instructions each) from a
    replay of its first ``n_keep`` CTAs that took ``measured`` cycles and paused at ``stops``:
    the rate is that of the last two wave intervals."""
    cum = np.concatenate([[0], np.cumsum(work.astype(np.int64))])
    total, kept = int(cum[-1]), int(cum[n_keep])
    rest = total - kept
    pts = _points(stops, cum)
    rates = [(b[0] - a[0]) / (b[1] - a[1]) for a, b in itertools.pairwise(pts)]
    if len(rates) >= 2:
        rate = (pts[-1][0] - pts[-3][0]) / (pts[-1][1] - pts[-3][1])
        dev = max(abs(rates[-1] - rate), abs(rates[-2] - rate)) / rate if rate > 0 else 0.0
    elif rates:  # one interval: nothing to compare it with
        rate, dev = rates[0], 1.0
    else:  # no interval: the average rate of the replay
        rate = measured / kept if kept else 0.0
        dev = 1.0 if rest else 0.0
    cycles = measured + round(rate * rest)
    frac = (cycles - measured) / cycles if cycles else 0.0
    return Projection(cycles=cycles, measured_cycles=measured,
                      work_ratio=total / kept if kept else 1.0, projected_fraction=frac,
                      error=frac * dev, rate=rate)


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
