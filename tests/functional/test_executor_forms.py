"""Functional executor: access widths and vectors, 64-bit atomics, inlined calls, special
registers, counted (named) barriers and a warp-synchronous tag-retry histogram.

Oracles: numpy conversions (sign/zero extension), sequential atomics in thread order, the
CUDA definitions of the special registers, exact histogram counts.
"""

from __future__ import annotations

import struct

import numpy as np

from warpsim.functional.executor import launch
from warpsim.functional.memory import GlobalMemory
from warpsim.functional.program import ModuleImage
from warpsim.ptx.parser import parse_ptx

HDR = ".version 9.0\n.target sm_80\n.address_size 64\n"


def _image(ptx: str) -> tuple[ModuleImage, GlobalMemory]:
    mem = GlobalMemory()
    return ModuleImage(parse_ptx(ptx, "test.ptx"), mem), mem


def _dev(mem: GlobalMemory, arr: np.ndarray) -> int:
    addr = mem.alloc(arr.nbytes)
    mem.write(addr, arr)
    return addr


def _get(mem: GlobalMemory, addr: int, n: int, dt: type) -> np.ndarray:
    return mem.read(addr, n * np.dtype(dt).itemsize).view(dt)


def test_sub_word_loads_extend_and_stores_truncate() -> None:
    img, mem = _image(r"""
.version 9.0
.target sm_80
.address_size 64
.visible .entry widths(
	.param .u64 widths_param_0,
	.param .u64 widths_param_1,
	.param .u64 widths_param_2,
	.param .u64 widths_param_3,
	.param .u64 widths_param_4
)
{
	.reg .b16 	%rs<3>;
	.reg .b32 	%r<6>;
	.reg .b64 	%rd<19>;
	ld.param.u64 	%rd1, [widths_param_0];
	ld.param.u64 	%rd2, [widths_param_1];
	ld.param.u64 	%rd3, [widths_param_2];
	ld.param.u64 	%rd4, [widths_param_3];
	ld.param.u64 	%rd5, [widths_param_4];
	cvta.to.global.u64 	%rd6, %rd5;
	cvta.to.global.u64 	%rd7, %rd3;
	cvta.to.global.u64 	%rd8, %rd2;
	cvta.to.global.u64 	%rd9, %rd4;
	cvta.to.global.u64 	%rd10, %rd1;
	mov.u32 	%r1, %tid.x;
	cvt.s64.s32 	%rd11, %r1;
	add.s64 	%rd12, %rd10, %rd11;
	ld.global.s8 	%r2, [%rd12];
	mul.lo.s32 	%r3, %r1, 3;
	mul.wide.s32 	%rd13, %r3, 4;
	add.s64 	%rd14, %rd9, %rd13;
	st.global.u32 	[%rd14], %r2;
	mul.wide.s32 	%rd15, %r1, 2;
	add.s64 	%rd16, %rd8, %rd15;
	ld.global.s16 	%r4, [%rd16];
	st.global.u32 	[%rd14+4], %r4;
	add.s64 	%rd17, %rd7, %rd11;
	ld.global.u8 	%r5, [%rd17];
	st.global.u32 	[%rd14+8], %r5;
	ld.global.s8 	%rs1, [%rd12];
	shl.b16 	%rs2, %rs1, 1;
	add.s64 	%rd18, %rd6, %rd15;
	st.global.u16 	[%rd18], %rs2;
	ret;
}
""")
    rng = np.random.default_rng(7)
    a = rng.integers(-128, 128, 32).astype(np.int8)
    b = rng.integers(-32768, 32768, 32).astype(np.int16)
    c = rng.integers(0, 256, 32).astype(np.uint8)
    pa, pb, pc = _dev(mem, a), _dev(mem, b), _dev(mem, c)
    out, o16 = _dev(mem, np.zeros(96, np.int32)), _dev(mem, np.zeros(32, np.int16))
    launch(img, "widths", grid=(1,), block=(32,), params=struct.pack("<QQQQQ", pa, pb, pc, out,
                                                                      o16))
    got = _get(mem, out, 96, np.int32).reshape(32, 3)
    assert np.array_equal(got[:, 0], a) and np.array_equal(got[:, 1], b)
    assert np.array_equal(got[:, 2], c)
    assert np.array_equal(_get(mem, o16, 32, np.int16), (a.astype(np.int16) * 2))


