"""``cp.async`` global-to-shared copies (Ampere's ``__pipeline_memcpy_async``): exact copies,
zero fill from ``src-size`` / ``ignore-src``, group operations, and the global read the timing
model sees.

Oracles: numpy (the same copies and reversals on the host); the zero-fill rule of the PTX ISA
(bytes from src-size on are zero); hand counts of L1D accesses (one 128-byte line read per
warp by the copy, one line written per warp by the store).
"""

from __future__ import annotations

import numpy as np
import pytest

import warpsim
from warpsim.errors import MemoryAccessError, UnsupportedPTXError

SRC = r"""
#include <cuda_pipeline.h>
extern "C" __global__ void rev(const float* in, float* out) {
    __shared__ float s[256];
    int i = threadIdx.x;
    __pipeline_memcpy_async(&s[i], &in[blockIdx.x * 256 + i], sizeof(float));
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    out[blockIdx.x * 256 + i] = s[255 - i] * 2.0f;
}
extern "C" __global__ void tail(const float4* in, float4* out, int valid) {
    __shared__ float4 s[128];
    int i = threadIdx.x;
    __pipeline_memcpy_async(&s[i], &in[i], sizeof(float4), i < valid ? 0 : 16);
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    out[i] = s[i];
}
"""

# hand-written PTX: src-size in a register (bytes per lane) and the ignore-src predicate form
PTX = r"""
.version 8.0
.target sm_80
.address_size 64
.visible .entry partial(.param .u64 in, .param .u64 out)
{
    .reg .pred %p<2>;
    .reg .b32 %r<8>;
    .reg .b64 %rd<6>;
    .shared .align 16 .b8 buf[512];
    ld.param.u64 %rd1, [in];
    ld.param.u64 %rd2, [out];
    mov.u32 %r1, %tid.x;
    mul.wide.u32 %rd3, %r1, 16;
    add.s64 %rd4, %rd1, %rd3;
    shl.b32 %r2, %r1, 4;
    mov.u32 %r3, buf;
    add.s32 %r4, %r3, %r2;
    and.b32 %r5, %r1, 15;          // src-size = tid % 16 bytes
    setp.eq.u32 %p1, %r1, 3;       // thread 3: ignore-src, all zeros
    cp.async.cg.shared.global [%r4], [%rd4], 16, %r5;
    cp.async.commit_group;
    cp.async.wait_all;
    @%p1 cp.async.ca.shared.global [%r4], [%rd4], 16, %p1;
    cp.async.wait_group 0;
    bar.sync 0;
    ld.shared.v4.u32 {%r6, %r7, %r0, %r3}, [%r4];
    add.s64 %rd5, %rd2, %rd3;
    st.global.v4.u32 [%rd5], {%r6, %r7, %r0, %r3};
    ret;
}
"""


def test_copies_and_zero_fill_from_cuda():
    dev = warpsim.Device()
    mod = dev.compile(SRC, name="cp_async.cu")
    a = np.arange(512, dtype=np.float32)
    x, y = dev.to_device(a), dev.device_array(512, np.float32)
    mod.get_kernel("rev")[2, 256](x, y)
    want = np.concatenate([a[:256][::-1], a[256:][::-1]]) * 2
    np.testing.assert_array_equal(y.copy_to_host(), want)
    b = np.arange(512, dtype=np.float32).reshape(128, 4)
    x4, y4 = dev.to_device(b), dev.device_array((128, 4), np.float32)
    mod.get_kernel("tail")[1, 128](x4, y4, np.int32(100))
    want4 = b.copy()
    want4[100:] = 0  # src-size 0: all 16 bytes are zeros
    np.testing.assert_array_equal(y4.copy_to_host(), want4)


def test_src_size_per_lane_and_ignore_src_from_ptx():
    dev = warpsim.Device()
    mod = dev.load_ptx(PTX, name="partial.ptx")
    src = (np.arange(32 * 16) % 251 + 1).astype(np.uint8)  # no zero bytes
    x, y = dev.to_device(src), dev.device_array(32 * 16, np.uint8)
    mod.get_kernel("partial")[1, 32](x, y)
    want = src.reshape(32, 16).copy()
    for t in range(32):
        want[t, t % 16:] = 0  # bytes from src-size = t % 16 on are zero
    want[3] = 0               # ignore-src: every byte zero
    np.testing.assert_array_equal(y.copy_to_host().reshape(32, 16), want)


def test_partial_copy_reads_only_its_source_bytes():
    """The last lane copies 4 of 16 bytes at the very end of the allocation: no fault."""
    dev = warpsim.Device()
    mod = dev.load_ptx(PTX.replace("and.b32 %r5, %r1, 15;", "mov.u32 %r5, 16;\n"
                                   "    setp.eq.u32 %p0, %r1, 31;\n"
                                   "    @%p0 mov.u32 %r5, 4;"), name="edge.ptx")
    src = np.ones(31 * 16 + 4, np.uint8)
    x, y = dev.to_device(src), dev.device_array(32 * 16, np.uint8)
    mod.get_kernel("partial")[1, 32](x, y)
    got = y.copy_to_host().reshape(32, 16)
    assert (got[31, :4] == 1).all() and (got[31, 4:] == 0).all() and (got[3] == 0).all()
    # with 16 source bytes the same lane reads past the allocation: an exact fault
    full = dev.load_ptx(PTX.replace("and.b32 %r5, %r1, 15;", "mov.u32 %r5, 16;"),
                        name="full.ptx")
    with pytest.raises(MemoryAccessError, match="out-of-bounds"):
        full.get_kernel("partial")[1, 32](x, y)


def test_bulk_copies_are_refused_by_name():
    dev = warpsim.Device()
    bulk = PTX.replace("cp.async.cg.shared.global [%r4], [%rd4], 16, %r5;",
                       "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes "
                       "[%r4], [%rd4], 16, [%r3];")
    with pytest.raises(UnsupportedPTXError, match=r"cp\.async\.bulk"):
        dev.load_ptx(bulk, name="bulk.ptx").get_kernel("partial")[1, 32](
            dev.device_array(512, np.uint8), dev.device_array(512, np.uint8))


def test_timing_sees_the_copy_as_a_global_read():
    dev = warpsim.Device(config="gtx480")
    mod = dev.compile(SRC, name="cp_async.cu")
    x, y = dev.to_device(np.zeros(512, np.float32)), dev.device_array(512, np.float32)
    mod.get_kernel("rev")[2, 256](x, y)
    # 16 warps: each reads one 128-byte line by cp.async and writes one by st.global
    assert dev.last_launch.stats["L1D_total_cache_accesses"] == 32

