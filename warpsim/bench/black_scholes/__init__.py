"""black_scholes: European option pricing with a polynomial CND (like SDK 4.2 BlackScholes)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK"]

_TPB = 128
_R, _V = 0.02, 0.30


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    n = p["n"]
    return {"s": rng.uniform(5.0, 30.0, n).astype(np.float32),
            "x": rng.uniform(1.0, 100.0, n).astype(np.float32),
            "t": rng.uniform(0.25, 10.0, n).astype(np.float32)}


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    n = p["n"]
    s, x, t = ctx.to_device(d["s"]), ctx.to_device(d["x"]), ctx.to_device(d["t"])
    call, put = ctx.empty(n, np.float32), ctx.empty(n, np.float32)
    blocks = min(p["blocks"], (n + _TPB - 1) // _TPB)
    ctx.kernel("black_scholes")[blocks, _TPB](call, put, s, x, t, np.float32(_R),
                                              np.float32(_V), np.int32(n))
    return {"call": call.copy_to_host(), "put": put.copy_to_host()}


def _cnd(d: np.ndarray) -> np.ndarray:
    a1, a2, a3, a4, a5 = 0.31938153, -0.356563782, 1.781477937, -1.821255978, 1.330274429
    k = 1.0 / (1.0 + 0.2316419 * np.abs(d))
    c = (1.0 / np.sqrt(2 * np.pi)) * np.exp(-0.5 * d * d) * (
        k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))))
    return np.where(d > 0, 1.0 - c, c)


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    s, x, t = (d[k].astype(np.float64) for k in ("s", "x", "t"))
    r, v = float(np.float32(_R)), float(np.float32(_V))
    sq = np.sqrt(t)
    d1 = (np.log(s / x) + (r + 0.5 * v * v) * t) / (v * sq)
    d2 = d1 - v * sq
    c1, c2 = _cnd(d1), _cnd(d2)
    e = np.exp(-r * t)
    return {"call": s * c1 - x * e * c2, "put": x * e * (1.0 - c2) - s * (1.0 - c1)}


BENCHMARK = Benchmark(
    name="black_scholes", suite="sdk", resembles="sdk42/BlackScholes",
    workload="BlackScholes: 4,000,000 options, 480 blocks x 128 threads, 1 iteration",
    kernels=("black_scholes",), threads_per_block={"black_scholes": _TPB},
    sizes={"tiny": {"n": 1024, "blocks": 4}, "small": {"n": 65536, "blocks": 120},
           "paper": {"n": 4_000_000, "blocks": 480}},
    launches="1 launch (gpu-app-collection runs 1 iteration)",
    differences="options per thread set by the grid (tiny: 2 per thread)",
    rtol=1e-4, atol=2e-4,
    tolerance_note="float32 expf/logf/sqrtf and the same CND polynomial in float64; prices "
                   "up to ~30, cancellation in S*cnd1 - X*e*cnd2",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference)
