"""mersenne_twister: per-thread Mersenne Twister generators with local-memory state, then a
Box-Muller pass (like the CUDA SDK MersenneTwister sample)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher, compare
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK"]

_TPB = 128
_NN, _MM = 19, 9
_PARAMS = np.dtype([("matrix_a", np.uint32), ("mask_b", np.uint32), ("mask_c", np.uint32),
                    ("seed", np.uint32)])


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    """Random generator parameters (the sample loads dcmt-generated ones: only the period
    differs, which a functional benchmark does not see)."""
    n = p["rngs"]
    par = np.zeros(n, _PARAMS)
    for field in ("matrix_a", "mask_b", "mask_c", "seed"):
        par[field] = rng.integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32)
    par["matrix_a"] |= np.uint32(0x80000000)
    return {"params": par}


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    n, per = p["rngs"], p["per_rng"]
    out = ctx.empty(n * per, np.float32)
    ctx.kernel("random_gpu")[(n + _TPB - 1) // _TPB, _TPB](out, np.int32(per),
                                                          ctx.to_device(d["params"]), np.int32(n))
    uniform = out.copy_to_host()
    ctx.kernel("box_muller_gpu")[p["bm_blocks"], _TPB](out, np.int32(n * per))
    return {"uniform": uniform, "normal": out.copy_to_host()}


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    par = d["params"]
    n, per = p["rngs"], p["per_rng"]
    mt = np.zeros((_NN, n), np.uint32)
    mt[0] = par["seed"]
    for i in range(1, _NN):
        prev = mt[i - 1]
        mt[i] = np.uint32(1812433253) * (prev ^ (prev >> np.uint32(30))) + np.uint32(i)
    out = np.zeros((per, n), np.float32)
    state = 0
    for k in range(per):
        s1, sm = (state + 1) % _NN, (state + _MM) % _NN
        x = (mt[state] & np.uint32(0x80000000)) | (mt[s1] & np.uint32(0x7FFFFFFF))
        x = mt[sm] ^ (x >> np.uint32(1)) ^ np.where(x & np.uint32(1), par["matrix_a"],
                                                    np.uint32(0)).astype(np.uint32)
        mt[state] = x
        state = s1
        x = x ^ (x >> np.uint32(12))
        x = x ^ ((x << np.uint32(7)) & par["mask_b"])
        x = x ^ ((x << np.uint32(15)) & par["mask_c"])
        x = x ^ (x >> np.uint32(18))
        out[k] = (x.astype(np.float32) + np.float32(1.0)) / np.float32(4294967296.0)
    uniform = out.reshape(-1)
    u = uniform.astype(np.float64)
    r = np.sqrt(-2.0 * np.log(u[0::2]))
    phi = 2.0 * np.pi * u[1::2]
    normal = np.empty_like(u)
    normal[0::2], normal[1::2] = r * np.cos(phi), r * np.sin(phi)
    return {"uniform": uniform, "normal": normal}


def verify(got: dict[str, np.ndarray], want: dict[str, np.ndarray], p: Params) -> list[str]:
    msgs = [compare("uniform", got["uniform"], want["uniform"], 0, 0),
            compare("normal", got["normal"], want["normal"], 1e-4, 1e-4)]
    return [m for m in msgs if m]


BENCHMARK = Benchmark(
    name="mersenne_twister", suite="sdk", resembles="sdk/MersenneTwister",
    workload="MersenneTwister: 4,096 generators x 5,860 numbers (24M), then Box-Muller",
    kernels=("random_gpu", "box_muller_gpu"),
    threads_per_block={"random_gpu": _TPB, "box_muller_gpu": _TPB},
    sizes={"tiny": {"rngs": 256, "per_rng": 16, "bm_blocks": 4},
           "small": {"rngs": 4096, "per_rng": 64, "bm_blocks": 32},
           "paper": {"rngs": 4096, "per_rng": 5860, "bm_blocks": 32}},
    launches="random_gpu then box_muller_gpu (2 launches)",
    differences="random (not dcmt-searched) generator parameters; Box-Muller on adjacent "
                "pairs",
    tolerance_note="uniforms exact (integer generator, one float32 rounding); normals rtol/atol "
                   "1e-4 (logf, sinf, cosf)",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference, verify=verify)
