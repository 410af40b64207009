"""RegLess's register lines on the L1 port: a dirty eviction, the preload that brings the line
back, the compressor's operations, and the source of the preload (L1 or L2/DRAM, told by the
line's latency), on a hand-worked micro-kernel (one warp, 1 OSU entry per bank).

The compiler cuts ``mov r0; ld r3, [r0]; add r8, r3; add r1, r8; add r2, r0, r1; exit`` into
A = [mov, ld], B = [add r8, add r1] (the load's first use starts it) and C = [add r2, exit]
(tests/mechanisms/test_rl_regions.py has the rules). R0 and R8 share bank 0 of warp 0:
  - A: R0 written, evicted (dirty) at the ld; R3 (a long-latency result) cached when it lands.
  - B: preload R3 (OSU hit). Writing R8 needs bank 0: R0 is its only line, dirty: one 128 B
    store (1 dirty eviction, 1 compressor pattern match). R1 cached dirty at its writeback.
  - C: preload R0 (miss, memory copy: 1 bit-vector check, 1 line load) and R1 (OSU hit).
The stand-in memory hits on the line the store wrote, ``hit`` cycles after acceptance."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "timing"))

from rl_helpers import plan
from timing_helpers import EXIT, FakeAlloc, FakeProgram, Inst, make_chunk, rec, small_config
from timing_memstub import stub_memsys

from warpsim.mechanisms.regless.mechanism import RegLess, l1_hit_threshold
from warpsim.timing.driver import TimingSimulator

SRC = """mov.u32 %r0, 5
ld.global.u32 %r3, [%r0]
add.u32 %r8, %r3, 1
add.u32 %r1, %r8, 1
add.u32 %r2, %r0, %r1
exit"""
INSTS = [Inst("mov", writes=(0,), n_imm=1), Inst("ld", space="global", reads=(0,), writes=(3,)),
         Inst("add", reads=(3,), writes=(8,), n_imm=1),
         Inst("add", reads=(8,), writes=(1,), n_imm=1), Inst("add", reads=(0, 1), writes=(2,)),
         Inst("exit", kind=EXIT)]
RECS = [rec(0), rec(1, lines=(4096,)), rec(2), rec(3), rec(4), rec(5)]


def _run(hit):
    cfg = small_config(**{"regless.enabled": True, "regless.entries_per_sm": 8,
                          "regless.max_regs_per_region": 8})
    mech = RegLess(cfg)
    mech.plans["micro"] = plan(SRC, max_regs=8, bank=1)
    sim = TimingSimulator(cfg, mechanism=mech, memsys=stub_memsys(hit, 1000))
    sim.start(FakeProgram(INSTS), FakeAlloc(INSTS, 9), n_ctas=1, cta_threads=32,
              regs_per_thread=9, shmem_bytes=0)
    sim.consume(make_chunk([RECS], 1))
    return cfg, sim.finish().stats


@pytest.mark.parametrize("hit_late", [False, True])
def test_eviction_reload_and_its_source(hit_late):
    cfg = small_config()
    thr = l1_hit_threshold(cfg)
    assert thr == cfg.l1d.hit_latency_cycles + cfg.l2.hit_latency_cycles // 2
    _, s = _run(thr + 50 if hit_late else None)
    assert s["rl_regions_executed"] == 3 and s["rl_preloads"] == 3
    assert (s["rl_preload_osu"], s["rl_preload_mem"], s["rl_preload_undefined"]) == (2, 1, 0)
    assert (s["rl_evictions_dirty"], s["rl_evictions_clean"]) == (1, 0)
    assert (s["rl_line_stores"], s["rl_line_loads"]) == (1, 1)
    assert s["rl_compressor_ops"] == 2       # the eviction's match + the miss's bit check
    assert s["rl_osu_overcommits"] == 0
    # the line comes back from L1 at the L1 latency; later than the threshold: L2/DRAM
    assert (s["rl_preload_l1"], s["rl_preload_l2"]) == ((0, 1) if hit_late else (1, 0))
    lat = thr + 50 if hit_late else cfg.l1d.hit_latency_cycles
    assert lat <= s["rl_preload_mem_cycles"] <= lat + 1
