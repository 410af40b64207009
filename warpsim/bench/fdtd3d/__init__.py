"""fdtd3d: radius-4 3-D finite-difference time steps with register queues and a shared plane
(like the CUDA SDK FDTD3d sample)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK"]

_R = 4
_BX, _BY = 32, 16


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    shape = (p["nz"] + 2 * _R, p["ny"] + 2 * _R, p["nx"] + 2 * _R)
    coeff = rng.uniform(0.0, 1.0, _R + 1)
    coeff[1:] /= 6.0 * coeff[1:].sum()  # keep the iteration bounded
    return {"volume": rng.uniform(-1.0, 1.0, shape).astype(np.float32),
            "stencil": coeff.astype(np.float32)}


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    nx, ny, nz = p["nx"], p["ny"], p["nz"]
    if nx % _BX or ny % _BY:
        raise ValueError(f"nx must be a multiple of {_BX}, ny of {_BY}")
    ctx.set_symbol("c_stencil", d["stencil"])
    buf = [ctx.to_device(d["volume"]), ctx.to_device(d["volume"])]  # padding kept in both
    for t in range(p["steps"]):
        ctx.kernel("finite_differences")[(nx // _BX, ny // _BY), (_BX, _BY)](
            buf[1 - t % 2], buf[t % 2], np.int32(nx), np.int32(ny), np.int32(nz))
    return {"volume": buf[p["steps"] % 2].copy_to_host().reshape(d["volume"].shape)}


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    v = d["volume"].astype(np.float64)
    c = d["stencil"].astype(np.float64)
    r = _R
    for _ in range(p["steps"]):
        inner = (slice(r, -r),) * 3
        nxt = v.copy()
        acc = c[0] * v[inner]
        for i in range(1, r + 1):
            acc = acc + c[i] * (v[r + i:v.shape[0] - r + i, r:-r, r:-r]
                                + v[r - i:v.shape[0] - r - i, r:-r, r:-r]
                                + v[r:-r, r + i:v.shape[1] - r + i, r:-r]
                                + v[r:-r, r - i:v.shape[1] - r - i, r:-r]
                                + v[r:-r, r:-r, r + i:v.shape[2] - r + i]
                                + v[r:-r, r:-r, r - i:v.shape[2] - r - i])
        nxt[inner] = acc
        v = nxt
    return {"volume": v}


BENCHMARK = Benchmark(
    name="fdtd3d", suite="sdk", resembles="sdk/FDTD3d",
    workload="FDTD3d default (376^3 volume, radius 4, 5 time steps)",
    kernels=("finite_differences",), threads_per_block={"finite_differences": _BX * _BY},
    sizes={"tiny": {"nx": 32, "ny": 16, "nz": 4, "steps": 2},
           "small": {"nx": 64, "ny": 32, "nz": 16, "steps": 3},
           "paper": {"nx": 256, "ny": 256, "nz": 256, "steps": 5}},
    launches="one launch per time step, buffers swapped",
    differences="dimensions multiples of the block (no partial blocks); 256^3 at `paper`",
    rtol=1e-5, atol=1e-5,
    tolerance_note="float32 25-point sums against float64",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference)
