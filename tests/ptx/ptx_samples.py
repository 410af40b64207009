"""Shared PTX material for the parser and writer tests: hand-written PTX, nvcc helper, IR diff.

Hand-written PTX here is the independent oracle: every expected IR field in the tests was
written down by reading the PTX ISA, not taken from the parser's output.
"""

from __future__ import annotations

import dataclasses
import functools
import random
import shutil
import subprocess
from pathlib import Path

import pytest

KERNELS_DIR = Path(__file__).resolve().parents[1] / "kernels"
NVCC = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc"
                                if Path("/usr/local/cuda/bin/nvcc").exists() else None)
PTXAS = shutil.which("ptxas") or ("/usr/local/cuda/bin/ptxas"
                                  if Path("/usr/local/cuda/bin/ptxas").exists() else None)

POSITION_FIELDS = frozenset({"line", "column", "text", "file", "source"})


def ir_key(obj: object) -> object:
    """A comparable form of an IR object without positions and source text (dict order-free)."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return (type(obj).__name__,
                tuple((f.name, ir_key(getattr(obj, f.name)))
                      for f in dataclasses.fields(obj) if f.name not in POSITION_FIELDS))
    if isinstance(obj, list | tuple):
        return tuple(ir_key(x) for x in obj)
    if isinstance(obj, dict):
        return tuple(sorted((k, ir_key(v)) for k, v in obj.items()))
    return obj


def first_difference(a: object, b: object, path: str = "") -> str:
    """Where two ``ir_key`` values first differ (for assertion messages)."""
    if a == b:
        return ""
    if isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b):
        for k, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return first_difference(x, y, f"{path}/{k}")
    return f"{path}: {str(a)[:200]} != {str(b)[:200]}"


@functools.cache
def nvcc_ptx(source: str, arch: str = "sm_80", options: tuple[str, ...] = ()) -> str:
    """PTX of a CUDA source string, compiled with nvcc (skips the test when nvcc is absent)."""
    if NVCC is None:
        pytest.skip("nvcc is not installed")
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "k.cu"
        src.write_text(source)
        out = subprocess.run([NVCC, "-ptx", f"-arch={arch}", *options, str(src), "-o", "-"],
                             capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise AssertionError(f"nvcc failed:\n{out.stderr}")
    return out.stdout


def ptxas_errors(ptx: str, arch: str = "sm_80") -> str:
    """ptxas's complaints about a PTX text ("" when it assembles).

    PTX newer than the installed ptxas (NVRTC may be newer than nvcc) is retried with the
    ``.version`` ptxas names as its newest."""
    import re
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "k.ptx"
        path.write_text(ptx)
        out = subprocess.run([PTXAS, f"-arch={arch}", str(path), "-o", str(Path(tmp) / "k.o")],
                             capture_output=True, text=True, check=False)
    newest = re.search(r"Unsupported \.version \S+; current version is '([\d.]+)'", out.stderr)
    if newest:
        return ptxas_errors(re.sub(r"^\.version \S+", f".version {newest.group(1)}", ptx,
                                   count=1, flags=re.M), arch)
    return "" if out.returncode == 0 else out.stderr


def corpus_names() -> list[str]:
    """Stems of the project's CUDA test kernels (``tests/kernels/*.cu``)."""
    return sorted(p.stem for p in KERNELS_DIR.glob("*.cu"))


