"""Functional executor: divergence and reconvergence, barriers, deadlocks, step limits and
memory faults.

Oracles: hand-derived SIMT-stack sequences (GPGPU-Sim order: taken path first), plain-Python
re-implementations of the kernels, and the fault's known thread/address.
"""

from __future__ import annotations

import struct

import numpy as np
import pytest

from warpsim.errors import BarrierDeadlockError, MemoryAccessError
from warpsim.functional.executor import StepLimitError, launch
from warpsim.functional.memory import GlobalMemory
from warpsim.functional.program import ModuleImage
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


HDR = ".version 9.0\n.target sm_80\n.address_size 64\n"

IF_ELSE = HDR + r"""
.visible .entry if_else(.param .u64 out)
{
    .reg .b32 %r<6>; .reg .pred %p<3>; .reg .b64 %rd<4>;
    mov.u32 %r1, %tid.x;
    and.b32 %r2, %r1, 1;
    setp.eq.u32 %p1, %r2, 0;
    @%p1 bra EVEN;
    add.u32 %r3, %r1, 1;
    bra JOIN;
EVEN:
    add.u32 %r3, %r1, 2;
JOIN:
    setp.lt.u32 %p2, %r1, 8;
    @%p2 bra SMALL;
    bra END;
SMALL:
    add.u32 %r3, %r3, 100;
END:
    ld.param.u64 %rd1, [out];
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r3;
    ret;
}
"""


def test_if_else_results_and_masks_follow_the_ipdom_stack() -> None:
    img, mem = _image(IF_ELSE)
    o = _dev(mem, np.zeros(64, np.uint32))
    r = launch(img, "if_else", grid=(1,), block=(64,), params=struct.pack("<Q", o))
    t = np.arange(64)
    assert np.array_equal(_get(mem, o, 64, np.uint32),
                          np.where(t & 1, t + 1, t + 2) + np.where(t < 8, 100, 0))
    full, even, odd = 0xFFFFFFFF, 0x55555555, 0xAAAAAAAA
    w0 = r.trace.warp_records(0, 0)
    tail = [11, 12, 13, 14, 15]
    assert w0["pc"].tolist() == [0, 1, 2, 3, 6, 4, 5, 7, 8, 10, 9, *tail]
    assert w0["mask"].tolist() == [full] * 4 + [even, odd, odd, full, full, 0xFF,
                                                0xFFFFFF00] + [full] * 5
    w1 = r.trace.warp_records(0, 1)
    assert w1["pc"].tolist() == [0, 1, 2, 3, 6, 4, 5, 7, 8, 9, *tail]
    assert w1["mask"].tolist() == [full] * 4 + [even, odd, odd, full, full, full] + [full] * 5


