"""Function pointers, C++ virtual functions and ``brx.idx`` (issue 18 cause 2): indirect
control flow lowered to compare-and-branch chains (``warpsim/ptx/indirect.py``).

Oracles: numpy (the same arithmetic per thread on the host); hand-written PTX whose result
per lane is known by reading it; the immediate post-dominator worked by hand (the chain's
lanes meet again right after the call, not at the kernel's exit).
"""

from __future__ import annotations

import numpy as np
import pytest

import warpsim
from warpsim.errors import LaunchError
from warpsim.ptx.cfg import build_cfg
from warpsim.ptx.indirect import address_taken
from warpsim.ptx.inline import inline_calls
from warpsim.ptx.parser import parse_ptx

SRC = r"""
typedef int (*op_t)(int, int);
__device__ int add(int a, int b) { return a + b; }
__device__ int mul(int a, int b) { return a * b; }
__device__ op_t table[2] = {add, mul};
struct Shape { __device__ virtual float area() const = 0; };
struct Sq : Shape {
    float s;
    __device__ Sq(float s) : s(s) {}
    __device__ float area() const override { return s * s; }
};
struct Tri : Shape {
    float b;
    __device__ Tri(float b) : b(b) {}
    __device__ float area() const override { return 0.5f * b * b; }
};
extern "C" __global__ void k(int* out, float* fo, const long long* bad) {
    int i = threadIdx.x;
    op_t f = (i & 1) ? mul : add;                // diverges inside every warp
    out[i] = f(i, 3) + table[(i >> 2) & 1](i, 2);
    Sq sq(i); Tri tri(i);
    const Shape* s = (i % 3) ? (const Shape*)&sq : (const Shape*)&tri;
    fo[i] = s->area();
}
extern "C" __global__ void wild(int* out, const long long* ptrs) {
    op_t f = (op_t)ptrs[threadIdx.x];
    out[threadIdx.x] = f(threadIdx.x, 1);
}
"""

BRX = r"""
.version 7.0
.target sm_80
.address_size 64
.visible .entry sw(.param .u64 out, .param .u32 lim)
{
    .reg .pred %p<2>;
    .reg .b32 %r<6>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    ld.param.u32 %r5, [lim];
    mov.u32 %r1, %tid.x;
    rem.u32 %r2, %r1, %r5;
    setp.lt.u32 %p1, %r1, 48;
ts: .branchtargets L0, L1, L2;
    @%p1 brx.idx %r2, ts;
    mov.u32 %r3, 7;
    bra.uni END;
L0: mov.u32 %r3, 100;
    bra.uni END;
L1: mov.u32 %r3, 200;
    bra.uni END;
L2: mov.u32 %r3, 300;
END:
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r3;
    ret;
}
"""


@pytest.fixture(scope="module")
def module():
    dev = warpsim.Device()
    return dev, dev.compile(SRC, name="indirect.cu")


def test_function_pointers_and_virtual_calls_match_numpy(module):
    dev, mod = module
    out = dev.device_array(96, np.int32)
    fo = dev.device_array(96, np.float32)
    mod.get_kernel("k")[1, 96](out, fo, out)
    i = np.arange(96)
    first = np.where(i & 1, i * 3, i + 3)
    second = np.where((i >> 2) & 1, i * 2, i + 2)
    np.testing.assert_array_equal(out.copy_to_host(), first + second)
    x = i.astype(np.float32)
    area = np.where(i % 3 != 0, x * x, np.float32(0.5) * x * x).astype(np.float32)
    np.testing.assert_array_equal(fo.copy_to_host(), area)


def test_pointer_to_no_function_fails_the_launch(module):
    dev, mod = module
    out = dev.device_array(32, np.int32)
    ptrs = dev.to_device(np.full(32, 0x1234, np.int64))
    with pytest.raises(LaunchError, match="no function of this module"):
        mod.get_kernel("wild")[1, 32](out, ptrs)


def test_chain_reconverges_right_after_the_call():
    from warpsim.toolchain import compile_cuda

    ptx = compile_cuda(SRC, name="indirect.cu").ptx
    m = parse_ptx(ptx)
    assert address_taken(m)[:2] == ("_Z3addii", "_Z3mulii")
    fn = inline_calls(m, m.functions["k"])
    cfg = build_cfg(fn)
    for site in (1, 2, 3):
        first = fn.labels[f"$L__icall{site}_0"]
        branch = next(i.index for i in fn.instructions
                      if i.opcode == "bra" and i.srcs[0].name == f"$L__icall{site}_0")
        assert first > branch
        assert cfg.reconvergence_pc[branch] == fn.labels[f"$L__icall{site}_done"]


