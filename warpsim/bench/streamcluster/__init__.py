"""streamcluster: facility-location local search, one device gain evaluation per candidate
(like Rodinia streamcluster's pgain / kernel_compute_cost)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher, compare
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK"]

_TPB = 512
_POINT = np.dtype([("weight", np.float32), ("assign", np.int32), ("cost", np.float32)])


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    n, dim = p["n"], p["dim"]
    centres = rng.random((p["clusters"], dim)) * 4.0
    pts = centres[rng.integers(0, p["clusters"], n)] + rng.standard_normal((n, dim)) * 0.5
    return {"coord": pts.astype(np.float32),
            "candidates": rng.choice(n, p["candidates"], replace=False).astype(np.int32)}


def _dist2(coord: np.ndarray, idx: np.ndarray, x: int) -> np.ndarray:
    diff = coord[idx].astype(np.float64) - coord[x].astype(np.float64)
    return (diff * diff).sum(axis=1).astype(np.float32)


def _search(d: dict[str, Any], p: Params,
            gain: Callable[[np.ndarray, np.ndarray, np.ndarray, int, list[int]],
                           tuple[np.ndarray, np.ndarray]]) -> dict[str, np.ndarray]:
    """The host local search shared by the device run and the reference: only `gain` (the
    work_mem rows and switch flags of one candidate) differs."""
    coord = d["coord"]
    n = coord.shape[0]
    all_idx = np.arange(n)
    centres = list(range(p["k0"]))
    d2 = np.stack([_dist2(coord, all_idx, c) for c in centres], axis=1)
    assign = np.array(centres, np.int32)[np.argmin(d2, axis=1)]
    cost = d2.min(axis=1).astype(np.float32)
    z = np.float32(0.5 * cost.astype(np.float64).sum() / len(centres))
    for x in d["candidates"]:
        x = int(x)
        if x in centres:
            continue
        work, switch = gain(coord, assign, cost, x, centres)
        k = len(centres)
        lower = work.astype(np.float64).sum(axis=0)
        low = float(z) + lower[:k]
        close = low > 0
        delta = float(z) + lower[k] - low[close].sum()
        if delta < 0:
            table = {c: i for i, c in enumerate(centres)}
            ids = np.array([table[int(a)] for a in assign])
            move = (switch != 0) | close[ids]
            cost[move] = _dist2(coord, all_idx[move], x)
            assign[move] = x
            centres = [c for i, c in enumerate(centres) if not close[i]] + [x]
    return {"assign": assign, "cost": cost, "centres": np.array(sorted(centres), np.int32)}


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    n, dim = p["n"], p["dim"]
    d_coord = ctx.to_device(np.ascontiguousarray(d["coord"].T))
    grid = (n + _TPB - 1) // _TPB

    def gain(coord: np.ndarray, assign: np.ndarray, cost: np.ndarray, x: int,
             centres: list[int]) -> tuple[np.ndarray, np.ndarray]:
        k = len(centres)
        pts = np.zeros(n, _POINT)
        pts["weight"], pts["assign"], pts["cost"] = 1.0, assign, cost
        table = np.zeros(n, np.int32)
        table[centres] = np.arange(k, dtype=np.int32)
        work = ctx.zeros(n * (k + 1), np.float32)
        switch = ctx.zeros(n, np.uint8)
        ctx.kernel("compute_cost")[grid, _TPB, 0, 4 * dim](
            np.int32(n), np.int32(dim), np.int32(x), ctx.to_device(pts), np.int32(k),
            np.int32(k + 1), d_coord, work, ctx.to_device(table), switch)
        return work.copy_to_host().reshape(n, k + 1), switch.copy_to_host()

    return _search(d, p, gain)


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    def gain(coord: np.ndarray, assign: np.ndarray, cost: np.ndarray, x: int,
             centres: list[int]) -> tuple[np.ndarray, np.ndarray]:
        n, k = coord.shape[0], len(centres)
        diff = coord.astype(np.float64) - coord[x].astype(np.float64)
        x_cost = (diff * diff).sum(axis=1)
        c = cost.astype(np.float64)
        switch = x_cost < c
        work = np.zeros((n, k + 1))
        table = {cc: i for i, cc in enumerate(centres)}
        ids = np.array([table[int(a)] for a in assign])
        work[switch, k] = x_cost[switch] - c[switch]
        work[~switch, ids[~switch]] = c[~switch] - x_cost[~switch]
        return work, switch.astype(np.uint8)

    return _search(d, p, gain)


def verify(got: dict[str, np.ndarray], want: dict[str, np.ndarray], p: Params) -> list[str]:
    msgs = [compare("assign", got["assign"], want["assign"], 0, 0),
            compare("centres", got["centres"], want["centres"], 0, 0),
            compare("cost", got["cost"], want["cost"], 1e-5, 1e-6)]
    return [m for m in msgs if m]


BENCHMARK = Benchmark(
    name="streamcluster", suite="rodinia", resembles="rodinia/streamcluster",
    workload="streamcluster 10 20 256 65536 65536 1000 none output.txt 1",
    kernels=("compute_cost",), threads_per_block={"compute_cost": _TPB},
    sizes={"tiny": {"n": 512, "dim": 16, "clusters": 6, "k0": 3, "candidates": 6},
           "small": {"n": 8192, "dim": 32, "clusters": 10, "k0": 5, "candidates": 20},
           "paper": {"n": 65536, "dim": 256, "clusters": 20, "k0": 10, "candidates": 100}},
    launches="one launch per candidate facility of the host local search (data-dependent "
             "host work and copies between launches)",
    differences="one local-search pass over a fixed candidate list (the original repeats "
                "pFL with random candidates and stream chunks)",
    tolerance_note="assignments and centres exact (a tie between x_cost and cost would show "
                   "up); costs rtol 1e-5",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference, verify=verify)
