"""The memory system's interface: hand-computed latencies, MSHR merging and exhaustion, write
policies, determinism, JIT vs plain Python, idle skipping (docs/memory-model.md)."""

from __future__ import annotations

import numpy as np
import pytest

from warpsim.arch import GTX480_3X, apply_overrides
from warpsim.stats import export, make_counts
from warpsim.timing import memsys
from warpsim.timing.icnt import reply_flits
from warpsim.timing.memconsts import (
    FAULT_BAD_KIND,
    INT64_MAX,
    MEM_ATOMIC,
    MEM_CTRL_BYTES,
    MEM_LD_CONST,
    MEM_LD_GLOBAL,
    MEM_LD_LOCAL,
    MEM_LD_TEX,
    MEM_ST_GLOBAL,
    MEM_ST_LOCAL,
)
from warpsim.timing.memstate import pack_info

SMALL = apply_overrides(GTX480_3X, {
    "sm.n_sms": 2, "dram.n_channels": 1, "l2.n_slices_per_channel": 1,
    "clocks.dram_mhz": 700.0,
})
"""GTX480_3X with one channel, one slice, two SMs and every clock at 700 MHz (hand-computable)."""


def _fns(py: bool):
    names = ("mem_access", "tick_memsys", "mem_pop_completion", "mem_next_event", "mem_idle",
             "mem_flush_counters")
    return [getattr(getattr(memsys, n), "py_func", getattr(memsys, n)) if py
            else getattr(memsys, n) for n in names]


def run(cfg, stream, *, skip: bool = True, py: bool = False, max_cycles: int = 200_000):
    """Drive the memory system like the core does. ``stream``: (cycle, sm, line_addr,
    n_sectors, kind, token); each SM offers its accesses in order from their cycle on, retrying
    every cycle while refused. Returns (completions [(cycle, sm, token)], counters, refusals,
    last cycle)."""
    access, tick, pop, next_event, idle, flush = _fns(py)
    ms = memsys.make_mem_state(cfg)
    counters = make_counts(cfg.n_sms)
    queues = [[a for a in stream if a[1] == sm] for sm in range(cfg.n_sms)]
    heads = [0] * cfg.n_sms
    done, refused, c = [], 0, 0
    while c < max_cycles:
        for sm in range(cfg.n_sms):
            if heads[sm] < len(queues[sm]) and queues[sm][heads[sm]][0] <= c:
                _, _, addr, nsec, kind, tok = queues[sm][heads[sm]]
                if access(ms, sm, addr, nsec, kind, tok, c):
                    heads[sm] += 1
                else:
                    refused += 1
        tick(ms, counters, c)
        for sm in range(cfg.n_sms):
            while (tok := pop(ms, sm, c)) >= 0:
                done.append((c, sm, tok))
        waiting = [queues[sm][heads[sm]][0] for sm in range(cfg.n_sms)
                   if heads[sm] < len(queues[sm])]
        if not waiting and idle(ms):
            break
        if not skip:
            c += 1
            continue
        nxt = next_event(ms, c + 1)
        if waiting:
            nxt = min(nxt, max(min(waiting), c + 1))
        assert nxt > c
        c = nxt
    flush(ms, counters)
    return done, counters, refused, c


