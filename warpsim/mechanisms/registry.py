"""Which mechanism a ``GPUConfig`` turns on, and where its implementation lives.

Follows: STYLE.md §2.2. Each mechanism has a ``GPUConfig`` section with an ``enabled`` field
(``-o warped_compression.enabled=true``); :func:`mechanism_for` imports the implementation
lazily and builds it from the config. One mechanism per run for now.
"""

from __future__ import annotations

import importlib
from typing import Any

from warpsim.errors import ConfigError
from warpsim.mechanisms.base import Mechanism

__all__ = ["MECHANISMS", "enabled_mechanisms", "energy_mechanisms", "mechanism_for"]

MECHANISMS: dict[str, str] = {
    "warped_compression": "warpsim.mechanisms.warped_compression:WarpedCompression",
    "register_sharing": "warpsim.mechanisms.register_sharing:RegisterSharing",
}
"""Config section (= mechanism key) -> ``module:class`` of its implementation."""


def enabled_mechanisms(cfg: Any) -> list[str]:
    """Keys of the mechanisms ``cfg`` enables, in registry order."""
    return [k for k in MECHANISMS if getattr(getattr(cfg, k, None), "enabled", False)]


def mechanism_for(cfg: Any) -> Mechanism | None:
    """The mechanism ``cfg`` enables, built from ``cfg``, or None for the baseline engine.

    Raises
    ------
    ConfigError
        When several mechanisms are enabled at once.
    """
    keys = enabled_mechanisms(cfg)
    if not keys:
        return None
    if len(keys) > 1:
        raise ConfigError(f"{keys[1]}.enabled", True,
                          f"false while {keys[0]}.enabled is true (one mechanism per run)")
    module, cls = MECHANISMS[keys[0]].split(":")
    return getattr(importlib.import_module(module), cls)(cfg)


def energy_mechanisms(cfg: Any) -> list[tuple[Any, Any]]:
    """``(module, config section)`` of each enabled mechanism, for the energy model's
    ``mechanisms`` argument (the module's ``NAME``/``ENERGY``/``STATIC``)."""
    out = []
    for key in enabled_mechanisms(cfg):
        module = importlib.import_module(MECHANISMS[key].split(":")[0])
        if hasattr(module, "ENERGY"):
            out.append((module, getattr(cfg, key)))
    return out
