"""Host-to-device copies warm the L2 (``l2.fill_on_host_copy``, GPGPU-Sim's
``-gpgpu_perf_sim_memcpy``): timing/l2_warm.py.

Oracle, by hand: ``b[i] = 2 a[i]`` over 1024 floats in 4 CTAs of 256 threads. ``a`` is 4096
bytes = 32 lines of 128 B, each read by one warp (32 L1 misses -> 32 L2 reads); ``b`` is 32
lines written (32 L2 writes, misses that allocate without a fetch). Cold L2: 64 misses and the
32 read lines come from DRAM (4096 bytes); with the copy of ``a`` installed: the 32 reads hit,
no DRAM read, only the 32 writes miss. A sectored L2 gets the 4 sectors of each copied line.
"""

from __future__ import annotations

import numpy as np
import pytest

import warpsim
from warpsim.errors import ConfigError

SRC = r"""extern "C" __global__ void twice(const float* a, float* b) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    b[i] = 2.0f * a[i];
}"""


def _run(*overrides: str) -> dict:
    dev = warpsim.Device(config="gtx480", overrides=list(overrides))
    mod = dev.compile(SRC, name="warm.cu")
    a = dev.to_device(np.arange(1024, dtype=np.float32))
    b = dev.device_array(1024, np.float32)
    mod.get_kernel("twice")[4, 256](a, b)
    np.testing.assert_array_equal(b.copy_to_host(), 2 * np.arange(1024, dtype=np.float32))
    return dev.last_launch.stats


@pytest.mark.parametrize("on", [False, True])
def test_copied_inputs_hit_in_the_l2(on):
    # the oracle counts whole lines: an unsectored L2 (the gtx480 preset's is sectored)
    st = _run(f"l2.fill_on_host_copy={str(on).lower()}", "l2.sector_bytes=128")
    assert st["L2_total_cache_accesses"] == 64
    assert st["L2_total_cache_misses"] == (32 if on else 64)
    assert st.get("dram_read_bytes", 0) == (0 if on else 4096)


def test_a_sectored_l2_gets_the_copied_sectors():
    st = _run("l2.fill_on_host_copy=true", "l2.sector_bytes=32")
    assert st.get("dram_read_bytes", 0) == 0


def test_the_option_is_a_boolean():
    with pytest.raises(ConfigError):
        warpsim.Device(config="gtx480", overrides=["l2.fill_on_host_copy=3"])
