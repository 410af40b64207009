"""Configuration of Warped-Compression (Lee et al., ISCA 2015): BDI register compression with
register-bank power gating. Off by default; ``-o warped_compression.enabled=true`` turns it on.

Follows: specs/warped-compression.md §1-§2 (the mechanism's parameters), STYLE.md §2.3.
"""

from __future__ import annotations

from dataclasses import dataclass

from warpsim.arch.schema import ConfigBase

__all__ = ["WarpedCompressionConfig"]


@dataclass(frozen=True, slots=True, kw_only=True)
class WarpedCompressionConfig(ConfigBase):
    """Warped-Compression parameters (``GPUConfig.warped_compression``)."""

    _PATH = "warped_compression"

    enabled: bool = False
    """Compress registers (and gate empty banks) when True; False is the baseline engine."""

    def __post_init__(self) -> None:
        self._validate()
