"""Register Sharing's pure parts, without the cycle loop: config validation, the slot layout
and pairing of spec §3.4 (Fig. 3's example), DWE's draws and window updates of spec §4.3
(hand-computed), and the per-cycle accounting over skipped idle cycles."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from warpsim.arch import apply_overrides, get_preset
from warpsim.errors import ConfigError
from warpsim.mechanisms.register_sharing import RegisterSharing
from warpsim.mechanisms.register_sharing import state as rst
from warpsim.mechanisms.register_sharing.cycle import rs_on_cycle_end
from warpsim.mechanisms.register_sharing.dwe import draw_tenth, dwe_window_end, hash32
from warpsim.mechanisms.register_sharing.layout import SharingLayout, sharing_layout
from warpsim.stats import (
    C_SCHED_IDLE_CYCLES,
    C_SCHED_PIPE_STALL_CYCLES,
    C_SCHED_SCOREBOARD_STALL_CYCLES,
    C_SM_ACTIVE_CYCLES,
    make_counts,
)
from warpsim.timing import consts as tc
from warpsim.timing import fields as fl

C2050 = get_preset("c2050")


def _cfg(*over):
    return apply_overrides(C2050, ["register_sharing.enabled=true", *over])


def test_config_rejects_bad_threshold_step_and_metric():
    for bad, field in (("register_sharing.threshold_frac=0", "threshold_frac"),
                       ("register_sharing.threshold_frac=1.5", "threshold_frac"),
                       ("register_sharing.dwe_step_frac=0.15", "dwe_step_frac"),
                       ("register_sharing.dwe_window_cycles=0", "dwe_window_cycles"),
                       ("register_sharing.dwe_stall_metric=idle", "dwe_stall_metric")):
        with pytest.raises(ConfigError, match=field):
            _cfg(bad)


def test_owf_is_refused_with_two_level_scheduling():
    with pytest.raises(ConfigError, match="two_level"):
        RegisterSharing(_cfg("register_sharing.owf=true", "sm.sched_policy=two_level"))
    with pytest.raises(ConfigError, match="owf_greedy"):
        RegisterSharing(_cfg("register_sharing.owf_greedy=true"))


def test_fig3_layout_pairs_the_extra_block_with_the_last_original_one():
    # Fig. 3: 35K registers, 10 warps (320 threads) of 1K registers (32 per thread), t = 0.5:
    # g = 3, S = 1, U = 2, M = 4; the pair is (TB2, TB3), TB0 and TB1 unshared (spec §3.4).
    cfg = _cfg("sm.n_registers=35840", "register_sharing.threshold_frac=0.5")
    lay = sharing_layout(cfg, 320, 32, 0, 3)
    assert (lay.blocks, lay.g, lay.shared_pairs, lay.unshared_blocks) == (4, 3, 1, 2)
    assert lay.partner == (-1, -1, 3, 2) and lay.pair == (-1, -1, 0, 0)
    assert lay.unshared_regs_per_thread == 16 and lay.sharing_mode


def test_layout_pairs_slot_u_plus_k_with_g_plus_k_and_falls_back_without_extra_blocks():
    # hotspot of Table 2 (256 threads, 36 registers) at t = 0.1: g = 3, S = 3, U = 0
    lay = sharing_layout(_cfg(), 256, 36, 0, 3)
    assert lay.partner == (3, 4, 5, 0, 1, 2) and lay.pair == (0, 1, 2, 0, 1, 2)
    # sgemm (128, 48): g = 5, M = 8, S = 3, U = 2: pairs (2,5), (3,6), (4,7)
    lay = sharing_layout(_cfg(), 128, 48, 0, 5)
    assert lay.partner == (-1, -1, 5, 6, 7, 2, 3, 4) and lay.unshared_regs_per_thread == 4
    # Set-2-like: thread-limited (1536/512 = 3 blocks), no extra block: the baseline layout
    lay = sharing_layout(_cfg(), 512, 16, 0, 3)
    assert not lay.sharing_mode and lay.blocks == 3 and lay.partner == (-1, -1, -1)
    # t = 1: nothing to share
    lay = sharing_layout(_cfg("register_sharing.threshold_frac=1.0"), 256, 36, 0, 3)
    assert not lay.sharing_mode and lay.blocks == 3


def test_mechanism_ctas_per_sm_is_m_in_sharing_mode_else_the_baseline():
    mech = RegisterSharing(_cfg())
    assert mech.ctas_per_sm(256, 36, 0, 3) == 6
    assert mech.ctas_per_sm(512, 16, 0, 3) == 3


def test_draws_are_deterministic_uniform_digits():
    a = np.array([draw_tenth(7, 3, i) for i in range(20000)])
    b = np.array([draw_tenth(7, 3, i) for i in range(20000)])
    c = np.array([draw_tenth(8, 3, i) for i in range(20000)])
    assert (a == b).all() and not (a == c).all()
    counts = np.bincount(a, minlength=10)
    assert a.min() == 0 and a.max() == 9
    assert (abs(counts - 2000) < 200).all(), counts  # binomial sd ~ 42
    assert 0 <= hash32(2**40 + 5) < 2**32


def _state(n_sms=5, window=10, step="0.1", metric="pipeline_stall"):
    cfg = _cfg(f"sm.n_sms={n_sms}", "register_sharing.dwe=true",
               f"register_sharing.dwe_window_cycles={window}",
               f"register_sharing.dwe_step_frac={step}",
               f"register_sharing.dwe_stall_metric={metric}")
    lay = SharingLayout(2, 1, 1, 0, 1, 0, True, (1, 0), (0, 0))
    info = np.zeros((3, fl.N_PC_INFO_FIELDS), np.int64)
    info[1, fl.F_PC_MEM] = tc.MK_LD_GLOBAL
    info[2, fl.F_PC_FLAGS] = tc.F_EXIT
    tables = SimpleNamespace(pc_info=info)
    return rst.make_state(cfg, lay, tables, np.array([1, 1, 1], np.int32), 1)


def test_state_tables_classify_shared_and_throttled_instructions():
    hs = _state()
    # u = 0: pc 0 and 1 touch a shared register; pc 2 is an exit (no lock)
    assert hs.pc_tab[:, rst.PC_SHARED].tolist() == [1, 1, 0]
    assert hs.pc_tab[:, rst.PC_DWE].tolist() == [0, 1, 0]
    assert hs.smr[:, rst.M_P].tolist() == [0, 10, 10, 10, 10]
    assert hs.lock[0, 0, 0] == 0  # the original slot owns the pair first


def test_dwe_windows_move_p_by_one_step_against_sm0_hand_computed():
    hs = _state()
    cnt = make_counts(5)
    cnt[:, C_SM_ACTIVE_CYCLES] = [10, 10, 10, 10, 0]
    cnt[:, C_SCHED_PIPE_STALL_CYCLES] = [100, 150, 100, 50, 0]
    dwe_window_end(hs, cnt)
    # SM1 more stalls than SM0: 10 -> 9; SM2 equal: 10; SM3 fewer: 10 (capped); SM4 had no
    # resident block: frozen
    assert hs.smr[:, rst.M_P].tolist() == [0, 9, 10, 10, 10]
    cnt[:, C_SM_ACTIVE_CYCLES] += [10, 10, 10, 10, 10]
    cnt[:, C_SCHED_PIPE_STALL_CYCLES] += [200, 100, 300, 300, 300]
    dwe_window_end(hs, cnt)
    assert hs.smr[:, rst.M_P].tolist() == [0, 10, 9, 9, 9]
    cnt[:, C_SM_ACTIVE_CYCLES] += [0, 10, 10, 10, 10]  # SM0 idle the whole window: freeze
    cnt[:, C_SCHED_PIPE_STALL_CYCLES] += [0, 500, 500, 0, 0]
    dwe_window_end(hs, cnt)
    assert hs.smr[:, rst.M_P].tolist() == [0, 10, 9, 9, 9]
    assert hs.g[rst.G_DWE_WINDOWS] == 3
    assert hs.trace[:3].tolist() == [[0, 9, 10, 10, 10], [0, 10, 9, 9, 9], [0, 10, 9, 9, 9]]


def test_dwe_all_nonissue_metric_and_larger_step():
    hs = _state(n_sms=3, step="0.3", metric="all_nonissue")
    cnt = make_counts(3)
    cnt[:, C_SM_ACTIVE_CYCLES] = 10
    cnt[:, C_SCHED_PIPE_STALL_CYCLES] = [10, 5, 5]
    cnt[:, C_SCHED_SCOREBOARD_STALL_CYCLES] = [0, 6, 0]
    cnt[:, C_SCHED_IDLE_CYCLES] = [0, 0, 4]
    dwe_window_end(hs, cnt)  # 10 vs 11 (more: -3), 10 vs 9 (fewer: capped at 10)
    assert hs.smr[:, rst.M_P].tolist() == [0, 7, 10]


def test_cycle_end_closes_windows_on_time_and_counts_skipped_lock_stalls():
    hs = _state(window=10)
    cnt = make_counts(5)
    assert rs_on_cycle_end(hs, cnt, 100) == 109  # window [100, 110): simulate its last cycle
    hs.sched[1, 0, rst.SC_DENY] = 103  # scheduler 0 of SM 1 only saw a lock denial
    hs.g[rst.G_CYC_DENY] = 2
    assert rs_on_cycle_end(hs, cnt, 103) == 109
    assert hs.g[rst.G_LOCK_STALL] == 1
    # cycles 104..107 were skipped: repeats of cycle 103 (one stall, two denials each)
    assert rs_on_cycle_end(hs, cnt, 108) == 109
    assert hs.g[rst.G_LOCK_STALL] == 1 + 4
    assert hs.g[rst.G_DENY] == 2 * 4
    assert rs_on_cycle_end(hs, cnt, 109) == 110  # window closed, P may have changed
    assert hs.g[rst.G_DWE_WINDOWS] == 1
    assert rs_on_cycle_end(hs, cnt, 110) == 119
    hs.g[rst.G_FORCE] = 111  # a DWE draw this cycle: the next cycle must be simulated
    assert rs_on_cycle_end(hs, cnt, 111) == 112


def test_unroll_affects_banks_renumbers_registers_by_first_use():
    import warpsim
    from warpsim.mechanisms.register_sharing.reorder import sharing_sequence
    from warpsim.ptx.regalloc import allocate_registers

    src = r'''extern "C" __global__ void k(const float* a, float* b, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) b[i] = a[i] * 2.0f + a[n - 1 - i];
    }'''
    kern = warpsim.Device().compile(src).get_kernel("k")
    program = kern.module.image.program("k")
    alloc = allocate_registers(program.fn, schedule=False)
    mech = RegisterSharing(_cfg("register_sharing.unroll_reorder=true",
                                "register_sharing.unroll_affects_banks=true"))
    ren = mech.compile_pass(program, alloc)
    assert ren.original is alloc and ren.n_regs == alloc.n_regs
    assert sorted(ren.perm.tolist()) == list(range(alloc.n_regs))
    seq = sharing_sequence(program, alloc, unroll=True)
    # the register first used gets number 0, the next one 1, ... (32-bit registers only)
    first = [r for r in seq.order if r < alloc.n_regs]
    assert [int(ren.perm[r]) for r in first] == list(range(alloc.n_regs))
    for inst in program.insts:
        assert ren.reads(inst) == tuple(int(ren.perm[r]) for r in alloc.reads(inst))
    plain = RegisterSharing(_cfg("register_sharing.unroll_reorder=true"))
    assert plain.compile_pass(program, alloc) is alloc
