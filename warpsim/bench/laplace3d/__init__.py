"""laplace3d: Jacobi iterations of the 3-D Laplace equation, buffers swapped (like ISPASS-2009
LPS)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK"]

_BX, _BY = 32, 4


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    u = np.zeros((p["nz"], p["ny"], p["nx"]), np.float32)
    u[0], u[-1], u[:, 0], u[:, -1], u[:, :, 0], u[:, :, -1] = 1.0, 1.0, 1.0, 1.0, 1.0, 1.0
    u[1:-1, 1:-1, 1:-1] = rng.random((p["nz"] - 2, p["ny"] - 2, p["nx"] - 2))
    return {"u": u}


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    nx, ny, nz = p["nx"], p["ny"], p["nz"]
    buf = [ctx.to_device(d["u"]), ctx.empty(d["u"].size, np.float32)]
    grid = ((nx + _BX - 1) // _BX, (ny + _BY - 1) // _BY)
    for it in range(p["iterations"]):
        ctx.kernel("gpu_laplace3d")[grid, (_BX, _BY)](np.int32(nx), np.int32(ny), np.int32(nz),
                                                      buf[it % 2], buf[1 - it % 2])
    return {"u": buf[p["iterations"] % 2].copy_to_host().reshape(nz, ny, nx)}


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    u = d["u"].astype(np.float64)
    for _ in range(p["iterations"]):
        nxt = u.copy()
        nxt[1:-1, 1:-1, 1:-1] = (u[1:-1, 1:-1, :-2] + u[1:-1, 1:-1, 2:] + u[1:-1, :-2, 1:-1]
                                 + u[1:-1, 2:, 1:-1] + u[:-2, 1:-1, 1:-1] + u[2:, 1:-1, 1:-1]
                                 ) / 6.0
        u = nxt
    return {"u": u}


BENCHMARK = Benchmark(
    name="laplace3d", suite="ispass2009", resembles="ispass2009/LPS",
    workload="LPS (100^3 grid, REPEAT 1)",
    kernels=("gpu_laplace3d",), threads_per_block={"gpu_laplace3d": _BX * _BY},
    sizes={"tiny": {"nx": 40, "ny": 12, "nz": 8, "iterations": 2},
           "small": {"nx": 64, "ny": 64, "nz": 32, "iterations": 4},
           "paper": {"nx": 100, "ny": 100, "nz": 100, "iterations": 1}},
    launches="`iterations` launches, buffers swapped",
    differences="neighbour sums straight from global memory (the original also stages in "
                "registers only); random interior",
    rtol=1e-5, atol=1e-6,
    tolerance_note="float32 six-term sums against float64",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference)
