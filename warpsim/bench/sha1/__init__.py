"""sha1: SHA-1 digests of buffer chunks, one chunk per thread (like ISPASS-2009 StoreGPU's
sha1); the reference is Python's hashlib."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK"]

_TPB = 128


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    return {"data": rng.integers(0, 256, p["chunks"] * p["chunk_bytes"], dtype=np.uint8)}


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    n, cb = p["chunks"], p["chunk_bytes"]
    if cb % 64:
        raise ValueError("chunk_bytes must be a multiple of 64")
    words = d["data"].view(">u4").astype(np.uint32)  # SHA-1 reads big-endian words
    digest = ctx.empty(5 * n, np.uint32)
    ctx.kernel("sha1_chunks")[(n + _TPB - 1) // _TPB, _TPB](
        ctx.to_device(words), np.int32(cb // 4), digest, np.int32(n))
    return {"digest": digest.copy_to_host().reshape(n, 5)}


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    cb = p["chunk_bytes"]
    raw = d["data"].tobytes()
    digests = b"".join(hashlib.sha1(raw[i:i + cb]).digest() for i in range(0, len(raw), cb))
    return {"digest": np.frombuffer(digests, ">u4").astype(np.uint32).reshape(-1, 5)}


BENCHMARK = Benchmark(
    name="sha1", suite="ispass2009", resembles="ispass2009/STO (sha1)",
    workload="StoreGPU sha1 over a random buffer, 128 threads per block",
    kernels=("sha1_chunks",), threads_per_block={"sha1_chunks": _TPB},
    sizes={"tiny": {"chunks": 128, "chunk_bytes": 128},
           "small": {"chunks": 2048, "chunk_bytes": 512},
           "paper": {"chunks": 16384, "chunk_bytes": 1024}},
    launches="1 launch",
    differences="independent chunks only (no overlap variant)",
    tolerance_note="exact (digests against hashlib)",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference)
