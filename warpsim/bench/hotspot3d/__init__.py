"""hotspot3d: 3-D thermal simulation marching up the layers (like Rodinia hotspot3D)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK"]

_BLOCK = (64, 4)
_T_CHIP, _CHIP_H, _CHIP_W = 0.0005, 0.016, 0.016
_FACTOR_CHIP, _SPEC_HEAT_SI, _K_SI = 0.5, 1.75e6, 100.0
_MAX_PD, _PRECISION, _AMB = 3.0e6, 0.001, 80.0


def _coefficients(nx: int, ny: int, nz: int) -> dict[str, float]:
    dx, dy, dz = _CHIP_H / nx, _CHIP_W / ny, _T_CHIP / nz
    cap = _FACTOR_CHIP * _SPEC_HEAT_SI * _T_CHIP * dx * dy
    rx = dy / (2.0 * _K_SI * _T_CHIP * dx)
    ry = dx / (2.0 * _K_SI * _T_CHIP * dy)
    rz = dz / (_K_SI * dx * dy)
    dt = _PRECISION / (_MAX_PD / (_FACTOR_CHIP * _T_CHIP * _SPEC_HEAT_SI))
    sdc = dt / cap
    ce = cw = sdc / rx
    cn = cs = sdc / ry
    ct = cb = sdc / rz
    cc = 1.0 - (2.0 * ce + 2.0 * cn + 3.0 * ct)
    return {"sdc": sdc, "ce": ce, "cw": cw, "cn": cn, "cs": cs, "ct": ct, "cb": cb, "cc": cc}


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    shape = (p["nz"], p["ny"], p["nx"])
    return {"temp": (323.0 + 20.0 * rng.random(shape)).astype(np.float32),
            "power": (rng.random(shape) * 0.002).astype(np.float32)}


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    nx, ny, nz = p["nx"], p["ny"], p["nz"]
    if nx % _BLOCK[0] or ny % _BLOCK[1]:
        raise ValueError(f"nx must be a multiple of {_BLOCK[0]}, ny of {_BLOCK[1]}")
    c = {k: np.float32(v) for k, v in _coefficients(nx, ny, nz).items()}
    power = ctx.to_device(d["power"])
    buf = [ctx.to_device(d["temp"]), ctx.empty(d["temp"].size, np.float32)]
    for it in range(p["iterations"]):
        ctx.kernel("hotspot_opt1")[(nx // _BLOCK[0], ny // _BLOCK[1]), _BLOCK](
            power, buf[it % 2], buf[1 - it % 2], c["sdc"], np.int32(nx), np.int32(ny),
            np.int32(nz), c["ce"], c["cw"], c["cn"], c["cs"], c["ct"], c["cb"], c["cc"],
            np.float32(_AMB))
    return {"temp": buf[p["iterations"] % 2].copy_to_host().reshape(d["temp"].shape)}


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    c = {k: float(np.float32(v)) for k, v in _coefficients(p["nx"], p["ny"], p["nz"]).items()}
    t = d["temp"].astype(np.float64)
    pw = d["power"].astype(np.float64)
    for _ in range(p["iterations"]):
        e = np.pad(t, 1, mode="edge")
        t = (c["cc"] * t + c["cw"] * e[1:-1, 1:-1, :-2] + c["ce"] * e[1:-1, 1:-1, 2:]
             + c["cs"] * e[1:-1, 2:, 1:-1] + c["cn"] * e[1:-1, :-2, 1:-1]
             + c["cb"] * e[:-2, 1:-1, 1:-1] + c["ct"] * e[2:, 1:-1, 1:-1]
             + c["sdc"] * pw + c["ct"] * _AMB)
    return {"temp": t}


BENCHMARK = Benchmark(
    name="hotspot3d", suite="rodinia", resembles="rodinia/hotspot3D",
    workload="hotspot3D 512 8 100 (512x512x8 grid, 100 iterations)",
    kernels=("hotspot_opt1",), threads_per_block={"hotspot_opt1": _BLOCK[0] * _BLOCK[1]},
    sizes={"tiny": {"nx": 64, "ny": 8, "nz": 4, "iterations": 2},
           "small": {"nx": 128, "ny": 64, "nz": 8, "iterations": 4},
           "paper": {"nx": 512, "ny": 512, "nz": 8, "iterations": 100}},
    launches="one launch per iteration, buffers swapped",
    differences="random temperature/power instead of the shipped files",
    rtol=1e-5, atol=1e-3,
    tolerance_note="float32 stencil against float64, temperatures ~330 K",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference)
