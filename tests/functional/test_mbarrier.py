"""Arrive-wait barriers (``mbarrier``, what ``cuda::barrier`` and the ``__mbarrier_*``
primitives compile to on sm_80) and ``cp.async.mbarrier.arrive`` (``__pipeline_arrive_on``).

Oracles: numpy (the values each thread must read once the other warp's writes are visible);
the PTX ISA's counting rules, hand-applied: 64 arrivals on a count of 64 leave pending counts
63..0, one each; a phase whose arrivals are missing never completes (the spin is detected);
``arrive_drop`` lowers the count of the next phase, so 32 arrivals then complete it.
"""

from __future__ import annotations

import numpy as np
import pytest

import warpsim
from warpsim.errors import UnsupportedPTXError
from warpsim.functional.watchdog import SpinError

SRC = r"""
#include <cuda_awbarrier_primitives.h>
#include <cuda_pipeline.h>
extern "C" __global__ void phases(const int* in, int* out, unsigned* pend, int expected) {
    __shared__ __mbarrier_t bar;
    __shared__ int buf[64];
    int t = threadIdx.x;
    if (t == 0) __mbarrier_init(&bar, expected);
    __syncthreads();
    int acc = 0;
    for (int round = 0; round < 3; ++round) {
        buf[t] = in[round * 64 + t];
        __mbarrier_token_t tok = __mbarrier_arrive(&bar);
        if (round == 0) pend[t] = __mbarrier_token_pending_count(tok);
        while (!__mbarrier_test_wait(&bar, tok)) {}
        acc += buf[63 - t];                       // the other warp's slot
        __mbarrier_token_t tok2 = __mbarrier_arrive(&bar);
        while (!__mbarrier_test_wait(&bar, tok2)) {}
    }
    out[t] = acc;
}
extern "C" __global__ void copy_arrive(const float* in, float* out) {
    __shared__ __mbarrier_t bar;
    __shared__ float s[128];
    int t = threadIdx.x;
    if (t == 0) __mbarrier_init(&bar, 128);
    __syncthreads();
    __pipeline_memcpy_async(&s[t], &in[t], sizeof(float));
    __pipeline_arrive_on(&bar);                   // counts no arrival of its own
    __mbarrier_token_t tok = __mbarrier_arrive(&bar);
    while (!__mbarrier_test_wait(&bar, tok)) {}
    out[t] = s[127 - t] + 1.0f;
}
extern "C" __global__ void drop(int* out) {
    __shared__ __mbarrier_t bar;
    __shared__ int buf[64];
    int t = threadIdx.x;
    if (t == 0) __mbarrier_init(&bar, 64);
    __syncthreads();
    buf[t] = t * 3;
    __mbarrier_token_t tok = t < 32 ? __mbarrier_arrive(&bar) : __mbarrier_arrive_and_drop(&bar);
    if (t >= 32) return;                          // warp 1 leaves: the next phase waits for 32
    while (!__mbarrier_test_wait(&bar, tok)) {}
    buf[t] += buf[t + 32];
    tok = __mbarrier_arrive(&bar);
    while (!__mbarrier_test_wait(&bar, tok)) {}
    out[t] = buf[31 - t];
}
"""


@pytest.fixture(scope="module")
def mod():
    dev = warpsim.Device()
    return dev, dev.compile(SRC, name="mbarrier.cu")


def test_phases_order_two_warps_writes_and_reads(mod):
    dev, m = mod
    src = (np.arange(192, dtype=np.int32) * 7) % 101
    x = dev.to_device(src)
    out, pend = dev.device_array(64, np.int32), dev.device_array(64, np.uint32)
    m.get_kernel("phases")[1, 64](x, out, pend, np.int32(64))
    want = src.reshape(3, 64)[:, ::-1].sum(axis=0)
    np.testing.assert_array_equal(out.copy_to_host(), want)
    assert sorted(pend.copy_to_host().tolist()) == list(range(64))


