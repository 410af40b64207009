"""hybridsort: bucket sort with global atomics, a prefix scan and per-bucket shared-memory
sorts (like Rodinia hybridsort: bucketsort then sorting within buckets)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK"]

_TPB = 256
_SORT = 1024


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    return {"keys": rng.random(p["n"], dtype=np.float32)}


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    n, nb = p["n"], p["buckets"]
    keys = ctx.to_device(d["keys"])
    counts = ctx.zeros(nb, np.uint32)
    offsets, starts = ctx.empty(n, np.uint32), ctx.empty(nb, np.uint32)
    out = ctx.empty(n, np.float32)
    grid = (n + _TPB - 1) // _TPB
    ctx.kernel("bucket_count")[grid, _TPB](keys, np.int32(n), np.int32(nb), counts, offsets)
    if int(counts.copy_to_host().max()) > _SORT:
        raise ValueError(f"a bucket holds more than {_SORT} keys: use more buckets")
    ctx.kernel("bucket_prefix")[1, 1024](counts, starts, np.int32(nb))
    ctx.kernel("bucket_scatter")[grid, _TPB](keys, np.int32(n), np.int32(nb), starts, offsets,
                                            out)
    ctx.kernel("bucket_sort")[nb, _SORT // 2](out, starts, counts)
    return {"sorted": out.copy_to_host()}


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    return {"sorted": np.sort(d["keys"])}


BENCHMARK = Benchmark(
    name="hybridsort", suite="rodinia", resembles="rodinia/hybridsort",
    workload="hybridsort r (random floats, 500,000 keys by default; 4M in the large run)",
    kernels=("bucket_count", "bucket_prefix", "bucket_scatter", "bucket_sort"),
    threads_per_block={"bucket_count": _TPB, "bucket_prefix": 1024, "bucket_scatter": _TPB,
                       "bucket_sort": _SORT // 2},
    sizes={"tiny": {"n": 4096, "buckets": 16}, "small": {"n": 65536, "buckets": 128},
           "paper": {"n": 524288, "buckets": 1024}},
    launches="bucket_count, bucket_prefix, bucket_scatter, bucket_sort (4 launches; the "
             "bucket sizes are checked on the host)",
    differences="uniform bucket boundaries (Rodinia picks pivots from a histogram) and a "
                "bitonic sort per bucket instead of its float4 merge sort",
    tolerance_note="exact (a permutation of the keys)",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference)
