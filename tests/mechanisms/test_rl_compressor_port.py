"""RegLess's compressor (§4.4) on its own state: "one read or write per cycle" per shard (a
second access in a cycle waits), preloads of one compressed line in flight merged into one
load, the slots written into a line in flight readable at once, and a cache whose every line
is in flight. Oracle: the line/slot arithmetic of spec §4.4 done by hand (8 warp slots, 4
shards: register (w, r) is slot k mod 15 of line k // 15, k = 2 r + w // 4)."""

from __future__ import annotations

from warpsim.mechanisms.regless.backing_store import TAG_FILL
from warpsim.mechanisms.regless.compressor import cc_read, cc_write
from warpsim.mechanisms.regless.hooks import rl_on_mem_complete, rl_on_mem_sent
from warpsim.mechanisms.regless.state import (
    ST_COMP_FILLS,
    ST_COMP_FULL,
    ST_COMP_MERGED,
    ST_COMP_PORT_WAIT,
    ST_PRELOAD_COMP,
    ST_PRELOAD_MEM,
    W_OUT,
    W_READY,
    make_state,
    region_tables,
)


def _state(maxreg: int = 8, lines: int = 16):
    return make_state(region_tables(None, 1), n_sms=1, n_warps=8, n_shards=4, bank_cap=4,
                      maxreg=maxreg, base=0, l1_latency=10, cc_lines=lines)


def _queued(hs) -> int:
    return int(hs.memq_ht[0, 1])


def test_one_read_or_write_per_cycle_per_shard():
    hs = _state()
    # shard 0 (warps 0, 4): three accesses asked in cycle 10 take cycles 10, 11, 12
    assert cc_read(hs, 0, 0, 0, 10) == 0           # line 0
    assert cc_read(hs, 0, 4, 7, 10) == 1           # k = 15: line 1
    assert cc_write(hs, 0, 0, 1, 10)               # line 0, slot 2: waits 2 cycles
    assert hs.cc_busy[0, 0] == 13
    assert cc_read(hs, 0, 1, 0, 10) == 0           # shard 1 has its own compressor
    assert cc_read(hs, 0, 0, 0, 20) == 0           # free again by cycle 20
    assert hs.st[ST_COMP_PORT_WAIT] == 1 + 2


def test_preloads_of_a_line_in_flight_share_its_load():
    hs = _state()
    assert cc_read(hs, 0, 0, 0, 5) == 0            # (w0, r0): line 0 slot 0 misses
    assert _queued(hs) == 1 and hs.w[0, 0, W_OUT] == 1
    cc_read(hs, 0, 4, 0, 6)                        # (w4, r0): line 0 slot 1, merged
    assert _queued(hs) == 1 and hs.w[0, 4, W_OUT] == 1
    assert (hs.st[ST_PRELOAD_MEM], hs.st[ST_COMP_MERGED], hs.st[ST_PRELOAD_COMP]) == (2, 1, 0)
    tag = int(hs.memq[0, 0, 2])
    assert tag == 0                                # warp 0, ring slot 0
    rl_on_mem_sent(hs, 0, tag, True, 7)
    rl_on_mem_complete(hs, 0, tag, 40)
    assert hs.w[0, 0, W_OUT] == 0 and hs.w[0, 4, W_OUT] == 0
    assert hs.w[0, 0, W_READY] == 41 and hs.w[0, 4, W_READY] == 41
    cc_read(hs, 0, 0, 1, 50)                       # (w0, r1): slot 2 of the arrived line
    assert hs.st[ST_PRELOAD_COMP] == 1 and _queued(hs) == 0


def test_a_slot_written_into_a_line_in_flight_is_readable_at_once():
    hs = _state()
    assert cc_write(hs, 0, 0, 0, 5)                # miss: read-modify-write fill queued
    assert hs.st[ST_COMP_FILLS] == 1 and int(hs.memq[0, 0, 2]) == TAG_FILL
    cc_read(hs, 0, 0, 0, 6)                        # its own slot: a hit, no wait for the fill
    assert hs.st[ST_PRELOAD_COMP] == 1 and hs.w[0, 0, W_OUT] == 0
    cc_read(hs, 0, 4, 0, 7)                        # slot 1 still in flight: merged
    assert hs.w[0, 4, W_OUT] == 1 and _queued(hs) == 1
    rl_on_mem_sent(hs, 0, TAG_FILL, True, 8)
    rl_on_mem_complete(hs, 0, TAG_FILL, 30)
    assert hs.w[0, 4, W_OUT] == 0 and hs.w[0, 4, W_READY] == 31


def test_every_line_in_flight_bypasses_the_cache():
    hs = _state(maxreg=16, lines=2)
    cc_read(hs, 0, 0, 0, 1)                        # line 0 in flight
    cc_read(hs, 0, 4, 7, 2)                        # line 1 in flight
    assert not cc_write(hs, 0, 0, 15, 3)           # k = 30, line 2: no line to put it in
    assert hs.st[ST_COMP_FULL] == 1 and _queued(hs) == 2
    cc_read(hs, 0, 0, 15, 4)                       # loaded for the warp, not cached
    assert hs.st[ST_COMP_FULL] == 2 and _queued(hs) == 3 and hs.w[0, 0, W_OUT] == 2
    assert sorted(hs.cc_tag[0, 0].tolist()) == [0, 1]
