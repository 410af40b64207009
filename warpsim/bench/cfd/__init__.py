"""cfd: unstructured-mesh Euler solver in double precision, Runge-Kutta stages of flux and
time-step kernels (like Rodinia cfd, euler3d_double)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK"]

_TPB = 192
_GAMMA = 1.4
_SMOOTHING = 0.2
_RK = 3


def _far_field() -> dict[str, np.ndarray]:
    angle = np.pi / 180.0 * 3.0
    density, p, mach = 1.4, 1.0, 1.2
    speed = mach * np.sqrt(_GAMMA * p / density)
    vel = np.array([speed * np.cos(angle), speed * np.sin(angle), 0.0])
    mom = density * vel
    de = density * 0.5 * speed * speed + p / (_GAMMA - 1.0)
    fmx = np.array([vel[0] * mom[0] + p, vel[0] * mom[1], vel[0] * mom[2]])
    fmy = np.array([fmx[1], vel[1] * mom[1] + p, vel[1] * mom[2]])
    fmz = np.array([fmx[2], fmy[2], vel[2] * mom[2] + p])
    return {"ff_variable": np.array([density, *mom, de]),
            "ff_flux_contribution_momentum_x": fmx, "ff_flux_contribution_momentum_y": fmy,
            "ff_flux_contribution_momentum_z": fmz,
            "ff_flux_contribution_density_energy": vel * (de + p)}


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    """A synthetic mesh: elements on a width x height lattice, 4 neighbours each; the left and
    right edges are walls (-1), the top and bottom far field (-2)."""
    w, h = p["width"], p["height"]
    n = w * h
    idx = np.arange(n).reshape(h, w)
    nbs = np.full((4, h, w), -1, np.int32)
    nbs[0, :, 1:] = idx[:, :-1]
    nbs[1, :, :-1] = idx[:, 1:]
    nbs[2, 1:, :], nbs[2, 0, :] = idx[:-1, :], -2
    nbs[3, :-1, :], nbs[3, -1, :] = idx[1:, :], -2
    base = np.array([[-1, 0, 0], [1, 0, 0], [0, -1, 0], [0, 1, 0]], np.float64)
    normals = (base[:, :, None] + 0.1 * rng.standard_normal((4, 3, n))) * 1e-3
    return {"neighbours": nbs.reshape(4, n), "normals": normals.reshape(4 * 3, n),
            "areas": rng.uniform(0.5, 1.5, n) * 1e-2}


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    n = d["areas"].size
    for name, value in _far_field().items():
        ctx.set_symbol(name, value)
    # normals[(j + c * NNB) * nelr + i]: component-major as the kernel reads them.
    normals = d["normals"].reshape(4, 3, n).transpose(1, 0, 2).reshape(-1)
    g_nb, g_normals = ctx.to_device(d["neighbours"].reshape(-1)), ctx.to_device(normals)
    g_areas = ctx.to_device(d["areas"])
    grid, nelr = n // _TPB, np.int32(n)
    variables, fluxes = ctx.empty(5 * n, np.float64), ctx.empty(5 * n, np.float64)
    old = ctx.empty(5 * n, np.float64)
    step = ctx.empty(n, np.float64)
    for arr in (variables, old, fluxes):
        ctx.kernel("initialize_variables")[grid, _TPB](nelr, arr)
    for _ in range(p["iterations"]):
        old = ctx.to_device(variables.copy_to_host())  # the original's device-to-device copy
        ctx.kernel("compute_step_factor")[grid, _TPB](nelr, variables, g_areas, step)
        for j in range(_RK):
            ctx.kernel("compute_flux")[grid, _TPB](nelr, g_nb, g_normals, variables, fluxes)
            ctx.kernel("time_step")[grid, _TPB](np.int32(j), nelr, old, variables, step, fluxes)
    return {"variables": variables.copy_to_host().reshape(5, n)}


def _state(v: np.ndarray) -> tuple[np.ndarray, ...]:
    dens, mom, de = v[0], v[1:4], v[4]
    vel = mom / dens
    ssq = (vel * vel).sum(axis=0)
    pres = (_GAMMA - 1.0) * (de - 0.5 * dens * ssq)
    c = np.sqrt(_GAMMA * pres / dens)
    fm = np.stack([vel[k] * mom + np.eye(3)[k][:, None] * pres for k in range(3)])  # [k][c]
    fde = vel * (de + pres)
    return dens, mom, de, vel, ssq, pres, c, fm, fde


def _flux(v: np.ndarray, nbs: np.ndarray, normals: np.ndarray) -> np.ndarray:
    dens, mom, de, _vel, ssq, pres, c, fm, fde = _state(v)
    ff = _far_field()
    ffm = np.stack([ff["ff_flux_contribution_momentum_x"], ff["ff_flux_contribution_momentum_y"],
                    ff["ff_flux_contribution_momentum_z"]])
    out = np.zeros_like(v)
    for j in range(4):
        nb = nbs[j]
        nrm = normals.reshape(4, 3, -1)[j]
        nlen = np.sqrt((nrm * nrm).sum(axis=0))
        inner, wall, far = nb >= 0, nb == -1, nb == -2
        k = np.where(inner, nb, 0)
        d2, m2, de2, _v2, ssq2, _p2, c2, fm2, fde2 = (a[..., k] for a in _state(v))
        factor = -nlen * _SMOOTHING * 0.5 * (np.sqrt(ssq) + np.sqrt(ssq2) + c + c2)
        add = np.zeros_like(v)
        add[0] = factor * (dens - d2) + 0.5 * (nrm * (m2 + mom)).sum(axis=0)
        add[4] = factor * (de - de2) + 0.5 * (nrm * (fde2 + fde)).sum(axis=0)
        add[1:4] = factor * (mom - m2) + 0.5 * (nrm[None] * (fm2 + fm).transpose(1, 0, 2)
                                                ).sum(axis=1)
        wall_add = np.zeros_like(v)
        wall_add[1:4] = nrm * pres
        far_add = np.zeros_like(v)
        far_add[0] = 0.5 * (nrm * (ff["ff_variable"][1:4, None] + mom)).sum(axis=0)
        far_add[4] = 0.5 * (nrm * (ff["ff_flux_contribution_density_energy"][:, None] + fde)
                            ).sum(axis=0)
        far_add[1:4] = 0.5 * (nrm[None] * (ffm[:, :, None] + fm.transpose(1, 0, 2))
                              ).sum(axis=1)
        out += np.where(inner, add, 0.0) + np.where(wall, wall_add, 0.0) + np.where(far, far_add,
                                                                                    0.0)
    return out


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    n = d["areas"].size
    v = np.repeat(_far_field()["ff_variable"][:, None], n, axis=1)
    for _ in range(p["iterations"]):
        old = v.copy()
        *_, ssq, _pres, c, _fm, _fde = _state(v)
        step = 0.5 / (np.sqrt(d["areas"]) * (np.sqrt(ssq) + c))
        for j in range(_RK):
            v = old + step / (_RK + 1 - j) * _flux(v, d["neighbours"], d["normals"])
    return {"variables": v}


BENCHMARK = Benchmark(
    name="cfd", suite="rodinia", resembles="rodinia/cfd",
    workload="euler3d_double fvcorr.domn.097K (97,046 elements, 2000 iterations)",
    kernels=("initialize_variables", "compute_step_factor", "compute_flux", "time_step"),
    threads_per_block={"initialize_variables": _TPB, "compute_step_factor": _TPB,
                       "compute_flux": _TPB, "time_step": _TPB},
    sizes={"tiny": {"width": 64, "height": 6, "iterations": 1},
           "small": {"width": 96, "height": 100, "iterations": 2},
           "paper": {"width": 192, "height": 506, "iterations": 10}},
    launches="3 initialize_variables; per iteration: copy, compute_step_factor, 3 x "
             "(compute_flux, time_step)",
    differences="synthetic lattice mesh with random normals; 10 iterations at `paper` (2000 "
                "in the original, which Accel-Sim leaves out); the "
                "device-to-device copy goes through the host",
    rtol=1e-10, atol=1e-12,
    tolerance_note="double precision; fma contraction versus numpy's separate operations",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference)
