"""Tensor-core warp matrix operations (``nvcuda::wmma``: ``wmma.load``/``mma``/``store``) and
the reduced-precision conversions they come with (.bf16, .tf32).

Oracles: numpy float64 / int64 matrix products of the same tiles (inputs rounded to .tf32 by
an independent bit formula in the test); hand-computed .bf16/.tf32 bit patterns; a hand count
of the L1D lines the tile loads and stores touch.
"""

from __future__ import annotations

import numpy as np
import pytest

import warpsim
from warpsim.errors import LaunchError

SRC = r"""
#include <mma.h>
#include <cuda_bf16.h>
using namespace nvcuda;
extern "C" __global__ void g16(const half* a, const half* b, const float* c, float* d, int ld) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::load_matrix_sync(fa, a, ld);
    wmma::load_matrix_sync(fb, b, ld);
    wmma::load_matrix_sync(fc, c, ld, wmma::mem_row_major);
    for (int i = 0; i < fc.num_elements; i++) fc.x[i] *= 2.0f;   // element-wise: any layout
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(d, fc, ld, wmma::mem_col_major);
}
extern "C" __global__ void gi8(const signed char* a, const signed char* b, int* d) {
    __shared__ signed char sa[256];
    for (int i = threadIdx.x; i < 256; i += 32) sa[i] = a[i];
    __syncwarp();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, int> fc;
    wmma::fill_fragment(fc, 7);
    wmma::load_matrix_sync(fa, sa, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(d, fc, 16, wmma::mem_row_major);
}
extern "C" __global__ void gtf(const float* a, const float* b, float* d) {
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> fc;
    wmma::fill_fragment(fc, 0.0f);
    wmma::load_matrix_sync(fa, a, 8);
    wmma::load_matrix_sync(fb, b, 8);
    for (int i = 0; i < fa.num_elements; i++) fa.x[i] = wmma::__float_to_tf32(fa.x[i]);
    for (int i = 0; i < fb.num_elements; i++) fb.x[i] = wmma::__float_to_tf32(fb.x[i]);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(d, fc, 16, wmma::mem_row_major);
}
extern "C" __global__ void gd(const double* a, const double* b, double* d) {
    wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 8, 8, 4, double> fc;
    wmma::fill_fragment(fc, 0.5);
    wmma::load_matrix_sync(fa, a, 4);
    wmma::load_matrix_sync(fb, b, 4);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(d, fc, 8, wmma::mem_row_major);
}
extern "C" __global__ void split(const half* a, float* d) {
    if (threadIdx.x < 16) {                               // half a warp: not allowed
        wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
        wmma::load_matrix_sync(fa, a, 16);
        d[threadIdx.x] = __half2float(fa.x[0]);
    }
}
extern "C" __global__ void conv(const float* x, unsigned short* bf, float* back, float* tf) {
    int i = threadIdx.x;
    __nv_bfloat16 h = __float2bfloat16_rn(x[i]);
    bf[i] = __bfloat16_as_ushort(h);
    back[i] = __bfloat162float(h);
    tf[i] = wmma::__float_to_tf32(x[i]);
}
"""


@pytest.fixture(scope="module")
def gpu():
    dev = warpsim.Device()
    return dev, dev.compile(SRC, name="wmma.cu")


def _tf32(x: np.ndarray) -> np.ndarray:
    """Round to .tf32, nearest with ties away from zero: add half of the dropped 13 bits."""
    bits = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    return ((bits + 0x1000) & 0xFFFFE000).astype(np.uint32).view(np.float32)


def test_f16_tile_product_with_elementwise_scaling(gpu):
    dev, mod = gpu
    rng = np.random.default_rng(3)
    ma = rng.standard_normal((16, 16)).astype(np.float16)
    mb = rng.standard_normal((16, 16)).astype(np.float16)
    mc = rng.standard_normal((16, 16)).astype(np.float32)
    d = dev.device_array(256, np.float32)
    mod.get_kernel("g16")[1, 32](dev.to_device(ma), dev.to_device(np.ascontiguousarray(mb.T)),
                                 dev.to_device(mc), d, np.int32(16))
    want = ma.astype(np.float64) @ mb.astype(np.float64) + 2.0 * mc
    got = d.copy_to_host().reshape(16, 16).T            # D was stored column-major
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_s8_tile_from_shared_memory_is_exact(gpu):
    dev, mod = gpu
    rng = np.random.default_rng(4)
    ma = rng.integers(-128, 128, (16, 16)).astype(np.int8)
    mb = rng.integers(-128, 128, (16, 16)).astype(np.int8)
    d = dev.device_array(256, np.int32)
    mod.get_kernel("gi8")[1, 32](dev.to_device(ma), dev.to_device(mb), d)
    want = ma.astype(np.int64) @ mb.astype(np.int64) + 7
    np.testing.assert_array_equal(d.copy_to_host().reshape(16, 16), want)


