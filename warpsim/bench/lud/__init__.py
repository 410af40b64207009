"""lud: blocked in-place LU decomposition, three kernels per 16-wide step (like Rodinia lud)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK"]

_BS = 16


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    n = p["n"]
    if n % _BS:
        raise ValueError(f"lud needs a multiple of {_BS}, got {n}")
    a = rng.random((n, n)) + np.eye(n) * n  # diagonally dominant: stable without pivoting
    return {"a": a.astype(np.float32)}


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    n = p["n"]
    m = ctx.to_device(d["a"])
    dim = np.int32(n)
    for it in range(0, n - _BS, _BS):
        off = np.int32(it)
        ctx.kernel("lud_diagonal")[1, _BS](m, dim, off)
        nb = (n - it) // _BS - 1
        ctx.kernel("lud_perimeter")[nb, 2 * _BS](m, dim, off)
        ctx.kernel("lud_internal")[(nb, nb), (_BS, _BS)](m, dim, off)
    ctx.kernel("lud_diagonal")[1, _BS](m, dim, np.int32(n - _BS))
    return {"lu": m.copy_to_host().reshape(n, n)}


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    a = d["a"].astype(np.float64)
    n = a.shape[0]
    for k in range(n - 1):
        a[k + 1:, k] /= a[k, k]
        a[k + 1:, k + 1:] -= np.outer(a[k + 1:, k], a[k, k + 1:])
    return {"lu": a}


BENCHMARK = Benchmark(
    name="lud", suite="rodinia", resembles="rodinia/lud",
    workload="lud -s 256 (256x256): 46 launches; -s 512: 94",
    kernels=("lud_diagonal", "lud_perimeter", "lud_internal"),
    threads_per_block={"lud_diagonal": _BS, "lud_perimeter": 2 * _BS, "lud_internal": _BS * _BS},
    sizes={"tiny": {"n": 48}, "small": {"n": 256}, "paper": {"n": 512}},
    launches="per step: lud_diagonal, lud_perimeter, lud_internal; a last lud_diagonal "
             "(3(n/16-1)+1)",
    differences="right-looking factorisation of the diagonal tile; random diagonally dominant "
                "matrix",
    rtol=1e-4, atol=1e-5,
    tolerance_note="float32 LU of a diagonally dominant matrix against float64",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference)
