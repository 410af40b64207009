"""kmeans: nearest-centre assignment on the device, centre update on the host, iterated until
no point moves (like Rodinia kmeans)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher, compare
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK"]

_TPB = 256


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    n, f, k = p["npoints"], p["nfeatures"], p["nclusters"]
    centres = rng.random((k, f)) * 10.0
    labels = rng.integers(0, k, n)
    points = centres[labels] + rng.standard_normal((n, f)) * 2.0
    return {"points": points.astype(np.float32)}


def _update(points: np.ndarray, member: np.ndarray, old: np.ndarray) -> np.ndarray:
    """Host centre update (float64 means; an empty cluster keeps its centre)."""
    new = old.copy()
    for c in range(old.shape[0]):
        sel = member == c
        if sel.any():
            new[c] = points[sel].astype(np.float64).mean(axis=0)
    return new.astype(np.float32)


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    n, f, k = p["npoints"], p["nfeatures"], p["nclusters"]
    pts = d["points"]
    grid = (n + _TPB - 1) // _TPB
    d_in = ctx.to_device(pts)
    d_flip = ctx.empty(n * f, np.float32)
    ctx.kernel("invert_mapping")[grid, _TPB](d_in, d_flip, np.int32(n), np.int32(f))
    tex = ctx.texture(d_flip)
    d_member = ctx.empty(n, np.int32)
    centres = pts[:k].copy()
    member = np.full(n, -1, np.int32)
    iters = 0
    for _ in range(p["max_iterations"]):
        ctx.set_symbol("c_clusters", centres.reshape(-1))
        ctx.kernel("kmeans_point")[grid, _TPB](tex, np.int32(f), np.int32(n), np.int32(k),
                                               d_member)
        new_member = d_member.copy_to_host()
        delta = int((new_member != member).sum())
        member = new_member
        centres = _update(pts, member, centres)
        iters += 1
        if delta == 0:
            break
    return {"membership": member, "centres": centres, "iterations": np.array([iters])}


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    pts = d["points"]
    k = p["nclusters"]
    centres = pts[:k].copy()
    member = np.full(pts.shape[0], -1, np.int32)
    iters = 0
    for _ in range(p["max_iterations"]):
        diff = pts.astype(np.float64)[:, None, :] - centres.astype(np.float64)[None, :, :]
        new_member = np.argmin((diff * diff).sum(axis=2), axis=1).astype(np.int32)
        delta = int((new_member != member).sum())
        member = new_member
        centres = _update(pts, member, centres)
        iters += 1
        if delta == 0:
            break
    return {"membership": member, "centres": centres, "iterations": np.array([iters])}


def verify(got: dict[str, np.ndarray], want: dict[str, np.ndarray], p: Params) -> list[str]:
    """Memberships and iteration count exact, centres to float32 rounding."""
    msgs = [compare("membership", got["membership"], want["membership"], 0, 0),
            compare("iterations", got["iterations"], want["iterations"], 0, 0),
            compare("centres", got["centres"], want["centres"], 1e-5, 1e-5)]
    return [m for m in msgs if m]


BENCHMARK = Benchmark(
    name="kmeans", suite="rodinia", resembles="rodinia/kmeans",
    workload="kmeans -i kdd_cup (494,020 points, 34 features, 5 clusters)",
    kernels=("invert_mapping", "kmeans_point"),
    threads_per_block={"invert_mapping": _TPB, "kmeans_point": _TPB},
    sizes={"tiny": {"npoints": 512, "nfeatures": 8, "nclusters": 5, "max_iterations": 4},
           "small": {"npoints": 8192, "nfeatures": 34, "nclusters": 5, "max_iterations": 10},
           "paper": {"npoints": 204800, "nfeatures": 34, "nclusters": 5,
                     "max_iterations": 20}},
    launches="invert_mapping once; per iteration kmeans_point, membership copied back, host "
             "centre update, until no point moves (or max_iterations)",
    differences="Gaussian blobs instead of kdd_cup; a cap on iterations; no shared-memory "
                "centre accumulation",
    tolerance_note="memberships exact (a near-tie between two centres would show up here); "
                   "centres rtol 1e-5",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference, verify=verify)
