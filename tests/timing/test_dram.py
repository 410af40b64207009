"""DRAM channel timing: row hit / closed bank / row conflict, bus bandwidth, FR-FCFS vs FIFO,
row commands of one bank overlapping another bank's data transfer.

Every tick the channel may issue one row command pair (PRECHARGE/ACTIVATE) and one request's
column commands, so a request to a closed bank returns only after the ticks up to its column
command (tRCD after the ACTIVATE) have run."""

from __future__ import annotations

from itertools import pairwise

from warpsim.arch import GTX480, apply_overrides
from warpsim.stats import export, make_counts
from warpsim.timing.cache import mq_push
from warpsim.timing.dram import dram_step, tick_dram
from warpsim.timing.memconsts import (
    A_L2_MQ,
    H_RET_COUNT,
    H_RET_HEAD,
    P_L2_BASE,
    PK_READ,
    PK_WRITE,
    Q_ADDR,
    Q_READY,
    SRC_NONE,
)
from warpsim.timing.memstate import pack_info
from warpsim.timing.memsys import make_mem_state

CFG = apply_overrides(GTX480, {
    "sm.n_sms": 1, "dram.n_channels": 1, "l2.n_slices_per_channel": 1,
    "clocks.dram_mhz": 700.0, "dram.latency_cycles": 0,
})
"""One channel, DRAM clock = core clock, no fixed DRAM latency: return time = last burst end."""
D = CFG.dram
BURST = D.n_burst_beats // D.n_transfers_per_clock                      # 2 ticks
STEP = max(BURST, D.t_ccdl_cycles)                                      # 3 ticks
LINE_DATA = D.t_cl_cycles + STEP + BURST                                # 2 bursts of 64 B
ROW_SPAN = D.row_bytes * D.n_banks                                      # next row, same bank


def _new():
    return make_mem_state(CFG), make_counts(1)


def _enqueue(ms, addr: int, write: bool = False, nbytes: int = 128) -> None:
    info = pack_info(0, PK_WRITE if write else PK_READ, SRC_NONE, nbytes, 0)
    mq_push(ms.caches, ms.p[P_L2_BASE], addr, info, 0)
    ms.act[A_L2_MQ] += 1


def _tick(ms, cnt, k: int) -> None:
    tick_dram(ms.p, ms.clk, ms.caches, ms.dq, ms.bank, ms.ch_s, ms.ret, ms.act, cnt, k, k)


def _returns(ms) -> list[tuple[int, int]]:
    """(address, ready) of the return queue, oldest first."""
    cap = ms.ret.shape[1]
    h, n = ms.ch_s[0, H_RET_HEAD], ms.ch_s[0, H_RET_COUNT]
    return [(int(ms.ret[0, (h + i) % cap, Q_ADDR]), int(ms.ret[0, (h + i) % cap, Q_READY]))
            for i in range(n)]


def _run(ms, cnt, start: int, stop: int) -> None:
    for k in range(start, stop):
        _tick(ms, cnt, k)


def test_step_is_the_bank_group_column_delay():
    ms, _ = _new()
    assert dram_step(ms.p) == 3


def test_closed_bank_read_takes_rcd_plus_cl_plus_bursts():
    ms, cnt = _new()
    _enqueue(ms, 0)
    _run(ms, cnt, 0, D.t_rcd_cycles)
    assert _returns(ms) == []                                          # column not issued yet
    _run(ms, cnt, D.t_rcd_cycles, D.t_rcd_cycles + 1)
    assert _returns(ms) == [(0, D.t_rcd_cycles + LINE_DATA)]            # 29 DRAM ticks
    flat = export(cnt)
    assert flat["dram_activates"] == 1 and flat["dram_precharges"] == 0
    assert flat["dram_reads"] == 2 and flat["dram_row_hits"] == 1
    assert flat["dram_busy_cycles"] == 2 * BURST


def test_row_hit_is_faster_than_a_closed_bank_by_trcd():
    ms, cnt = _new()
    _enqueue(ms, 0)
    _run(ms, cnt, 0, 100)
    _enqueue(ms, 128)                                                  # same row, next column
    _run(ms, cnt, 100, 101)
    (_, first), (_, second) = _returns(ms)
    assert first == D.t_rcd_cycles + LINE_DATA
    assert second - 100 == LINE_DATA                                   # 17
    assert (first - 0) - (second - 100) == D.t_rcd_cycles
    assert export(cnt)["dram_row_hits"] == 1 + 2


def test_row_conflict_adds_precharge_and_activate():
    ms, cnt = _new()
    _enqueue(ms, 0)
    _run(ms, cnt, 0, 100)
    _enqueue(ms, ROW_SPAN)                                             # bank 0, row 1
    _run(ms, cnt, 100, 101 + D.t_rp_cycles + D.t_rcd_cycles)
    _, second = _returns(ms)[1]
    assert second - 100 == D.t_rp_cycles + D.t_rcd_cycles + LINE_DATA  # 41
    flat = export(cnt)
    assert flat["dram_precharges"] == 1 and flat["dram_activates"] == 2


