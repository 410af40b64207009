"""Mipmapped textures: ``tex.level`` (tex2DLod) and ``tex.grad`` (tex2DGrad) choose levels of
detail, with point or linear filtering between levels, bias and clamps.

Oracle: every level's texel values are a formula of (level, row, column) chosen by the test;
the expected level of each fetch is worked by hand from the OpenGL 4.6 §8.14 rules named in
functional/mipmaps.py (lod = log2 of the longer gradient in level-0 texels; nearest level
ceil(lod + 0.5) - 1; linear: blend of floor(lod) and the next by the fraction).
"""

from __future__ import annotations

import dataclasses
import struct

import numpy as np
import pytest

from warpsim.functional.executor import launch
from warpsim.functional.memory import GlobalMemory
from warpsim.functional.program import ModuleImage
from warpsim.functional.textures import TextureDesc
from warpsim.ptx.parser import parse_ptx

PTX = r"""
.version 8.0
.target sm_80
.address_size 64
.visible .entry mip(.param .u64 tex, .param .u64 pin, .param .u64 pout)
{
    .reg .f32 %f<20>;
    .reg .b32 %r<4>;
    .reg .b64 %rd<10>;
    ld.param.u64 %rd1, [tex];
    ld.param.u64 %rd2, [pin];
    ld.param.u64 %rd3, [pout];
    mov.u32 %r1, %tid.x;
    mul.wide.u32 %rd4, %r1, 32;
    add.s64 %rd5, %rd2, %rd4;
    ld.global.v4.f32 {%f0, %f1, %f2, %f3}, [%rd5];
    ld.global.v4.f32 {%f4, %f5, %f6, %f7}, [%rd5+16];
    tex.level.2d.v4.f32.f32 {%f8, %f9, %f10, %f11}, [%rd1, {%f0, %f1}], %f2;
    tex.grad.2d.v4.f32.f32 {%f12, %f13, %f14, %f15}, [%rd1, {%f0, %f1}], {%f3, %f4},
        {%f5, %f6};
    tex.2d.v4.f32.f32 {%f16, %f17, %f18, %f19}, [%rd1, {%f0, %f1}];
    mul.wide.u32 %rd6, %r1, 12;
    add.s64 %rd7, %rd3, %rd6;
    st.global.f32 [%rd7], %f8;
    st.global.f32 [%rd7+4], %f12;
    st.global.f32 [%rd7+8], %f16;
    ret;
}
"""
HANDLE = 7


def _value(level: int, y: int, x: int) -> float:
    return 100.0 * level + 10.0 * y + x


def _mipmapped(mem: GlobalMemory, **kw) -> TextureDesc:
    """An 8x8 float texture with levels 4x4, 2x2, 1x1 (texel = _value(level, row, col))."""
    descs = []
    for lv in range(4):
        s = 8 >> lv
        texels = np.array([[_value(lv, y, x) for x in range(s)] for y in range(s)], np.float32)
        addr = mem.alloc(texels.nbytes)
        mem.write(addr, texels)
        descs.append(TextureDesc(address=addr, width=s, height=s, normalized_coords=True))
    return dataclasses.replace(descs[0], levels=tuple(descs[1:]), **kw)


def _run(desc: TextureDesc, mem: GlobalMemory, rows: list[tuple[float, ...]]) -> np.ndarray:
    """Per fetch (x, y, lod, dPdx, dPdy): (tex.level, tex.grad, tex) results."""
    img = ModuleImage(parse_ptx(PTX, "mip.ptx"), mem)
    data = np.zeros((32, 8), np.float32)
    for t, (x, y, lod, dxu, dxv, dyu, dyv) in enumerate(rows):
        data[t, :7] = (x, y, lod, dxu, dxv, dyu, dyv)
    pin = mem.alloc(data.nbytes)
    mem.write(pin, data)
    pout = mem.alloc(32 * 12)
    launch(img, "mip", grid=(1,), block=(32,), params=struct.pack("<QQQ", HANDLE, pin, pout),
           textures={HANDLE: desc}, trace=False)
    return mem.read(pout, 32 * 12).view(np.float32).reshape(32, 3)[:len(rows)]


