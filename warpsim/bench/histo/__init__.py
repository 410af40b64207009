"""histo: saturating histogram with a computed value range, four kernels per iteration and
global atomics (like Parboil histo)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK"]

_BINS = 1024
_PRESCAN, _MAIN, _FINAL = 512, 768, 512


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    # Skewed values (a normal bump on a uniform floor), as image intensities in histo.bin.
    n = p["n"]
    bump = rng.normal(2.0e9, 1.0e8, n)
    floor = rng.uniform(1.0e9, 3.0e9, n)
    vals = np.where(rng.random(n) < 0.7, bump, floor)
    return {"data": np.clip(vals, 0, 2**32 - 1).astype(np.uint32)}


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    n = p["n"]
    data = ctx.to_device(d["data"])
    bins = ctx.empty(n, np.uint16)
    out = ctx.empty(_BINS, np.uint8)
    for _ in range(p["iterations"]):
        minmax = ctx.to_device(np.array([0xFFFFFFFF, 0], np.uint32))
        hist = ctx.zeros(_BINS, np.uint32)
        ctx.kernel("histo_prescan")[p["blocks"], _PRESCAN](data, np.int32(n), minmax)
        ctx.kernel("histo_intermediates")[(n + 255) // 256, 256](data, np.int32(n), minmax, bins)
        ctx.kernel("histo_main")[p["blocks"], _MAIN](bins, np.int32(n), hist)
        ctx.kernel("histo_final")[(_BINS + _FINAL - 1) // _FINAL, _FINAL](hist, out)
    return {"minmax": minmax.copy_to_host(), "hist": out.copy_to_host()}


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    v = d["data"].astype(np.uint64)
    lo, hi = int(v.min()), int(v.max())
    b = ((v - lo) * _BINS) // (hi - lo + 1)
    counts = np.bincount(b.astype(np.int64), minlength=_BINS)
    return {"minmax": np.array([lo, hi], np.uint32),
            "hist": np.minimum(counts, 255).astype(np.uint8)}


BENCHMARK = Benchmark(
    name="histo", suite="parboil", resembles="parboil/histo",
    workload="histo default (img.bin 996x1040, 20 iterations): 4 kernels x 20",
    kernels=("histo_prescan", "histo_intermediates", "histo_main", "histo_final"),
    threads_per_block={"histo_prescan": _PRESCAN, "histo_intermediates": 256,
                       "histo_main": _MAIN, "histo_final": _FINAL},
    sizes={"tiny": {"n": 8192, "blocks": 2, "iterations": 1},
           "small": {"n": 262144, "blocks": 16, "iterations": 2},
           "paper": {"n": 996 * 1040, "blocks": 42, "iterations": 20}},
    launches="per iteration: prescan, intermediates, main, final (4 launches)",
    differences="a linear bin map and a single shared histogram per block (Parboil packs 8-bit "
                "counters and splits bins across blocks); synthetic values",
    tolerance_note="exact (min, max and saturated counts)",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference)
