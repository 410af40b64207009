"""nw: Needleman-Wunsch alignment scores by diagonal sweeps of 16x16 tiles (like Rodinia nw)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK"]

_BS = 16


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    n = p["n"]
    if n % _BS:
        raise ValueError(f"nw needs a multiple of {_BS}, got {n}")
    # A random symmetric 24-letter substitution matrix in the range of BLOSUM62.
    sub = rng.integers(-4, 12, (24, 24))
    sub = np.triu(sub) + np.triu(sub, 1).T
    a = rng.integers(0, 24, n + 1)
    b = rng.integers(0, 24, n + 1)
    ref = sub[a[:, None], b[None, :]].astype(np.int32)
    ref[0, :] = 0
    ref[:, 0] = 0
    return {"reference": ref, "penalty": p["penalty"]}


def _initial(n: int, penalty: int) -> np.ndarray:
    m = np.zeros((n + 1, n + 1), np.int32)
    m[0, :] = -penalty * np.arange(n + 1)
    m[:, 0] = -penalty * np.arange(n + 1)
    return m


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    n, pen = p["n"], d["penalty"]
    cols = n + 1
    blocks = n // _BS
    ref = ctx.to_device(d["reference"])
    mat = ctx.to_device(_initial(n, pen))
    args = (np.int32(cols), np.int32(pen))
    for i in range(1, blocks + 1):
        ctx.kernel("needle_shared_1")[i, _BS](ref, mat, *args, np.int32(i), np.int32(blocks))
    for i in range(blocks - 1, 0, -1):
        ctx.kernel("needle_shared_2")[i, _BS](ref, mat, *args, np.int32(i), np.int32(blocks))
    return {"score": mat.copy_to_host().reshape(cols, cols)}


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    n, pen = p["n"], d["penalty"]
    ref = d["reference"].astype(np.int64)
    m = _initial(n, pen).astype(np.int64)
    for s in range(2, 2 * n + 1):  # anti-diagonal i + j = s
        i = np.arange(max(1, s - n), min(n, s - 1) + 1)
        j = s - i
        m[i, j] = np.maximum(np.maximum(m[i - 1, j - 1] + ref[i, j], m[i, j - 1] - pen),
                             m[i - 1, j] - pen)
    return {"score": m.astype(np.int32)}


BENCHMARK = Benchmark(
    name="nw", suite="rodinia", resembles="rodinia/nw",
    workload="nw 2048 10 (2048x2048 alignment, gap penalty 10): 253 launches",
    kernels=("needle_shared_1", "needle_shared_2"),
    threads_per_block={"needle_shared_1": _BS, "needle_shared_2": _BS},
    sizes={"tiny": {"n": 64, "penalty": 10}, "small": {"n": 256, "penalty": 10},
           "paper": {"n": 2048, "penalty": 10}},
    launches="needle_shared_1 for i = 1..B, then needle_shared_2 for i = B-1..1 (2B-1)",
    differences="random symmetric substitution matrix instead of BLOSUM62",
    tolerance_note="exact (int32)",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference)
