"""Per-SM configuration (SM kinds), launches on an SM subset and concurrent kernels on disjoint
SM sets (issue 15; Xiang's dissertation §4.5). Oracles: occupancy arithmetic by hand, the
round-robin dispatch order, and the rule that kernels which share nothing (no memory traffic)
take exactly the cycles they take alone."""

from __future__ import annotations

import pytest
from timing_helpers import FakeAlloc, FakeProgram, Inst, make_chunk, rec, small_config

from warpsim.arch import apply_overrides
from warpsim.arch.sm_kinds import sm_kinds
from warpsim.errors import ConfigError, LaunchError
from warpsim.mechanisms.hooks import noop_hooks
from warpsim.timing.concurrent import ConcurrentLaunch, run_concurrent
from warpsim.timing.driver import TimingSimulator, default_memsys

# one ALU chain per warp: every instruction reads the previous one's result
CHAIN = [Inst("add", reads=(0,), writes=(0,)) for _ in range(6)]


def _warps(n_ctas, length=6):
    return [[rec(pc) for pc in range(length)] for _ in range(n_ctas)]


def _sim(cfg):
    # ALU work only: the real memory system (idle), so that the concurrent loop compiled here
    # is the one test_concurrent_device.py uses (one numba compile per memory system)
    return TimingSimulator(cfg, hooks=noop_hooks(), memsys=default_memsys())


def _run(cfg, n_ctas, *, regs=8, sms=None, insts=CHAIN):
    sim = _sim(cfg)
    sim.start(FakeProgram(insts), FakeAlloc(insts), n_ctas=n_ctas, cta_threads=32,
              regs_per_thread=regs, shmem_bytes=0, sms=sms)
    sim.consume(make_chunk(_warps(n_ctas, len(insts)), 1))
    return sim.finish()


def test_kinds_have_their_own_register_file_and_occupancy():
    # 2 SMs; kind 1 has 4096 registers: a 1-warp CTA of 64 registers/thread takes 2048, so 2
    # fit there, 8 (the CTA-slot limit) on kind 0. Round-robin dispatch fills both in the
    # first cycles, so 10 CTAs are split 8 / 2 (5 / 5 on equal SMs).
    cfg = small_config(**{"sm.n_sms": 2, "sm_kinds.n_sms": "1,1",
                          "sm_kinds.n_registers": "32768,4096"})
    res = _run(cfg, 10, regs=64)
    assert res.per_sm["sm_ctas_launched"] == [8, 2]
    assert _run(small_config(**{"sm.n_sms": 2}), 10, regs=64).per_sm["sm_ctas_launched"] == \
        [5, 5]


def test_a_kind_with_fewer_threads_has_fewer_warp_slots():
    cfg = small_config(**{"sm.n_sms": 2, "sm_kinds.n_sms": "1,1",
                          "sm_kinds.n_max_threads": "1536,64"})
    assert _run(cfg, 10).per_sm["sm_ctas_launched"] == [8, 2]  # 2 warp slots on SM 1


def test_a_kernel_that_fits_only_one_kind_runs_there():
    cfg = small_config(**{"sm.n_sms": 2, "sm_kinds.n_sms": "1,1",
                          "sm_kinds.shmem_size_bytes": "49152,1024"})
    sim = _sim(cfg)
    sim.start(FakeProgram(CHAIN), FakeAlloc(CHAIN), n_ctas=3, cta_threads=32,
              regs_per_thread=8, shmem_bytes=4096)
    sim.consume(make_chunk(_warps(3), 1))
    assert sim.finish().per_sm["sm_ctas_launched"] == [3, 0]


def test_a_launch_on_an_sm_subset_uses_only_those_sms():
    cfg = small_config(**{"sm.n_sms": 4})
    res = _run(cfg, 6, sms=[1, 3])
    assert res.per_sm["sm_ctas_launched"] == [0, 3, 0, 3]
    assert res.per_sm["sm_active_cycles"][0] == res.per_sm["sm_active_cycles"][2] == 0
    with pytest.raises(LaunchError, match="SM set"):
        _run(cfg, 2, sms=[4])


