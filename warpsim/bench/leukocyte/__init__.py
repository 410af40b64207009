"""leukocyte: GICOV circle scores and their dilation over a microscopy-like image (like Rodinia
leukocyte's detection kernels)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK"]

_BLOCK = (16, 16)
_MAX_POINTS, _MAX_CIRCLES, _MAX_STREL = 150, 7, 25


def _circles(p: Params) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    theta = 2.0 * np.pi * np.arange(p["points"]) / p["points"]
    radii = p["min_radius"] + 2 * np.arange(p["circles"])
    tx = np.rint(radii[:, None] * np.cos(theta)[None, :]).astype(np.int32)
    ty = np.rint(radii[:, None] * np.sin(theta)[None, :]).astype(np.int32)
    return np.sin(theta).astype(np.float32), np.cos(theta).astype(np.float32), tx, ty


def _strel(size: int) -> np.ndarray:
    r = size // 2
    yy, xx = np.mgrid[-r:r + 1, -r:r + 1]
    return (yy * yy + xx * xx <= r * r).astype(np.uint8)


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    """Bright rings (cell outlines) on a noisy background; the host computes the gradient."""
    h, w = p["height"], p["width"]
    yy, xx = np.mgrid[0:h, 0:w]
    img = rng.normal(0.0, 0.05, (h, w))
    for _ in range(p["cells"]):
        cy, cx = rng.uniform(0, h), rng.uniform(0, w)
        rad = rng.uniform(p["min_radius"], p["min_radius"] + 2 * p["circles"])
        dist = np.sqrt((yy - cy) ** 2 + (xx - cx) ** 2)
        img += np.exp(-((dist - rad) ** 2) / 2.0)
    gy, gx = np.gradient(img)
    return {"grad_x": gx.astype(np.float32), "grad_y": gy.astype(np.float32)}


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    h, w = p["height"], p["width"]
    sin, cos, tx, ty = _circles(p)
    pad = np.zeros((_MAX_CIRCLES, _MAX_POINTS), np.int32)
    ctx.set_symbol("c_sin", sin)
    ctx.set_symbol("c_cos", cos)
    for name, table in (("c_tX", tx), ("c_tY", ty)):
        full = pad.copy()
        full[:table.shape[0], :table.shape[1]] = table
        ctx.set_symbol(name, full)
    ctx.set_symbol("c_strel", _strel(p["strel"]))
    gx, gy = ctx.to_device(d["grad_x"].reshape(-1)), ctx.to_device(d["grad_y"].reshape(-1))
    gicov, dil = ctx.empty(h * w, np.float32), ctx.empty(h * w, np.float32)
    grid = ((w + _BLOCK[0] - 1) // _BLOCK[0], (h + _BLOCK[1] - 1) // _BLOCK[1])
    margin = p["min_radius"] + 2 * (p["circles"] - 1) + 1
    ctx.kernel("gicov_kernel")[grid, _BLOCK](ctx.texture(gx), ctx.texture(gy), np.int32(w),
                                             np.int32(h), np.int32(margin),
                                             np.int32(p["circles"]), np.int32(p["points"]),
                                             gicov)
    ctx.kernel("dilate_kernel")[grid, _BLOCK](ctx.texture(gicov), np.int32(w), np.int32(h),
                                              np.int32(p["strel"]), dil)
    return {"gicov": gicov.copy_to_host().reshape(h, w),
            "dilated": dil.copy_to_host().reshape(h, w)}


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    h, w = p["height"], p["width"]
    sin, cos, tx, ty = (a.astype(np.float64) if a.dtype.kind == "f" else a for a in _circles(p))
    gx, gy = d["grad_x"].astype(np.float64), d["grad_y"].astype(np.float64)
    margin = p["min_radius"] + 2 * (p["circles"] - 1) + 1
    ys, xs = np.mgrid[margin:h - margin, margin:w - margin]
    best = np.zeros(ys.shape)
    for c in range(p["circles"]):
        samples = np.stack([gx[ys + ty[c, k], xs + tx[c, k]] * cos[k]
                            + gy[ys + ty[c, k], xs + tx[c, k]] * sin[k]
                            for k in range(p["points"])])
        score = samples.mean(axis=0) ** 2 / samples.var(axis=0, ddof=1)
        best = np.maximum(best, score)
    gicov = np.zeros((h, w))
    gicov[margin:h - margin, margin:w - margin] = best
    strel = _strel(p["strel"])
    r = p["strel"] // 2
    padded = np.pad(gicov, r)
    dil = np.zeros((h, w))
    for dy in range(-r, r + 1):
        for dx in range(-r, r + 1):
            if strel[dy + r, dx + r]:
                dil = np.maximum(dil, padded[r + dy:r + dy + h, r + dx:r + dx + w])
    return {"gicov": gicov, "dilated": dil}


BENCHMARK = Benchmark(
    name="leukocyte", suite="rodinia", resembles="rodinia/leukocyte",
    workload="leukocyte testfile.avi 5 (640x219 frames: GICOV over 7 circles x 150 points, "
             "dilation)",
    kernels=("gicov_kernel", "dilate_kernel"),
    threads_per_block={"gicov_kernel": 256, "dilate_kernel": 256},
    sizes={"tiny": {"height": 32, "width": 48, "cells": 3, "circles": 2, "points": 24,
                    "min_radius": 4, "strel": 5},
           "small": {"height": 96, "width": 128, "cells": 8, "circles": 4, "points": 64,
                     "min_radius": 6, "strel": 9},
           "paper": {"height": 219, "width": 640, "cells": 30, "circles": 7, "points": 150,
                     "min_radius": 8, "strel": 25}},
    launches="gicov_kernel then dilate_kernel (2 launches per frame; one frame here)",
    differences="one frame of a synthetic image; no IMGVF tracking stage; the gradient is "
                "computed on the host",
    rtol=1e-3, atol=1e-4,
    tolerance_note="float32 Welford mean/variance over the circle samples against float64",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference)
