"""bfs_queue: frontier-queue BFS with global and shared atomics, one launch per level and the
frontier size copied back (like Parboil bfs)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.bfs import BENCHMARK as _BFS
from warpsim.bench.harness import Launcher
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK"]

_TPB = 512
_INF = np.iinfo(np.int32).max


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    d = _BFS.generate(p, rng)  # the same graphgen-like random graph
    nodes = d["nodes"]
    row_ptr = np.zeros(nodes.shape[0] + 1, np.int32)
    row_ptr[1:] = np.cumsum(nodes[:, 1])
    return {"row_ptr": row_ptr, "cols": d["edges"], "source": d["source"]}


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    n = d["row_ptr"].size - 1
    cost = np.full(n, _INF, np.int32)
    cost[d["source"]] = 0
    g_cost = ctx.to_device(cost)
    row_ptr, cols = ctx.to_device(d["row_ptr"]), ctx.to_device(d["cols"])
    queues = [ctx.to_device(np.array([d["source"]] + [0] * (n - 1), np.int32)),
              ctx.empty(n, np.int32)]
    n_in, level = 1, 0
    while n_in > 0:
        tail = ctx.zeros(1, np.int32)
        ctx.kernel("bfs_level")[(n_in + _TPB - 1) // _TPB, _TPB](
            queues[0], np.int32(n_in), queues[1], tail, row_ptr, cols, g_cost, np.int32(level))
        n_in = int(tail.copy_to_host()[0])  # the frontier size, copied back each level
        queues.reverse()
        level += 1
    c = g_cost.copy_to_host()
    return {"cost": np.where(c == _INF, -1, c).astype(np.int32),
            "levels": np.array([level], np.int32)}


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    rp = d["row_ptr"]
    nodes = np.stack([rp[:-1], np.diff(rp)], axis=1)
    want = _BFS.reference({"nodes": nodes, "edges": d["cols"], "source": d["source"]},
                                   p)
    return {"cost": want["cost"], "levels": want["levels"]}


BENCHMARK = Benchmark(
    name="bfs_queue", suite="parboil", resembles="parboil/bfs",
    workload="Parboil bfs (SF / NY road graphs): one launch per level, frontier size D->H",
    kernels=("bfs_level",), threads_per_block={"bfs_level": _TPB},
    sizes={"tiny": {"nodes": 1024, "avg_degree": 4}, "small": {"nodes": 8192, "avg_degree": 4},
           "paper": {"nodes": 262144, "avg_degree": 4}},
    launches="one bfs_level launch per BFS level (the last one finds an empty frontier)",
    differences="one kernel variant (Parboil switches between a single-block, a few-block "
                "global-barrier and a many-block kernel by frontier size); random graph",
    tolerance_note="exact (BFS levels)",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference)