DIVERGENT = r"""
.version 9.0
.target sm_80
.address_size 64
.visible .entry divergent_loops(
	.param .u64 divergent_loops_param_0,
	.param .u64 divergent_loops_param_1,
	.param .u32 divergent_loops_param_2
)
{
	.reg .pred 	%p<15>;
	.reg .b32 	%r<89>;
	.reg .b64 	%rd<10>;
	ld.param.u64 	%rd2, [divergent_loops_param_0];
	ld.param.u64 	%rd3, [divergent_loops_param_1];
	ld.param.u32 	%r37, [divergent_loops_param_2];
	mov.u32 	%r38, %ntid.x;
	mov.u32 	%r39, %ctaid.x;
	mov.u32 	%r40, %tid.x;
	mad.lo.s32 	%r1, %r39, %r38, %r40;
	setp.ge.s32 	%p1, %r1, %r37;
	@%p1 bra 	$L__BB5_20;
	cvta.to.global.u64 	%rd4, %rd2;
	cvt.s64.s32 	%rd1, %r1;
	mul.wide.s32 	%rd5, %r1, 4;
	add.s64 	%rd6, %rd4, %rd5;
	ld.global.u32 	%r2, [%rd6];
	mul.hi.s32 	%r41, %r2, 1431655766;
	shr.u32 	%r42, %r41, 31;
	add.s32 	%r43, %r41, %r42;
	mul.lo.s32 	%r44, %r43, 3;
	sub.s32 	%r3, %r2, %r44;
	setp.eq.s32 	%p2, %r3, 0;
	@%p2 bra 	$L__BB5_7;
	setp.eq.s32 	%p3, %r3, 1;
	@%p3 bra 	$L__BB5_4;
	bra.uni 	$L__BB5_3;
$L__BB5_4:
	mul.hi.s32 	%r46, %r2, 780903145;
	shr.u32 	%r47, %r46, 31;
	shr.s32 	%r48, %r46, 1;
	add.s32 	%r49, %r48, %r47;
	mul.lo.s32 	%r50, %r49, 11;
	sub.s32 	%r5, %r2, %r50;
	setp.lt.s32 	%p4, %r5, 1;
	mov.u32 	%r87, 1;
	@%p4 bra 	$L__BB5_19;
	mov.u32 	%r87, 1;
	mov.u32 	%r76, 0;
$L__BB5_6:
	mad.lo.s32 	%r53, %r76, %r76, %r87;
	and.b32  	%r54, %r53, 4;
	setp.eq.s32 	%p5, %r54, 0;
	xor.b32  	%r55, %r53, 85;
	selp.b32 	%r87, %r53, %r55, %p5;
	add.s32 	%r76, %r76, 1;
	setp.lt.s32 	%p6, %r76, %r5;
	@%p6 bra 	$L__BB5_6;
	bra.uni 	$L__BB5_19;
$L__BB5_7:
	and.b32  	%r10, %r2, 7;
	setp.eq.s32 	%p7, %r10, 0;
	mov.u32 	%r87, 1;
	@%p7 bra 	$L__BB5_19;
	shr.s32 	%r11, %r2, 3;
	mov.u32 	%r87, 1;
	mov.u32 	%r78, 0;
$L__BB5_9:
	xor.b32  	%r59, %r78, %r11;
	mul.hi.s32 	%r60, %r59, 1717986919;
	shr.u32 	%r61, %r60, 31;
	shr.s32 	%r62, %r60, 1;
	add.s32 	%r63, %r62, %r61;
	mul.lo.s32 	%r64, %r63, 5;
	sub.s32 	%r14, %r59, %r64;
	setp.lt.s32 	%p8, %r14, 1;
	@%p8 bra 	$L__BB5_18;
	add.s32 	%r67, %r14, -1;
	and.b32  	%r15, %r14, 3;
	setp.lt.u32 	%p9, %r67, 3;
	mov.u32 	%r85, 0;
	@%p9 bra 	$L__BB5_14;
	sub.s32 	%r83, %r14, %r15;
	mul.lo.s32 	%r80, %r78, 40;
	mov.u32 	%r85, 0;
$L__BB5_12:
	mul.lo.s32 	%r22, %r87, 81;
	add.s32 	%r69, %r80, %r22;
	add.s32 	%r87, %r69, -18;
	add.s32 	%r85, %r85, 4;
	add.s32 	%r80, %r80, -160;
	add.s32 	%r83, %r83, -4;
	setp.ne.s32 	%p10, %r83, 0;
	@%p10 bra 	$L__BB5_12;
	add.s32 	%r70, %r22, %r80;
	add.s32 	%r87, %r70, 142;
$L__BB5_14:
	setp.eq.s32 	%p11, %r15, 0;
	@%p11 bra 	$L__BB5_18;
	mad.lo.s32 	%r71, %r87, 3, %r78;
	sub.s32 	%r87, %r71, %r85;
	setp.eq.s32 	%p12, %r15, 1;
	@%p12 bra 	$L__BB5_18;
	mad.lo.s32 	%r72, %r87, 3, %r78;
	not.b32 	%r73, %r85;
	add.s32 	%r87, %r72, %r73;
	setp.eq.s32 	%p13, %r15, 2;
	@%p13 bra 	$L__BB5_18;
	add.s32 	%r74, %r85, 2;
	mad.lo.s32 	%r75, %r87, 3, %r78;
	sub.s32 	%r87, %r75, %r74;
$L__BB5_18:
	add.s32 	%r78, %r78, 1;
	setp.lt.u32 	%p14, %r78, %r10;
	@%p14 bra 	$L__BB5_9;
	bra.uni 	$L__BB5_19;
$L__BB5_3:
	neg.s32 	%r87, %r2;
$L__BB5_19:
	cvta.to.global.u64 	%rd7, %rd3;
	shl.b64 	%rd8, %rd1, 2;
	add.s64 	%rd9, %rd7, %rd8;
	st.global.u32 	[%rd9], %r87;
$L__BB5_20:
	ret;
}
"""


