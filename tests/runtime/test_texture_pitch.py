"""``Device.texture_2d(..., pitch_bytes=)``: 2-D textures over pitched device memory."""

from __future__ import annotations

import numpy as np
import pytest

from warpsim.runtime import DeviceMemoryError


def test_texture_2d_reads_rows_pitch_bytes_apart(gpu, mod):
    # a 3 x 4 float image stored with rows of 8 floats (32-byte pitch); the padding holds -1
    pitched = np.full((3, 8), -1.0, np.float32)
    pitched[:, :4] = np.arange(12, dtype=np.float32).reshape(3, 4)
    d = gpu.to_device(pitched)
    view = d.ravel()[:12].reshape(3, 4)  # the texture's size: height 3, width 4
    tex = gpu.texture_2d(view, pitch_bytes=32)
    assert (tex.width, tex.height, tex.desc.pitch_bytes) == (4, 3, 32)
    out = gpu.device_array(6 * 4, np.float32)
    mod.get_kernel("tex_2d")[(1, 1), (8, 8)](tex, out, 6, 4)
    ix, iy = np.minimum(np.arange(6), 3), np.minimum(np.arange(4), 2)  # clamped at the edge
    want = np.arange(12, dtype=np.float32).reshape(3, 4)[iy[:, None], ix[None, :]]
    np.testing.assert_array_equal(out.copy_to_host().reshape(4, 6), want)


def test_texture_2d_pitch_must_fit_rows_and_allocation(gpu):
    d = gpu.device_array((3, 8), np.float32)
    view = d.ravel()[:12].reshape(3, 4)
    with pytest.raises(DeviceMemoryError, match="pitch_bytes 8 for rows of 4 texels"):
        gpu.texture_2d(view, pitch_bytes=8)
    with pytest.raises(DeviceMemoryError, match=r"pitch_bytes 18 (.|\n)*multiple of 4"):
        gpu.texture_2d(view, pitch_bytes=18)
    with pytest.raises(DeviceMemoryError, match="end outside the allocation"):
        gpu.texture_2d(view, pitch_bytes=64)  # 3 rows 64 bytes apart need 144 of 96 bytes
    with pytest.raises(DeviceMemoryError, match="needs a DeviceArray"):
        gpu.texture_2d(np.zeros((3, 4), np.float32), pitch_bytes=32)
