"""srad_v1: speckle-reducing anisotropic diffusion with a device reduction each iteration
(like Rodinia srad_v1: extract, then per iteration prepare, reduce..., srad, srad2; compress)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK"]

_TPB = 512
_LAMBDA = 0.5


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    return {"image": rng.integers(0, 256, (p["rows"], p["cols"])).astype(np.float32)}


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    nr, nc = p["rows"], p["cols"]
    ne = nr * nc
    blocks = (ne + _TPB - 1) // _TPB
    img = ctx.to_device(np.asfortranarray(d["image"]).reshape(-1, order="F"))
    rows, cols = np.arange(nr, dtype=np.int32), np.arange(nc, dtype=np.int32)
    i_n, i_s = ctx.to_device(np.maximum(rows - 1, 0)), ctx.to_device(np.minimum(rows + 1, nr - 1))
    j_w, j_e = ctx.to_device(np.maximum(cols - 1, 0)), ctx.to_device(np.minimum(cols + 1, nc - 1))
    dn, ds, de, dw, c, sums, sums2 = (ctx.empty(ne, np.float32) for _ in range(7))
    ne64 = np.int64(ne)
    ctx.kernel("extract")[blocks, _TPB](ne64, img)
    for _ in range(p["iterations"]):
        ctx.kernel("prepare")[blocks, _TPB](ne64, img, sums, sums2)
        n_active, stride = ne, 1
        while n_active > 1:
            nb = (n_active + _TPB - 1) // _TPB
            ctx.kernel("reduce")[nb, _TPB](np.int64(n_active), np.int64(stride), sums, sums2)
            n_active, stride = nb, stride * _TPB
        total = float(sums[0:1].copy_to_host()[0])
        total2 = float(sums2[0:1].copy_to_host()[0])
        mean = total / ne
        q0sqr = np.float32((total2 / ne - mean * mean) / (mean * mean))
        common = (np.float32(_LAMBDA), np.int32(nr), np.int32(nc), ne64, i_n, i_s, j_e, j_w)
        ctx.kernel("srad")[blocks, _TPB](*common, dn, ds, de, dw, q0sqr, c, img)
        ctx.kernel("srad2")[blocks, _TPB](*common, dn, ds, de, dw, c, img)
    ctx.kernel("compress")[blocks, _TPB](ne64, img)
    return {"image": img.copy_to_host().reshape(nc, nr).T}


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    j = np.exp(d["image"].astype(np.float64) / 255.0)
    ne = j.size
    for _ in range(p["iterations"]):
        mean = j.sum() / ne
        q0 = ((j * j).sum() / ne - mean * mean) / (mean * mean)
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
        j = j + 0.25 * _LAMBDA * (c * n + ce[2:, 1:-1] * s + c * w + ce[1:-1, 2:] * east)
    return {"image": np.log(j) * 255.0}


BENCHMARK = Benchmark(
    name="srad_v1", suite="rodinia", resembles="rodinia/srad_v1",
    workload="srad_v1 100 0.5 502 458 (502x458 image, 100 iterations): 502 launches",
    kernels=("extract", "prepare", "reduce", "srad", "srad2", "compress"),
    threads_per_block={k: _TPB for k in ("extract", "prepare", "reduce", "srad", "srad2",
                                         "compress")},
    sizes={"tiny": {"rows": 32, "cols": 24, "iterations": 2},
           "small": {"rows": 128, "cols": 128, "iterations": 4},
           "paper": {"rows": 502, "cols": 458, "iterations": 100}},
    launches="extract; per iteration prepare, reduce (until one block remains; the sums are "
             "copied back), srad, srad2; compress",
    differences="random image instead of image.pgm; q0^2 over the whole image as the original",
    rtol=1e-3, atol=2e-3,
    tolerance_note="float32 exp/log, a float32 tree reduction and divisions against float64, "
                   "over up to 100 iterations (paper: worst pixel 1.5e-4 relative); the output "
                   "is log(J) * 255",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference)
