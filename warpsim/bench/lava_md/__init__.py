"""lava_md: pairwise particle interactions over neighbouring boxes (like Rodinia lavaMD)."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK"]

_TPB = 128
_ALPHA = 0.5
_BOX = np.dtype([("offset", np.int32), ("nn", np.int32), ("nei", np.int32, (26,))])
_PAR = np.dtype([("alpha", np.float32)])
_DIM = np.dtype([("number_boxes", np.int32), ("par_per_box", np.int32)])


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    b1, ppb = p["boxes1d"], p["par_per_box"]
    nb = b1 ** 3
    boxes = np.zeros(nb, _BOX)
    corners = np.zeros((nb, 3))
    for n, (i, j, k) in enumerate(itertools.product(range(b1), repeat=3)):
        corners[n] = (i, j, k)
        boxes[n]["offset"] = n * ppb
        nei = [((i + di) * b1 + (j + dj)) * b1 + (k + dk)
               for di, dj, dk in itertools.product((-1, 0, 1), repeat=3)
               if (di, dj, dk) != (0, 0, 0)
               and 0 <= i + di < b1 and 0 <= j + dj < b1 and 0 <= k + dk < b1]
        boxes[n]["nn"] = len(nei)
        boxes[n]["nei"][:len(nei)] = nei
    xyz = (np.repeat(corners, ppb, axis=0) + rng.random((nb * ppb, 3))).astype(np.float32)
    rv = np.zeros((nb * ppb, 4), np.float32)
    rv[:, 1:] = xyz
    rv[:, 0] = (xyz.astype(np.float64) ** 2).sum(axis=1)
    return {"boxes": boxes, "rv": rv,
            "qv": ((rng.integers(1, 11, nb * ppb)) / 10.0).astype(np.float32)}


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    nb, ppb = d["boxes"].size, p["par_per_box"]
    par = np.zeros((), _PAR)
    par["alpha"] = _ALPHA
    dim = np.zeros((), _DIM)
    dim["number_boxes"], dim["par_per_box"] = nb, ppb
    fv = ctx.zeros((nb * ppb, 4), np.float32)
    ctx.kernel("kernel_gpu_cuda")[nb, _TPB](par, dim, ctx.to_device(d["boxes"]),
                                           ctx.to_device(d["rv"]), ctx.to_device(d["qv"]), fv)
    return {"fv": fv.copy_to_host().reshape(nb * ppb, 4)}


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    boxes, ppb = d["boxes"], p["par_per_box"]
    rv, qv = d["rv"].astype(np.float64), d["qv"].astype(np.float64)
    a2 = 2.0 * _ALPHA * _ALPHA
    fv = np.zeros_like(rv)
    for b in range(boxes.size):
        ids = [b, *boxes[b]["nei"][:boxes[b]["nn"]]]
        rb = np.concatenate([rv[i * ppb:(i + 1) * ppb] for i in ids])
        qb = np.concatenate([qv[i * ppb:(i + 1) * ppb] for i in ids])
        ra = rv[b * ppb:(b + 1) * ppb]
        r2 = ra[:, None, 0] + rb[None, :, 0] - 2.0 * (ra[:, 1:] @ rb[:, 1:].T)
        vij = np.exp(-a2 * r2)
        fv[b * ppb:(b + 1) * ppb, 0] = vij @ qb
        for c in range(1, 4):
            dist = ra[:, None, c] - rb[None, :, c]
            fv[b * ppb:(b + 1) * ppb, c] = (2.0 * vij * dist) @ qb
    return {"fv": fv}


BENCHMARK = Benchmark(
    name="lava_md", suite="rodinia", resembles="rodinia/lavaMD",
    workload="lavaMD -boxes1d 10 (1000 boxes x 100 particles, 128 threads per box)",
    kernels=("kernel_gpu_cuda",), threads_per_block={"kernel_gpu_cuda": _TPB},
    sizes={"tiny": {"boxes1d": 2, "par_per_box": 32}, "small": {"boxes1d": 3, "par_per_box": 100},
           "paper": {"boxes1d": 10, "par_per_box": 100}},
    launches="1 launch, one block per box",
    differences="r2 is |rA - rB|^2 (v holds |r|^2); particles per box is a parameter; forces "
                "accumulated in registers per neighbour box; float only",
    rtol=1e-3, atol=2e-3,
    tolerance_note="float32 expf over up to 2,700 terms per particle with cancellation in r2, "
                   "against float64",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference)
