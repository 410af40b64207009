"""``timing.launch_control``, the sampler's seam into a running launch: the wave size from
the occupancy rules, the progress between deliveries of CTAs, and ending a launch early, which
must time exactly like a launch of those CTAs alone. Micro-kernels of timing_helpers on the
memory stub (the baseline loop every timing test compiles)."""

from __future__ import annotations

import pytest
from timing_helpers import EXIT, FakeAlloc, FakeProgram, Inst, make_chunk, rec, small_config
from timing_memstub import stub_memsys

from warpsim.mechanisms.hooks import noop_hooks
from warpsim.timing.driver import TimingSimulator
from warpsim.timing.launch_control import end_launch_after, launch_progress, resident_ctas

INSTS = [Inst("add", reads=(1,), writes=(1,), n_imm=1), Inst("exit", kind=EXIT)]
WARP = [rec(0), rec(0), rec(0), rec(1)]  # three dependent adds, exit


def _sim(cfg):
    return TimingSimulator(cfg, hooks=noop_hooks(), memsys=stub_memsys(None, 200))


def _start(sim, n_ctas):
    sim.start(FakeProgram(INSTS), FakeAlloc(INSTS), n_ctas=n_ctas, cta_threads=32,
              regs_per_thread=8, shmem_bytes=0)


def test_a_wave_is_every_sms_cta_slots():
    # GTX480: at most 8 CTAs per SM; 48 KiB of shared memory per SM, so 20 KiB CTAs fit twice
    assert resident_ctas(_sim(small_config()), "k", 32, 8, 0) == 8
    assert resident_ctas(_sim(small_config(**{"sm.n_sms": 3})), "k", 32, 8, 0) == 24
    assert resident_ctas(_sim(small_config(**{"sm.n_sms": 3})), "k", 32, 8, 20 << 10) == 6


def test_ending_after_the_delivered_ctas_times_them_as_a_launch_of_their_own():
    cfg = small_config(**{"sm.n_max_ctas": 2})
    alone = _sim(cfg)
    _start(alone, 2)
    alone.consume(make_chunk([WARP, WARP], 1))
    want = alone.finish()

    sim = _sim(cfg)
    _start(sim, 6)
    sim.consume(make_chunk([WARP, WARP], 1))
    cycles, dispatched = launch_progress(sim)
    assert dispatched == 2          # CTA 2 is not delivered yet
    assert 0 <= cycles < want.cycles
    with pytest.raises(ValueError, match="6 CTAs"):
        end_launch_after(sim, 7)
    end_launch_after(sim, 2)
    got = sim.finish()
    assert got.stats["gpgpu_n_tot_w_icount"] == 2 * len(WARP)
    assert got.cycles == want.cycles
    nan = [k for k, v in want.stats.items() if v != v]  # ratios of zero events
    assert {k: v for k, v in got.stats.items() if k not in nan} == {
        k: v for k, v in want.stats.items() if k not in nan}
    assert all(got.stats[k] != got.stats[k] for k in nan)
