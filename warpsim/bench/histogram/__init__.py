"""histogram: 256-bin byte histogram with per-warp shared sub-histograms (like SDK histogram256)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK"]

_BINS = 256
_TPB = 192
_MERGE_TPB = 256


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    return {"bytes": rng.integers(0, 256, p["n_bytes"], dtype=np.uint8)}


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    words = d["bytes"].view(np.uint32)
    blocks = p["partials"]
    data = ctx.to_device(words)
    partial = ctx.empty(blocks * _BINS, np.uint32)
    hist = ctx.empty(_BINS, np.uint32)
    ctx.kernel("histogram256")[blocks, _TPB](partial, data, np.int32(words.size))
    ctx.kernel("merge_histogram256")[_BINS, _MERGE_TPB](hist, partial, np.int32(blocks))
    return {"hist": hist.copy_to_host()}


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    return {"hist": np.bincount(d["bytes"], minlength=_BINS).astype(np.uint32)}


BENCHMARK = Benchmark(
    name="histogram", suite="sdk", resembles="sdk42/histogram",
    workload="histogram256: 64 MB of random bytes, 240 partial histograms",
    kernels=("histogram256", "merge_histogram256"),
    threads_per_block={"histogram256": _TPB, "merge_histogram256": _MERGE_TPB},
    sizes={"tiny": {"n_bytes": 8192, "partials": 4},
           "small": {"n_bytes": 1 << 20, "partials": 60},
           "paper": {"n_bytes": 1 << 24, "partials": 240}},
    launches="histogram256 then merge_histogram256 (2 launches)",
    differences="shared atomicAdd instead of the sample's tag-and-retry sub-histogram update; "
                "64 MB input reduced to 16 MB at `paper`",
    tolerance_note="exact (counts)",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference)
