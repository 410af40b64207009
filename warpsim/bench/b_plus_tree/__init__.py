"""b_plus_tree: batched point and range queries on a B+ tree built on the host (like Rodinia
b+tree's findK and findRangeK)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK"]

_ORDER = 256
_INT_MAX = np.iinfo(np.int32).max
_KNODE = np.dtype({"names": ["location", "indices", "keys", "is_leaf", "num_keys"],
                   "formats": [np.int32, (np.int32, (_ORDER + 1,)), (np.int32, (_ORDER + 1,)),
                               np.bool_, np.int32],
                   "offsets": [0, 4, 4 + 4 * (_ORDER + 1), 4 + 8 * (_ORDER + 1),
                               8 + 8 * (_ORDER + 1)],
                   "itemsize": 12 + 8 * (_ORDER + 1)})


def _build(keys: np.ndarray, leaf_fill: int, fanout: int) -> tuple[np.ndarray, int, int]:
    """Nodes (root first), the root index and the number of internal levels."""
    levels: list[list[tuple[np.ndarray, np.ndarray, bool]]] = []
    leaves = [(keys[i:i + leaf_fill], np.arange(i, min(i + leaf_fill, keys.size)), True)
              for i in range(0, keys.size, leaf_fill)]
    levels.append(leaves)
    while len(levels[-1]) > 1:
        below = levels[-1]
        levels.append([(np.array([n[0][0] for n in below[i:i + fanout]]),
                        np.arange(i, min(i + fanout, len(below))), False)
                       for i in range(0, len(below), fanout)])
    # Number nodes root first, level by level; child indices are relative to the level below.
    bases, total = [], 0
    for lvl in reversed(levels):
        bases.append(total)
        total += len(lvl)
    bases.reverse()
    nodes = np.zeros(total, _KNODE)
    for li, lvl in enumerate(levels):
        for j, (k, idx, leaf) in enumerate(lvl):
            node = nodes[bases[li] + j]
            node["location"] = bases[li] + j
            node["keys"][:] = _INT_MAX
            node["keys"][:k.size] = k
            node["indices"][:idx.size] = idx if leaf else idx + bases[li - 1]
            node["is_leaf"] = leaf
            node["num_keys"] = k.size
    return nodes, bases[-1], len(levels) - 1


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    n, q = p["records"], p["queries"]
    keys = np.sort(rng.choice(10 * n, n, replace=False)).astype(np.int32)
    nodes, root, height = _build(keys, p["leaf_fill"], p["fanout"])
    present = rng.choice(keys, q)
    absent = rng.integers(keys[0], keys[-1], q).astype(np.int32)
    query = np.where(rng.random(q) < 0.9, present, absent).astype(np.int32)
    starts = rng.integers(0, n - p["range"], q)
    return {"keys": keys, "values": rng.integers(0, 1 << 30, n).astype(np.int32),
            "nodes": nodes, "root": root, "height": height, "query": query,
            "start": keys[starts], "end": keys[starts + p["range"]]}


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    q = d["query"].size
    nodes = ctx.to_device(d["nodes"])
    n_nodes, h = np.int64(d["nodes"].size), np.int64(d["height"])
    root = np.full(q, d["root"], np.int64)
    ans = ctx.to_device(np.full(q, -1, np.int32))
    ctx.kernel("find_k")[q, _ORDER](h, nodes, n_nodes, ctx.to_device(d["values"]),
                                    ctx.to_device(root), ctx.to_device(root),
                                    ctx.to_device(d["query"]), ans)
    recstart, reclen = ctx.zeros(q, np.int32), ctx.zeros(q, np.int32)
    ctx.kernel("find_range_k")[q, _ORDER](h, nodes, n_nodes, ctx.to_device(root),
                                          ctx.to_device(root), ctx.to_device(root),
                                          ctx.to_device(root), ctx.to_device(d["start"]),
                                          ctx.to_device(d["end"]), recstart, reclen)
    return {"answer": ans.copy_to_host(), "recstart": recstart.copy_to_host(),
            "reclen": reclen.copy_to_host()}


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    keys = d["keys"]
    pos = np.searchsorted(keys, d["query"])
    pos_c = np.minimum(pos, keys.size - 1)
    found = keys[pos_c] == d["query"]
    s = np.searchsorted(keys, d["start"])
    e = np.searchsorted(keys, d["end"])
    return {"answer": np.where(found, d["values"][pos_c], -1).astype(np.int32),
            "recstart": s.astype(np.int32), "reclen": (e - s + 1).astype(np.int32)}


BENCHMARK = Benchmark(
    name="b_plus_tree", suite="rodinia", resembles="rodinia/b+tree",
    workload="b+tree file mil.txt command.txt (1M records; findK 10,000 queries, findRangeK "
             "6,000 ranges)",
    kernels=("find_k", "find_range_k"),
    threads_per_block={"find_k": _ORDER, "find_range_k": _ORDER},
    sizes={"tiny": {"records": 2000, "queries": 8, "leaf_fill": 100, "fanout": 8, "range": 50},
           "small": {"records": 100_000, "queries": 256, "leaf_fill": 200, "fanout": 200,
                     "range": 100},
           "paper": {"records": 1_000_000, "queries": 10_000, "leaf_fill": 240,
                     "fanout": 240, "range": 100}},
    launches="find_k then find_range_k (2 launches)",
    differences="bulk-loaded tree with a fill parameter; random keys instead of mil.txt",
    tolerance_note="exact (int32)",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference)
