"""srad: speckle-reducing anisotropic diffusion, two kernels per iteration and a host statistic
(like Rodinia srad_v2)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK"]

_BS = 16
_LAMBDA = 0.5
_ROI = 128


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    return {"image": np.exp(rng.random((p["rows"], p["cols"]))).astype(np.float32)}


def _q0sqr(j: np.ndarray) -> float:
    roi = j[:_ROI, :_ROI].astype(np.float64)
    mean = roi.mean()
    var = (roi * roi).mean() - mean * mean
    return var / (mean * mean)


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    rows, cols = p["rows"], p["cols"]
    grid = (cols // _BS, rows // _BS)
    j_host = d["image"].copy()
    j = ctx.to_device(j_host)
    dn, ds, dw, de, c = (ctx.empty(rows * cols, np.float32) for _ in range(5))
    dims = (np.int32(cols), np.int32(rows))
    for _ in range(p["iterations"]):
        q0 = np.float32(_q0sqr(j_host))
        ctx.kernel("srad_1")[grid, (_BS, _BS)](j, dn, ds, dw, de, c, *dims, q0)
        ctx.kernel("srad_2")[grid, (_BS, _BS)](j, dn, ds, dw, de, c, *dims, np.float32(_LAMBDA))
        j_host = j.copy_to_host().reshape(rows, cols)
    return {"image": j_host, "c": c.copy_to_host().reshape(rows, cols)}


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    j = d["image"].astype(np.float64)
    c = j
    for _ in range(p["iterations"]):
        q0 = float(np.float32(_q0sqr(j)))
        e = np.pad(j, 1, mode="edge")
        n, s = e[:-2, 1:-1] - j, e[2:, 1:-1] - j
        w, east = e[1:-1, :-2] - j, e[1:-1, 2:] - j
        g2 = (n * n + s * s + w * w + east * east) / (j * j)
        lap = (n + s + w + east) / j
        num = 0.5 * g2 - (1.0 / 16.0) * lap * lap
        den = 1.0 + 0.25 * lap
        qsqr = num / (den * den)
        den = (qsqr - q0) / (q0 * (1.0 + q0))
        c = np.clip(1.0 / (1.0 + den), 0.0, 1.0)
        ce = np.pad(c, 1, mode="edge")
        cs, c_east = ce[2:, 1:-1], ce[1:-1, 2:]
        j = j + 0.25 * _LAMBDA * (c * n + cs * s + c * w + c_east * east)
    return {"image": j, "c": c}


BENCHMARK = Benchmark(
    name="srad", suite="rodinia", resembles="rodinia/srad_v2",
    workload="srad_v2 2048 2048 0 127 0 127 0.5 2 (2048x2048 image, 2 iterations)",
    kernels=("srad_1", "srad_2"), threads_per_block={"srad_1": 256, "srad_2": 256},
    sizes={"tiny": {"rows": 32, "cols": 32, "iterations": 2},
           "small": {"rows": 256, "cols": 256, "iterations": 2},
           "paper": {"rows": 2048, "cols": 2048, "iterations": 2}},
    launches="per iteration: image copied back, host ROI statistic, srad_1, srad_2",
    differences="halo through shared memory loaded by edge threads; rows/cols multiples of 16",
    rtol=1e-4, atol=1e-5,
    tolerance_note="float32 divisions and a clamped coefficient against float64",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference)
