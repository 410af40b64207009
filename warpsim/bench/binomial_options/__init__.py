"""binomial_options: European options on a binomial tree, one block per option (like SDK 4.2
binomialOptions)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK"]

_TPB = 256
_R, _V = 0.06, 0.10
_OPTION = np.dtype([("S", np.float32), ("X", np.float32), ("vDt", np.float32),
                    ("puByDf", np.float32), ("pdByDf", np.float32)])


def _tree(s: np.ndarray, x: np.ndarray, t: np.ndarray, n: int) -> np.ndarray:
    dt = t / n
    vdt = _V * np.sqrt(dt)
    rdt = _R * dt
    u, d = np.exp(vdt), np.exp(-vdt)
    pu = (np.exp(rdt) - d) / (u - d)
    df = np.exp(-rdt)
    opts = np.zeros(s.size, _OPTION)
    opts["S"], opts["X"], opts["vDt"] = s, x, vdt
    opts["puByDf"], opts["pdByDf"] = pu * df, (1.0 - pu) * df
    return opts


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    n = p["options"]
    return {"s": rng.uniform(5.0, 30.0, n), "x": rng.uniform(1.0, 100.0, n),
            "t": rng.uniform(0.25, 10.0, n)}


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    n, steps = p["options"], p["steps"]
    opts = _tree(d["s"], d["x"], d["t"], steps)
    out = ctx.empty(n, np.float32)
    ctx.kernel("binomial_options")[n, _TPB](ctx.to_device(opts), out, np.int32(steps))
    return {"call": out.copy_to_host()}


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    steps = p["steps"]
    o = _tree(d["s"], d["x"], d["t"], steps)
    s, x, vdt = (o[k].astype(np.float64) for k in ("S", "X", "vDt"))
    pu, pd = o["puByDf"].astype(np.float64), o["pdByDf"].astype(np.float64)
    i = np.arange(steps + 1)
    c = np.maximum(s[:, None] * np.exp(vdt[:, None] * (2 * i - steps)) - x[:, None], 0.0)
    for _ in range(steps):
        c = pu[:, None] * c[:, 1:] + pd[:, None] * c[:, :-1]
    return {"call": c[:, 0]}


BENCHMARK = Benchmark(
    name="binomial_options", suite="sdk", resembles="sdk42/binomialOptions",
    workload="binomialOptions: 1,024 options, 2,048 time steps, 256 threads per option",
    kernels=("binomial_options",), threads_per_block={"binomial_options": _TPB},
    sizes={"tiny": {"options": 4, "steps": 128}, "small": {"options": 64, "steps": 512},
           "paper": {"options": 1024, "steps": 2048}},
    launches="1 launch, one block per option",
    differences="the whole tree level in shared memory with a barrier per step (the sample "
                "tiles the levels to save barriers)",
    rtol=5e-4, atol=5e-4,
    tolerance_note="float32 backward induction over `steps` levels against float64",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference)
