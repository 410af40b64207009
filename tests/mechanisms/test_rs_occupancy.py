"""Register-Sharing occupancy (specs/register-sharing.md §2-§3.3, §7.4-§7.5, §8.2, §8.6, §9.1):
the paper's Table 5 (48 cells), Fig. 8, Fig. 3's worked example, hotspot's wasted registers,
backprop's capping, the Set-2 kernels and agreement with the baseline engine's ``max_cta``."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from warpsim.arch import apply_overrides, get_preset
from warpsim.errors import ConfigError, LaunchError
from warpsim.mechanisms.register_sharing.occupancy import (
    SharingOccupancy,
    as_fraction,
    sharing_occupancy,
)
from warpsim.timing.dispatch import ctas_per_sm, occupancy_limits

C2050 = get_preset("c2050")

# Table 2 (Set-1): block size, registers per thread.
SET1 = {"backprop": (256, 24), "b+tree": (508, 24), "hotspot": (256, 36), "LIB": (192, 36),
        "MUM": (256, 28), "mri-q": (256, 24), "sgemm": (128, 48), "stencil": (512, 28)}

# Table 5, verbatim: resident blocks per SM at 0/10/30/50/70/90 % sharing, i.e.
# t = 1.0/0.9/0.7/0.5/0.3/0.1; (S, U) of spec §8.6 where the cell is in sharing mode.
THRESHOLDS = ("1.0", "0.9", "0.7", "0.5", "0.3", "0.1")
TABLE5 = {
    "backprop": (5, 5, 5, 5, (6, 1, 4), (6, 1, 4)),
    "b+tree": (2, 2, 2, (3, 1, 1), (3, 1, 1), (3, 1, 1)),
    "hotspot": (3, 3, 3, (4, 1, 2), (4, 1, 2), (6, 3, 0)),
    "LIB": (4, 4, (5, 1, 3), (5, 1, 3), (6, 2, 2), (8, 4, 0)),
    "MUM": (4, 4, 4, (5, 1, 3), (5, 1, 3), (6, 2, 2)),
    "mri-q": (5, 5, 5, 5, (6, 1, 4), (6, 1, 4)),
    "sgemm": (5, 5, 5, 5, (6, 1, 4), (8, 3, 2)),
    "stencil": (2, 2, 2, 2, 2, (3, 1, 1)),
}


@pytest.mark.parametrize("app", sorted(TABLE5))
@pytest.mark.parametrize("col", range(6))
def test_table5_all_48_cells(app, col):
    threads, regs = SET1[app]
    occ = sharing_occupancy(C2050, threads, regs, 0, THRESHOLDS[col])
    cell = TABLE5[app][col]
    m, s, u = cell if isinstance(cell, tuple) else (cell, 0, cell)
    assert (occ.blocks, occ.shared_pairs, occ.unshared_blocks) == (m, s, u)
    assert occ.sharing_mode == (s > 0)
    assert occ.baseline_blocks == TABLE5[app][0]
    if occ.sharing_mode:  # Eqs. (1)-(3)
        t = Fraction(THRESHOLDS[col])
        assert occ.shared_pairs + occ.unshared_blocks == occ.g
        assert occ.blocks == occ.unshared_blocks + 2 * occ.shared_pairs
        r_tb = occ.regs_per_block
        assert occ.unshared_blocks * r_tb + occ.shared_pairs * r_tb * (1 + t) <= 32768


def test_fig8_and_baseline_blocks_at_90_percent_sharing():
    fig8 = {"MUM": 6, "backprop": 6, "hotspot": 6, "mri-q": 6, "stencil": 3, "b+tree": 3,
            "LIB": 8, "sgemm": 8}
    base = {"backprop": 5, "b+tree": 2, "hotspot": 3, "LIB": 4, "MUM": 4, "mri-q": 5,
            "sgemm": 5, "stencil": 2}
    for app, (threads, regs) in SET1.items():
        occ = sharing_occupancy(C2050, threads, regs, 0, 0.1)
        assert (occ.baseline_blocks, occ.blocks) == (base[app], fig8[app]), app
        off = sharing_occupancy(C2050, threads, regs, 0)
        assert (off.blocks, off.shared_pairs, off.unshared_blocks) == (base[app], 0, base[app])
        assert not off.sharing_mode
    # Fig. 8's wording: the thread limit for the four 6-block kernels, the TB limit for LIB/sgemm
    assert sharing_occupancy(C2050, 256, 36, 0, 0.1).limit == "threads"
    assert sharing_occupancy(C2050, 128, 48, 0, 0.1).limit == "blocks"
    assert sharing_occupancy(C2050, 192, 36, 0, 0.1).limit == "blocks"
    assert sharing_occupancy(C2050, 512, 28, 0, 0.1).limit == "threads"
    assert sharing_occupancy(C2050, 512, 28, 0).baseline_limit == "registers"


def test_unshared_registers_per_thread_spec_7_4():
    # u = floor(t * r) table of spec §7.4 (r = 24, 28, 36, 48; t = 0.9 ... 0.1)
    expect = {24: (21, 16, 12, 7, 2), 28: (25, 19, 14, 8, 2), 36: (32, 25, 18, 10, 3),
              48: (43, 33, 24, 14, 4)}
    for r, row in expect.items():
        got = tuple(sharing_occupancy(C2050, 128, r, 0, t).unshared_regs_per_thread
                    for t in THRESHOLDS[1:])
        assert got == row, r
    assert sharing_occupancy(C2050, 128, 22, 0).unshared_regs_per_thread == 24  # off: all


def test_fig3_worked_example():
    # 35K registers, 10 warps per TB, 1K registers per warp (32 per thread), t = 0.5:
    # 3 blocks + 5K wasted; sharing launches TB3 paired with TB2 (S=1, U=2, M=4 = Eq. 4).
    cfg = apply_overrides(C2050, ["sm.n_registers=35840"])
    base = sharing_occupancy(cfg, 320, 32, 0)
    assert (base.blocks, base.regs_per_block, base.unused_registers) == (3, 10240, 5120)
    occ = sharing_occupancy(cfg, 320, 32, 0, Fraction(1, 2))
    assert (occ.blocks, occ.shared_pairs, occ.unshared_blocks, occ.g) == (4, 1, 2, 3)
    assert occ.unshared_regs_per_thread == 16  # 0.5K of a warp's 1K registers
    assert occ.sharing_mode and occ.limit in ("threads", "registers")
    # Eq. (4): M = (R - g R_tb (1 - t)) / (t R_tb) = (35 - 15) / 5 = 4
    assert (35840 - 3 * 10240 * Fraction(1, 2)) / (Fraction(1, 2) * 10240) == occ.blocks


def test_hotspot_worked_example():
    occ = sharing_occupancy(C2050, 256, 36, 0)
    assert (occ.regs_per_block, occ.blocks, occ.unused_registers) == (9216, 3, 5120)
    assert occ.baseline_limit == "registers"


def test_fig2_unused_register_fractions():
    unused = {"backprop": 2048, "b+tree": 8192, "hotspot": 5120, "LIB": 5120, "MUM": 4096,
              "mri-q": 2048, "sgemm": 2048, "stencil": 4096}
    for app, (threads, regs) in SET1.items():
        assert sharing_occupancy(C2050, threads, regs, 0).unused_registers == unused[app], app


def test_backprop_is_capped_by_threads():
    # S_max = min(5, floor(2048 / 614.4)) = 3 but M = min(8, 6 threads) = 6 -> S = 1, U = 4
    occ = sharing_occupancy(C2050, 256, 24, 0, 0.1)
    assert (occ.g, occ.blocks, occ.shared_pairs, occ.unshared_blocks) == (5, 6, 1, 4)
    assert occ.limit == "threads"


# Table 3 (Set-2): block, registers, shared memory chosen to make the stated limit bind
# (the paper does not give lavaMD's and STO's shared-memory sizes; spec §7.5).
SET2 = {"backprop-fwd": (256, 12, 0, "threads"), "BFS": (256, 20, 0, "threads"),
        "gaussian": (512, 12, 0, "threads"), "lavaMD": (128, 40, 12288, "shared_memory"),
        "lud": (32, 36, 0, "blocks"), "mri-q-phi": (512, 12, 0, "threads"),
        "NN": (25, 24, 0, "blocks"), "STO": (128, 48, 16384, "shared_memory")}


@pytest.mark.parametrize("app", sorted(SET2))
def test_set2_never_shares(app):
    threads, regs, smem, limit = SET2[app]
    base = sharing_occupancy(C2050, threads, regs, smem)
    assert base.baseline_limit == limit
    for t in (*THRESHOLDS, "1/20"):
        occ = sharing_occupancy(C2050, threads, regs, smem, t)
        assert not occ.sharing_mode and occ.shared_pairs == 0
        assert occ.blocks == occ.unshared_blocks == base.blocks


def test_bfs_tie_keeps_sharing_off():
    occ = sharing_occupancy(C2050, 256, 20, 0, 0.1)
    assert (occ.g, occ.baseline_blocks, occ.blocks) == (6, 6, 6)
    assert not occ.sharing_mode and occ.baseline_limit == "threads"


def test_64k_registers_fig13():
    cfg = apply_overrides(C2050, ["sm.n_registers=65536", "sm.n_max_regs_per_cta=65536"])
    expect = {"backprop": 6, "b+tree": 3, "hotspot": 6, "LIB": 8, "MUM": 6, "mri-q": 6,
              "sgemm": 8, "stencil": 3}
    for app, (threads, regs) in SET1.items():
        assert sharing_occupancy(cfg, threads, regs, 0).blocks == expect[app], app


def test_matches_baseline_engine_and_eq4_on_a_grid():
    for threads in (32, 64, 96, 128, 192, 200, 256, 320, 384, 508, 512, 768, 1024):
        for regs in (0, 1, 8, 13, 16, 20, 24, 28, 32, 36, 40, 48, 63):
            for smem in (0, 4096, 16384, 49152):
                lim = occupancy_limits(C2050, threads, regs, smem)
                if min(lim.values()) < 1:
                    with pytest.raises(LaunchError):
                        sharing_occupancy(C2050, threads, regs, smem)
                    continue
                base = sharing_occupancy(C2050, threads, regs, smem)
                assert base.baseline_blocks == ctas_per_sm(C2050, threads, regs, smem)
                assert base.blocks == base.baseline_blocks
                for t in (Fraction(1, 10), Fraction(3, 10), Fraction(1, 2), Fraction(1)):
                    occ = sharing_occupancy(C2050, threads, regs, smem, t)
                    assert occ.baseline_blocks == base.baseline_blocks
                    assert occ.blocks >= occ.baseline_blocks
                    if t == 1:
                        assert not occ.sharing_mode
                    if not regs:
                        continue
                    g, r_tb = occ.g, occ.regs_per_block
                    eq4 = math.floor((32768 - g * r_tb * (1 - t)) / (t * r_tb))
                    other = min(v for k, v in occ.resource_limits if k != "registers")
                    assert occ.blocks == max(min(eq4, 2 * g, other), base.blocks)
                    if occ.sharing_mode:
                        assert occ.shared_pairs + occ.unshared_blocks == g


def test_threshold_parsing_and_errors():
    assert as_fraction(0.1) == Fraction(1, 10)
    assert as_fraction("3/10") == Fraction(3, 10)
    assert as_fraction(1) == 1
    for bad in (0, -0.1, 1.5, "x", None):
        with pytest.raises(ConfigError):
            as_fraction(bad)
    with pytest.raises(ConfigError):
        sharing_occupancy(C2050, 0, 16, 0)
    with pytest.raises(LaunchError, match="does not fit"):
        sharing_occupancy(C2050, 1024, 63, 0, 0.1)


def test_result_is_frozen_and_serialisable():
    occ = sharing_occupancy(C2050, 256, 36, 0, 0.1)
    assert isinstance(occ, SharingOccupancy)
    with pytest.raises(AttributeError):
        occ.blocks = 1  # type: ignore[misc]
    d = occ.as_dict()
    assert {k: d[k] for k in ("baseline_blocks", "blocks", "shared_pairs", "unshared_blocks",
                              "limit")} == {"baseline_blocks": 3, "blocks": 6,
                                            "shared_pairs": 3, "unshared_blocks": 0,
                                            "limit": "threads"}