def _divergent_ref(v: int) -> int:
    acc = 1
    if v % 3 == 0:
        for a in range(v & 7):
            for b in range((a ^ (v >> 3)) % 5):
                acc = acc * 3 + a - b
    elif v % 3 == 1:
        k = 0
        while k < v % 11:
            acc += k * k
            if acc & 4:
                acc ^= 0x55
            k += 1
    else:
        acc = -v
    return int(np.int64(acc).astype(np.int32))


def test_nested_loops_with_per_lane_trip_counts() -> None:
    img, mem = _image(DIVERGENT)
    n = 1000
    v = np.random.default_rng(3).integers(0, 200, n).astype(np.int32)
    i_, o = _dev(mem, v), _dev(mem, np.zeros(n, np.int32))
    r = launch(img, "divergent_loops", grid=(4,), block=(256,),
               params=struct.pack("<QQi", i_, o, n), batch_threads=512)
    assert np.array_equal(_get(mem, o, n, np.int32), [_divergent_ref(int(a)) for a in v])
    c = r.trace.chunks[0]
    assert c.mask.min() < 0xFFFFFFFF  # really divergent


def test_shared_memory_tree_reduction_with_barriers() -> None:
    img, mem = _image(r"""
.version 9.0
.target sm_80
.address_size 64
.visible .entry shared_reduce(
	.param .u64 shared_reduce_param_0,
	.param .u64 shared_reduce_param_1
)
{
	.reg .pred 	%p<10>;
	.reg .f32 	%f<27>;
	.reg .b32 	%r<8>;
	.reg .b64 	%rd<9>;
	.shared .align 4 .b8 _ZZ13shared_reduceE1s[1024];
	ld.param.u64 	%rd2, [shared_reduce_param_0];
	ld.param.u64 	%rd1, [shared_reduce_param_1];
	cvta.to.global.u64 	%rd3, %rd2;
	mov.u32 	%r1, %ctaid.x;
	shl.b32 	%r4, %r1, 8;
	mov.u32 	%r2, %tid.x;
	add.s32 	%r5, %r4, %r2;
	mul.wide.u32 	%rd4, %r5, 4;
	add.s64 	%rd5, %rd3, %rd4;
	ld.global.f32 	%f1, [%rd5];
	shl.b32 	%r6, %r2, 2;
	mov.u32 	%r7, _ZZ13shared_reduceE1s;
	add.s32 	%r3, %r7, %r6;
	st.shared.f32 	[%r3], %f1;
	bar.sync 	0;
	setp.gt.s32 	%p1, %r2, 127;
	@%p1 bra 	$L__BB3_2;
	ld.shared.f32 	%f2, [%r3];
	ld.shared.f32 	%f3, [%r3+512];
	add.f32 	%f4, %f3, %f2;
	st.shared.f32 	[%r3], %f4;
$L__BB3_2:
	bar.sync 	0;
	setp.gt.s32 	%p2, %r2, 63;
	@%p2 bra 	$L__BB3_4;
	ld.shared.f32 	%f5, [%r3];
	ld.shared.f32 	%f6, [%r3+256];
	add.f32 	%f7, %f6, %f5;
	st.shared.f32 	[%r3], %f7;
$L__BB3_4:
	bar.sync 	0;
	setp.gt.s32 	%p3, %r2, 31;
	@%p3 bra 	$L__BB3_6;
	ld.shared.f32 	%f8, [%r3];
	ld.shared.f32 	%f9, [%r3+128];
	add.f32 	%f10, %f9, %f8;
	st.shared.f32 	[%r3], %f10;
$L__BB3_6:
	bar.sync 	0;
	setp.gt.s32 	%p4, %r2, 15;
	@%p4 bra 	$L__BB3_8;
	ld.shared.f32 	%f11, [%r3];
	ld.shared.f32 	%f12, [%r3+64];
	add.f32 	%f13, %f12, %f11;
	st.shared.f32 	[%r3], %f13;
$L__BB3_8:
	bar.sync 	0;
	setp.gt.s32 	%p5, %r2, 7;
	@%p5 bra 	$L__BB3_10;
	ld.shared.f32 	%f14, [%r3];
	ld.shared.f32 	%f15, [%r3+32];
	add.f32 	%f16, %f15, %f14;
	st.shared.f32 	[%r3], %f16;
$L__BB3_10:
	bar.sync 	0;
	setp.gt.s32 	%p6, %r2, 3;
	@%p6 bra 	$L__BB3_12;
	ld.shared.f32 	%f17, [%r3];
	ld.shared.f32 	%f18, [%r3+16];
	add.f32 	%f19, %f18, %f17;
	st.shared.f32 	[%r3], %f19;
$L__BB3_12:
	bar.sync 	0;
	setp.gt.s32 	%p7, %r2, 1;
	@%p7 bra 	$L__BB3_14;
	ld.shared.f32 	%f20, [%r3];
	ld.shared.f32 	%f21, [%r3+8];
	add.f32 	%f22, %f21, %f20;
	st.shared.f32 	[%r3], %f22;
$L__BB3_14:
	bar.sync 	0;
	setp.gt.s32 	%p8, %r2, 0;
	@%p8 bra 	$L__BB3_16;
	ld.shared.f32 	%f23, [%r3];
	ld.shared.f32 	%f24, [%r3+4];
	add.f32 	%f25, %f24, %f23;
	st.shared.f32 	[%r3], %f25;
$L__BB3_16:
	bar.sync 	0;
	setp.ne.s32 	%p9, %r2, 0;
	@%p9 bra 	$L__BB3_18;
	cvta.to.global.u64 	%rd6, %rd1;
	ld.shared.f32 	%f26, [_ZZ13shared_reduceE1s];
	mul.wide.u32 	%rd7, %r1, 4;
	add.s64 	%rd8, %rd6, %rd7;
	st.global.f32 	[%rd8], %f26;
$L__BB3_18:
	ret;
}
""")
    x = np.random.default_rng(1).random(256 * 8).astype(np.float32)
    i_, o = _dev(mem, x), _dev(mem, np.zeros(8, np.float32))
    launch(img, "shared_reduce", grid=(8,), block=(256,), params=struct.pack("<QQ", i_, o),
           batch_threads=1024)
    ref = x.reshape(8, 256).copy()
    st = 128
    while st:
        ref[:, :st] = ref[:, :st] + ref[:, st:2 * st]
        st //= 2
    assert np.array_equal(_get(mem, o, 8, np.float32), ref[:, 0])


