"""sobel_filter: Sobel edge detection through a texture and a shared tile (like the CUDA SDK
SobelFilter sample's shared-memory mode)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK"]

_T = 16
_SCALE = 0.75


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    h, w = p["height"], p["width"]
    yy, xx = np.mgrid[0:h, 0:w]
    img = 128 + 100 * np.sign(np.sin(xx / 9.0) * np.cos(yy / 13.0)) + rng.normal(0, 12, (h, w))
    return {"image": np.clip(img, 0, 255).astype(np.uint8)}


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    h, w = p["height"], p["width"]
    src = ctx.to_device(d["image"].reshape(-1))
    out = ctx.empty(h * w, np.uint8)
    for _ in range(p["repeats"]):
        ctx.kernel("sobel_shared")[((w + _T - 1) // _T, (h + _T - 1) // _T), (_T, _T)](
            ctx.texture(src), out, np.int32(w), np.int32(h), np.float32(_SCALE))
    return {"edges": out.copy_to_host().reshape(h, w)}


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    e = np.pad(d["image"].astype(np.int32), 1, mode="edge")
    ul, um, ur = e[:-2, :-2], e[:-2, 1:-1], e[:-2, 2:]
    ml, mr = e[1:-1, :-2], e[1:-1, 2:]
    ll, lm, lr = e[2:, :-2], e[2:, 1:-1], e[2:, 2:]
    horz = ur + 2 * mr + lr - ul - 2 * ml - ll
    vert = ul + 2 * um + ur - ll - 2 * lm - lr
    mag = (np.float32(_SCALE) * (np.abs(horz) + np.abs(vert)).astype(np.float32))
    return {"edges": np.clip(np.trunc(mag), 0, 255).astype(np.uint8)}


BENCHMARK = Benchmark(
    name="sobel_filter", suite="sdk", resembles="sdk/SobelFilter",
    workload="SobelFilter on a 512x512 8-bit image (lena.pgm), shared-memory mode",
    kernels=("sobel_shared",), threads_per_block={"sobel_shared": _T * _T},
    sizes={"tiny": {"width": 64, "height": 48, "repeats": 1},
           "small": {"width": 256, "height": 256, "repeats": 1},
           "paper": {"width": 512, "height": 512, "repeats": 1}},
    launches="`repeats` launches (the sample filters once per displayed frame)",
    differences="16x16 tiles of single bytes (the sample reads 4 pixels per thread); a 1-D "
                "texture with clamping in the kernel; synthetic image",
    tolerance_note="exact (bytes; the scale product is one float32 multiply, truncated)",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference)
