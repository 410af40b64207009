"""cutcp: binned cutoff Coulomb potential on a lattice, one launch per z-slab (like Parboil
cutcp)."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK"]

_DEPTH = 8
_REGION = 8
_H = 0.5
_CUTOFF = _REGION * _H  # bins are regions, so the 27 neighbour bins cover the cutoff sphere
_OFFSETS = np.array(list(itertools.product((-1, 0, 1), repeat=3)), np.int32)
_FAR = 1.0e6


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    nb = (p["nx"] // _REGION, p["ny"] // _REGION, p["nz"] // _REGION)
    bins = np.zeros((nb[2], nb[1], nb[0], _DEPTH, 4), np.float32)
    bins[..., :3] = _FAR
    edge = _REGION * _H
    for k, j, i in itertools.product(range(nb[2]), range(nb[1]), range(nb[0])):
        count = int(rng.integers(2, _DEPTH + 1))
        pos = (np.array([i, j, k]) + rng.random((count, 3))) * edge
        bins[k, j, i, :count, :3] = pos
        bins[k, j, i, :count, 3] = rng.uniform(-1.0, 1.0, count)
    return {"bins": bins}


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    nx, ny, nz = p["nx"], p["ny"], p["nz"]
    nbx, nby, nbz = nx // _REGION, ny // _REGION, nz // _REGION
    ctx.set_symbol("c_nbr_offsets", _OFFSETS.reshape(-1))
    bins = ctx.to_device(d["bins"])
    lattice = ctx.zeros(nx * ny * nz, np.float32)
    c2 = np.float32(_CUTOFF * _CUTOFF)
    k = ctx.kernel("cutoff_potential")
    for zr in range(nbz):
        k[(nbx, nby), (8, 2, 8)](np.int32(nbx), np.int32(nby), np.int32(nbz), bins,
                                 np.float32(_H), c2, np.float32(1.0) / c2, lattice,
                                 np.int32(nx), np.int32(ny), np.int32(zr),
                                 np.int32(len(_OFFSETS)))
    return {"lattice": lattice.copy_to_host().reshape(nz, ny, nx)}


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    nx, ny, nz = p["nx"], p["ny"], p["nz"]
    bins = d["bins"].astype(np.float64)
    nbz, nby, nbx = bins.shape[:3]
    z, y, x = np.meshgrid(np.arange(nz), np.arange(ny), np.arange(nx), indexing="ij")
    pts = np.stack([x, y, z], axis=-1).reshape(-1, 3)
    pos = pts * _H
    own = pts // _REGION
    c2 = float(np.float32(_CUTOFF * _CUTOFF))
    energy = np.zeros(pts.shape[0])
    for lo in range(0, pts.shape[0], 1 << 16):  # chunks keep the [P, DEPTH, 4] gathers small
        sl = slice(lo, lo + (1 << 16))
        for off in _OFFSETS:
            b = own[sl] + off
            ok = np.all((b >= 0) & (b < np.array([nbx, nby, nbz])), axis=1)
            atoms = bins[np.clip(b[:, 2], 0, nbz - 1), np.clip(b[:, 1], 0, nby - 1),
                         np.clip(b[:, 0], 0, nbx - 1)]  # [P, DEPTH, 4]
            r2 = ((atoms[..., :3] - pos[sl, None, :]) ** 2).sum(axis=-1)
            inside = (r2 < c2) & ok[:, None]
            s = 1.0 - r2 / c2
            contrib = np.where(inside, atoms[..., 3] / np.sqrt(np.where(inside, r2, 1.0)) * s * s,
                               0.0)
            energy[sl] += contrib.sum(axis=1)
    return {"lattice": energy.reshape(nz, ny, nx)}


BENCHMARK = Benchmark(
    name="cutcp", suite="parboil", resembles="parboil/cutcp",
    workload="cutcp small (watbox.sl40: ~40,000 atoms, 0.5 A lattice, 12 A cutoff)",
    kernels=("cutoff_potential",), threads_per_block={"cutoff_potential": 128},
    sizes={"tiny": {"nx": 16, "ny": 16, "nz": 16}, "small": {"nx": 32, "ny": 32, "nz": 32},
           "paper": {"nx": 128, "ny": 128, "nz": 128}},
    launches="one launch per z-slab of 8-point regions (nz / 8)",
    differences="bins equal to lattice regions and a 4 A cutoff (27 neighbour bins instead of "
                "Parboil's larger neighbour list); random atoms",
    rtol=1e-4, atol=1e-4,
    tolerance_note="rsqrt.approx (2^-22.9 relative) and float32 sums against float64",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference)
