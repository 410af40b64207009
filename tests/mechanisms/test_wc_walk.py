"""Program-order compression state of Warped-Compression (specs/warped-compression.md §5.3-§5.5,
§10): stored encodings, bank reads and writes, compressor/decompressor activations and the
dummy MOV of a divergent write to a compressed register (1 MOV, then none, then
recompression), counted from hand-made chunks without the timing engine."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "timing"))

from timing_helpers import EXIT, FakeAlloc, FakeProgram, Inst, small_config
from wc_helpers import value_chunk, vrec

from warpsim.arch import apply_overrides
from warpsim.mechanisms.warped_compression import WarpedCompression
from warpsim.mechanisms.warped_compression.counters import (
    COL_COMP,
    COL_DECOMP,
    COL_DST_BANKS,
    COL_FLAGS,
    COL_MOV_REG,
    FL_MOV_SHIFT,
    FL_PARTIAL,
    WALK_STATS,
)
from warpsim.timing.launch_info import LaunchInfo
from warpsim.timing.static import build_static

LANE = np.arange(32)
HALF = 0x0000FFFF


def launch(insts, overrides=(), *, cta_threads=32, regs=8):
    """The mechanism and its launch state for a fake kernel (no engine)."""
    cfg = apply_overrides(small_config(), ["warped_compression.enabled=true", *overrides])
    prog = FakeProgram(insts)
    prog.n_values = np.array([len(i.writes) for i in insts] + [0], np.int32)
    alloc = FakeAlloc(insts)
    tables = build_static(prog, alloc, cfg)
    info = LaunchInfo(cfg=cfg, program=prog, alloc=alloc, tables=tables, kernel="micro",
                      n_ctas=1, cta_threads=cta_threads, warps_per_cta=-(-cta_threads // 32),
                      regs_per_thread=regs, shmem_bytes=0, ctas_per_sm=1,
                      baseline_ctas_per_sm=1)
    mech = WarpedCompression(cfg)
    return mech, mech.start_launch(info)


def stats(ls):
    return dict(zip(WALK_STATS, (int(v) for v in ls["walk"]), strict=True))


def test_divergent_write_to_a_compressed_register_injects_one_mov_then_recompresses():
    insts = [Inst("add", reads=(0,), writes=(1,)),   # full write, <4,0>
             Inst("add", reads=(1,), writes=(1,)),   # divergent: MOV, stored uncompressed
             Inst("add", reads=(1,), writes=(1,)),   # divergent again: no MOV
             Inst("add", reads=(1,), writes=(1,)),   # full write: recompressed <4,1>
             Inst("exit", kind=EXIT)]
    mixed = np.r_[np.full(16, 9), np.full(16, 5)]
    mech, ls = launch(insts)
    chunk = value_chunk([[vrec(0, [np.full(32, 5)]),
                          vrec(1, [mixed], mask=HALF),
                          vrec(2, [mixed], mask=HALF),
                          vrec(3, [0x1000 + LANE]),
                          vrec(4)]])
    cols = mech.record_columns(ls, chunk)
    s = stats(ls)
    assert s["wc_mov_insts"] == 1
    assert cols[:, COL_FLAGS].tolist()[1] >> FL_MOV_SHIFT == 1
    assert cols[:, COL_MOV_REG].tolist() == [-1, 1, -1, -1, -1]
    assert [c & 15 for c in cols[:4, COL_DST_BANKS]] == [1, 8, 8, 3]
    assert cols[:, COL_FLAGS][1] & FL_PARTIAL and not cols[:, COL_FLAGS][3] & FL_PARTIAL
    assert cols[:, COL_COMP].tolist() == [1, 0, 0, 1, 0]
    assert cols[:, COL_DECOMP].tolist() == [0, 1, 0, 0, 0]  # only pc1 reads a compressed r1
    assert (s["wc_warp_insts_nondiv"], s["wc_warp_insts_div"]) == (3, 2)
    assert (s["wc_reg_writes_nondiv"], s["wc_reg_writes_div"]) == (2, 2)
    assert [s[f"wc_enc_nondiv_{i}"] for i in range(4)] == [1, 1, 0, 0]
    assert [s[f"wc_enc_div_{i}"] for i in range(4)] == [0, 0, 0, 2]
    assert [s[f"wc_whatif_enc_div_{i}"] for i in range(4)] == [0, 2, 0, 0]  # 5 vs 9: <4,1>
    # reads: r0 never written (8, invalid), r1 <4,0> (1), MOV (1), r1 uncompressed twice (16)
    assert s["wc_bank_reads"] == 8 + 1 + 1 + 8 + 8
    assert s["wc_reads_of_invalid_regs"] == 1
    assert (s["wc_mov_bank_reads"], s["wc_mov_bank_writes"]) == (1, 8)
    # writes: <4,0> 1, MOV 8, two divergent 8 + 8, <4,1> 3
    assert s["wc_bank_writes"] == 1 + 8 + 8 + 8 + 3
    assert (s["wc_base_bank_reads"], s["wc_base_bank_writes"]) == (32, 32)
    assert (s["wc_comp_activations"], s["wc_decomp_activations"]) == (2, 2)
    # Fig. 12: compressed registers of the warp at each issue (r1 after pc0 and pc3)
    assert (s["wc_compressed_regs_nondiv"], s["wc_compressed_regs_div"]) == (0 + 0 + 1, 1 + 0)
    assert s["wc_allocated_regs_nondiv"] == 3 * 8


def test_predicated_partial_write_is_stored_uncompressed_and_counted_apart():
    insts = [Inst("mov", writes=(2,)), Inst("mov", writes=(2,)), Inst("exit", kind=EXIT)]
    mech, ls = launch(insts)
    chunk = value_chunk([[vrec(0, [np.full(32, 1)]),
                          vrec(1, [np.full(32, 1)], exec_mask=0xFF), vrec(2)]])
    mech.record_columns(ls, chunk)
    s = stats(ls)
    assert s["wc_warp_insts_div"] == 0 and s["wc_partial_pred_writes"] == 1
    assert s["wc_mov_insts"] == 1  # the guarded write still cannot merge into an image
    assert [s[f"wc_enc_nondiv_{i}"] for i in range(4)] == [1, 0, 0, 1]


def test_single_choice_and_full_bdi_schemes_change_the_stored_size():
    insts = [Inst("mov", writes=(1,)), Inst("exit", kind=EXIT)]
    pairs = np.zeros(32, np.int64)
    pairs[0::2] = 5 * np.arange(16)  # <8,1> (23 B, 2 banks) beats <4,1> (35 B, 3 banks)
    got = {}
    for scheme in ("wc", "4_0", "4_1", "4_2", "full_bdi"):
        mech, ls = launch(insts, [f"warped_compression.scheme={scheme}"])
        cols = mech.record_columns(ls, value_chunk([[vrec(0, [pairs]), vrec(1)]]))
        got[scheme] = int(cols[0, COL_DST_BANKS] & 15)
        assert stats(ls)["wc_bdi_full_8_1"] == 1
    assert got == {"wc": 3, "4_0": 8, "4_1": 3, "4_2": 5, "full_bdi": 2}


def test_partial_last_warp_is_not_divergent():
    insts = [Inst("add", reads=(0,), writes=(1,)), Inst("exit", kind=EXIT)]
    mech, ls = launch(insts, cta_threads=40)
    tail = np.r_[np.full(8, 3), 1000 * LANE[8:]]  # lanes 8.. do not exist in warp 1
    chunk = value_chunk([[vrec(0, [np.full(32, 3)]), vrec(1)],
                         [vrec(0, [tail], mask=0xFF), vrec(1, mask=0xFF)]],
                        wpc=2, cta_threads=40)
    mech.record_columns(ls, chunk)
    s = stats(ls)
    assert s["wc_warp_insts_div"] == 0 and s["wc_enc_nondiv_0"] == 2


def test_energy_hookup_charges_the_units_only():
    import pytest

    import warpsim.mechanisms.warped_compression as wc
    from warpsim.arch.warped_compression import WarpedCompressionConfig
    from warpsim.power.model import mechanism_energy

    e = mechanism_energy(wc, WarpedCompressionConfig(), {"wc_comp_activations": 10,
                                                         "wc_decomp_activations": 5,
                                                         "wc_bank_reads": 1000},
                         1e-6, n_sms=2)
    assert e.name == "warped_compression"
    assert e.dynamic_j == pytest.approx((10 * 23.0 + 5 * 21.0) * 1e-12)
    assert e.static_j == pytest.approx((2 * 0.12 + 4 * 0.08) * 1e-3 * 2 * 1e-6)
