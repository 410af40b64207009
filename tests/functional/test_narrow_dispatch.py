"""Narrow launches (issue 18 cause 8): a lone warp's dispatch path and ``ld.param`` through a
register base (a by-value array parameter, CUDA's LargeKernelParameter pattern).

Oracles: numpy (the hash loop, the parameter bytes read back by hand), the executor's error
for out-of-bounds and misaligned parameter reads; the dispatch-cost guard counts Python calls
per warp instruction (deterministic, unlike wall time), with a bound between the path before
this work (6.8 calls per warp instruction) and after it (3.6).
"""

from __future__ import annotations

import struct
import sys

import numpy as np
import pytest

from warpsim.errors import MemoryAccessError
from warpsim.functional.executor import launch
from warpsim.functional.memory import GlobalMemory
from warpsim.functional.program import ModuleImage
from warpsim.ptx.parser import parse_ptx

PTX = r"""
.version 8.0
.target sm_80
.address_size 64
.visible .entry spin(.param .u64 spin_out, .param .u32 spin_iters)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<6>;
	.reg .b64 	%rd<4>;
	ld.param.u64 	%rd1, [spin_out];
	ld.param.u32 	%r1, [spin_iters];
	mov.u32 	%r2, %tid.x;
	mov.u32 	%r5, %r2;
	mov.u32 	%r3, 0;
$L_loop:
	mad.lo.s32 	%r2, %r2, 1664525, 1013904223;
	shr.u32 	%r4, %r2, 13;
	xor.b32 	%r2, %r2, %r4;
	add.s32 	%r3, %r3, 1;
	setp.lt.u32 	%p1, %r3, %r1;
	@%p1 bra 	$L_loop;
	mul.wide.u32 	%rd2, %r5, 4;
	add.s64 	%rd3, %rd1, %rd2;
	st.global.u32 	[%rd3], %r2;
	ret;
}
.visible .entry bigp(.param .align 8 .b8 bigp_v[256], .param .u64 bigp_out,
                     .param .u32 bigp_extra)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<12>;
	.reg .b64 	%rd<10>;
	mov.b64 	%rd1, bigp_v;
	ld.param.u64 	%rd2, [bigp_out];
	ld.param.u32 	%r9, [bigp_extra];
	mov.u32 	%r1, %tid.x;
	ld.param.u32 	%r2, [%rd1+8];
	ld.param.s16 	%r3, [%rd1+4];
	ld.param.u64 	%rd3, [%rd1+16];
	ld.param.v2.u32 	{%r4, %r5}, [%rd1+24];
	shl.b32 	%r10, %r1, 2;
	add.s32 	%r10, %r10, %r9;
	cvt.u64.u32 	%rd4, %r10;
	add.s64 	%rd5, %rd1, %rd4;
	ld.param.u32 	%r6, [%rd5];
	and.b32 	%r7, %r1, 1;
	setp.eq.u32 	%p1, %r7, 1;
	mov.u32 	%r8, 0;
	@%p1 ld.param.u32 	%r8, [%rd1+32];
	mul.wide.u32 	%rd6, %r1, 32;
	add.s64 	%rd7, %rd2, %rd6;
	st.global.u32 	[%rd7], %r2;
	st.global.u32 	[%rd7+4], %r3;
	st.global.u32 	[%rd7+8], %r4;
	st.global.u32 	[%rd7+12], %r5;
	st.global.u32 	[%rd7+16], %r6;
	st.global.u32 	[%rd7+20], %r8;
	st.global.u64 	[%rd7+24], %rd3;
	ret;
}
"""


def _spin_reference(threads: int, iters: int) -> np.ndarray:
    acc = np.arange(threads, dtype=np.uint32)
    for _ in range(iters):
        acc = acc * np.uint32(1664525) + np.uint32(1013904223)
        acc ^= acc >> np.uint32(13)
    return acc


def _image() -> tuple[ModuleImage, GlobalMemory]:
    mem = GlobalMemory()
    return ModuleImage(parse_ptx(PTX, "narrow.ptx"), mem), mem


