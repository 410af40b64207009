"""The description of one benchmark: what it resembles, its kernels, sizes and tolerances.

Follows: ARCHITECTURE.md §2 (`bench/`), reference/ptx-and-benchmarks.md §3 and §5 (the published
benchmarks these resemble: registers per thread, threads per block, launch structure).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["SIZES", "Benchmark", "Params"]

SIZES = ("tiny", "small", "paper")
"""Named input sizes: `tiny` (functional run < 1 s, the test suite), `small` (quick
experiments), `paper` (close to the published input scale)."""

Params = Mapping[str, Any]
"""The parameters of one named size (`n`, `rows`, `iterations`, ...)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Benchmark:
    """One benchmark of warpsim's own suite.

    A host module defines ``BENCHMARK = Benchmark(...)`` beside three pure functions:
    ``generate(p, rng) -> inputs``, ``launch(ctx, inputs, p) -> outputs`` (the launch sequence,
    through :class:`warpsim.bench.harness.Launcher`) and ``reference(inputs, p) -> outputs`` (an
    independent numpy model). Integer outputs must match bit for bit; floating-point outputs
    within ``rtol``/``atol`` (documented per benchmark), unless the module gives its own
    ``verify``.
    """

    name: str
    """Registry key (snake_case, the folder name)."""
    suite: str
    """Suite of the published benchmark it resembles: rodinia, parboil, sdk, ispass2009, or
    other (a workload a paper names without its source)."""
    resembles: str
    """The published benchmark, e.g. ``rodinia/bfs``."""
    workload: str
    """The published workload (input and command line) it stands in for."""
    kernels: tuple[str, ...]
    """Kernel names (``extern "C"``, so unmangled) in launch order."""
    threads_per_block: Mapping[str, int]
    """Threads per block of each kernel at the default configuration."""
    sizes: Mapping[str, Params]
    """Parameters of each named size in :data:`SIZES`."""
    launches: str
    """The launch sequence in words (multi-launch structure of the original)."""
    differences: str = ""
    """What knowingly differs from the original."""
    rtol: float = 0.0
    """Relative tolerance for floating-point outputs (0 = exact)."""
    atol: float = 0.0
    """Absolute tolerance for floating-point outputs (0 = exact)."""
    tolerance_note: str = ""
    """Why the tolerance is what it is."""
    source: Path = field(default_factory=Path)
    """The benchmark's ``kernels.cu``."""
    generate: Callable[[Params, np.random.Generator], dict[str, Any]] | None = None
    launch: Callable[..., dict[str, np.ndarray]] | None = None
    reference: Callable[[dict[str, Any], Params], dict[str, np.ndarray]] | None = None
    verify: Callable[[dict[str, np.ndarray], dict[str, np.ndarray], Params], list[str]] | None = (
        None)
    """Optional custom check returning mismatch messages (empty = verified)."""
