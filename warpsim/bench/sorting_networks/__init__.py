"""sorting_networks: bitonic sort of key/value pairs in shared and global memory (like SDK
sortingNetworks' bitonic path)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK"]

_SHARED = 1024


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    n = p["n"]
    if n < 2 * _SHARED or n & (n - 1):
        raise ValueError(f"sorting_networks needs a power of two >= {2 * _SHARED}, got {n}")
    keys = rng.choice(np.iinfo(np.uint32).max, size=n, replace=False).astype(np.uint32)
    return {"keys": keys, "vals": np.arange(n, dtype=np.uint32)}


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    n = p["n"]
    k, v = ctx.to_device(d["keys"]), ctx.to_device(d["vals"])
    ctx.kernel("bitonic_sort_shared1")[n // _SHARED, _SHARED // 2](k, v)
    size = 2 * _SHARED
    while size <= n:
        stride = size // 2
        while stride > 0:
            if stride >= _SHARED:
                ctx.kernel("bitonic_merge_global")[n // 512, 256](
                    k, v, np.uint32(n), np.uint32(size), np.uint32(stride), np.uint32(1))
                stride //= 2
            else:
                ctx.kernel("bitonic_merge_shared")[n // _SHARED, _SHARED // 2](
                    k, v, np.uint32(n), np.uint32(size), np.uint32(1))
                break
        size *= 2
    return {"keys": k.copy_to_host(), "vals": v.copy_to_host()}


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    order = np.argsort(d["keys"], kind="stable")
    return {"keys": d["keys"][order], "vals": d["vals"][order]}


BENCHMARK = Benchmark(
    name="sorting_networks", suite="sdk", resembles="sdk42/sortingNetworks",
    workload="sortingNetworks: 1,048,576 uint key/value pairs, bitonic",
    kernels=("bitonic_sort_shared1", "bitonic_merge_global", "bitonic_merge_shared"),
    threads_per_block={"bitonic_sort_shared1": 512, "bitonic_merge_global": 256,
                       "bitonic_merge_shared": 512},
    sizes={"tiny": {"n": 2048}, "small": {"n": 16384}, "paper": {"n": 1 << 20}},
    launches="1 chunk sort, then per merge size: global passes for strides >= 1024 and one "
             "shared pass (tiny: 3 launches)",
    differences="bitonic only (no odd-even merge sort); unique keys so values are determined",
    tolerance_note="exact (permutation)",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference)
