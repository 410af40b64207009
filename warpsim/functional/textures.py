"""Texture fetches (``tex.1d``, ``.2d``, ``.3d``, ``.a1d``, ``.a2d``, ``.cube``, ``.acube``;
``tex.level`` and ``tex.grad`` of mipmapped ones: functional/mipmaps.py) through a table of
texture descriptors.

Follows: PTX ISA §9.7.10.3 (``tex``: ``[handle, {coords}]``, 4-component results); CUDA
texture semantics (``tex1Dfetch`` on linear memory with integer coordinates; ``tex2D`` on pitched
2-D data with float coordinates, point or linear filtering, clamp/wrap/border addressing).
Assumptions:
  [A] A texture is bound by a descriptor: ``launch(textures={handle_or_name: TextureDesc})``;
      a handle is the u64 value a kernel receives as a parameter or loads from a ``.global
      .u64`` variable, a name is a ``.texref`` variable of the module.
  [A] Linear filtering weights use 8 fractional bits, as the hardware does (CUDA programming
      guide, "Texture fetching": 9-bit fixed point with 8 bits of fraction).
  [A] Channels the format does not have read as 0.
  [A] A cubemap is a layered texture of 6 faces (+x, -x, +y, -y, +z, -z; a layered cubemap
      6 per cube); a direction picks the face of its major axis and is sampled in 2-D there
      with the texture's filtering, clamped at the face's edges (no seamless filtering across
      faces).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from warpsim.errors import LaunchError
from warpsim.functional.ldst import lanes_of
from warpsim.functional.simt_stack import own
from warpsim.functional.trace import mem_lines
from warpsim.ptx.ir import Instruction, OpKind

__all__ = ["TextureDesc", "TextureFetcher", "build_tex", "trace_lines", "write_lanes"]

_DT = {"f32": np.float32, "s32": np.int32, "u32": np.uint32, "s16": np.int16,
       "u16": np.uint16, "s8": np.int8, "u8": np.uint8, "f16": np.float16}


@dataclass(frozen=True, slots=True)
class TextureDesc:
    """A bound texture: where its texels are and how they are sampled."""

    address: int
    """Device address of texel (0, 0)."""
    width: int
    """Texels per row (1-D: number of texels)."""
    height: int = 1
    """Rows (1 for a 1-D texture)."""
    pitch_bytes: int = 0
    """Bytes between rows (0: ``width * texel bytes``)."""
    channels: int = 1
    """Channels per texel: 1, 2 or 4."""
    dtype: str = "f32"
    """Channel format: ``f32``, ``s32``, ``u32``, ``s16``, ``u16``, ``s8``, ``u8``, ``f16``."""
    filter: str = "point"
    """``point`` or ``linear``."""
    address_mode: str = "clamp"
    """``clamp``, ``wrap``, ``mirror`` or ``border`` (border texels read 0)."""
    normalized_coords: bool = False
    """Coordinates in [0, 1) instead of texels."""
    normalized_read: bool = False
    """Integer texels read as floats scaled to [0, 1] / [-1, 1]."""
    depth: int = 1
    """Slices of a 3-D texture, or layers of a layered one (1 otherwise)."""
    layered: bool = False
    """A layered texture: ``depth`` layers of 1-D (``height`` 1) or 2-D images."""
    levels: tuple[TextureDesc, ...] = ()
    """Mipmap levels 1, 2, ... (each half the size of the one before, at least 1 texel);
    empty: not mipmapped (functional/mipmaps.py)."""
    mipmap_filter: str = "point"
    """Between levels: ``point`` (the nearest level) or ``linear`` (blend of two levels)."""
    level_bias: float = 0.0
    """Added to the level of detail before clamping (``mipmapLevelBias``)."""
    min_level: float = 0.0
    """Smallest level of detail used (``minMipmapLevelClamp``)."""
    max_level: float = math.inf
    """Largest level of detail used (``maxMipmapLevelClamp``; also at most the last level)."""

    @property
    def texel_bytes(self) -> int:
        return self.channels * np.dtype(_DT[self.dtype]).itemsize

    @property
    def row_bytes(self) -> int:
        return self.pitch_bytes or self.width * self.texel_bytes

    @property
    def slice_bytes(self) -> int:
        """Bytes between the slices of a 3-D texture or the layers of a layered one."""
        return self.row_bytes * self.height


def _coords(i: np.ndarray, n: int, mode: str) -> tuple[np.ndarray, np.ndarray | None]:
    """Texel index after the address mode, and whether it is a border (zero) texel (None: no
    border texels in this mode)."""
    if mode == "wrap":
        return np.mod(i, n), None
    if mode == "mirror":
        p = np.mod(i, 2 * n)
        return np.where(p >= n, 2 * n - 1 - p, p), None
    return np.clip(i, 0, n - 1), ((i < 0) | (i >= n) if mode == "border" else None)


class TextureFetcher:
    """Reads the texels of one bound texture from device memory (checked once at bind)."""

    def __init__(self, desc: TextureDesc, memory: Any) -> None:
        self.d = desc
        size = (desc.slice_bytes * (desc.depth - 1) + desc.row_bytes * (desc.height - 1)
                + desc.width * desc.texel_bytes)
        if not memory.check_range(desc.address, size):
            raise LaunchError("<texture>", f"texture at {desc.address:#x} ({size} bytes) is not "
                              "inside a live allocation",
                              hint="bind textures to allocated device memory")
        self.mem = memory
        self.cdt = np.dtype(_DT[desc.dtype])
        self._levels = [self] + [TextureFetcher(lv, memory) for lv in desc.levels]

    def level(self, i: int) -> TextureFetcher:
        """The fetcher of mipmap level ``i`` (0: this one)."""
        return self._levels[i]

    def texels(self, idx: list[np.ndarray], layer: np.ndarray | None = None
               ) -> tuple[np.ndarray, np.ndarray]:
        """Channel values [n, channels] of the texels at integer coordinates ``idx`` (x[, y[,
        z]]) of layer ``layer`` (layered textures: clamped to the layers), and their byte
        addresses."""
        d = self.d
        n = idx[0].size
        border = None
        off = np.zeros(n, np.int64)
        for k, (size, step) in enumerate(((d.width, d.texel_bytes), (d.height, d.row_bytes),
                                          (d.depth, d.slice_bytes))[:len(idx)]):
            i, b = _coords(idx[k], size, d.address_mode)
            off += i.astype(np.int64, copy=False) * step
            if b is not None:
                border = b if border is None else border | b
        if layer is not None:
            off += np.clip(layer, 0, d.depth - 1) * d.slice_bytes
        addr = np.int64(d.address - self.mem.base) + off
        item = self.cdt.itemsize
        view = self.mem.view(self.cdt)
        el = addr // item
        if d.channels == 1:
            out = view[el].reshape(n, 1)
        else:
            out = np.stack([view[el + c] for c in range(d.channels)], axis=1)
        if border is not None and border.any():
            out[border] = 0
        return out, (addr + self.mem.base).astype(np.uint64)

    def as_float(self, v: np.ndarray) -> np.ndarray:
        if self.cdt.kind == "f":
            return v.astype(np.float32)
        if self.d.normalized_read:
            info = np.iinfo(self.cdt)
            return np.maximum(v.astype(np.float32) / np.float32(info.max), np.float32(-1.0))
        return v.astype(np.float32)


def build_tex(inst: Instruction, ctx: Any) -> Any:
    """The closure of a ``tex.1d``/``tex.2d`` instruction."""
    from warpsim.functional.mipmaps import level_operands, sample_mipmapped

    if inst.opcode != "tex":
        raise ctx.error(inst, f"{inst.opcode} (only tex is supported)")
    geom = next((m for m in inst.mods if m in ("1d", "2d", "3d", "a1d", "a2d", "cube",
                                                "acube", "2dms", "a2dms")), "")
    if geom not in _DIMS:
        raise ctx.error(inst, f"texture geometry .{geom or '?'}",
                        hint="1-D, 2-D, 3-D, layered and cubemap textures are supported")
    if len(inst.types) != 2 or inst.types[0] not in ("f32", "s32", "u32"):
        raise ctx.error(inst, "texture result/coordinate types")
    rtype, ctype = inst.types
    if inst.srcs[0].kind is not OpKind.ADDRESS or inst.srcs[0].base is None:
        raise ctx.error(inst, "texture operand")
    lod_of = level_operands(inst, ctx, geom)
    hop = inst.srcs[0].base
    handle: Any = hop.reg if hop.kind is OpKind.REG else hop.name
    coords = inst.srcs[1].elems if inst.srcs[1].kind is OpKind.VECTOR else (inst.srcs[1],)
    if any(c.kind is not OpKind.REG for c in coords):
        raise ctx.error(inst, "texture coordinates must be registers")
    creg = [c.reg for c in coords]
    dst = inst.dsts[0]
    dregs = [e.reg if e.kind is OpKind.REG else -1 for e in
             (dst.elems if dst.kind is OpKind.VECTOR else (dst,))]

    def run(bs: Any, g: Any, pred: Any, exm: Any) -> None:
        tsel, tidx, seg, whole = lanes_of(g, pred)
        n = tidx.size
        hv = bs.regs[handle][tsel] if isinstance(handle, int) else None
        if hv is not None and n and (hv == hv[0]).all():  # one texture (the usual case)
            keys: list[Any] = [int(hv[0])]
            hv = None  # every lane: as pos = flatnonzero(all true), without the index array
        elif hv is not None:
            keys = [int(h) for h in np.unique(hv)]
        else:
            keys = [handle]
        out = np.zeros((n, 4), np.uint32)
        tex_addr = np.zeros(n, np.uint64)
        for key in keys:
            f = bs.texture(key, inst)
            pos = np.flatnonzero(hv == np.uint64(key)) if hv is not None else slice(None)
            cs = [bs.regs[r][tsel][pos] for r in creg]
            if f.d.levels or lod_of is not None:
                lod = lod_of(bs, tsel, pos, f, cs[0].size) if lod_of is not None else None
                vals, addrs = sample_mipmapped(f, geom, ctype, cs, rtype, lod, _sample)
            else:
                vals, addrs = _sample(f, geom, ctype, cs, rtype)
            out[pos, :vals.shape[1]] = vals
            tex_addr[pos] = addrs
        write_lanes(bs, dregs[:4], [out[:, j] for j in range(min(4, len(dregs)))], tsel, whole)
        if bs.tracer is not None:
            trace_lines(bs, tex_addr, seg)
    return run


def write_lanes(bs: Any, regs: list[int], values: list[np.ndarray], tsel: Any,
                whole: bool) -> None:
    """Set register ``regs[j]`` (skipping -1) to ``values[j]`` on the executing lanes."""
    for r, v in zip(regs, values, strict=False):
        if r < 0:
            continue
        v = v.astype(bs.regs[r].dtype)
        if whole:
            bs.regs[r] = v
        else:
            own(bs.regs, r)[tsel] = v


def trace_lines(bs: Any, addrs: np.ndarray, seg: np.ndarray) -> None:
    """The trace's memory annotation (sectors, lines) of one access per lane at ``addrs``."""
    nw = seg.size - 1
    s = np.zeros(nw, np.int64)
    ln = np.zeros(nw, np.int64)
    buf = np.empty(addrs.size, np.uint64)
    lsec = np.empty(addrs.size, np.uint8)
    k = mem_lines(addrs, seg, 32, 128, s, ln, buf, lsec)
    bs.tracer.memory(bs.tracer.n_rec, s.astype(np.uint8), ln.astype(np.uint8),
                     np.zeros(nw, np.uint8), buf[:k], lsec[:k])


