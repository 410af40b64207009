"""Surface objects (``surf1Dread/Write``, ``surf2Dread/Write``: ``suld.b``/``sust.b``), issue 18
cause 5.

Oracles: numpy (the same reads and writes on the host array, x in bytes); the PTX ISA's
boundary modes worked by hand (.zero reads 0 and drops the store, .clamp reads the last
element of the row, .trap fails the launch).
"""

from __future__ import annotations

import numpy as np
import pytest

import warpsim
from warpsim.errors import MemoryAccessError

SRC = r"""
extern "C" __global__ void copy2(cudaSurfaceObject_t in, cudaSurfaceObject_t out, int w) {
    int x = threadIdx.x, y = blockIdx.x;
    float v = surf2Dread<float>(in, x * 4, y);                       // trap mode
    float z = surf2Dread<float>(in, (x + 8) * 4, y, cudaBoundaryModeZero);
    float c = surf2Dread<float>(in, (x + 8) * 4, y, cudaBoundaryModeClamp);
    float4 q = surf2Dread<float4>(in, 0, y);
    surf2Dwrite(v + 10.0f * z + 100.0f * c + q.w, out, x * 4, y);
    surf2Dwrite(-1.0f, out, (x + w) * 4, y, cudaBoundaryModeZero);     // dropped
}
extern "C" __global__ void bytes1(cudaSurfaceObject_t s, int shift) {
    uchar2 b = surf1Dread<uchar2>(s, threadIdx.x * 2);
    surf1Dwrite(make_uchar2(b.y, b.x), s, threadIdx.x * 2 + shift);
}
"""


@pytest.fixture(scope="module")
def gpu():
    dev = warpsim.Device()
    return dev, dev.compile(SRC, name="surfaces.cu")


def test_2d_surface_reads_writes_and_boundary_modes(gpu):
    dev, mod = gpu
    h, w = 3, 16
    a = np.arange(h * w, dtype=np.float32).reshape(h, w)
    ina, outa = dev.to_device(a), dev.to_device(np.zeros((h, w), np.float32))
    si, so = dev.surface(ina), dev.surface(outa)
    mod.get_kernel("copy2")[h, w](si.handle, so.handle, np.int32(w))
    x = np.arange(w)
    inside = x + 8 < w
    zero = np.where(inside, a[:, np.minimum(x + 8, w - 1)], 0.0)
    clamp = a[:, np.minimum(x + 8, w - 1)]
    want = a + 10 * zero + 100 * clamp + a[:, 3:4]
    np.testing.assert_array_equal(outa.copy_to_host(), want.astype(np.float32))
    dev.destroy_texture(si)
    dev.destroy_texture(so)


def test_1d_surface_in_place_and_the_trap_mode(gpu):
    dev, mod = gpu
    raw = np.arange(64, dtype=np.uint8)
    buf = dev.to_device(raw)
    s = dev.surface(buf)
    mod.get_kernel("bytes1")[1, 32](s.handle, np.int32(0))
    want = raw.reshape(32, 2)[:, ::-1].reshape(-1)
    np.testing.assert_array_equal(buf.copy_to_host(), want)
    with pytest.raises(MemoryAccessError, match="surface is 64 bytes"):
        mod.get_kernel("bytes1")[1, 32](s.handle, np.int32(2))   # the last lane writes x = 64
