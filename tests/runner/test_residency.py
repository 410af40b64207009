"""Resident warps per SM reported next to each benchmark (warpsim.runner.residency, issue 17)."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "timing"))

from timing_helpers import EXIT, Inst, rec, simulate

from warpsim.arch import GTX480, apply_overrides
from warpsim.runner.residency import (
    ResidencyObserver,
    format_residency_table,
    launch_residency,
    residency,
)

ADD_EXIT = [Inst("add", reads=(1,), writes=(1,), n_imm=1), Inst("exit", kind=EXIT)]


def _observe(cfg, result):
    obs = ResidencyObserver(cfg)
    obs(None, None, SimpleNamespace(timing=result))
    return residency({**result.stats, **obs.columns()})


def test_one_cta_of_64_threads_on_15_sms_is_2_warps_on_1_sm():
    # Hand count: 64 threads = 2 warps, one CTA, so one SM of 15 holds 2 warps and the other
    # 14 never get a CTA. The SM fetches one warp per cycle (GTX480), so warp 1 runs one cycle
    # behind warp 0 and holds its slot alone in the CTA's last active cycle: over the n
    # active cycles the SM held 2n - 1 warp-cycles.
    r = simulate(GTX480, ADD_EXIT, [[rec(0), rec(1)]] * 2, wpc=2, cta_threads=64)
    got = _observe(GTX480, r)
    n = r.stats["sm_active_cycles"]
    assert n == r.per_sm["sm_active_cycles"][0] > 0
    assert got["resident_warps"] == pytest.approx((2 * n - 1) / n)
    assert got["peak_resident_warps"] == 2
    assert got["max_warps_per_sm"] == 48 and got["n_sms"] == 15
    assert got["resident_warps_frac"] == pytest.approx(got["resident_warps"] / 48)
    assert got["sms_with_cta"] == 1 and got["sms_with_cta_frac"] == pytest.approx(1 / 15)
    # the one SM is busy from its CTA's dispatch to its release: at most every cycle of 15
    assert 0.8 / 15 < got["sm_busy_frac"] <= 1 / 15


def test_ctas_that_queue_for_one_slot_keep_one_warp_resident():
    # 48 KiB of shared memory: one CTA slot per SM; 7 one-warp CTAs over 3 SMs go 3/2/2
    # (round robin), and each SM always holds exactly the one warp of its current CTA.
    cfg = apply_overrides(GTX480, {"sm.n_sms": 3})
    r = simulate(cfg, ADD_EXIT, [[rec(0), rec(1)]] * 7, shmem=48 * 1024)
    got = _observe(cfg, r)
    assert got["resident_warps"] == 1.0
    assert got["peak_resident_warps"] == 1 and got["sms_with_cta"] == 3


def test_launch_residency_is_the_first_wave_bound():
    # slots 2, 2 warps per CTA: an SM with 3 CTAs peaks at 2 x 2 = 4 warps; idle SMs count 0
    assert launch_residency([3, 1, 0], [6, 2, 0], 2, 48) == (2, 4)
    assert launch_residency([8], [64], 8, 48) == (1, 48)  # capped by the SM's warps
    assert launch_residency([0, 0], [0, 0], 4, 48) == (0, 0)


def test_residency_of_a_record_by_hand():
    rec_ = {"sm_active_cycles": 300, "sm_active_warp_cycles": 2400, "gpu_sim_cycle": 100,
            "res_n_sms": 5, "res_max_warps_per_sm": 48, "res_sms_with_cta": 4,
            "res_peak_warps": 12}
    got = residency(rec_)
    assert got["resident_warps"] == 8.0            # 2400 / 300
    assert got["resident_warps_frac"] == pytest.approx(8 / 48)
    assert got["sm_busy_frac"] == pytest.approx(300 / 500)
    assert got["sms_with_cta_frac"] == pytest.approx(0.8)
    # without the observer's columns the GPU comes from the record's config column
    cfg = '{"sm": {"n_sms": 15, "n_max_threads": 1536, "n_threads_per_warp": 32}}'
    got = residency({"sm_active_cycles": 10, "sm_active_warp_cycles": 20,
                     "gpu_sim_cycle": 10, "config": cfg})
    assert (got["n_sms"], got["max_warps_per_sm"], got["sms_with_cta"]) == (15, 48, None)
    assert got["sm_busy_frac"] == pytest.approx(10 / 150)
    assert residency({})["resident_warps"] is None


def test_table_shows_each_benchmark_with_its_occupancy():
    text = format_residency_table({"bfs": {"resident_warps": 7.5, "peak_resident_warps": 32,
                                           "max_warps_per_sm": 48, "resident_warps_frac": 0.156,
                                           "sms_with_cta": 5, "n_sms": 15,
                                           "sm_busy_frac": 0.25}})
    row = text.splitlines()[-1].split()
    assert row == ["bfs", "7.5", "32", "48", "16%", "5/15", "25%"]
