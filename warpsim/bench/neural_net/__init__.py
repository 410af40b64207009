"""neural_net: forward pass of a 4-layer convolutional digit classifier, one kernel per layer
(like ISPASS-2009 NN)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK"]


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    n = p["images"]
    f32 = np.float32

    def weights(count: int, fan_in: int) -> np.ndarray:
        return (rng.uniform(-1.0, 1.0, (count, fan_in + 1)) / np.sqrt(fan_in)).astype(f32)

    return {"images": rng.uniform(-1.0, 1.0, (n, 29, 29)).astype(f32),
            "w1": weights(6, 25), "w2": weights(50, 150), "w3": weights(100, 1250),
            "w4": weights(10, 100)}


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    n = p["images"]
    f32 = np.float32
    l0 = ctx.to_device(d["images"])
    l1, l2 = ctx.empty(n * 6 * 169, f32), ctx.empty(n * 1250, f32)
    l3, l4 = ctx.empty(n * 100, f32), ctx.empty(n * 10, f32)
    w = {k: ctx.to_device(d[k]) for k in ("w1", "w2", "w3", "w4")}
    ctx.kernel("execute_first_layer")[(6, n), (13, 13)](l0, w["w1"], l1)
    ctx.kernel("execute_second_layer")[(50, n), (5, 5)](l1, w["w2"], l2)
    ctx.kernel("execute_third_layer")[(100, n), 1](l2, w["w3"], l3)
    ctx.kernel("execute_fourth_layer")[(10, n), 1](l3, w["w4"], l4)
    return {"layer2": l2.copy_to_host().reshape(n, 1250),
            "output": l4.copy_to_host().reshape(n, 10)}


def _act(x: np.ndarray) -> np.ndarray:
    return 1.7159 * np.tanh(0.66666667 * x)


def _conv(x: np.ndarray, w: np.ndarray, out: int) -> np.ndarray:
    """x [n, maps, H, W], w [f, 1 + maps*25]: 5x5 stride-2 convolution to out x out."""
    maps = x.shape[1]
    taps = np.stack([x[:, :, ky:ky + 2 * out - 1:2, kx:kx + 2 * out - 1:2]
                     for ky in range(5) for kx in range(5)], axis=2)  # [n, maps, 25, o, o]
    k = w[:, 1:].reshape(-1, maps, 25)
    return _act(np.einsum("nmtyx,fmt->nfyx", taps, k) + w[:, 0][None, :, None, None])


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    f64 = {k: v.astype(np.float64) for k, v in d.items()}
    l1 = _conv(f64["images"][:, None], f64["w1"], 13)
    l2 = _conv(l1, f64["w2"], 5).reshape(-1, 1250)
    l3 = _act(l2 @ f64["w3"][:, 1:].T + f64["w3"][:, 0])
    l4 = _act(l3 @ f64["w4"][:, 1:].T + f64["w4"][:, 0])
    return {"layer2": l2, "output": l4}


BENCHMARK = Benchmark(
    name="neural_net", suite="ispass2009", resembles="ispass2009/NN",
    workload="NN: 28 MNIST digits (29x29) through the 4 layers of Simard's network",
    kernels=("execute_first_layer", "execute_second_layer", "execute_third_layer",
             "execute_fourth_layer"),
    threads_per_block={"execute_first_layer": 169, "execute_second_layer": 25,
                       "execute_third_layer": 1, "execute_fourth_layer": 1},
    sizes={"tiny": {"images": 2}, "small": {"images": 8}, "paper": {"images": 28}},
    launches="4 launches, one per layer (grids (6, n), (50, n), (100, n), (10, n))",
    differences="random weights and images instead of lw1-4.wei and MNIST",
    rtol=1e-4, atol=1e-5,
    tolerance_note="float32 tanhf and dot products up to 1,250 terms against float64",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference)
