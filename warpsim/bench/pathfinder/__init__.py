"""pathfinder: pyramid-blocked dynamic programming down a grid (like Rodinia pathfinder)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK"]

_BS = 256


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    return {"wall": rng.integers(0, 10, (p["rows"], p["cols"]), dtype=np.int32)}


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    rows, cols, pyr = p["rows"], p["cols"], p["pyramid"]
    wall = d["wall"]
    border = pyr * 1
    small = _BS - 2 * border
    grid = (cols + small - 1) // small
    g_wall = ctx.to_device(wall[1:])
    buf = [ctx.to_device(wall[0]), ctx.empty(cols, np.int32)]
    src = 0
    k = ctx.kernel("dynproc_kernel")
    for t in range(0, rows - 1, pyr):
        it = min(pyr, rows - 1 - t)
        k[grid, _BS](np.int32(it), g_wall, buf[src], buf[1 - src], np.int32(cols),
                     np.int32(rows), np.int32(t), np.int32(border))
        src = 1 - src
    return {"result": buf[src].copy_to_host()}


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    wall = d["wall"]
    cur = wall[0].copy()
    for r in range(1, wall.shape[0]):
        e = np.pad(cur, 1, mode="edge")
        cur = np.minimum(np.minimum(e[:-2], e[1:-1]), e[2:]) + wall[r]
    return {"result": cur}


BENCHMARK = Benchmark(
    name="pathfinder", suite="rodinia", resembles="rodinia/pathfinder",
    workload="pathfinder 100000 100 20 (100,000 columns, 100 rows, pyramid height 20)",
    kernels=("dynproc_kernel",), threads_per_block={"dynproc_kernel": _BS},
    sizes={"tiny": {"cols": 1000, "rows": 21, "pyramid": 10},
           "small": {"cols": 10000, "rows": 41, "pyramid": 20},
           "paper": {"cols": 100_000, "rows": 100, "pyramid": 20}},
    launches="ceil((rows - 1) / pyramid) launches, ping-pong row buffers",
    differences="none of substance",
    tolerance_note="exact (int32)",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference)
