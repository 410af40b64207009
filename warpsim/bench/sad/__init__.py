"""sad: motion-estimation SADs at every search position, then larger block sizes (like Parboil
sad: mb_sad_calc, larger_sad_calc_8, larger_sad_calc_16)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK"]

_MB = 16
_SAD_THREADS = 61


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    h, w = p["height"], p["width"]
    ref = rng.integers(0, 256, (h, w))
    cur = np.roll(ref, (1, -2), axis=(0, 1)) + rng.integers(-8, 9, (h, w))
    return {"ref": ref.astype(np.int32), "cur": np.clip(cur, 0, 255).astype(np.int32)}


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    h, w, r = p["height"], p["width"], p["radius"]
    mbx, mby = w // _MB, h // _MB
    nmb, npos = mbx * mby, (2 * r + 1) ** 2
    u16 = np.uint16
    d_ref = ctx.to_device(d["ref"].reshape(-1))
    s4 = ctx.empty(nmb * 16 * npos, u16)
    ctx.kernel("mb_sad_calc")[(mbx, mby), _SAD_THREADS](
        s4, ctx.to_device(d["cur"]), ctx.texture(d_ref), np.int32(w), np.int32(h), np.int32(r))
    s8, s84, s48 = (ctx.empty(nmb * k * npos, u16) for k in (4, 8, 8))
    ctx.kernel("larger_sad_calc_8")[nmb, (32, 4)](s4, s8, s84, s48, np.int32(npos))
    s16, s168, s816 = (ctx.empty(nmb * k * npos, u16) for k in (1, 2, 2))
    ctx.kernel("larger_sad_calc_16")[nmb, 32](s8, s16, s168, s816, np.int32(npos))
    out = {"sad4x4": s4, "sad8x8": s8, "sad8x4": s84, "sad4x8": s48, "sad16x16": s16,
           "sad16x8": s168, "sad8x16": s816}
    return {k: v.copy_to_host() for k, v in out.items()}


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    h, w, r = p["height"], p["width"], p["radius"]
    mbx, mby = w // _MB, h // _MB
    side = 2 * r + 1
    cur, ref = d["cur"].astype(np.int64), d["ref"].astype(np.int64)
    ys, xs = np.arange(h), np.arange(w)
    s4 = np.zeros((mby, mbx, 16, side * side), np.int64)
    for pos in range(side * side):
        dy, dx = pos // side - r, pos % side - r
        shifted = ref[np.clip(ys + dy, 0, h - 1)][:, np.clip(xs + dx, 0, w - 1)]
        diff = np.abs(cur - shifted).reshape(mby, 4, 4, mbx, 4, 4).sum(axis=(2, 5))
        # diff[mby, by4, mbx, bx4] -> [mby, mbx, sub = by4 * 4 + bx4]
        s4[..., pos] = diff.transpose(0, 2, 1, 3).reshape(mby, mbx, 16)
    s4 = s4.reshape(mby * mbx, 4, 4, -1)  # [mb, by4, bx4, pos]
    q = s4.reshape(-1, 2, 2, 2, 2, side * side)  # [mb, qy, i, qx, j, pos]
    a, b = q[:, :, 0, :, 0], q[:, :, 0, :, 1]
    c, e = q[:, :, 1, :, 0], q[:, :, 1, :, 1]  # each [mb, qy, qx, pos]
    s8 = (a + b + c + e).reshape(-1, 4, side * side)
    s84 = np.stack([a + b, c + e], axis=3).reshape(-1, 4, 2, side * side)
    s48 = np.stack([a + c, b + e], axis=3).reshape(-1, 4, 2, side * side)
    q0, q1, q2, q3 = (s8[:, i] for i in range(4))
    u16 = np.uint16
    return {"sad4x4": s4.reshape(-1).astype(u16), "sad8x8": s8.reshape(-1).astype(u16),
            "sad8x4": s84.reshape(-1).astype(u16), "sad4x8": s48.reshape(-1).astype(u16),
            "sad16x16": (q0 + q1 + q2 + q3).reshape(-1).astype(u16),
            "sad16x8": np.stack([q0 + q1, q2 + q3], axis=1).reshape(-1).astype(u16),
            "sad8x16": np.stack([q0 + q2, q1 + q3], axis=1).reshape(-1).astype(u16)}


BENCHMARK = Benchmark(
    name="sad", suite="parboil", resembles="parboil/sad",
    workload="sad default (QCIF 176x144 frame, search range +/-16: 1,089 positions)",
    kernels=("mb_sad_calc", "larger_sad_calc_8", "larger_sad_calc_16"),
    threads_per_block={"mb_sad_calc": _SAD_THREADS, "larger_sad_calc_8": 128,
                       "larger_sad_calc_16": 32},
    sizes={"tiny": {"width": 32, "height": 16, "radius": 2},
           "small": {"width": 64, "height": 48, "radius": 8},
           "paper": {"width": 176, "height": 144, "radius": 16}},
    launches="mb_sad_calc, larger_sad_calc_8, larger_sad_calc_16 (3 launches)",
    differences="1-D texture over int pixels with clamping in the kernel (Parboil binds a 2-D "
                "texture of bytes); random frames",
    tolerance_note="exact (uint16 sums)",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference)
