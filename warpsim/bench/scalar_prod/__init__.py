"""scalar_prod: a batch of dot products with shared partial sums (like SDK 4.2 scalarProd)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK"]

_TPB = 256


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    shape = (p["vectors"], p["elements"])
    return {"a": rng.random(shape, dtype=np.float32), "b": rng.random(shape, dtype=np.float32)}


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    vn, en = p["vectors"], p["elements"]
    c = ctx.empty(vn, np.float32)
    ctx.kernel("scalar_prod")[min(p["blocks"], vn), _TPB](
        c, ctx.to_device(d["a"]), ctx.to_device(d["b"]), np.int32(vn), np.int32(en))
    return {"c": c.copy_to_host()}


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    return {"c": (d["a"].astype(np.float64) * d["b"].astype(np.float64)).sum(axis=1)}


BENCHMARK = Benchmark(
    name="scalar_prod", suite="sdk", resembles="sdk42/scalarProd",
    workload="scalarProd: 256 vectors x 4096 floats, 128 blocks x 256 threads",
    kernels=("scalar_prod",), threads_per_block={"scalar_prod": _TPB},
    sizes={"tiny": {"vectors": 8, "elements": 2048, "blocks": 4},
           "small": {"vectors": 64, "elements": 4096, "blocks": 32},
           "paper": {"vectors": 256, "elements": 4096, "blocks": 128}},
    launches="1 launch",
    differences="none of substance",
    rtol=1e-5, atol=1e-5,
    tolerance_note="float32 strided partial sums and a tree against float64",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference)
