"""Functional executor speed with trace emission on, >= 1e6 threads (ARCHITECTURE.md §8: at
least 1e8 thread-instructions per second on one core). Marked ``slow``; run with ``-m slow``.

Kernels (nvcc 13, sm_80): ``fma_loop`` (50 dependent ``fma.rn.f32`` per thread, compute bound),
``copy`` (``out[i] = a[i]``, memory bound), ``divergent`` (per-lane trip counts in both arms of an
if/else). The rate is measured in process CPU time, which other load on the machine disturbs
less than wall time.
"""

from __future__ import annotations

import struct
import time

import numpy as np
import pytest

from warpsim.functional.executor import launch
from warpsim.functional.memory import GlobalMemory
from warpsim.functional.program import ModuleImage
from warpsim.ptx.parser import parse_ptx

PTX = r"""
.version 9.0
.target sm_80
.address_size 64
.visible .entry fma_loop(
	.param .u64 fma_loop_param_0,
	.param .u64 fma_loop_param_1,
	.param .u32 fma_loop_param_2
)
{
	.reg .pred 	%p<2>;
	.reg .f32 	%f<54>;
	.reg .b32 	%r<6>;
	.reg .b64 	%rd<8>;
	ld.param.u64 	%rd1, [fma_loop_param_0];
	ld.param.u64 	%rd2, [fma_loop_param_1];
	ld.param.u32 	%r2, [fma_loop_param_2];
	mov.u32 	%r3, %ctaid.x;
	mov.u32 	%r4, %ntid.x;
	mov.u32 	%r5, %tid.x;
	mad.lo.s32 	%r1, %r3, %r4, %r5;
	setp.ge.s32 	%p1, %r1, %r2;
	@%p1 bra 	$L__BB0_2;
	cvta.to.global.u64 	%rd3, %rd2;
	cvta.to.global.u64 	%rd4, %rd1;
	mul.wide.s32 	%rd5, %r1, 4;
	add.s64 	%rd6, %rd4, %rd5;
	ld.global.f32 	%f1, [%rd6];
	mov.f32 	%f2, 0f3F000000;
	mov.f32 	%f3, 0f3F800000;
	fma.rn.f32 	%f4, %f3, %f1, %f2;
	fma.rn.f32 	%f5, %f4, %f1, %f2;
	fma.rn.f32 	%f6, %f5, %f1, %f2;
	fma.rn.f32 	%f7, %f6, %f1, %f2;
	fma.rn.f32 	%f8, %f7, %f1, %f2;
	fma.rn.f32 	%f9, %f8, %f1, %f2;
	fma.rn.f32 	%f10, %f9, %f1, %f2;
	fma.rn.f32 	%f11, %f10, %f1, %f2;
	fma.rn.f32 	%f12, %f11, %f1, %f2;
	fma.rn.f32 	%f13, %f12, %f1, %f2;
	fma.rn.f32 	%f14, %f13, %f1, %f2;
	fma.rn.f32 	%f15, %f14, %f1, %f2;
	fma.rn.f32 	%f16, %f15, %f1, %f2;
	fma.rn.f32 	%f17, %f16, %f1, %f2;
	fma.rn.f32 	%f18, %f17, %f1, %f2;
	fma.rn.f32 	%f19, %f18, %f1, %f2;
	fma.rn.f32 	%f20, %f19, %f1, %f2;
	fma.rn.f32 	%f21, %f20, %f1, %f2;
	fma.rn.f32 	%f22, %f21, %f1, %f2;
	fma.rn.f32 	%f23, %f22, %f1, %f2;
	fma.rn.f32 	%f24, %f23, %f1, %f2;
	fma.rn.f32 	%f25, %f24, %f1, %f2;
	fma.rn.f32 	%f26, %f25, %f1, %f2;
	fma.rn.f32 	%f27, %f26, %f1, %f2;
	fma.rn.f32 	%f28, %f27, %f1, %f2;
	fma.rn.f32 	%f29, %f28, %f1, %f2;
	fma.rn.f32 	%f30, %f29, %f1, %f2;
	fma.rn.f32 	%f31, %f30, %f1, %f2;
	fma.rn.f32 	%f32, %f31, %f1, %f2;
	fma.rn.f32 	%f33, %f32, %f1, %f2;
	fma.rn.f32 	%f34, %f33, %f1, %f2;
	fma.rn.f32 	%f35, %f34, %f1, %f2;
	fma.rn.f32 	%f36, %f35, %f1, %f2;
	fma.rn.f32 	%f37, %f36, %f1, %f2;
	fma.rn.f32 	%f38, %f37, %f1, %f2;
	fma.rn.f32 	%f39, %f38, %f1, %f2;
	fma.rn.f32 	%f40, %f39, %f1, %f2;
	fma.rn.f32 	%f41, %f40, %f1, %f2;
	fma.rn.f32 	%f42, %f41, %f1, %f2;
	fma.rn.f32 	%f43, %f42, %f1, %f2;
	fma.rn.f32 	%f44, %f43, %f1, %f2;
	fma.rn.f32 	%f45, %f44, %f1, %f2;
	fma.rn.f32 	%f46, %f45, %f1, %f2;
	fma.rn.f32 	%f47, %f46, %f1, %f2;
	fma.rn.f32 	%f48, %f47, %f1, %f2;
	fma.rn.f32 	%f49, %f48, %f1, %f2;
	fma.rn.f32 	%f50, %f49, %f1, %f2;
	fma.rn.f32 	%f51, %f50, %f1, %f2;
	fma.rn.f32 	%f52, %f51, %f1, %f2;
	fma.rn.f32 	%f53, %f52, %f1, %f2;
	add.s64 	%rd7, %rd3, %rd5;
	st.global.f32 	[%rd7], %f53;
$L__BB0_2:
	ret;
}
.visible .entry copy(
	.param .u64 copy_param_0,
	.param .u64 copy_param_1,
	.param .u32 copy_param_2
)
{
	.reg .pred 	%p<2>;
	.reg .f32 	%f<2>;
	.reg .b32 	%r<6>;
	.reg .b64 	%rd<8>;
	ld.param.u64 	%rd1, [copy_param_0];
	ld.param.u64 	%rd2, [copy_param_1];
	ld.param.u32 	%r2, [copy_param_2];
	mov.u32 	%r3, %ctaid.x;
	mov.u32 	%r4, %ntid.x;
	mov.u32 	%r5, %tid.x;
	mad.lo.s32 	%r1, %r3, %r4, %r5;
	setp.ge.s32 	%p1, %r1, %r2;
	@%p1 bra 	$L__BB1_2;
	cvta.to.global.u64 	%rd3, %rd1;
	mul.wide.s32 	%rd4, %r1, 4;
	add.s64 	%rd5, %rd3, %rd4;
	ld.global.f32 	%f1, [%rd5];
	cvta.to.global.u64 	%rd6, %rd2;
	add.s64 	%rd7, %rd6, %rd4;
	st.global.f32 	[%rd7], %f1;
$L__BB1_2:
	ret;
}
.visible .entry divergent(
	.param .u64 divergent_param_0,
	.param .u64 divergent_param_1,
	.param .u32 divergent_param_2
)
{
	.reg .pred 	%p<9>;
	.reg .b32 	%r<37>;
	.reg .b64 	%rd<10>;
	ld.param.u64 	%rd2, [divergent_param_0];
	ld.param.u64 	%rd3, [divergent_param_1];
	ld.param.u32 	%r18, [divergent_param_2];
	mov.u32 	%r19, %ntid.x;
	mov.u32 	%r20, %ctaid.x;
	mov.u32 	%r21, %tid.x;
	mad.lo.s32 	%r1, %r20, %r19, %r21;
	setp.ge.s32 	%p1, %r1, %r18;
	@%p1 bra 	$L__BB2_8;
	cvta.to.global.u64 	%rd4, %rd2;
	cvt.s64.s32 	%rd1, %r1;
	mul.wide.s32 	%rd5, %r1, 4;
	add.s64 	%rd6, %rd4, %rd5;
	ld.global.u32 	%r33, [%rd6];
	and.b32  	%r22, %r1, 1;
	setp.eq.b32 	%p2, %r22, 1;
	mov.pred 	%p3, 0;
	xor.pred  	%p4, %p2, %p3;
	not.pred 	%p5, %p4;
	@%p5 bra 	$L__BB2_5;
	bra.uni 	$L__BB2_2;
$L__BB2_5:
	and.b32  	%r29, %r1, 3;
	add.s32 	%r10, %r29, 2;
	mov.u32 	%r34, 0;
	mov.u32 	%r36, %r34;
$L__BB2_6:
	xor.b32  	%r36, %r33, %r36;
	add.s32 	%r33, %r33, 1;
	add.s32 	%r34, %r34, 1;
	setp.lt.u32 	%p8, %r34, %r10;
	@%p8 bra 	$L__BB2_6;
	bra.uni 	$L__BB2_7;
$L__BB2_2:
	and.b32  	%r3, %r1, 7;
	setp.eq.s32 	%p6, %r3, 0;
	mov.u32 	%r36, 0;
	@%p6 bra 	$L__BB2_7;
	mov.u32 	%r30, 0;
	mov.u32 	%r31, %r30;
	mov.u32 	%r36, %r30;
$L__BB2_4:
	add.s32 	%r36, %r30, %r36;
	add.s32 	%r30, %r30, %r33;
	add.s32 	%r31, %r31, 1;
	setp.lt.u32 	%p7, %r31, %r3;
	@%p7 bra 	$L__BB2_4;
$L__BB2_7:
	cvta.to.global.u64 	%rd7, %rd3;
	shl.b64 	%rd8, %rd1, 2;
	add.s64 	%rd9, %rd7, %rd8;
	st.global.u32 	[%rd9], %r36;
$L__BB2_8:
	ret;
}
"""


@pytest.mark.slow
@pytest.mark.parametrize("kernel", ["fma_loop", "copy", "divergent"])
def test_thread_instructions_per_second_with_trace(kernel: str) -> None:
    mem = GlobalMemory()
    img = ModuleImage(parse_ptx(PTX, "speed.ptx"), mem)
    n = 1 << 20
    a, o = mem.alloc(4 * n), mem.alloc(4 * n)
    mem.write(a, (np.arange(n) % 97).astype(np.float32))
    params = struct.pack("<QQi", a, o, n)
    launch(img, kernel, grid=(8,), block=(256,), params=params)  # compile numba kernels
    best = float("inf")
    for _ in range(2):
        c0 = time.process_time()
        r = launch(img, kernel, grid=(n // 256,), block=(256,), params=params, trace=True)
        best = min(best, time.process_time() - c0)
    rate = r.thread_instructions / best
    print(f"{kernel}: {r.thread_instructions:.3g} thread-instructions, {rate:.3g}/s")
    assert r.trace is not None and r.trace.n_records == r.warp_instructions
    assert rate >= 1e8
