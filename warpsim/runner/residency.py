"""Resident warps per SM achieved by a run, against the GPU's maximum (issue 17).

Follows: ARCHITECTURE.md §6 (statistics) and issue 17 ("``reproduce`` reports, next to each
benchmark, the resident warps per SM achieved vs the GPU's maximum, so a reader sees when an
input is too small to be representative"). Everything is read from the timing statistics:

- ``resident_warps`` = ``sm_active_warp_cycles / sm_active_cycles``: the mean number of
  resident warps of an SM over the cycles it held a CTA (summed over SMs and launches);
- ``sm_busy_frac`` = ``sm_active_cycles / (n_sms x gpu_sim_cycle)``: the share of SM-cycles
  with a resident CTA (idle SMs and kernel tails lower it);
- ``sms_with_cta`` (from :class:`ResidencyObserver`'s columns): the most SMs any one launch
  gave a CTA, and ``peak_resident_warps``: the most warps one SM held at its first wave,
  ``min(CTA slots, CTAs it received) x warps per CTA`` over SMs and launches (the engine keeps
  no running maximum, so this is the occupancy bound the dispatcher filled: exact when the
  SM's first CTAs arrive before any of them retires, as the dispatcher places one CTA per SM
  per cycle from cycle 0).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = [
    "RESIDENCY_COLUMNS",
    "RESIDENCY_KEYS",
    "ResidencyObserver",
    "format_residency_table",
    "launch_residency",
    "residency",
]

RESIDENCY_COLUMNS = ("res_n_sms", "res_max_warps_per_sm", "res_sms_with_cta", "res_peak_warps")
"""Extra record columns a timed job adds (:meth:`ResidencyObserver.columns`)."""

RESIDENCY_KEYS = ("resident_warps", "max_warps_per_sm", "resident_warps_frac",
                  "peak_resident_warps", "sm_busy_frac", "sms_with_cta", "n_sms",
                  "sms_with_cta_frac")
"""What :func:`residency` returns, in table order."""


def launch_residency(ctas_launched: Sequence[int], warps_launched: Sequence[int],
                     ctas_per_sm: int, max_warps_per_sm: int) -> tuple[int, int]:
    """``(SMs that received a CTA, peak resident warps of one SM)`` of one launch, from the
    per-SM ``sm_ctas_launched`` / ``sm_warps_launched`` counts and the launch's CTA slots per
    SM (the first-wave bound described in the module docstring)."""
    used, peak = 0, 0
    for ctas, warps in zip(ctas_launched, warps_launched, strict=True):
        if ctas <= 0:
            continue
        used += 1
        per_cta = -(-int(warps) // int(ctas))
        peak = max(peak, min(int(ctas), int(ctas_per_sm)) * per_cta)
    return used, min(peak, int(max_warps_per_sm))


class ResidencyObserver:
    """A ``Device`` launch observer that keeps, over a run's timed launches, the widest
    launch's SM count and the peak resident warps of one SM (:func:`launch_residency`)."""

    def __init__(self, gpu: Any) -> None:
        self.n_sms = int(gpu.sm.n_sms)
        self.max_warps_per_sm = int(gpu.sm.n_max_warps)
        self.sms_with_cta = 0
        self.peak_warps = 0

    def __call__(self, kernel: Any, config: Any, result: Any) -> None:
        del kernel, config
        timing = getattr(result, "timing", None)
        per_sm = getattr(timing, "per_sm", None) or {}
        if "sm_ctas_launched" not in per_sm:
            return
        slots = int((getattr(timing, "occupancy", None) or {}).get("ctas_per_sm", 0)) or \
            max(per_sm["sm_ctas_launched"])
        used, peak = launch_residency(per_sm["sm_ctas_launched"], per_sm["sm_warps_launched"],
                                      slots, self.max_warps_per_sm)
        self.sms_with_cta = max(self.sms_with_cta, used)
        self.peak_warps = max(self.peak_warps, peak)

    def columns(self) -> dict[str, int]:
        """The record columns :data:`RESIDENCY_COLUMNS`."""
        return {"res_n_sms": self.n_sms, "res_max_warps_per_sm": self.max_warps_per_sm,
                "res_sms_with_cta": self.sms_with_cta, "res_peak_warps": self.peak_warps}


def _num(stats: Mapping[str, Any], key: str) -> float | None:
    value = stats.get(key)
    if value is None or isinstance(value, bool | str):
        return None
    value = float(value)
    return None if math.isnan(value) else value


def _gpu_of(stats: Mapping[str, Any]) -> tuple[int | None, int | None]:
    """(n_sms, max warps per SM) from the observer's columns, else the record's config."""
    n, w = _num(stats, "res_n_sms"), _num(stats, "res_max_warps_per_sm")
    if n and w:
        return int(n), int(w)
    try:
        sm = json.loads(stats["config"])["sm"]
        return int(sm["n_sms"]), int(sm["n_max_threads"]) // int(sm.get("n_threads_per_warp",
                                                                         32))
    except (KeyError, TypeError, ValueError):
        return None, None


def residency(stats: Mapping[str, Any], *, n_sms: int | None = None,
              max_warps_per_sm: int | None = None) -> dict[str, Any]:
    """The residency of one run (a flat record or ``Device.stats``; see the module docstring).

    ``n_sms`` and ``max_warps_per_sm`` default to the record's ``res_*`` columns, else its
    ``config`` column. Values that cannot be computed are None.
    """
    got_n, got_w = _gpu_of(stats)
    n_sms = n_sms or got_n
    max_w = max_warps_per_sm or got_w
    active = _num(stats, "sm_active_cycles")
    warp_cycles = _num(stats, "sm_active_warp_cycles")
    cycles = _num(stats, "gpu_sim_cycle")
    resident = warp_cycles / active if active and warp_cycles is not None else None
    used = _num(stats, "res_sms_with_cta")
    peak = _num(stats, "res_peak_warps")
    return {
        "resident_warps": resident,
        "max_warps_per_sm": max_w,
        "resident_warps_frac": resident / max_w if resident is not None and max_w else None,
        "peak_resident_warps": int(peak) if peak else None,
        "sm_busy_frac": active / (n_sms * cycles) if active is not None and n_sms and cycles
        else None,
        "sms_with_cta": int(used) if used else None,
        "n_sms": n_sms,
        "sms_with_cta_frac": used / n_sms if used and n_sms else None,
    }


def _cell(value: Any, fmt: str) -> str:
    return "-" if value is None else format(value, fmt)


def format_residency_table(rows: Mapping[str, Mapping[str, Any]], title: str = "") -> str:
    """A text table: benchmark, resident warps (mean / peak / max), SMs used, busy SM-cycles."""
    head = (f"{'benchmark':<18} {'resident warps/SM':>17} {'peak':>5} {'max':>4} "
            f"{'occupancy':>9} {'SMs with a CTA':>14} {'busy SM-cycles':>14}")
    lines = [title] if title else []
    lines += [head, "-" * len(head)]
    for bench, r in rows.items():
        used = "-" if r.get("sms_with_cta") is None else f"{r['sms_with_cta']}/{r.get('n_sms')}"
        lines.append(
            f"{bench:<18} {_cell(r.get('resident_warps'), '.1f'):>17} "
            f"{_cell(r.get('peak_resident_warps'), 'd'):>5} "
            f"{_cell(r.get('max_warps_per_sm'), 'd'):>4} "
            f"{_cell(r.get('resident_warps_frac'), '.0%'):>9} {used:>14} "
            f"{_cell(r.get('sm_busy_frac'), '.0%'):>14}")
    return "\n".join(lines)
