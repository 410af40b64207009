"""WarpMan's pure parts against the dissertation's numbers: unused registers at block-level
occupancy (Table 5, Fig. 20: RS 28.1 %, HS 18.0 %, RAY 25.0 %, MM 6.25 %, NN 6.7 %, CT 512
registers = 1.6 %, GM 29.4 %), the MM worked example of §3.4, the workload buffer's 40 bits,
RTRU by its definition, and the config section."""

from __future__ import annotations

import pytest

from warpsim.arch import GTX480, apply_overrides
from warpsim.arch.schema import field_name_problems
from warpsim.arch.warpman import WarpManConfig
from warpsim.errors import ConfigError
from warpsim.mechanisms.registry import mechanism_for
from warpsim.mechanisms.warpman.occupancy import (
    PAPER_TABLE5,
    block_occupancy,
    unused_register_gm,
)
from warpsim.mechanisms.warpman.rtru import rtru_app, rtru_blocks, rtru_of_times
from warpsim.timing.dispatch import occupancy_limits


def _occ(name):
    shmem, warps, regs = PAPER_TABLE5[name]
    return block_occupancy(regs_per_block=regs, warps_per_block=warps, shmem_per_block=shmem)


def test_mm_example_is_five_full_blocks_and_a_partial_block_of_two_warps():
    # 6144 regs/TB, 8 warps: 32768 // 6144 = 5 blocks (30720); 2048 left // 768 = 2 warps
    o = _occ("MM")
    assert (o.blocks, o.regs_per_warp, o.unused_regs) == (5, 768, 2048)
    assert (o.spatial_full_blocks, o.spatial_partial_warps) == (5, 2)
    assert o.limiter == "regs"


@pytest.mark.parametrize("name,blocks,unused", [
    ("RS", 2, 9216),        # 32768 - 2 x 11776: 28.1 %
    ("HS", 3, 5888),        # 32768 - 3 x 8960: 17.97 % (the text's "SN 18.0 %", spec [FIX])
    ("RAY", 2, 8192),       # 25.0 %
    ("MM", 5, 2048),        # 6.25 %
    ("NN", 5, 2198),        # 32768 - 5 x 6114: 6.7 %
    ("CT", 7, 512),         # 1.6 %
    ("ST", 1, 15360),       # 46.9 %
    ("SR", 3, 25088),       # 76.6 % (thread-limited)
])
def test_unused_registers_at_block_level_occupancy(name, blocks, unused):
    o = _occ(name)
    assert (o.blocks, o.unused_regs) == (blocks, unused)
    assert o.unused_frac == pytest.approx(unused / 32768)


def test_unused_register_geometric_mean_is_the_papers_29_4_percent():
    # 1 - GM(allocated / total) over the 11 benchmarks of Table 5 (spec §2.2 [D]: 29.44 %)
    assert unused_register_gm(PAPER_TABLE5) == pytest.approx(0.2944, abs=5e-5)
    reg_limited = {k: PAPER_TABLE5[k] for k in ("RS", "HS", "RAY", "MM", "NN", "CT")}
    assert unused_register_gm(reg_limited) == pytest.approx(0.149, abs=1e-3)  # text: 13.6 %


