"""bfs: level-synchronous BFS on a CSR graph, two kernels per level and a flag copied back
each level (like Rodinia bfs / ISPASS-2009 BFS)."""

from __future__ import annotations

from collections import deque
from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK"]

_TPB = 512


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    """A random graph like Rodinia's graphgen: each node gets 1..2*avg-1 random neighbours,
    edges added in both directions."""
    n, avg = p["nodes"], p["avg_degree"]
    deg = rng.integers(1, avg, n)
    src = np.repeat(np.arange(n), deg)
    dst = rng.integers(0, n, src.size)
    both_src = np.concatenate([src, dst])
    both_dst = np.concatenate([dst, src])
    order = np.argsort(both_src, kind="stable")
    edges = both_dst[order].astype(np.int32)
    counts = np.bincount(both_src, minlength=n).astype(np.int32)
    starts = np.zeros(n, np.int32)
    starts[1:] = np.cumsum(counts)[:-1]
    nodes = np.stack([starts, counts], axis=1).astype(np.int32)
    return {"nodes": nodes, "edges": edges, "source": 0}


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    n = d["nodes"].shape[0]
    src = d["source"]
    mask = np.zeros(n, np.uint8)
    mask[src] = 1
    cost = np.full(n, -1, np.int32)
    cost[src] = 0
    g_nodes, g_edges = ctx.to_device(d["nodes"]), ctx.to_device(d["edges"])
    g_mask, g_visited = ctx.to_device(mask), ctx.to_device(mask.copy())
    g_updating = ctx.zeros(n, np.uint8)
    g_cost = ctx.to_device(cost)
    grid = (n + _TPB - 1) // _TPB
    expand, update = ctx.kernel("bfs_expand"), ctx.kernel("bfs_update")
    levels = 0
    while True:
        g_over = ctx.zeros(1, np.uint8)
        expand[grid, _TPB](g_nodes, g_edges, g_mask, g_updating, g_visited, g_cost, np.int32(n))
        update[grid, _TPB](g_mask, g_updating, g_visited, g_over, np.int32(n))
        levels += 1
        if not g_over.copy_to_host()[0]:
            break
    return {"cost": g_cost.copy_to_host(), "levels": np.array([levels], np.int32)}


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    nodes, edges = d["nodes"], d["edges"]
    n = nodes.shape[0]
    cost = np.full(n, -1, np.int32)
    cost[d["source"]] = 0
    queue = deque([d["source"]])
    while queue:
        u = queue.popleft()
        for v in edges[nodes[u, 0]:nodes[u, 0] + nodes[u, 1]]:
            if cost[v] < 0:
                cost[v] = cost[u] + 1
                queue.append(int(v))
    return {"cost": cost, "levels": np.array([cost.max() + 1], np.int32)}


BENCHMARK = Benchmark(
    name="bfs", suite="rodinia", resembles="rodinia/bfs",
    workload="bfs graph65536.txt (65,536 nodes, ~6 edges per node): 2 kernels x levels",
    kernels=("bfs_expand", "bfs_update"),
    threads_per_block={"bfs_expand": _TPB, "bfs_update": _TPB},
    sizes={"tiny": {"nodes": 1024, "avg_degree": 4}, "small": {"nodes": 4096, "avg_degree": 4},
           "paper": {"nodes": 65536, "avg_degree": 4}},
    launches="per level: bfs_expand, bfs_update, flag copied back; until no node is updated",
    differences="synthetic graph (graphgen-like) instead of the shipped graph files",
    tolerance_note="exact (BFS levels; the level count includes the final empty level)",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference)
