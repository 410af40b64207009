"""The timing model behind the host API: ``warpsim.Device(config=...)`` times every launch and
attaches statistics; ``timing=False`` stays functional; statistics accumulate per device."""

from __future__ import annotations

import numpy as np
import pytest

import warpsim


@pytest.fixture(scope="module")
def vadd_ptx(corpus_ptx):
    return corpus_ptx("vector_add")


def _launch(gpu, ptx, n):
    k = gpu.load_ptx(ptx).get_kernel("vec_add")
    a = np.arange(n, dtype=np.float32)
    d_a, d_c = gpu.to_device(a), gpu.device_array_like(a)
    k[(n + 127) // 128, 128](d_a, d_a, d_c, np.int32(n))
    assert np.array_equal(d_c.copy_to_host(), 2 * a)
    return k


def test_timed_launch_has_stats_and_keeps_functional_results(vadd_ptx):
    gpu = warpsim.Device(config="gtx480")
    k = _launch(gpu, vadd_ptx, 1000)
    res = k.last_launch
    assert res is gpu.last_launch
    s = res.stats
    assert s["gpgpu_n_tot_w_icount"] == res.warp_instructions  # functional count, same trace
    assert s["gpu_sim_cycle"] > 0 and s["gpu_ipc"] > 0
    assert s["sm_ctas_launched"] == 8
    assert res.timing.cycles == s["gpu_sim_cycle"]
    assert s["gpgpu_n_load_insn"] == 2 * 1000 and s["gpgpu_n_store_insn"] == 1000
    assert len(res.timing.per_sm["gpu_sim_insn"]) == 15


def test_device_stats_accumulate_over_launches(vadd_ptx):
    gpu = warpsim.Device(config="gtx480", overrides=["sm.n_sms=4"])
    _launch(gpu, vadd_ptx, 256)
    c1, w1 = (gpu.last_launch.stats[k] for k in ("gpu_sim_cycle", "gpgpu_n_tot_w_icount"))
    _launch(gpu, vadd_ptx, 512)
    c2, w2 = (gpu.last_launch.stats[k] for k in ("gpu_sim_cycle", "gpgpu_n_tot_w_icount"))
    assert gpu.last_launch.stats["gpu_tot_sim_cycle"] == c1 + c2
    assert gpu.stats["gpu_tot_sim_cycle"] == c1 + c2
    assert gpu.stats["gpgpu_n_tot_w_icount"] == w1 + w2


def test_a_launch_does_not_inherit_the_previous_launch_time(vadd_ptx):
    # the memory system's clock continues across launches; each launch counts its own cycles
    # (a second identical launch differs only by the memory state: warm L2, open DRAM rows)
    gpu = warpsim.Device(config="gtx480", overrides=["sm.n_sms=2"])
    _launch(gpu, vadd_ptx, 256)
    first = gpu.last_launch.stats["gpu_sim_cycle"]
    _launch(gpu, vadd_ptx, 256)
    assert gpu.last_launch.stats["gpu_sim_cycle"] < 1.5 * first


def test_timing_false_stays_functional(vadd_ptx):
    gpu = warpsim.Device(config="gtx480", timing=False)
    k = _launch(gpu, vadd_ptx, 64)
    assert not hasattr(k.last_launch, "timing")
    assert gpu.stats == {}
