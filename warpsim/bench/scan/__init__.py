"""scan: work-efficient exclusive prefix sum in shared memory (like SDK 4.2 scan)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK"]

_TPB = 256
_ELEMS = 2 * _TPB


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    # As the sample: random uints in [0, 1023].
    return {"x": rng.integers(0, 1024, p["n"], dtype=np.uint32)}


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    n = p["n"]
    blocks = (n + _ELEMS - 1) // _ELEMS
    if blocks > _ELEMS:
        raise ValueError(f"scan supports at most {_ELEMS * _ELEMS} elements, got {n}")
    scan, add = ctx.kernel("scan_block"), ctx.kernel("uniform_add")
    src = ctx.to_device(d["x"])
    dst = ctx.empty(n, np.uint32)
    sums = ctx.empty(blocks, np.uint32)
    scan[blocks, _TPB](dst, src, sums, np.int32(n))
    if blocks > 1:
        sums_scanned = ctx.empty(blocks, np.uint32)
        scan[1, _TPB](sums_scanned, sums, ctx.empty(1, np.uint32), np.int32(blocks))
        add[blocks, _TPB](dst, sums_scanned, np.int32(n))
    return {"y": dst.copy_to_host()}


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    x = d["x"]
    y = np.zeros_like(x)
    y[1:] = np.cumsum(x[:-1], dtype=np.uint32)
    return {"y": y}


BENCHMARK = Benchmark(
    name="scan", suite="sdk", resembles="sdk42/scan",
    workload="scan: arrays up to 262,144 uints, exclusive prefix sum",
    kernels=("scan_block", "uniform_add"),
    threads_per_block={"scan_block": _TPB, "uniform_add": _TPB},
    sizes={"tiny": {"n": 2000}, "small": {"n": 32768}, "paper": {"n": 262144}},
    launches="block scans, one scan of the block totals, one uniform add (3 launches)",
    differences="Blelloch tree (the sample scans warps with shuffles-free shared code); "
                "at most 512x512 elements",
    tolerance_note="exact (uint32)",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference)
