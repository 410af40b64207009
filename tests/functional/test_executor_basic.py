"""Functional executor: basic kernels (vector add, 2-D/3-D grids, CTA batches, local arrays,
constant and global module variables, generic addressing, parameter checks).

Oracles are numpy computations of what each kernel does; the PTX was produced by nvcc 13
(sm_80) from the CUDA shown in each docstring and is embedded so the tests need no compiler.
"""

from __future__ import annotations

import struct

import numpy as np
import pytest

from warpsim.errors import LaunchError, UnsupportedPTXError
from warpsim.functional.executor import launch
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


VEC_ADD = r"""
.version 9.0
.target sm_80
.address_size 64
.visible .entry vec_add(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u32 n)
{
    .reg .pred %p<2>; .reg .f32 %f<4>; .reg .b32 %r<6>; .reg .b64 %rd<11>;
    ld.param.u64 %rd1, [pa];
    ld.param.u64 %rd2, [pb];
    ld.param.u64 %rd3, [pc];
    ld.param.u32 %r2, [n];
    mov.u32 %r3, %ctaid.x;
    mov.u32 %r4, %ntid.x;
    mov.u32 %r5, %tid.x;
    mad.lo.s32 %r1, %r3, %r4, %r5;
    setp.ge.s32 %p1, %r1, %r2;
    @%p1 bra DONE;
    cvta.to.global.u64 %rd4, %rd1;
    mul.wide.s32 %rd5, %r1, 4;
    add.s64 %rd6, %rd4, %rd5;
    cvta.to.global.u64 %rd7, %rd2;
    add.s64 %rd8, %rd7, %rd5;
    ld.global.f32 %f1, [%rd8];
    ld.global.f32 %f2, [%rd6];
    add.f32 %f3, %f2, %f1;
    cvta.to.global.u64 %rd9, %rd3;
    add.s64 %rd10, %rd9, %rd5;
    st.global.f32 [%rd10], %f3;
DONE:
    ret;
}
"""


