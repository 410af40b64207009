"""Configuration of WarpMan (Xiang, dissertation ch. 3; HPCA 2014): warp-level allocation and
release of registers and warp-scheduler entries, one partially dispatched block per SM, and
contention control by SM dueling or a concurrent-warp threshold. Off by default;
``-o warpman.enabled=true`` turns it on.

Follows: specs/xiang-simt-efficiency.md §2.3 (modes), §2.7 (assumptions), §5.1 (knobs
``resource_mgmt``, ``warp_threshold``, ``dueling_epoch``), STYLE.md §2.3.
"""

from __future__ import annotations

from dataclasses import dataclass

from warpsim.arch.schema import ConfigBase

__all__ = ["MODES", "WarpManConfig"]

MODES = ("tb", "temp", "temp_spatial", "dueling", "threshold")
"""Resource management (spec §2.3): ``tb`` block-level (the baseline's allocation, observed:
per-warp times and RTRU only), ``temp`` (exited warps' resources reused, caps at the block-level
occupancy), ``temp_spatial`` (caps at the physical resources), ``dueling`` (SM dueling between
the two), ``threshold`` (spatial allocation only below ``n_warp_threshold`` live warps)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class WarpManConfig(ConfigBase):
    """WarpMan parameters (``GPUConfig.warpman``)."""

    _PATH = "warpman"

    enabled: bool = False
    """Warp-level resource management when True; False is the baseline."""
    mode: str = "temp_spatial"
    """One of ``MODES`` (spec §2.3): tb | temp | temp_spatial | dueling | threshold."""
    n_warp_threshold: int = 36
    """``threshold`` mode: spatial (beyond the block-level caps) warp allocation stops once an SM
    has this many live warps (paper: 36) [A: spatial only, 'temp' reuse always allowed]."""
    dueling_epoch_cycles: int = 10000
    """``dueling`` mode [A]: the leader SMs' thread instructions are compared every this many
    core cycles; the winner's allocation applies to the followers for the next epoch."""
    n_leader_spatial_sm: int = 0
    """``dueling`` mode [A]: the SM that always runs temp+spatial allocation."""
    n_leader_temp_sm: int = 1
    """``dueling`` mode [A]: the SM that always runs 'temp' (block-level caps) allocation."""

    def __post_init__(self) -> None:
        self._validate()

    def _check(self) -> None:
        if self.mode not in MODES:
            self._fail("mode", f"one of {', '.join(MODES)}")
        self._at_least("n_warp_threshold", 1)
        self._at_least("dueling_epoch_cycles", 1)
        self._at_least("n_leader_spatial_sm", 0)
        self._at_least("n_leader_temp_sm", 0)
        if self.n_leader_spatial_sm == self.n_leader_temp_sm:
            self._fail("n_leader_temp_sm", "an SM other than n_leader_spatial_sm")
