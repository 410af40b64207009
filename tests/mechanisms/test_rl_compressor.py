"""RegLess's compressor (§4.4): the 5 lane patterns on real register values (the trace's
``RL_PATTERN_BIT``, checked against hand-made lanes) and, in the cycle loop, a compressible
evicted line kept in the compressor cache instead of going to L1 (the micro-kernel of
tests/mechanisms/test_rl_traffic.py, whose R0 = 5 in every lane is a constant)."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "timing"))

from rl_helpers import plan
from test_rl_traffic import INSTS, RECS, SRC
from timing_helpers import FakeAlloc, FakeProgram, make_chunk, small_config
from timing_memstub import stub_memsys

from warpsim.functional.lane_patterns import RL_CONSTANT, RL_PATTERN_SHIFT
from warpsim.functional.trace import RL_PATTERN_BIT, SIG_KEYS, annotate_words, empty_values
from warpsim.mechanisms.regless.mechanism import RegLess
from warpsim.timing.driver import TimingSimulator

LANE = np.arange(32, dtype=np.int64)
HALF = np.arange(32, dtype=np.int64) % 16


def _pattern(vals, exist=0xFFFFFFFF, active=0xFFFFFFFF) -> bool:
    v = np.asarray(vals, dtype=np.int64).astype(np.uint64).astype(np.uint32).reshape(1, 32)
    sig, bdi, uni = empty_values(1, 1)
    annotate_words(v, np.array([exist], np.uint32), np.array([active], np.uint32), SIG_KEYS,
                   sig, bdi, uni, 0)
    return bool(bdi[0, 0] & RL_PATTERN_BIT)


@pytest.mark.parametrize(("vals", "match"), [
    (np.full(32, 7), True),                                   # 1 constant
    (1000 + LANE, True),                                      # 2 stride one
    (1000 + 4 * LANE, True),                                  # 3 stride four
    (np.where(LANE < 16, 5, 900) + HALF, True),               # 4 half-warp stride one
    (np.where(LANE < 16, 5, 900) + 4 * HALF, True),           # 5 half-warp stride four
    (2**32 - 3 + LANE, True),                                 # stride one wrapping mod 2**32
    (2 * LANE, False),                                        # stride two
    (np.where(LANE < 16, 1, 2), False),                       # two constants
    (np.r_[1000 + np.arange(31), 7], False),                  # one lane off
])
def test_the_five_lane_patterns(vals, match):
    assert _pattern(vals) is match


def test_patterns_see_all_stored_lanes_and_leave_the_bdi_bits_alone():
    vals = np.r_[np.full(16, 3), np.arange(16) * 77]
    assert not _pattern(vals, active=0xFFFF)       # inactive lanes still count (spec §4.4)
    sig, bdi, uni = empty_values(1, 1)
    v = np.full((1, 32), 9, np.uint32)
    annotate_words(v, np.array([0xFFFFFFFF], np.uint32), np.array([0xFFFFFFFF], np.uint32),
                   SIG_KEYS, sig, bdi, uni, 0)
    assert int(bdi[0, 0]) == RL_PATTERN_BIT        # <4,0>, <8,0>, similarity 0, pattern


class _Prog(FakeProgram):
    def __init__(self, insts):
        super().__init__(insts)
        self.n_values = np.array([1, 1, 1, 1, 1, 0], np.int64)


def _run(compressor: bool):
    cfg = small_config(**{"regless.enabled": True, "regless.entries_per_sm": 8,
                          "regless.max_regs_per_region": 8,
                          "regless.compressor": compressor})
    mech = RegLess(cfg)
    mech.plans["micro"] = plan(SRC, max_regs=8, bank=1)
    sim = TimingSimulator(cfg, mechanism=mech, memsys=stub_memsys(None, 1000))
    sim.start(_Prog(INSTS), FakeAlloc(INSTS, 9), n_ctas=1, cta_threads=32,
              regs_per_thread=9, shmem_bytes=0)
    # one value per record; the mov's R0 (constant 5) matches a pattern, the others do not
    # (the BDI byte's pattern bit; which pattern in bits 2-4 of ``uniform``)
    chunk = dataclasses.replace(make_chunk([RECS], 1), val_start=np.arange(6, dtype=np.int64),
                                bdi=np.array([RL_PATTERN_BIT, 3, 3, 3, 3], np.uint8),
                                uniform=np.array([1 | RL_CONSTANT << RL_PATTERN_SHIFT, 0, 0, 0,
                                                  0], np.uint8))
    sim.consume(chunk)
    return sim.finish()


def test_a_compressible_eviction_stays_in_the_compressor():
    on, off = _run(True), _run(False)
    s = on.stats
    # B evicts R0 (dirty) into the compressor: its line is not cached, so it is read first
    # (one line load, read-modify-write) and no store is made; C's preload of R0 misses in
    # the OSU and hits in the compressor cache: no load
    assert (s["rl_evictions_dirty"], s["rl_evictions_compressed"]) == (1, 1)
    assert s["rl_evictions_compressed_constant"] == 1 and s["rl_evictions_incompressible"] == 0
    assert sum(s[f"rl_evictions_compressed_{k}"] for k in
               ("stride1", "stride4", "half_stride1", "half_stride4")) == 0
    assert (s["rl_line_stores"], s["rl_line_loads"], s["rl_comp_line_fills"]) == (0, 1, 1)
    assert (s["rl_preload_compressor"], s["rl_preload_mem"], s["rl_preload_osu"]) == (1, 0, 2)
    assert s["rl_compressor_ops"] == 3   # pattern match, bit-vector check, decompression
    # without the compressor: one store, one load, no compressor operation
    t = off.stats
    assert (t["rl_evictions_compressed"], t["rl_line_stores"], t["rl_line_loads"]) == (0, 1, 1)
    assert (t["rl_preload_mem"], t["rl_compressor_ops"], t["rl_comp_line_fills"]) == (1, 0, 0)
