"""particlefilter: particle-filter tracking of a moving disk through frames, four launches per
frame (like Rodinia particlefilter, float version)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK"]

_TPB = 512
_A, _C, _M = 1103515245, 12345, 2147483647
_RADIUS = 5


def _disk() -> np.ndarray:
    """(y, x) offsets of the disk the likelihood is taken over (objxy in the original)."""
    r = np.arange(-_RADIUS, _RADIUS + 1)
    yy, xx = np.meshgrid(r, r, indexing="ij")
    inside = yy * yy + xx * xx <= _RADIUS * _RADIUS
    return np.stack([yy[inside], xx[inside]], axis=1).astype(np.int32)


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    """Frames of a bright disk (228) on a dark background (100) moving by (+1, -2) per frame,
    with Gaussian noise; stored I[x][y][frame] as the original."""
    sx, sy, nfr = p["isz_x"], p["isz_y"], p["frames"]
    xx, yy = np.meshgrid(np.arange(sx), np.arange(sy), indexing="ij")
    video = np.zeros((sx, sy, nfr))
    for k in range(nfr):
        cx, cy = sx // 2 + k, sy // 2 - 2 * k
        video[..., k] = np.where((xx - cx) ** 2 + (yy - cy) ** 2 <= _RADIUS ** 2, 228.0, 100.0)
    video += rng.normal(0.0, 2.0, video.shape)
    return {"video": np.clip(video, 0, 255).astype(np.uint8),
            "seed": rng.integers(1, 1 << 30, p["particles"]).astype(np.int32)}


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    sx, sy, nfr, n = p["isz_x"], p["isz_y"], p["frames"], p["particles"]
    objxy = _disk()
    count = objxy.shape[0]
    blocks = (n + _TPB - 1) // _TPB
    f64 = np.float64
    xj = ctx.to_device(np.full(n, sx // 2, f64))
    yj = ctx.to_device(np.full(n, sy // 2, f64))
    ax, ay, w, lik = (ctx.empty(n, f64) for _ in range(4))
    cdf, u = ctx.empty(n, f64), ctx.empty(n, f64)
    ind = ctx.empty(n * count, np.int32)
    partial = ctx.empty(max(blocks, 1), f64)
    video = ctx.to_device(d["video"].reshape(-1))
    seed = ctx.to_device(d["seed"])
    d_obj = ctx.to_device(objxy.reshape(-1))
    i32 = np.int32
    for k in range(1, nfr):
        ctx.kernel("likelihood_kernel")[blocks, _TPB](
            ax, ay, xj, yj, ind, d_obj, lik, video, w, i32(n), i32(count), i32(sx * sy * nfr),
            i32(k), i32(sy), i32(nfr), seed, partial)
        ctx.kernel("sum_weights")[1, 1](partial, i32(blocks), w, cdf, u, seed, i32(n))
        ctx.kernel("normalize_weights")[blocks, _TPB](w, i32(n), partial, u)
        ctx.kernel("find_index")[blocks, _TPB](ax, ay, cdf, u, xj, yj, i32(n))
    hx, hy, hw = ax.copy_to_host(), ay.copy_to_host(), w.copy_to_host()
    return {"xj": xj.copy_to_host(), "yj": yj.copy_to_host(),
            "estimate": np.array([(hx * hw).sum(), (hy * hw).sum()])}


def _randu(seed: np.ndarray, idx: np.ndarray | slice) -> np.ndarray:
    num = (_A * seed[idx].astype(np.int64) + _C) & 0xFFFFFFFF
    num = np.where(num >= 1 << 31, num - (1 << 32), num)  # int32 wrap-around
    seed[idx] = np.fmod(num, _M).astype(np.int32)  # C remainder: truncates toward zero
    return np.abs(seed[idx] / float(_M))


def _randn(seed: np.ndarray, idx: np.ndarray | slice) -> np.ndarray:
    u = _randu(seed, idx)
    v = _randu(seed, idx)
    return np.sqrt(-2.0 * np.log(u)) * np.cos(2.0 * np.pi * v)


def _round(v: np.ndarray) -> np.ndarray:
    t = np.trunc(v).astype(np.int64)
    return np.where(v - t < 0.5, t, t + 1)


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    sx, sy, nfr, n = p["isz_x"], p["isz_y"], p["frames"], p["particles"]
    video = d["video"].reshape(-1).astype(np.float64)
    seed = d["seed"].copy()
    objxy = _disk().astype(np.int64)
    xj, yj = np.full(n, float(sx // 2)), np.full(n, float(sy // 2))
    ax = ay = w = np.zeros(n)
    for k in range(1, nfr):
        ax = xj + 1.0 + 5.0 * _randn(seed, slice(None))
        ay = yj - 2.0 + 2.0 * _randn(seed, slice(None))
        ix = _round(ax)[:, None] + objxy[None, :, 1]
        iy = _round(ay)[:, None] + objxy[None, :, 0]
        index = np.abs(ix * sy * nfr + iy * nfr + k)
        index[index >= sx * sy * nfr] = 0
        v = video[index]
        lik = (((v - 100.0) ** 2 - (v - 228.0) ** 2) / 50.0).sum(axis=1) / objxy.shape[0]
        w = (1.0 / n) * np.exp(lik)
        total = w.sum()
        cdf = np.cumsum(w / total)
        u0 = (1.0 / n) * _randu(seed, slice(0, 1))[0]
        w = w / total
        uu = u0 + np.arange(n) / float(n)
        idx = np.searchsorted(cdf, uu, side="left")  # first x with CDF[x] >= u
        idx[idx >= n] = n - 1
        xj, yj = ax[idx], ay[idx]
    return {"xj": xj, "yj": yj, "estimate": np.array([(ax * w).sum(), (ay * w).sum()])}


BENCHMARK = Benchmark(
    name="particlefilter", suite="rodinia", resembles="rodinia/particlefilter",
    workload="particlefilter -x 128 -y 128 -z 10 -np 1000 (36 launches)",
    kernels=("likelihood_kernel", "sum_weights", "normalize_weights", "find_index"),
    threads_per_block={"likelihood_kernel": _TPB, "sum_weights": 1, "normalize_weights": _TPB,
                       "find_index": _TPB},
    sizes={"tiny": {"isz_x": 32, "isz_y": 32, "frames": 3, "particles": 256},
           "small": {"isz_x": 64, "isz_y": 64, "frames": 5, "particles": 512},
           "paper": {"isz_x": 128, "isz_y": 128, "frames": 10, "particles": 1000}},
    launches="per frame after the first: likelihood_kernel, sum_weights, normalize_weights, "
             "find_index (4 (frames - 1))",
    differences="the CDF and the first resampling point are built in sum_weights (the original "
                "builds them in normalize_weights, racing with other blocks); no dilation of "
                "the synthetic video; squares instead of pow(x, 2)",
    rtol=1e-9, atol=1e-9,
    tolerance_note="double precision throughout; resampling choices must agree exactly",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference)
