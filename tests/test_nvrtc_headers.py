"""warpsim's C standard headers for NVRTC: each compiles alone with no CUDA toolkit in sight,
and the values they define are those of IEEE 754 and the LP64 data model.

Oracles: numpy's ``iinfo`` / ``finfo`` (IEEE binary32/binary64 and two's-complement limits),
Python's ``math`` constants and ``ctypes`` sizes of the host's LP64 C types.
"""

from __future__ import annotations

import ctypes
import math
import os

import numpy as np
import pytest

import warpsim
from warpsim import toolchain

USES = {
    "stdint.h": "int64_t a = INT64_MIN; uint8_t b = UINT8_MAX; o[0] = (double)(a + b);",
    "cstdint": "std::int32_t a = INT32_MAX; std::uint64_t b = UINT64_C(7); o[0] = a + b;",
    "limits.h": "o[0] = INT_MAX + (double)LLONG_MIN + CHAR_BIT;",
    "climits": "o[0] = SHRT_MAX + (double)ULONG_MAX;",
    "float.h": "o[0] = FLT_EPSILON + DBL_MAX;",
    "cfloat": "o[0] = FLT_MAX + DBL_MIN + FLT_MANT_DIG;",
    "math.h": "o[0] = sqrt(M_PI) + (isinf(INFINITY) ? 1 : 0) + HUGE_VALF;",
    "cmath": "o[0] = std::sqrt(2.0) + std::fabs(-1.5f) + std::pow(2.0, 3.0) + M_E;",
    "stddef.h": "size_t n = 4; ptrdiff_t d = -1; o[0] = n + d;",
    "cstddef": "std::size_t n = 4; std::nullptr_t z = nullptr; o[0] = n + (z == nullptr);",
    "assert.h": "assert(o != 0); o[0] = 1.0;",
    "cassert": "assert(o[0] >= 0.0); o[0] = 1.0;",
}