EARLY_EXIT_BARRIER = HDR + r"""
.visible .entry early_exit(.param .u64 out)
{
    .reg .b32 %r<6>; .reg .pred %p<3>; .reg .b64 %rd<4>;
    .shared .align 4 .b8 sm[256];
    mov.u32 %r1, %tid.x;
    setp.ge.u32 %p1, %r1, 40;
    @%p1 bra END;
    shl.b32 %r2, %r1, 2;
    st.shared.u32 [%r2], %r1;
    bar.sync 0;
    sub.u32 %r3, 39, %r1;
    shl.b32 %r4, %r3, 2;
    ld.shared.u32 %r5, [%r4];
    ld.param.u64 %rd1, [out];
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r5;
END:
    ret;
}
"""


def test_barrier_waits_only_for_threads_that_did_not_exit() -> None:
    img, mem = _image(EARLY_EXIT_BARRIER)
    o = _dev(mem, np.zeros(64, np.uint32))
    launch(img, "early_exit", grid=(3,), block=(64,), params=struct.pack("<Q", o))
    out = _get(mem, o, 64, np.uint32)
    assert np.array_equal(out[:40], 39 - np.arange(40))
    assert not out[40:].any()


DEADLOCK = HDR + r"""
.visible .entry deadlock()
{
    .reg .b32 %r<2>; .reg .pred %p<2>;
    mov.u32 %r1, %tid.x;
    setp.ge.u32 %p1, %r1, 16;
    @%p1 bra END;
    bar.sync 0;
END:
    bar.sync 0;
    ret;
}
"""


def test_barrier_in_divergent_code_is_a_deadlock() -> None:
    """``if (tid < 16) __syncthreads(); __syncthreads();`` on 64 threads: lanes 16-31 of warp 0
    can never reach the second barrier while lanes 0-15 wait at the first."""
    img, _ = _image(DEADLOCK)
    with pytest.raises(BarrierDeadlockError) as ei:
        launch(img, "deadlock", grid=(2,), block=(64,), params=b"")
    err = ei.value
    assert err.block == (0, 0, 0)
    assert "warp 0 waits at line 11 (bar.sync 0;) with lanes 0x0000ffff" in err.detail
    assert "warp 1 waits at line 13" in err.detail


