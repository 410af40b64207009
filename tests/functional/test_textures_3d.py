"""3-D and layered textures (``tex3D``, ``tex2DLayered``, ``tex1DLayered``), issue 18 cause 5.

Oracles: numpy indexing of the same volume (point sampling, integer coordinates, clamp and
wrap addressing) and trilinear interpolation computed by hand in the test with the
hardware's 8-bit fractional weights (CUDA Programming Guide, "Linear filtering").
"""

from __future__ import annotations

import numpy as np
import pytest

import warpsim

SRC = r"""
extern "C" __global__ void point3(cudaTextureObject_t t, const float* xyz, float* out) {
    int i = threadIdx.x;
    out[i] = tex3D<float>(t, xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]);
}
extern "C" __global__ void layers(cudaTextureObject_t t, const float* xy, const int* layer,
                                  float* out2, float* out1) {
    int i = threadIdx.x;
    out2[i] = tex2DLayered<float>(t, xy[2 * i], xy[2 * i + 1], layer[i]);
    out1[i] = tex1DLayered<float>(t, xy[2 * i], layer[i]);
}
"""


@pytest.fixture(scope="module")
def gpu():
    dev = warpsim.Device()
    return dev, dev.compile(SRC, name="tex3d.cu")


def _hw(frac: np.ndarray) -> np.ndarray:
    return np.round(frac * 256.0) / 256.0


def test_tex3d_point_wrap_and_trilinear(gpu):
    dev, mod = gpu
    rng = np.random.default_rng(7)
    vol = rng.standard_normal((4, 5, 6)).astype(np.float32)       # depth, height, width
    pts = np.stack([rng.uniform(-2, 8, 64), rng.uniform(-2, 7, 64), rng.uniform(-2, 6, 64)],
                   axis=1).astype(np.float32)
    out = dev.device_array(64, np.float32)
    t = dev.texture_3d(vol, address_mode="wrap")
    mod.get_kernel("point3")[1, 64](t, dev.to_device(pts.ravel()), out)
    ix, iy, iz = (np.floor(pts[:, k]).astype(int) for k in range(3))
    want = vol[iz % 4, iy % 5, ix % 6]
    np.testing.assert_array_equal(out.copy_to_host(), want)

    lin = dev.texture_3d(vol, filter_mode="linear")                 # clamp
    mod.get_kernel("point3")[1, 64](lin, dev.to_device(pts.ravel()), out)
    b = pts.astype(np.float64) - 0.5
    i0 = np.floor(b).astype(int)
    f = _hw(b - np.floor(b))
    acc = np.zeros(64)
    for dz in (0, 1):
        for dy in (0, 1):
            for dx in (0, 1):
                w = ((f[:, 0] if dx else 1 - f[:, 0]) * (f[:, 1] if dy else 1 - f[:, 1])
                     * (f[:, 2] if dz else 1 - f[:, 2]))
                v = vol[np.clip(i0[:, 2] + dz, 0, 3), np.clip(i0[:, 1] + dy, 0, 4),
                        np.clip(i0[:, 0] + dx, 0, 5)]
                acc += w * v
    np.testing.assert_allclose(out.copy_to_host(), acc.astype(np.float32), rtol=1e-6,
                               atol=1e-6)


def test_layered_textures_read_their_layer(gpu):
    dev, mod = gpu
    stack = np.arange(3 * 4 * 8, dtype=np.float32).reshape(3, 4, 8)  # 3 layers of 4 x 8
    t = dev.texture_3d(stack, layered=True)
    assert t.layered and (t.width, t.height, t.depth) == (8, 4, 3)
    xy = np.array([[x + 0.5, y + 0.5] for y in range(4) for x in range(8)], np.float32)
    layer = np.array([i % 3 for i in range(32)], np.int32)
    o2, o1 = dev.device_array(32, np.float32), dev.device_array(32, np.float32)
    mod.get_kernel("layers")[1, 32](t, dev.to_device(xy.ravel()), dev.to_device(layer), o2, o1)
    xs, ys = xy[:, 0].astype(int), xy[:, 1].astype(int)
    np.testing.assert_array_equal(o2.copy_to_host(), stack[layer, ys, xs])
    np.testing.assert_array_equal(o1.copy_to_host(), stack[layer, 0, xs])  # row 0 of the layer


CUBE = r"""
extern "C" __global__ void cube(cudaTextureObject_t t, const float* dirs, float* out) {
    int i = threadIdx.x;
    out[i] = texCubemap<float>(t, dirs[3 * i], dirs[3 * i + 1], dirs[3 * i + 2]);
}
"""


def test_cubemap_faces_follow_the_programming_guide_table():
    """Face k of a 4x4 cubemap holds 100 k + 10 y + x; a direction at texel (x, y) of face k
    is built as simpleCubemapTexture builds it (u, v in [-1, 1] from the texel centre)."""
    dev = warpsim.Device()
    mod = dev.compile(CUBE, name="cube.cu")
    w = 4
    faces = np.array([[[100 * k + 10 * y + x for x in range(w)] for y in range(w)]
                      for k in range(6)], np.float32)
    t = dev.texture_3d(faces, layered=True)
    dirs, want = [], []
    for k in range(6):
        for (x, y) in ((0, 0), (3, 1), (2, 3)):
            u, v = (x + 0.5) / w * 2 - 1, (y + 0.5) / w * 2 - 1
            dirs.append({0: (1, -v, -u), 1: (-1, -v, u), 2: (u, 1, v), 3: (u, -1, -v),
                         4: (u, -v, 1), 5: (-u, -v, -1)}[k])
            want.append(faces[k, y, x])
    out = dev.device_array(len(want), np.float32)
    mod.get_kernel("cube")[1, len(want)](t, dev.to_device(np.array(dirs, np.float32).ravel()),
                                         out)
    np.testing.assert_array_equal(out.copy_to_host(), np.array(want, np.float32))
