"""``ldmatrix`` / ``stmatrix`` / ``movmatrix`` and a hand-written tensor-core tile product fed
from shared memory (``ldmatrix`` + ``mma.sync`` + ``st.global``), as CUTLASS-style code does.

Oracles: numpy float64 products of the same tiles and numpy transposes of 8x8 blocks; the
fragment layouts of the PTX ISA (§9.7.14.5.15: lanes 8i..8i+7 address the rows of matrix i,
lane l receives row l >> 2, columns 2 (l % 4) and +1) hand-applied in the kernel's address
arithmetic; bank-conflict passes counted by hand (32 banks of 4 bytes, one 8x8 matrix of
eight 16-byte rows per pass).
"""

from __future__ import annotations

import struct

import numpy as np
import pytest

import warpsim
from warpsim.errors import MemoryAccessError, UnsupportedPTXError
from warpsim.functional.executor import launch
from warpsim.functional.memory import GlobalMemory
from warpsim.functional.program import ModuleImage
from warpsim.ptx.parser import parse_ptx

HDR = ".version 8.0\n.target sm_80\n.address_size 64\n"

GEMM = HDR + r"""
.visible .entry gemm(.param .u64 pa, .param .u64 pbt, .param .u64 pb, .param .u64 pc,
                     .param .u64 pd1, .param .u64 pd2)
{
    .reg .b32 %r<40>;
    .reg .f32 %f<16>;
    .reg .b64 %rd<24>;
    .shared .align 16 .b8 sa[512];
    .shared .align 16 .b8 sbt[256];
    .shared .align 16 .b8 sb[256];
    ld.param.u64 %rd1, [pa];
    ld.param.u64 %rd2, [pbt];
    ld.param.u64 %rd3, [pb];
    ld.param.u64 %rd4, [pc];
    mov.u32 %r1, %tid.x;
    // copy: A 16 bytes per lane, B^T and B 8 bytes per lane
    mul.wide.u32 %rd5, %r1, 16;
    add.s64 %rd6, %rd1, %rd5;
    ld.global.v4.u32 {%r2, %r3, %r4, %r5}, [%rd6];
    mov.u32 %r6, sa;
    shl.b32 %r7, %r1, 4;
    add.s32 %r8, %r6, %r7;
    st.shared.v4.u32 [%r8], {%r2, %r3, %r4, %r5};
    mul.wide.u32 %rd7, %r1, 8;
    add.s64 %rd8, %rd2, %rd7;
    ld.global.v2.u32 {%r2, %r3}, [%rd8];
    shl.b32 %r9, %r1, 3;
    mov.u32 %r10, sbt;
    add.s32 %r11, %r10, %r9;
    st.shared.v2.u32 [%r11], {%r2, %r3};
    add.s64 %rd9, %rd3, %rd7;
    ld.global.v2.u32 {%r2, %r3}, [%rd9];
    mov.u32 %r12, sb;
    add.s32 %r13, %r12, %r9;
    st.shared.v2.u32 [%r13], {%r2, %r3};
    bar.sync 0;
    // A: lane l addresses row l % 16, column 8 * (l / 16): matrices (rows 0-7 | 8-15) x
    // (cols 0-7 | 8-15) in the order a0a1, a2a3, a4a5, a6a7 of the m16n8k16 layout
    and.b32 %r14, %r1, 15;
    shl.b32 %r15, %r14, 5;
    shr.u32 %r16, %r1, 4;
    shl.b32 %r17, %r16, 4;
    add.s32 %r18, %r15, %r17;
    add.s32 %r19, %r6, %r18;
    ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r20, %r21, %r22, %r23}, [%r19];
    // B^T (8 x 16, row-major): lane l addresses row l % 8, column 8 * ((l / 8) % 2)
    and.b32 %r24, %r1, 7;
    shl.b32 %r25, %r24, 5;
    shr.u32 %r26, %r1, 3;
    and.b32 %r26, %r26, 1;
    shl.b32 %r27, %r26, 4;
    add.s32 %r28, %r25, %r27;
    add.s32 %r29, %r10, %r28;
    ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%r30, %r31}, [%r29];
    // B (16 x 8, row-major) transposed on the way: lane l addresses row l % 16
    shl.b32 %r32, %r14, 4;
    add.s32 %r33, %r12, %r32;
    ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%r34, %r35}, [%r33];
    // C and D: lane l holds (g, 2t), (g, 2t+1), (g+8, 2t), (g+8, 2t+1), g = l/4, t = l%4
    shr.u32 %r36, %r1, 2;
    and.b32 %r37, %r1, 3;
    shl.b32 %r38, %r36, 3;
    shl.b32 %r39, %r37, 1;
    add.s32 %r38, %r38, %r39;
    mul.wide.u32 %rd10, %r38, 4;
    add.s64 %rd11, %rd4, %rd10;
    ld.global.v2.f32 {%f0, %f1}, [%rd11];
    ld.global.v2.f32 {%f2, %f3}, [%rd11+256];
    mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f4, %f5, %f6, %f7},
        {%r20, %r21, %r22, %r23}, {%r30, %r31}, {%f0, %f1, %f2, %f3};
    mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f8, %f9, %f10, %f11},
        {%r20, %r21, %r22, %r23}, {%r34, %r35}, {%f0, %f1, %f2, %f3};
    ld.param.u64 %rd12, [pd1];
    add.s64 %rd13, %rd12, %rd10;
    st.global.v2.f32 [%rd13], {%f4, %f5};
    st.global.v2.f32 [%rd13+256], {%f6, %f7};
    ld.param.u64 %rd14, [pd2];
    add.s64 %rd15, %rd14, %rd10;
    st.global.v2.f32 [%rd15], {%f8, %f9};
    st.global.v2.f32 [%rd15+256], {%f10, %f11};
    ret;
}
"""