def test_v4_global_loads_and_v2_shared_stores() -> None:
    img, mem = _image(r"""
.version 9.0
.target sm_80
.address_size 64
.visible .entry vectors(
	.param .u64 vectors_param_0,
	.param .u64 vectors_param_1
)
{
	.reg .f32 	%f<11>;
	.reg .b32 	%r<13>;
	.reg .b64 	%rd<9>;
	.shared .align 8 .b8 _ZZ7vectorsE2sh[512];
	ld.param.u64 	%rd1, [vectors_param_0];
	ld.param.u64 	%rd2, [vectors_param_1];
	cvta.to.global.u64 	%rd3, %rd2;
	cvta.to.global.u64 	%rd4, %rd1;
	mov.u32 	%r1, %tid.x;
	mul.wide.s32 	%rd5, %r1, 16;
	add.s64 	%rd6, %rd4, %rd5;
	ld.global.v4.f32 	{%f1, %f2, %f3, %f4}, [%rd6];
	shl.b32 	%r2, %r1, 3;
	mov.u32 	%r3, _ZZ7vectorsE2sh;
	add.s32 	%r4, %r3, %r2;
	mul.f32 	%f9, %f3, %f4;
	add.f32 	%f10, %f1, %f2;
	st.shared.v2.f32 	[%r4], {%f10, %f9};
	bar.sync 	0;
	mul.wide.s32 	%rd7, %r1, 8;
	add.s64 	%rd8, %rd3, %rd7;
	mov.u32 	%r5, 63;
	sub.s32 	%r6, %r5, %r1;
	shl.b32 	%r7, %r6, 3;
	add.s32 	%r8, %r3, %r7;
	ld.shared.v2.u32 	{%r9, %r10}, [%r8];
	st.global.v2.u32 	[%rd8], {%r9, %r10};
	ret;
}
""")
    x = np.random.default_rng(8).random((64, 4), dtype=np.float32)
    i_, o = _dev(mem, x), _dev(mem, np.zeros((64, 2), np.float32))
    launch(img, "vectors", grid=(1,), block=(64,), params=struct.pack("<QQ", i_, o))
    ref = np.stack([x[:, 0] + x[:, 1], x[:, 2] * x[:, 3]], axis=1)[::-1]
    assert np.array_equal(_get(mem, o, 128, np.float32).reshape(64, 2), ref)


def test_64_bit_atomics() -> None:
    img, mem = _image(r"""
.version 9.0
.target sm_80
.address_size 64
.visible .entry atom64(
	.param .u64 atom64_param_0,
	.param .u64 atom64_param_1,
	.param .u64 atom64_param_2
)
{
	.reg .b32 	%r<11>;
	.reg .f64 	%fd<4>;
	.reg .b64 	%rd<17>;
	ld.param.u64 	%rd1, [atom64_param_0];
	ld.param.u64 	%rd2, [atom64_param_1];
	ld.param.u64 	%rd3, [atom64_param_2];
	cvta.to.global.u64 	%rd4, %rd3;
	cvta.to.global.u64 	%rd5, %rd2;
	cvta.to.global.u64 	%rd6, %rd1;
	mov.u32 	%r1, %ctaid.x;
	mov.u32 	%r2, %ntid.x;
	mov.u32 	%r3, %tid.x;
	mad.lo.s32 	%r4, %r1, %r2, %r3;
	cvt.u64.u32 	%rd7, %r4;
	shl.b64 	%rd8, %rd7, 33;
	atom.global.add.u64 	%rd9, [%rd6], %rd8;
	cvt.rn.f64.s32 	%fd1, %r4;
	mul.f64 	%fd2, %fd1, 0d3FD0000000000000;
	atom.global.add.f64 	%fd3, [%rd5], %fd2;
	add.s64 	%rd10, %rd6, 8;
	mul.lo.s32 	%r5, %r4, 37;
	shr.s32 	%r6, %r5, 31;
	shr.u32 	%r7, %r6, 26;
	add.s32 	%r8, %r5, %r7;
	and.b32  	%r9, %r8, 16777152;
	sub.s32 	%r10, %r5, %r9;
	cvt.u64.u32 	%rd11, %r10;
	shl.b64 	%rd12, %rd11, 40;
	atom.global.max.u64 	%rd13, [%rd10], %rd12;
	cvt.s64.s32 	%rd14, %r4;
	add.s64 	%rd15, %rd14, 1;
	atom.global.cas.b64 	%rd16, [%rd4], %rd14, %rd15;
	ret;
}
""")
    u = _dev(mem, np.zeros(2, np.uint64))
    d = _dev(mem, np.zeros(1, np.float64))
    cas = _dev(mem, np.zeros(1, np.uint64))
    launch(img, "atom64", grid=(3,), block=(64,), params=struct.pack("<QQQ", u, d, cas),
           batch_threads=128)
    i = np.arange(192, dtype=np.uint64)
    acc = 0.0
    for k in range(192):
        acc += 0.25 * k
    got = _get(mem, u, 2, np.uint64)
    assert int(got[0]) == int((i << np.uint64(33)).sum()) % 2**64
    assert int(got[1]) == int(((i * np.uint64(37)) % np.uint64(64)).max()) << 40
    assert _get(mem, d, 1, np.float64)[0] == acc
    assert int(_get(mem, cas, 1, np.uint64)[0]) == 192


