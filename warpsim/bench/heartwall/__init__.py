"""heartwall: tracking points through frames by template matching in shared memory (like
Rodinia heartwall: one block per point, one launch per frame)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK"]

_TPB = 256


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    """Frames of a smooth random texture translated by a random drift each frame."""
    h, w = p["height"], p["width"]
    noise = rng.random((h, w))
    tex = noise
    for _ in range(3):  # cheap smoothing
        tex = (tex + np.roll(tex, 1, 0) + np.roll(tex, -1, 0) + np.roll(tex, 1, 1)
               + np.roll(tex, -1, 1)) / 5.0
    frames, shift = [], np.zeros(2, int)
    for _ in range(p["frames"]):
        frames.append(np.roll(tex, tuple(shift), axis=(0, 1)) + 0.01 * rng.random((h, w)))
        shift += rng.integers(-2, 3, 2)
    margin = p["t_half"] + p["s_radius"] * (p["frames"] + 1)
    pts = np.stack([rng.integers(margin, h - margin, p["points"]),
                    rng.integers(margin, w - margin, p["points"])], axis=1)
    return {"frames": np.array(frames, np.float32), "points": pts.astype(np.int32)}


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    frames, pts = d["frames"], d["points"]
    n, (h, w) = pts.shape[0], frames.shape[1:]
    f0 = ctx.to_device(frames[0])
    init_r, init_c = ctx.to_device(pts[:, 0].copy()), ctx.to_device(pts[:, 1].copy())
    rows, cols = ctx.to_device(pts[:, 0].copy()), ctx.to_device(pts[:, 1].copy())
    for f in range(1, frames.shape[0]):
        frame = ctx.to_device(frames[f])  # the frame copied in each launch
        ctx.kernel("track")[n, _TPB](f0, frame, np.int32(w), np.int32(h), init_r, init_c, rows,
                                     cols, np.int32(p["t_half"]), np.int32(p["s_radius"]))
    return {"rows": rows.copy_to_host(), "cols": cols.copy_to_host()}


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    frames = d["frames"].astype(np.float64)
    th, sr = p["t_half"], p["s_radius"]
    h, w = frames.shape[1:]
    rows, cols = d["points"][:, 0].copy(), d["points"][:, 1].copy()
    off = np.arange(-th, th + 1)
    for f in range(1, frames.shape[0]):
        for i in range(rows.size):
            ty = np.clip(d["points"][i, 0] + off, 0, h - 1)
            tx = np.clip(d["points"][i, 1] + off, 0, w - 1)
            t = frames[0][np.ix_(ty, tx)].ravel()
            best, arg = -np.inf, 0
            for k in range((2 * sr + 1) ** 2):
                dy, dx = k // (2 * sr + 1) - sr, k % (2 * sr + 1) - sr
                vy = np.clip(rows[i] + dy + off, 0, h - 1)
                vx = np.clip(cols[i] + dx + off, 0, w - 1)
                v = frames[f][np.ix_(vy, vx)].ravel()
                tc, vc = t - t.mean(), v - v.mean()
                den = np.sqrt((tc @ tc) * (vc @ vc))
                s = (tc @ vc) / den if den > 0 else -1.0
                if s > best:
                    best, arg = s, k
            rows[i] += arg // (2 * sr + 1) - sr
            cols[i] += arg % (2 * sr + 1) - sr
    return {"rows": rows, "cols": cols}


BENCHMARK = Benchmark(
    name="heartwall", suite="rodinia", resembles="rodinia/heartwall",
    workload="heartwall test.avi 20 (609x590 frames, 51 tracked points, 20 frames)",
    kernels=("track",), threads_per_block={"track": _TPB},
    sizes={"tiny": {"height": 48, "width": 48, "points": 4, "frames": 3, "t_half": 3,
                    "s_radius": 3},
           "small": {"height": 256, "width": 256, "points": 20, "frames": 5, "t_half": 8,
                     "s_radius": 7},
           "paper": {"height": 590, "width": 609, "points": 51, "frames": 20, "t_half": 8,
                     "s_radius": 7}},
    launches="one launch per frame after the first (frames - 1)",
    differences="synthetic drifting texture instead of the ultrasound video; one template "
                "size for all points; normalised cross-correlation of a square template",
    tolerance_note="exact positions (an arg-max near-tie between displacements would show up)",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference)