def _texel(level: int, x: float, y: float) -> float:
    """Point sample of level ``level`` at normalized (x, y), clamped to the edge."""
    s = 8 >> level
    return _value(level, min(int(np.floor(y * s)), s - 1), min(int(np.floor(x * s)), s - 1))


def test_explicit_levels_pick_the_nearest_level():
    mem = GlobalMemory()
    x, y = 0.7, 0.3
    # lod -> level by hand: ceil(lod + 0.5) - 1, clamped to [0, 3]
    cases = [(-2.0, 0), (0.0, 0), (0.5, 0), (0.6, 1), (1.4, 1), (1.5, 1), (2.7, 3), (7.0, 3)]
    got = _run(_mipmapped(mem), mem, [(x, y, lod, 0, 0, 0, 0) for lod, _ in cases])
    assert got[:, 0].tolist() == [_texel(lv, x, y) for _, lv in cases]
    assert (got[:, 2] == _texel(0, x, y)).all()          # plain tex: level 0


def test_gradients_give_the_level_of_detail():
    mem = GlobalMemory()
    x, y = 0.55, 0.8
    rows = [(x, y, 0, 1 / 8, 0, 0, 1 / 8),      # one texel per step: lod 0 -> level 0
            (x, y, 0, 0.5, 0, 0, 0.1),          # 4 texels: lod 2 -> level 2
            (x, y, 0, 0.25, 0, 0, 0.375),       # max(2, 3) texels: lod 1.585 -> level 2
            (x, y, 0, 0.0, 0.125, 0.2, 0.0),    # max(1, 1.6): lod 0.678 -> level 1
            (x, y, 0, 1 / 32, 0, 0, 1 / 32)]    # a quarter texel: lod -2 -> level 0
    got = _run(_mipmapped(mem), mem, rows)
    assert got[:, 1].tolist() == [_texel(lv, x, y) for lv in (0, 2, 2, 1, 0)]


def test_linear_filtering_between_levels_bias_and_clamps():
    mem = GlobalMemory()
    x, y = 0.4, 0.9
    lin = _mipmapped(mem, mipmap_filter="linear")
    got = _run(lin, mem, [(x, y, 1.25, 0, 0, 0, 0), (x, y, 3.0, 0, 0, 0, 0)])
    assert got[0, 0] == pytest.approx(0.75 * _texel(1, x, y) + 0.25 * _texel(2, x, y))
    assert got[1, 0] == _texel(3, x, y)
    clamped = _mipmapped(mem, level_bias=1.0, max_level=2.0)
    got = _run(clamped, mem, [(x, y, 0.0, 0, 0, 0, 0), (x, y, 5.0, 0, 0, 0, 0)])
    assert got[:, 0].tolist() == [_texel(1, x, y), _texel(2, x, y)]
    assert got[0, 2] == _texel(1, x, y)                   # plain tex: lod 0 + bias 1
    floor = _mipmapped(mem, min_level=3.0)
    assert _run(floor, mem, [(x, y, 0.0, 0, 0, 0, 0)])[0, 0] == _texel(3, x, y)


def test_an_immediate_level_of_detail():
    mem = GlobalMemory()
    ptx = PTX.replace("[%rd1, {%f0, %f1}], %f2;", "[%rd1, {%f0, %f1}], 0f3FF00000;")  # 1.875
    img = ModuleImage(parse_ptx(ptx, "imm.ptx"), mem)
    assert ptx != PTX
    data = np.zeros((32, 8), np.float32)
    data[:, :2] = (0.7, 0.3)
    pin, pout = mem.alloc(data.nbytes), mem.alloc(32 * 12)
    mem.write(pin, data)
    launch(img, "mip", grid=(1,), block=(32,), params=struct.pack("<QQQ", HANDLE, pin, pout),
           textures={HANDLE: _mipmapped(mem)}, trace=False)
    got = mem.read(pout, 32 * 12).view(np.float32).reshape(32, 3)
    assert (got[:, 0] == _texel(2, 0.7, 0.3)).all()      # ceil(1.875 + 0.5) - 1 = 2