CALLS = r"""
.func  (.param .b32 func_retval0) _Z6helperii(
	.param .b32 _Z6helperii_param_0,
	.param .b32 _Z6helperii_param_1
)
{
	.reg .b32 	%r<5>;
	ld.param.u32 	%r1, [_Z6helperii_param_0];
	ld.param.u32 	%r2, [_Z6helperii_param_1];
	xor.b32  	%r3, %r2, 5;
	mad.lo.s32 	%r4, %r1, 3, %r3;
	st.param.b32 	[func_retval0+0], %r4;
	ret;
}
.visible .entry calls(
	.param .u64 calls_param_0,
	.param .u64 calls_param_1
)
{
	.reg .b32 	%r<4>;
	.reg .b64 	%rd<8>;
	ld.param.u64 	%rd1, [calls_param_0];
	ld.param.u64 	%rd2, [calls_param_1];
	cvta.to.global.u64 	%rd3, %rd2;
	cvta.to.global.u64 	%rd4, %rd1;
	mov.u32 	%r1, %tid.x;
	mul.wide.s32 	%rd5, %r1, 4;
	add.s64 	%rd6, %rd4, %rd5;
	ld.global.u32 	%r2, [%rd6];
	{ // callseq 0, 0
	.reg .b32 temp_param_reg;
	.param .b32 param0;
	st.param.b32 	[param0+0], %r2;
	.param .b32 param1;
	st.param.b32 	[param1+0], %r1;
	.param .b32 retval0;
	call.uni (retval0),
	_Z6helperii,
	(
	param0,
	param1
	);
	ld.param.b32 	%r3, [retval0+0];
	} // callseq 0
	add.s64 	%rd7, %rd3, %rd5;
	st.global.u32 	[%rd7], %r3;
	ret;
}
"""


def test_device_function_calls_are_inlined() -> None:
    img, mem = _image(HDR + CALLS)
    x = np.arange(32, dtype=np.int32) * 7 - 50
    i_, o = _dev(mem, x), _dev(mem, np.zeros(32, np.int32))
    launch(img, "calls", grid=(1,), block=(32,), params=struct.pack("<QQ", i_, o))
    t = np.arange(32)
    assert np.array_equal(_get(mem, o, 32, np.int32), x * 3 + (t ^ 5))