def test_brx_idx_jumps_to_the_listed_label():
    dev = warpsim.Device()
    mod = dev.load_ptx(BRX, name="brx.ptx")
    out = dev.device_array(64, np.int32)
    mod.get_kernel("sw")[1, 64](out, np.int32(3))
    i = np.arange(64)
    want = np.where(i < 48, np.array([100, 200, 300])[i % 3], 7)
    np.testing.assert_array_equal(out.copy_to_host(), want)
    with pytest.raises(LaunchError, match=r"brx\.idx index out of its 3-entry target list"):
        mod.get_kernel("sw")[1, 64](out, np.int32(4))   # lanes with index 3 (tid 3, 7, ...)


CALLTARGETS = r"""
.version 7.0
.target sm_80
.address_size 64
.func (.param .b32 r) one(.param .b32 a) { .reg .b32 %x; ld.param.b32 %x, [a];
    add.s32 %x, %x, 1; st.param.b32 [r], %x; ret; }
.func (.param .b32 r) two(.param .b32 a) { .reg .b32 %x; ld.param.b32 %x, [a];
    add.s32 %x, %x, 2; st.param.b32 [r], %x; ret; }
.func (.param .b32 r) loop(.param .b32 a) { .reg .b32 %x; .reg .b64 %f;
    ld.param.b32 %x, [a]; mov.u64 %f, loop;
    { .param .b32 p; .param .b32 q; st.param.b32 [p], %x;
      proto: .callprototype (.param .b32 _) _ (.param .b32 _);
      call (q), %f, (p), proto; ld.param.b32 %x, [q]; }
    st.param.b32 [r], %x; ret; }
.visible .entry k(.param .u64 out, .param .u64 fp)
{
    .reg .b32 %r<3>; .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out]; ld.param.u64 %rd2, [fp];
    mov.u64 %rd3, one; mov.u64 %rd3, two;
    mov.u32 %r1, %tid.x;
    { .param .b32 p; .param .b32 q; st.param.b32 [p], %r1;
      tgt: .calltargets two;
      call (q), %rd2, (p), tgt; ld.param.b32 %r2, [q]; }
    st.global.u32 [%rd1], %r2;
    ret;
}
"""


def test_calltargets_limit_the_candidates_and_recursion_through_a_pointer_is_explicit():
    m = parse_ptx(CALLTARGETS)
    assert m.functions["k"].target_lists == {"tgt": ("two",)}
    assert m.functions["loop"].call_prototypes == {"proto": (1, 1)}
    fn = inline_calls(m, m.functions["k"])
    movs = [i.srcs[0].name for i in fn.instructions
            if i.opcode == "mov" and i.srcs[0].kind.name == "SYMBOL"]
    assert movs == ["one", "two", "two"]   # the two of the kernel, then one candidate
    # loop calls itself through a pointer: after the chain's lowering a direct recursion,
    # made explicit on the per-thread stack (tests/functional/test_recursion.py)
    flat = inline_calls(m, m.functions["loop"])
    assert not any(i.opcode == "call" for i in flat.instructions)
    assert any("recursion of 'loop' deeper than" in i.text for i in flat.instructions
               if i.opcode == "trap")


def test_timing_model_runs_the_lowered_calls():
    dev = warpsim.Device(config="gtx480")
    mod = dev.compile(SRC, name="indirect.cu")
    out = dev.device_array(64, np.int32)
    fo = dev.device_array(64, np.float32)
    mod.get_kernel("k")[1, 64](out, fo, out)
    i = np.arange(64)
    want = np.where(i & 1, i * 3, i + 3) + np.where((i >> 2) & 1, i * 2, i + 2)
    np.testing.assert_array_equal(out.copy_to_host(), want)
    stats = dev.last_launch.stats
    # two warps, each splitting at the first compare of all three call chains (both pointers
    # occur in every warp) and at the ternary's branch before the virtual call: 2 x 4
    assert stats["gpu_sim_cycle"] > 0 and stats["simt_divergent_branches"] == 8
