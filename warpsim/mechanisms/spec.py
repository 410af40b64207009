"""The one declaration of a mechanism: what the registry, the sweep validator, the energy model
and the conformance test know about it.

Follows: STYLE.md §2.2 (a name registry; mechanisms as plugins); docs/dev-contracts.md "How to
add a mechanism". A mechanism package defines ``SPEC = MechanismSpec(...)`` in its
``__init__.py`` and is listed once in ``registry.PACKAGES``.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

__all__ = ["MechanismSpec"]


@dataclass(frozen=True)
class MechanismSpec:
    """Everything warpsim needs to know about one mechanism."""

    name: str
    """Registry key, ``GPUConfig`` section name (``-o NAME.enabled=true``) and prefix of its
    sweep parameters."""
    paper: str
    """The paper and sections followed."""
    config: type
    """The ``GPUConfig`` section class (a ``ConfigBase`` dataclass with ``enabled``)."""
    implementation: str
    """``module:Class`` of its ``Mechanism`` subclass, imported only when a run enables it."""
    hooks: tuple[str, ...]
    """The hook points it implements (``hooks.HOOK_NAMES``); the conformance test checks the
    class implements exactly these."""
    stat_prefix: str
    """Every statistic ``finish_launch`` returns starts with it (``wc_``, ``rs_``)."""
    energy: tuple[tuple[str, str], ...] = ()
    """``(statistic, config field of pJ per event)``: dynamic energy of its own units."""
    static: tuple[tuple[str, str | None], ...] = ()
    """``(config field of mW per unit, config field of units per SM or None)``: leakage."""
    conflicts: tuple[str, ...] = ()
    """Mechanisms it cannot run with (the registry refuses the combination)."""

    def load(self) -> type:
        """The ``Mechanism`` subclass."""
        module, cls = self.implementation.split(":")
        return getattr(importlib.import_module(module), cls)

    @property
    def Config(self) -> type:  # noqa: N802 - the sweep validator's historical spelling
        """Alias of :attr:`config`."""
        return self.config

    @property
    def NAME(self) -> str:  # noqa: N802 - the energy model's module-level spelling
        """Alias of :attr:`name`."""
        return self.name

    @property
    def ENERGY(self) -> tuple[tuple[str, str], ...]:  # noqa: N802
        """Alias of :attr:`energy` (``power.model.mechanism_energy`` reads it)."""
        return self.energy

    @property
    def STATIC(self) -> tuple[tuple[str, str | None], ...]:  # noqa: N802
        """Alias of :attr:`static`."""
        return self.static

    def section(self, cfg: Any) -> Any:
        """This mechanism's section of ``cfg``."""
        return getattr(cfg, self.name)
