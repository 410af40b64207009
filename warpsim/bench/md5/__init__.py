"""md5: MD5 digests of buffer chunks, one chunk per thread (like ISPASS-2009 StoreGPU's md5);
the reference is Python's hashlib."""

from __future__ import annotations

import hashlib
import math
from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK"]

_TPB = 128
_K = np.array([int(abs(math.sin(i + 1)) * 2 ** 32) & 0xFFFFFFFF for i in range(64)], np.uint32)
"""MD5 round constants, floor(|sin(i + 1)| * 2^32) (RFC 1321 §3.4)."""


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    return {"data": rng.integers(0, 256, p["chunks"] * p["chunk_bytes"], dtype=np.uint8)}


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    n, cb = p["chunks"], p["chunk_bytes"]
    if cb % 64:
        raise ValueError("chunk_bytes must be a multiple of 64")
    ctx.set_symbol("c_k", _K)
    digest = ctx.empty(4 * n, np.uint32)
    ctx.kernel("md5_chunks")[(n + _TPB - 1) // _TPB, _TPB](
        ctx.to_device(d["data"].view("<u4")), np.int32(cb // 4), digest, np.int32(n))
    return {"digest": digest.copy_to_host().reshape(n, 4)}


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    cb = p["chunk_bytes"]
    raw = d["data"].tobytes()
    digests = [hashlib.md5(raw[i:i + cb]).digest() for i in range(0, len(raw), cb)]
    return {"digest": np.frombuffer(b"".join(digests), "<u4").reshape(-1, 4).astype(np.uint32)}


BENCHMARK = Benchmark(
    name="md5", suite="ispass2009", resembles="ispass2009/STO (md5)",
    workload="StoreGPU md5 over a random buffer, 128 threads per block",
    kernels=("md5_chunks",), threads_per_block={"md5_chunks": _TPB},
    sizes={"tiny": {"chunks": 128, "chunk_bytes": 128},
           "small": {"chunks": 2048, "chunk_bytes": 512},
           "paper": {"chunks": 16384, "chunk_bytes": 1024}},
    launches="1 launch",
    differences="independent chunks only (no overlap variant); sha1 not included",
    tolerance_note="exact (digests against hashlib)",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference)
