"""Mipmapped texture fetches: the level of detail of ``tex.level`` / ``tex.grad`` (CUDA's
``tex1DLod``/``tex2DLod``/``tex3DLod`` and ``...Grad``) and sampling between levels.

Follows: PTX ISA §9.7.10.3 (``tex.level.geom.v4.dtype.ctype d, [t, c], lod``: an explicit
level of detail; ``tex.grad.geom.v4.dtype.ctype d, [t, c], dPdx, dPdy``: gradients of the
coordinates); CUDA Programming Guide "Texture fetching" and ``cudaTextureDesc``
(``mipmapFilterMode``, ``mipmapLevelBias``, ``minMipmapLevelClamp``, ``maxMipmapLevelClamp``);
the level-of-detail formula and the nearest-level rule of the OpenGL 4.6 specification
§8.14 (which CUDA's texture hardware shares): with gradients in texels of level 0,
``lod = log2(max(|dPdx|, |dPdy|))``; ``lod' = clamp(lod + bias, min clamp, max clamp)``, at
most the last level; point mipmap filtering samples level ``ceil(lod' + 0.5) - 1`` (0 below
0.5), linear filtering blends levels ``floor(lod')`` and the next one by ``lod' - floor(lod')``.
Level ``i`` is ``max(1, size >> i)`` texels a side; normalized coordinates address every
level alike.
Assumptions:
  [A] Plain ``tex`` (no ``.level``/``.grad``) on a mipmapped texture uses level of detail 0
      (plus bias and clamps): a compute kernel has no implicit derivatives.
  [A] The blend weight between levels is exact (not quantised like the texel weights) and
      integer results (``.s32``/``.u32``) use the nearest level.
Not supported (``UnsupportedPTXError`` at load): ``tex.grad`` of cubemaps, offsets and depth
compare operands.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from warpsim.ptx.ir import Instruction, OpKind

__all__ = ["level_operands", "sample_mipmapped"]

_SPATIAL = {"1d": 1, "2d": 2, "3d": 3, "a1d": 1, "a2d": 2}


def _regs(inst: Instruction, ctx: Any, op: Any, what: str) -> list[int]:
    elems = op.elems if op.kind is OpKind.VECTOR else (op,)
    if any(e.kind is not OpKind.REG for e in elems):
        raise ctx.error(inst, f"the texture {what} must be registers")
    return [e.reg for e in elems]


def level_operands(inst: Instruction, ctx: Any, geom: str) -> Callable[..., np.ndarray] | None:
    """A function ``(bs, tsel, pos, fetcher, n) -> lod of the n lanes`` for ``tex.level`` /
    ``tex.grad`` (None for plain ``tex``)."""
    level, grad = "level" in inst.mods, "grad" in inst.mods
    if not (level or grad):
        return None
    extra = len(inst.srcs) - (3 if level else 4)
    if extra:
        raise ctx.error(inst, "texture offsets and depth compare operands" if extra > 0 else
                        "tex.level needs a level, tex.grad two gradients")
    if level:
        op = inst.srcs[2]
        if op.kind is OpKind.IMM:  # the value holds the bits of a float immediate
            value = (float(np.uint32(op.value).view(np.float32)) if op.fmt == "f32" else
                     float(np.uint64(op.value).view(np.float64)) if op.fmt == "f64" else
                     float(op.value))
            return lambda bs, tsel, pos, f, n: np.full(n, value)
        (reg,) = _regs(inst, ctx, op, "level")
        return lambda bs, tsel, pos, f, n: \
            bs.regs[reg][tsel][pos].view(np.float32).astype(np.float64)
    if geom not in _SPATIAL:
        raise ctx.error(inst, f"tex.grad of geometry .{geom}",
                        hint="1-D, 2-D, 3-D and layered 1-D/2-D textures take gradients")
    nd = _SPATIAL[geom]
    dx = _regs(inst, ctx, inst.srcs[2], "gradients")[:nd]
    dy = _regs(inst, ctx, inst.srcs[3], "gradients")[:nd]
    if len(dx) < nd or len(dy) < nd:
        raise ctx.error(inst, f"tex.grad.{geom} needs {nd} gradient components")

    def lod(bs: Any, tsel: Any, pos: Any, f: Any, n: int) -> np.ndarray:
        d = f.d
        size = (d.width, d.height, d.depth) if d.normalized_coords else (1, 1, 1)
        lengths = []
        for regs in (dx, dy):
            sq = sum((bs.regs[r][tsel][pos].view(np.float32).astype(np.float64) * size[k]) ** 2
                     for k, r in enumerate(regs))
            lengths.append(np.sqrt(sq))
        with np.errstate(divide="ignore"):
            return np.log2(np.maximum(lengths[0], lengths[1]))
    return lod


def sample_mipmapped(f: Any, geom: str, ctype: str, cs: list[np.ndarray], rtype: str,
                     lod: np.ndarray | None, sample: Callable[..., Any]
                     ) -> tuple[np.ndarray, np.ndarray]:
    """(result bits [n, channels], texel addresses) of a fetch at level of detail ``lod``
    (None: 0) through ``sample(fetcher, geom, ctype, coords, rtype)`` on each level."""
    d = f.d
    n = cs[0].size
    last = len(d.levels)
    lam = (np.zeros(n) if lod is None else np.asarray(lod, np.float64)) + d.level_bias
    lam = np.clip(np.nan_to_num(lam, nan=0.0, neginf=-np.inf), d.min_level,
                  min(d.max_level, last))
    lam = np.clip(lam, 0.0, last)
    blend = d.mipmap_filter == "linear" and rtype == "f32"
    if blend:
        lo = np.floor(lam).astype(np.int64)
        w = lam - lo
        hi = np.minimum(lo + 1, last)
    else:
        lo = np.maximum(np.ceil(lam + 0.5) - 1, 0).astype(np.int64)
        w = np.zeros(n)
        hi = lo
    out = np.zeros((n, d.channels), np.float64 if blend else np.uint32)
    addr = np.zeros(n, np.uint64)
    passes = ((lo, 1.0 - w), (hi, w)) if blend else ((lo, 1.0 - w),)
    for lv in np.unique(np.concatenate([lo, hi[w > 0]])):
        for k, (which, weight) in enumerate(passes):
            sel = np.flatnonzero((which == lv) & (weight > 0))
            if sel.size == 0:
                continue
            v, a = sample(f.level(int(lv)), geom, ctype, [c[sel] for c in cs], rtype)
            if blend:
                out[sel] += v.view(np.float32).astype(np.float64) * weight[sel, None]
            else:
                out[sel] = v
            if k == 0:
                addr[sel] = a
    if blend:
        return out.astype(np.float32).view(np.uint32), addr
    return out, addr
