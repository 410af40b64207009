"""reduction: multi-pass integer sum (like SDK 4.2 reduction, kernel 6 = the sample's default)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK"]

_TPB = 256
_MAX_BLOCKS = 64


def _blocks(n: int) -> int:
    return max(1, min(_MAX_BLOCKS, (n + 2 * _TPB - 1) // (2 * _TPB)))


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    # As the sample: random ints in [0, 255].
    return {"x": rng.integers(0, 256, p["n"], dtype=np.int32)}


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    k = ctx.kernel("reduce6")
    src = ctx.to_device(d["x"])
    n = p["n"]
    while True:
        blocks = _blocks(n)
        out = ctx.empty(blocks, np.int32)
        k[blocks, _TPB](src, out, np.uint32(n))
        if blocks == 1:
            break
        src, n = out, blocks
    return {"sum": out.copy_to_host()[:1]}


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    return {"sum": np.array([int(d["x"].astype(np.int64).sum()) & 0xFFFFFFFF], np.uint32)
            .view(np.int32)}


BENCHMARK = Benchmark(
    name="reduction", suite="sdk", resembles="sdk42/reduction",
    workload="reduction --kernel=6, 2^24 ints, 256 threads, at most 64 blocks",
    kernels=("reduce6",), threads_per_block={"reduce6": _TPB},
    sizes={"tiny": {"n": 1 << 13}, "small": {"n": 1 << 18}, "paper": {"n": 1 << 24}},
    launches="passes until one block remains (2 for every size here)",
    differences="the block size is a macro, not a template parameter; int only",
    tolerance_note="exact (int32 wrap-around sum)",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference)
