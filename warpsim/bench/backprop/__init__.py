"""backprop: one training step of a perceptron, forward and weight-adjust kernels around host
layer math (like Rodinia backprop)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK"]

_HID = 16
_ETA, _MOMENTUM, _TARGET = 0.3, 0.3, 0.1


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    n_in = p["n_in"]
    x = rng.random(n_in + 1, dtype=np.float32)
    x[0] = 1.0
    return {"x": x, "w": rng.random((n_in + 1, _HID + 1), dtype=np.float32) - np.float32(0.5),
            "hw": rng.random((_HID + 1, 2), dtype=np.float32) - np.float32(0.5)}


def _host_layers(partial: np.ndarray, d: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    """Hidden activations and hidden deltas from the per-block partial sums (host work)."""
    w, x, hw = (d[k].astype(np.float64) for k in ("w", "x", "hw"))
    hidden = np.ones(_HID + 1)
    hidden[1:] = 1.0 / (1.0 + np.exp(-(partial.sum(axis=0) + w[0, 1:] * x[0])))
    o = 1.0 / (1.0 + np.exp(-(hw[:, 1] @ hidden)))
    delta_o = o * (1.0 - o) * (_TARGET - o)
    delta_h = np.zeros(_HID + 1)
    delta_h[1:] = hidden[1:] * (1.0 - hidden[1:]) * delta_o * hw[1:, 1]
    return hidden, delta_h


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    n_in = p["n_in"]
    blocks = n_in // 16
    x, w = ctx.to_device(d["x"]), ctx.to_device(d["w"])
    oldw = ctx.zeros((n_in + 1) * (_HID + 1), np.float32)
    partial = ctx.empty(blocks * _HID, np.float32)
    ctx.kernel("bpnn_layerforward")[(1, blocks), (16, 16)](x, w, partial, np.int32(n_in),
                                                           np.int32(_HID))
    part = partial.copy_to_host().reshape(blocks, _HID).astype(np.float64)
    hidden, delta_h = _host_layers(part, d)
    delta = ctx.to_device(delta_h.astype(np.float32))
    ctx.kernel("bpnn_adjust_weights")[(1, blocks), (16, 16)](delta, np.int32(_HID), x,
                                                             np.int32(n_in), w, oldw)
    shape = (n_in + 1, _HID + 1)
    return {"partial": part, "hidden": hidden, "w": w.copy_to_host().reshape(shape),
            "oldw": oldw.copy_to_host().reshape(shape)}


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    n_in = p["n_in"]
    w, x = d["w"].astype(np.float64), d["x"].astype(np.float64)
    prod = (w[1:, 1:] * x[1:, None]).reshape(n_in // 16, 16, _HID)
    partial = prod.sum(axis=1)
    hidden, delta_h = _host_layers(partial, d)
    dw = _ETA * delta_h[None, :] * x[:, None]
    dw[0, :] = _ETA * delta_h
    dw[:, 0] = 0.0
    return {"partial": partial, "hidden": hidden, "w": w + dw, "oldw": dw}


BENCHMARK = Benchmark(
    name="backprop", suite="rodinia", resembles="rodinia/backprop",
    workload="backprop 65536 (65,536 input units, 16 hidden, 1 output)",
    kernels=("bpnn_layerforward", "bpnn_adjust_weights"),
    threads_per_block={"bpnn_layerforward": 256, "bpnn_adjust_weights": 256},
    sizes={"tiny": {"n_in": 256}, "small": {"n_in": 8192}, "paper": {"n_in": 65536}},
    launches="bpnn_layerforward, host output layer, bpnn_adjust_weights (2 launches)",
    differences="a shift instead of powf for the tree stride; weights in [-0.5, 0.5)",
    rtol=1e-4, atol=1e-6,
    tolerance_note="float32 products and a 16-term tree against float64",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference)
