"""sgemm: register-blocked C = alpha A B^T + beta C (like Parboil sgemm's mysgemmNT)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK"]

_TILE_N, _TB_H = 16, 8
_TILE_M = _TILE_N * _TB_H
_ALPHA, _BETA = 1.0, 0.5


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    m, n, k = p["m"], p["n"], p["k"]
    # Column-major storage: A is m x k, B is n x k, C is m x n.
    return {"a": rng.random((k, m), dtype=np.float32), "b": rng.random((k, n), dtype=np.float32),
            "c": rng.random((n, m), dtype=np.float32)}


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    m, n, k = p["m"], p["n"], p["k"]
    a, b, c = ctx.to_device(d["a"]), ctx.to_device(d["b"]), ctx.to_device(d["c"])
    ctx.kernel("sgemm_nt")[(m // _TILE_M, n // _TILE_N), (_TILE_N, _TB_H)](
        a, np.int32(m), b, np.int32(n), c, np.int32(m), np.int32(k), np.float32(_ALPHA),
        np.float32(_BETA))
    return {"c": c.copy_to_host().reshape(n, m)}


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    a = d["a"].astype(np.float64).T  # m x k
    b = d["b"].astype(np.float64).T  # n x k
    c = _ALPHA * (a @ b.T) + _BETA * d["c"].astype(np.float64).T
    return {"c": c.T}


BENCHMARK = Benchmark(
    name="sgemm", suite="parboil", resembles="parboil/sgemm",
    workload="sgemm medium: A 1024x992, B 1056x992 (NT), one launch",
    kernels=("sgemm_nt",), threads_per_block={"sgemm_nt": _TILE_N * _TB_H},
    sizes={"tiny": {"m": 128, "n": 32, "k": 16},
           "small": {"m": 256, "n": 256, "k": 128},
           "paper": {"m": 1024, "n": 1056, "k": 992}},
    launches="1 launch, grid (m/128, n/16) of 16x8 threads",
    differences="dimensions must be multiples of the tile (no edge handling, as in Parboil)",
    rtol=1e-4, atol=1e-5,
    tolerance_note="float32 fma accumulation of k terms in [0,1) against float64",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference)
