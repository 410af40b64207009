"""monte_carlo_options: Monte Carlo European options, one block per option (like SDK 4.2
MonteCarlo's MonteCarloOneBlockPerOption)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK"]

_TPB = 256
_R, _V = 0.06, 0.10
_OPTION = np.dtype([("S", np.float32), ("X", np.float32), ("MuByT", np.float32),
                    ("VBySqrtT", np.float32), ("discount", np.float32)])


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    n = p["options"]
    t = rng.uniform(1.0, 2.0, n)
    opts = np.zeros(n, _OPTION)
    opts["S"] = rng.uniform(5.0, 50.0, n)
    opts["X"] = rng.uniform(10.0, 25.0, n)
    opts["MuByT"] = (_R - 0.5 * _V * _V) * t
    opts["VBySqrtT"] = _V * np.sqrt(t)
    opts["discount"] = np.exp(-_R * t)
    return {"options": opts,
            "samples": rng.standard_normal(p["paths"]).astype(np.float32)}


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    n = p["options"]
    out = ctx.empty((n, 2), np.float32)
    ctx.kernel("monte_carlo_one_block_per_option")[n, _TPB](
        ctx.to_device(d["options"]), ctx.to_device(d["samples"]), np.int32(p["paths"]), out)
    res = out.copy_to_host().reshape(n, 2)
    return {"expected": res[:, 0], "confidence": res[:, 1]}


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    o = {k: d["options"][k].astype(np.float64) for k in _OPTION.names}
    r = d["samples"].astype(np.float64)
    call = np.maximum(o["S"][:, None] * np.exp(o["MuByT"][:, None] + o["VBySqrtT"][:, None]
                                               * r[None, :]) - o["X"][:, None], 0.0)
    n = r.size
    mean = call.mean(axis=1)
    std = np.sqrt(np.maximum(((call * call).sum(axis=1) - n * mean * mean) / (n - 1), 0.0))
    return {"expected": o["discount"] * mean,
            "confidence": o["discount"] * 1.96 * std / np.sqrt(n)}


BENCHMARK = Benchmark(
    name="monte_carlo_options", suite="sdk", resembles="sdk42/MonteCarlo",
    workload="MonteCarlo: 256 options x 262,144 paths, one block per option",
    kernels=("monte_carlo_one_block_per_option",),
    threads_per_block={"monte_carlo_one_block_per_option": _TPB},
    sizes={"tiny": {"options": 4, "paths": 4096}, "small": {"options": 32, "paths": 32768},
           "paper": {"options": 256, "paths": 262144}},
    launches="1 launch (the sample also has a multi-block-per-option path and inverseCND)",
    differences="normal samples from the host (the sample generates quasi-random ones with "
                "inverseCNDKernel)",
    rtol=2e-4, atol=2e-4,
    tolerance_note="float32 sums of up to 2^18 payoffs and their squares against float64; the "
                   "confidence width subtracts two large sums",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference)