MOVES = HDR + r"""
.visible .entry moves(.param .u64 pin, .param .u64 pout1, .param .u64 pout2)
{
    .reg .b32 %r<32>;
    .reg .b64 %rd<12>;
    .shared .align 16 .b8 t0[512];
    .shared .align 16 .b8 t1[512];
    .shared .align 16 .b8 t2[512];
    ld.param.u64 %rd1, [pin];
    mov.u32 %r1, %tid.x;
    mul.wide.u32 %rd2, %r1, 16;
    add.s64 %rd3, %rd1, %rd2;
    ld.global.v4.u32 {%r2, %r3, %r4, %r5}, [%rd3];
    shl.b32 %r6, %r1, 4;
    mov.u32 %r7, t0;
    add.s32 %r8, %r7, %r6;
    st.shared.v4.u32 [%r8], {%r2, %r3, %r4, %r5};
    bar.sync 0;
    and.b32 %r9, %r1, 15;
    shl.b32 %r10, %r9, 5;
    shr.u32 %r11, %r1, 4;
    shl.b32 %r12, %r11, 4;
    add.s32 %r13, %r10, %r12;             // row l % 16, column 8 * (l / 16), in bytes
    add.s32 %r14, %r7, %r13;
    ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r15, %r16, %r17, %r18}, [%r14];
    movmatrix.sync.aligned.m8n8.trans.b16 %r19, %r15;
    movmatrix.sync.aligned.m8n8.trans.b16 %r20, %r16;
    movmatrix.sync.aligned.m8n8.trans.b16 %r21, %r17;
    movmatrix.sync.aligned.m8n8.trans.b16 %r22, %r18;
    mov.u32 %r23, t1;
    add.s32 %r24, %r23, %r13;
    stmatrix.sync.aligned.m8n8.x4.shared.b16 [%r24], {%r19, %r20, %r21, %r22};
    mov.u32 %r25, t2;
    add.s32 %r26, %r25, %r13;
    stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%r26], {%r15, %r16, %r17, %r18};
    bar.sync 0;
    add.s32 %r27, %r23, %r6;
    ld.shared.v4.u32 {%r2, %r3, %r4, %r5}, [%r27];
    ld.param.u64 %rd4, [pout1];
    add.s64 %rd5, %rd4, %rd2;
    st.global.v4.u32 [%rd5], {%r2, %r3, %r4, %r5};
    add.s32 %r28, %r25, %r6;
    ld.shared.v4.u32 {%r2, %r3, %r4, %r5}, [%r28];
    ld.param.u64 %rd6, [pout2];
    add.s64 %rd7, %rd6, %rd2;
    st.global.v4.u32 [%rd7], {%r2, %r3, %r4, %r5};
    ret;
}
"""

BANKS = HDR + r"""
.visible .entry banks(.param .u32 stride)
{
    .reg .b32 %r<12>;
    .shared .align 16 .b8 buf[8192];
    ld.param.u32 %r1, [stride];
    mov.u32 %r2, %tid.x;
    mul.lo.s32 %r3, %r2, %r1;             // lane l addresses row l at l * stride bytes
    mov.u32 %r4, buf;
    add.s32 %r5, %r4, %r3;
    ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r6, %r7, %r8, %r9}, [%r5];
    ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r10}, [%r5];
    ret;
}
"""


@pytest.fixture(scope="module")
def dev():
    return warpsim.Device()


