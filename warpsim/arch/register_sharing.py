"""Configuration of Register Sharing (Jatala et al.): extra thread blocks on wasted registers,
Owner-Warp-First scheduling, declaration reordering and dynamic warp execution. Off by default;
``-o register_sharing.enabled=true`` turns it on.

Follows: specs/register-sharing.md §3-§6 (the mechanism's parameters), STYLE.md §2.3.
"""

from __future__ import annotations

from dataclasses import dataclass

from warpsim.arch.schema import ConfigBase

__all__ = ["RegisterSharingConfig"]


@dataclass(frozen=True, slots=True, kw_only=True)
class RegisterSharingConfig(ConfigBase):
    """Register-Sharing parameters (``GPUConfig.register_sharing``)."""

    _PATH = "register_sharing"

    enabled: bool = False
    """Launch extra thread blocks on shared registers when True; False is the baseline."""

    def __post_init__(self) -> None:
        self._validate()
