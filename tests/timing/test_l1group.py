"""The L1 fetch-group seam (timing/l1group.py): a global-load miss fetches the absent lines of
its aligned group in the same lookup, as one request per L2 slice; hand-computed timelines on
the memory system alone and through the engine with a test mechanism (``l1_fetch_group``).

Times on SMALL (GTX480_3X, one channel and slice, every clock at 700 MHz), as in
test_memsys.py: a cold miss completes 298 cycles after its access (35 L1 + 4 request crossbar
+ 120 ROP + 1 + 29 DRAM + 100 + 1 + 8 reply crossbar). DRAM: tRCD 12, tCL 12, a 128 B line is
2 bursts of 2 cycles, one column command every tCCD = 3 cycles.
"""

from __future__ import annotations

import numpy as np
import pytest
from timing_helpers import EXIT, FakeAlloc, FakeProgram, Inst, make_chunk, rec, small_config

from warpsim._jit import jit
from warpsim.arch import GTX480_3X, apply_overrides
from warpsim.mechanisms.base import Mechanism
from warpsim.stats import export, make_counts
from warpsim.timing import memsys
from warpsim.timing.driver import TimingSimulator
from warpsim.timing.memconsts import MEM_LD_GLOBAL, MEM_LD_LOCAL

SMALL = apply_overrides(GTX480_3X, {
    "sm.n_sms": 2, "dram.n_channels": 1, "l2.n_slices_per_channel": 1,
    "clocks.dram_mhz": 700.0,
})
COLD = 298
"""A cold miss on SMALL (test_memsys.cold_miss_cycles)."""
SECOND_LINE = 2 * 3
"""The second line of the same DRAM row, queued in the same cycle: its two column commands
follow the first line's two, one tCCD (3) apart."""


def run(cfg, stream, group=1):
    """Drive the memory system (every cycle, no skipping) with SM 0's fetch group ``group``.
    ``stream``: (cycle, sm, line_addr, kind, token), offered in order from their cycle on.
    Returns ({token: completion cycle}, flat counters, refusals)."""
    ms = memsys.make_mem_state(cfg)
    memsys.mem_set_fetch_group(ms, 0, group)
    counters = make_counts(cfg.n_sms)
    todo = list(stream)
    done, refused = {}, 0
    for c in range(5000):
        if todo and todo[0][0] <= c:
            _, sm, addr, kind, tok = todo[0]
            if memsys.mem_access(ms, sm, addr, 4, kind, tok, c):
                todo.pop(0)
            else:
                refused += 1
        memsys.tick_memsys(ms, counters, c)
        for sm in range(cfg.n_sms):
            while (tok := memsys.mem_pop_completion(ms, sm, c)) >= 0:
                done[tok] = c
        if not todo and memsys.mem_idle(ms):
            break
    memsys.mem_flush_counters(ms, counters)
    return done, export(counters), refused


def test_pair_one_request_both_lines_filled():
    # demand 0x10000 misses; its pair 0x10080 is fetched with it: one 1-flit request, two L2
    # lookups in the same tick, two DRAM reads of the open row, two 5-flit replies. A load of
    # the pair at cycle 1 merges into the pair's MSHR and completes at its fill
    done, f, _ = run(SMALL, [(0, 0, 0x10000, MEM_LD_GLOBAL, 1),
                             (1, 0, 0x10080, MEM_LD_GLOBAL, 2)], group=2)
    assert done == {1: COLD, 2: COLD + SECOND_LINE}
    assert f["icnt_flits_to_mem"] == 1 and f["icnt_flits_to_sm"] == 10
    assert f["L1D_total_cache_accesses"] == 2 and f["L1D_total_cache_misses"] == 1
    assert f["L1D_total_cache_pending_hits"] == 1
    assert f["L2_total_cache_accesses"] == 2 and f["L2_total_cache_misses"] == 2
    assert f["l1d_group_lines"] == 1 and f["l1d_group_requests"] == 1
    assert f["l1d_group_splits"] == 0 and f["l1d_group_lines_dropped"] == 0
    assert f["dram_reads"] == 4


def test_pair_hit_after_the_fill_and_baseline_misses():
    t = COLD + SECOND_LINE + 10
    stream = [(0, 0, 0x10080, MEM_LD_GLOBAL, 1), (t, 0, 0x10000, MEM_LD_GLOBAL, 2)]
    # the demand is the odd line: same pair, the demand looked up (and read from DRAM) first
    done, f, _ = run(SMALL, stream, group=2)
    assert done == {1: COLD, 2: t + 35}
    assert f["L1D_total_cache_misses"] == 1 and f["l1d_group_lines"] == 1
    base, fb, _ = run(SMALL, stream)
    assert base[2] > t + 100 and fb["L1D_total_cache_misses"] == 2
    assert fb["l1d_group_lines"] == 0 and fb["l1d_group_requests"] == 0


def test_group_of_one_or_non_global_is_the_baseline():
    stream = [(0, 0, 0x10000, MEM_LD_GLOBAL, 1), (3, 0, 0x20040, MEM_LD_LOCAL, 2),
              (9, 0, 0x30000, MEM_LD_GLOBAL, 3)]
    assert run(SMALL, stream, group=1) == run(SMALL, stream)
    _, f, _ = run(SMALL, [(3, 0, 0x20000, MEM_LD_LOCAL, 2)], group=4)
    assert f["l1d_group_lines"] == 0 and f["icnt_flits_to_sm"] == 5


