"""stencil_naive: 3-D 7-point Jacobi sweeps by Parboil stencil's naive register-tiling kernel
(the WarpMan chapter's ST, Figs. 24-26): 32x32-thread blocks, one thread per (i, j) column;
interior threads march along z, boundary threads exit at once.

Follows: specs/xiang-simt-efficiency.md §2.2 item 2 (program-dependent imbalance: warps of
< 50 and ~1250 instructions) and Table 5's ST row (32 warps and one block per SM)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher
from warpsim.bench.spec import Benchmark, Params
from warpsim.bench.stencil import C0, C1, reference

__all__ = ["BENCHMARK", "BLOCK"]

BLOCK = (32, 32)
"""Threads per block (x, y): 1024 threads, 32 warps, one warp per row j (Table 5: ST 32)."""


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    if p["nx"] < 3 or p["ny"] < 3 or p["nz"] < 3:
        raise ValueError(f"stencil_naive needs nx, ny, nz >= 3, got {dict(p)}")
    return {"a": rng.random((p["nz"], p["ny"], p["nx"]), dtype=np.float32)}


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    nx, ny, nz = p["nx"], p["ny"], p["nz"]
    buf = [ctx.to_device(d["a"]), ctx.to_device(d["a"])]
    grid = (-(-nx // BLOCK[0]), -(-ny // BLOCK[1]))
    k = ctx.kernel("stencil_naive")
    for it in range(p["iterations"]):
        src, dst = buf[it % 2], buf[1 - it % 2]
        k[grid, BLOCK](np.float32(C0), np.float32(C1), src, dst, np.int32(nx),
                       np.int32(ny), np.int32(nz))
    return {"a": buf[p["iterations"] % 2].copy_to_host().reshape(nz, ny, nx)}


BENCHMARK = Benchmark(
    name="stencil_naive", suite="parboil", resembles="parboil/stencil (block2D_reg_tiling)",
    workload="the WarpMan chapter's ST: 64 blocks of 1024 threads, 8 of 32 warps interior in "
             "TB0 (Fig. 26)",
    kernels=("stencil_naive",), threads_per_block={"stencil_naive": 1024},
    sizes={"tiny": {"nx": 64, "ny": 10, "nz": 6, "iterations": 2},
           "small": {"nx": 960, "ny": 10, "nz": 52, "iterations": 1},
           "paper": {"nx": 2048, "ny": 10, "nz": 52, "iterations": 1}},
    launches="`iterations` launches, buffers swapped",
    differences="a thin slab (ny = 10) so that each 32x32 block has 8 interior rows (warps) "
                "and 24 boundary or past-the-edge rows, the warp mix of the dissertation's "
                "TB0; nz = 52 gives interior warps of ~1250 instructions (Fig. 25); "
                "__maxnreg__(24) (22 registers, the paper's compiler 17)",
    rtol=1e-5, atol=1e-6,
    tolerance_note="float32 sums of 6 neighbours against float64",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference)
