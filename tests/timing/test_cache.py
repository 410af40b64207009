"""The generic cache: LRU/FIFO eviction order, MSHR merging and exhaustion, write policies,
set-index functions."""

from __future__ import annotations

import numpy as np

from warpsim.timing.cache import (
    R_HIT,
    R_HIT_RESERVED,
    R_MISS,
    R_RESERVATION_FAIL,
    cache_fill,
    cache_read,
    cache_set,
    cache_write,
    mq_free,
    mshr_alloc,
    mshr_find,
    mshr_free,
    partition_line,
)
from warpsim.timing.memconsts import (
    AP_ON_FILL,
    AP_ON_MISS,
    REPL_FIFO,
    REPL_LRU,
    SI_FERMI_HASH,
    SI_LINEAR,
    SI_XOR,
    WA_NO_WRITE_ALLOCATE,
    WA_WRITE_ALLOCATE,
    WP_WRITE_BACK,
    WP_WRITE_EVICT,
    WP_WRITE_THROUGH,
)
from warpsim.timing.memstate import make_cache_arrays


def _cache(n_sets=1, ways=4, repl=REPL_LRU, alloc=AP_ON_MISS, mshr=8, merge=4, mq=8,
           set_fn=SI_LINEAR, write_alloc=WA_NO_WRITE_ALLOCATE):
    return make_cache_arrays([{
        "n_sets": n_sets, "ways": ways, "line_shift": 7, "set_fn": set_fn, "repl": repl,
        "write_policy": WP_WRITE_BACK, "alloc_policy": alloc, "write_alloc": write_alloc,
        "mshr_entries": mshr, "mshr_max_merge": merge, "mq_entries": mq, "hit_latency": 1}])


def _load_and_fill(ca, line):
    status, _ = cache_read(ca, 0, line, 0)
    assert status == R_MISS
    cache_fill(ca, 0, line, False)
    mshr_free(ca, 0, mshr_find(ca, 0, line))


def _resident(ca):
    return sorted(int(t) for t, s in zip(ca.tag[0, 0], ca.tag_state[0, 0], strict=True) if s)


def test_lru_evicts_the_least_recently_used_line():
    ca = _cache()
    for line in (1, 2, 3, 4):
        _load_and_fill(ca, line)
    assert cache_read(ca, 0, 1, 0)[0] == R_HIT          # 1 becomes most recent
    assert cache_read(ca, 0, 3, 0)[0] == R_HIT
    _load_and_fill(ca, 5)                               # evicts 2
    assert _resident(ca) == [1, 3, 4, 5]
    _load_and_fill(ca, 6)                               # evicts 4
    assert _resident(ca) == [1, 3, 5, 6]


def test_fifo_ignores_hits():
    ca = _cache(repl=REPL_FIFO)
    for line in (1, 2, 3, 4):
        _load_and_fill(ca, line)
    assert cache_read(ca, 0, 1, 0)[0] == R_HIT
    _load_and_fill(ca, 5)                               # evicts 1, the first installed
    assert _resident(ca) == [2, 3, 4, 5]


def test_mshr_merges_up_to_the_limit():
    ca = _cache(merge=3)
    assert cache_read(ca, 0, 9, 10)[0] == R_MISS
    assert cache_read(ca, 0, 9, 11)[0] == R_HIT_RESERVED
    assert cache_read(ca, 0, 9, 12)[0] == R_HIT_RESERVED
    assert cache_read(ca, 0, 9, 13)[0] == R_RESERVATION_FAIL
    m = mshr_find(ca, 0, 9)
    assert list(ca.mshr_req[0, m, :3]) == [10, 11, 12]


def test_mshr_exhaustion_is_a_reservation_fail():
    ca = _cache(n_sets=4, mshr=2)
    assert cache_read(ca, 0, 1, 0)[0] == R_MISS
    assert cache_read(ca, 0, 2, 0)[0] == R_MISS
    assert cache_read(ca, 0, 3, 0)[0] == R_RESERVATION_FAIL


def test_all_ways_reserved_is_a_reservation_fail():
    ca = _cache(ways=2)
    assert cache_read(ca, 0, 1, 0)[0] == R_MISS
    assert cache_read(ca, 0, 2, 0)[0] == R_MISS
    assert cache_read(ca, 0, 3, 0)[0] == R_RESERVATION_FAIL


def test_allocate_on_fill_keeps_tags_until_the_data_arrives():
    ca = _cache(alloc=AP_ON_FILL)
    assert cache_read(ca, 0, 1, 0)[0] == R_MISS
    assert _resident(ca) == []
    assert cache_read(ca, 0, 1, 1)[0] == R_HIT_RESERVED
    cache_fill(ca, 0, 1, False)
    assert _resident(ca) == [1]


def test_write_policies_on_a_hit():
    for policy, forward, state in ((WP_WRITE_BACK, 0, 3), (WP_WRITE_THROUGH, 1, 1),
                                   (WP_WRITE_EVICT, 1, 0)):
        ca = _cache()
        _load_and_fill(ca, 1)
        hit, fwd, victim = cache_write(ca, 0, 1, policy, -2)
        assert (hit, fwd, victim) == (1, forward, -1)
        assert ca.tag_state[0, 0, 0] == state


def test_write_miss_without_allocation_is_forwarded():
    ca = _cache()
    assert cache_write(ca, 0, 7, WP_WRITE_BACK, -2) == (0, 1, -1)
    assert _resident(ca) == []


