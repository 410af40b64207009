"""Kernel-level sampling: launches that repeat an earlier launch's work reuse its result.

Follows: issue 17 (kernel-level sampling: a launch with the same kernel, shape and a matching
functional profile reuses a measured launch; the first launch of each class is measured), the
idea of PKA/Sieve-style kernel clustering reduced to exact shape classes plus a profile check.
A class is (kernel, grid, block, dynamic shared memory, cooperative); a profile is what the
functional pass counted: warp instructions per PC and 128 B lines touched. Reuse starts once two
measured launches of a class match and agree in cycles per warp instruction (so a cold first
launch, or launches whose profile hides a change of access pattern, are not reused).
[A] Launches with the same profile take the same cycles per warp instruction (the memory
system's state between launches, e.g. a warm L2, is taken as in the measured launch).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = ["MAX_PER_CLASS", "Measured", "Profile", "ReuseTable"]

MAX_PER_CLASS = 8
"""Measured launches per class at most (the earliest ones): a class whose launches keep
differing in cycles per instruction reuses the latest of them after that."""


@dataclass(frozen=True, slots=True)
class Profile:
    """The functional profile of one launch."""

    pc_warps: np.ndarray
    """Warp instructions per static instruction (int64)."""
    lines: int
    """128 B lines touched by the launch's memory instructions."""

    @property
    def warp_insts(self) -> int:
        return int(self.pc_warps.sum())

    def distance(self, other: Profile) -> float:
        """Relative distance: the larger of the L1 distance of the per-PC counts over
        ``other``'s total and the relative difference of the lines (inf: other kernel)."""
        if self.pc_warps.shape != other.pc_warps.shape:
            return float("inf")
        d_pc = float(np.abs(self.pc_warps - other.pc_warps).sum()) / max(1, other.warp_insts)
        d_lines = abs(self.lines - other.lines) / max(1, other.lines)
        return max(d_pc, d_lines)


@dataclass(slots=True)
class Measured:
    """A measured (replayed, possibly intra-kernel projected) launch that others may reuse."""

    profile: Profile
    stats: dict[str, Any]
    """The launch's statistics (projected to the whole launch when it was sampled)."""
    error: float
    """Its estimated relative cycle error (0 when replayed in full)."""
    occupancy: dict[str, int] = field(default_factory=dict)
    pc_activity: np.ndarray | None = None


def _cpi(m: Measured) -> float:
    """Cycles per warp instruction of a measured launch."""
    return float(m.stats.get("gpu_sim_cycle", 0)) / max(1, m.profile.warp_insts)


class ReuseTable:
    """Measured launches by class, for one device."""

    def __init__(self, tolerance: float) -> None:
        self.tolerance = tolerance
        self._classes: dict[tuple, list[Measured]] = {}

    def find(self, key: tuple, profile: Profile) -> tuple[Measured, float, float] | None:
        """The latest measured launch of class ``key`` that ``profile`` may reuse, its profile
        distance and the relative difference of the cycles per warp instruction of the class's
        last two matching measurements; None (measure this launch) while fewer than two
        measured launches match within the tolerance or their rates differ by more (up to
        ``MAX_PER_CLASS`` measurements; then the latest is reused, its spread as error)."""
        entries = self._classes.get(key, [])
        near = [(m, d) for m in entries
                if (d := profile.distance(m.profile)) <= self.tolerance]
        if len(near) < 2:
            return None
        (a, _), (b, d) = near[-2], near[-1]
        ra, rb = _cpi(a), _cpi(b)
        spread = abs(rb - ra) / rb if rb > 0 else 0.0
        if spread > self.tolerance and len(entries) < MAX_PER_CLASS:
            return None
        return b, d, spread

    def add(self, key: tuple, measured: Measured) -> None:
        """Remember a measured launch of class ``key`` (up to ``MAX_PER_CLASS``)."""
        entries = self._classes.setdefault(key, [])
        if len(entries) < MAX_PER_CLASS:
            entries.append(measured)