def test_present_neighbours_are_not_fetched_again():
    # 0x10080 is filled first (alone, at 298); the later miss of 0x10000 with group 4 fetches
    # only 0x10100 and 0x10180, in the demand's request (one slice): 3 lines, 1 request
    ms = memsys.make_mem_state(SMALL)
    counters = make_counts(SMALL.n_sms)
    assert memsys.mem_access(ms, 0, 0x10080, 4, MEM_LD_GLOBAL, 1, 0)
    for c in range(COLD + 1):
        memsys.tick_memsys(ms, counters, c)
    memsys.mem_set_fetch_group(ms, 0, 4)
    assert memsys.mem_access(ms, 0, 0x10000, 4, MEM_LD_GLOBAL, 2, COLD + 1)
    memsys.mem_flush_counters(ms, counters)
    f = export(counters)
    assert f["l1d_group_lines"] == 2 and f["l1d_group_requests"] == 1


def test_no_mshr_left_drops_the_neighbour_not_the_demand():
    cfg = apply_overrides(SMALL, {"l1d.mshr_entries": 2})
    ms = memsys.make_mem_state(cfg)
    memsys.mem_set_fetch_group(ms, 0, 4)
    assert memsys.mem_access(ms, 0, 0x10000, 4, MEM_LD_GLOBAL, 1, 0) == 1   # + 1 neighbour
    assert memsys.mem_access(ms, 0, 0x20000, 4, MEM_LD_GLOBAL, 2, 1) == 0   # no MSHR
    counters = make_counts(cfg.n_sms)
    memsys.mem_flush_counters(ms, counters)
    f = export(counters)
    assert f["l1d_group_lines"] == 1 and f["l1d_group_lines_dropped"] == 2


def test_lines_on_two_channels_split_into_two_requests():
    # 256 B channel interleave: of the 512 B group at 0x10000, lines 0-1 are on one channel,
    # lines 2-3 on the other: two requests, each of two lines
    cfg = apply_overrides(SMALL, {"dram.n_channels": 2})
    done, f, _ = run(cfg, [(0, 0, 0x10000, MEM_LD_GLOBAL, 1)], group=4)
    assert done == {1: COLD}
    assert f["l1d_group_lines"] == 3 and f["l1d_group_requests"] == 2
    assert f["l1d_group_splits"] == 1
    assert f["icnt_flits_to_mem"] == 2 and f["L2_total_cache_accesses"] == 4
    assert f["icnt_flits_to_sm"] == 20


def test_sectored_l2_answers_every_sector_of_both_lines():
    cfg = apply_overrides(SMALL, {"l2.sector_bytes": 32, "l2.mshr_entries": 16})
    done, f, _ = run(cfg, [(0, 0, 0x10000, MEM_LD_GLOBAL, 1),
                           (1, 0, 0x10080, MEM_LD_GLOBAL, 2)], group=2)
    assert set(done) == {1, 2}
    assert f["L2_total_cache_accesses"] == 8 and f["icnt_flits_to_mem"] == 1
    assert f["l1d_group_requests"] == 1


# -- through the engine: a test mechanism that asks for pairs on every SM ---------------------
@jit
def _pairs(hs, sm, cycle):  # pragma: no cover - jit
    return np.int64(hs[0])


class _Pairs(Mechanism):
    name = "pairs"

    def __init__(self, cfg, lines):
        super().__init__(cfg)
        self.hooks = self.hooks._replace(l1_fetch_group=_pairs)
        self.state = np.array([lines], np.int64)

    def hook_state(self, launch_state, rec_cols, rec_base):
        return self.state


def _engine(group):
    # load 1 (line 0x10000) is offered at cycle 6 and filled at 6 + 298 = 304 in that cycle's
    # memory tick, which runs after the cores: its writeback sees it at 305. Load 2 reads its
    # result and loads the pair line: issued 305, dispatched 308, offered 309 (pipeline as in
    # test_engine_memory.py)
    cfg = small_config(**{"dram.n_channels": 1, "l2.n_slices_per_channel": 1,
                          "clocks.dram_mhz": 700.0})
    insts = [Inst("ld", space="global", reads=(1,), writes=(2,)),
             Inst("ld", space="global", reads=(2,), writes=(3,)), Inst("exit", kind=EXIT)]
    sim = TimingSimulator(cfg, mechanism=_Pairs(cfg, group))
    sim.start(FakeProgram(insts), FakeAlloc(insts, None), n_ctas=1, cta_threads=32,
              regs_per_thread=8, shmem_bytes=0)
    sim.consume(make_chunk([[rec(0, lines=[0x10000]), rec(1, lines=[0x10080]), rec(2)]], 1))
    return sim.finish()


@pytest.mark.slow
def test_engine_pair_arrives_with_the_demand():
    """Slow: its own engine compilation (the test mechanism's hooks with the real memory
    system, about 2 minutes on a busy 2-core machine); the memory system's side of the same
    timeline is in the default tests above."""
    # with pairs the second line was fetched with the first: its L2 lookup in the same tick,
    # its fill at 304 + 6 = 310; load 2, offered at 309, merges into the pending line and is
    # seen at 311; the kernel ends one cycle later (test_engine_memory.py)
    r = _engine(2)
    assert r.cycles == 311 + 1
    s = r.stats
    assert s["l1d_group_lines"] == 1 and s["l1d_group_requests"] == 1
    assert s["icnt_flits_to_mem"] == 1 and s["L2_total_cache_accesses"] == 2
    assert s["L1D_total_cache_misses"] == 1 and s["L1D_total_cache_pending_hits"] == 1
    assert s["mech_mem_lines"] == 0
    base = _engine(1)
    assert base.stats["L1D_total_cache_misses"] == 2 and base.stats["l1d_group_lines"] == 0
    assert base.stats["icnt_flits_to_mem"] == 2 and base.cycles > r.cycles + 100