def test_special_registers() -> None:
    img, mem = _image(r"""
.version 9.0
.target sm_80
.address_size 64
.visible .entry specials(
	.param .u64 specials_param_0
)
{
	.reg .b32 	%r<15>;
	.reg .b64 	%rd<5>;
	ld.param.u64 	%rd1, [specials_param_0];
	cvta.to.global.u64 	%rd2, %rd1;
	mov.u32 	%r10, %tid.x;
	mov.u32 	%r11, %ctaid.x;
	mov.u32 	%r12, %ntid.x;
	mad.lo.s32 	%r13, %r11, %r12, %r10;
	mov.u32 %r1, %lanemask_lt;
	mov.u32 %r2, %lanemask_le;
	mov.u32 %r3, %lanemask_gt;
	mov.u32 %r4, %lanemask_ge;
	mov.u32 %r5, %lanemask_eq;
	mov.u32 %r6, %laneid;
	mov.u32 %r7, %warpid;
	mov.u32 %r8, %smid;
	mov.u32 %r9, %dynamic_smem_size;
	mul.lo.s32 	%r14, %r13, 9;
	mul.wide.s32 	%rd3, %r14, 4;
	add.s64 	%rd4, %rd2, %rd3;
	st.global.u32 	[%rd4], %r1;
	st.global.u32 	[%rd4+4], %r2;
	st.global.u32 	[%rd4+8], %r3;
	st.global.u32 	[%rd4+12], %r4;
	st.global.u32 	[%rd4+16], %r5;
	st.global.u32 	[%rd4+20], %r6;
	st.global.u32 	[%rd4+24], %r7;
	st.global.u32 	[%rd4+28], %r8;
	st.global.u32 	[%rd4+32], %r9;
	ret;
}
""")
    o = _dev(mem, np.zeros(96 * 9, np.uint32))
    launch(img, "specials", grid=(2,), block=(48,), params=struct.pack("<Q", o),
           dynamic_shared_bytes=40)
    got = _get(mem, o, 96 * 9, np.uint32).reshape(96, 9).astype(np.int64)
    tid = np.tile(np.arange(48), 2)
    lane = tid % 32
    bit = 1 << lane
    assert np.array_equal(got[:, 0], bit - 1) and np.array_equal(got[:, 1], 2 * bit - 1)
    assert np.array_equal(got[:, 2], 0xFFFFFFFF & ~(2 * bit - 1))
    assert np.array_equal(got[:, 3], 0xFFFFFFFF & ~(bit - 1))
    assert np.array_equal(got[:, 4], bit) and np.array_equal(got[:, 5], lane)
    assert np.array_equal(got[:, 6], tid // 32)
    assert not got[:, 7].any() and (got[:, 8] == 40).all()


def test_warp_synchronous_tag_retry_histogram() -> None:
    """SDK histogram64-style shared-memory update: each lane tags its write with its lane id
    and retries until its own write survives; correct only under lockstep warps with one
    winner per address (one warp owns the histogram, as in the SDK's per-warp histograms)."""
    img, mem = _image(r"""
.version 9.0
.target sm_80
.address_size 64
.visible .entry tag_hist(
	.param .u64 tag_hist_param_0,
	.param .u64 tag_hist_param_1,
	.param .u32 tag_hist_param_2
)
{
	.reg .pred 	%p<6>;
	.reg .b32 	%r<24>;
	.reg .b64 	%rd<9>;
	.shared .align 4 .b8 _ZZ8tag_histE1s[64];
	ld.param.u64 	%rd2, [tag_hist_param_0];
	ld.param.u64 	%rd3, [tag_hist_param_1];
	ld.param.u32 	%r8, [tag_hist_param_2];
	mov.u32 	%r1, %tid.x;
	setp.gt.s32 	%p1, %r1, 15;
	shl.b32 	%r9, %r1, 2;
	mov.u32 	%r10, _ZZ8tag_histE1s;
	add.s32 	%r2, %r10, %r9;
	@%p1 bra 	$L__BB2_2;
	mov.u32 	%r11, 0;
	st.volatile.shared.u32 	[%r2], %r11;
$L__BB2_2:
	bar.sync 	0;
	setp.ge.s32 	%p2, %r1, %r8;
	@%p2 bra 	$L__BB2_7;
	mov.u32 	%r3, %ntid.x;
	cvta.to.global.u64 	%rd1, %rd2;
	shl.b32 	%r4, %r1, 27;
	mov.u32 	%r23, %r1;
$L__BB2_4:
	mul.wide.s32 	%rd4, %r23, 4;
	add.s64 	%rd5, %rd1, %rd4;
	ld.global.u32 	%r12, [%rd5];
	shl.b32 	%r13, %r12, 2;
	and.b32  	%r14, %r13, 60;
	add.s32 	%r6, %r10, %r14;
$L__BB2_5:
	ld.volatile.shared.u32 	%r16, [%r6];
	and.b32  	%r17, %r16, 134217727;
	add.s32 	%r18, %r17, 1;
	or.b32  	%r19, %r18, %r4;
	st.volatile.shared.u32 	[%r6], %r19;
	ld.volatile.shared.u32 	%r20, [%r6];
	setp.ne.s32 	%p3, %r20, %r19;
	@%p3 bra 	$L__BB2_5;
	add.s32 	%r23, %r23, %r3;
	setp.lt.s32 	%p4, %r23, %r8;
	@%p4 bra 	$L__BB2_4;
$L__BB2_7:
	bar.sync 	0;
	@%p1 bra 	$L__BB2_9;
	ld.volatile.shared.u32 	%r21, [%r2];
	and.b32  	%r22, %r21, 134217727;
	cvta.to.global.u64 	%rd6, %rd3;
	mul.wide.s32 	%rd7, %r1, 4;
	add.s64 	%rd8, %rd6, %rd7;
	st.global.u32 	[%rd8], %r22;
$L__BB2_9:
	ret;
}
""")
    n = 3000
    v = np.random.default_rng(11).integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)
    i_, o = _dev(mem, v), _dev(mem, np.zeros(16, np.uint32))
    launch(img, "tag_hist", grid=(1,), block=(32,), params=struct.pack("<QQi", i_, o, n))
    assert np.array_equal(_get(mem, o, 16, np.uint32), np.bincount(v & 15, minlength=16))


