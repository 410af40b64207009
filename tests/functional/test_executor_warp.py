"""Functional executor: warp-level operations, warp-synchronous code, atomics and textures.

Oracles: numpy re-implementations of ``shfl``/``vote``/``redux``/``match`` per the PTX ISA
pseudocode, exact bincount histograms, sequential atomics in thread order, and numpy texture
sampling (clamp addressing; linear filtering with 8-bit weights).
"""

from __future__ import annotations

import struct

import numpy as np
import pytest

from warpsim.errors import LaunchError
from warpsim.functional.executor import launch
from warpsim.functional.memory import GlobalMemory
from warpsim.functional.program import ModuleImage
from warpsim.functional.textures import TextureDesc
from warpsim.ptx.parser import parse_ptx


def _image(ptx: str) -> tuple[ModuleImage, GlobalMemory]:
    mem = GlobalMemory()
    return ModuleImage(parse_ptx(ptx, "test.ptx"), mem), mem


def _dev(mem: GlobalMemory, arr: np.ndarray) -> int:
    addr = mem.alloc(arr.nbytes)
    mem.write(addr, arr)
    return addr


def _get(mem: GlobalMemory, addr: int, n: int, dt: type) -> np.ndarray:
    return mem.read(addr, n * np.dtype(dt).itemsize).view(dt)


SHUFFLES = r"""
.version 9.0
.target sm_80
.address_size 64
.visible .entry shuffles(
	.param .u64 shuffles_param_0,
	.param .u64 shuffles_param_1
)
{
	.reg .pred 	%p<12>;
	.reg .b32 	%r<32>;
	.reg .b64 	%rd<9>;
	ld.param.u64 	%rd1, [shuffles_param_0];
	ld.param.u64 	%rd2, [shuffles_param_1];
	cvta.to.global.u64 	%rd3, %rd2;
	cvta.to.global.u64 	%rd4, %rd1;
	mov.u32 	%r2, %ctaid.x;
	mov.u32 	%r3, %ntid.x;
	mov.u32 	%r4, %tid.x;
	mad.lo.s32 	%r5, %r2, %r3, %r4;
	mul.wide.s32 	%rd5, %r5, 4;
	add.s64 	%rd6, %rd4, %rd5;
	ld.global.u32 	%r6, [%rd6];
	mov.u32 	%r7, 2;
	mov.u32 	%r8, 31;
	mov.u32 	%r9, 3;
	mov.u32 	%r10, -1;
	shfl.sync.down.b32 	%r11|%p1, %r6, %r9, %r8, %r10;
	mov.u32 	%r12, 0;
	mov.u32 	%r13, 5;
	shfl.sync.up.b32 	%r14|%p2, %r6, %r13, %r12, %r10;
	mov.u32 	%r15, 6;
	shfl.sync.bfly.b32 	%r16|%p3, %r6, %r15, %r8, %r10;
	mov.u32 	%r17, 7;
	shfl.sync.idx.b32 	%r18|%p4, %r6, %r17, %r8, %r10;
	mov.u32 	%r19, 6175;
	shfl.sync.down.b32 	%r20|%p5, %r6, %r7, %r19, %r10;
	and.b32  	%r21, %r6, 1;
	setp.eq.b32 	%p6, %r21, 1;
	vote.sync.ballot.b32 	%r22, %p6, %r10;
	setp.gt.s32 	%p8, %r6, 90;
	vote.sync.any.pred 	%p9, %p8, %r10;
	selp.u32 	%r24, 1, 0, %p9;
	setp.gt.s32 	%p10, %r6, -1;
	vote.sync.all.pred 	%p11, %p10, %r10;
	selp.u32 	%r26, 1, 0, %p11;
	redux.sync.add.s32 %r27, %r6, %r10;
	redux.sync.min.u32 %r28, %r6, %r10;
	and.b32  	%r29, %r6, 3;
	match.any.sync.b32 	%r30, %r29, %r10;
	activemask.b32 %r1;
	mul.lo.s32 	%r31, %r5, 12;
	mul.wide.s32 	%rd7, %r31, 4;
	add.s64 	%rd8, %rd3, %rd7;
	st.global.u32 	[%rd8], %r11;
	st.global.u32 	[%rd8+4], %r14;
	st.global.u32 	[%rd8+8], %r16;
	st.global.u32 	[%rd8+12], %r18;
	st.global.u32 	[%rd8+16], %r20;
	st.global.u32 	[%rd8+20], %r22;
	st.global.u32 	[%rd8+24], %r24;
	st.global.u32 	[%rd8+28], %r26;
	st.global.u32 	[%rd8+32], %r27;
	st.global.u32 	[%rd8+36], %r28;
	st.global.u32 	[%rd8+40], %r30;
	st.global.u32 	[%rd8+44], %r1;
	ret;
}
"""