_DIMS = {"1d": 1, "2d": 2, "3d": 3, "a1d": 1, "a2d": 2, "cube": 3, "acube": 3}
"""Coordinates of each texture geometry (``a*``: after the layer index)."""


def cube_face(x: np.ndarray, y: np.ndarray, z: np.ndarray, width: int
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(face, u, v) of cubemap directions: the face of the major axis (+x, -x, +y, -y, +z,
    -z = layers 0-5; ties go to x, then y) and texel coordinates ((s / |m| + 1) / 2 * width,
    likewise t), with (s, t) per face as in the CUDA Programming Guide's cubemap table."""
    ax, ay, az = np.abs(x), np.abs(y), np.abs(z)
    xm = (ax >= ay) & (ax >= az)
    ym = ~xm & (ay >= az)
    zm = ~xm & ~ym
    face = np.where(xm, np.where(x >= 0, 0, 1),
                    np.where(ym, np.where(y >= 0, 2, 3), np.where(z >= 0, 4, 5)))
    m = np.where(xm, ax, np.where(ym, ay, az))
    sc = np.select([xm & (x >= 0), xm, ym, zm & (z >= 0)], [-z, z, x, x], -x)
    tc = np.select([xm, ym & (y >= 0), ym], [-y, z, -z], -y)
    with np.errstate(divide="ignore", invalid="ignore"):
        u = (sc / m + 1.0) * 0.5 * width
        v = (tc / m + 1.0) * 0.5 * width
    return face.astype(np.int64), u, v


def _sample(f: TextureFetcher, geom: str, ctype: str, cs: list[np.ndarray],
            rtype: str) -> tuple[np.ndarray, np.ndarray]:
    d = f.d
    nd = _DIMS[geom]
    layer = cs[0].view(np.int32).astype(np.int64) if geom[0] == "a" else None
    coords = cs[1:1 + nd] if layer is not None else cs[:nd]
    if ctype == "s32":
        v, addr = f.texels([c.view(np.int32).astype(np.int64) for c in coords], layer)
        return _result(f, v, rtype), addr
    xs = [c.view(np.float32).astype(np.float64) for c in coords]
    if geom in ("cube", "acube"):  # a direction: a face (layer) and 2-D texel coordinates
        face, u, v = cube_face(xs[0], xs[1], xs[2], d.width)
        layer = face if layer is None else layer * 6 + face
        edge = (0.5, d.width - 0.5)  # clamp to the face's edge texels whatever the mode
        xs, nd = [np.clip(u, *edge), np.clip(v, *edge)], 2
    elif d.normalized_coords:
        xs = [x * size for x, size in zip(xs, (d.width, d.height, d.depth), strict=False)]
    if d.filter != "linear":
        v, addr = f.texels([np.floor(x).astype(np.int64) for x in xs], layer)
        return _result(f, v, rtype), addr
    base, frac = [], []
    for x in xs:  # 9-bit fixed-point weights (8 fractional bits), as the hardware
        b = x - 0.5
        x0 = np.floor(b)
        frac.append(np.round((b - x0) * 256.0) / 256.0)
        base.append(x0.astype(np.int64))
    acc = np.zeros((xs[0].size, d.channels), np.float64)
    addr0 = None
    for corner in itertools.product((0, 1), repeat=nd):  # (z, y, x): x varies fastest
        step = corner[::-1]
        w = frac[0] if step[0] else 1.0 - frac[0]
        for k in range(1, nd):
            w = w * (frac[k] if step[k] else 1.0 - frac[k])
        v, a = f.texels([base[k] + step[k] for k in range(nd)], layer)
        acc += f.as_float(v).astype(np.float64) * w[:, None]
        addr0 = a if addr0 is None else addr0
    res = acc.astype(np.float32).view(np.uint32)
    return res, addr0  # type: ignore[return-value]


def _result(f: TextureFetcher, v: np.ndarray, rtype: str) -> np.ndarray:
    if rtype == "f32":
        return f.as_float(v).view(np.uint32)
    if f.cdt.kind == "f":
        return v.astype(np.float32).view(np.uint32)
    wide = v.astype(np.int64) if f.cdt.kind == "i" else v.astype(np.uint64)
    return wide.astype(np.uint32)
