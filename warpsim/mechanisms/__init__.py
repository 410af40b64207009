"""Switchable mechanisms of the timing engine (STYLE.md §2.2): hook points (``hooks.py``),
the per-launch life cycle (``base.py``) and the registry of what a config turns on
(``registry.py``). ``REGISTRY`` maps each mechanism key to an entry whose ``Config`` is its
``GPUConfig`` section class (what sweeps validate mechanism parameters against)."""

from __future__ import annotations

from types import SimpleNamespace

from warpsim.arch.register_sharing import RegisterSharingConfig
from warpsim.arch.warped_compression import WarpedCompressionConfig

__all__ = ["REGISTRY"]

REGISTRY: dict[str, SimpleNamespace] = {
    "warped_compression": SimpleNamespace(NAME="warped_compression",
                                          Config=WarpedCompressionConfig),
    "register_sharing": SimpleNamespace(NAME="register_sharing", Config=RegisterSharingConfig),
}
"""Mechanism key -> ``SimpleNamespace(NAME, Config)``; ``registry.MECHANISMS`` has the same keys."""
