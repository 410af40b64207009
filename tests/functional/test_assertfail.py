"""Device-side ``assert`` (``__assertfail``): the failing threads are reported in the
driver's format and the launch stops, as on a GPU; ``NDEBUG`` compiles the asserts out.

Oracle: the CUDA Programming Guide's assertion message format, filled in by hand from the
kernel's source (file, line, signature) and the inputs chosen to fail in known threads.
"""

from __future__ import annotations

import numpy as np
import pytest

import warpsim
from warpsim.functional.assertfail import SHOWN, DeviceAssertError

SRC = """#include <assert.h>
extern "C" __global__ void check(const int* x, int* y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    assert(x[i] > 0);
    y[i] = x[i] * 2;
}
"""


def _run(src: str, x: np.ndarray) -> np.ndarray:
    dev = warpsim.Device()
    mod = dev.compile(src, name="asserts.cu")
    dx, dy = dev.to_device(x), dev.device_array(x.size, np.int32)
    mod.get_kernel("check")[x.size // 32, 32](dx, dy)
    return dy.copy_to_host()


def test_failing_threads_are_reported_as_the_driver_does():
    x = np.ones(64, np.int32)
    x[[37, 45]] = 0  # block 1, threads 5 and 13
    with pytest.raises(DeviceAssertError) as info:
        _run(SRC, x)
    want = [f"asserts.cu:4: void check(const int *, int *): block: [1,0,0], thread: [{t},0,0] "
            "Assertion `x[i] > 0` failed." for t in (5, 13)]
    assert info.value.lines == want
    assert "device-side assert failed in kernel check" in info.value.message
    assert want[0] in info.value.message and "-DNDEBUG" in info.value.message


def test_many_failing_threads_are_counted_after_the_first_few():
    with pytest.raises(DeviceAssertError) as info:
        _run(SRC, np.zeros(32, np.int32))
    assert len(info.value.lines) == 32
    assert f"... and {32 - SHOWN} more thread(s)" in info.value.message


def test_passing_asserts_and_ndebug_change_nothing():
    x = np.arange(1, 65, dtype=np.int32)
    np.testing.assert_array_equal(_run(SRC, x), 2 * x)
    x[3] = -1
    np.testing.assert_array_equal(_run("#define NDEBUG\n" + SRC, x), 2 * x)
