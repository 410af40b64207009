"""cp: direct Coulomb potential on a lattice slice, atoms in constant memory, one launch per
atom chunk (like ISPASS-2009 CP's cenergy)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK"]

_BLOCK = (16, 8)
_UNROLLX = 8
_MAXATOMS = 4000
_SPACING = 0.1
_Z = 1.0


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    n, size = p["atoms"], p["size"]
    extent = size * _SPACING
    atoms = np.stack([rng.uniform(0, extent, n), rng.uniform(0, extent, n),
                      rng.uniform(0, 2 * _Z, n), rng.uniform(-1.0, 1.0, n)], axis=1)
    return {"atoms": atoms.astype(np.float32)}


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    size = p["size"]
    if size % (_BLOCK[0] * _UNROLLX) or size % _BLOCK[1]:
        raise ValueError(f"size must be a multiple of {_BLOCK[0] * _UNROLLX}")
    atoms = d["atoms"].copy()
    atoms[:, 2] = (np.float32(_Z) - atoms[:, 2]) ** 2  # the slice is at z = _Z: store dz^2
    grid = ctx.zeros(size * size, np.float32)
    blocks = (size // (_BLOCK[0] * _UNROLLX), size // _BLOCK[1])
    for start in range(0, len(atoms), _MAXATOMS):
        chunk = atoms[start:start + _MAXATOMS]
        ctx.set_symbol("atominfo", chunk)
        ctx.kernel("cenergy")[blocks, _BLOCK](np.int32(len(chunk)), np.float32(_SPACING), grid,
                                              np.int32(size))
    return {"energy": grid.copy_to_host().reshape(size, size)}


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    size = p["size"]
    a = d["atoms"].astype(np.float64)
    coords = np.arange(size) * float(np.float32(_SPACING))
    energy = np.zeros((size, size))
    dz2 = (_Z - a[:, 2]) ** 2
    for y in range(size):
        r2 = (coords[:, None] - a[None, :, 0]) ** 2 + ((coords[y] - a[:, 1]) ** 2 + dz2)[None]
        energy[y] = (a[:, 3][None] / np.sqrt(r2)).sum(axis=1)
    return {"energy": energy}


BENCHMARK = Benchmark(
    name="cp", suite="ispass2009", resembles="ispass2009/CP",
    workload="CP cuda_short (256x256 lattice slice, atoms in 4,000-atom constant chunks)",
    kernels=("cenergy",), threads_per_block={"cenergy": _BLOCK[0] * _BLOCK[1]},
    sizes={"tiny": {"size": 128, "atoms": 40}, "small": {"size": 256, "atoms": 400},
           "paper": {"size": 256, "atoms": 4000}},
    launches="one launch per chunk of 4,000 atoms (the energies accumulate)",
    differences="random atoms; the x step is applied incrementally as in the original",
    rtol=1e-4, atol=1e-3,
    tolerance_note="rsqrt.approx (2^-22.9 relative) and float32 sums against float64",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference)
