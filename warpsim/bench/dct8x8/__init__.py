"""dct8x8: 8x8 block DCT, quantisation and inverse DCT of an image (like SDK 4.2 dct8x8)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher, compare
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK"]

_B = 8
_FLIP_FRAC = 0.005


def _basis() -> np.ndarray:
    u, k = np.mgrid[0:_B, 0:_B]
    c = np.where(u == 0, np.sqrt(1.0 / _B), np.sqrt(2.0 / _B))
    return c * np.cos((2 * k + 1) * u * np.pi / (2 * _B))


def _quant() -> np.ndarray:
    u, v = np.mgrid[0:_B, 0:_B]
    return (1.0 + 2.0 * (u + v)).astype(np.float32)


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    h, w = p["height"], p["width"]
    yy, xx = np.mgrid[0:h, 0:w]
    img = 128 + 60 * np.sin(xx / 7.0) * np.cos(yy / 5.0) + rng.normal(0, 10, (h, w))
    return {"image": np.clip(img, 0, 255).astype(np.float32)}


def _blocks(a: np.ndarray) -> np.ndarray:
    h, w = a.shape
    return a.reshape(h // _B, _B, w // _B, _B).transpose(0, 2, 1, 3)


def _unblocks(a: np.ndarray) -> np.ndarray:
    nby, nbx = a.shape[:2]
    return a.transpose(0, 2, 1, 3).reshape(nby * _B, nbx * _B)


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    h, w = p["height"], p["width"]
    ctx.set_symbol("c_dct", _basis().astype(np.float32))
    ctx.set_symbol("c_quant", _quant())
    src = ctx.to_device(d["image"].reshape(-1))
    coef, out = ctx.empty(h * w, np.float32), ctx.empty(h * w, np.float32)
    grid = (w // _B, h // _B)
    ctx.kernel("dct8x8_forward")[grid, (_B, _B)](ctx.texture(src), coef, np.int32(w))
    raw = coef.copy_to_host().reshape(h, w)
    ctx.kernel("quantize")[grid, (_B, _B)](coef, np.int32(w))
    ctx.kernel("dct8x8_inverse")[grid, (_B, _B)](coef, out, np.int32(w))
    return {"coef": raw, "quant": coef.copy_to_host().reshape(h, w),
            "image": out.copy_to_host().reshape(h, w)}


def _idct(coef: np.ndarray) -> np.ndarray:
    c = _basis()
    return _unblocks(np.einsum("vy,abvu,ux->abyx", c, _blocks(coef), c))


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    c = _basis()
    coef = _unblocks(np.einsum("uy,abyx,vx->abuv", c, _blocks(d["image"].astype(np.float64)), c))
    q = np.tile(_quant().astype(np.float64), (p["height"] // _B, p["width"] // _B))
    quant = np.rint(coef / q) * q
    return {"coef": coef, "quant": quant, "image": _idct(quant)}


def verify(got: dict[str, np.ndarray], want: dict[str, np.ndarray], p: Params) -> list[str]:
    """Coefficients to float32 accuracy; quantised values may take the other rounding for up to
    0.5% of coefficients that sit on a .5 boundary (exactly one step away); the inverse DCT is
    checked against numpy's inverse of the device's own quantised coefficients."""
    msgs = [compare("coef", got["coef"], want["coef"], 1e-4, 1e-3)]
    q = np.tile(_quant().astype(np.float64), (p["height"] // _B, p["width"] // _B))
    diff = np.abs(got["quant"].astype(np.float64) - want["quant"])
    off = diff > 1e-3 * q
    if off.mean() > _FLIP_FRAC or not np.allclose(diff[off], q[off], rtol=1e-3):
        msgs.append(f"quant: {int(off.sum())} of {off.size} coefficients differ beyond one "
                    "rounding flip")
    msgs.append(compare("image", got["image"], _idct(got["quant"].astype(np.float64)), 1e-4,
                        1e-3))
    return [m for m in msgs if m]


BENCHMARK = Benchmark(
    name="dct8x8", suite="sdk", resembles="sdk42/dct8x8",
    workload="dct8x8 on barbara.bmp (512x512), CUDAkernel1 DCT / quantisation / IDCT",
    kernels=("dct8x8_forward", "quantize", "dct8x8_inverse"),
    threads_per_block={"dct8x8_forward": 64, "quantize": 64, "dct8x8_inverse": 64},
    sizes={"tiny": {"width": 64, "height": 32}, "small": {"width": 256, "height": 256},
           "paper": {"width": 512, "height": 512}},
    launches="forward DCT, quantisation, inverse DCT (3 launches)",
    differences="one of the sample's 8 kernels per step; a linear quantisation table; "
                "synthetic image; 1-D texture over the image",
    tolerance_note="coefficients and image rtol 1e-4 / atol 1e-3; quantisation flips allowed "
                   "on <= 0.5% of coefficients",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference, verify=verify)