def test_write_allocate_and_dirty_eviction():
    ca = _cache(ways=2, write_alloc=WA_WRITE_ALLOCATE)
    assert cache_write(ca, 0, 1, WP_WRITE_BACK, -2) == (0, 0, -1)
    assert cache_write(ca, 0, 2, WP_WRITE_BACK, -2) == (0, 0, -1)
    status, victim = cache_read(ca, 0, 3, 0)            # evicts dirty line 1
    assert status == R_MISS and victim == 1
    assert mq_free(ca, 0) == 8                          # the caller pushes both packets


def test_set_index_functions_stay_in_range_and_spread():
    for fn, n_sets in ((SI_LINEAR, 32), (SI_FERMI_HASH, 32), (SI_FERMI_HASH, 64), (SI_XOR, 16),
                       (SI_LINEAR, 96), (SI_XOR, 96)):
        ca = _cache(n_sets=n_sets, set_fn=fn)
        sets = [cache_set(ca, 0, line) for line in range(4096)]
        assert min(sets) >= 0 and max(sets) < n_sets
        assert len(set(sets)) == n_sets
    ca = _cache(n_sets=32, set_fn=SI_FERMI_HASH)
    # lines 32 sets apart collide linearly but not under the Fermi hash
    assert len({cache_set(ca, 0, line) for line in range(0, 32 * 64, 32)}) > 1


def test_jit_and_py_func_agree_on_random_reads():
    rng = np.random.default_rng(0)
    cas = [_cache(n_sets=4, ways=2), _cache(n_sets=4, ways=2)]
    for line in rng.integers(0, 40, 300):
        a = cache_read(cas[0], 0, int(line), 1)
        b = getattr(cache_read, "py_func", cache_read)(cas[1], 0, int(line), 1)
        assert a == b
        if a[0] == R_MISS:
            for ca in cas:
                cache_fill(ca, 0, int(line), False)
                mshr_free(ca, 0, mshr_find(ca, 0, int(line)))
    for x, y in zip(cas[0], cas[1], strict=True):
        assert np.array_equal(x, y)


def test_l2_set_index_uses_the_address_inside_the_slice():
    """GTX480_3X linear mapping: 256 B chunks dealt to 6 channels, slice = line bit 7 of the
    in-channel address. Slice 0 holds the lines at 6 x 256 = 1536 B apart (in-channel
    addresses 0, 256, 512, ...): partition lines 0, 1, 2, ... and so 64 different sets for 64
    such lines (GPGPU-Sim l2_cache_config::set_index). The global line numbers 0, 12, 24, ...
    would have used only every fourth set."""
    from warpsim.arch import GTX480_3X
    from warpsim.timing.memconsts import P_L2_BASE
    from warpsim.timing.memsys import make_mem_state

    ms = make_mem_state(GTX480_3X)
    c = int(ms.p[P_L2_BASE])
    lines = [k * 1536 >> 7 for k in range(64)]
    assert [partition_line(ms.caches, c, ln) for ln in lines] == list(range(64))
    assert sorted(cache_set(ms.caches, c, ln) for ln in lines) == list(range(64))
    assert partition_line(ms.caches, 0, 12) == 12                 # an L1: the line itself


def test_mshr_find_and_alloc_under_churn_match_a_table_scan():
    """mshr_find probes an index (open addressing); mshr_alloc takes the lowest free entry.
    Oracle: a dict of the busy lines and the lowest free entry number, over 1500 random
    allocations and frees of 14 of 16 entries (slots collide and wrap; frees shift probes)."""
    ca = _cache(mshr=16)
    rng = np.random.default_rng(7)
    busy: dict[int, int] = {}
    keys = [int(k) for k in rng.integers(0, 1 << 40, 20)] + list(range(20)) + \
        [k * 4096 for k in range(20)]
    for _ in range(1500):
        if len(busy) < 14 and (not busy or rng.random() < 0.55):
            line = keys[int(rng.integers(len(keys)))]
            if line in busy:
                continue
            want = min(set(range(16)) - set(busy.values()))
            assert mshr_alloc(ca, 0, line, 0) == want
            busy[line] = want
        else:
            line = list(busy)[int(rng.integers(len(busy)))]
            mshr_free(ca, 0, busy.pop(line))
        for k in keys:
            assert mshr_find(ca, 0, k) == busy.get(k, -1)
    for line in list(busy):
        mshr_free(ca, 0, busy.pop(line))
    assert (ca.mshr_index[0] == -1).all()


def test_l2_partition_line_removes_the_slice_bits_of_an_address_mapping():
    """part_sub_mask bits 9 and 12 (the slice bits of a mapping), 6 channels at bit 8: the
    address 22 x 6 x 256 + 128 = 33920 is in-channel address 22 x 256 + 128 =
    0b1_0110_1000_0000; without bits 12 and 9 it is 0b10_1000_0000 = 640, line 640 >> 7 = 5."""
    ca = make_cache_arrays([{
        "n_sets": 64, "ways": 4, "line_shift": 7, "set_fn": SI_LINEAR, "repl": REPL_LRU,
        "write_policy": WP_WRITE_BACK, "alloc_policy": AP_ON_MISS,
        "write_alloc": WA_NO_WRITE_ALLOCATE, "mshr_entries": 4, "mshr_max_merge": 4,
        "mq_entries": 4, "hit_latency": 1, "part_chan_shift": 8, "part_n_channels": 6,
        "part_spc": 2, "part_sub_mask": (1 << 9) | (1 << 12)}])
    assert partition_line(ca, 0, 33920 >> 7) == 5
    # bits above both removed ones move down by two: in-channel 1 << 14 -> 1 << 12
    assert partition_line(ca, 0, (6 << 14) >> 7) == (1 << 12) >> 7