def test_barrier_skipped_only_by_exiting_lanes_completes() -> None:
    """``if (tid < 16) __syncthreads();`` and nothing after: the other threads exit, and PTX
    barriers do not wait for exited threads."""
    img, _ = _image(DEADLOCK.replace("END:\n    bar.sync 0;", "END:"))
    r = launch(img, "deadlock", grid=(2,), block=(64,), params=b"")
    assert r.opcode_counts["bar.sync"] == 2


SPIN = HDR + r"""
.visible .entry spin()
{
    .reg .b32 %r<2>;
    mov.u32 %r1, 0;
LOOP:
    add.u32 %r1, %r1, 1;
    bra LOOP;
}
"""


def test_step_limit_names_kernel_line_and_block() -> None:
    img, _ = _image(SPIN)
    with pytest.raises(StepLimitError) as ei:
        launch(img, "spin", grid=(1,), block=(32,), params=b"", max_steps=500)
    msg = str(ei.value)
    assert "spin" in msg and "infinite loop" in msg and "block (0, 0, 0)" in msg
    assert "line 10 " in msg or "line 11 " in msg


OOB = HDR + r"""
.visible .entry oob(.param .u64 out, .param .u32 shift)
{
    .reg .b32 %r<4>; .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    ld.param.u32 %r2, [shift];
    mov.u32 %r1, %tid.x;
    add.u32 %r1, %r1, %r2;
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r1;
    ret;
}
"""


def test_out_of_bounds_store_names_thread_block_address_and_line() -> None:
    img, mem = _image(OOB)
    o = _dev(mem, np.full(40, 7, np.uint32))
    other = _dev(mem, np.full(64, 9, np.uint32))
    with pytest.raises(MemoryAccessError) as ei:
        launch(img, "oob", grid=(2,), block=(64,), params=struct.pack("<QI", o, 0))
    err = ei.value
    assert err.thread == (40, 0, 0) and err.block == (0, 0, 0)
    assert err.address == o + 40 * 4
    assert err.line == 14 and err.space == "global"
    assert "st.global.u32" in str(err)
    assert "[" in err.bounds
    assert np.array_equal(_get(mem, o, 40, np.uint32), np.full(40, 7))
    assert np.array_equal(_get(mem, other, 64, np.uint32), np.full(64, 9))


def test_null_pointer_store_faults() -> None:
    img, _mem = _image(OOB)
    with pytest.raises(MemoryAccessError, match="out-of-bounds"):
        launch(img, "oob", grid=(1,), block=(32,), params=struct.pack("<QI", 0, 0))


MISALIGNED = HDR + r"""
.visible .entry mis(.param .u64 p)
{
    .reg .b32 %r<2>; .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [p];
    ld.global.u32 %r1, [%rd1+2];
    ret;
}
"""


def test_misaligned_load_faults() -> None:
    img, mem = _image(MISALIGNED)
    p = _dev(mem, np.zeros(4, np.uint32))
    with pytest.raises(MemoryAccessError, match="misaligned") as ei:
        launch(img, "mis", grid=(1,), block=(4,), params=struct.pack("<Q", p))
    assert ei.value.thread == (0, 0, 0)


SHARED_OOB = HDR + r"""
.visible .entry shoob()
{
    .reg .b32 %r<3>;
    .shared .align 4 .b8 sm[64];
    mov.u32 %r1, %tid.x;
    shl.b32 %r2, %r1, 2;
    st.shared.u32 [%r2], %r1;
    ret;
}
"""


def test_shared_store_past_the_cta_window_faults() -> None:
    img, _ = _image(SHARED_OOB)
    launch(img, "shoob", grid=(2,), block=(16,), params=b"")
    with pytest.raises(MemoryAccessError) as ei:
        launch(img, "shoob", grid=(2,), block=(32,), params=b"")
    assert ei.value.space == "shared" and ei.value.thread == (16, 0, 0)


NEG_OFFSET = HDR + r"""
.visible .entry negoff(.param .u64 out)
{
    .reg .b32 %r<6>; .reg .b64 %rd<6>;
    .shared .align 4 .b8 sm[256];
    mov.u32 %r1, %tid.x;
    shl.b32 %r2, %r1, 2;
    add.u32 %r3, %r2, 4;
    st.shared.u32 [%r3+-4], %r1;
    bar.sync 0;
    ld.shared.u32 %r4, [%r2];
    ld.param.u64 %rd1, [out];
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    add.s64 %rd4, %rd3, 8;
    st.global.u32 [%rd4+-8], %r4;
    ret;
}
"""


