"""hotspot: pyramid-blocked transient thermal simulation (like Rodinia hotspot)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK"]

_BS = 16
# Physical constants of the chip model (Rodinia hotspot's published model parameters).
_T_CHIP, _CHIP_H, _CHIP_W = 0.0005, 0.016, 0.016
_FACTOR_CHIP, _SPEC_HEAT_SI, _K_SI = 0.5, 1.75e6, 100.0
_MAX_PD, _PRECISION, _AMB_TEMP = 3.0e6, 0.001, 80.0


def _constants(rows: int, cols: int) -> tuple[float, float, float, float, float]:
    gh, gw = _CHIP_H / rows, _CHIP_W / cols
    cap = _FACTOR_CHIP * _SPEC_HEAT_SI * _T_CHIP * gw * gh
    rx = gw / (2.0 * _K_SI * _T_CHIP * gh)
    ry = gh / (2.0 * _K_SI * _T_CHIP * gw)
    rz = _T_CHIP / (_K_SI * gh * gw)
    step = _PRECISION / (_MAX_PD / (_FACTOR_CHIP * _T_CHIP * _SPEC_HEAT_SI))
    return cap, rx, ry, rz, step


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    shape = (p["rows"], p["cols"])
    return {"temp": (323.0 + 20.0 * rng.random(shape)).astype(np.float32),
            "power": (rng.random(shape) * 0.002).astype(np.float32)}


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    rows, cols, pyr, total = p["rows"], p["cols"], p["pyramid"], p["iterations"]
    border = pyr
    small = _BS - 2 * border
    grid = ((cols + small - 1) // small, (rows + small - 1) // small)
    cap, rx, ry, rz, step = (np.float32(v) for v in _constants(rows, cols))
    power = ctx.to_device(d["power"])
    buf = [ctx.to_device(d["temp"]), ctx.to_device(d["temp"])]
    src = 0
    k = ctx.kernel("calculate_temp")
    for t in range(0, total, pyr):
        it = min(pyr, total - t)
        k[grid, (_BS, _BS)](np.int32(it), power, buf[src], buf[1 - src], np.int32(cols),
                            np.int32(rows), np.int32(border), np.int32(border), cap, rx, ry, rz,
                            step, np.float32(_AMB_TEMP))
        src = 1 - src
    return {"temp": buf[src].copy_to_host().reshape(rows, cols)}


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    cap, rx, ry, rz, step = (float(np.float32(v)) for v in _constants(p["rows"], p["cols"]))
    t = d["temp"].astype(np.float64)
    pw = d["power"].astype(np.float64)
    for _ in range(p["iterations"]):
        e = np.pad(t, 1, mode="edge")
        n, s, w, east = e[:-2, 1:-1], e[2:, 1:-1], e[1:-1, :-2], e[1:-1, 2:]
        t = t + step / cap * (pw + (s + n - 2 * t) / ry + (east + w - 2 * t) / rx
                              + (_AMB_TEMP - t) / rz)
    return {"temp": t}


BENCHMARK = Benchmark(
    name="hotspot", suite="rodinia", resembles="rodinia/hotspot",
    workload="hotspot 512 2 2 (512x512 grid, pyramid height 2, 2 iterations)",
    kernels=("calculate_temp",), threads_per_block={"calculate_temp": _BS * _BS},
    sizes={"tiny": {"rows": 32, "cols": 32, "pyramid": 2, "iterations": 4},
           "small": {"rows": 256, "cols": 256, "pyramid": 2, "iterations": 8},
           "paper": {"rows": 512, "cols": 512, "pyramid": 2, "iterations": 2}},
    launches="ceil(iterations / pyramid) launches, ping-pong buffers",
    differences="random temperature/power instead of the shipped files",
    rtol=1e-5, atol=1e-3,
    tolerance_note="float32 stencil against float64, temperatures ~330 K",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference)
