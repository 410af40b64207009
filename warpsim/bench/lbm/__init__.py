"""lbm: D3Q19 lattice-Boltzmann stream-collide steps, buffers swapped (like Parboil lbm)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK"]

_DIRS = np.array([(0, 0, 0), (1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1),
                  (1, 1, 0), (-1, -1, 0), (1, -1, 0), (-1, 1, 0), (1, 0, 1), (-1, 0, -1),
                  (1, 0, -1), (-1, 0, 1), (0, 1, 1), (0, -1, -1), (0, 1, -1), (0, -1, 1)])
_W = np.array([1 / 3] + [1 / 18] * 6 + [1 / 36] * 12)
_OPP = np.array([0] + [q + 1 if q % 2 else q - 1 for q in range(1, 19)])
_OMEGA = 1.95
_OBSTACLE, _ACCEL = 1, 2


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    nx, ny, nz = p["nx"], p["ny"], p["nz"]
    flags = np.where(rng.random((nz, ny, nx)) < 0.03, _OBSTACLE, 0).astype(np.uint8)
    flags[0] = _ACCEL
    rho = 1.0 + 0.01 * rng.standard_normal((nz, ny, nx))
    f = (_W[:, None, None, None] * rho[None]).astype(np.float32)
    return {"f": f, "flags": flags}


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    nx, ny, nz = p["nx"], p["ny"], p["nz"]
    buf = [ctx.to_device(d["f"]), ctx.empty(d["f"].size, np.float32)]
    flags = ctx.to_device(d["flags"])
    k = ctx.kernel("perform_stream_collide")
    for t in range(p["steps"]):
        k[(ny, nz), nx](buf[t % 2], buf[1 - t % 2], flags, np.int32(nx), np.int32(ny),
                        np.int32(nz), np.float32(_OMEGA))
    return {"f": buf[p["steps"] % 2].copy_to_host().reshape(d["f"].shape)}


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    f = d["f"].astype(np.float64)
    flags = d["flags"]
    omega = float(np.float32(_OMEGA))
    w = _W.astype(np.float32).astype(np.float64)
    for _ in range(p["steps"]):
        rho = f.sum(axis=0)
        u = np.tensordot(_DIRS.T.astype(np.float64), f, axes=(1, 0)) / rho
        u[0][flags == _ACCEL] = float(np.float32(0.005))
        u[1][flags == _ACCEL] = float(np.float32(0.002))
        u[2][flags == _ACCEL] = 0.0
        u2 = 1.5 * (u * u).sum(axis=0)
        cu = np.tensordot(_DIRS.astype(np.float64), u, axes=(1, 0))
        feq = w[:, None, None, None] * rho * (1.0 + 3.0 * cu + 4.5 * cu * cu - u2)
        g = (1.0 - omega) * f + omega * feq
        g = np.where(flags[None] == _OBSTACLE, f[_OPP], g)
        f = np.stack([np.roll(g[q], tuple(_DIRS[q][::-1]), axis=(0, 1, 2)) for q in range(19)])
    return {"f": f}


BENCHMARK = Benchmark(
    name="lbm", suite="parboil", resembles="parboil/lbm",
    workload="lbm short (120x120x150 lattice, 100 time steps)",
    kernels=("perform_stream_collide",), threads_per_block={"perform_stream_collide": 120},
    sizes={"tiny": {"nx": 32, "ny": 8, "nz": 8, "steps": 2},
           "small": {"nx": 64, "ny": 32, "nz": 32, "steps": 4},
           "paper": {"nx": 120, "ny": 120, "nz": 150, "steps": 100}},
    launches="one launch per time step, buffers swapped",
    differences="periodic wrap instead of Parboil's margin layers; random obstacles; "
                "threads per block = nx (120 at `paper`)",
    rtol=1e-5, atol=1e-6,
    tolerance_note="float32 BGK collision against float64",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference)
