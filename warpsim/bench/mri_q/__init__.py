"""mri_q: non-Cartesian MRI Q computation, k-space chunks in constant memory (like Parboil
mri-q)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher, compare
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK"]

_PHI_TPB, _Q_TPB = 512, 256
_CHUNK = 1024


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    nx, nk = p["num_x"], p["num_k"]
    f32 = np.float32
    return {"kx": rng.uniform(-0.5, 0.5, nk).astype(f32),
            "ky": rng.uniform(-0.5, 0.5, nk).astype(f32),
            "kz": rng.uniform(-0.5, 0.5, nk).astype(f32),
            "phi_r": rng.uniform(-1, 1, nk).astype(f32),
            "phi_i": rng.uniform(-1, 1, nk).astype(f32),
            "x": rng.uniform(-16, 16, nx).astype(f32), "y": rng.uniform(-16, 16, nx).astype(f32),
            "z": rng.uniform(-16, 16, nx).astype(f32)}


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    nx, nk = p["num_x"], p["num_k"]
    if nx % _Q_TPB:
        raise ValueError(f"num_x must be a multiple of {_Q_TPB}")
    phi_mag = ctx.empty(nk, np.float32)
    ctx.kernel("compute_phi_mag")[(nk + _PHI_TPB - 1) // _PHI_TPB, _PHI_TPB](
        ctx.to_device(d["phi_r"]), ctx.to_device(d["phi_i"]), phi_mag, np.int32(nk))
    mag = phi_mag.copy_to_host()
    x, y, z = (ctx.to_device(d[k]) for k in ("x", "y", "z"))
    qr, qi = ctx.zeros(nx, np.float32), ctx.zeros(nx, np.float32)
    for start in range(0, nk, _CHUNK):
        stop = min(nk, start + _CHUNK)
        kv = np.zeros((_CHUNK, 4), np.float32)
        kv[:stop - start] = np.stack([d["kx"][start:stop], d["ky"][start:stop],
                                      d["kz"][start:stop], mag[start:stop]], axis=1)
        ctx.set_symbol("ck", kv)
        ctx.kernel("compute_q")[nx // _Q_TPB, _Q_TPB](np.int32(nk), np.int32(start), x, y, z,
                                                     qr, qi)
    return {"phi_mag": mag, "qr": qr.copy_to_host(), "qi": qi.copy_to_host()}


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    f64 = {k: v.astype(np.float64) for k, v in d.items()}
    mag = f64["phi_r"] ** 2 + f64["phi_i"] ** 2
    arg = 2 * np.pi * (np.outer(f64["x"], f64["kx"]) + np.outer(f64["y"], f64["ky"])
                       + np.outer(f64["z"], f64["kz"]))
    return {"phi_mag": mag, "qr": np.cos(arg) @ mag, "qi": np.sin(arg) @ mag}


def verify(got: dict[str, np.ndarray], want: dict[str, np.ndarray], p: Params) -> list[str]:
    """__sinf/__cosf have an absolute error near 2^-21.4 of |arg| scale (no range reduction):
    allow 1e-4 per unit of the summed magnitudes."""
    atol = 1e-4 * float(want["phi_mag"].sum())
    msgs = [compare("phi_mag", got["phi_mag"], want["phi_mag"], 1e-6, 1e-7),
            compare("qr", got["qr"], want["qr"], 0.0, atol),
            compare("qi", got["qi"], want["qi"], 0.0, atol)]
    return [m for m in msgs if m]


BENCHMARK = Benchmark(
    name="mri_q", suite="parboil", resembles="parboil/mri-q",
    workload="mri-q small (32x32x32 = 32,768 voxels, 3,072 k-space samples): 1 + 3 launches",
    kernels=("compute_phi_mag", "compute_q"),
    threads_per_block={"compute_phi_mag": _PHI_TPB, "compute_q": _Q_TPB},
    sizes={"tiny": {"num_x": 512, "num_k": 256}, "small": {"num_x": 4096, "num_k": 2048},
           "paper": {"num_x": 32768, "num_k": 3072}},
    launches="compute_phi_mag once, then compute_q per 1,024-sample chunk of k-space",
    differences="random trajectory and voxel coordinates instead of the dataset files",
    tolerance_note="phi_mag rtol 1e-6; Q within 1e-4 x sum(phiMag) absolute (fast-math sin/cos)",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference, verify=verify)
