"""WarpMan in the cycle loop, against hand-computed timelines: the dissertation's Fig. 17
micro-kernel (warp 0 of every block runs long, the others exit at once: at block level the
next block waits for warp 0; with WarpMan its warps start as the previous block's warps exit),
the MM worked example of §3.4 (5 full blocks + 1 partial block of 2 warps at launch), and the
1024-thread blocks of §3.2 on the GTX480-like SM (a partial block of 16 warps at launch).

Timeline conventions (tests/timing/test_seams_dispatch.py): a warp placed in cycle t is
fetched from t+1 (one warp per SM per cycle, round robin from slot ``cycle % n_warp_slots``)
and issues from t+2; an ``add`` issued at t writes back at t+7, a ``sin`` at t+42; a warp
issues its ``exit`` the cycle after its last instruction (GTO keeps the last warp) and exits
when that instruction writes back; the dispatcher runs after the SMs ticked, partially
dispatched blocks before new ones.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "timing"))

from timing_helpers import (
    BARRIER,
    EXIT,
    Inst,
    rec,
    simulate,
    small_config,
)

from warpsim.mechanisms.warpman.mechanism import WarpMan
from warpsim.timing.driver import default_memsys

X = Inst("exit", kind=EXIT)
ADD = Inst("add", reads=(1,), writes=(1,), n_imm=1)
SIN = Inst("sin", types=("f32",), mods=("approx",), reads=(2,), writes=(3,))
INSTS = [ADD, X, SIN]                # pc 0: add, 1: exit, 2: sin
SHORT = [rec(0), rec(1)]             # add, exit: exits 9 cycles after it is placed
LONG = [rec(2), rec(1)]              # sin, exit: the spinning warp 0 of Fig. 17


# the micro-kernels make no memory access: they run with the real memory system, so that they
# share test_wm_bench.py's compiled cycle loop (one numba compile per hooks x memory system)

# the hand-computed timelines take sin at 39 cycles, interval 4 (the SFU of the times the
# test was written; the gtx480 preset's SFU is 8/8 since the GPGPU-Sim 4.2 alignment)
SFU39 = {"pipelines.sfu.latency_cycles": 39, "pipelines.sfu.initiation_interval_cycles": 4}


def _cfg(mode, **over):
    return small_config(**{"warpman.enabled": True, "warpman.mode": mode, **SFU39, **over})


def _run(cfg, warps, wpc, *, regs=8, shmem=0, skip_idle=True):
    mech = WarpMan(cfg)
    res = simulate(cfg, INSTS, warps, wpc=wpc, regs=regs, shmem=shmem, skip_idle=skip_idle,
                   mechanism=mech, memsys=default_memsys())
    return res, mech.launches[-1]


def _times(lr):
    return [(int(d), int(e), int(x)) for d, e, x in zip(lr.dispatch, lr.eligible, lr.exit,
                                                        strict=True)]


# two warp slots, blocks of two warps (warp 0 long): one block per SM at block level
TWO = {"sm.n_max_threads": 64, "sm.n_max_threads_per_cta": 64}
FIG17 = [LONG, SHORT] * 3


@pytest.mark.parametrize("skip_idle", [True, False])
def test_fig17_block_level_the_next_block_waits_for_warp_0(skip_idle):
    # block 0 at 0: warp 1's add at 2 (exits 9), warp 0's sin at 4 (exits 46); block 1 is
    # dispatched only when warp 0 exits, at 46 (same parity: exits 55 and 92); block 2 at 92
    # (exits 101 and 138). Mode ``tb`` observes the baseline's allocation: same cycles.
    cfg = _cfg("tb", **TWO)
    r, lr = _run(cfg, FIG17, 2, skip_idle=skip_idle)
    assert _times(lr) == [(0, 0, 46), (0, 0, 9), (46, 46, 92), (46, 46, 55),
                          (92, 92, 138), (92, 92, 101)]
    assert r.cycles == 139
    base = simulate(small_config(**TWO, **SFU39), INSTS, FIG17, wpc=2, skip_idle=skip_idle)
    assert base.cycles == r.cycles
    assert base.stats["gpu_sim_insn"] == r.stats["gpu_sim_insn"]
    # RTRU of each block: (46 - 9) / (2 * 46)
    assert np.allclose(lr.rtru, 37 / 92)
    assert r.stats["wm_rtru_gm"] == pytest.approx(37 / 92)


@pytest.mark.parametrize("mode", ["temp", "temp_spatial"])
@pytest.mark.parametrize("skip_idle", [True, False])
def test_fig17_warpman_starts_the_next_blocks_warps_as_warps_exit(mode, skip_idle):
    # block 0 as above. Warp 1 exits at 9: its registers and entry are free, one warp fits:
    # block 1 is dispatched partially (workload buffer) with its warp 0 on slot 1 at 9 (sin
    # at 11, exits 53). Block 0's warp 0 exits at 46: the buffered warp 1 of block 1 takes
    # the slot at 46 (add at 48, exits 55). At 53 block 2 starts partially with warp 0 (sin
    # at 55, exits 97), at 55 its warp 1 follows (add at 57, exits 64). Done at 97.
    cfg = _cfg(mode, **TWO)
    r, lr = _run(cfg, FIG17, 2, skip_idle=skip_idle)
    assert _times(lr) == [(0, 0, 46), (0, 0, 9), (9, 9, 53), (9, 46, 55),
                          (53, 53, 97), (53, 55, 64)]
    assert r.cycles == 98
    assert r.stats["wm_partial_blocks"] == 2
    assert r.stats["wm_warp_level_placements"] == 2


def test_mm_example_five_full_blocks_and_a_partial_block_of_two_warps():
    # §3.4: 256-thread blocks (8 warps), 24 registers per thread (768 per warp, 6144 per
    # block), 2 kB shared memory; 32768 registers: 5 blocks at block level (30720 registers),
    # the 2048 left hold 2 warps: a 6th block dispatched with warps 0 and 1 eligible. One block
    # per SM per cycle: blocks 0..5 dispatched at cycles 0..5; every warp is long, none exits
    # before the launch is placed.
    cfg = _cfg("temp_spatial")
    warps = [LONG] * (8 * 7)
    r, lr = _run(cfg, warps, 8, regs=24, shmem=2048)
    disp = lr.dispatch.reshape(7, 8)
    elig = lr.eligible.reshape(7, 8)
    for b in range(5):
        assert (disp[b] == b).all() and (elig[b] == b).all()
    assert (disp[5] == 5).all()
    assert list(elig[5, :2]) == [5, 5] and (elig[5, 2:] > 5).all()
    assert disp[6, 0] > 5  # the 7th waits: one partial block per SM
    assert r.stats["wm_max_allocated_regs"] == 30720 + 2 * 768  # 512 still unusable
    # 'temp' never uses the fragment: the 6th block waits for a warp to exit
    r2, lr2 = _run(_cfg("temp"), warps, 8, regs=24, shmem=2048)
    assert lr2.dispatch.reshape(7, 8)[5, 0] > 5
    assert r2.stats["wm_max_allocated_regs"] == 30720


def test_1024_thread_blocks_give_a_partial_block_of_16_warps_at_launch():
    # §3.2 simulator check: GTX480-like SM (48 warp entries), blocks of 32 warps: block 0 at
    # 0, block 1 dispatched at 1 with 16 warps (the 48 - 32 free entries); 'temp' caps at one
    # block's 32 warps: block 1 starts only when a warp of block 0 exits
    warps = [LONG] + [SHORT] * 31
    warps = warps * 3
    r, lr = _run(_cfg("temp_spatial"), warps, 32)
    elig = lr.eligible.reshape(3, 32)
    assert (lr.dispatch.reshape(3, 32)[1] == 1).all()
    assert (elig[1, :16] == 1).all() and (elig[1, 16:] > 1).all()
    r2, lr2 = _run(_cfg("temp"), warps, 32)
    first_exit = int(lr2.exit.reshape(3, 32)[0].min())
    assert int(lr2.dispatch.reshape(3, 32)[1, 0]) == first_exit
    assert r.cycles <= r2.cycles


# -- spec §2.6 counters: the per-SM allocation log, its time average, barrier stalls -----------

BAR = Inst("bar", kind=BARRIER)
INSTS_BAR = [ADD, X, SIN, BAR]       # pc 3: bar.sync (pcs 0-2 as above)
TWO_BLOCKS = [LONG, SHORT] * 2
SHMEM = 1024


def _series(lr):
    return [tuple(int(v) for v in row[1:]) for row in lr.series]  # (cycle, regs, warps,
    # active warps, blocks, shared memory); one SM


@pytest.mark.parametrize("skip_idle", [True, False])
def test_allocation_log_and_register_utilisation_two_blocks(skip_idle):
    # 8 registers x 32 threads = 256 per warp, blocks of 2 warps (512 registers, 1 kB shared).
    # Block level (tb, the Fig. 17 timeline above): block 0 holds 512 registers 0..46, warp 1
    # exits at 9 (active 1); block 1 from 46 (warp 1 exits 55) to 92: the launch ends at 93.
    r, lr = _run(_cfg("tb", **TWO), TWO_BLOCKS, 2, shmem=SHMEM, skip_idle=skip_idle)
    assert r.cycles == 93
    assert _series(lr) == [(0, 512, 2, 2, 1, 1024), (9, 512, 2, 1, 1, 1024),
                           (46, 512, 2, 2, 1, 1024), (55, 512, 2, 1, 1, 1024),
                           (92, 0, 0, 0, 0, 0)]
    assert r.stats["wm_reg_cycles"] == 512 * 92
    assert r.stats["wm_reg_utilization"] == pytest.approx(512 * 92 / (32768 * 93))
    assert r.stats["wm_cta_cycles"] == 92 and r.stats["wm_shmem_byte_cycles"] == 1024 * 92
    assert r.stats["wm_active_warp_cycles"] == 2 * 9 + 37 + 2 * 9 + 37
    # WarpMan (temp): warp 1 exits at 9 and block 1's warp 0 takes its 256 registers (two
    # blocks resident, 2 kB); block 0 is released at 46 as block 1's warp 1 is placed; block
    # 1's warps exit at 53 and 55; the launch ends at 56.
    r, lr = _run(_cfg("temp", **TWO), TWO_BLOCKS, 2, shmem=SHMEM, skip_idle=skip_idle)
    assert r.cycles == 56
    assert _series(lr) == [(0, 512, 2, 2, 1, 1024), (9, 512, 2, 2, 2, 2048),
                           (46, 512, 2, 2, 1, 1024), (53, 256, 1, 1, 1, 1024),
                           (55, 0, 0, 0, 0, 0)]
    assert r.stats["wm_reg_cycles"] == 512 * 53 + 256 * 2
    assert r.stats["wm_reg_utilization"] == pytest.approx((512 * 53 + 256 * 2) / (32768 * 56))
    assert r.stats["wm_shmem_byte_cycles"] == 1024 * 9 + 2048 * 37 + 1024 * 9
    assert r.stats["wm_series_rows"] == 5 and r.stats["wm_series_dropped"] == 0
    assert r.stats["wm_partial_barrier_stall_cycles"] == 0


@pytest.mark.parametrize("skip_idle", [True, False])
def test_barrier_stall_cycles_of_a_partial_blocks_warps(skip_idle):
    # Block 1's warps reach bar.sync first: its warp 0, placed at 9 (workload buffer), issues
    # the barrier at 11 and waits for warp 1, placed only at 46 when block 0's warp 0 exits:
    # 35 warp-cycles (11 .. 45) at a barrier while the block is partial. Block level: none.
    bar = [rec(3), rec(1)]
    warps = [LONG, SHORT, bar, bar]
    r, lr = _run_bar(_cfg("temp", **TWO), warps, skip_idle)
    # warp 1 issues bar at 48 (placed 46) and releases both; GTO keeps warp 1, whose exit
    # issues (and, with nothing in flight, exits) at 49, warp 0's at 50
    assert _times(lr)[2:] == [(9, 9, 50), (9, 46, 49)]
    assert r.stats["wm_partial_barrier_stall_cycles"] == 35
    r, _ = _run_bar(_cfg("tb", **TWO), warps, skip_idle)
    assert r.stats["wm_partial_barrier_stall_cycles"] == 0


def _run_bar(cfg, warps, skip_idle):
    mech = WarpMan(cfg)
    res = simulate(cfg, INSTS_BAR, warps, wpc=2, skip_idle=skip_idle, mechanism=mech,
                   memsys=default_memsys())
    return res, mech.launches[-1]
