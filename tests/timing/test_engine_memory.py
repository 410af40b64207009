"""Memory micro-kernels: shared-memory bank conflicts, coalesced vs scattered global loads, L1 hit
vs miss latency. The fixed-latency stand-in (timing_memstub.py) completes a load 35 cycles
(L1 hit) or 200 cycles (miss) after it accepted its line, one line per cycle. Pipeline timing as
in test_engine_alu.py: a 1-source instruction issued at 2 is dispatched at 5; the LD/ST unit
offers the first line in the next cycle."""

from __future__ import annotations

import pytest
from timing_helpers import EXIT, Inst, rec, simulate, small_config

X = Inst("exit", kind=EXIT)


@pytest.mark.parametrize("degree", [1, 2, 4, 8])
def test_shared_bank_conflicts_occupy_the_ldst_unit_degree_cycles(degree):
    # two independent shared loads: the first dispatched at 5 holds LD/ST `degree` cycles; the
    # second (issued 3, collected 4, read 5) is dispatched at max(6, 5 + degree) and its value
    # is ready shmem latency 26 + degree - 1 cycles later
    insts = [Inst("ld", space="shared", reads=(1,), writes=(2,)),
             Inst("ld", space="shared", reads=(1,), writes=(3,)), X]
    r = simulate(small_config(), insts,
                 [[rec(0, bank=degree), rec(1, bank=degree), rec(2)]])
    assert r.cycles == max(6, 5 + degree) + 26 + degree - 1 + 1
    assert r.stats["gpgpu_n_shmem_bkconflict"] == 2 * (degree - 1)
    assert r.stats["shmem_warp_accesses"] == 2
    assert r.stats["gpgpu_n_shmem_insn"] == 64


@pytest.mark.parametrize("n_lines", [1, 2, 32])
def test_scattered_load_sends_one_line_per_cycle(n_lines):
    # lines offered at 6 .. 6 + n - 1, each missing (200): the last returns at 205 + n
    insts = [Inst("ld", space="global", types=("f32",), reads=(1,), writes=(2,)), X]
    lines = [0x10000 + 4096 * k for k in range(n_lines)]
    r = simulate(small_config(), insts, [[rec(0, lines=lines), rec(1)]])
    assert r.cycles == 206 + n_lines
    assert r.stats["gpgpu_n_load_insn"] == 32
    assert r.stats["mem_loads_completed"] == 1


def test_l1_hit_returns_after_the_hit_latency_and_miss_after_the_miss_latency():
    # load 1 misses: dispatched 5, sent 6, back at 206. Load 2 (address from load 1) issues at
    # 206, is dispatched at 209, sent at 210 and hits: back at 245
    insts = [Inst("ld", space="global", reads=(1,), writes=(2,)),
             Inst("ld", space="global", reads=(2,), writes=(3,)), X]
    r = simulate(small_config(), insts, [[rec(0, lines=[0x1000]), rec(1, lines=[0x1000]),
                                          rec(2)]])
    assert r.cycles == 246
    assert r.stats["mem_load_latency_cycles"] == (206 - 5) + (245 - 209)


def test_stores_need_no_completion():
    insts = [Inst("st", space="global", reads=(1, 2)), X]
    r = simulate(small_config(), insts, [[rec(0, lines=[0x1000, 0x2000]), rec(1)]])
    # issue 2, collector 3, reads 4 and 5, dispatch 6, lines at 7 and 8, retired at 9
    assert r.cycles == 10
    assert r.stats["gpgpu_n_store_insn"] == 32


def test_real_memory_system_hit_is_faster_than_miss():
    from timing_helpers import FakeAlloc, FakeProgram, make_chunk

    from warpsim.mechanisms.hooks import noop_hooks
    from warpsim.timing.driver import TimingSimulator, default_memsys

    memsys = default_memsys()
    insts = [Inst("ld", space="global", reads=(1,), writes=(2,)),
             Inst("ld", space="global", reads=(2,), writes=(3,)), X]
    cfg = small_config()
    sim = TimingSimulator(cfg, hooks=noop_hooks(), memsys=memsys)
    sim.start(FakeProgram(insts), FakeAlloc(insts), n_ctas=1, cta_threads=32,
              regs_per_thread=8, shmem_bytes=0)
    sim.consume(make_chunk([[rec(0, lines=[0x1_0000_1000]), rec(1, lines=[0x1_0000_1000]),
                             rec(2)]], 1))
    r = sim.finish()
    total = r.stats["mem_load_latency_cycles"]
    # the hit (second load) takes the L1 hit latency after its line was offered
    assert r.stats["L1D_total_cache_accesses"] == 2
    assert r.stats["L1D_total_cache_misses"] == 1
    assert total - (1 + cfg.l1d.hit_latency_cycles) > 2 * (1 + cfg.l1d.hit_latency_cycles)
