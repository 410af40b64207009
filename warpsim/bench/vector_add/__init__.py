"""vector_add: element-wise c = a + b, one thread per element (like SDK 4.2 vectorAdd)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK"]

_TPB = 256


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    n = p["n"]
    return {"a": rng.random(n, dtype=np.float32), "b": rng.random(n, dtype=np.float32)}


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    n = p["n"]
    a, b = ctx.to_device(d["a"]), ctx.to_device(d["b"])
    c = ctx.empty(n, np.float32)
    ctx.kernel("vector_add")[(n + _TPB - 1) // _TPB, _TPB](a, b, c, np.int32(n))
    return {"c": c.copy_to_host()}


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    return {"c": d["a"] + d["b"]}


BENCHMARK = Benchmark(
    name="vector_add", suite="sdk", resembles="sdk42/vectorAdd",
    workload="vectorAdd, 50,000 floats", kernels=("vector_add",),
    threads_per_block={"vector_add": _TPB},
    sizes={"tiny": {"n": 2000}, "small": {"n": 50_000}, "paper": {"n": 50_000}},
    launches="1 launch", differences="none of substance",
    tolerance_note="exact: one IEEE float32 add per element",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference)
