"""The crossbar: packet sizes, latency, per-port serialisation, round-robin and fixed priority."""

from __future__ import annotations

from warpsim.arch import GTX480_3X, apply_overrides
from warpsim.stats import export, make_counts
from warpsim.timing.cache import mq_push
from warpsim.timing.icnt import reply_flits, request_flits, tick_icnt
from warpsim.timing.l2 import addr_slice
from warpsim.timing.memconsts import (
    A_L1_MQ,
    A_L2_RQ,
    ARB_FIXED,
    L1_D,
    N_L1_KINDS,
    P_ICNT_ARB,
    PK_READ,
    PK_WRITE,
    Q_READY,
    S_EJ_COUNT,
    SRC_NONE,
    X_ROP_COUNT,
    X_RQ_COUNT,
)
from warpsim.timing.memstate import pack_info
from warpsim.timing.memsys import make_mem_state

CFG = apply_overrides(GTX480_3X, {"sm.n_sms": 2, "dram.n_channels": 1})
"""Two SMs, one channel with two L2 slices, all clocks 700 MHz but DRAM."""
LAT = CFG.icnt.latency_cycles
ROP = CFG.l2.hit_latency_cycles
WRITE_INFO = pack_info(0, PK_WRITE, SRC_NONE, 128, 0)   # 8 + 128 bytes: 5 flits of 32 B


def _tick(ms, cnt, k):
    tick_icnt(ms.p, ms.clk, ms.caches, ms.sm_s, ms.sl_s, ms.rop, ms.rq, ms.ej, ms.act, cnt, k, k)


def _send(ms, sm, addr, info):
    mq_push(ms.caches, sm * N_L1_KINDS + L1_D, addr, info | sm, 0)
    ms.act[A_L1_MQ] += 1


def test_packet_sizes_in_flits():
    ms = make_mem_state(CFG)
    assert request_flits(ms.p, pack_info(0, PK_READ, SRC_NONE, 128, 0)) == 1
    assert request_flits(ms.p, WRITE_INFO) == 5
    assert request_flits(ms.p, pack_info(0, PK_WRITE, SRC_NONE, 32, 0)) == 2
    assert reply_flits(ms.p, pack_info(0, PK_READ, SRC_NONE, 128, 0)) == 5


def test_two_sms_to_one_slice_are_serialised_on_the_output_port():
    ms, cnt = make_mem_state(CFG), make_counts(2)
    assert addr_slice(ms.p, 0) == addr_slice(ms.p, 0x200) == 0
    _send(ms, 0, 0, WRITE_INFO)
    _send(ms, 1, 0x200, WRITE_INFO)
    for k in range(20):
        _tick(ms, cnt, k)
    assert ms.sl_s[0, X_ROP_COUNT] == 2
    first, second = ms.rop[0, 0, Q_READY], ms.rop[0, 1, Q_READY]
    assert first == 0 + LAT + 5 - 1 + ROP                  # SM0 wins tick 0 (0 % 2 == 0)
    assert second == 5 + LAT + 5 - 1 + ROP                 # SM1 waits 5 flit times
    flat = export(cnt)
    assert flat["icnt_flits_to_mem"] == 10
    assert flat["icnt_stall_cycles"] == 5


def test_different_slices_go_in_parallel():
    ms, cnt = make_mem_state(CFG), make_counts(2)
    assert addr_slice(ms.p, 0x80) == 1
    _send(ms, 0, 0, WRITE_INFO)
    _send(ms, 1, 0x80, WRITE_INFO)
    _tick(ms, cnt, 0)
    assert ms.sl_s[0, X_ROP_COUNT] == 1 and ms.sl_s[1, X_ROP_COUNT] == 1


def _winner_at(k: int, fixed: bool) -> int:
    ms, cnt = make_mem_state(CFG), make_counts(2)
    if fixed:
        ms.p[P_ICNT_ARB] = ARB_FIXED
    _send(ms, 0, 0, WRITE_INFO)
    _send(ms, 1, 0x200, WRITE_INFO)
    _tick(ms, cnt, k)
    return 0 if ms.caches.cnt[0, 3] == 0 else 1               # K_MQ_COUNT of SM0's L1D


def test_round_robin_pointer_follows_the_clock_and_fixed_does_not():
    assert _winner_at(0, fixed=False) == 0
    assert _winner_at(1, fixed=False) == 1
    assert _winner_at(0, fixed=True) == 0
    assert _winner_at(1, fixed=True) == 0


def test_replies_from_two_slices_to_one_sm_share_its_port():
    ms, cnt = make_mem_state(CFG), make_counts(2)
    info = pack_info(0, PK_READ, L1_D, 128, 0)
    for s in (0, 1):
        ms.rq[s, 0] = (0x80 * s, info, 0)
        ms.sl_s[s, X_RQ_COUNT] = 1
        ms.act[A_L2_RQ] += 1
    for k in range(12):
        _tick(ms, cnt, k)
    assert ms.sm_s[0, S_EJ_COUNT] == 2
    assert list(ms.ej[0, :2, Q_READY]) == [LAT + 5 - 1, 5 + LAT + 5 - 1]
    assert export(cnt)["icnt_flits_to_sm"] == 10
