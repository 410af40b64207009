"""Running simulations: sweeps, jobs, executors, the Parquet result store, the perf benchmark."""

from __future__ import annotations

__all__: list[str] = []