CUDA_KERNELS = r"""
#include <cuda_fp16.h>
#include <cstdio>
__constant__ float cvals[4] = {1.0f, 2.0f, 3.0f, 4.0f};
__device__ int gcount;
__device__ int* gptr = &gcount;
struct S { double a; int b[3]; };
extern __shared__ float dyn[];
__global__ void __launch_bounds__(256, 2)
features(float* out, const float* __restrict__ in, S s, int n, cudaTextureObject_t t) {
  __shared__ float sm[32][33];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  v = __shfl_down_sync(0xffffffff, v, 16);
  sm[threadIdx.y][threadIdx.x] = v;
  dyn[threadIdx.x] = v;
  __syncthreads();
  unsigned b = __ballot_sync(0xffffffff, v > 0);
  atomicAdd(&gcount, b);
  atomicCAS((int*)&sm[0][0], 1, 2);
  float tv = tex2D<float>(t, v, v);
  out[i] = pow((double)v, (double)s.a) + sm[threadIdx.x][0] + cvals[i & 3] + tv
           + sin((double)v) + dyn[0] + s.b[n & 1];
}
__global__ void warp_ops(int* o, float* f, __half2* h) {
  unsigned m = __activemask();
  int v = threadIdx.x;
  v += __shfl_sync(m, v, 3) + __shfl_up_sync(m, v, 1) + __shfl_xor_sync(m, v, 4);
  v += __all_sync(m, v > 3) + __any_sync(m, v > 5) + __popc(__ballot_sync(m, v & 1));
  v += __match_any_sync(m, v) + __reduce_add_sync(m, v) + __clz(v) + __brev(v);
  v += __byte_perm(v, 3, 0x4321) + __funnelshift_l(v, 3, 5) + __mul24(v, 3) + __umulhi(v, 7);
  v += (int)clock64();
  float x = f[threadIdx.x];
  x = __fdividef(x, 3.f) + __expf(x) + __logf(x) + __sinf(x) + rsqrtf(x) + sqrtf(x) + tanhf(x);
  atomicAdd(h, __floats2half2_rn(1.f, 2.f));
  atomicAdd(f + 1, x);
  atomicMin(o + 2, v);
  atomicExch(o + 3, v);
  o[threadIdx.x] = v + (int)x;
  if (v == 12345) printf("hello %d %f\n", v, (double)x);
}
"""
"""Small CUDA kernels that make nvcc emit most PTX forms of reference §7 Tier 1 and 2."""