def test_a_phase_missing_arrivals_never_completes(mod):
    dev, m = mod
    x = dev.to_device(np.zeros(192, np.int32))
    out, pend = dev.device_array(64, np.int32), dev.device_array(64, np.uint32)
    with pytest.raises(SpinError):  # 65 expected, 64 threads: the spin is detected
        m.get_kernel("phases")[1, 64](x, out, pend, np.int32(65))


def test_async_copy_arrival_and_parity_wait(mod):
    dev, m = mod
    a = np.linspace(-3, 5, 128, dtype=np.float32)
    x, y = dev.to_device(a), dev.device_array(128, np.float32)
    m.get_kernel("copy_arrive")[2, 128](x, y)
    np.testing.assert_array_equal(y.copy_to_host(), a[::-1] + 1)


def test_arrive_and_drop_lowers_the_next_phase(mod):
    dev, m = mod
    out = dev.device_array(32, np.int32)
    m.get_kernel("drop")[1, 64](out)
    t = np.arange(32)
    np.testing.assert_array_equal(out.copy_to_host(), (3 * t + 3 * (t + 32))[::-1])


PARITY = r"""
.version 8.0
.target sm_80
.address_size 64
.visible .entry parity(.param .u64 out)
{
    .reg .pred %p<3>;
    .reg .b32 %r<8>;
    .reg .b64 %rd<6>;
    .shared .align 8 .b8 bar[8];
    .shared .align 4 .b8 buf[256];
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, bar;
    setp.ne.u32 %p1, %r1, 0;
    @%p1 bra SKIP;
    mbarrier.init.shared.b64 [%r2], 64;
SKIP:
    bar.sync 0;
    mov.u32 %r3, buf;
    shl.b32 %r4, %r1, 2;
    add.s32 %r5, %r3, %r4;
    mul.lo.u32 %r6, %r1, 5;
    st.shared.u32 [%r5], %r6;
    cp.async.mbarrier.arrive.noinc.shared.b64 [%r2];
W0:
    mbarrier.test_wait.parity.shared.b64 %p2, [%r2], 0;
    @!%p2 bra W0;
    xor.b32 %r4, %r4, 252;
    add.s32 %r5, %r3, %r4;
    ld.shared.u32 %r7, [%r5];
    mbarrier.arrive.shared.b64 %rd2, [%r2];
W1:
    mbarrier.test_wait.parity.shared.b64 %p2, [%r2], 1;
    @!%p2 bra W1;
    mbarrier.test_wait.parity.shared.b64 %p2, [%r2], 0;
    selp.u32 %r6, 1000, 0, %p2;
    add.u32 %r7, %r7, %r6;
    mul.wide.u32 %rd3, %r1, 4;
    add.s64 %rd4, %rd1, %rd3;
    st.global.u32 [%rd4], %r7;
    mbarrier.inval.shared.b64 [%r2];
    ret;
}
"""


def test_parity_waits_and_noinc_async_arrival_from_ptx():
    """Phase 0 completes by 64 ``.noinc`` async arrivals, phase 1 by 64 ``arrive``s; after
    it the parity-0 phase is pending again (its test is false: +0)."""
    dev = warpsim.Device()
    out = dev.device_array(64, np.uint32)
    dev.load_ptx(PARITY, name="parity.ptx").get_kernel("parity")[1, 64](out)
    t = np.arange(64)
    np.testing.assert_array_equal(out.copy_to_host(), (t ^ 63) * 5)


def test_transaction_counts_are_refused_by_name():
    ptx = r"""
.version 8.0
.target sm_90
.address_size 64
.visible .entry k()
{
    .reg .b32 %r<2>;
    .shared .align 8 .b8 bar[8];
    mov.u32 %r1, bar;
    mbarrier.expect_tx.shared.b64 [%r1], 16;
    ret;
}
"""
    dev = warpsim.Device()
    with pytest.raises(UnsupportedPTXError, match="transaction counts"):
        dev.load_ptx(ptx, name="tx.ptx").get_kernel("k")[1, 32]()