@pytest.mark.parametrize("n, block, batch", [(1000, 256, 32768), (4097, 128, 256), (31, 64, 64)])
def test_vector_add_matches_numpy(n: int, block: int, batch: int) -> None:
    img, mem = _image(VEC_ADD)
    rng = np.random.default_rng(n)
    a, b = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    pa, pb, pc = _dev(mem, a), _dev(mem, b), _dev(mem, np.zeros(n, np.float32))
    grid = -(-n // block)
    r = launch(img, "vec_add", grid=(grid,), block=(block,),
               params=struct.pack("<QQQi", pa, pb, pc, n), batch_threads=batch)
    assert np.array_equal(_get(mem, pc, n, np.float32), a + b)
    assert r.n_batches == -(-grid // max(1, batch // block))
    # every thread runs the 10-instruction prologue; the n in-range ones 11 more; plus ret
    assert r.thread_instructions == grid * block * 11 + n * 11


def test_instruction_counts_per_opcode() -> None:
    img, mem = _image(VEC_ADD)
    n = 64
    pa, pb, pc = (_dev(mem, np.zeros(n, np.float32)) for _ in range(3))
    r = launch(img, "vec_add", grid=(2,), block=(32,), params=struct.pack("<QQQi", pa, pb, pc, n))
    assert r.warp_instructions == 2 * 22
    assert r.opcode_counts["ld.global.f32"] == 4
    assert r.opcode_counts["ld.param.u64"] == 6
    assert r.stats["gpgpu_n_tot_w_icount"] == 44


def test_grid_3d_indices() -> None:
    """``out[idx] = x + 1000 y + 1000000 z`` over a 3-D grid of 3-D blocks, in batches."""
    img, mem = _image(r"""
.version 9.0
.target sm_80
.address_size 64
.visible .entry grid3d(
	.param .u64 grid3d_param_0,
	.param .u32 grid3d_param_1,
	.param .u32 grid3d_param_2
)
{
	.reg .b32 	%r<21>;
	.reg .b64 	%rd<5>;
	ld.param.u64 	%rd1, [grid3d_param_0];
	cvta.to.global.u64 	%rd2, %rd1;
	mov.u32 	%r1, %ctaid.x;
	mov.u32 	%r2, %ntid.x;
	mov.u32 	%r3, %tid.x;
	mad.lo.s32 	%r4, %r1, %r2, %r3;
	mov.u32 	%r5, %ctaid.y;
	mov.u32 	%r6, %ntid.y;
	mov.u32 	%r7, %tid.y;
	mad.lo.s32 	%r8, %r5, %r6, %r7;
	mov.u32 	%r9, %ctaid.z;
	mov.u32 	%r10, %ntid.z;
	mov.u32 	%r11, %tid.z;
	mad.lo.s32 	%r12, %r9, %r10, %r11;
	mov.u32 	%r13, %nctaid.y;
	mul.lo.s32 	%r14, %r13, %r6;
	mad.lo.s32 	%r15, %r14, %r12, %r8;
	mov.u32 	%r16, %nctaid.x;
	mul.lo.s32 	%r17, %r16, %r2;
	mad.lo.s32 	%r18, %r17, %r15, %r4;
	mad.lo.s32 	%r19, %r8, 1000, %r4;
	mad.lo.s32 	%r20, %r12, 1000000, %r19;
	mul.wide.s32 	%rd3, %r18, 4;
	add.s64 	%rd4, %rd2, %rd3;
	st.global.u32 	[%rd4], %r20;
	ret;
}
""")
    gx, gy, gz, bx, by, bz = 3, 2, 2, 4, 3, 2
    n = gx * gy * gz * bx * by * bz
    o = _dev(mem, np.zeros(n, np.int32))
    r = launch(img, "grid3d", grid=(gx, gy, gz), block=(bx, by, bz),
               params=struct.pack("<Qii", o, 0, 0), batch_threads=64)
    z, y, x = np.meshgrid(np.arange(gz * bz), np.arange(gy * by), np.arange(gx * bx),
                          indexing="ij")
    assert np.array_equal(_get(mem, o, n, np.int32), (x + 1000 * y + 1000000 * z).ravel())
    assert r.n_batches == 6


def test_local_array() -> None:
    """``int buf[8]`` in local memory, indexed dynamically."""
    img, mem = _image(r"""
.version 9.0
.target sm_80
.address_size 64
.visible .entry local_array(
	.param .u64 local_array_param_0,
	.param .u64 local_array_param_1,
	.param .u32 local_array_param_2
)
{
	.reg .pred 	%p<9>;
	.reg .b32 	%r<52>;
	.reg .b64 	%rd<25>;
	ld.param.u64 	%rd9, [local_array_param_0];
	ld.param.u64 	%rd8, [local_array_param_1];
	ld.param.u32 	%r11, [local_array_param_2];
	cvta.to.global.u64 	%rd1, %rd9;
	mov.u32 	%r12, %ntid.x;
	mov.u32 	%r13, %ctaid.x;
	mov.u32 	%r14, %tid.x;
	mad.lo.s32 	%r1, %r13, %r12, %r14;
	rem.s32 	%r15, %r1, %r11;
	mul.wide.s32 	%rd10, %r15, 4;
	add.s64 	%rd11, %rd1, %rd10;
	ld.global.u32 	%r51, [%rd11];
	mul.wide.s32 	%rd12, %r1, 4;
	add.s64 	%rd13, %rd1, %rd12;
	ld.global.u32 	%r16, [%rd13];
	and.b32  	%r3, %r16, 7;
	setp.eq.s32 	%p1, %r3, 0;
	@%p1 bra 	$L__BB1_7;
	add.s32 	%r17, %r1, 1;
	rem.s32 	%r18, %r17, %r11;
	mul.wide.s32 	%rd14, %r18, 4;
	add.s64 	%rd2, %rd1, %rd14;
	add.s32 	%r19, %r1, 2;
	rem.s32 	%r20, %r19, %r11;
	mul.wide.s32 	%rd15, %r20, 4;
	add.s64 	%rd3, %rd1, %rd15;
	add.s32 	%r21, %r1, 4;
	rem.s32 	%r22, %r21, %r11;
	mul.wide.s32 	%rd16, %r22, 4;
	add.s64 	%rd4, %rd1, %rd16;
	add.s32 	%r23, %r1, 5;
	rem.s32 	%r24, %r23, %r11;
	mul.wide.s32 	%rd17, %r24, 4;
	add.s64 	%rd5, %rd1, %rd17;
	add.s32 	%r25, %r1, 6;
	rem.s32 	%r26, %r25, %r11;
	mul.wide.s32 	%rd18, %r26, 4;
	add.s64 	%rd6, %rd1, %rd18;
	add.s32 	%r27, %r1, 7;
	rem.s32 	%r28, %r27, %r11;
	mul.wide.s32 	%rd19, %r28, 4;
	add.s64 	%rd7, %rd1, %rd19;
	add.s32 	%r29, %r1, 3;
	rem.s32 	%r30, %r29, %r11;
	mul.wide.s32 	%rd20, %r30, 4;
	add.s64 	%rd21, %rd1, %rd20;
	ld.global.u32 	%r31, [%rd21];
	shl.b32 	%r32, %r31, 2;
	add.s32 	%r51, %r32, %r51;
	setp.eq.s32 	%p2, %r3, 1;
	@%p2 bra 	$L__BB1_7;
	ld.global.u32 	%r33, [%rd6];
	mad.lo.s32 	%r51, %r33, 7, %r51;
	setp.lt.u32 	%p3, %r3, 3;
	@%p3 bra 	$L__BB1_7;
	ld.global.u32 	%r34, [%rd2];
	shl.b32 	%r35, %r34, 1;
	add.s32 	%r51, %r35, %r51;
	setp.eq.s32 	%p4, %r3, 3;
	@%p4 bra 	$L__BB1_7;
	ld.global.u32 	%r36, [%rd4];
	mad.lo.s32 	%r51, %r36, 5, %r51;
	setp.lt.u32 	%p5, %r3, 5;
	@%p5 bra 	$L__BB1_7;
	ld.global.u32 	%r37, [%rd7];
	shl.b32 	%r38, %r37, 3;
	add.s32 	%r51, %r38, %r51;
	setp.eq.s32 	%p6, %r3, 5;
	@%p6 bra 	$L__BB1_7;
	ld.global.u32 	%r39, [%rd3];
	ld.global.u32 	%r40, [%rd5];
	mad.lo.s32 	%r41, %r39, 3, %r51;
	mad.lo.s32 	%r42, %r40, 6, %r41;
	setp.eq.s32 	%p7, %r3, 7;
	selp.b32 	%r51, %r42, %r41, %p7;
$L__BB1_7:
	setp.ge.s32 	%p8, %r1, %r11;
	@%p8 bra 	$L__BB1_9;
	cvta.to.global.u64 	%rd22, %rd8;
	add.s64 	%rd24, %rd22, %rd12;
	st.global.u32 	[%rd24], %r51;
$L__BB1_9:
	ret;
}
""")
    n = 300
    inp = np.random.default_rng(0).integers(0, 100, n).astype(np.int32)
    i_, o = _dev(mem, inp), _dev(mem, np.zeros(n, np.int32))
    launch(img, "local_array", grid=(3,), block=(100,), params=struct.pack("<QQi", i_, o, n))
    ref = []
    for i in range(n):
        buf = [inp[(i + k) % n] * (k + 1) for k in range(8)]
        ref.append(sum(buf[(k * 3) & 7] for k in range(int(inp[i] & 7) + 1)))
    assert np.array_equal(_get(mem, o, n, np.int32), ref)


CONST_PTX = r"""
.version 9.0
.target sm_80
.address_size 64
.const .align 4 .b8 ctab[16] = {10, 0, 0, 0, 20, 0, 0, 0, 30, 0, 0, 0, 40};
.global .align 4 .b8 gcount[4];
.visible .entry const_and_global(
	.param .u64 const_and_global_param_0,
	.param .u32 const_and_global_param_1
)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<10>;
	.reg .b64 	%rd<9>;
	ld.param.u64 	%rd1, [const_and_global_param_0];
	ld.param.u32 	%r2, [const_and_global_param_1];
	mov.u32 	%r3, %ctaid.x;
	mov.u32 	%r4, %ntid.x;
	mov.u32 	%r5, %tid.x;
	mad.lo.s32 	%r1, %r3, %r4, %r5;
	setp.ge.s32 	%p1, %r1, %r2;
	@%p1 bra 	$L__BB2_2;
	cvta.to.global.u64 	%rd2, %rd1;
	shl.b32 	%r6, %r1, 2;
	cvt.u64.u32 	%rd3, %r6;
	and.b64  	%rd4, %rd3, 12;
	mov.u64 	%rd5, ctab;
	add.s64 	%rd6, %rd5, %rd4;
	ld.global.u32 	%r7, [gcount];
	ld.const.u32 	%r8, [%rd6];
	add.s32 	%r9, %r7, %r8;
	mul.wide.s32 	%rd7, %r1, 4;
	add.s64 	%rd8, %rd2, %rd7;
	st.global.u32 	[%rd8], %r9;
$L__BB2_2:
	ret;
}
"""


def test_const_initialiser_and_global_variable() -> None:
    img, mem = _image(CONST_PTX)
    o = _dev(mem, np.zeros(64, np.int32))
    mem.write(img.symbol_address("gcount"), np.array([5], np.int32))
    launch(img, "const_and_global", grid=(2,), block=(32,), params=struct.pack("<Qi", o, 64))
    assert np.array_equal(_get(mem, o, 64, np.int32), np.array([10, 20, 30, 40] * 16) + 5)


GENERIC = r"""
.version 9.0
.target sm_80
.address_size 64
.global .align 8 .u64 ptrs[2] = {generic(data), 0};
.global .align 4 .u32 data[4] = {7, 8, 9, 10};
.visible .entry generic_mix(.param .u64 out)
{
    .reg .b32 %r<12>; .reg .b64 %rd<16>; .reg .pred %p<2>;
    .shared .align 4 .b8 sm[128];
    .local .align 8 .b8 depot[16];
    ld.param.u64 %rd1, [out];
    cvta.to.global.u64 %rd1, %rd1;
    mov.u32 %r1, %tid.x;
    mov.u64 %rd2, sm;
    cvta.shared.u64 %rd3, %rd2;
    mul.wide.u32 %rd4, %r1, 4;
    add.s64 %rd5, %rd3, %rd4;
    add.s32 %r2, %r1, 100;
    st.u32 [%rd5], %r2;
    bar.sync 0;
    xor.b32 %r3, %r1, 1;
    mul.wide.u32 %rd6, %r3, 4;
    add.s64 %rd7, %rd3, %rd6;
    ld.u32 %r4, [%rd7];
    mov.u64 %rd8, depot;
    cvta.local.u64 %rd9, %rd8;
    st.u32 [%rd9+4], %r1;
    ld.local.u32 %r5, [depot+4];
    ld.global.u64 %rd10, [ptrs];
    and.b32 %r6, %r1, 3;
    mul.wide.u32 %rd11, %r6, 4;
    add.s64 %rd12, %rd10, %rd11;
    ld.u32 %r7, [%rd12];
    cvta.to.shared.u64 %rd13, %rd5;
    cvt.u32.u64 %r8, %rd13;
    ld.shared.u32 %r9, [%r8];
    add.s32 %r10, %r4, %r5;
    add.s32 %r10, %r10, %r7;
    mul.lo.s32 %r11, %r9, 1000;
    add.s32 %r10, %r10, %r11;
    mul.wide.u32 %rd14, %r1, 4;
    add.s64 %rd15, %rd1, %rd14;
    st.global.u32 [%rd15], %r10;
    ret;
}
"""


def test_generic_addresses_reach_shared_local_and_global() -> None:
    img, mem = _image(GENERIC)
    o = _dev(mem, np.zeros(32, np.int32))
    launch(img, "generic_mix", grid=(1,), block=(32,), params=struct.pack("<Q", o))
    t = np.arange(32)
    ref = ((t ^ 1) + 100) + t + np.array([7, 8, 9, 10])[t & 3] + (t + 100) * 1000
    assert np.array_equal(_get(mem, o, 32, np.int32), ref)


def test_missing_parameters_are_a_launch_error() -> None:
    img, _ = _image(VEC_ADD)
    with pytest.raises(LaunchError, match="parameter buffer"):
        launch(img, "vec_add", grid=(1,), block=(32,), params=b"\0" * 8)


def test_bad_grid_is_a_launch_error() -> None:
    img, _ = _image(VEC_ADD)
    with pytest.raises(LaunchError, match="grid"):
        launch(img, "vec_add", grid=(0,), block=(32,), params=b"\0" * 28)


def test_unsupported_instruction_fails_at_load_time() -> None:
    ptx = VEC_ADD.replace("ret;", "call.uni vprintf, (%rd1, %rd2);\n    ret;").replace(
        ".visible .entry", ".extern .func (.param .b32 r) vprintf(.param .b64 a, .param .b64 b);"
        "\n.visible .entry")
    img, _ = _image(ptx)
    with pytest.raises(UnsupportedPTXError):
        img.program("vec_add")


def test_identical_launches_are_deterministic() -> None:
    img, mem = _image(VEC_ADD)
    n = 500
    a = np.arange(n, dtype=np.float32)
    pa, pb, pc = _dev(mem, a), _dev(mem, a), _dev(mem, np.zeros(n, np.float32))
    p = struct.pack("<QQQi", pa, pb, pc, n)
    r1 = launch(img, "vec_add", grid=(2,), block=(256,), params=p)
    r2 = launch(img, "vec_add", grid=(2,), block=(256,), params=p)
    c1, c2 = r1.trace.chunks[0], r2.trace.chunks[0]
    for f in ("pc", "mask", "sig", "bdi", "lines", "offsets"):
        assert np.array_equal(getattr(c1, f), getattr(c2, f))
