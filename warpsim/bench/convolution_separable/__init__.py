"""convolution_separable: rows then columns 17-tap convolution (like SDK convolutionSeparable)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK"]

_R = 8
_ROWS = (16, 4, 8)  # block x, block y, result steps
_COLS = (16, 8, 8)


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    k = rng.random(2 * _R + 1).astype(np.float32)
    return {"image": rng.random((p["height"], p["width"]), dtype=np.float32),
            "kernel": (k / k.sum()).astype(np.float32)}


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    w, h = p["width"], p["height"]
    if w % (_ROWS[0] * _ROWS[2]) or h % (_COLS[1] * _COLS[2]) or h % _ROWS[1]:
        raise ValueError(f"image {w}x{h}: width must be a multiple of 128, height of 64")
    ctx.set_symbol("c_kernel", d["kernel"])
    src = ctx.to_device(d["image"])
    tmp, dst = ctx.empty(w * h, np.float32), ctx.empty(w * h, np.float32)
    args = (np.int32(w), np.int32(h), np.int32(w))
    ctx.kernel("convolution_rows")[(w // (_ROWS[0] * _ROWS[2]), h // _ROWS[1]),
                                   (_ROWS[0], _ROWS[1])](tmp, src, *args)
    ctx.kernel("convolution_columns")[(w // _COLS[0], h // (_COLS[1] * _COLS[2])),
                                      (_COLS[0], _COLS[1])](dst, tmp, *args)
    return {"rows": tmp.copy_to_host().reshape(h, w), "out": dst.copy_to_host().reshape(h, w)}


def _conv(a: np.ndarray, k: np.ndarray, axis: int) -> np.ndarray:
    n = a.shape[axis]
    pad = [(0, 0), (0, 0)]
    pad[axis] = (_R, _R)
    padded = np.pad(a, pad)
    out = np.zeros_like(a)
    for j in range(-_R, _R + 1):
        out += k[_R - j] * np.take(padded, np.arange(_R + j, _R + j + n), axis=axis)
    return out


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    k = d["kernel"].astype(np.float64)
    rows = _conv(d["image"].astype(np.float64), k, 1)
    return {"rows": rows, "out": _conv(rows, k, 0)}


BENCHMARK = Benchmark(
    name="convolution_separable", suite="sdk", resembles="sdk42/convolutionSeparable",
    workload="convolutionSeparable: 3072x3072 image, 17-tap filter",
    kernels=("convolution_rows", "convolution_columns"),
    threads_per_block={"convolution_rows": 64, "convolution_columns": 128},
    sizes={"tiny": {"width": 128, "height": 64}, "small": {"width": 512, "height": 512},
           "paper": {"width": 3072, "height": 3072}},
    launches="rows pass then columns pass (2 launches)",
    differences="none of substance (zero padding at the image border, as the sample)",
    rtol=1e-4, atol=1e-5,
    tolerance_note="17 float32 fma per pass against float64",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference)
