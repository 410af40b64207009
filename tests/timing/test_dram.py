"""DRAM channel timing (GPGPU-Sim 4.2 dram.cc): row hit / closed bank / row conflict, ACTIVATEs
tRRD apart, FR-FCFS vs FIFO, bank groups, read/write turnaround (tRTW, tWTR) and writes
batched in their banks. Every timeline is worked out by hand in the test's docstring.

Every tick the channel hands at most one queued request to a free bank and issues at most one
column command (one 64 B atom) and one row command (PRECHARGE or ACTIVATE), so a request
returns only after the tick of its last column command has run."""

from __future__ import annotations

from warpsim.arch import GTX480_3X, apply_overrides
from warpsim.stats import export, make_counts
from warpsim.timing.cache import mq_push
from warpsim.timing.dram import tick_dram
from warpsim.timing.memconsts import (
    A_L2_MQ,
    B_ADDR,
    B_LEFT,
    B_QUEUED,
    B_REQ_ROW,
    D_BANK,
    D_ROW,
    H_RET_COUNT,
    H_RET_HEAD,
    P_L2_BASE,
    P_T_RCDWR,
    P_T_RTW,
    P_T_WTP,
    P_T_WTR,
    PK_READ,
    PK_WRITE,
    Q_ADDR,
    Q_READY,
    SRC_NONE,
)
from warpsim.timing.memstate import pack_info
from warpsim.timing.memsys import make_mem_state

CFG = apply_overrides(GTX480_3X, {
    "sm.n_sms": 1, "dram.n_channels": 1, "l2.n_slices_per_channel": 1,
    "clocks.dram_mhz": 700.0, "dram.latency_cycles": 0, "l2.miss_queue_entries": 32,
})
"""One channel, DRAM clock = core clock, no fixed DRAM latency: return time = last burst end;
an L2 miss queue that holds every request a test enqueues at once."""
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


def test_derived_timings_are_gpgpusim_42s():
    """GTX480_3X (CL 12, WL 4, BL 8 at 4 per tick = 2 ticks, CDLR 5, WR 12, RCD 12): tRTW = 12 +
    2 + 2 - 4 = 12, tWTR = 4 + 2 + 5 = 11, tWTP = 4 + 2 + 12 = 18, tRCDWR = 12 - 5 = 7; without
    turnaround both turnarounds are 0."""
    ms, _ = _new()
    assert [int(ms.p[i]) for i in (P_T_RTW, P_T_WTR, P_T_WTP, P_T_RCDWR)] == [12, 11, 18, 7]
    off = make_mem_state(apply_overrides(CFG, {"dram.rw_turnaround": False}))
    assert [int(off.p[i]) for i in (P_T_RTW, P_T_WTR, P_T_WTP)] == [0, 0, 18]


def test_closed_bank_read_takes_rcd_plus_cl_plus_bursts():
    ms, cnt = _new()
    _enqueue(ms, 0)
    last_col = D.t_rcd_cycles + STEP                                   # second atom, tCCDL later
    _run(ms, cnt, 0, last_col)
    assert _returns(ms) == []                                          # last column not issued
    _run(ms, cnt, last_col, last_col + 1)
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
    _run(ms, cnt, 100, 101 + STEP)                                     # columns at 100 and 103
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
    _run(ms, cnt, 100, 101 + D.t_rp_cycles + D.t_rcd_cycles + STEP)   # PRE 100, ACT 112
    _, second = _returns(ms)[1]
    assert second - 100 == D.t_rp_cycles + D.t_rcd_cycles + LINE_DATA  # 41
    flat = export(cnt)
    assert flat["dram_precharges"] == 1 and flat["dram_activates"] == 2


def test_back_to_back_misses_to_distinct_banks_are_activate_bound():
    """12 line reads to 12 closed banks: one ACTIVATE per tRRD = 6 ticks (ACTIVATE i at 6i,
    its columns at 6i + 12 and 6i + 15, data end 6i + 29), slower than the bus (4 ticks per
    line), so the reads return exactly tRRD apart."""
    ms, cnt = _new()
    n = 12
    for i in range(n):
        _enqueue(ms, i * D.row_bytes)                                  # distinct banks
    _run(ms, cnt, 0, 400)
    ready = [r for _, r in _returns(ms)]
    first = D.t_rcd_cycles + LINE_DATA                                 # 29
    assert ready == [first + i * D.t_rrd_cycles for i in range(n)]
    assert sorted(a for a, _ in _returns(ms)) == [i * D.row_bytes for i in range(n)]
    assert export(cnt)["dram_busy_cycles"] == n * 2 * BURST
    assert export(cnt)["dram_activates"] == n


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
    """32 B (one-burst) row hits X, Y to bank 0 (bank group 0) and Z to bank 1 (group 1), both
    rows open; admitted (and handed to their free banks) at 40, 41, 42. X issues at 40 (data
    52-54); Y, same group, must wait tCCDL = 3: 43; Z, another group, only tCCD = 2 after X:
    42, so Z goes first and Y follows at 42 + tCCD = 44, and the bus carries X, Z, Y back to
    back (serving the bank's older request first would leave a 1-tick hole after X)."""
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