NAMED_BARRIER = HDR + r"""
.visible .entry named(.param .u64 out)
{
    .reg .b32 %r<8>; .reg .b64 %rd<4>; .reg .pred %p<2>;
    .shared .align 4 .b8 sm[512];
    mov.u32 %r1, %tid.x;
    shr.u32 %r2, %r1, 6;
    setp.eq.u32 %p1, %r2, 0;
    shl.b32 %r3, %r1, 2;
    @%p1 bra PRODUCER;
    barrier.sync 1, 128;
    sub.u32 %r4, %r3, 256;
    ld.shared.u32 %r5, [%r4];
    bra DONE;
PRODUCER:
    mul.lo.u32 %r6, %r1, 10;
    st.shared.u32 [%r3], %r6;
    bar.arrive 1, 128;
    mov.u32 %r5, 0;
DONE:
    ld.param.u64 %rd1, [out];
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r5;
    ret;
}
"""


def test_counted_barrier_with_bar_arrive() -> None:
    """Warps 0-1 produce and ``bar.arrive 1, 128``; warps 2-3 ``barrier.sync 1, 128`` and read
    what the producers wrote."""
    img, mem = _image(NAMED_BARRIER)
    o = _dev(mem, np.zeros(128, np.uint32))
    launch(img, "named", grid=(2,), block=(128,), params=struct.pack("<Q", o))
    got = _get(mem, o, 128, np.uint32)
    assert not got[:64].any()
    assert np.array_equal(got[64:], np.arange(64) * 10)


RED_VOTE = HDR + r"""
.visible .entry red_vote(.param .u64 p, .param .u64 out)
{
    .reg .b32 %r<8>; .reg .b64 %rd<6>; .reg .pred %p<4>;
    .shared .align 4 .b8 sm[4];
    ld.param.u64 %rd1, [p];
    ld.param.u64 %rd2, [out];
    mov.u32 %r1, %tid.x;
    setp.eq.u32 %p1, %r1, 0;
    @%p1 st.shared.u32 [sm], 0;
    bar.sync 0;
    red.global.add.u32 [%rd1], %r1;
    red.shared.max.u32 [sm], %r1;
    atom.global.dec.u32 %r2, [%rd1+4], 5;
    and.b32 %r3, %r1, 32;
    setp.eq.u32 %p2, %r3, 0;
    vote.sync.uni.pred %p3, %p2, -1;
    selp.u32 %r4, 1, 0, %p3;
    bar.sync 0;
    ld.shared.u32 %r5, [sm];
    mul.wide.u32 %rd3, %r1, 4;
    add.s64 %rd4, %rd2, %rd3;
    mad.lo.u32 %r6, %r5, 10, %r4;
    st.global.u32 [%rd4], %r6;
    ret;
}
"""


def test_red_atomic_dec_and_vote_uni() -> None:
    img, mem = _image(RED_VOTE)
    p = _dev(mem, np.array([0, 3], np.uint32))
    o = _dev(mem, np.zeros(48, np.uint32))
    launch(img, "red_vote", grid=(1,), block=(48,), params=struct.pack("<QQ", p, o))
    dec = 3
    for _ in range(48):  # atom.dec: (old == 0 || old > 5) ? 5 : old - 1
        dec = 5 if dec == 0 or dec > 5 else dec - 1
    assert _get(mem, p, 2, np.uint32).tolist() == [sum(range(48)), dec]
    # lanes 0-31: tid & 32 == 0 for all (uniform); lanes 32-47: all != 0 (uniform too)
    assert (_get(mem, o, 48, np.uint32) == 47 * 10 + 1).all()