def test_negative_immediate_address_offsets() -> None:
    img, mem = _image(NEG_OFFSET)
    o = _dev(mem, np.zeros(32, np.uint32))
    launch(img, "negoff", grid=(1,), block=(32,), params=struct.pack("<Q", o))
    assert np.array_equal(_get(mem, o, 32, np.uint32), np.arange(32))


def test_negative_shared_address_wraps_and_faults() -> None:
    img, mem = _image(NEG_OFFSET.replace("add.u32 %r3, %r2, 4;", "add.u32 %r3, %r2, 0;"))
    o = _dev(mem, np.zeros(32, np.uint32))
    with pytest.raises(MemoryAccessError) as ei:
        launch(img, "negoff", grid=(1,), block=(32,), params=struct.pack("<Q", o))
    assert ei.value.address == 0xFFFFFFFC and ei.value.thread == (0, 0, 0)


SPIN_WAIT = HDR + r"""
.visible .entry spin_wait(.param .u64 flag, .param .u64 data, .param .u64 out)
{
    .reg .b32 %r<6>; .reg .b64 %rd<8>; .reg .pred %p<3>;
    ld.param.u64 %rd1, [flag];
    ld.param.u64 %rd2, [data];
    ld.param.u64 %rd3, [out];
    mov.u32 %r1, %tid.x;
    shr.u32 %r2, %r1, 5;
    setp.eq.u32 %p1, %r2, 1;
    @!%p1 bra PRODUCER;
SPIN:
    ld.volatile.global.u32 %r3, [%rd1];
    setp.eq.u32 %p2, %r3, 0;
    @%p2 bra SPIN;
    ld.global.u32 %r4, [%rd2];
    mul.wide.u32 %rd4, %r1, 4;
    add.s64 %rd5, %rd3, %rd4;
    st.global.u32 [%rd5], %r4;
    bra DONE;
PRODUCER:
    st.global.u32 [%rd2], 42;
    st.volatile.global.u32 [%rd1], 1;
DONE:
    ret;
}
"""


def test_warp_spinning_on_another_warps_flag_does_not_starve_it() -> None:
    img, mem = _image(SPIN_WAIT)
    flag, data = _dev(mem, np.zeros(1, np.uint32)), _dev(mem, np.zeros(1, np.uint32))
    o = _dev(mem, np.zeros(64, np.uint32))
    launch(img, "spin_wait", grid=(1,), block=(64,), params=struct.pack("<QQQ", flag, data, o),
           max_steps=100_000)
    out = _get(mem, o, 64, np.uint32)
    assert not out[:32].any() and (out[32:] == 42).all()


GUARDED = HDR + r"""
.visible .entry guarded(.param .u64 buf, .param .u64 out)
{
    .reg .b32 %r<6>; .reg .b64 %rd<8>; .reg .pred %p<3>;
    ld.param.u64 %rd1, [buf];
    ld.param.u64 %rd5, [out];
    mov.u32 %r1, %tid.x;
    and.b32 %r2, %r1, 1;
    setp.eq.u32 %p1, %r2, 0;
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    @%p1 st.global.u32 [%rd3], %r1;
    @!%p1 ld.global.u32 %r3, [%rd3];
    @!%p1 add.u32 %r3, %r3, 1000;
    @!%p1 st.global.u32 [%rd3], %r3;
    @%p1 exit;
    add.s64 %rd6, %rd5, %rd2;
    st.global.u32 [%rd6], %r1;
    ret;
}
"""


def test_guarded_loads_stores_and_exit_on_partial_warps() -> None:
    """48 threads (warp 1 has 16 lanes): guards select lanes inside full and partial warps."""
    img, mem = _image(GUARDED)
    buf = _dev(mem, np.arange(48, dtype=np.uint32) * 10)
    o = _dev(mem, np.full(48, 7, np.uint32))
    r = launch(img, "guarded", grid=(1,), block=(48,), params=struct.pack("<QQ", buf, o))
    t = np.arange(48)
    assert np.array_equal(_get(mem, buf, 48, np.uint32), np.where(t & 1, t * 10 + 1000, t))
    assert np.array_equal(_get(mem, o, 48, np.uint32), np.where(t & 1, t, 7))
    recs = r.trace.warp_records(0, 1)
    assert int(recs["mask"][7]) == 0xFFFF and int(recs["exec_mask"][7]) == 0x5555