def _shfl_ref(v: np.ndarray) -> np.ndarray:
    out = np.zeros((64, 12), np.int64)
    for w in range(2):
        x = v[32 * w:32 * w + 32].astype(np.int64)
        lane = np.arange(32)
        down = np.where(lane + 3 <= 31, x[np.minimum(lane + 3, 31)], x)
        up = np.where(lane - 5 >= 0, x[np.maximum(lane - 5, 0)], x)
        seg = lane & ~7
        w8 = np.where((lane & 7) + 2 <= 7, x[np.minimum(lane + 2, 31)], x)
        bal = int(sum(1 << i for i in range(32) if x[i] & 1))
        mm = [sum(1 << j for j in range(32) if (x[j] & 3) == (x[i] & 3)) for i in range(32)]
        rows = np.stack([down, up, x[lane ^ 6], np.full(32, x[7]), w8,
                         np.full(32, bal), np.full(32, int((x > 90).any())),
                         np.full(32, int((x >= 0).all())), np.full(32, x.sum()),
                         np.full(32, x.min()), np.array(mm), np.full(32, 0xFFFFFFFF)], axis=1)
        out[32 * w:32 * w + 32] = rows
        del seg
    return out.astype(np.uint32).astype(np.int64)


def test_shfl_vote_redux_match_activemask() -> None:
    img, mem = _image(SHUFFLES)
    v = np.random.default_rng(5).integers(0, 100, 64).astype(np.int32)
    i_, o = _dev(mem, v), _dev(mem, np.zeros(64 * 12, np.int32))
    launch(img, "shuffles", grid=(1,), block=(64,), params=struct.pack("<QQ", i_, o))
    got = _get(mem, o, 64 * 12, np.int32).reshape(64, 12).astype(np.uint32).astype(np.int64)
    assert np.array_equal(got, _shfl_ref(v))


def test_warp_synchronous_volatile_reduction() -> None:
    """``if (t < 16) { v[t] += v[t+16]; v[t] += v[t+8]; ... }`` without __syncwarp: correct
    only when every lane of the warp executes each statement before the next one."""
    img, mem = _image(r"""
.version 9.0
.target sm_80
.address_size 64
.extern .shared .align 16 .b8 sd[];
.visible .entry warp_sync_reduce(
	.param .u64 warp_sync_reduce_param_0,
	.param .u64 warp_sync_reduce_param_1
)
{
	.reg .pred 	%p<3>;
	.reg .b32 	%r<25>;
	.reg .b64 	%rd<9>;
	ld.param.u64 	%rd2, [warp_sync_reduce_param_0];
	ld.param.u64 	%rd1, [warp_sync_reduce_param_1];
	mov.u32 	%r4, %ntid.x;
	mov.u32 	%r1, %ctaid.x;
	mov.u32 	%r2, %tid.x;
	mad.lo.s32 	%r5, %r1, %r4, %r2;
	cvta.to.global.u64 	%rd3, %rd2;
	mul.wide.u32 	%rd4, %r5, 4;
	add.s64 	%rd5, %rd3, %rd4;
	ld.global.u32 	%r6, [%rd5];
	shl.b32 	%r7, %r2, 2;
	mov.u32 	%r8, sd;
	add.s32 	%r3, %r8, %r7;
	st.volatile.shared.u32 	[%r3], %r6;
	setp.gt.s32 	%p1, %r2, 15;
	@%p1 bra 	$L__BB4_2;
	ld.volatile.shared.u32 	%r9, [%r3];
	ld.volatile.shared.u32 	%r10, [%r3+64];
	add.s32 	%r11, %r9, %r10;
	st.volatile.shared.u32 	[%r3], %r11;
	ld.volatile.shared.u32 	%r12, [%r3];
	ld.volatile.shared.u32 	%r13, [%r3+32];
	add.s32 	%r14, %r12, %r13;
	st.volatile.shared.u32 	[%r3], %r14;
	ld.volatile.shared.u32 	%r15, [%r3];
	ld.volatile.shared.u32 	%r16, [%r3+16];
	add.s32 	%r17, %r15, %r16;
	st.volatile.shared.u32 	[%r3], %r17;
	ld.volatile.shared.u32 	%r18, [%r3];
	ld.volatile.shared.u32 	%r19, [%r3+8];
	add.s32 	%r20, %r18, %r19;
	st.volatile.shared.u32 	[%r3], %r20;
	ld.volatile.shared.u32 	%r21, [%r3];
	ld.volatile.shared.u32 	%r22, [%r3+4];
	add.s32 	%r23, %r21, %r22;
	st.volatile.shared.u32 	[%r3], %r23;
$L__BB4_2:
	setp.ne.s32 	%p2, %r2, 0;
	@%p2 bra 	$L__BB4_4;
	ld.volatile.shared.u32 	%r24, [sd];
	cvta.to.global.u64 	%rd6, %rd1;
	mul.wide.u32 	%rd7, %r1, 4;
	add.s64 	%rd8, %rd6, %rd7;
	st.global.u32 	[%rd8], %r24;
$L__BB4_4:
	ret;
}
""")
    x = np.random.default_rng(2).integers(0, 1000, 32 * 5).astype(np.int32)
    i_, o = _dev(mem, x), _dev(mem, np.zeros(5, np.int32))
    launch(img, "warp_sync_reduce", grid=(5,), block=(32,), params=struct.pack("<QQ", i_, o),
           dynamic_shared_bytes=32 * 4)
    assert np.array_equal(_get(mem, o, 5, np.int32), x.reshape(5, 32).sum(axis=1))


