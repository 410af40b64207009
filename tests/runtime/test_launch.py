"""End-to-end launches through the host API: results checked against numpy."""

from __future__ import annotations

import numpy as np
import pytest

import warpsim


def test_vector_add_matches_numpy(gpu, mod):
    n = 1000
    rng = np.random.default_rng(1)
    a = rng.standard_normal(n).astype(np.float32)
    b = rng.standard_normal(n).astype(np.float32)
    d_a, d_b = gpu.to_device(a), gpu.to_device(b)
    d_c = gpu.device_array(n, np.float32)
    vadd = mod.get_kernel("vadd")
    vadd[(n + 255) // 256, 256](d_a, d_b, d_c, np.int32(n))
    np.testing.assert_array_equal(d_c.copy_to_host(), a + b)


def test_load_ptx_needs_no_compiler(gpu, ptx_mod):
    n = 300
    a = np.arange(n, dtype=np.float32)
    d_a = gpu.to_device(a)
    d_c = gpu.device_array_like(a)
    ptx_mod.get_kernel("vadd")[(n + 127) // 128, (128,)](d_a, d_a, d_c, n)
    np.testing.assert_array_equal(d_c.copy_to_host(), 2 * a)


@pytest.mark.parametrize(("alpha", "n_arg"), [
    (np.float32(2.5), np.int32(777)), (2.5, 777), (np.float32(-1.0), np.uint32(777)), (3, 777),
])
def test_saxpy_float_with_scalars_of_several_types(gpu, mod, alpha, n_arg):
    n = 777
    x = np.linspace(-1, 1, n, dtype=np.float32)
    y = np.ones(n, np.float32)
    d_x, d_y = gpu.to_device(x), gpu.to_device(y)
    mod.get_kernel("saxpy_f")[4, 256](n_arg, alpha, d_x, d_y)
    # nvcc contracts a * x + y into fma.rn.f32: one rounding of the exact value
    want = (np.float64(np.float32(alpha)) * x.astype(np.float64) + y).astype(np.float32)
    np.testing.assert_array_equal(d_y.copy_to_host(), want)


def test_saxpy_double_with_64_bit_scalars(gpu, mod):
    n = 513
    x = np.linspace(0, 3, n)
    y = np.full(n, 0.25)
    d_x, d_y = gpu.to_device(x), gpu.to_device(y)
    mod.get_kernel("saxpy_d")[(3, 1, 1), (256, 1)](np.int64(n), np.float64(1.0 / 3), d_x, d_y)
    np.testing.assert_allclose(d_y.copy_to_host(), x / 3 + 0.25, rtol=1e-15)


def test_every_scalar_width_reaches_the_kernel(gpu, mod):
    out = gpu.device_array(7, np.float64)
    mod.get_kernel("scalars")[1, 1](np.uint8(200), np.int16(-300), np.uint32(4_000_000_000),
                                    np.int64(-(2**40)), np.float32(0.5), np.float64(-1e300),
                                    np.bool_(True), out)
    np.testing.assert_array_equal(out.copy_to_host(),
                                  [200, -300, 4e9, -(2.0**40), 0.5, -1e300, 1.0])
    mod.get_kernel("scalars")[1, 1](200, -300, 4_000_000_000, -(2**40), 0.5, -1e300, False, out)
    assert out.copy_to_host()[6] == 0.0


def test_by_value_struct_and_mangled_name(gpu, mod):
    dt = np.dtype([("scale", np.float32), ("offset", np.float64), ("count", np.int32)],
                  align=True)
    p = np.zeros((), dt)
    p["scale"], p["offset"], p["count"] = 2.0, 0.5, 10
    n = 64
    out = gpu.device_array(n, np.float32)
    kernel = mod.get_kernel("with_struct")
    assert kernel.name.startswith("_Z")
    assert mod.get_kernel(kernel.name) is kernel
    kernel[1, 64](p[()], out, np.int32(n))
    np.testing.assert_allclose(out.copy_to_host(), 2.0 * np.arange(n) + 10.5)


def test_constant_memory_set_from_host(gpu, mod):
    coef = mod.get_global("coef", np.float32)
    assert coef.shape == (4,) and coef.nbytes == 16
    coef.copy_to_device(np.array([3.0, 1.0, 2.0, 4.0], np.float32))
    out = gpu.device_array(100, np.float32)
    mod.get_kernel("use_const")[1, 128](out, 100)
    np.testing.assert_array_equal(out.copy_to_host(), 3.0 * np.arange(100) + 9.0)
    # raw-bytes view (nvcc writes coef as .b8[16]) accepts typed host data of the same size
    raw = mod.get_global("coef")
    assert raw.dtype == np.uint8 and raw.nbytes == 16
    raw.copy_to_device(np.zeros(4, np.float32))
    mod.get_kernel("use_const")[1, 128](out, 100)
    assert not out.copy_to_host().any()


def test_device_global_read_back_and_initialiser(gpu, mod):
    table = mod.get_global("table", np.float32)
    np.testing.assert_array_equal(table.copy_to_host(), np.arange(1, 9, dtype=np.float32))
    mod.get_kernel("set_counter")[2, 32](np.int32(39))
    counter = mod.get_global("counter")
    assert counter.dtype == np.uint32
    assert int(counter.copy_to_host()[0]) == 42
    table[2] = 100.0
    mod.get_kernel("set_counter")[1, 1](0)
    assert int(mod.get_global("counter", np.int32)[0]) == 100


def test_dynamic_shared_memory_in_both_spellings(gpu, mod):
    block, blocks = 128, 3
    data = np.arange(block * blocks, dtype=np.float32)
    d = gpu.to_device(data)
    kernel = mod.get_kernel("reverse_blocks")
    kernel[blocks, block, 0, block * 4](d)
    want = data.reshape(blocks, block)[:, ::-1].reshape(-1)
    np.testing.assert_array_equal(d.copy_to_host(), want)
    kernel.configure(blocks, block, shared_mem=block * 4)(d)
    np.testing.assert_array_equal(d.copy_to_host(), data)
    kernel[blocks, block](d, shared_mem=block * 4)
    np.testing.assert_array_equal(d.copy_to_host(), want)


def test_static_shared_memory_is_counted(gpu, mod):
    kernel = mod.get_kernel("static_shared")
    assert kernel.static_shared_bytes == 32768
    out = gpu.device_array(64, np.float32)
    kernel[1, 64](out)
    np.testing.assert_array_equal(out.copy_to_host(), (np.arange(64) + 1) % 64)


def test_texture_1d_fetch(gpu, mod):
    n = 200
    data = np.linspace(0, 1, n, dtype=np.float32)
    d = gpu.to_device(data)
    tex = gpu.texture(d)
    assert isinstance(tex.handle, int) and tex.handle > 0 and tex.width == n
    out = gpu.device_array(n, np.float32)
    mod.get_kernel("tex_fetch")[1, 256](tex, out, n)
    np.testing.assert_array_equal(out.copy_to_host(), 2 * data)
    tex.destroy()


def test_texture_2d_from_host_array(gpu, mod):
    h, w = 5, 7
    img = np.arange(h * w, dtype=np.float32).reshape(h, w)
    tex = gpu.texture_2d(img)
    assert (tex.width, tex.height, tex.dims) == (w, h, 2)
    out = gpu.device_array(h * w, np.float32)
    mod.get_kernel("tex_2d")[(1, 1), (8, 8)](tex, out, w, h)
    np.testing.assert_array_equal(out.copy_to_host().reshape(h, w), img)
    before = gpu.allocated_bytes
    tex.destroy()
    assert gpu.allocated_bytes == before - img.nbytes  # the texture owned its copy


def test_resource_getters_come_from_ptxas(mod):
    vadd = mod.get_kernel("vadd")
    regs = vadd.get_regs_per_thread()
    assert 4 <= regs <= 64
    assert vadd.get_local_mem_per_thread() == 0
    assert vadd.get_shared_mem_per_block() == 0
    assert mod.get_kernel("static_shared").get_shared_mem_per_block() == 32768
    assert mod.get_kernel("bounded").get_max_threads_per_block() == 128
    assert vadd.get_max_threads_per_block() == 1024


def test_last_launch_records_the_executor_result(gpu, mod):
    out = gpu.device_array(64, np.float32)
    kernel = mod.get_kernel("bounded")
    assert kernel[1, 64](out) is None  # numba convention: a launch returns nothing
    assert kernel.last_launch is not None and gpu.last_launch is kernel.last_launch


def test_launch_observers_see_every_successful_launch(gpu, ptx_mod):
    seen = []

    def observe(kernel, config, result):
        seen.append((kernel.name, config.grid, config.block, result.thread_instructions))

    gpu.add_launch_observer(observe)
    d = gpu.device_array(64, np.float32)
    vadd = ptx_mod.get_kernel("vadd")
    vadd[2, 32](d, d, d, 64)
    with pytest.raises(warpsim.LaunchError):
        vadd[2, 32](d, d, d)  # rejected before running: not observed
    gpu.remove_launch_observer(observe)
    vadd[2, 32](d, d, d, 64)
    assert len(seen) == 1
    name, grid, block, n_inst = seen[0]
    assert (name, grid, block) == ("vadd", (2, 1, 1), (32, 1, 1))
    assert n_inst == 64 * len(ptx_mod.ir.kernel("vadd").instructions)  # straight-line, all in


def test_public_reexports():
    assert warpsim.Device is warpsim.runtime.Device
    assert warpsim.DeviceArray is warpsim.runtime.DeviceArray
    assert issubclass(warpsim.LaunchError, warpsim.WarpsimError)


def test_compile_from_a_path_and_module_attribute_access(gpu, tmp_path, cuda_source):
    path = tmp_path / "kernels.cu"
    path.write_text(cuda_source)
    mod = gpu.compile(path)
    assert mod.compiled is not None and mod.compiled.source_file == str(path)
    assert mod.vadd is mod.get_kernel("vadd")  # attribute shortcut
    assert "vadd" in mod.kernel_names and "_Z11with_struct6ParamsPfi" in mod.kernel_names
    with pytest.raises(AttributeError):
        mod.no_such_kernel  # noqa: B018


def test_compile_error_carries_the_compiler_log(gpu):
    with pytest.raises(warpsim.CompileError) as err:
        gpu.compile('extern "C" __global__ void k(int* p) { p[0] = undefined_name; }',
                    name="broken.cu")
    assert "undefined_name" in str(err.value)


def test_default_symbol_view_accepts_data_of_the_same_size(gpu, mod):
    counter = mod.get_global("counter")  # int counter -> PTX .u32 -> uint32 view
    counter.copy_to_device(np.array([-5], np.int32))
    assert counter.copy_to_host().view(np.int32)[0] == -5
    with pytest.raises(warpsim.DeviceMemoryError, match="shape"):
        mod.get_global("counter", np.int32).copy_to_device(np.zeros(2, np.int32))
    with pytest.raises(warpsim.DeviceMemoryError) as err:
        mod.get_global("nope")
    assert "coef" in str(err.value) and "counter" in str(err.value)