def test_reads_hold_the_bus_and_a_write_waits_trtw_then_reads_wait_twtr():
    """Rows 0 of banks 0, 1, 2 (bank groups 0, 1, 2) open. 32 B reads R1 (bank 0) at 100, R2
    (bank 0) at 102, R3 (bank 2) at 110, a 64 B write W (bank 1) at 101 and a read R4 (bank 0)
    at 123 (one request admitted and handed to a bank per tick):
    R1 column 100 (data 112-114); W waits for tRTW = 12 after the last read column; R2 column
    103 (tCCDL after R1, data 115-117); R3 column 110 (data 122-124) pushes W to 110 + 12 =
    122; R4 waits tWTR = 11 after W: column 133, data 145-147."""
    ms, cnt = _new()
    for addr in (0, D.row_bytes, 2 * D.row_bytes):
        _enqueue(ms, addr, nbytes=32)
    _run(ms, cnt, 0, 100)
    _enqueue(ms, 32, nbytes=32)                                        # R1
    _tick(ms, cnt, 100)
    _enqueue(ms, D.row_bytes + 64, write=True, nbytes=64)              # W
    _tick(ms, cnt, 101)
    _enqueue(ms, 64, nbytes=32)                                        # R2
    _run(ms, cnt, 102, 110)
    _enqueue(ms, 2 * D.row_bytes + 32, nbytes=32)                      # R3
    _run(ms, cnt, 110, 123)
    assert export(cnt)["dram_writes"] == 1                             # W issued at 122
    _enqueue(ms, 96, nbytes=32)                                        # R4
    _run(ms, cnt, 123, 200)
    assert _returns(ms)[3:] == [(32, 114), (64, 117), (2 * D.row_bytes + 32, 124), (96, 147)]


def test_writes_waiting_in_their_banks_go_out_together():
    """Rows 0 of banks 0-3 (bank groups 0-3) open. Read R1 (bank 0) at 100, writes W1, W2
    (banks 1, 2; 64 B) at 101, 102, read R2 (bank 3) at 103, read R3 (bank 0) at 116. R1 and R2
    issue at 100 and 103 (reads do not wait for writes); both writes wait for tRTW after R2
    and then issue tCCD apart, 115 and 117, with no read between; R3 waits tWTR after the
    second: column 128, data 140-142."""
    ms, cnt = _new()
    for b in range(4):
        _enqueue(ms, b * D.row_bytes, nbytes=32)
    _run(ms, cnt, 0, 100)
    for k, (addr, write) in enumerate(((32, False), (D.row_bytes + 64, True),
                                      (2 * D.row_bytes + 64, True), (3 * D.row_bytes + 32, False))):
        _enqueue(ms, addr, write=write, nbytes=64 if write else 32)
        _tick(ms, cnt, 100 + k)
    _run(ms, cnt, 104, 116)
    assert export(cnt)["dram_writes"] == 1                             # W1 at 115
    _enqueue(ms, 64, nbytes=32)                                        # R3
    _run(ms, cnt, 116, 118)
    assert export(cnt)["dram_writes"] == 2                             # W2 at 117
    _run(ms, cnt, 118, 200)
    assert _returns(ms)[4:] == [(32, 114), (3 * D.row_bytes + 32, 117), (64, 142)]


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
    _run(ms, cnt, 0, D.t_rcd_cycles + STEP + 1)
    # 29 DRAM ticks at twice the core clock end in core cycle 14; + 100 core cycles
    assert _returns(ms) == [(0, (D.t_rcd_cycles + LINE_DATA) // 2 + 100)]


def test_queue_entries_carry_their_bank_and_row_and_banks_count_them():
    """One channel, linear mapping: bank = addr // row_bytes % n_banks, row = addr //
    (row_bytes x n_banks). At every tick each queued entry's D_BANK / D_ROW are those of its
    address, each bank's B_QUEUED is the number of queued entries in it, and a bank holding a
    request keeps that request's row (B_REQ_ROW)."""
    ms, cnt = _new()
    rb, nb = D.row_bytes, D.n_banks
    addrs = [0, ROW_SPAN, 256, 3 * rb, 3 * rb + ROW_SPAN, 5 * rb + 2 * ROW_SPAN, 128, 5 * rb]
    for a in addrs:
        _enqueue(ms, a)
    seen_queued = 0
    for k in range(400):
        _tick(ms, cnt, k)
        want = [0] * nb
        for e in range(ms.dq.shape[1]):
            if ms.dq[0, e, Q_READY] >= 0:
                a = int(ms.dq[0, e, Q_ADDR])
                assert ms.dq[0, e, D_BANK] == a // rb % nb
                assert ms.dq[0, e, D_ROW] == a // (rb * nb)
                want[a // rb % nb] += 1
        assert [int(ms.bank[0, b, B_QUEUED]) for b in range(nb)] == want
        seen_queued = max(seen_queued, max(want))
        for b in range(nb):
            if ms.bank[0, b, B_LEFT] > 0:
                assert ms.bank[0, b, B_REQ_ROW] == int(ms.bank[0, b, B_ADDR]) // (rb * nb)
    assert seen_queued >= 2                  # bank 0 and bank 3 queued several at once
    assert sorted(a for a, _ in _returns(ms)) == sorted(addrs)
