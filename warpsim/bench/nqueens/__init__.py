"""nqueens: N-queens solution counts under host-enumerated prefixes, a shared-memory DFS stack
per thread (like ISPASS-2009 NQU)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK"]

_TPB = 96
_KNOWN = {4: 2, 5: 10, 6: 4, 7: 40, 8: 92, 9: 352, 10: 724, 11: 2680, 12: 14200, 13: 73712}
"""Published totals (OEIS A000170), an extra check of the reference."""


def _prefixes(n: int, depth: int) -> list[tuple[int, int, int]]:
    out: list[tuple[int, int, int]] = []

    def rec(row: int, cols: int, ld: int, rd: int) -> None:
        if row == depth:
            out.append((cols, ld, rd))
            return
        avail = ((1 << n) - 1) & ~(cols | ld | rd)
        while avail:
            bit = avail & -avail
            avail ^= bit
            rec(row + 1, cols | bit, ((ld | bit) << 1) & 0xFFFFFFFF, (rd | bit) >> 1)

    rec(0, 0, 0, 0)
    return out


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    pre = np.array(_prefixes(p["n"], p["depth"]), np.uint32).reshape(-1, 3)
    return {"prefixes": pre}


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    pre = d["prefixes"]
    m = pre.shape[0]
    counts = ctx.zeros(m, np.uint32)
    ctx.kernel("nqueen")[(m + _TPB - 1) // _TPB, _TPB](
        ctx.to_device(pre[:, 0].copy()), ctx.to_device(pre[:, 1].copy()),
        ctx.to_device(pre[:, 2].copy()), counts, np.int32(p["n"]),
        np.int32(p["n"] - p["depth"]), np.int32(m))
    c = counts.copy_to_host()
    return {"counts": c, "total": np.array([c.sum(dtype=np.uint64)], np.uint64)}


def _count(n: int, cols: int, ld: int, rd: int, left: int) -> int:
    if left == 0:
        return 1
    total = 0
    avail = ((1 << n) - 1) & ~(cols | ld | rd)
    while avail:
        bit = avail & -avail
        avail ^= bit
        total += _count(n, cols | bit, (ld | bit) << 1, (rd | bit) >> 1, left - 1)
    return total


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    n, left = p["n"], p["n"] - p["depth"]
    counts = np.array([_count(n, int(c), int(ld), int(rd), left) for c, ld, rd in d["prefixes"]],
                      np.uint32)
    total = int(counts.sum())
    if n in _KNOWN and total != _KNOWN[n]:
        raise RuntimeError(f"nqueens reference counts {total} solutions for n={n}, "
                           f"expected {_KNOWN[n]}")
    return {"counts": counts, "total": np.array([total], np.uint64)}


BENCHMARK = Benchmark(
    name="nqueens", suite="ispass2009", resembles="ispass2009/NQU",
    workload="NQU (N-queens with CPU-enumerated prefixes, 96 threads per block)",
    kernels=("nqueen",), threads_per_block={"nqueen": _TPB},
    sizes={"tiny": {"n": 7, "depth": 2}, "small": {"n": 10, "depth": 3},
           "paper": {"n": 12, "depth": 3}},
    launches="1 launch over all prefixes",
    differences="explicit per-level masks in shared memory; no symmetry folding",
    tolerance_note="exact (counts; totals also checked against OEIS A000170)",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference)