def test_histogram_with_shared_and_global_atomics_counts_exactly() -> None:
    img, mem = _image(r"""
.version 9.0
.target sm_80
.address_size 64
.visible .entry hist(
	.param .u64 hist_param_0,
	.param .u64 hist_param_1,
	.param .u32 hist_param_2
)
{
	.reg .pred 	%p<4>;
	.reg .b32 	%r<21>;
	.reg .b64 	%rd<11>;
	.shared .align 4 .b8 _ZZ4histE2sh[256];
	ld.param.u64 	%rd2, [hist_param_0];
	ld.param.u64 	%rd3, [hist_param_1];
	ld.param.u32 	%r4, [hist_param_2];
	cvta.to.global.u64 	%rd1, %rd3;
	mov.u32 	%r1, %tid.x;
	setp.gt.s32 	%p1, %r1, 63;
	shl.b32 	%r5, %r1, 2;
	mov.u32 	%r6, _ZZ4histE2sh;
	add.s32 	%r2, %r6, %r5;
	@%p1 bra 	$L__BB6_2;
	mov.u32 	%r7, 0;
	st.shared.u32 	[%r2], %r7;
$L__BB6_2:
	bar.sync 	0;
	mov.u32 	%r8, %ntid.x;
	mov.u32 	%r9, %ctaid.x;
	mad.lo.s32 	%r3, %r9, %r8, %r1;
	setp.ge.s32 	%p2, %r3, %r4;
	@%p2 bra 	$L__BB6_4;
	cvta.to.global.u64 	%rd4, %rd2;
	mul.wide.s32 	%rd5, %r3, 4;
	add.s64 	%rd6, %rd4, %rd5;
	ld.global.u32 	%r10, [%rd6];
	shl.b32 	%r11, %r10, 2;
	and.b32  	%r12, %r11, 252;
	add.s32 	%r14, %r6, %r12;
	atom.shared.add.u32 	%r15, [%r14], 1;
	and.b32  	%r16, %r10, 7;
	or.b32  	%r17, %r16, 64;
	mul.wide.u32 	%rd7, %r17, 4;
	add.s64 	%rd8, %rd1, %rd7;
	atom.global.add.u32 	%r18, [%rd8], 1;
$L__BB6_4:
	bar.sync 	0;
	@%p1 bra 	$L__BB6_6;
	mul.wide.s32 	%rd9, %r1, 4;
	add.s64 	%rd10, %rd1, %rd9;
	ld.shared.u32 	%r19, [%r2];
	atom.global.add.u32 	%r20, [%rd10], %r19;
$L__BB6_6:
	ret;
}
""")
    n = 5000
    v = np.random.default_rng(4).integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)
    i_, gh = _dev(mem, v), _dev(mem, np.zeros(72, np.uint32))
    launch(img, "hist", grid=(20,), block=(256,), params=struct.pack("<QQi", i_, gh, n),
           batch_threads=2048)
    h = _get(mem, gh, 72, np.uint32)
    b = v & 63
    assert np.array_equal(h[:64], np.bincount(b, minlength=64))
    assert np.array_equal(h[64:], np.bincount(b & 7, minlength=8))


