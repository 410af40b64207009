"""Which mechanisms a ``GPUConfig`` turns on, built from each package's one declaration.

Follows: STYLE.md §2.2. Each mechanism package defines ``SPEC`` (``spec.MechanismSpec``) and is
listed once in ``PACKAGES``; its ``GPUConfig`` section has an ``enabled`` field
(``-o warped_compression.enabled=true``). :func:`mechanism_for` builds the enabled mechanisms,
several of them combined by ``compose.CompositeMechanism``, in ``PACKAGES`` order.
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

from warpsim.errors import ConfigError
from warpsim.mechanisms.base import Mechanism
from warpsim.mechanisms.spec import MechanismSpec

__all__ = ["PACKAGES", "enabled_mechanisms", "energy_mechanisms", "mechanism_for", "specs"]

PACKAGES: tuple[str, ...] = (
    "warpsim.mechanisms.warped_compression",
    "warpsim.mechanisms.register_sharing",
    "warpsim.mechanisms.warpman",
    "warpsim.mechanisms.uniform_vectors",
    "warpsim.mechanisms.wir",
    "warpsim.mechanisms.ilp",
    "warpsim.mechanisms.regless",
    "warpsim.mechanisms.coarse_fetch",
)
"""The mechanism packages, in the order their hooks combine."""


@cache
def specs() -> dict[str, MechanismSpec]:
    """Mechanism key -> its declaration, in ``PACKAGES`` order."""
    out: dict[str, MechanismSpec] = {}
    for pkg in PACKAGES:
        spec = importlib.import_module(pkg).SPEC
        out[spec.name] = spec
    return out


def enabled_mechanisms(cfg: Any) -> list[str]:
    """Keys of the mechanisms ``cfg`` enables, in registry order."""
    return [k for k in specs() if getattr(getattr(cfg, k, None), "enabled", False)]


def mechanism_for(cfg: Any) -> Mechanism | None:
    """The mechanism(s) ``cfg`` enables, built from ``cfg`` (several: one
    ``CompositeMechanism``), or None for the baseline engine.

    Raises
    ------
    ConfigError
        When two enabled mechanisms declare each other as conflicting.
    """
    keys = enabled_mechanisms(cfg)
    if not keys:
        return None
    table = specs()
    for a in keys:
        for b in keys:
            if b in table[a].conflicts:
                raise ConfigError(f"{b}.enabled", True,
                                  f"false while {a}.enabled is true ({a} declares it cannot "
                                  f"run with {b})")
    parts = [table[k].load()(cfg) for k in keys]
    if len(parts) == 1:
        return parts[0]
    from warpsim.mechanisms.compose import CompositeMechanism

    return CompositeMechanism(cfg, parts)


def energy_mechanisms(cfg: Any) -> list[tuple[Any, Any]]:
    """``(spec, config section)`` of each enabled mechanism, for the energy model's
    ``mechanisms`` argument (``NAME``/``ENERGY``/``STATIC``; one component each, zero when it
    declares no energy)."""
    return [(specs()[k], getattr(cfg, k)) for k in enabled_mechanisms(cfg)]