@pytest.fixture()
def nvrtc_only(monkeypatch: pytest.MonkeyPatch, tmp_path):
    """NVRTC from the pip wheel, with every system CUDA toolkit hidden: no CUDA_HOME /
    CUDA_PATH, no /usr/local/cuda, no nvcc on PATH, no cache."""
    monkeypatch.setenv("WARPSIM_CUDA_BACKEND", "nvrtc")
    monkeypatch.setenv("WARPSIM_NO_CACHE", "1")
    monkeypatch.delenv("CUDA_HOME", raising=False)
    monkeypatch.delenv("CUDA_PATH", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(toolchain, "_toolkit_dirs", lambda: [])
    assert toolchain._find_nvrtc() is not None, "the nvidia-cuda-nvrtc wheel is a dependency"
    assert "/usr/local/cuda" not in str(toolchain._find_nvrtc())


@pytest.mark.parametrize("header", sorted(USES))
def test_each_standard_header_compiles_with_nvrtc_alone(nvrtc_only, header: str) -> None:
    src = f'#include <{header}>\nextern "C" __global__ void k(double* o) {{ {USES[header]} }}\n'
    out = toolchain.compile_cuda(src, name=f"uses_{header.replace('.', '_')}.cu")
    assert out.backend == "nvrtc" and ".entry k" in out.ptx


SOURCE = r"""
#include <stdint.h>
#include <cstdint>
#include <limits.h>
#include <climits>
#include <float.h>
#include <cfloat>
#include <math.h>
#include <cmath>
#include <stddef.h>
#include <cstddef>
struct Pair { char c; double d; };
extern "C" __global__ void values(long long* i, double* f, float* g)
{
    i[0] = INT8_MIN; i[1] = INT16_MAX; i[2] = INT32_MIN; i[3] = INT64_MIN;
    i[4] = UINT32_MAX; i[5] = (long long)(UINT64_MAX >> 1); i[6] = sizeof(int64_t);
    i[7] = sizeof(std::uint16_t); i[8] = sizeof(intptr_t); i[9] = CHAR_BIT; i[10] = INT_MAX;
    i[11] = LONG_MIN; i[12] = LLONG_MAX; i[13] = SHRT_MIN; i[14] = UINT_MAX;
    i[15] = offsetof(Pair, d); i[16] = sizeof(std::size_t); i[17] = sizeof(long);
    i[18] = SIZE_MAX == ULLONG_MAX; i[19] = UINT8_MAX; i[20] = FLT_MANT_DIG;
    i[21] = DBL_MANT_DIG; i[22] = FLT_DIG; i[23] = DBL_DIG; i[24] = FLT_MAX_EXP;
    i[25] = DBL_MIN_EXP;
    f[0] = DBL_MAX; f[1] = DBL_EPSILON; f[2] = DBL_MIN; f[3] = DBL_TRUE_MIN; f[4] = M_PI;
    f[5] = M_E; f[6] = M_SQRT2; f[7] = HUGE_VAL; f[8] = std::sqrt(2.0);
    f[9] = std::pow(3.0, 4.0); f[10] = M_LN2; f[11] = M_1_PI;
    g[0] = FLT_MAX; g[1] = FLT_EPSILON; g[2] = FLT_MIN; g[3] = FLT_TRUE_MIN; g[4] = INFINITY;
    g[5] = NAN; g[6] = std::fabs(-2.5f); g[7] = std::floor(2.7f); g[8] = HUGE_VALF;
}
"""


def test_header_values_are_ieee_754_and_lp64(nvrtc_only) -> None:
    i32, i64, u32 = np.iinfo(np.int32), np.iinfo(np.int64), np.iinfo(np.uint32)
    f32, f64 = np.finfo(np.float32), np.finfo(np.float64)
    with warpsim.Device() as gpu:
        kernel = gpu.compile(SOURCE, name="std_headers.cu").get_kernel("values")
        d_i = gpu.to_device(np.zeros(26, np.int64))
        d_f = gpu.to_device(np.zeros(12, np.float64))
        d_g = gpu.to_device(np.zeros(9, np.float32))
        kernel[1, 1](d_i, d_f, d_g)
        got_i, got_f, got_g = d_i.copy_to_host(), d_f.copy_to_host(), d_g.copy_to_host()
    pair_d = ctypes.sizeof(ctypes.c_double)  # char then double: the double is aligned to 8
    assert got_i.tolist() == [
        -128, 32767, i32.min, i64.min, u32.max, i64.max, 8, 2, 8, 8, i32.max,
        np.iinfo(np.int_).min if os.name != "nt" else i32.min, i64.max, -32768, u32.max,
        pair_d, 8, ctypes.sizeof(ctypes.c_long), 1, 255, f32.nmant + 1, f64.nmant + 1,
        f32.precision, f64.precision, f32.maxexp, f64.minexp + 1]
    assert got_f[:4].tolist() == [f64.max, f64.eps, f64.smallest_normal, f64.smallest_subnormal]
    assert got_f[4:7].tolist() == [math.pi, math.e, math.sqrt(2)]
    assert got_f[7] == math.inf and got_f[8] == math.sqrt(2) and got_f[9] == 81.0
    assert got_f[10:].tolist() == [math.log(2), 1 / math.pi]
    assert got_g[:4].tolist() == [f32.max, f32.eps, f32.smallest_normal,
                                  f32.smallest_subnormal]
    assert got_g[4] == math.inf and math.isnan(got_g[5]) and not np.signbit(got_g[5])
    assert got_g[6:].tolist() == [2.5, 2.0, math.inf]


COOPERATIVE = r"""
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
extern "C" __global__ void block_sums(const int* x, int* out) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    __shared__ int partial[8];
    int s = cg::reduce(tile, x[blockIdx.x * blockDim.x + threadIdx.x], cg::plus<int>());
    if (tile.thread_rank() == 0) partial[tile.meta_group_rank()] = s;
    block.sync();
    if (block.thread_rank() == 0) {
        int t = 0;
        for (int i = 0; i < 8; i++) t += partial[i];
        out[blockIdx.x] = t;
    }
}
"""


def test_cooperative_groups_compile_with_nvrtc_alone_and_reduce_exactly(nvrtc_only) -> None:
    """<cooperative_groups.h> needs CCCL (<nv/target>, <cuda/std/...>): the nvidia-cuda-cccl
    wheel's include/cccl is on NVRTC's path. Oracle: numpy's per-block sums."""
    dev = warpsim.Device()
    mod = dev.compile(COOPERATIVE, name="cg_reduce.cu")
    x = (np.arange(4 * 256) % 97).astype(np.int32)
    out = dev.device_array(4, np.int32)
    mod.get_kernel("block_sums")[4, 256](dev.to_device(x), out)
    np.testing.assert_array_equal(out.copy_to_host(), x.reshape(4, 256).sum(axis=1))