def test_tf32_and_f64_tiles(gpu):
    dev, mod = gpu
    rng = np.random.default_rng(5)
    ma = rng.standard_normal((16, 8)).astype(np.float32)
    mb = rng.standard_normal((8, 16)).astype(np.float32)
    d = dev.device_array(256, np.float32)
    mod.get_kernel("gtf")[1, 32](dev.to_device(ma), dev.to_device(np.ascontiguousarray(mb.T)), d)
    want = _tf32(ma).astype(np.float64) @ _tf32(mb).astype(np.float64)
    np.testing.assert_allclose(d.copy_to_host().reshape(16, 16), want, rtol=1e-5, atol=1e-5)
    ad, bd = rng.standard_normal((8, 4)), rng.standard_normal((4, 8))
    dd = dev.device_array(64, np.float64)
    mod.get_kernel("gd")[1, 32](dev.to_device(ad), dev.to_device(np.ascontiguousarray(bd.T)),
                                dd)
    np.testing.assert_allclose(dd.copy_to_host().reshape(8, 8), ad @ bd + 0.5, rtol=1e-13)


def test_wmma_in_half_a_warp_fails_with_a_message(gpu):
    dev, mod = gpu
    with pytest.raises(LaunchError, match="needs all 32 lanes"):
        mod.get_kernel("split")[1, 32](dev.device_array(256, np.float16),
                                       dev.device_array(32, np.float32))


def test_bf16_and_tf32_conversions_round_as_the_isa_says(gpu):
    dev, mod = gpu
    words = np.array([0x3F800000,      # 1.0: exact
                      0x3F808000,      # 1 + 2^-8: a tie, 0x3F80 is even -> stays
                      0x3F818000,      # a tie above the odd 0x3F81 -> 0x3F82
                      0x3F80C000,      # above the tie -> 0x3F81
                      0x7F7FFFFF,      # the largest float rounds up to +inf
                      0x7FC00001,      # NaN -> the canonical bf16 NaN
                      0xBF800FFF,      # -1 - small: below the tie -> 0xBF80
                      0x3F801000] + [0] * 24, np.uint32)
    x = dev.to_device(words.view(np.float32))
    bf, back = dev.device_array(32, np.uint16), dev.device_array(32, np.float32)
    tf = dev.device_array(32, np.float32)
    mod.get_kernel("conv")[1, 32](x, bf, back, tf)
    assert list(bf.copy_to_host()[:8]) == [0x3F80, 0x3F80, 0x3F82, 0x3F81, 0x7F80, 0x7FFF,
                                           0xBF80, 0x3F80]
    assert list(back.copy_to_host().view(np.uint32)[:4]) == [0x3F800000, 0x3F800000,
                                                             0x3F820000, 0x3F810000]
    # .tf32 keeps 10 mantissa bits, ties away from zero: 0x3F801000 is the tie -> 0x3F802000
    t = tf.copy_to_host().view(np.uint32)
    assert t[0] == 0x3F800000 and t[7] == 0x3F802000 and t[6] == 0xBF800000


def test_timing_model_times_tile_loads_and_stores_as_memory_instructions():
    dev = warpsim.Device(config="gtx480")
    mod = dev.compile(SRC, name="wmma.cu")
    a = dev.to_device(np.zeros(256, np.float16))
    c = dev.to_device(np.zeros(256, np.float32))
    d = dev.device_array(256, np.float32)
    mod.get_kernel("g16")[1, 32](a, a, c, d, np.int32(16))
    st = dev.last_launch.stats
    # ma and mb: 512 contiguous bytes each = 4 lines; mc load and D store: 1 KiB = 8 lines each
    assert st["L1D_total_cache_accesses"] == 4 + 4 + 8 + 8
    assert st["exec_tensor_warp_insts"] == 1
