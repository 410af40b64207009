"""Dynamic parallelism (issue 18 cause 2): grids launched from device code
(``functional/device_launch.py``) and the linking of several ``-rdc=true`` units
(``ptx/link.py``).

Oracles: numpy per-element results worked out from the kernels by hand; the nesting limit of
the CUDA Programming Guide (24); hand-written PTX units whose symbols are known.
"""

from __future__ import annotations

import numpy as np
import pytest

import warpsim
from warpsim.errors import LaunchError, UnsupportedPTXError
from warpsim.ptx.link import link_modules
from warpsim.ptx.parser import parse_ptx

SRC = r"""
extern "C" __global__ void child(int* out, int base, int scale) {
    out[base + threadIdx.x] = scale * (base + threadIdx.x);
}
extern "C" __global__ void parent(int* out) {
    // each of the first 6 threads launches its own child on 4 elements
    if (threadIdx.x < 6) child<<<1, 4>>>(out, 4 * threadIdx.x, threadIdx.x + 1);
}
extern "C" __global__ void chain(int* out, int depth) {
    out[depth] = depth;
    if (depth > 0) chain<<<1, 1>>>(out, depth - 1);
}
extern "C" __global__ void after(int* flag, int* seen) {
    // the child runs after its parent grid (a tail-launch schedule): it sees the store the
    // parent made after launching it
    if (threadIdx.x == 0) {
        child<<<1, 1>>>(seen, 0, 1);
        *flag = 7;
    }
}
extern "C" __global__ void read_flag(const int* flag, int* out) { *out = *flag; }
"""


@pytest.fixture(scope="module")
def dp():
    dev = warpsim.Device()
    return dev, dev.compile(SRC, name="dp.cu", options=("-rdc=true",))


def test_children_fill_their_slices(dp):
    dev, mod = dp
    out = dev.to_device(np.full(32, -1, np.int32))
    seen = []
    dev.add_launch_observer(lambda k, cfg, r: seen.append((k.name, cfg.grid, cfg.block)))
    mod.get_kernel("parent")[1, 32](out)
    i = np.arange(24)
    want = np.concatenate([(i // 4 + 1) * i, np.full(8, -1)])
    np.testing.assert_array_equal(out.copy_to_host(), want)
    assert seen == [("parent", (1, 1, 1), (32, 1, 1))] + [("child", (1, 1, 1), (4, 1, 1))] * 6
    assert dev.last_launch.kernel == "parent"


def test_nesting_deeper_than_24_grids_fails(dp):
    dev, mod = dp
    out = dev.device_array(40, np.int32)
    mod.get_kernel("chain")[1, 1](out, np.int32(24))      # 25 grids: 24 launched on device
    np.testing.assert_array_equal(out.copy_to_host()[:25], np.arange(25))
    with pytest.raises(LaunchError, match="nested deeper than 24"):
        mod.get_kernel("chain")[1, 1](out, np.int32(25))


def test_timing_model_times_each_child_after_its_parent():
    dev = warpsim.Device(config="gtx480")
    mod = dev.compile(SRC, name="dp.cu", options=("-rdc=true",))
    flag, seen = dev.device_array(1, np.int32), dev.device_array(1, np.int32)
    cycles = []
    dev.add_launch_observer(lambda k, cfg, r: cycles.append((k.name, r.stats["gpu_sim_cycle"])))
    mod.get_kernel("after")[1, 32](flag, seen)
    assert [n for n, _ in cycles] == ["after", "child"] and all(c > 0 for _, c in cycles)
    assert int(flag.copy_to_host()[0]) == 7 and int(seen.copy_to_host()[0]) == 0


HEAD = ".version 7.0\n.target sm_80\n.address_size 64\n"
UNIT_A = HEAD + """
.extern .func (.param .b32 r) twice(.param .b32 a);
.extern .global .align 4 .u32 bias;
.visible .entry k(.param .u64 out)
{
    .reg .b32 %r<4>; .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    { .param .b32 p; .param .b32 q; st.param.b32 [p], %r1;
      call (q), twice, (p); ld.param.b32 %r2, [q]; }
    ld.global.u32 %r3, [bias];
    add.s32 %r2, %r2, %r3;
    cvta.to.global.u64 %rd1, %rd1;
    mul.wide.u32 %rd0, %r1, 4;
    add.s64 %rd1, %rd1, %rd0;
    st.global.u32 [%rd1], %r2;
    ret;
}
"""
UNIT_B = HEAD + """
.visible .global .align 4 .u32 bias = 100;
.visible .func (.param .b32 r) twice(.param .b32 a)
{
    .reg .b32 %x;
    ld.param.b32 %x, [a];
    add.s32 %x, %x, %x;
    st.param.b32 [r], %x;
    ret;
}
"""


def test_units_link_their_extern_symbols():
    dev = warpsim.Device()
    mod = dev.link_ptx([UNIT_A, UNIT_B], name="two.ptx")
    out = dev.device_array(32, np.int32)
    mod.get_kernel("k")[1, 32](out)
    np.testing.assert_array_equal(out.copy_to_host(), 2 * np.arange(32) + 100)


def test_a_symbol_defined_twice_does_not_link():
    b = parse_ptx(UNIT_B, "b.ptx")
    with pytest.raises(UnsupportedPTXError, match="'twice' is defined in two translation "
                                                  "units"):
        link_modules([b, parse_ptx(UNIT_B, "b2.ptx")])
