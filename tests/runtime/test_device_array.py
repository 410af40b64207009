"""Device arrays: transfers, views, memset, lifetime, errors (no kernel launches)."""

from __future__ import annotations

import numpy as np
import pytest

import warpsim
from warpsim.errors import ConfigError, WarpsimError
from warpsim.runtime import DeviceArray, DeviceMemoryError


def test_round_trip_keeps_shape_dtype_and_values(gpu):
    a = np.arange(24, dtype=np.int16).reshape(2, 3, 4)
    d = gpu.to_device(a)
    assert isinstance(d, DeviceArray)
    assert (d.shape, d.dtype, d.size, d.ndim, d.nbytes) == ((2, 3, 4), np.int16, 24, 3, 48)
    assert d.strides == a.strides and len(d) == 2
    assert d.device_ptr % 256 == 0 and d.device_ptr > 0
    out = d.copy_to_host()
    assert out.dtype == a.dtype
    np.testing.assert_array_equal(out, a)
    into = np.empty_like(a)
    assert d.copy_to_host(into) is into
    np.testing.assert_array_equal(into, a)


def test_to_device_accepts_lists_scalars_and_noncontiguous(gpu):
    np.testing.assert_array_equal(gpu.to_device([1.0, 2.0]).copy_to_host(), [1.0, 2.0])
    assert gpu.to_device(np.float32(3)).copy_to_host() == np.float32(3)
    a = np.arange(20, dtype=np.float64).reshape(4, 5)[:, ::2]
    np.testing.assert_array_equal(gpu.to_device(a).copy_to_host(), a)


def test_device_array_like_and_memset(gpu):
    a = np.ones((3, 5), np.float32)
    d = gpu.device_array_like(a)
    assert (d.shape, d.dtype) == (a.shape, a.dtype)
    gpu.memset(d, 0xFF)
    assert (d.copy_to_host().view(np.uint32) == 0xFFFFFFFF).all()
    gpu.memset(d, 0, nbytes=8)
    got = d.copy_to_host().view(np.uint32).reshape(-1)
    assert (got[:2] == 0).all() and (got[2:] == 0xFFFFFFFF).all()
    with pytest.raises(DeviceMemoryError, match="is not a byte"):
        gpu.memset(d, 256)
    with pytest.raises(DeviceMemoryError, match="the array has 60"):
        gpu.memset(d, 0, nbytes=61)


def test_device_array_default_dtype_is_float64_like_numba(gpu):
    assert gpu.device_array(4).dtype == np.float64
    assert gpu.device_array((2, 2), np.int8).shape == (2, 2)
    assert gpu.device_array(0, np.float32).nbytes == 0


def test_copy_to_device_checks_shape_and_dtype(gpu):
    d = gpu.device_array(4, np.float32)
    d.copy_to_device(np.arange(4, dtype=np.float32))
    np.testing.assert_array_equal(d.copy_to_host(), [0, 1, 2, 3])
    with pytest.raises(DeviceMemoryError) as err:
        d.copy_to_device(np.arange(5, dtype=np.float32))
    assert "shape (5,), the device array (4,)" in str(err.value) and "hint:" in str(err.value)
    with pytest.raises(DeviceMemoryError) as err:
        d.copy_to_device(np.arange(4, dtype=np.float64))
    assert "a.astype(np.float32)" in str(err.value)
    assert err.value.problem.endswith("has dtype float64, the device array float32")
    assert err.value.hint == "convert first: a.astype(np.float32)"
    other = gpu.to_device(np.full(4, 7, np.float32))
    d.copy_to_device(other)  # device to device
    np.testing.assert_array_equal(d.copy_to_host(), 7)
    with pytest.raises(DeviceMemoryError, match="destination"):
        d.copy_to_host(np.empty(3, np.float32))


def test_slices_and_indexing_are_views(gpu):
    a = np.arange(12, dtype=np.int32).reshape(3, 4)
    d = gpu.to_device(a)
    row = d[1]
    assert row.shape == (4,) and row.device_ptr == d.device_ptr + 16
    np.testing.assert_array_equal(row.copy_to_host(), a[1])
    np.testing.assert_array_equal(d[1:3].copy_to_host(), a[1:3])
    assert d[2, 3] == 11 and d[-1, -1] == 11
    d[0] = [9, 9, 9, 9]
    d[2, 0] = -5
    d[1:2] = np.zeros((1, 4), np.int32)
    want = a.copy()
    want[0], want[2, 0], want[1] = 9, -5, 0
    np.testing.assert_array_equal(d.copy_to_host(), want)
    d[...] = 3
    assert (d.copy_to_host() == 3).all()
    with pytest.raises(DeviceMemoryError, match="step 1"):
        d[::2]
    with pytest.raises(DeviceMemoryError, match="out of bounds"):
        d[3]


def test_view_and_reshape(gpu):
    d = gpu.to_device(np.array([1.0, 2.0], np.float32))
    bits = d.view(np.uint32)
    assert bits.copy_to_host()[0] == 0x3F800000
    assert d.view(np.uint8).shape == (8,)
    r = gpu.device_array(12, np.int32).reshape(3, -1)
    assert r.shape == (3, 4) and r.ravel().shape == (12,)
    with pytest.raises(DeviceMemoryError, match="cannot reshape"):
        r.reshape(5, 2)


def test_free_invalidates_array_and_views(gpu):
    d = gpu.to_device(np.arange(8, dtype=np.float32))
    view = d[2:4]
    before = gpu.allocated_bytes
    gpu.free(d)
    assert gpu.allocated_bytes == before - 32 and d.is_freed and view.is_freed
    with pytest.raises(DeviceMemoryError, match="was freed"):
        d.copy_to_host()
    with pytest.raises(DeviceMemoryError, match="was freed"):
        view.copy_to_host()
    with pytest.raises(DeviceMemoryError, match="already freed"):
        gpu.free(d)


def test_free_a_view_is_refused(gpu):
    d = gpu.device_array(8, np.float32)
    with pytest.raises(DeviceMemoryError, match="view into an allocation"):
        gpu.free(d[4:])


def test_context_managed_lifetime(gpu):
    with gpu.to_device(np.zeros(4)) as d:
        assert not d.is_freed
    assert d.is_freed
    with warpsim.Device() as other:
        kept = other.device_array(4)
    assert other.closed
    with pytest.raises(DeviceMemoryError, match="closed"):
        kept.copy_to_host()
    with pytest.raises(DeviceMemoryError, match="closed"):
        other.device_array(4)


def test_no_implicit_conversion_to_numpy(gpu):
    d = gpu.device_array(4, np.float32)
    with pytest.raises(DeviceMemoryError, match="copy_to_host"):
        np.asarray(d)
    with pytest.raises(DeviceMemoryError, match="copy_to_host"):
        np.ones(4, np.float32) + d


def test_out_of_device_memory(gpu):
    with warpsim.Device(memory_bytes=1024) as small:
        small.device_array(200, np.float32)
        with pytest.raises(DeviceMemoryError) as err:
            small.device_array(100, np.float32)
        assert "out of device memory" in str(err.value) and "memory_bytes" in str(err.value)


def test_errors_are_warpsim_errors_and_value_errors():
    assert issubclass(DeviceMemoryError, WarpsimError)
    assert issubclass(DeviceMemoryError, ValueError)
    with pytest.raises(ConfigError, match=r"Device\.max_shared_per_block_bytes"):
        warpsim.Device(max_shared_per_block_bytes=0)
