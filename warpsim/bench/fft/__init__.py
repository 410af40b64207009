"""fft: 2-D complex FFT by radix-2 row and column passes in shared memory (the FFT of Xiang et
al.'s workload table, 128x128)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher, compare
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK"]


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    n = p["n"]
    if n & (n - 1) or not 2 <= n <= 1024:
        raise ValueError(f"fft needs a power of two in [2, 1024], got {n}")
    data = rng.uniform(-1, 1, (n, n)) + 1j * rng.uniform(-1, 1, (n, n))
    return {"data": data.astype(np.complex64)}


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    n = p["n"]
    log2n = n.bit_length() - 1
    k = np.arange(n // 2)
    tw = np.exp(-2j * np.pi * k / n).astype(np.complex64)
    table = np.zeros(512, np.complex64)
    table[:tw.size] = tw
    ctx.set_symbol("c_twiddle", table)
    src = ctx.to_device(d["data"].view(np.float32).reshape(-1))
    tmp, dst = ctx.empty(2 * n * n, np.float32), ctx.empty(2 * n * n, np.float32)
    threads = min(n // 2, 512)
    ctx.kernel("fft_rows")[n, threads](src, tmp, np.int32(n), np.int32(log2n))
    ctx.kernel("fft_cols")[n, threads](tmp, dst, np.int32(n), np.int32(log2n))
    return {"spectrum": dst.copy_to_host().view(np.complex64).reshape(n, n)}


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    return {"spectrum": np.fft.fft2(d["data"].astype(np.complex128))}


def verify(got: dict[str, np.ndarray], want: dict[str, np.ndarray], p: Params) -> list[str]:
    """Float32 FFT error grows like log2(n) eps times the spectrum's scale: compare real and
    imaginary parts within 1e-5 of the largest magnitude."""
    scale = float(np.abs(want["spectrum"]).max())
    g, w = got["spectrum"], want["spectrum"]
    msgs = [compare("spectrum.real", g.real, w.real, 0.0, 1e-5 * scale),
            compare("spectrum.imag", g.imag, w.imag, 0.0, 1e-5 * scale)]
    return [m for m in msgs if m]


BENCHMARK = Benchmark(
    name="fft", suite="other", resembles="xiang/FFT (128x128)",
    workload="FFT (128, 128): a 2-D complex transform, as in Xiang et al.'s Table 3",
    kernels=("fft_rows", "fft_cols"), threads_per_block={"fft_rows": 64, "fft_cols": 64},
    sizes={"tiny": {"n": 32}, "small": {"n": 128}, "paper": {"n": 128}},
    launches="fft_rows then fft_cols (2 launches)",
    differences="the source of Xiang et al.'s FFT is not named; this is a plain radix-2 "
                "transform (threads per block n/2: 64 at n = 128)",
    tolerance_note="real and imaginary parts within 1e-5 of the largest spectrum magnitude",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference, verify=verify)
