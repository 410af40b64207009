"""monte_carlo: LIBOR-model swaption portfolio by Monte Carlo paths (like ISPASS-2009 LIB)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK"]

_TPB = 64
_NN_MAX, _NOPT = 80, 15
_DELTA, _L0 = 0.25, 0.051
_MATURITIES = np.array([4, 4, 4, 8, 8, 8, 20, 20, 20, 28, 28, 28, 40, 40, 40], np.int32)
_SWAPRATES = np.array([0.045, 0.05, 0.055] * 5, np.float32)
_LAMBDA = np.full(_NN_MAX, 0.2, np.float32)


def _maturities(p: Params) -> np.ndarray:
    """The published maturities (for 40 periods after the last fixing), scaled to nn - nmat."""
    return np.maximum(1, _MATURITIES * (p["nn"] - p["nmat"]) // 40).astype(np.int32)


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    return {"z": rng.standard_normal((p["nmat"], p["npath"])).astype(np.float32)}


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    npath = p["npath"]
    ctx.set_symbol("c_lambda", _LAMBDA)
    ctx.set_symbol("c_maturities", _maturities(p))
    ctx.set_symbol("c_swaprates", _SWAPRATES)
    z = ctx.to_device(d["z"])
    v = ctx.empty(npath, np.float32)
    ctx.kernel("libor_path")[(npath + _TPB - 1) // _TPB, _TPB](
        z, v, np.float32(_DELTA), np.float32(_L0), np.int32(npath), np.int32(p["nn"]),
        np.int32(p["nmat"]))
    return {"v": v.copy_to_host()}


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    z = d["z"].astype(np.float64)
    npath = z.shape[1]
    delta, lam = float(np.float32(_DELTA)), _LAMBDA.astype(np.float64)
    nn, nmat = p["nn"], p["nmat"]
    mats = _maturities(p)
    big_l = np.full((nn, npath), float(np.float32(_L0)))
    for n in range(nmat):
        sqez = np.sqrt(delta) * z[n]
        v = np.zeros(npath)
        for i in range(n + 1, nn):
            con1 = delta * lam[i - n - 1]
            v += con1 * big_l[i] / (1.0 + delta * big_l[i])
            big_l[i] *= np.exp(con1 * v + lam[i - n - 1] * (sqez - 0.5 * con1))
    b = np.cumprod(1.0 / (1.0 + delta * big_l[nmat:]), axis=0)
    s = np.cumsum(delta * b, axis=0)
    v = np.zeros(npath)
    for i in range(_NOPT):
        m = mats[i] - 1
        swapval = b[m] + float(_SWAPRATES[i]) * s[m] - 1.0
        v += np.where(swapval < 0, -100.0 * swapval, 0.0)
    v /= np.prod(1.0 + delta * big_l[:nmat], axis=0)
    return {"v": v}


BENCHMARK = Benchmark(
    name="monte_carlo", suite="ispass2009", resembles="ispass2009/LIB",
    workload="LIB: 4096 paths (64 blocks x 64 threads), 80 forward rates, 40 time steps",
    kernels=("libor_path",), threads_per_block={"libor_path": _TPB},
    sizes={"tiny": {"npath": 128, "nn": 40, "nmat": 20},
           "small": {"npath": 1024, "nn": 80, "nmat": 40},
           "paper": {"npath": 4096, "nn": 80, "nmat": 40}},
    launches="1 launch (LIB runs the portfolio kernel and its greeks variant)",
    differences="portfolio value only (no pathwise greeks kernel); normals from the host; "
                "`tiny` uses 40 rates / 20 steps (maturities scaled)",
    rtol=2e-3, atol=2e-3,
    tolerance_note="float32 path recursion (40 x 80 exp steps) against float64",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference)
