"""dxtc: DXT1 compression of an RGB image, a thread per pixel and four tiles per block (like
the CUDA SDK dxtc sample, with bounding-box end points)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK"]

_TPB = 64


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    h, w = p["height"], p["width"]
    yy, xx = np.mgrid[0:h, 0:w]
    base = np.stack([128 + 100 * np.sin(xx / 11.0), 128 + 100 * np.cos(yy / 7.0),
                     128 + 60 * np.sin((xx + yy) / 13.0)], axis=-1)
    img = base + rng.normal(0, 8, (h, w, 3))
    return {"rgb": np.clip(img, 0, 255).astype(np.uint8)}


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    h, w = p["height"], p["width"]
    tiles = (h // 4) * (w // 4)
    if h % 4 or w % 4 or tiles % 4:
        raise ValueError("width and height must be multiples of 4, the tile count of 4")
    out = ctx.empty((tiles, 2), np.uint32)
    ctx.kernel("compress_dxt1")[tiles // 4, _TPB](ctx.to_device(d["rgb"].reshape(-1)),
                                                 np.int32(w), np.int32(h), out)
    return {"blocks": out.copy_to_host().reshape(tiles, 2)}


def _expand(c: np.ndarray) -> np.ndarray:
    r, g, b = (c >> 11) & 31, (c >> 5) & 63, c & 31
    return np.stack([(r << 3) | (r >> 2), (g << 2) | (g >> 4), (b << 3) | (b >> 2)], axis=-1)


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    h, w = p["height"], p["width"]
    px = d["rgb"].astype(np.int64).reshape(h // 4, 4, w // 4, 4, 3).transpose(0, 2, 1, 3, 4)
    px = px.reshape(-1, 16, 3)  # [tile, pixel (row-major in the tile), channel]
    hi, lo = px.max(axis=1), px.min(axis=1)

    def to565(c: np.ndarray) -> np.ndarray:
        return ((c[:, 0] >> 3) << 11) | ((c[:, 1] >> 2) << 5) | (c[:, 2] >> 3)

    c0, c1 = to565(hi), to565(lo)
    c0, c1 = np.maximum(c0, c1), np.minimum(c0, c1)
    p0, p1 = _expand(c0), _expand(c1)
    pal = np.stack([p0, p1, (2 * p0 + p1) // 3, (p0 + 2 * p1) // 3], axis=1)  # [tile, 4, 3]
    dist = ((px[:, :, None, :] - pal[:, None, :, :]) ** 2).sum(axis=-1)  # [tile, 16, 4]
    idx = np.argmin(dist, axis=2)
    idx[c0 == c1] = 0
    bits = (idx << (2 * np.arange(16))[None, :]).sum(axis=1)
    return {"blocks": np.stack([c0 | (c1 << 16), bits], axis=1).astype(np.uint32)}


BENCHMARK = Benchmark(
    name="dxtc", suite="sdk", resembles="sdk/dxtc",
    workload="dxtc on lena_std.ppm (512x512 RGB)",
    kernels=("compress_dxt1",), threads_per_block={"compress_dxt1": _TPB},
    sizes={"tiny": {"width": 32, "height": 16}, "small": {"width": 128, "height": 128},
           "paper": {"width": 512, "height": 512}},
    launches="1 launch, four 4x4 tiles per block",
    differences="bounding-box end points (the sample searches end points along the principal "
                "axis and permutations); synthetic image",
    tolerance_note="exact (integer end points and indices)",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference)
