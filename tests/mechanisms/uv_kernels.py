"""Hand-written PTX micro-kernels of the uniform-vector tests, with their hand-counted answers
in the tests that use them (specs/xiang-simt-efficiency.md §1.3-§1.8)."""

from __future__ import annotations

from typing import Any

import numpy as np

HEAD = ".version 7.0\n.target sm_80\n.address_size 64\n"

BLOCK_OFFSET = HEAD + r"""
.visible .entry uv_block(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mul.lo.s32 %r3, %r1, %r2;
  mov.u32 %r4, %tid.x;
  add.s32 %r5, %r3, %r4;
  mul.wide.s32 %rd2, %r5, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r3;
  ret;
}
"""
"""``blockIdx.x * blockDim.x`` (Fig. 1): per warp, pcs 1-3 are intra-warp uniform, pcs 4-7
are not, pc 0 is a uniform load, pc 8 a store, pc 9 the exit."""

LOOP_DIVERGE = HEAD + r"""
.visible .entry uv_loop(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  .reg .pred %p<3>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, 0;
  mov.u32 %r2, %tid.x;
$LOOP:
  add.s32 %r1, %r1, 1;
  setp.lt.u32 %p1, %r1, 3;
  @%p1 bra $LOOP;
  setp.lt.u32 %p2, %r2, 16;
  @%p2 add.s32 %r1, %r1, 5;
  mul.wide.u32 %rd2, %r2, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r1;
  ret;
}
"""
"""A uniform loop counter (pcs 1, 3, 4), then a guarded write to the uniform ``%r1`` that only
lanes with tid < 16 execute (copy-on-write in warp 0; no lane of warp 1 executes it)."""

INDEPENDENT_MOVS = HEAD + r"""
.visible .entry uv_movs(.param .u64 out)
{
  .reg .b32 %r<10>;
  .reg .b64 %rd<2>;
  mov.u32 %r1, 1;
  mov.u32 %r2, 2;
  mov.u32 %r3, 3;
  mov.u32 %r4, 4;
  mov.u32 %r5, 5;
  mov.u32 %r6, 6;
  mov.u32 %r7, 7;
  mov.u32 %r8, 8;
  ld.param.u64 %rd1, [out];
  st.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r4};
  st.global.v4.u32 [%rd1+16], {%r5, %r6, %r7, %r8};
  ret;
}
"""
"""Eight independent uniform instructions of one warp: issue-port occupancy decides."""


def run_ptx(ptx: str, kernel: str, grid: int, block: int, overrides: list[str],
            n_out: int = 256) -> dict[str, Any]:
    """Time ``kernel`` on the GTX285 preset with ``overrides``; the device's statistics."""
    import warpsim

    with warpsim.Device(config="gtx285", overrides=overrides) as dev:
        m = dev.load_ptx(ptx, name=f"{kernel}.ptx")
        out = dev.device_array(n_out, np.uint32)
        getattr(m, kernel)[grid, block](out)
        return dict(dev.stats)

BROADCAST = HEAD + r"""
.visible .entry uv_bcast(.param .u64 out)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 0;
  mul.wide.u32 %rd2, %r2, 4;
  add.s64 %rd3, %rd1, %rd2;
  ld.global.u32 %r3, [%rd3];
  add.s32 %r4, %r3, 1;
  st.global.u32 [%rd3+4], %r4;
  ret;
}
"""
"""``tid & 0`` is 0 in every lane but decode cannot know (a %tid source): the address ``out +
4 * 0`` is one value, so pc 5 is a broadcast load and only the broadcast path's token makes
pc 6 detectable. Eligible per warp: pcs 1-4, 6; truly uniform: pcs 2-4, 6."""

SRF_RELEASE = HEAD + r"""
.visible .entry uv_release(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  mov.u32 %r1, 1;
  add.s32 %r1, %r1, 1;
  mov.u32 %r2, 3;
  ld.param.u64 %rd1, [out];
  st.global.v2.u32 [%rd1], {%r1, %r2};
  ret;
}
"""
"""With 2 scalar registers: pc 0 takes one, pc 1 (waits for %r1) pops the other and frees pc
0's; pc 2, independent, issues while pc 1 is in flight: released at ID it finds a free SR,
released at WB it does not."""

THREAD_PRIVATE = HEAD + r"""
.visible .entry uv_private(.param .u64 out)
{
  .local .align 4 .b8 buf[4];
  .reg .b32 %r<5>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  st.local.u32 [buf], %r1;
  ld.local.u32 %r2, [buf];
  add.s32 %r3, %r2, 1;
  cvt.rn.f32.u32 %f1, %r1;
  abs.f32 %f2, %f1;
  add.f32 %f3, %f2, 0f3F800000;
  mul.wide.u32 %rd2, %r1, 8;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r3;
  st.global.f32 [%rd3+4], %f3;
  ret;
}
"""
"""Thread-private values behind uniform-looking instructions: ``ld.local [buf]`` has one
address but each thread reads its own word (its tid), and ``abs.f32`` of a tid-dependent value
is folded into its user as an operand modifier (no scoreboard sources). Neither, nor their
users, may be detected uniform."""
