"""CTA dispatch: occupancy limits (GPGPU-Sim max_cta) and CTAs placed as resources free up."""

from __future__ import annotations

import pytest
from timing_helpers import EXIT, Inst, rec, simulate, small_config

from warpsim.arch import GTX480
from warpsim.errors import LaunchError
from warpsim.timing.dispatch import ctas_per_sm, occupancy_limits

X = Inst("exit", kind=EXIT)


def test_twenty_registers_and_256_threads_fit_six_ctas():
    # registers: 20 -> 20 (multiple of 4) x 256 = 5120 per CTA; 32768 // 5120 = 6
    # threads: 1536 // 256 = 6; CTA slots 8
    lim = occupancy_limits(GTX480, 256, 20, 0)
    assert lim["registers"] == 6 and lim["threads"] == 6 and lim["ctas"] == 8
    assert ctas_per_sm(GTX480, 256, 20, 0) == 6


def test_registers_round_up_to_the_allocation_granule():
    # 21 -> 24 registers x 256 threads = 6144; 32768 // 6144 = 5
    assert ctas_per_sm(GTX480, 256, 21, 0) == 5


def test_shared_memory_and_partial_warps_limit_ctas():
    assert ctas_per_sm(GTX480, 128, 8, 16 * 1024) == 3       # 48 KiB // 16 KiB
    assert occupancy_limits(GTX480, 100, 8, 0)["threads"] == 1536 // 128  # 100 -> 4 warps
    assert ctas_per_sm(GTX480, 64, 8, 0) == 8                # CTA slots


def test_a_cta_that_cannot_fit_is_a_launch_error():
    with pytest.raises(LaunchError, match="does not fit"):
        ctas_per_sm(GTX480, 1024, 63, 0)                     # 64 x 1024 registers > 32768


def test_ctas_run_one_after_another_when_only_one_fits():
    # 48 KiB of shared memory each: CTA k+1 is dispatched in the cycle CTA k finishes.
    # One CTA (add + exit) takes dispatch 0 .. writeback 9, so 3 CTAs end at 27.
    insts = [Inst("add", reads=(1,), writes=(1,), n_imm=1), X]
    r = simulate(small_config(), insts, [[rec(0), rec(1)]] * 3, shmem=48 * 1024)
    assert r.cycles == 1 + 3 * 9
    assert r.occupancy["ctas_per_sm"] == 1


def test_ctas_are_dispatched_round_robin_over_sms():
    cfg = small_config(**{"sm.n_sms": 3})
    insts = [Inst("add", reads=(1,), writes=(1,), n_imm=1), X]
    r = simulate(cfg, insts, [[rec(0), rec(1)]] * 7)
    assert r.per_sm["sm_ctas_launched"] == [3, 2, 2]
    # one CTA per SM per cycle: all 7 are resident by cycle 2, each done 9 cycles later
    assert r.cycles <= 2 + 9 + 1 + 6