def test_atomics_run_in_increasing_thread_order() -> None:
    img, mem = _image(r"""
.version 9.0
.target sm_80
.address_size 64
.visible .entry atom_misc(
	.param .u64 atom_misc_param_0,
	.param .u64 atom_misc_param_1,
	.param .u64 atom_misc_param_2,
	.param .u64 atom_misc_param_3
)
{
	.reg .f32 	%f<2>;
	.reg .b32 	%r<30>;
	.reg .b64 	%rd<18>;
	ld.param.u64 	%rd1, [atom_misc_param_0];
	ld.param.u64 	%rd2, [atom_misc_param_1];
	ld.param.u64 	%rd3, [atom_misc_param_2];
	ld.param.u64 	%rd4, [atom_misc_param_3];
	cvta.to.global.u64 	%rd5, %rd3;
	cvta.to.global.u64 	%rd6, %rd2;
	cvta.to.global.u64 	%rd7, %rd4;
	cvta.to.global.u64 	%rd8, %rd1;
	mov.u32 	%r1, %ctaid.x;
	mov.u32 	%r2, %ntid.x;
	mov.u32 	%r3, %tid.x;
	mad.lo.s32 	%r4, %r1, %r2, %r3;
	mov.u32 	%r5, 1000;
	sub.s32 	%r6, %r5, %r4;
	atom.global.min.s32 	%r7, [%rd8], %r6;
	add.s64 	%rd9, %rd8, 4;
	mul.lo.s32 	%r8, %r4, 7;
	mul.hi.s32 	%r9, %r8, 680390859;
	shr.u32 	%r10, %r9, 31;
	shr.s32 	%r11, %r9, 4;
	add.s32 	%r12, %r11, %r10;
	mul.lo.s32 	%r13, %r12, 101;
	sub.s32 	%r14, %r8, %r13;
	atom.global.max.s32 	%r15, [%rd9], %r14;
	add.s64 	%rd10, %rd8, 8;
	mov.u32 	%r16, 1;
	atom.global.add.u32 	%r17, [%rd10], 1;
	mul.wide.s32 	%rd11, %r4, 4;
	add.s64 	%rd12, %rd7, %rd11;
	st.global.u32 	[%rd12], %r17;
	atom.global.add.f32 	%f1, [%rd6], 0f3DCCCCCD;
	atom.global.inc.u32 	%r18, [%rd5], 9;
	add.s64 	%rd13, %rd8, 12;
	add.s32 	%r19, %r4, 1;
	atom.global.cas.b32 	%r20, [%rd13], %r4, %r19;
	add.s64 	%rd14, %rd8, 16;
	atom.global.exch.b32 	%r21, [%rd14], %r4;
	add.s64 	%rd15, %rd8, 20;
	and.b32  	%r22, %r4, 31;
	shl.b32 	%r23, %r16, %r22;
	atom.global.or.b32 	%r24, [%rd15], %r23;
	add.s64 	%rd16, %rd8, 24;
	atom.global.xor.b32 	%r25, [%rd16], %r4;
	add.s64 	%rd17, %rd8, 28;
	and.b32  	%r26, %r4, 15;
	mov.u32 	%r27, -2;
	shf.l.wrap.b32 	%r28, %r27, %r27, %r26;
	atom.global.and.b32 	%r29, [%rd17], %r28;
	ret;
}
""")
    p = _dev(mem, np.array([10**6, 0, 0, 5, 0, 0, 0, -1], np.int32))
    f = _dev(mem, np.zeros(1, np.float32))
    u = _dev(mem, np.zeros(1, np.uint32))
    order = _dev(mem, np.zeros(128, np.int32))
    launch(img, "atom_misc", grid=(2,), block=(64,), params=struct.pack("<QQQQ", p, f, u, order))
    i = np.arange(128)
    acc = np.float32(0)
    for _ in range(128):
        acc = np.float32(acc + np.float32(0.1))
    x = 0
    for k in i:
        x ^= int(k)
    assert _get(mem, p, 8, np.int32).tolist() == [
        int((1000 - i).min()), int((i * 7 % 101).max()), 128, 128, 127, -1, x,
        int(np.int32(-1) & ~np.int32(0xFFFF))]
    assert _get(mem, f, 1, np.float32)[0] == acc
    assert _get(mem, u, 1, np.uint32)[0] == 128 % 10
    assert np.array_equal(_get(mem, order, 128, np.int32), i)


