"""Every launch error: message (what, then hint: with the fix), attributes, memory intact."""

from __future__ import annotations

import numpy as np
import pytest

import warpsim
from warpsim.errors import LaunchError, MemoryAccessError


def _launch_error(call) -> LaunchError:
    with pytest.raises(LaunchError) as err:
        call()
    msg = str(err.value)
    assert msg.startswith("cannot launch kernel ")
    assert "\n  hint: " in msg, msg
    return err.value


def test_missing_launch_configuration(gpu, ptx_mod):
    vadd = ptx_mod.get_kernel("vadd")
    err = _launch_error(lambda: vadd(1, 2, 3, 4))
    assert err.kernel == "vadd"
    assert err.problem == "no launch configuration was given"
    assert "vadd[(n + 255) // 256, 256](...)" in str(err)


def test_incomplete_launch_configuration(ptx_mod):
    err = _launch_error(lambda: ptx_mod.get_kernel("vadd")[256])
    assert "needs 2 to 4 entries" in err.problem


def test_wrong_argument_count_lists_parameters_with_types(gpu, ptx_mod):
    d = gpu.device_array(4, np.float32)
    err = _launch_error(lambda: ptx_mod.get_kernel("vadd")[1, 4](d, d, d))
    assert err.problem == "it takes 4 argument(s), 3 given"
    assert ("vadd(param_0: u64 (pointer or 64-bit int), param_1: u64 (pointer or 64-bit int), "
            "param_2: u64 (pointer or 64-bit int), param_3: u32 (32-bit int))") in str(err)


@pytest.mark.parametrize(("last", "fragment"), [
    (np.float32(4), "an integer parameter"),
    (np.int64(4), "the value is int64, the parameter 32-bit"),
    (2**33, "does not fit in 32 bits"),
])
def test_wrong_scalar_type(gpu, ptx_mod, last, fragment):
    d = gpu.device_array(4, np.float32)
    err = _launch_error(lambda: ptx_mod.get_kernel("vadd")[1, 4](d, d, d, last))
    assert fragment in err.problem and err.problem.startswith("argument 3 (param_3: u32")


def test_host_array_instead_of_device_array(gpu, ptx_mod):
    d = gpu.device_array(4, np.float32)
    host = np.zeros(4, np.float32)
    err = _launch_error(lambda: ptx_mod.get_kernel("vadd")[1, 4](host, d, d, 4))
    assert "a host numpy array cannot be passed" in err.problem
    assert "gpu.to_device(a)" in str(err)


def test_device_array_for_a_scalar_parameter(gpu, ptx_mod):
    d = gpu.device_array(4, np.float32)
    err = _launch_error(lambda: ptx_mod.get_kernel("vadd")[1, 4](d, d, d, d))
    assert "a DeviceArray passes a 64-bit pointer" in err.problem


def test_freed_device_array(gpu, ptx_mod):
    d = gpu.device_array(4, np.float32)
    dead = gpu.device_array(4, np.float32)
    gpu.free(dead)
    err = _launch_error(lambda: ptx_mod.get_kernel("vadd")[1, 4](d, dead, d, 4))
    assert "freed DeviceArray" in err.problem


def test_array_of_another_device(gpu, ptx_mod):
    with warpsim.Device() as other:
        foreign = other.device_array(4, np.float32)
        d = gpu.device_array(4, np.float32)
        err = _launch_error(lambda: ptx_mod.get_kernel("vadd")[1, 4](d, foreign, d, 4))
        assert "belongs to another Device" in err.problem


@pytest.mark.parametrize(("block", "fragment"), [
    ((1025,), "block dimension x = 1025 exceeds the limit 1024"),
    ((64, 17), "has 1088 threads, more than the limit of 1024"),
    ((32, 32, 2), "has 2048 threads, more than the limit of 1024"),
    ((1, 1, 65), "block dimension z = 65 exceeds the limit 64"),
    ((2048,), "block dimension x = 2048 exceeds the limit 1024"),
    (0, "block dimension 0 must be at least 1"),
    (256.0, "is not an integer"),
])
def test_block_limits(gpu, ptx_mod, block, fragment):
    d = gpu.device_array(4, np.float32)
    err = _launch_error(lambda: ptx_mod.get_kernel("vadd")[1, block](d, d, d, 4))
    assert fragment in err.problem


@pytest.mark.parametrize(("grid", "fragment"), [
    ((1, 65536), "grid dimension y = 65536 exceeds the limit 65535"),
    ((1, 1, 70000), "grid dimension z = 70000 exceeds the limit 65535"),
    (2**31, "grid dimension x = 2147483648 exceeds the limit 2147483647"),
    (-3, "grid dimension -3 must be at least 1"),
])
def test_grid_limits(gpu, ptx_mod, grid, fragment):
    d = gpu.device_array(4, np.float32)
    err = _launch_error(lambda: ptx_mod.get_kernel("vadd")[grid, 32](d, d, d, 4))
    assert fragment in err.problem


