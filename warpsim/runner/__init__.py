"""Running simulations: the benchmark command core (``perf``); sweeps and result stores later."""

from __future__ import annotations

__all__: list[str] = []
