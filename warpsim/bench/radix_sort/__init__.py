"""radix_sort: LSD radix sort of unsigned keys, 4 bits per pass, in the structure of the CUDA
SDK's radixSort (the WarpMan chapter's RS: 512-thread blocks, shared memory, ``__syncthreads``).

Follows: specs/xiang-simt-efficiency.md §2.4 Table 5 (RS: 16 warps, 4 kB shared memory and
11776 registers per block, 2 blocks per SM) and §2.5 (RS's DRAM row locality, B-R9)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK", "CTA", "TILE"]

CTA = 512
"""Threads per block of every kernel (16 warps)."""
TILE = 2 * CTA
"""Keys per tile: one block of ``radix_sort_blocks``, ``find_radix_offsets``, ``reorder_data``."""
_RADIX = 16


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    n, bits = p["n"], p["bits"]
    if n % TILE or not 0 < bits <= 32 or bits % 4:
        raise ValueError(f"radix_sort needs n a multiple of {TILE} and bits in 4..32 by 4, "
                         f"got n={n}, bits={bits}")
    return {"keys": rng.integers(0, 1 << bits, size=n, dtype=np.uint64).astype(np.uint32)}


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    n, bits = p["n"], p["bits"]
    n_blocks = n // TILE
    keys = ctx.to_device(d["keys"])
    tmp = ctx.to_device(np.zeros(n, np.uint32))
    counters = ctx.to_device(np.zeros(_RADIX * n_blocks, np.uint32))
    offsets = ctx.to_device(np.zeros(_RADIX * n_blocks, np.uint32))
    for shift in range(0, bits, 4):
        s = np.int32(shift)
        ctx.kernel("radix_sort_blocks")[n_blocks, CTA](keys, tmp, s)
        ctx.kernel("find_radix_offsets")[n_blocks, CTA](tmp, counters, offsets, s,
                                                         np.int32(n_blocks))
        ctx.kernel("scan_counts")[1, CTA](counters, np.int32(_RADIX * n_blocks))
        ctx.kernel("reorder_data")[n_blocks, CTA](tmp, keys, counters, offsets, s,
                                                   np.int32(n_blocks))
    return {"keys": keys.copy_to_host()}


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    return {"keys": np.sort(d["keys"])}


BENCHMARK = Benchmark(
    name="radix_sort", suite="sdk", resembles="sdk42/radixSort",
    workload="radixSort: 32-bit keys, 4 bits per pass (the WarpMan chapter's RS)",
    kernels=("radix_sort_blocks", "find_radix_offsets", "scan_counts", "reorder_data"),
    threads_per_block={"radix_sort_blocks": CTA, "find_radix_offsets": CTA,
                       "scan_counts": CTA, "reorder_data": CTA},
    sizes={"tiny": {"n": 2048, "bits": 8}, "small": {"n": 65536, "bits": 16},
           "paper": {"n": 1 << 20, "bits": 32}},
    launches="per 4-bit digit: tile sort, offsets, one-block scan of the counts, scatter "
             "(bits / 4 x 4 launches)",
    differences="keys only (no values); shuffle-based block scans (sm_30+) where the SDK scans "
                "in shared memory; the counts are scanned by one block of our own instead of "
                "CUDPP; keys drawn below 2^bits (small: 16-bit keys, 4 passes)",
    tolerance_note="exact (np.sort)",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference)