def test_ldmatrix_feeds_mma_as_the_isa_lays_fragments_out(dev):
    rng = np.random.default_rng(5)
    a = (rng.integers(-64, 64, (16, 16)) / 8).astype(np.float16)
    b = (rng.integers(-64, 64, (16, 8)) / 8).astype(np.float16)
    c = (rng.integers(-64, 64, (16, 8)) / 4).astype(np.float32)
    d1, d2 = dev.device_array((16, 8), np.float32), dev.device_array((16, 8), np.float32)
    mod = dev.load_ptx(GEMM, name="gemm.ptx")
    mod.get_kernel("gemm")[1, 32](dev.to_device(a), dev.to_device(np.ascontiguousarray(b.T)),
                                  dev.to_device(b), dev.to_device(c), d1, d2)
    want = a.astype(np.float64) @ b.astype(np.float64) + c   # exact: few significant bits
    np.testing.assert_array_equal(d1.copy_to_host(), want)   # B^T rows, no .trans
    np.testing.assert_array_equal(d2.copy_to_host(), want)   # B rows with .trans


def test_movmatrix_and_stmatrix_trans_transpose_each_8x8_block(dev):
    tile = np.arange(256, dtype=np.uint16).reshape(16, 16) * 7 + 3
    o1, o2 = dev.device_array((16, 16), np.uint16), dev.device_array((16, 16), np.uint16)
    dev.load_ptx(MOVES, name="moves.ptx").get_kernel("moves")[1, 32](dev.to_device(tile), o1,
                                                                      o2)
    want = tile.copy()
    for i in (0, 8):
        for j in (0, 8):
            want[i:i + 8, j:j + 8] = tile[i:i + 8, j:j + 8].T
    np.testing.assert_array_equal(o1.copy_to_host(), want)
    np.testing.assert_array_equal(o2.copy_to_host(), want)


def _bank_passes(stride: int) -> tuple[int, int]:
    mem = GlobalMemory()
    img = ModuleImage(parse_ptx(BANKS, "banks.ptx"), mem)
    r = launch(img, "banks", grid=(1,), block=(32,), params=struct.pack("<I", stride))
    recs = r.trace.warp_records(0, 0)
    x4 = int(np.flatnonzero(recs["pc"] == 5)[0])
    return int(recs["bank_conflict"][x4]), int(recs["bank_conflict"][x4 + 1])


@pytest.mark.parametrize(("stride", "x4", "x1"), [
    (16, 4, 1),     # 32 contiguous rows: each matrix's 128 bytes hit 32 banks once
    (32, 8, 2),     # a 16-halfword-wide tile: rows r and r + 4 share banks 8r % 32 ..
    (128, 32, 8),   # a 64-halfword-wide tile: all 8 rows of a matrix in banks 0-3
    (0, 4, 1),      # every lane the same row: one word per bank, broadcast
    (144, 4, 1),    # 128 + 16 padding: rows land 4 banks apart, no conflict
])
def test_bank_passes_are_counted_per_matrix(stride, x4, x1):
    assert _bank_passes(stride) == (x4, x1)


def test_misaligned_rows_and_unsupported_forms():
    dev = warpsim.Device()
    with pytest.raises(MemoryAccessError):
        dev.load_ptx(BANKS, name="b.ptx").get_kernel("banks")[1, 32](np.uint32(8))
    bad = BANKS.replace("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r10}",
                        "ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8 {%r10}")
    with pytest.raises(UnsupportedPTXError, match="ldmatrix"):
        dev.load_ptx(bad, name="b2.ptx").get_kernel("banks")[1, 32](np.uint32(16))


def test_timing_charges_the_bank_passes_and_runs_mma_on_the_tensor_class():
    dev = warpsim.Device(config="gtx480")
    banks = dev.load_ptx(BANKS, name="banks.ptx").get_kernel("banks")
    for stride, extra in ((16, 3), (128, 38)):
        banks[1, 32](np.uint32(stride))
        st = dev.last_launch.stats
        # extra shared cycles = passes - 1 per instruction: (4 - 1) + (1 - 1), (32 - 1) + (8 - 1)
        assert st["gpgpu_n_shmem_bkconflict"] == extra
        assert st["shmem_warp_accesses"] == 2
    z = dev.to_device(np.zeros(256, np.float16))
    d1, d2 = dev.device_array((16, 8), np.float32), dev.device_array((16, 8), np.float32)
    dev.load_ptx(GEMM, name="gemm.ptx").get_kernel("gemm")[1, 32](
        z, z, z, dev.to_device(np.zeros(128, np.float32)), d1, d2)
    assert dev.last_launch.stats["exec_tensor_warp_insts"] == 2
