"""tpacf: angular two-point correlation histograms, DD / DR / RR pair sets in one launch (like
Parboil tpacf)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK"]

_TPB = 256
_NUM_BINS = 20
_SLOTS = _NUM_BINS + 2


def _binb() -> np.ndarray:
    """Bin boundaries: cos of log-spaced angles from 1 to 10,000 arcminutes, decreasing."""
    arcmin = np.logspace(0.0, 4.0, _NUM_BINS + 1)
    return np.cos(arcmin / 60.0 * np.pi / 180.0).astype(np.float32)


def _unit(n: int, rng: np.random.Generator) -> np.ndarray:
    v = rng.standard_normal((n, 3))
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    n, s = p["npoints"], p["nsets"]
    # Data points clustered around a few directions; random sets uniform on the sphere.
    centres = _unit(8, rng)
    data = centres[rng.integers(0, 8, n)] + 0.05 * rng.standard_normal((n, 3))
    data /= np.linalg.norm(data, axis=1, keepdims=True)
    pts = np.concatenate([data] + [_unit(n, rng) for _ in range(s)]).astype(np.float32)
    return {"points": pts}


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    n, s = p["npoints"], p["nsets"]
    pts = d["points"]
    ctx.set_symbol("c_binb", _binb())
    gx = (n + _TPB - 1) // _TPB
    hist = ctx.empty((2 * s + 1) * gx * _SLOTS, np.uint32)
    ctx.kernel("gen_hists")[(gx, 2 * s + 1), _TPB](
        hist, ctx.to_device(pts[:, 0].copy()), ctx.to_device(pts[:, 1].copy()),
        ctx.to_device(pts[:, 2].copy()), np.int32(n), np.int32(s))
    h = hist.copy_to_host().reshape(2 * s + 1, gx, _SLOTS).sum(axis=1, dtype=np.uint64)
    return {"hist": h.astype(np.uint32)}


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    n, s = p["npoints"], p["nsets"]
    pts = d["points"].reshape(s + 1, n, 3)
    binb = _binb()
    out = np.zeros((2 * s + 1, _SLOTS), np.uint32)
    pairs = [(0, 0)] + [(0, r) for r in range(1, s + 1)] + [(r, r) for r in range(1, s + 1)]
    for k, (a, b) in enumerate(pairs):
        pa, pb = pts[a], pts[b]
        # Same rounding as the kernel: float32 products, summed left to right in float32.
        dot = (pa[:, None, 0] * pb[None, :, 0] + pa[:, None, 1] * pb[None, :, 1]).astype(
            np.float32) + pa[:, None, 2] * pb[None, :, 2]
        if a == b:
            dot = dot[np.triu_indices(n, 1)]
        # Number of boundaries strictly above dot (binb is decreasing).
        bins = binb.size - np.searchsorted(binb[::-1], dot.reshape(-1), side="right")
        out[k] = np.bincount(bins, minlength=_SLOTS)
    return {"hist": out}


BENCHMARK = Benchmark(
    name="tpacf", suite="parboil", resembles="parboil/tpacf",
    workload="tpacf small (Datapnts.1 + random sets, 20 angular bins)",
    kernels=("gen_hists",), threads_per_block={"gen_hists": _TPB},
    sizes={"tiny": {"npoints": 128, "nsets": 1}, "small": {"npoints": 1024, "nsets": 3},
           "paper": {"npoints": 4096, "nsets": 10}},
    launches="1 launch: (npoints/256) x (2 nsets + 1) blocks",
    differences="dot products with explicit round-to-nearest mul/add (no fma contraction) so "
                "the bins are bit-exact against numpy; synthetic clustered data",
    tolerance_note="exact (counts)",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference)