def test_back_to_back_misses_are_bus_bound():
    ms, cnt = _new()
    n = 12
    for i in range(n):
        _enqueue(ms, i * D.row_bytes)                                  # distinct banks
    _run(ms, cnt, 0, 400)
    ready = [r for _, r in _returns(ms)]
    assert len(ready) == n and ready == sorted(ready)
    # each 128 B line needs 2 bursts of BURST ticks on the one data bus
    assert ready[-1] - ready[0] >= (n - 1) * 2 * BURST
    assert all(b - a >= 2 * BURST for a, b in pairwise(ready))
    assert export(cnt)["dram_busy_cycles"] == n * 2 * BURST


def test_activate_of_one_bank_overlaps_another_banks_data():
    """Two reads to closed banks 0 and 1 (bank groups 0 and 1): bank 1's ACTIVATE is issued
    while bank 0 waits for tRCD (tRRD after bank 0's), its column command waits for its own
    tRCD, and its data follows bank 0's on the bus without waiting for bank 0's transfer."""
    ms, cnt = _new()
    _enqueue(ms, 0)                                                    # bank 0
    _enqueue(ms, D.row_bytes)                                          # bank 1
    _run(ms, cnt, 0, 100)
    (_, first), (_, second) = _returns(ms)
    assert first == D.t_rcd_cycles + LINE_DATA                         # 29
    # ACTIVATE at tRRD = 6, column at 6 + tRCD = 18, data 30-32 and 33-35 (bank 0's ends at 29)
    assert second == D.t_rrd_cycles + D.t_rcd_cycles + LINE_DATA        # 35
    assert export(cnt)["dram_activates"] == 2


def test_frfcfs_interleaves_bank_groups_to_fill_the_bus():
    """32 B (one-burst) row hits X, Y to bank 0 (bank group 0) and a younger Z to bank 1
    (group 1), both rows open, last column command in group 1 at tick 18. X issues at 40
    (data 52-54); the bus takes the next command's data from 54 = 42 + CL: Y (same group as
    X) could issue at 40 + tCCDL = 43 (data 55), Z at 40 + tCCD = 42 (data 54, no gap), so Z
    goes first and Y follows at 42 + tCCD = 44. Oldest-first would give X, Y (55-57), Z
    (57-59) with a 1-tick hole in the bus."""
    ms, cnt = _new()
    _enqueue(ms, 0, nbytes=32)                                         # opens bank 0 (col 12)
    _enqueue(ms, D.row_bytes, nbytes=32)                               # opens bank 1 (col 18)
    _run(ms, cnt, 0, 40)
    for addr in (64, 96, D.row_bytes + 32):                            # X, Y, Z
        _enqueue(ms, addr, nbytes=32)
    _run(ms, cnt, 40, 100)
    cl = D.t_cl_cycles
    assert _returns(ms)[2:] == [(64, 40 + cl + BURST), (D.row_bytes + 32, 42 + cl + BURST),
                                (96, 44 + cl + BURST)]                 # 54, 56, 58


def _scheduler_order(sched: str) -> list[int]:
    cfg = apply_overrides(CFG, {"dram.scheduler": sched})
    ms, cnt = make_mem_state(cfg), make_counts(1)
    _enqueue(ms, 0)                       # opens bank 0 row 0 and keeps the bank busy
    _enqueue(ms, ROW_SPAN)                # older: bank 0 row 1 (conflict)
    _enqueue(ms, 256)                     # younger: bank 0 row 0 (hit)
    _run(ms, cnt, 0, 300)
    return [a for a, _ in _returns(ms)]


def test_frfcfs_serves_the_row_hit_first_and_fifo_does_not():
    assert _scheduler_order("frfcfs") == [0, 256, ROW_SPAN]
    assert _scheduler_order("fifo") == [0, ROW_SPAN, 256]


def test_writes_use_the_bus_and_return_nothing():
    ms, cnt = _new()
    _enqueue(ms, 0, write=True, nbytes=64)
    _run(ms, cnt, 0, 50)
    assert _returns(ms) == []
    flat = export(cnt)
    assert flat["dram_writes"] == 1 and flat["dram_write_bytes"] == 64
    assert flat["dram_reads"] == 0


def test_return_time_converts_dram_ticks_to_core_cycles():
    cfg = apply_overrides(CFG, {"clocks.dram_mhz": 1400.0, "dram.latency_cycles": 100})
    ms, cnt = make_mem_state(cfg), make_counts(1)
    _enqueue(ms, 0)
    _run(ms, cnt, 0, D.t_rcd_cycles + 1)
    # 29 DRAM ticks at twice the core clock end in core cycle 14; + 100 core cycles
    assert _returns(ms) == [(0, (D.t_rcd_cycles + LINE_DATA) // 2 + 100)]
