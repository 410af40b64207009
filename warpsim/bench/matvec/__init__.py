"""matvec: a dense matrix-vector product y = A x, one thread per row (the dissertation's MV).

Follows: specs/xiang-simt-efficiency.md §3.3 (workloads: MV, "matrix-vector multiply [A]", high
TLP, a single kernel; Xiang's Table 7 is lost, so the program and input are our own).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK"]

_TPB = 256


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    rows, cols = p["rows"], p["cols"]
    return {"a": rng.random((rows, cols), dtype=np.float32),
            "x": rng.random(cols, dtype=np.float32)}


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    rows, cols = p["rows"], p["cols"]
    y = ctx.empty(rows, np.float32)
    a_colmajor = np.ascontiguousarray(d["a"].T)
    ctx.kernel("matvec")[-(-rows // _TPB), _TPB](
        y, ctx.to_device(a_colmajor), ctx.to_device(d["x"]), np.int32(rows), np.int32(cols))
    return {"y": y.copy_to_host()}


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    return {"y": d["a"].astype(np.float64) @ d["x"].astype(np.float64)}


BENCHMARK = Benchmark(
    name="matvec", suite="other", resembles="xiang/MV",
    workload="MV (Xiang's dissertation ch. 4, program not named): y = A x, one thread per row",
    kernels=("matvec",), threads_per_block={"matvec": _TPB},
    sizes={"tiny": {"rows": 600, "cols": 300},
           "small": {"rows": 36864, "cols": 32},
           "paper": {"rows": 65536, "cols": 256}},
    launches="1 launch",
    differences="the dissertation names no source or input for MV: a plain column-major "
                "one-thread-per-row product of our own, x staged in shared memory",
    rtol=1e-4, atol=1e-5,
    tolerance_note="float32 sequential fma sums of <= 300 terms in [0,1) against float64",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference)
