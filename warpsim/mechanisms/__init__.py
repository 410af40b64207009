"""Switchable mechanisms of the timing engine (STYLE.md §2.2): hook points (``hooks.py``), the
per-launch life cycle (``base.py``), the one declaration per mechanism (``spec.py``), the
registry of what a config turns on (``registry.py``) and the combination of several
(``compose.py``). ``REGISTRY`` maps each mechanism key to its ``MechanismSpec`` (whose
``config`` is its ``GPUConfig`` section class, what sweeps validate mechanism parameters
against)."""

from __future__ import annotations

from typing import Any

__all__ = ["REGISTRY"]


def __getattr__(name: str) -> Any:
    if name == "REGISTRY":  # built lazily: the packages import this package's modules
        from warpsim.mechanisms.registry import specs

        return specs()
    raise AttributeError(name)