HAND_PTX = r"""//
// hand-written PTX exercising every syntax form the parser accepts
//
.version 9.0
.target sm_80, texmode_independent
.address_size 64

.extern .func (.param .b64 func_retval0) ext_fn
(
	.param .b64 ext_fn_param_0
)
;
.visible .const .align 4 .b8 cbytes[8] = {1, 2, 3, 4, 5, 6, 7, 8};
.global .align 4 .f32 fval = 0f3F800000;
.global .align 8 .f64 dvals[2] = {1.5, 0d4000000000000000};
.global .align 4 .u32 grid2[2][3] = {{1, 2, 3}, {4, 5, 6}};
.global .align 8 .u64 ptrs[2] = {generic(grid2), generic(grid2)+8};
.global .align 4 .s32 negs[2] = {-1, -2};
.shared .align 16 .b8 smem[256];
.extern .shared .align 16 .b8 dynsmem[];
.global .texref tref;
.global .samplerref samp;
.global .surfref surf;
/* a block comment
   spanning lines */
.file	1 "hand.cu"

.func (.param .b32 func_retval0) helper(
	.param .b32 helper_param_0,
	.param .b32 helper_param_1
)
;
.func helper2()
.noreturn
;

.func (.param .b32 func_retval0) helper(
	.param .b32 helper_param_0,
	.param .b32 helper_param_1
)
{
	.reg .b32 %r<3>;
	ld.param.b32 	%r0, [helper_param_0];
	ld.param.b32 	%r1, [helper_param_1];
	add.s32 	%r2, %r0, %r1;
	st.param.b32 	[func_retval0+0], %r2;
	ret;
}

.visible .entry kern(
	.param .u64 kern_param_0,
	.param .u32 kern_param_1,
	.param .u64 .ptr.global.align 16 kern_param_2,
	.param .align 8 .b8 kern_param_3[24],
	.param .f32 kern_param_4
)
.maxntid 256, 1, 1
.minnctapersm 2
.maxnreg 64
.pragma "nounroll";
{
	.reg .pred 	%p<4>;
	.reg .pred 	q, z;
	.reg .b16 	%rs<2>;
	.reg .b32 	%r<12>;
	.reg .f32 	%f<6>;
	.reg .f64 	%fd<2>;
	.reg .b64 	%rd<8>;
	.local .align 8 .b8 	depot[40];
	.shared .align 4 .u32 	counts[2][4];

	.loc	1 10 3
	ld.param.u64 	%rd1, [kern_param_0];
	ld.param.u32 	%r1, [kern_param_1];
	cvta.to.global.u64 	%rd2, %rd1;
	mov.u32 	%r2, %tid.x;
	mov.u32 	%r3, %laneid;
	mov.u32 	%r4, %envreg3;
	mov.u64 	%rd3, smem;
	mov.u32 	%r5, -7;
	mov.u32 	%r6, 0x1F;
	mov.u32 	%r7, 017;
	mov.u32 	%r8, 0b101;
	mov.u32 	%r9, 42U;
	mov.f32 	%f1, 0f3F800000;
	mov.f64 	%fd1, 0d3FF0000000000000;
	mov.f64 	%fd1, 2.5;
	setp.lt.and.s32 	%p1|%p2, %r1, %r2, %p3;
	@%p1 bra 	$L__BB0_2;
	@!%p2 bra.uni 	$L__BB0_3;
$L__BB0_2:
	ld.global.nc.v2.f64 	{%fd0, %fd1}, [%rd2+16];
	ld.volatile.shared.f32 	%f2, [%r1+-4];
	ld.acquire.cta.u32 	%r10, [%rd2];
	ld.shared.u32 	%r10, [smem+8];
	ld.const.u32 	%r10, [cbytes];
	ld.local.u32 	%r10, [0x100];
	st.global.v4.u8 	[%rd2], {%rs0, %rs1, %rs0, %rs1};
	st.local.u32 	[depot+4], %r10;
	atom.global.add.u32 	%r1, [%rd1], 1;
	atom.shared.cas.b32 	%r1, [%r2], %r3, %r4;
	atom.or.acq_rel.cta.b32 	%r1, [%rd1], %r2;
	red.global.add.f32 	[%rd1], %f1;
	prmt.b32 	%r5, %r6, %r7, 0x3210;
	mov.b64 	{%r1, %r2}, %rd1;
	mov.b64 	%rd4, {%r1, %r2};
	mov.b64 	{%r3, _}, %rd4;
	cvta.shared.u64 	%rd5, %rd3;
	fma.rn.ftz.f32 	%f3, %f1, %f2, %f1;
	shfl.sync.down.b32 	%r2|%p1, %r1, 16, 31, -1;
	not.pred 	q, !%p2;
	tex.2d.v4.f32.f32 	{%f1, %f2, %f3, %f4}, [tref, samp, {%f1, %f2}];
	tex.1d.v4.s32.s32 	{%r1, %r2, %r3, %r4}, [tref, samp, {%r5}];
	bar.sync 	0;
	barrier.sync 	0, %r3;
	bar.warp.sync 	-1;
	{ // callseq 0, 0
	.reg .b32 temp_param_reg;
	.param .b32 param0;
	st.param.b32 	[param0+0], %r1;
	.param .b32 param1;
	st.param.b32 	[param1+0], %r2;
	.param .b32 retval0;
	call.uni (retval0), helper, (param0, param1);
	ld.param.b32 	%r11, [retval0+0];
	} // callseq 0
	{
	.reg .b32 %temp;
	mov.b64 	{%temp, %r1}, %rd4;
	}
	{
	.reg .b32 %temp;
	.reg .u32 %r0;
	mov.b64 	{%r0, %temp}, %rd4;
	}
	call.uni 	helper2;
$L__BB0_3:
	exit;
	ret;
$L__BB0_end:
}

.func helper2()
.noreturn
{
	trap;
}
"""
"""Hand-written PTX with every syntax form of the brief (oracle for the IR tests)."""


def mutate(text: str, rng: random.Random, n: int) -> str:
    """Apply ``n`` random token- or character-level edits to PTX text (for fuzzing)."""
    pieces = ["", ";", ",", "{", "}", "[", "]", "(", ")", "%r1", "%p9", "@", "!", "|", "-",
              ".reg", ".b32", "0f3F80", "0x", "add.s32", "$L__BB0_9", "ld.global", ":", "<",
              ">", "1e999", "\"", "/*", "//", "\n", "_", "99999999999999999999999", ".align 3"]
    for _ in range(n):
        choice = rng.randrange(5)
        pos = rng.randrange(len(text) + 1)
        if choice == 0:
            text = text[:pos] + rng.choice(pieces) + text[pos:]
        elif choice == 1:
            end = min(len(text), pos + rng.randrange(1, 12))
            text = text[:pos] + text[end:]
        elif choice == 2:
            text = text[:pos] + chr(rng.randrange(32, 127)) + text[pos:]
        elif choice == 3:
            text = text[:pos]
        else:
            other = rng.randrange(len(text) + 1)
            a, b = sorted((pos, other))
            text = text[:a] + text[b:b + 20] + text[a:]
    return text
