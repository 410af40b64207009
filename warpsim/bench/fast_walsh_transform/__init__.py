"""fast_walsh_transform: dyadic convolution by Walsh-Hadamard transforms (like SDK
fastWalshTransform: global butterfly passes, a shared-memory pass, a modulate kernel)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK"]

_TPB = 256
_CHUNK = 2048


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    n, kn = p["n"], p["kernel_n"]
    k = np.zeros(n, np.float32)
    k[:kn] = rng.random(kn, dtype=np.float32)
    return {"data": rng.random(n, dtype=np.float32), "kernel": k}


def _fwt(ctx: Launcher, d: Any, n: int) -> None:
    stride = n // 2
    while stride >= _CHUNK:
        ctx.kernel("fwt_global")[(n // 2 + _TPB - 1) // _TPB, _TPB](d, np.int32(stride),
                                                                   np.int32(n))
        stride //= 2
    chunk = min(n, _CHUNK)
    ctx.kernel("fwt_shared")[n // chunk, _TPB, 0, chunk * 4](d, np.int32(chunk))


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    n = p["n"]
    data, kern = ctx.to_device(d["data"]), ctx.to_device(d["kernel"])
    _fwt(ctx, data, n)
    _fwt(ctx, kern, n)
    ctx.kernel("modulate")[min(128, n // _TPB), _TPB](data, kern, np.int32(n))
    _fwt(ctx, data, n)
    return {"out": data.copy_to_host()}


def _wht(x: np.ndarray) -> np.ndarray:
    n = x.size
    h = 1
    while h < n:
        y = x.reshape(-1, 2, h)
        x = np.stack((y[:, 0] + y[:, 1], y[:, 0] - y[:, 1]), axis=1).reshape(n)
        h *= 2
    return x


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    n = p["n"]
    a = _wht(d["data"].astype(np.float64))
    b = _wht(d["kernel"].astype(np.float64))
    return {"out": _wht(a * b / n)}


BENCHMARK = Benchmark(
    name="fast_walsh_transform", suite="sdk", resembles="sdk42/fastWalshTransform",
    workload="fastWalshTransform: 2^23 data, 128-element kernel",
    kernels=("fwt_global", "fwt_shared", "modulate"),
    threads_per_block={"fwt_global": _TPB, "fwt_shared": _TPB, "modulate": _TPB},
    sizes={"tiny": {"n": 4096, "kernel_n": 128}, "small": {"n": 1 << 16, "kernel_n": 128},
           "paper": {"n": 1 << 23, "kernel_n": 128}},
    launches="per transform: log2(n/2048) global passes + 1 shared pass; 3 transforms and "
             "1 modulate",
    differences="radix-2 global passes (the sample fuses two radix-2 steps per pass)",
    rtol=1e-3, atol=1e-3,
    tolerance_note="float32 butterflies over log2(n) stages, values up to n/2, against float64",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference)
