"""Recursive device functions (issue 18 cause 2): a per-thread call stack in local memory
(``warpsim/ptx/recursion.py``).

Oracles: the same recursions in Python per thread; for the timing model, the local-memory
stores and loads counted by hand from the PTX's liveness (fib saves ``%n`` across its first
call and ``%x`` across its second, plus its argument and the return-site number: four
``st.local`` and four ``ld.local`` per recursive call).
"""

from __future__ import annotations

import numpy as np
import pytest

import warpsim
from warpsim.errors import LaunchError
from warpsim.ptx.inline import inline_calls
from warpsim.ptx.parser import parse_ptx

CUDA = r"""
__device__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__device__ int walk(const int* a, int n) {   // passes a pointer to its own locals down
    int loc[4];
    for (int i = 0; i < 4; ++i) loc[i] = a[i] + n;
    if (n == 0) return loc[0] + loc[3];
    return loc[n & 3] + walk(loc, n - 1);
}
__device__ bool is_odd(unsigned n);
__device__ bool is_even(unsigned n) { return n == 0 ? true : is_odd(n - 1); }
__device__ bool is_odd(unsigned n) { return n == 0 ? false : is_even(n - 1); }
extern "C" __global__ void k(int* out, const int* in) {
    int t = threadIdx.x;
    out[t] = fib(t % 12);
    out[t + 64] = walk(in + t, t % 5);
    out[t + 128] = is_even(t % 20) + 2 * is_odd(t % 7);
}
"""

HEADER = ".version 7.0\n.target sm_80\n.address_size 64\n"

FIB_PTX = HEADER + r"""
.func (.param .b32 r) fib(.param .b32 a)
{
    .reg .pred %p; .reg .b32 %n; .reg .b32 %x; .reg .b32 %y;
    ld.param.b32 %n, [a];
    setp.lt.s32 %p, %n, 2;
    @%p bra DONE;
    add.s32 %x, %n, -1;
    { .param .b32 q; .param .b32 t; st.param.b32 [q], %x;
      call (t), fib, (q); ld.param.b32 %x, [t]; }
    add.s32 %y, %n, -2;
    { .param .b32 q; .param .b32 t; st.param.b32 [q], %y;
      call (t), fib, (q); ld.param.b32 %y, [t]; }
    add.s32 %n, %x, %y;
DONE:
    st.param.b32 [r], %n;
    ret;
}
.visible .entry k(.param .u64 out, .param .u32 mod)
{
    .reg .b32 %r<4>; .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out]; ld.param.u32 %r3, [mod];
    mov.u32 %r1, %tid.x;
    rem.u32 %r2, %r1, %r3;
    { .param .b32 q; .param .b32 t; st.param.b32 [q], %r2;
      call (t), fib, (q); ld.param.b32 %r2, [t]; }
    cvta.to.global.u64 %rd1, %rd1;
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r2;
    ret;
}
"""


SUM_PTX = HEADER + r"""
.func (.param .b32 r) sum(.param .b32 a)
{
    .reg .pred %p; .reg .b32 %n; .reg .b32 %s;
    ld.param.b32 %n, [a];
    setp.eq.s32 %p, %n, 0;
    @%p bra DONE;
    add.s32 %s, %n, -1;
    { .param .b32 q; .param .b32 t; st.param.b32 [q], %s;
      call (t), sum, (q); ld.param.b32 %s, [t]; }
    add.s32 %n, %n, %s;
DONE:
    st.param.b32 [r], %n;
    ret;
}
.visible .entry k(.param .u64 out, .param .u32 n)
{
    .reg .b32 %r<4>; .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [out]; ld.param.u32 %r1, [n];
    { .param .b32 q; .param .b32 t; st.param.b32 [q], %r1;
      call (t), sum, (q); ld.param.b32 %r2, [t]; }
    cvta.to.global.u64 %rd1, %rd1;
    st.global.u32 [%rd1], %r2;
    ret;
}
"""


def fib(n: int) -> int:
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def calls(n: int) -> int:
    """Recursive calls fib(n) makes (not counting the kernel's own call)."""
    return 0 if n < 2 else 2 + calls(n - 1) + calls(n - 2)


def walk(a: list[int], n: int) -> int:
    loc = [a[i] + n for i in range(4)]
    return loc[0] + loc[3] if n == 0 else loc[n & 3] + walk(loc, n - 1)


def test_recursive_cuda_functions_match_python():
    dev = warpsim.Device()
    mod = dev.compile(CUDA, name="recursion.cu")
    src = np.arange(200, dtype=np.int32) * 3 - 50
    out = dev.device_array(192, np.int32)
    mod.get_kernel("k")[1, 64](out, dev.to_device(src))
    t = range(64)
    want = ([fib(i % 12) for i in t] + [walk(src[i:i + 4].tolist(), i % 5) for i in t]
            + [int((i % 20) % 2 == 0) + 2 * int((i % 7) % 2 == 1) for i in t])
    np.testing.assert_array_equal(out.copy_to_host(), want)


def test_recursion_deeper_than_the_stack_fails_the_launch():
    # sum's frame: %n (8-byte slot), its 4-byte argument, the site number: 16 bytes, so
    # 1024 / 16 = 64 frames; sum(63) reaches depth 63 and fits, sum(64) needs a 65th frame
    dev = warpsim.Device()
    mod = dev.load_ptx(SUM_PTX, name="sum.ptx")
    out = dev.device_array(1, np.int32)
    mod.get_kernel("k")[1, 32](out, np.int32(63))
    assert out.copy_to_host()[0] == 63 * 64 // 2
    with pytest.raises(LaunchError, match="recursion of 'sum' deeper than 64 calls"):
        mod.get_kernel("k")[1, 32](out, np.int32(64))


def test_frames_are_sized_from_liveness():
    # fib saves %n and %x (8-byte slots: 16 bytes), its argument (4) and the site number (4):
    # 24 bytes rounded to 32; 1024 / 32 = 32 frames (= MIN_FRAMES)
    m = parse_ptx(FIB_PTX)
    fn = inline_calls(m, m.functions["k"])
    assert not any(i.opcode == "call" for i in fn.instructions)
    stack = [v for v in fn.variables if v.name.startswith("__rec_stack_fib")]
    assert len(stack) == 1 and stack[0].size_bytes == 32 * 32


def test_timing_model_sees_the_stack_traffic():
    dev = warpsim.Device(config="gtx480")
    mod = dev.load_ptx(FIB_PTX, name="fib.ptx")
    out = dev.device_array(64, np.int32)
    mod.get_kernel("k")[1, 64](out, np.int32(9))
    n = [i % 9 for i in range(64)]
    np.testing.assert_array_equal(out.copy_to_host(), [fib(i) for i in n])
    stats = dev.last_launch.stats
    rec = sum(calls(i) for i in n)
    assert stats["gpgpu_n_store_insn"] == 64 + 4 * rec    # out[t] + the frames
    assert stats["gpgpu_n_load_insn"] == 4 * rec
