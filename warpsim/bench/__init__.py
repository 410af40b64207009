"""warpsim's own benchmark suite: CUDA kernels written for warpsim in the shape of Rodinia,
Parboil, the CUDA SDK and ISPASS-2009 benchmarks, with seeded inputs at named sizes, the
original launch sequences and independent numpy references.

Follows: ARCHITECTURE.md §2 (`bench/`); reference/ptx-and-benchmarks.md §3 and §5. See
docs/benchmarks.md for the table of benchmarks, registers per thread and differences.
"""

from __future__ import annotations

from typing import Any

from warpsim.bench.harness import BenchResult, Launcher, execute
from warpsim.bench.registry import BENCHMARKS, SIZES, kernel_resources
from warpsim.bench.spec import Benchmark
from warpsim.errors import ConfigError

__all__ = ["BENCHMARKS", "SIZES", "BenchResult", "Benchmark", "Launcher", "get_benchmark",
           "list_benchmarks", "run_benchmark"]


def get_benchmark(name: str) -> Benchmark:
    """The benchmark called ``name``; a ConfigError lists the valid names."""
    try:
        return BENCHMARKS[name]
    except KeyError:
        raise ConfigError("benchmark", name, "one of " + ", ".join(sorted(BENCHMARKS)),
                          hint="`warpsim bench list` shows them") from None


def list_benchmarks(*, registers: bool = True) -> list[dict[str, Any]]:
    """One row per benchmark: name, suite, resembles, kernels, registers per thread, static
    shared and local bytes (ptxas sm_80, per kernel; compiled once and cached; skipped with
    ``registers=False``), threads per block, sizes, the published workload and the launch
    sequence."""
    rows = []
    for name, b in BENCHMARKS.items():
        regs: dict[str, int] = {}
        shared: dict[str, int] = {}
        local: dict[str, int] = {}
        if registers:
            res = kernel_resources(name)
            regs = {k: res[k].registers for k in b.kernels if k in res}
            shared = {k: res[k].shared_bytes for k in b.kernels if k in res}
            local = {k: res[k].local_bytes for k in b.kernels if k in res}
        rows.append({"name": name, "suite": b.suite, "resembles": b.resembles,
                     "kernels": list(b.kernels), "registers": regs,
                     "threads_per_block": dict(b.threads_per_block), "sizes": list(b.sizes),
                     "shared_bytes": shared, "local_bytes": local, "workload": b.workload,
                     "launches": b.launches})
    return rows


def run_benchmark(name: str, size: str = "tiny", device: Any = None,
                  params: dict[str, Any] | None = None) -> BenchResult:
    """Run benchmark ``name`` at a named size on ``device`` (a new ``warpsim.Device`` when
    None): the launch sequence through the host API, then verification against the numpy
    reference. Returns timings, the launch count and the verified flag."""
    return execute(get_benchmark(name), size, device, params)