TEX = r"""
.version 9.0
.target sm_80
.address_size 64
.global .texref tref;
.visible .entry tex1(.param .u64 h, .param .u64 out)
{
    .reg .b32 %r<8>; .reg .b64 %rd<6>;
    ld.param.u64 %rd1, [h];
    ld.param.u64 %rd2, [out];
    mov.u32 %r1, %tid.x;
    sub.s32 %r2, %r1, 2;
    tex.1d.v4.s32.s32 {%r3, %r4, %r5, %r6}, [%rd1, {%r2}];
    mul.wide.u32 %rd3, %r1, 4;
    add.s64 %rd4, %rd2, %rd3;
    st.global.u32 [%rd4], %r3;
    ret;
}
.visible .entry tex2(.param .u64 out, .param .f32 off)
{
    .reg .b32 %r<8>; .reg .b64 %rd<6>; .reg .f32 %f<8>;
    ld.param.u64 %rd2, [out];
    ld.param.f32 %f7, [off];
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, %tid.y;
    mov.u32 %r3, %ntid.x;
    cvt.rn.f32.u32 %f1, %r1;
    cvt.rn.f32.u32 %f2, %r2;
    add.f32 %f1, %f1, %f7;
    add.f32 %f2, %f2, %f7;
    tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [tref, {%f1, %f2}];
    mad.lo.s32 %r4, %r2, %r3, %r1;
    mul.wide.u32 %rd3, %r4, 4;
    add.s64 %rd4, %rd2, %rd3;
    st.global.f32 [%rd4], %f3;
    ret;
}
"""


def test_tex1d_fetch_by_handle_clamps() -> None:
    img, mem = _image(TEX)
    data = (np.arange(20, dtype=np.int32) * 3 + 1)
    a = _dev(mem, data)
    o = _dev(mem, np.zeros(32, np.int32))
    handle = 0xABC
    launch(img, "tex1", grid=(1,), block=(32,), params=struct.pack("<QQ", handle, o),
           textures={handle: TextureDesc(a, 20, dtype="s32")})
    t = np.arange(32)
    assert np.array_equal(_get(mem, o, 32, np.int32), data[np.clip(t - 2, 0, 19)])


def _tex2_setup() -> tuple[ModuleImage, GlobalMemory, np.ndarray, TextureDesc, int]:
    img, mem = _image(TEX)
    w, h, pitch = 5, 4, 8
    tex = np.random.default_rng(9).random((h, pitch), dtype=np.float32)
    a = _dev(mem, tex)
    desc = TextureDesc(a, w, h, pitch_bytes=pitch * 4, dtype="f32")
    o = _dev(mem, np.zeros(6 * 5, np.float32))
    return img, mem, tex[:, :w], desc, o


def test_tex2d_point_sampling_with_clamp() -> None:
    img, mem, tex, desc, o = _tex2_setup()
    launch(img, "tex2", grid=(1,), block=(6, 5), params=struct.pack("<Qf", o, 0.5),
           textures={"tref": desc})
    y, x = np.meshgrid(np.arange(5), np.arange(6), indexing="ij")
    ref = tex[np.minimum(y, 3), np.minimum(x, 4)]
    assert np.array_equal(_get(mem, o, 30, np.float32).reshape(5, 6), ref)


def test_tex2d_linear_filtering() -> None:
    img, mem, tex, desc, o = _tex2_setup()
    lin = TextureDesc(desc.address, desc.width, desc.height, desc.pitch_bytes, filter="linear")
    launch(img, "tex2", grid=(1,), block=(6, 5), params=struct.pack("<Qf", o, 1.0),
           textures={"tref": lin})
    y, x = np.meshgrid(np.arange(5), np.arange(6), indexing="ij")

    def t(yy: np.ndarray, xx: np.ndarray) -> np.ndarray:
        return tex[np.clip(yy, 0, 3), np.clip(xx, 0, 4)].astype(np.float64)
    ref = 0.25 * (t(y, x) + t(y, x + 1) + t(y + 1, x) + t(y + 1, x + 1))
    got = _get(mem, o, 30, np.float32).reshape(5, 6)
    assert np.allclose(got, ref, rtol=1e-6)


def test_unbound_texture_is_a_launch_error() -> None:
    img, _mem, _, _, o = _tex2_setup()
    with pytest.raises(LaunchError, match="not bound"):
        launch(img, "tex2", grid=(1,), block=(2, 2), params=struct.pack("<Qf", o, 0.5))