def test_kind_configuration_is_checked():
    base = small_config(**{"sm.n_sms": 3})
    with pytest.raises(ConfigError, match=r"sm_kinds\.n_sms"):
        apply_overrides(base, {"sm_kinds.n_sms": "1,1"})          # 2 != 3 SMs
    with pytest.raises(ConfigError, match="one value per kind"):
        apply_overrides(base, {"sm_kinds.n_sms": "2,1", "sm_kinds.n_registers": "8192"})
    with pytest.raises(ConfigError, match="n_max_threads"):
        apply_overrides(base, {"sm_kinds.n_sms": "2,1", "sm_kinds.n_max_threads": "1536,2048"})
    with pytest.raises(ConfigError, match=r"sm_kinds\.n_registers"):
        apply_overrides(base, {"sm_kinds.n_registers": "8192"})   # no kinds declared
    kinds = sm_kinds(apply_overrides(base, {"sm_kinds.n_sms": "2,1",
                                            "sm_kinds.n_registers": "32768,8192"}))
    assert [(k.sms, k.cfg.sm.n_registers) for k in kinds] == [(range(0, 2), 32768),
                                                              (range(2, 3), 8192)]


def test_register_sharing_refuses_sm_kinds():
    from warpsim.mechanisms.registry import mechanism_for

    cfg = small_config(**{"sm.n_sms": 2, "sm_kinds.n_sms": "1,1",
                          "register_sharing.enabled": "true"})
    with pytest.raises(ConfigError, match="register_sharing"):
        TimingSimulator(cfg, mechanism=mechanism_for(cfg))


def _concurrent(cfg, parts, *, restart=False):
    sim = _sim(cfg)
    launches = []
    for n_ctas, length, sms in parts:
        insts = CHAIN[:length]
        launches.append(ConcurrentLaunch(FakeProgram(insts), FakeAlloc(insts), n_ctas, 32, 8,
                                         0, [make_chunk(_warps(n_ctas, length), 1)], sms))
    return run_concurrent(sim, launches, restart=restart)


@pytest.mark.parametrize("skip_idle", [True, False])
def test_kernels_that_share_nothing_take_their_solo_cycles(skip_idle):
    cfg = small_config(**{"sm.n_sms": 4})
    solo_a = _run(cfg, 8, sms=[0, 1], insts=CHAIN[:3])
    solo_b = _run(cfg, 20, sms=[2, 3])
    a, b = _concurrent(cfg, [(8, 3, [0, 1]), (20, 6, [2, 3])])
    assert [len(a.runs), len(b.runs)] == [1, 1]
    assert a.runs[0].cycles == solo_a.cycles
    assert b.runs[0].cycles == solo_b.cycles
    assert a.runs[0].per_sm["sm_ctas_launched"] == [4, 4, 0, 0]
    assert b.runs[0].per_sm["sm_ctas_launched"] == [0, 0, 10, 10]
    assert a.runs[0].stats["gpu_sim_insn"] == solo_a.stats["gpu_sim_insn"] == 8 * 32 * 3
    assert b.window_cycles == max(solo_a.cycles, solo_b.cycles)


def test_restart_runs_the_short_kernel_until_the_long_one_finished_once():
    cfg = small_config(**{"sm.n_sms": 2})
    short = _run(cfg, 1, sms=[0], insts=CHAIN[:2]).cycles
    long = _run(cfg, 16, sms=[1]).cycles
    assert long > 2 * short
    a, b = _concurrent(cfg, [(1, 2, [0]), (16, 6, [1])], restart=True)
    assert len(b.runs) == 1 and b.runs[0].cycles == long
    assert all(r.cycles == short for r in a.runs)       # each run alone on its SM again
    assert len(a.runs) >= long // short                  # back to back within the window
    assert a.window_cycles == b.window_cycles == long
    assert b.window_insn == 16 * 32 * 6
    assert a.window_insn >= (long // short) * 32 * 2


def test_concurrent_sm_sets_must_be_disjoint():
    cfg = small_config(**{"sm.n_sms": 2})
    with pytest.raises(LaunchError, match="disjoint"):
        _concurrent(cfg, [(1, 2, [0, 1]), (1, 2, [1])])