def test_too_much_dynamic_shared_memory(gpu, ptx_mod):
    d = gpu.device_array(4, np.float32)
    err = _launch_error(lambda: ptx_mod.get_kernel("vadd")[1, 32, 0, 48 * 1024 + 4](d, d, d, 4))
    assert err.problem == ("too much shared memory: 0 bytes static + 49156 bytes dynamic = 49156 "
                           "bytes per block, more than the device's 49152")
    assert "Device(max_shared_per_block_bytes=...)" in str(err)


def test_static_plus_dynamic_shared_memory(gpu, mod):
    out = gpu.device_array(64, np.float32)
    kernel = mod.get_kernel("static_shared")
    err = _launch_error(lambda: kernel[1, 64, 0, 20 * 1024](out))
    assert "32768 bytes static + 20480 bytes dynamic = 53248 bytes" in err.problem


def test_shared_memory_limit_is_configurable_per_device(mod):
    with warpsim.Device(max_shared_per_block_bytes=100 * 1024) as big:
        m = big.load_ptx(mod.ptx)
        out = big.device_array(64, np.float32)
        m.get_kernel("static_shared")[1, 64, 0, 20 * 1024](out)
    with warpsim.Device(max_shared_per_block_bytes=16 * 1024) as small:
        m = small.load_ptx(mod.ptx)
        out = small.device_array(64, np.float32)
        err = _launch_error(lambda: m.get_kernel("static_shared")[1, 64](out))
        assert "more than the device's 16384" in err.problem


def test_bad_dynamic_shared_size_and_stream(gpu, ptx_mod):
    vadd = ptx_mod.get_kernel("vadd")
    assert "non-negative integer" in _launch_error(lambda: vadd[1, 32, 0, -1]).problem
    assert "stream" in _launch_error(lambda: vadd[1, 32, object()]).problem


def test_launch_bounds_are_enforced(gpu, mod):
    out = gpu.device_array(256, np.float32)
    err = _launch_error(lambda: mod.get_kernel("bounded")[1, 256](out))
    assert "at most 128 threads per block (.maxntid / __launch_bounds__)" in err.problem


def test_unknown_kernel_lists_the_kernels(ptx_mod):
    with pytest.raises(LaunchError) as err:
        ptx_mod.get_kernel("vad")
    assert "no such kernel" in str(err.value) and "kernels: vadd" in str(err.value)


def test_memory_intact_after_rejected_launches(gpu, ptx_mod):
    n = 64
    a = np.arange(n, dtype=np.float32)
    d_a, d_c = gpu.to_device(a), gpu.to_device(a * 3)
    vadd = ptx_mod.get_kernel("vadd")
    for bad in (lambda: vadd[1, 2048](d_a, d_a, d_c, n),
                lambda: vadd[1, 64](d_a, d_a, d_c, np.float32(n)),
                lambda: vadd[1, 64](d_a, d_a, d_c),
                lambda: vadd[1, 64, 0, 1 << 20](d_a, d_a, d_c, n)):
        with pytest.raises(LaunchError):
            bad()
        np.testing.assert_array_equal(d_a.copy_to_host(), a)
        np.testing.assert_array_equal(d_c.copy_to_host(), a * 3)
    vadd[1, 64](d_a, d_a, d_c, n)  # the device still works
    np.testing.assert_array_equal(d_c.copy_to_host(), 2 * a)


def test_memory_intact_after_a_faulting_launch(gpu, mod):
    n = 32
    keep = np.arange(1000, dtype=np.float32)
    d_keep = gpu.to_device(keep)
    out = gpu.device_array(n, np.float32)
    gpu.memset(out, 0)
    with pytest.raises(MemoryAccessError) as err:
        mod.get_kernel("oob_store")[1, n](out, np.int32(1 << 28))
    assert err.value.kernel == "oob_store"
    np.testing.assert_array_equal(d_keep.copy_to_host(), keep)
    assert not out.copy_to_host().any()


def test_step_limit_stops_a_runaway_launch(mod):
    with warpsim.Device(max_steps=200) as small:
        m = small.load_ptx(mod.ptx)
        d = small.to_device(np.array([3, 0], np.int32))
        m.get_kernel("spin")[1, 32](d, 10)  # a short loop is fine
        assert d.copy_to_host()[1] == 3 * 45
        with pytest.raises(LaunchError) as err:
            m.get_kernel("spin")[1, 32](d, 1_000_000)
        assert err.value.kernel == "spin"
    with pytest.raises(warpsim.ConfigError, match="max_steps"):
        warpsim.Device(max_steps=0)
