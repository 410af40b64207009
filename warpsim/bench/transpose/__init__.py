"""transpose: matrix transpose, naive and through a padded shared tile (like SDK transpose)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK"]

_T = 16


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    return {"a": rng.random((p["height"], p["width"]), dtype=np.float32)}


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    w, h = p["width"], p["height"]
    a = ctx.to_device(d["a"])
    outs = {}
    for name in ("transpose_naive", "transpose_no_bank_conflicts"):
        o = ctx.empty(w * h, np.float32)
        for _ in range(p["repeats"]):
            ctx.kernel(name)[(w // _T, h // _T), (_T, _T)](o, a, np.int32(w), np.int32(h))
        outs[name] = o.copy_to_host().reshape(w, h)
    return outs


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    t = np.ascontiguousarray(d["a"].T)
    return {"transpose_naive": t, "transpose_no_bank_conflicts": t}


BENCHMARK = Benchmark(
    name="transpose", suite="sdk", resembles="sdk42/transpose",
    workload="transpose 1024x1024 floats, NUM_REPS=1 per kernel variant",
    kernels=("transpose_naive", "transpose_no_bank_conflicts"),
    threads_per_block={"transpose_naive": 256, "transpose_no_bank_conflicts": 256},
    sizes={"tiny": {"width": 64, "height": 32, "repeats": 1},
           "small": {"width": 256, "height": 256, "repeats": 1},
           "paper": {"width": 1024, "height": 1024, "repeats": 1}},
    launches="each variant `repeats` times (2 of the sample's 8 variants)",
    differences="2 of the 8 variants (naive, padded shared tile); dims multiples of 16",
    tolerance_note="exact (data movement only)",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference)
