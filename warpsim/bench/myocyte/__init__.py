"""myocyte: independent register-resident ODE integrations, one per thread (the shape of Rodinia
myocyte; a Lorenz-96 system stands in for the cardiac model)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK"]

_TPB = 32
_NEQ = 24
_DT = 0.01


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    n = p["instances"]
    return {"init": rng.uniform(-1.0, 1.0, (_NEQ, n)).astype(np.float32),
            "forcing": rng.uniform(2.0, 4.0, n).astype(np.float32)}


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    n = p["instances"]
    out = ctx.empty(_NEQ * n, np.float32)
    ctx.kernel("myocyte_solver")[(n + _TPB - 1) // _TPB, _TPB](
        ctx.to_device(d["init"]), ctx.to_device(d["forcing"]), out, np.int32(n),
        np.int32(p["steps"]), np.float32(_DT))
    return {"state": out.copy_to_host().reshape(_NEQ, n)}


def _rhs(x: np.ndarray, f: np.ndarray) -> np.ndarray:
    return (np.roll(x, -1, axis=0) - np.roll(x, 2, axis=0)) * np.roll(x, 1, axis=0) - x + f


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    x = d["init"].astype(np.float64)
    f = d["forcing"].astype(np.float64)
    dt = float(np.float32(_DT))
    for _ in range(p["steps"]):
        k1 = _rhs(x, f)
        k2 = _rhs(x + 0.5 * dt * k1, f)
        k3 = _rhs(x + 0.5 * dt * k2, f)
        k4 = _rhs(x + dt * k3, f)
        x = x + dt / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4)
    return {"state": x}


BENCHMARK = Benchmark(
    name="myocyte", suite="rodinia", resembles="rodinia/myocyte",
    workload="myocyte 100 1 0 (one cardiac-myocyte instance over 100 ms; 32 threads per block)",
    kernels=("myocyte_solver",), threads_per_block={"myocyte_solver": _TPB},
    sizes={"tiny": {"instances": 64, "steps": 10}, "small": {"instances": 256, "steps": 50},
           "paper": {"instances": 1024, "steps": 100}},
    launches="1 launch",
    differences="a 24-variable Lorenz-96 system with classical RK4 replaces the 91-equation "
                "myocyte model and its adaptive solver; only the shape (per-thread state and "
                "stages in registers, long unrolled right-hand side) is kept",
    rtol=1e-4, atol=1e-4,
    tolerance_note="float32 RK4 against float64 over at most 1 time unit (weakly chaotic "
                   "forcing 2-4)",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference)
