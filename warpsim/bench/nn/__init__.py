"""nn: distances to a target and the k nearest records (like Rodinia nn)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK"]

_TPB = 256
_LAT, _LNG = 30.0, 90.0


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    n = p["n"]
    loc = np.stack([rng.uniform(7.0, 63.0, n), rng.uniform(0.0, 358.0, n)], axis=1)
    return {"loc": loc.astype(np.float32)}


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    n = p["n"]
    loc = ctx.to_device(d["loc"])
    dist = ctx.empty(n, np.float32)
    blocks = (n + _TPB - 1) // _TPB
    ctx.kernel("euclid")[blocks, _TPB](loc, dist, np.int32(n), np.float32(_LAT),
                                       np.float32(_LNG))
    h = dist.copy_to_host()
    return {"distances": h, "nearest": np.argsort(h, kind="stable")[:p["k"]]}


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    loc = d["loc"].astype(np.float64)
    dist = np.sqrt((_LAT - loc[:, 0]) ** 2 + (_LNG - loc[:, 1]) ** 2)
    return {"distances": dist, "nearest": np.argsort(dist, kind="stable")[:p["k"]]}


BENCHMARK = Benchmark(
    name="nn", suite="rodinia", resembles="rodinia/nn",
    workload="nn filelist_4 -r 5 -lat 30 -lng 90 (42,764 hurricane records)",
    kernels=("euclid",), threads_per_block={"euclid": _TPB},
    sizes={"tiny": {"n": 2000, "k": 5}, "small": {"n": 42764, "k": 5},
           "paper": {"n": 42764, "k": 5}},
    launches="1 launch; the host selects the k nearest",
    differences="uniform random records instead of hurricane_gen files",
    rtol=1e-6, atol=1e-5,
    tolerance_note="float32 sqrt of a sum of two squares against float64; the k nearest exact",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference)
