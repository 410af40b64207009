"""Shared fixtures of the host-API tests: one Device and one compiled test module per session."""

from __future__ import annotations

import pytest

import warpsim

CUDA_SOURCE = r"""
struct Params { float scale; double offset; int count; };

__constant__ float coef[4];
__device__ int counter;
__device__ float table[8] = {1, 2, 3, 4, 5, 6, 7, 8};

extern "C" __global__ void vadd(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

extern "C" __global__ void saxpy_f(int n, float a, const float* x, float* y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

extern "C" __global__ void saxpy_d(long long n, double a, const double* x, double* y)
{
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

extern "C" __global__ void scalars(unsigned char u8, short s16, unsigned u32, long long s64,
                                   float f32, double f64, bool flag, double* out)
{
    out[0] = u8; out[1] = s16; out[2] = u32; out[3] = (double)s64; out[4] = f32; out[5] = f64;
    out[6] = flag ? 1.0 : 0.0;
}

__global__ void with_struct(Params p, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = p.scale * i + (float)p.offset + p.count;
}

extern "C" __global__ void use_const(float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = coef[0] * i + coef[1] + coef[2] * coef[3];
}

extern "C" __global__ void set_counter(int value)
{
    if (blockIdx.x == 0 && threadIdx.x == 0) counter = value + (int)table[2];
}

extern "C" __global__ void reverse_blocks(float* data)
{
    extern __shared__ float tile[];
    int t = threadIdx.x;
    int base = blockIdx.x * blockDim.x;
    tile[t] = data[base + t];
    __syncthreads();
    data[base + t] = tile[blockDim.x - 1 - t];
}

extern "C" __global__ void static_shared(float* out)
{
    __shared__ float buf[8192];   // 32 KiB
    buf[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = buf[(threadIdx.x + 1) % blockDim.x];
}

extern "C" __global__ void tex_fetch(cudaTextureObject_t t, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1Dfetch<float>(t, i) * 2.0f;
}

extern "C" __global__ void tex_2d(cudaTextureObject_t t, float* out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) out[y * w + x] = tex2D<float>(t, x + 0.5f, y + 0.5f);
}

extern "C" __global__ void __launch_bounds__(128) bounded(float* out)
{
    out[threadIdx.x] = 1.0f;
}

extern "C" __global__ void spin(int* data, int n)
{
    int s = 0;
    for (int i = 0; i < n; ++i) s += i * data[0];
    if (threadIdx.x == 0) data[1] = s;
}

extern "C" __global__ void oob_store(float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i + n] = 1.0f;   // every thread writes past the end of out
}
"""

VADD_PTX = r"""
.version 7.0
.target sm_80
.address_size 64

.visible .entry vadd(
	.param .u64 vadd_param_0,
	.param .u64 vadd_param_1,
	.param .u64 vadd_param_2,
	.param .u32 vadd_param_3
)
{
	.reg .pred 	%p<2>;
	.reg .f32 	%f<4>;
	.reg .b32 	%r<6>;
	.reg .b64 	%rd<11>;

	ld.param.u64 	%rd1, [vadd_param_0];
	ld.param.u64 	%rd2, [vadd_param_1];
	ld.param.u64 	%rd3, [vadd_param_2];
	ld.param.u32 	%r2, [vadd_param_3];
	mov.u32 	%r3, %ctaid.x;
	mov.u32 	%r4, %ntid.x;
	mov.u32 	%r5, %tid.x;
	mad.lo.s32 	%r1, %r3, %r4, %r5;
	setp.ge.s32 	%p1, %r1, %r2;
	@%p1 bra 	$L__BB0_2;
	cvta.to.global.u64 	%rd4, %rd1;
	mul.wide.s32 	%rd5, %r1, 4;
	add.s64 	%rd6, %rd4, %rd5;
	cvta.to.global.u64 	%rd7, %rd2;
	add.s64 	%rd8, %rd7, %rd5;
	ld.global.f32 	%f1, [%rd8];
	ld.global.f32 	%f2, [%rd6];
	add.f32 	%f3, %f2, %f1;
	cvta.to.global.u64 	%rd9, %rd3;
	add.s64 	%rd10, %rd9, %rd5;
	st.global.f32 	[%rd10], %f3;
$L__BB0_2:
	ret;
}
"""
"""A hand-kept copy of nvcc's PTX for vadd: the tests that use it need no CUDA compiler."""


@pytest.fixture()
def cuda_source() -> str:
    return CUDA_SOURCE


@pytest.fixture()
def gpu():
    with warpsim.Device() as device:
        yield device


@pytest.fixture()
def mod(gpu):
    return gpu.compile(CUDA_SOURCE, name="runtime_tests.cu")


@pytest.fixture()
def ptx_mod(gpu):
    return gpu.load_ptx(VADD_PTX, name="vadd.ptx")
