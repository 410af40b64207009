"""Texture objects: creation options, sampling through kernels, lifetime and errors."""

from __future__ import annotations

import numpy as np
import pytest

from warpsim.errors import LaunchError
from warpsim.runtime import DeviceMemoryError


def test_texture_reads_the_array_in_place(gpu, mod):
    data = np.arange(64, dtype=np.float32)
    d = gpu.to_device(data)
    out = gpu.device_array(64, np.float32)
    with gpu.texture(d) as tex:
        mod.get_kernel("tex_fetch")[1, 64](tex, out, 64)
        np.testing.assert_array_equal(out.copy_to_host(), 2 * data)
        d.copy_to_device(-data)  # later launches see the new contents
        mod.get_kernel("tex_fetch")[1, 64](tex, out, 64)
        np.testing.assert_array_equal(out.copy_to_host(), -2 * data)
    assert tex.destroyed


def test_texture_2d_clamp_and_wrap_at_the_edge(gpu, mod):
    img = np.arange(12, dtype=np.float32).reshape(3, 4)
    d_img = gpu.to_device(img)
    out = gpu.device_array(6 * 5, np.float32)
    # launch over a 6x5 window of a 4x3 texture: x = 4, 5 and y = 3, 4 are outside
    for mode, ix, iy in (("clamp", np.minimum(np.arange(6), 3), np.minimum(np.arange(5), 2)),
                         ("wrap", np.arange(6) % 4, np.arange(5) % 3)):
        tex = gpu.texture_2d(d_img, address_mode=mode)
        assert not tex.owns_array
        mod.get_kernel("tex_2d")[(1, 1), (8, 8)](tex, out, 6, 5)
        want = img[iy[:, None], ix[None, :]]
        np.testing.assert_array_equal(out.copy_to_host().reshape(5, 6), want)
        tex.destroy()
    assert not d_img.is_freed  # a texture over a DeviceArray does not own it


def test_texture_descriptor_matches_the_request(gpu):
    d = gpu.device_array((8, 4), np.uint8)
    tex = gpu.texture(d, read_mode="normalized_float", filter_mode="linear",
                      address_mode="border", normalized_coords=True)
    assert (tex.width, tex.height, tex.channels, tex.dims) == (8, 1, 4, 1)
    desc = tex.desc
    assert desc.address == d.device_ptr and desc.dtype == "u8" and desc.channels == 4
    assert desc.filter == "linear" and desc.address_mode == "border"
    assert desc.normalized_coords and desc.normalized_read
    other = gpu.texture(gpu.device_array(4, np.float32))
    assert other.handle != tex.handle and int(other) == other.handle


@pytest.mark.parametrize(("kwargs", "fragment"), [
    (dict(address_mode="repeat"), "address_mode 'repeat' is not one of"),
    (dict(filter_mode="cubic"), "filter_mode 'cubic' is not one of"),
    (dict(read_mode="float"), "read_mode 'float' is not one of"),
])
def test_bad_texture_options(gpu, kwargs, fragment):
    d = gpu.device_array(4, np.float32)
    with pytest.raises(DeviceMemoryError, match=fragment):
        gpu.texture(d, **kwargs)


def test_unsupported_texels_and_shapes(gpu):
    with pytest.raises(DeviceMemoryError, match="float64 are not supported"):
        gpu.texture(gpu.device_array(4, np.float64))
    with pytest.raises(DeviceMemoryError, match="cannot be a 1-D texture"):
        gpu.texture(gpu.device_array((4, 3), np.float32))
    with pytest.raises(DeviceMemoryError, match="linear filtering needs float texels"):
        gpu.texture(gpu.device_array(4, np.int32), filter_mode="linear")
    with pytest.raises(DeviceMemoryError, match="a 1-D texture reads linear device memory"):
        gpu.texture(np.zeros(4, np.float32))
    before = gpu.allocated_bytes
    with pytest.raises(DeviceMemoryError, match="cannot be a 2-D texture"):
        gpu.texture_2d(np.zeros(4, np.float32))
    assert gpu.allocated_bytes == before  # the host copy was released again


def test_destroyed_texture_is_a_launch_error(gpu, mod):
    tex = gpu.texture(gpu.device_array(4, np.float32))
    tex.destroy()
    out = gpu.device_array(4, np.float32)
    with pytest.raises(LaunchError) as err:
        mod.get_kernel("tex_fetch")[1, 4](tex, out, 4)
    assert f"texture object {tex.handle} was destroyed" in str(err.value)
    with pytest.raises(DeviceMemoryError, match="not live"):
        tex.destroy()


def test_array_under_a_texture_cannot_be_freed(gpu):
    d = gpu.device_array(4, np.float32)
    tex = gpu.texture(d)
    with pytest.raises(DeviceMemoryError, match="destroy the texture first"):
        gpu.free(d)
    tex.destroy()
    gpu.free(d)


def test_texture_for_a_32_bit_parameter(gpu, ptx_mod):
    tex = gpu.texture(gpu.device_array(4, np.float32))
    d = gpu.device_array(4, np.float32)
    with pytest.raises(LaunchError, match="a texture object is a 64-bit handle"):
        ptx_mod.get_kernel("vadd")[1, 4](d, d, d, tex)
