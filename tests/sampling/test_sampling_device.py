"""Sampled timed launches on a Device: an exact projection of identical independent CTAs,
kernel-level reuse counted on a loop of identical launches, and sampling off (or not
applicable) giving today's statistics bit for bit. One engine compilation (the baseline)."""

from __future__ import annotations

import numpy as np
import pytest
from sampling_ptx import SCALE_PTX, SPIN_PTX

import warpsim
from warpsim.sampling import ENV_VAR

ONE_CTA_PER_SM = ["sm.n_max_ctas=1"]
"""gtx480 with one CTA slot per SM: a wave is 15 CTAs that start and end together."""


@pytest.fixture(autouse=True)
def _no_env(monkeypatch):
    monkeypatch.delenv(ENV_VAR, raising=False)


def _spin(waves: int, sample, n: int = 10):
    dev = warpsim.Device(config="gtx480", overrides=ONE_CTA_PER_SM, sample=sample)
    k = dev.load_ptx(SPIN_PTX).get_kernel("spin")
    k[15 * waves, 32](np.uint32(n))
    return dev, k.last_launch


def test_identical_independent_ctas_project_exactly():
    c4 = _spin(4, False)[1].stats["gpu_sim_cycle"]
    c8 = _spin(8, False)[1].stats["gpu_sim_cycle"]
    per_wave = (c8 - c4) / 4
    assert per_wave == int(per_wave) > 0  # waves of identical CTAs: a linear timeline
    c12 = c8 + 4 * per_wave  # the hand projection of 12 waves
    dev, launch = _spin(12, "waves=4,max_waves=8,min_waves=9")
    s = launch.stats
    assert s["sampled"] == 1 and s["gpu_sim_cycle"] == c12
    assert _spin(12, False)[1].stats["gpu_sim_cycle"] == c12  # and the full replay agrees
    replayed = c4 + per_wave  # stable at once: 4 waves + one CTA per SM of look-ahead
    assert s["sample_projected_fraction"] == pytest.approx((c12 - replayed) / c12)
    assert s["sample_error_est"] == 0.0  # every wave interval ran at the same rate
    assert s["gpu_sim_insn"] == launch.functional.thread_instructions
    assert s["gpgpu_n_tot_w_icount"] == launch.functional.warp_instructions
    assert s["gpu_ipc"] == s["gpu_sim_insn"] / c12
    total = dev.stats  # the device's sums hold the projected launch, not the replayed part
    assert total["gpu_sim_cycle"] == c12 and total["gpu_sim_insn"] == s["gpu_sim_insn"]
    assert total["sample_launches_projected"] == 1 and total["sampled"] == 1
    assert total["sample_replayed_warp_insts"] == s["gpgpu_n_tot_w_icount"] * 5 // 12


def _spin_loop(sample, n_launches: int = 6):
    dev = warpsim.Device(config="gtx480", sample=sample)
    k = dev.load_ptx(SPIN_PTX).get_kernel("spin")
    cycles = []
    for _ in range(n_launches):
        k[30, 32](np.uint32(10))
        cycles.append(k.last_launch.stats["gpu_sim_cycle"])
    return dev, k, cycles


def test_a_loop_of_identical_launches_is_measured_until_two_agree():
    full = _spin_loop(False)[2]
    dev, k, cycles = _spin_loop(True)
    # launches 1 and 2 are measured and agree, launches 3 to 6 reuse launch 2
    assert [x.mode for x in dev.sampler.launches] == ["replayed"] * 2 + ["reused"] * 4
    assert cycles == full  # identical launches of ALU work: the replay's own cycles
    s = k.last_launch.stats
    assert s["sampled"] == 1 and s["sample_projected_fraction"] == 1.0
    assert s["sample_error_est"] == 0.0
    assert s["gpu_sim_insn"] == k.last_launch.functional.thread_instructions
    k[30, 32](np.uint32(40))  # another profile (4x the loop): measured, not reused
    other = k.last_launch.stats
    assert other["sampled"] == 0 and other["gpu_sim_cycle"] > 3 * cycles[1]
    total = dev.stats
    assert (total["sample_launches_replayed"], total["sample_launches_reused"]) == (3, 4)
    assert total["gpu_sim_cycle"] == sum(cycles) + other["gpu_sim_cycle"]
    assert total["gpu_sim_insn"] == 6 * s["gpu_sim_insn"] + other["gpu_sim_insn"]
    assert total["gpu_tot_sim_cycle"] == total["gpu_sim_cycle"] == other["gpu_tot_sim_cycle"]
    assert total["sample_replayed_warp_insts"] == (2 * s["gpgpu_n_tot_w_icount"]
                                                   + other["gpgpu_n_tot_w_icount"])


def _scale_stats(sample):
    dev = warpsim.Device(config="gtx480", sample=sample)
    k = dev.load_ptx(SCALE_PTX).get_kernel("scale")
    a = dev.to_device(np.arange(40 * 64, dtype=np.uint32))
    launches = []
    for n in (40 * 64, 40 * 64 - 100):
        k[40, 64](a, np.int32(n))
        launches.append(dict(k.last_launch.stats))
    out = np.array(a.copy_to_host())
    return dict(dev.stats), launches, out


def _bits(stats: dict) -> dict:
    """Statistics with NaN ratios (0/0) comparable: equal maps mean bit-identical values."""
    return {k: ("nan" if isinstance(v, float) and v != v else v) for k, v in stats.items()}


def test_sampling_off_or_not_applicable_is_bit_identical():
    base = _scale_stats(None)
    assert _bits(_scale_stats(False)[0]) == _bits(base[0])
    on = _scale_stats(True)  # two short launches of different profiles: both replayed
    extra = {"sampled", "sample_projected_fraction", "sample_error_est",
             "sample_launches_replayed", "sample_launches_projected", "sample_launches_reused",
             "sample_replayed_warp_insts"}
    assert _bits({k: v for k, v in on[0].items() if k not in extra}) == _bits(base[0])
    assert (on[0]["sampled"], on[0]["sample_launches_replayed"]) == (0, 2)
    for got, want in zip(on[1], base[1], strict=True):
        assert _bits({k: v for k, v in got.items() if k not in extra}) == _bits(want)
    assert (on[2] == base[2]).all()
    assert (base[2][:40 * 64 - 100] == np.arange(40 * 64 - 100) * 9).all()