@pytest.mark.parametrize("threads", [1, 32])
@pytest.mark.parametrize("trace", [False, True])
def test_a_lone_warp_computes_the_numpy_result(threads: int, trace: bool) -> None:
    image, mem = _image()
    out = mem.alloc(4 * threads)
    r = launch(image, "spin", grid=1, block=threads, params=struct.pack("<QI", out, 37),
               trace=trace)
    got = np.frombuffer(mem.read(out, 4 * threads), np.uint32)
    np.testing.assert_array_equal(got, _spin_reference(threads, 37))
    assert r.warp_instructions == 5 + 37 * 6 + 4
    assert r.thread_instructions == threads * r.warp_instructions


def test_a_lone_warp_costs_few_python_calls_per_instruction() -> None:
    """The regression guard of the narrow-launch work: Python calls (and C calls made from
    Python) per extra warp instruction of a lone warp's loop, trace off."""
    image, mem = _image()
    out = mem.alloc(4 * 32)
    launch(image, "spin", grid=1, block=32, params=struct.pack("<QI", out, 3), trace=False)
    counts = []
    for iters in (200, 400):
        n = [0]

        def count(frame: object, event: str, arg: object, n: list[int] = n) -> None:
            if event in ("call", "c_call"):
                n[0] += 1
        sys.setprofile(count)
        try:
            r = launch(image, "spin", grid=1, block=32, params=struct.pack("<QI", out, iters),
                       trace=False)
        finally:
            sys.setprofile(None)
        counts.append((n[0], r.warp_instructions))
    per_inst = (counts[1][0] - counts[0][0]) / (counts[1][1] - counts[0][1])
    assert per_inst < 5.0, f"{per_inst:.2f} Python calls per warp instruction"


def _param_buffer(values: np.ndarray, out: int, extra: int) -> bytes:
    return values.tobytes() + struct.pack("<QI", out, extra)


@pytest.mark.parametrize("threads", [1, 40])
@pytest.mark.parametrize("trace", [False, True])
def test_param_reads_through_a_register_base(threads: int, trace: bool) -> None:
    """Uniform addresses (every lane the same word: the fast path), per-lane addresses, a
    sign-extending ``s16``, a ``v2`` and a guarded read, against the bytes by hand."""
    image, mem = _image()
    raw = np.arange(256, dtype=np.uint8) * np.uint8(7) + np.uint8(3)
    raw[4:6] = [0x34, 0x92]  # s16 0x9234: negative, sign-extended
    out = mem.alloc(32 * threads)
    launch(image, "bigp", grid=1, block=threads, params=_param_buffer(raw, out, 64),
           trace=trace)
    got = np.frombuffer(mem.read(out, 32 * threads), np.uint32).reshape(threads, 8)
    w = raw.view(np.uint32)
    tid = np.arange(threads)
    assert (got[:, 0] == w[2]).all()
    assert (got[:, 1] == np.uint32(0xFFFF9234)).all()
    assert (got[:, 2] == w[6]).all() and (got[:, 3] == w[7]).all()
    np.testing.assert_array_equal(got[:, 4], w[(64 + 4 * tid) // 4])
    np.testing.assert_array_equal(got[:, 5], np.where(tid % 2 == 1, w[8], 0))
    assert (got[:, 6:8] == raw.view(np.uint64)[2:3].view(np.uint32)).all()


@pytest.mark.parametrize("threads", [1, 40])
@pytest.mark.parametrize(("extra", "problem"), [(400, "out-of-bounds"), (2, "misaligned")])
def test_bad_param_reads_through_a_register_still_fault(threads: int, extra: int,
                                                        problem: str) -> None:
    image, mem = _image()
    out = mem.alloc(32 * threads)
    with pytest.raises(MemoryAccessError, match=problem):
        launch(image, "bigp", grid=1, block=threads,
               params=_param_buffer(np.zeros(256, np.uint8), out, extra), trace=False)
