"""matrix_mul: C = A * B with 16x16 shared-memory tiles (like SDK 4.2 matrixMul<16>)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK"]

_T = 16


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    h_a, w_a, w_b = p["h_a"], p["w_a"], p["w_b"]
    return {"a": rng.random((h_a, w_a), dtype=np.float32),
            "b": rng.random((w_a, w_b), dtype=np.float32)}


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    h_a, w_a, w_b = p["h_a"], p["w_a"], p["w_b"]
    a, b = ctx.to_device(d["a"]), ctx.to_device(d["b"])
    c = ctx.empty(h_a * w_b, np.float32)
    k = ctx.kernel("matrix_mul")
    for _ in range(p["repeats"]):
        k[(w_b // _T, h_a // _T), (_T, _T)](c, a, b, np.int32(w_a), np.int32(w_b))
    return {"c": c.copy_to_host().reshape(h_a, w_b)}


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    return {"c": d["a"].astype(np.float64) @ d["b"].astype(np.float64)}


BENCHMARK = Benchmark(
    name="matrix_mul", suite="sdk", resembles="sdk42/matrixMul",
    workload="matrixMul: A 320x320, B 320x640 (dims of the sample), timed iterations",
    kernels=("matrix_mul",), threads_per_block={"matrix_mul": _T * _T},
    sizes={"tiny": {"h_a": 32, "w_a": 32, "w_b": 32, "repeats": 1},
           "small": {"h_a": 128, "w_a": 128, "w_b": 256, "repeats": 1},
           "paper": {"h_a": 320, "w_a": 320, "w_b": 640, "repeats": 2}},
    launches="`repeats` identical launches (the sample times 30 plus a warm-up)",
    differences="16x16 tiles only (the sm_2x+ sample uses 32x32); fewer timed repeats",
    rtol=1e-4, atol=1e-5,
    tolerance_note="float32 accumulation (fma) against a float64 product; K <= 320 terms in [0,1)",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference)
