"""Device-side ``malloc``/``free`` and ``new``/``delete``: per-thread allocations, a heap that
outlives the launch, NULL when it is exhausted, and a clear fault on a bad ``free``.

Oracles: the kernels' arithmetic by hand (numpy), CUDA's 8 MiB default heap limit, 16-byte
alignment (Programming Guide, "Dynamic Global Memory Allocation").
"""

from __future__ import annotations

import numpy as np
import pytest

import warpsim
from warpsim.errors import MemoryAccessError

SRC = r"""
extern "C" __global__ void scratch(int* out) {
    int* p = (int*)malloc(4 * sizeof(int));
    for (int j = 0; j < 4; j++) p[j] = threadIdx.x * 10 + j;
    out[threadIdx.x] = p[0] + p[3];
    free(p);
}
struct Node { int v; };
extern "C" __global__ void objects(int* out) {
    Node* n = new Node;
    n->v = threadIdx.x;
    out[threadIdx.x] = n->v + 1;
    delete n;
}
extern "C" __global__ void keep(int** slots, unsigned long long bytes) {
    int* p = (int*)malloc(bytes);
    if (p) p[0] = 7 * threadIdx.x;
    slots[threadIdx.x] = p;
}
extern "C" __global__ void use(int** slots, int* out) {
    int* p = slots[threadIdx.x];
    out[threadIdx.x] = p ? p[0] : -1;
    free(p);
}
extern "C" __global__ void double_free(int* out) {
    int* p = (int*)malloc(16);
    free(p);
    free(p);
}
"""


@pytest.fixture()
def mod():
    dev = warpsim.Device()
    return dev, dev.compile(SRC, name="device_malloc.cu")


def test_malloc_free_and_new_delete(mod):
    dev, m = mod
    out = dev.device_array(64, np.int32)
    m.get_kernel("scratch")[1, 64](out)
    np.testing.assert_array_equal(out.copy_to_host(), 20 * np.arange(64) + 3)
    m.get_kernel("objects")[1, 64](out)
    np.testing.assert_array_equal(out.copy_to_host(), np.arange(64) + 1)
    assert len(dev.memory.allocations()) == 1  # only `out`: everything was freed


def test_heap_outlives_the_launch_and_is_16_byte_aligned(mod):
    dev, m = mod
    slots, out = dev.device_array(32, np.uint64), dev.device_array(32, np.int32)
    m.get_kernel("keep")[1, 32](slots, np.uint64(20))
    ptrs = slots.copy_to_host()
    assert (ptrs % 16 == 0).all() and len(set(ptrs.tolist())) == 32
    m.get_kernel("use")[1, 32](slots, out)
    np.testing.assert_array_equal(out.copy_to_host(), 7 * np.arange(32))


def test_exhausted_heap_returns_null(mod):
    dev, m = mod
    slots, out = dev.device_array(2, np.uint64), dev.device_array(2, np.int32)
    m.get_kernel("keep")[1, 2](slots, np.uint64(5 << 20))  # 5 MiB each: the second fails
    ptrs = slots.copy_to_host()
    assert ptrs[0] != 0 and ptrs[1] == 0
    m.get_kernel("use")[1, 2](slots, out)  # free(NULL) does nothing
    np.testing.assert_array_equal(out.copy_to_host(), [0, -1])


def test_double_free_is_a_fault_naming_the_source_line(mod):
    dev, m = mod
    with pytest.raises(MemoryAccessError, match="free of an address malloc did not return"
                       ) as info:
        m.get_kernel("double_free")[1, 1](dev.device_array(1, np.int32))
    lines = SRC.splitlines()
    second_free = len(lines) - lines[::-1].index("    free(p);")  # 1-based, last occurrence
    assert info.value.src == ("device_malloc.cu", second_free)
