"""Per-launch layout of Register Sharing on an SM: how many thread blocks, which CTA slots are
paired, and how many registers per thread a shared warp keeps private.

Follows: specs/register-sharing.md §3.3 (M, S, U from ``occupancy.sharing_occupancy``, the
integer form of the paper's Eqs. 1-4) and §3.4 [A] (slots ``0..U-1`` unshared; slot ``U+k``
paired with slot ``g+k``; a new thread block inherits its slot's role).
Assumptions:
  [A] The timing dispatcher also limits blocks by warp slots (``occupancy_limits``'
      ``warps``); M is capped by it too, and a cap down to g or below means no sharing.
  [A] When no extra block fits (M <= g, spec §3.10) the launch is the baseline's: the
      driver's own block count, every slot unshared.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from warpsim.mechanisms.register_sharing.occupancy import SharingOccupancy, sharing_occupancy
from warpsim.timing.dispatch import occupancy_limits

__all__ = ["SharingLayout", "sharing_layout"]


@dataclass(frozen=True, slots=True)
class SharingLayout:
    """Blocks per SM and the slot pairing of one launch shape."""

    blocks: int
    """M, CTA slots per SM the dispatcher fills."""
    baseline_blocks: int
    """The driver's occupancy without sharing."""
    shared_pairs: int
    """S."""
    unshared_blocks: int
    """U."""
    g: int
    """floor(R / R_tb)."""
    unshared_regs_per_thread: int
    """u = floor(t·r): a shared warp's registers with sequence number <= u are private."""
    sharing_mode: bool
    """True when M > baseline (extra blocks launched)."""
    partner: tuple[int, ...]
    """``partner[slot]``: the sharer slot, -1 for an unshared slot (length M)."""
    pair: tuple[int, ...]
    """``pair[slot]``: the pair index k of a shared slot, -1 for an unshared slot."""
    occupancy: SharingOccupancy | None = None
    """The calculator's result (None for a launch that does not fit at all)."""


def _unshared(baseline: int, occ: SharingOccupancy | None) -> SharingLayout:
    u = occ.unshared_regs_per_thread if occ is not None else 0
    g = occ.g if occ is not None else baseline
    return SharingLayout(baseline, baseline, 0, baseline, g, u, False, (-1,) * baseline,
                         (-1,) * baseline, occ)


def sharing_layout(cfg: Any, cta_threads: int, regs_per_thread: int, shmem_bytes: int,
                   baseline: int) -> SharingLayout:
    """The layout of a launch on ``cfg`` (a ``GPUConfig`` with a ``register_sharing``
    section); ``baseline`` is the dispatcher's block count without sharing."""
    rs = cfg.register_sharing
    occ = sharing_occupancy(cfg, cta_threads, regs_per_thread, shmem_bytes,
                            threshold_frac=rs.threshold_frac)
    m = min(occ.blocks, occupancy_limits(cfg, cta_threads, regs_per_thread,
                                         shmem_bytes)["warps"], cfg.sm.n_max_ctas)
    if not occ.sharing_mode or m <= occ.g or m <= baseline:
        return _unshared(baseline, occ)
    g = occ.g
    s = m - g
    u_blocks = g - s
    partner = [-1] * m
    pair = [-1] * m
    for k in range(s):  # spec §3.4: slot U+k (original) pairs with slot g+k (extra)
        a, b = u_blocks + k, g + k
        partner[a], partner[b] = b, a
        pair[a] = pair[b] = k
    return SharingLayout(m, baseline, s, u_blocks, g, occ.unshared_regs_per_thread, True,
                         tuple(partner), tuple(pair), occ)