def cold_miss_cycles(cfg) -> int:
    """Hand-computed latency of one load that misses in L1 and L2 into a closed DRAM bank,
    all clocks equal (docs/memory-model.md, "Latency of a cold miss")."""
    d = cfg.dram
    burst = d.n_burst_beats // d.n_transfers_per_clock
    atom = d.n_chips_per_channel * d.bus_width_bytes * d.n_burst_beats
    n_bursts = cfg.l2.line_bytes // atom
    step = max(burst, d.t_ccdl_cycles if d.n_bank_groups > 1 else d.t_ccd_cycles)
    dram = d.t_rcd_cycles + d.t_cl_cycles + (n_bursts - 1) * step + burst
    req_flits = -(-MEM_CTRL_BYTES // cfg.icnt.flit_bytes)
    rep_flits = -(-(MEM_CTRL_BYTES + cfg.l1d.line_bytes) // cfg.icnt.flit_bytes)
    return (cfg.l1d.hit_latency_cycles                       # L1 tag pipeline
            + cfg.icnt.latency_cycles + req_flits - 1        # request crossbar
            + cfg.l2.hit_latency_cycles                      # ROP delay
            + 1                                              # L2 miss -> DRAM queue
            + dram + d.latency_cycles                        # DRAM
            + 1                                              # L2 fill -> reply queue
            + cfg.icnt.latency_cycles + rep_flits - 1)       # reply crossbar


def test_cold_miss_latency_is_the_hand_computed_sum():
    done, cnt, _, _ = run(SMALL, [(0, 0, 0x10000, 4, MEM_LD_GLOBAL, 7)])
    assert cold_miss_cycles(SMALL) == 35 + 4 + 120 + 1 + (12 + 12 + 3 + 2) + 100 + 1 + 4 + 4
    assert done == [(cold_miss_cycles(SMALL), 0, 7)]
    flat = export(cnt)
    assert flat["L1D_total_cache_misses"] == 1 and flat["L2_total_cache_misses"] == 1
    assert flat["dram_reads"] == 2 and flat["dram_activates"] == 1
    assert flat["dram_read_bytes"] == 128
    assert flat["icnt_flits_to_mem"] == 1 and flat["icnt_flits_to_sm"] == 5


def test_l1_hit_completes_after_exactly_the_hit_latency():
    t0 = cold_miss_cycles(SMALL) + 10
    done, cnt, _, _ = run(SMALL, [(0, 0, 0x10000, 4, MEM_LD_GLOBAL, 1),
                                  (t0, 0, 0x10000, 2, MEM_LD_GLOBAL, 2)])
    assert done[1] == (t0 + SMALL.l1d.hit_latency_cycles, 0, 2)
    flat = export(cnt)
    assert flat["L1D_total_cache_accesses"] == 2 and flat["L1D_total_cache_misses"] == 1


def test_second_access_merges_in_the_mshr():
    done, cnt, _, _ = run(SMALL, [(0, 0, 0x10000, 4, MEM_LD_GLOBAL, 1),
                                  (1, 0, 0x10000, 4, MEM_LD_GLOBAL, 2)])
    flat = export(cnt)
    assert flat["dram_reads"] == 2            # one 128 B line = 2 bursts of 64 B, fetched once
    assert flat["L1D_total_cache_pending_hits"] == 1
    assert flat["L2_total_cache_accesses"] == 1
    assert {t for _, _, t in done} == {1, 2}
    assert done[0][0] == done[1][0] == cold_miss_cycles(SMALL)


def test_mshr_exhaustion_refuses_the_access():
    cfg = apply_overrides(SMALL, {"l1d.mshr_entries": 2})
    ms = memsys.make_mem_state(cfg)
    assert memsys.mem_access(ms, 0, 0x10000, 4, MEM_LD_GLOBAL, 1, 0) == 1
    assert memsys.mem_access(ms, 0, 0x20000, 4, MEM_LD_GLOBAL, 2, 1) == 1
    assert memsys.mem_access(ms, 0, 0x30000, 4, MEM_LD_GLOBAL, 3, 2) == 0
    assert memsys.mem_access(ms, 0, 0x10000, 4, MEM_LD_GLOBAL, 4, 3) == 1   # merging still works
    counters = make_counts(cfg.n_sms)
    memsys.mem_flush_counters(ms, counters)
    assert export(counters)["L1D_total_cache_reservation_fails"] == 1


def test_one_line_per_sm_per_cycle():
    ms = memsys.make_mem_state(SMALL)
    assert memsys.mem_access(ms, 0, 0x10000, 4, MEM_LD_GLOBAL, 1, 5) == 1
    assert memsys.mem_access(ms, 0, 0x20000, 4, MEM_LD_GLOBAL, 2, 5) == 0
    assert memsys.mem_access(ms, 1, 0x20000, 4, MEM_LD_GLOBAL, 3, 5) == 1


def test_global_store_writes_through_without_l1_allocation():
    t1 = 50
    done, cnt, _, _ = run(SMALL, [(0, 0, 0x10000, 2, MEM_ST_GLOBAL, -1),
                                    (t1, 0, 0x10000, 4, MEM_LD_GLOBAL, 9)])
    flat = export(cnt)
    assert flat["L1D_total_cache_writes"] == 1
    assert flat["L2_total_cache_writes"] == 1
    assert flat["L1D_total_cache_misses"] == 2        # the store missed, the load still misses
    assert flat["dram_writes"] == 0                   # the L2 keeps the dirty line
    assert flat["icnt_flits_to_mem"] == 3 + 1         # 8 + 64 bytes = 3 flits, then a read
    assert done and done[0][2] == 9


def test_global_store_hit_evicts_the_l1_line():
    t1 = cold_miss_cycles(SMALL) + 5
    _, cnt, _, _ = run(SMALL, [(0, 0, 0x10000, 4, MEM_LD_GLOBAL, 1),
                                  (t1, 0, 0x10000, 1, MEM_ST_GLOBAL, -1),
                                  (t1 + 1, 0, 0x10000, 4, MEM_LD_GLOBAL, 2)])
    flat = export(cnt)
    assert flat["L1D_total_cache_misses"] == 2        # the load after the store misses again
    assert flat["L2_total_cache_writes"] == 1


def test_local_store_is_written_back_in_l1():
    t1 = cold_miss_cycles(SMALL) + 5
    _, cnt, _, _ = run(SMALL, [(0, 0, 0x10000, 4, MEM_LD_LOCAL, 1),
                               (t1, 0, 0x10000, 4, MEM_ST_LOCAL, -1),
                               (t1 + 1, 0, 0x10000, 4, MEM_LD_LOCAL, 2)])
    flat = export(cnt)
    assert flat["L1D_total_cache_misses"] == 1
    assert flat["L2_total_cache_writes"] == 0


def test_const_texture_and_atomic_paths_complete():
    stream = [(0, 0, 0x10000, 1, MEM_LD_CONST, 1), (0, 1, 0x20000, 4, MEM_LD_TEX, 2),
              (1, 0, 0x30000, 4, MEM_ATOMIC, 3)]
    done, cnt, _, _ = run(SMALL, stream)
    assert sorted(t for _, _, t in done) == [1, 2, 3]
    flat = export(cnt)
    assert flat["L1C_total_cache_misses"] == 1 and flat["L1T_total_cache_misses"] == 1
    assert flat["L2_total_cache_accesses"] == 3


def _random_stream(seed: int, n: int, n_sms: int, span: int = 3000):
    rng = np.random.default_rng(seed)
    kinds = np.array([MEM_LD_GLOBAL] * 6 + [MEM_ST_GLOBAL] * 2 +
                     [MEM_LD_LOCAL, MEM_ST_LOCAL, MEM_LD_CONST, MEM_LD_TEX, MEM_ATOMIC])
    cycles = np.sort(rng.integers(0, span, n))
    out = []
    for i, c in enumerate(cycles):
        kind = int(rng.choice(kinds))
        line = int(rng.integers(0, 96)) * 128 + (0x100000 if rng.random() < 0.3 else 0) + \
            int(rng.integers(0, 4)) * 0x40000
        tok = -1 if kind in (MEM_ST_GLOBAL, MEM_ST_LOCAL) else i
        out.append((int(c), int(rng.integers(0, n_sms)), line, int(rng.integers(1, 5)), kind,
                    tok))
    return out


def test_skip_and_no_skip_give_identical_results():
    stream = _random_stream(1, 400, SMALL.n_sms)
    a = run(SMALL, stream, skip=True)
    b = run(SMALL, stream, skip=False)
    assert a[0] == b[0] and a[2] == b[2] and a[3] == b[3]
    assert np.array_equal(a[1], b[1])


def test_skip_identical_with_gtx480_clock_domains():
    cfg = apply_overrides(GTX480_3X, {"sm.n_sms": 4, "clocks.icnt_mhz": 1000.0})
    stream = _random_stream(2, 300, cfg.n_sms)
    a = run(cfg, stream, skip=True)
    b = run(cfg, stream, skip=False)
    assert a[0] == b[0] and np.array_equal(a[1], b[1])
    assert len(a[0]) == sum(1 for s in stream if s[5] >= 0)


def test_deterministic():
    stream = _random_stream(3, 300, SMALL.n_sms)
    a = run(SMALL, stream)
    b = run(SMALL, stream)
    assert a[0] == b[0] and np.array_equal(a[1], b[1])


def test_jit_and_py_func_are_bit_identical():
    stream = _random_stream(4, 120, SMALL.n_sms, span=800)
    a = run(SMALL, stream, py=False)
    b = run(SMALL, stream, py=True)
    assert a[0] == b[0] and np.array_equal(a[1], b[1]) and a[3] == b[3]


def test_every_token_completes_under_load():
    cfg = apply_overrides(GTX480_3X, {"sm.n_sms": 3})
    stream = _random_stream(5, 600, cfg.n_sms, span=400)
    done, _, refused, _ = run(cfg, stream)
    want = sorted(s[5] for s in stream if s[5] >= 0)
    assert sorted(t for _, _, t in done) == want
    assert refused > 0                                   # the load saturates something


def test_has_completion_guards_the_pop_loop():
    ms = memsys.make_mem_state(SMALL)
    assert not memsys.mem_has_completion(ms)
    t0 = cold_miss_cycles(SMALL)
    done, _, _, _ = run(SMALL, [(0, 0, 0x10000, 4, MEM_LD_GLOBAL, 1)])
    ms = memsys.make_mem_state(SMALL)
    counters = make_counts(SMALL.n_sms)
    memsys.mem_access(ms, 0, 0x10000, 4, MEM_LD_GLOBAL, 1, 0)
    for c in range(t0 + 1):
        memsys.tick_memsys(ms, counters, c)
    assert memsys.mem_has_completion(ms)
    assert memsys.mem_pop_completion(ms, 1, t0) == -1
    assert memsys.mem_pop_completion(ms, 0, t0) == 1
    assert not memsys.mem_has_completion(ms)
    assert done == [(t0, 0, 1)]


def test_idle_state_and_next_event():
    ms = memsys.make_mem_state(SMALL)
    assert memsys.mem_idle(ms)
    assert memsys.mem_next_event(ms, 10) == INT64_MAX
    memsys.mem_access(ms, 0, 0x10000, 4, MEM_LD_GLOBAL, 1, 10)
    assert not memsys.mem_idle(ms)
    assert memsys.mem_next_event(ms, 11) == 10 + SMALL.l1d.hit_latency_cycles


def test_bad_kind_is_a_fault_not_an_exception():
    ms = memsys.make_mem_state(SMALL)
    assert memsys.mem_access(ms, 0, 0x10000, 4, 99, 1, 0) == 1
    assert list(ms.fault) == [FAULT_BAD_KIND, 0, 99, 0x10000]
    assert memsys.mem_idle(ms)


@pytest.mark.parametrize("preset", ["c2050", "gtx285", "gtx980", "qv100", "a100", "h100"])
def test_every_preset_runs(preset):
    from warpsim.arch import get_preset
    cfg = apply_overrides(get_preset(preset), {"sm.n_sms_per_cluster": 1, "sm.n_sms": 2})
    stream = _random_stream(6, 80, cfg.n_sms, span=300)
    done, _, _, _ = run(cfg, stream)
    assert len(done) == sum(1 for s in stream if s[5] >= 0)


def test_reply_flits_of_a_line():
    ms = memsys.make_mem_state(SMALL)
    assert reply_flits(ms.p, pack_info(0, 0, 0, 128, 0)) == 5


def test_tick_reports_progress_whenever_a_counter_changes():
    cfg = apply_overrides(GTX480_3X, {"sm.n_sms": 3, "l2.mshr_entries": 2})
    stream = _random_stream(7, 300, cfg.n_sms, span=300)
    ms, counters = memsys.make_mem_state(cfg), make_counts(cfg.n_sms)
    pending = [list(s for s in stream if s[1] == sm) for sm in range(cfg.n_sms)]
    for c in range(6000):
        for sm in range(cfg.n_sms):
            if pending[sm] and pending[sm][0][0] <= c:
                _, _, addr, nsec, kind, tok = pending[sm][0]
                if memsys.mem_access(ms, sm, addr, nsec, kind, tok, c):
                    pending[sm].pop(0)
        before = counters.copy()
        progress = memsys.tick_memsys(ms, counters, c)
        assert progress or np.array_equal(before, counters), c
        for sm in range(cfg.n_sms):
            while memsys.mem_pop_completion(ms, sm, c) >= 0:
                pass
    assert export(counters)["L2_total_cache_reservation_fails"] > 0
