"""Sectored cache lines (timing/sector.py): per-sector hits and misses, sector MSHRs, dirty
sectors written back, and the sectored L2 seen end to end (one DRAM burst per 32 B sector,
one reply per sector, the L1 filled when all four arrived)."""

from __future__ import annotations

from warpsim.arch import GTX480_3X, apply_overrides
from warpsim.stats import export, make_counts
from warpsim.timing.cache import R_HIT, R_HIT_RESERVED, R_MISS, R_RESERVATION_FAIL, mshr_find
from warpsim.timing.memconsts import (
    AP_ON_MISS,
    LS_INVALID,
    LS_MODIFIED,
    LS_RESERVED,
    LS_VALID,
    MEM_LD_GLOBAL,
    MEM_ST_GLOBAL,
    REPL_LRU,
    SI_LINEAR,
    WA_WRITE_ALLOCATE,
    WP_WRITE_BACK,
)
from warpsim.timing.memstate import make_cache_arrays
from warpsim.timing.memsys import (
    make_mem_state,
    mem_access,
    mem_flush_counters,
    mem_idle,
    mem_pop_completion,
    tick_memsys,
)
from warpsim.timing.sector import sec_fill, sec_read, sec_write, sector_key


def _cache(ways=2, mshr=4, merge=2):
    """One set, 128 B lines of four 32 B sectors."""
    return make_cache_arrays([{
        "n_sets": 1, "ways": ways, "line_shift": 7, "sector_shift": 5, "set_fn": SI_LINEAR,
        "repl": REPL_LRU, "write_policy": WP_WRITE_BACK, "alloc_policy": AP_ON_MISS,
        "write_alloc": WA_WRITE_ALLOCATE, "mshr_entries": mshr, "mshr_max_merge": merge,
        "mq_entries": 8, "hit_latency": 1}])


def test_a_missing_sector_of_a_present_line_is_fetched_alone():
    ca = _cache()
    assert sec_read(ca, 0, 5, 1, 100) == (R_MISS, -1, 0)       # line 5 allocated, sector 1
    assert ca.tag_state[0, 0, 0] == LS_RESERVED
    assert sec_read(ca, 0, 5, 1, 101)[0] == R_HIT_RESERVED       # merges into sector 1's MSHR
    assert sec_read(ca, 0, 5, 1, 102)[0] == R_RESERVATION_FAIL   # merge limit 2
    assert sec_read(ca, 0, 5, 2, 103)[0] == R_MISS               # SECTOR_MISS: own MSHR
    assert mshr_find(ca, 0, sector_key(ca, 0, 5, 1)) != mshr_find(ca, 0, sector_key(ca, 0, 5, 2))
    assert sector_key(ca, 0, 5, 2) == 5 * 4 + 2                 # = address >> 5
    sec_fill(ca, 0, 5, 1, False)
    assert ca.tag_state[0, 0, 0] == LS_RESERVED                  # sector 2 still pending
    sec_fill(ca, 0, 5, 2, False)
    assert ca.tag_state[0, 0, 0] == LS_VALID
    assert sec_read(ca, 0, 5, 1, 0)[0] == R_HIT and sec_read(ca, 0, 5, 2, 0)[0] == R_HIT
    assert sec_read(ca, 0, 5, 0, 0)[0] == R_MISS                 # never fetched


def test_dirty_sectors_are_written_back_with_their_bytes_only():
    ca = _cache(ways=1)
    assert sec_write(ca, 0, 7, 3, WP_WRITE_BACK) == (0, 0, -1, 0)   # write miss allocates
    assert ca.tag_state[0, 0, 0] == LS_MODIFIED
    assert sec_read(ca, 0, 7, 3, 0)[0] == R_HIT                  # the written sector is valid
    assert sec_write(ca, 0, 7, 0, WP_WRITE_BACK) == (0, 0, -1, 0)   # second sector, same line
    # line 9 evicts line 7: its two dirty sectors, 64 B, are written back
    assert sec_read(ca, 0, 9, 0, 0) == (R_MISS, 7, 64)
    assert sec_read(ca, 0, 9, 1, 0)[0] == R_MISS
    sec_fill(ca, 0, 9, 0, False)
    sec_fill(ca, 0, 9, 1, True)                                  # an atomic's fill: dirty
    assert ca.tag_state[0, 0, 0] == LS_MODIFIED


def test_reserved_lines_are_not_evicted():
    ca = _cache(ways=1)
    assert sec_read(ca, 0, 1, 0, 0)[0] == R_MISS
    assert sec_read(ca, 0, 2, 0, 0)[0] == R_RESERVATION_FAIL     # the only way is pending
    sec_fill(ca, 0, 1, 0, False)
    assert sec_read(ca, 0, 2, 0, 0) == (R_MISS, -1, 0)           # clean victim: no write-back
    assert ca.tag_state[0, 0, 0] != LS_INVALID


CFG = apply_overrides(GTX480_3X, {
    "sm.n_sms": 1, "dram.n_channels": 1, "l2.n_slices_per_channel": 1,
    "l2.sector_bytes": 32, "l2.mshr_entries": 16,
})


def _run_load(cfg, line_addr: int) -> tuple[int, dict]:
    ms, cnt = make_mem_state(cfg), make_counts(1)
    assert mem_access(ms, 0, line_addr, 4, MEM_LD_GLOBAL, 7, 0) == 1
    c = 0
    while True:
        c += 1
        tick_memsys(ms, cnt, c)
        if mem_pop_completion(ms, 0, c) == 7:
            break
        assert c < 5000
    assert mem_idle(ms)
    mem_flush_counters(ms, cnt)
    return c, export(cnt)


def test_a_sectored_l2_reads_four_sectors_in_four_bursts():
    """One L1 miss of a 128 B line: four L2 sector lookups and misses, four 32 B DRAM reads of
    one 64 B burst each (GPGPU-Sim 4.2 n_rd = 4), four 40 B replies of 2 flits each."""
    _, st = _run_load(CFG, 0)
    assert st["L2_total_cache_accesses"] == 4 and st["L2_total_cache_misses"] == 4
    assert st["dram_reads"] == 4
    assert st["icnt_flits_to_sm"] == 4 * 2                       # ceil((8 + 32) / 32) each
    _, line = _run_load(apply_overrides(CFG, {"l2.sector_bytes": 128}), 0)
    assert line["L2_total_cache_accesses"] == 1 and line["dram_reads"] == 2
    assert line["icnt_flits_to_sm"] == 5                         # ceil(136 / 32)


def test_a_store_then_a_load_of_the_same_sectors_hits_in_the_l2():
    ms, cnt = make_mem_state(CFG), make_counts(1)
    assert mem_access(ms, 0, 0, 2, MEM_ST_GLOBAL, -1, 0) == 1   # sectors 0 and 1 [A]
    for c in range(1, 400):
        tick_memsys(ms, cnt, c)
    assert mem_access(ms, 0, 0, 4, MEM_LD_GLOBAL, 3, 400) == 1
    c = 400
    while mem_pop_completion(ms, 0, c) != 3:
        c += 1
        tick_memsys(ms, cnt, c)
    mem_flush_counters(ms, cnt)
    st = export(cnt)
    assert st["L2_total_cache_writes"] == 2
    assert st["L2_total_cache_misses"] == 2 + 2                  # the write misses, sectors 2, 3
    assert st["dram_reads"] == 2                                 # only the two missing sectors
