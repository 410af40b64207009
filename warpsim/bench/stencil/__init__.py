"""stencil: 3-D 7-point Jacobi iterations, dynamic shared memory, buffers swapped per
iteration (like Parboil stencil)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK", "C0", "C1", "reference"]

_BX, _BY = 32, 4
C0, C1 = 1.0 / 6.0, 1.0 / 6.0 / 6.0
"""The Jacobi update's weights: new = C1 * (sum of the 6 neighbours) - C0 * centre."""


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    return {"a": rng.random((p["nz"], p["ny"], p["nx"]), dtype=np.float32)}


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    nx, ny, nz = p["nx"], p["ny"], p["nz"]
    if nx % (2 * _BX) or ny % _BY:
        raise ValueError(f"nx must be a multiple of {2 * _BX}, ny of {_BY}")
    buf = [ctx.to_device(d["a"]), ctx.to_device(d["a"])]
    shared = 4 * (2 * _BX + 2) * (_BY + 2)
    k = ctx.kernel("block2d_hybrid_coarsen_x")
    for it in range(p["iterations"]):
        src, dst = buf[it % 2], buf[1 - it % 2]
        k[(nx // (2 * _BX), ny // _BY), (_BX, _BY), 0, shared](
            np.float32(C0), np.float32(C1), src, dst, np.int32(nx), np.int32(ny),
            np.int32(nz))
    return {"a": buf[p["iterations"] % 2].copy_to_host().reshape(nz, ny, nx)}


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    a = d["a"].astype(np.float64)
    c0, c1 = float(np.float32(C0)), float(np.float32(C1))
    for _ in range(p["iterations"]):
        nxt = a.copy()
        nxt[1:-1, 1:-1, 1:-1] = (a[2:, 1:-1, 1:-1] + a[:-2, 1:-1, 1:-1] + a[1:-1, 2:, 1:-1]
                                 + a[1:-1, :-2, 1:-1] + a[1:-1, 1:-1, 2:] + a[1:-1, 1:-1, :-2]
                                 ) * c1 - a[1:-1, 1:-1, 1:-1] * c0
        a = nxt
    return {"a": a}


BENCHMARK = Benchmark(
    name="stencil", suite="parboil", resembles="parboil/stencil",
    workload="stencil default (128x128x32 grid, 100 iterations)",
    kernels=("block2d_hybrid_coarsen_x",), threads_per_block={"block2d_hybrid_coarsen_x": 128},
    sizes={"tiny": {"nx": 64, "ny": 8, "nz": 6, "iterations": 2},
           "small": {"nx": 64, "ny": 64, "nz": 16, "iterations": 10},
           "paper": {"nx": 128, "ny": 128, "nz": 32, "iterations": 100}},
    launches="`iterations` launches, buffers swapped",
    differences="none of substance",
    rtol=1e-5, atol=1e-6,
    tolerance_note="float32 sums of 6 neighbours against float64",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference)
