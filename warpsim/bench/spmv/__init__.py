"""spmv: sparse matrix-vector product in JDS and CSR formats (like Parboil spmv, JDS repeated)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK"]

_TPB = 192
_WARP = 32


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    """A random matrix with skewed row lengths (1 + a geometric tail, at most max_row)."""
    n = p["rows"]
    lengths = np.minimum(1 + rng.geometric(1.0 / p["mean_row"], n), p["max_row"])
    row_ptr = np.zeros(n + 1, np.int32)
    row_ptr[1:] = np.cumsum(lengths)
    cols = np.concatenate([np.sort(rng.choice(n, k, replace=False)) for k in lengths])
    vals = rng.uniform(-1.0, 1.0, cols.size).astype(np.float32)
    return {"row_ptr": row_ptr, "cols": cols.astype(np.int32), "vals": vals,
            "x": rng.uniform(-1.0, 1.0, n).astype(np.float32)}


def _to_jds(d: dict[str, Any]) -> tuple[np.ndarray, ...]:
    """JDS with rows sorted by length (descending) and padding to each 32-row chunk's maximum."""
    rp = d["row_ptr"]
    n = rp.size - 1
    lengths = np.diff(rp)
    perm = np.argsort(-lengths, kind="stable").astype(np.int32)
    n_pad = (n + _WARP - 1) // _WARP * _WARP
    sorted_len = np.zeros(n_pad, np.int64)
    sorted_len[:n] = lengths[perm]
    zcnt = sorted_len.reshape(-1, _WARP).max(axis=1).astype(np.int32)
    ndiag = int(zcnt.max())
    rows_in_diag = np.array([_WARP * int((zcnt > k).sum()) for k in range(ndiag)])
    jds_ptr = np.zeros(ndiag, np.int32)
    jds_ptr[1:] = np.cumsum(rows_in_diag)[:-1]
    data = np.zeros(int(rows_in_diag.sum()), np.float32)
    index = np.zeros(data.size, np.int32)
    inv = np.empty(n, np.int64)
    inv[perm] = np.arange(n)
    row_of = np.repeat(np.arange(n), lengths)
    pos = jds_ptr[np.arange(row_of.size) - rp[row_of]] + inv[row_of]
    data[pos] = d["vals"]
    index[pos] = d["cols"]
    return data, index, perm, jds_ptr, zcnt


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    n = d["row_ptr"].size - 1
    data, index, perm, jds_ptr, zcnt = _to_jds(d)
    if jds_ptr.size > 1024 or zcnt.size > 8192:
        raise ValueError("matrix too large for the constant-memory JDS tables")
    ctx.set_symbol("jds_ptr_int", np.pad(jds_ptr, (0, 1024 - jds_ptr.size)))
    ctx.set_symbol("sh_zcnt_int", np.pad(zcnt, (0, 8192 - zcnt.size)))
    x = ctx.to_device(d["x"])
    y_jds, y_csr = ctx.empty(n, np.float32), ctx.empty(n, np.float32)
    g_data, g_index, g_perm = ctx.to_device(data), ctx.to_device(index), ctx.to_device(perm)
    grid = (n + _TPB - 1) // _TPB
    for _ in range(p["repeats"]):
        ctx.kernel("spmv_jds")[grid, _TPB](y_jds, g_data, g_index, g_perm, x, np.int32(n))
    ctx.kernel("spmv_csr")[grid, _TPB](y_csr, ctx.to_device(d["row_ptr"]),
                                       ctx.to_device(d["cols"]), ctx.to_device(d["vals"]), x,
                                       np.int32(n))
    return {"y_jds": y_jds.copy_to_host(), "y_csr": y_csr.copy_to_host()}


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    rp = d["row_ptr"]
    prod = d["vals"].astype(np.float64) * d["x"].astype(np.float64)[d["cols"]]
    y = np.add.reduceat(prod, rp[:-1]) if prod.size else np.zeros(rp.size - 1)
    return {"y_jds": y, "y_csr": y}


BENCHMARK = Benchmark(
    name="spmv", suite="parboil", resembles="parboil/spmv",
    workload="spmv large (Dubcova3: 146,689 rows, 3.6M non-zeros), spmv_jds x 50",
    kernels=("spmv_jds", "spmv_csr"), threads_per_block={"spmv_jds": _TPB, "spmv_csr": _TPB},
    sizes={"tiny": {"rows": 1024, "mean_row": 6, "max_row": 40, "repeats": 2},
           "small": {"rows": 16384, "mean_row": 12, "max_row": 100, "repeats": 5},
           "paper": {"rows": 146689, "mean_row": 24, "max_row": 200, "repeats": 50}},
    launches="spmv_jds `repeats` times (Parboil repeats 50), then spmv_csr once",
    differences="random skewed matrix instead of Dubcova3; plain gathers instead of a texture",
    rtol=1e-5, atol=1e-5,
    tolerance_note="float32 dot products of up to max_row terms against float64",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference)