def test_block_occupancy_agrees_with_the_engines_occupancy_calculator():
    cfg = GTX480
    for shmem, warps, regs in PAPER_TABLE5.values():
        if regs % (warps * 32):
            continue  # the engine counts whole registers per thread
        lim = occupancy_limits(cfg, warps * 32, regs // (warps * 32), shmem)
        assert min(lim.values()) == block_occupancy(
            regs_per_block=regs, warps_per_block=warps, shmem_per_block=shmem).blocks


def test_workload_buffer_is_40_bits():
    # Fig. 31: P_TBid 3 (8 TB slots) + L_TBid 26 (1024 x 1024 x 64 blocks) + start_wid 5 +
    # end_wid 5 (32 warps) + valid 1
    assert (8 - 1).bit_length() + (1024 * 1024 * 64 - 1).bit_length() + 2 * (32 - 1).bit_length() \
        + 1 == 40


def test_rtru_by_definition():
    # RAY TB0 style: warps of 10, 10, 20, 40 cycles: (30 + 30 + 20 + 0) / (4 x 40) = 0.5
    assert rtru_of_times([10, 10, 20, 40]) == pytest.approx(0.5)
    assert rtru_of_times([7, 7]) == 0.0
    per = rtru_blocks([0, 0, 5, 5], [40, 10, 25, 25], 2)
    assert list(per) == pytest.approx([30 / 80, 0.0])
    app = rtru_app(per)
    assert app["mean"] == pytest.approx(0.1875)
    assert app["gm"] == pytest.approx((1.375 ** 0.5) - 1)


def test_config_section():
    assert field_name_problems(WarpManConfig) == []
    with pytest.raises(ConfigError):
        WarpManConfig(mode="spatial")
    with pytest.raises(ConfigError):
        WarpManConfig(n_leader_spatial_sm=2, n_leader_temp_sm=2)
    assert mechanism_for(GTX480) is None
    cfg = apply_overrides(GTX480, {"warpman.enabled": True, "warpman.mode": "dueling",
                                   "sm.n_sms": 1})
    with pytest.raises(ConfigError, match="n_leader_temp_sm"):
        mechanism_for(cfg)


def _state(mode, **over):
    from warpsim.mechanisms.warpman.state import make_state

    cfg = apply_overrides(GTX480, {"warpman.mode": mode, **over})
    # 256-thread blocks, 24 regs/thread (768 per warp), 5 blocks at block level (MM)
    return make_state(cfg, n_ctas=100, warps_per_cta=8, regs_per_thread=24, baseline_ctas=5,
                      slots=8)


def test_caps_of_each_mode():
    from warpsim.mechanisms.warpman.hooks import room
    from warpsim.mechanisms.warpman.state import S_REGS, S_WARPS

    # 34 live warps, 34 x 768 registers: temp caps 40 warps / 30720 regs -> 6 more;
    # temp+spatial: 48 warps / 32768 regs -> min(14, (32768 - 26112) // 768 = 8) = 8;
    # threshold 36: spatial only up to 36 live -> max(temp 6, 2) = 6
    for mode, want in (("temp", 6), ("temp_spatial", 8), ("threshold", 6)):
        hs = _state(mode)
        hs.sm[0, S_WARPS], hs.sm[0, S_REGS] = 34, 34 * 768
        assert room(hs, 0) == want, mode
    # 40 live (the temp cap): temp 0; threshold: spatial blocked (40 >= 36); spatial 2
    for mode, want in (("temp", 0), ("threshold", 0), ("temp_spatial", 2)):
        hs = _state(mode)
        hs.sm[0, S_WARPS], hs.sm[0, S_REGS] = 40, 40 * 768
        assert room(hs, 0) == want, mode


def test_dueling_followers_take_the_epochs_winner():
    from warpsim.mechanisms.warpman.hooks import room, wm_on_cycle_end
    from warpsim.mechanisms.warpman.state import P_EPOCHS, P_SPATIAL_ON, S_REGS, S_WARPS
    from warpsim.stats import C_GPU_SIM_INSN, make_counts

    hs = _state("dueling", **{"warpman.dueling_epoch_cycles": 100})
    for sm in range(3):
        hs.sm[sm, S_WARPS], hs.sm[sm, S_REGS] = 40, 40 * 768
    counts = make_counts(15)
    assert wm_on_cycle_end(hs, counts, 99) == 100          # no decision before the boundary
    counts[0, C_GPU_SIM_INSN], counts[1, C_GPU_SIM_INSN] = 500, 900   # temp leader wins
    assert wm_on_cycle_end(hs, counts, 100) == 200
    assert hs.prm[P_SPATIAL_ON] == 0 and hs.prm[P_EPOCHS] == 1
    assert (room(hs, 0), room(hs, 1), room(hs, 2)) == (2, 0, 0)   # leaders keep their modes
    counts[0, C_GPU_SIM_INSN], counts[1, C_GPU_SIM_INSN] = 1500, 1000  # +1000 vs +100
    wm_on_cycle_end(hs, counts, 200)
    assert hs.prm[P_SPATIAL_ON] == 1 and room(hs, 2) == 2


def test_threshold_blocked_allocations_are_flagged_per_warp():
    from warpsim.mechanisms.warpman.hooks import wm_cta_fit, wm_warps_to_place
    from warpsim.mechanisms.warpman.state import S_REGS, S_WARPS, W_TBLOCKED

    # 34 live warps (MM, 768 registers each): the threshold (36) leaves room for 6 warps
    # ('temp' caps), temp+spatial's caps for 8: block 3 started with 6 warps, its warps 6
    # and 7 (global 30, 31) were refused by the threshold
    for mode, flagged in (("threshold", [30, 31]), ("temp_spatial", [])):
        hs = _state(mode)
        hs.sm[0, S_WARPS], hs.sm[0, S_REGS] = 34, 34 * 768
        k = wm_warps_to_place(hs, 0, 3, 0, 0, 8, 14, 0)
        assert k == (6 if mode == "threshold" else 8)
        assert list(hs.wt[:, W_TBLOCKED].nonzero()[0]) == flagged
    # 40 live: the threshold refuses block 5 outright; temp+spatial would start it with 2
    # warps (32768 - 40 x 768 = 2048 registers): its warps 0 and 1 (global 40, 41)
    hs = _state("threshold")
    hs.sm[0, S_WARPS], hs.sm[0, S_REGS] = 40, 40 * 768
    assert not wm_cta_fit(hs, 0, 5, True)
    assert list(hs.wt[:, W_TBLOCKED].nonzero()[0]) == [40, 41]
