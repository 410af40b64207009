"""``Device.concurrent``: two real kernels on disjoint SM sets (kinds of a heterogeneous GPU)
share the memory system; functional results stay exact, each launch's instruction count is
its functional count, and running them side by side takes less than one after the other."""

from __future__ import annotations

import numpy as np
import pytest

import warpsim
from warpsim.errors import LaunchError

_OVER = ["sm.n_sms=4", "sm_kinds.n_sms=2,2", "sm_kinds.n_registers=32768,16384",
         "l2.store_acks=false"]
"""Posted stores: each kernel side by side has half the SMs it has alone, so the window beats
the serial sum by only a few percent (1,524 vs 1,617 cycles); store acknowledgements add a
round trip per CTA wave, and the half-size runs have twice the waves (1,652 vs 1,632)."""


@pytest.fixture(scope="module")
def vadd_ptx(corpus_ptx):
    return corpus_ptx("vector_add")


def _vadd(gpu, ptx, n, scale):
    k = gpu.load_ptx(ptx).get_kernel("vec_add")
    a = np.arange(n, dtype=np.float32) * scale
    d_a, d_c = gpu.to_device(a), gpu.device_array_like(a)
    k[(n + 127) // 128, 128](d_a, d_a, d_c, np.int32(n))
    return d_c, 2 * a


def test_two_kernels_on_two_kinds(vadd_ptx):
    solo = []
    for n in (2048, 4096):
        gpu = warpsim.Device(config="gtx480", overrides=_OVER)
        _vadd(gpu, vadd_ptx, n, 1.0)
        solo.append(gpu.last_launch.stats["gpu_sim_cycle"])
    gpu = warpsim.Device(config="gtx480", overrides=_OVER)
    with gpu.concurrent([0, 1]) as group:
        c1, e1 = _vadd(gpu, vadd_ptx, 2048, 1.0)
        c2, e2 = _vadd(gpu, vadd_ptx, 4096, 3.0)
    assert np.array_equal(c1.copy_to_host(), e1) and np.array_equal(c2.copy_to_host(), e2)
    r1, r2 = group.results
    for r, f in zip(group.results, group.functional, strict=True):
        assert len(r.runs) == 1
        assert r.runs[0].stats["gpgpu_n_tot_w_icount"] == f.warp_instructions
    assert r1.runs[0].per_sm["sm_ctas_launched"] == [8, 8, 0, 0]
    assert r2.runs[0].per_sm["sm_ctas_launched"] == [0, 0, 16, 16]
    window = r1.window_cycles  # until the memory system drained the last stores
    assert max(r1.runs[0].cycles, r2.runs[0].cycles) <= window < sum(solo)
    assert gpu.stats["gpu_sim_cycle"] == window


def test_more_launches_than_sm_sets_is_an_error(vadd_ptx):
    gpu = warpsim.Device(config="gtx480", overrides=_OVER)
    with pytest.raises(LaunchError, match="1 SM set"), gpu.concurrent([0]):
        _vadd(gpu, vadd_ptx, 256, 1.0)
        _vadd(gpu, vadd_ptx, 256, 1.0)
