"""DRAM channels: scheduler queue, banks serving one request each, GDDR timing, return queue.

All times here are DRAM command-clock ticks (``clocks.dram_mhz``). Per tick each channel, as
GPGPU-Sim 4.2's ``dram_t::cycle`` does:

1. takes at most one request from each of its L2 slices' miss queues into its scheduler queue
   (``dram.sched_queue_entries``);
2. gives at most one bank that holds no request one from the queue (banks visited round robin
   from the channel's pointer, which then advances). ``frfcfs`` (``frfcfs_scheduler::schedule``,
   per bank): the bank keeps taking the oldest queued request of its current *row streak*
   while the queue holds any; a new streak is the bank's open row if a queued request wants
   it, else the row of the bank's oldest queued request. ``fifo``: only the queue's oldest
   request, if its bank is free;
3. issues at most one column command and one row command, visiting the banks that hold a
   request round robin from the pointer; a row command only before (in that order) a column
   command. Column command (one atom, ``n_chips_per_channel x bus_width_bytes x
   n_burst_beats`` bytes; the request leaves the bank after its last): the bank's row is open
   and is the request's, tCCD after the channel's last column command, tCCDL after its bank
   group's, a read tRCD after the ACTIVATE and tWTR after the last write command and with
   room in the return queue, a write tRCDWR after the ACTIVATE and tRTW after the last read
   command. Row command: ACTIVATE on a precharged bank (tRRD after the channel's last, tRP
   after the bank's PRECHARGE, tRC after its last ACTIVATE), PRECHARGE on a bank whose open row
   is not the request's (tRAS after the ACTIVATE, tWTP after a write, a burst after a read,
   tRTPL after a read of the bank group). Both move the pointer to the next bank.

tRTW = tCL + burst + 2 - tWL, tWTR = tWL + burst + tCDLR, tWTP = tWL + burst + tWR, tRCDWR =
tRCD - tWL - 1 (GPGPU-Sim ``memory_config``; ``dram.rw_turnaround = False`` makes tRTW = tWTR
= 0). A read after reads waits only tCCD; a write after reads waits tRTW, so reads keep the
bus while any bank has a read ready, and the writes the banks then hold go out together. Data
of a column command takes the bus tCL (reads) / tWL (writes) after it, for ``burst =
n_burst_beats / n_transfers_per_clock`` ticks. Unloaded read of one 128 B line (2 atoms, same
bank: tCCDL apart): row hit ``tCL + tCCDL + burst`` (17), closed bank ``tRCD + ...`` (29),
row conflict ``tRP + tRCD + ...`` (41) ticks. Read data reaches the L2
``dram.latency_cycles`` core cycles after its last burst.

Counters (row of the requesting SM): ``dram_reads``/``dram_writes`` count bursts (column
commands, as GPGPU-Sim's n_rd/n_wr), ``dram_row_hits`` the bursts that found their row open,
``dram_busy_cycles`` the DRAM ticks the bus transferred data.

Follows: GPGPU-Sim 4.2 ``dram.cc`` (``dram_t::cycle``, ``issue_col_command``,
``issue_row_command``), ``dram_sched.cc`` (``frfcfs_scheduler``), ``gpu-sim.h``
(``memory_config::init``), timing parameters of ``-gpgpu_dram_timing_opt``,
reference/gpu-simulators.md §2. Written from their behaviour, no code taken.
Assumptions: [A] bank group = bank % n_bank_groups (GPGPU-Sim ``dram_bnkgrp_indexing_policy``
1, lower bits); [A] the fixed ``dram.latency_cycles`` is added after the data instead of
before the scheduler queue.
Deviations: no refresh, no power-down, no separate write queue (reads and writes share
``dram.sched_queue_entries``, GPGPU-Sim's default); a column command also waits until the data
bus is free when its data would start (GPGPU-Sim does not check; with its derived tRTW/tWTR the
condition never binds, only with ``dram.rw_turnaround = False``).
"""

from __future__ import annotations

from warpsim._jit import jit
from warpsim.stats import (
    C_DRAM_ACTIVATES,
    C_DRAM_BUSY_CYCLES,
    C_DRAM_PRECHARGES,
    C_DRAM_READ_BYTES,
    C_DRAM_READS,
    C_DRAM_ROW_HITS,
    C_DRAM_WRITE_BYTES,
    C_DRAM_WRITES,
)
from warpsim.timing.cache import mq_pop
from warpsim.timing.l2 import addr_bank, addr_row
from warpsim.timing.memconsts import (
    A_DRAM_Q,
    A_DRAM_RET,
    A_L2_MQ,
    B_ACTIVE,
    B_ADDR,
    B_FRESH,
    B_G_CCDL_OK,
    B_G_RTPL_OK,
    B_INFO,
    B_LEFT,
    B_QUEUED,
    B_RAS_OK,
    B_RC_OK,
    B_RCD_OK,
    B_RCDWR_OK,
    B_REQ_ROW,
    B_ROW,
    B_RP_OK,
    B_RTP_OK,
    B_STREAK,
    B_WTP_OK,
    D_BANK,
    D_ROW,
    DOM_DRAM,
    DS_FIFO,
    H_BUS_FREE,
    H_CCD_OK,
    H_DQ_COUNT,
    H_DQ_NEXT_SEQ,
    H_HELD,
    H_PRIO,
    H_RET_COUNT,
    H_RET_HEAD,
    H_RRD_OK,
    H_RTW_OK,
    H_WTR_OK,
    INT64_MAX,
    K_MQ_COUNT,
    K_MQ_HEAD,
    P_ATOM_BYTES,
    P_BURST_TICKS,
    P_DRAM_LATENCY,
    P_DRAM_SCHED,
    P_L2_BASE,
    P_N_BANK_GROUPS,
    P_N_BANKS,
    P_N_CHANNELS,
    P_SLICES_PER_CHANNEL,
    P_T_CCD,
    P_T_CCDL,
    P_T_CL,
    P_T_RAS,
    P_T_RC,
    P_T_RCD,
    P_T_RCDWR,
    P_T_RP,
    P_T_RRD,
    P_T_RTPL,
    P_T_RTW,
    P_T_WL,
    P_T_WTP,
    P_T_WTR,
    PK_WRITE,
    Q_ADDR,
    Q_INFO,
    Q_READY,
)
from warpsim.timing.memstate import core_of_tick, first_tick, info_bytes, info_ptype, info_sm

__all__ = ["dram_next_event", "tick_dram"]


@jit
def _is_write(info: int) -> bool:
    return info_ptype(info) == PK_WRITE


@jit
def _oldest(dq, ch: int) -> int:
    """The queue entry of channel ``ch`` that arrived first (lowest sequence number), or -1."""
    oldest = -1
    for e in range(dq.shape[1]):
        seq = dq[ch, e, Q_READY]
        if seq >= 0 and (oldest < 0 or seq < dq[ch, oldest, Q_READY]):
            oldest = e
    return oldest


@jit
def _first_free_bank(p, dq, bank, ch_s, ch: int) -> int:
    """The first bank (round robin from the pointer) that holds no request and has a queued
    one, or -1; ``fifo``: the oldest request's bank if it is free."""
    nbk = p[P_N_BANKS]
    if p[P_DRAM_SCHED] == DS_FIFO:
        oldest = _oldest(dq, ch)
        if oldest < 0:
            return -1
        b = dq[ch, oldest, D_BANK]
        return b if bank[ch, b, B_LEFT] == 0 else -1
    b = ch_s[ch, H_PRIO]
    for _ in range(nbk):
        if bank[ch, b, B_QUEUED] > 0 and bank[ch, b, B_LEFT] == 0:
            return b
        b += 1
        if b == nbk:
            b = 0
    return -1


@jit
def _bank_pick(p, dq, bank, ch: int, b: int) -> int:
    """Queue entry bank ``b`` takes next (GPGPU-Sim ``frfcfs_scheduler::schedule``): the oldest
    request of the bank's row streak; a new streak is the open row if a request wants it, else
    the row of the bank's oldest request. Updates ``B_STREAK``; -1 if the bank has none."""
    want = bank[ch, b, B_STREAK]
    if want < 0:
        want = bank[ch, b, B_ROW]
    oldest = -1
    oldest_want = -1
    n_want = 0
    for e in range(dq.shape[1]):
        seq = dq[ch, e, Q_READY]
        if seq < 0 or dq[ch, e, D_BANK] != b:
            continue
        if oldest < 0 or seq < dq[ch, oldest, Q_READY]:
            oldest = e
        if dq[ch, e, D_ROW] == want:
            n_want += 1
            if oldest_want < 0 or seq < dq[ch, oldest_want, Q_READY]:
                oldest_want = e
    if oldest < 0:
        return -1
    if oldest_want < 0:                     # new streak: the row of the oldest request
        want = dq[ch, oldest, D_ROW]
        oldest_want = oldest
        n_want = 0
        for e in range(dq.shape[1]):
            if dq[ch, e, Q_READY] >= 0 and dq[ch, e, D_BANK] == b and dq[ch, e, D_ROW] == want:
                n_want += 1
    bank[ch, b, B_STREAK] = want if n_want > 1 else -1
    return oldest_want


@jit
def _assign(p, dq, bank, ch_s, ch: int) -> bool:
    """Give at most one free bank a queued request (scheduler step 2)."""
    if p[P_DRAM_SCHED] == DS_FIFO:  # the oldest request, when its bank is free
        e = _oldest(dq, ch)
        if e < 0 or bank[ch, dq[ch, e, D_BANK], B_LEFT] != 0:
            return False
        b = dq[ch, e, D_BANK]
    else:
        b = _first_free_bank(p, dq, bank, ch_s, ch)
        if b < 0:
            return False
        e = _bank_pick(p, dq, bank, ch, b)
    info = dq[ch, e, Q_INFO]
    bank[ch, b, B_ADDR] = dq[ch, e, Q_ADDR]
    bank[ch, b, B_REQ_ROW] = dq[ch, e, D_ROW]
    bank[ch, b, B_QUEUED] -= 1
    bank[ch, b, B_INFO] = info
    bank[ch, b, B_LEFT] = max(1, (info_bytes(info) + p[P_ATOM_BYTES] - 1) // p[P_ATOM_BYTES])
    dq[ch, e, Q_READY] = -1
    ch_s[ch, H_DQ_COUNT] -= 1
    ch_s[ch, H_HELD] += 1
    ch_s[ch, H_PRIO] = (ch_s[ch, H_PRIO] + 1) % p[P_N_BANKS]
    return True


@jit
def _col_ok(p, bank, ch_s, ch: int, b: int) -> int:
    """Earliest tick of bank ``b``'s next column command ignoring the return queue, or
    INT64_MAX when its row is not open."""
    if bank[ch, b, B_ACTIVE] == 0 or bank[ch, b, B_ROW] != bank[ch, b, B_REQ_ROW]:
        return INT64_MAX
    g = b % p[P_N_BANK_GROUPS]
    t = max(ch_s[ch, H_CCD_OK], bank[ch, g, B_G_CCDL_OK])
    if _is_write(bank[ch, b, B_INFO]):
        return max(t, bank[ch, b, B_RCDWR_OK], ch_s[ch, H_RTW_OK],
                   ch_s[ch, H_BUS_FREE] - p[P_T_WL])
    return max(t, bank[ch, b, B_RCD_OK], ch_s[ch, H_WTR_OK], ch_s[ch, H_BUS_FREE] - p[P_T_CL])


@jit
def _row_ok(p, bank, ch_s, ch: int, b: int) -> int:
    """Earliest tick of bank ``b``'s next row command, or INT64_MAX when it needs none."""
    if bank[ch, b, B_ACTIVE] == 0:
        return max(ch_s[ch, H_RRD_OK], bank[ch, b, B_RP_OK], bank[ch, b, B_RC_OK])
    if bank[ch, b, B_ROW] == bank[ch, b, B_REQ_ROW]:
        return INT64_MAX
    g = b % p[P_N_BANK_GROUPS]
    return max(bank[ch, b, B_RAS_OK], bank[ch, b, B_WTP_OK], bank[ch, b, B_RTP_OK],
               bank[ch, g, B_G_RTPL_OK])


@jit
def _issue_col(p, clk, bank, ch_s, ret, act, counters, ch: int, b: int, k: int) -> None:
    """One column command of bank ``b``'s request at tick ``k``; retire it after its last."""
    addr = bank[ch, b, B_ADDR]
    info = bank[ch, b, B_INFO]
    sm = info_sm(info)
    g = b % p[P_N_BANK_GROUPS]
    burst = p[P_BURST_TICKS]
    ch_s[ch, H_CCD_OK] = k + p[P_T_CCD]
    bank[ch, g, B_G_CCDL_OK] = k + p[P_T_CCDL]
    counters[sm, C_DRAM_ROW_HITS] += 1 - bank[ch, b, B_FRESH]
    bank[ch, b, B_FRESH] = 0
    counters[sm, C_DRAM_BUSY_CYCLES] += burst
    if _is_write(info):
        data_end = k + p[P_T_WL] + burst
        ch_s[ch, H_WTR_OK] = k + p[P_T_WTR]
        bank[ch, b, B_WTP_OK] = k + p[P_T_WTP]
        counters[sm, C_DRAM_WRITES] += 1
        counters[sm, C_DRAM_WRITE_BYTES] += p[P_ATOM_BYTES]
    else:
        data_end = k + p[P_T_CL] + burst
        ch_s[ch, H_RTW_OK] = k + p[P_T_RTW]
        bank[ch, b, B_RTP_OK] = k + burst
        bank[ch, g, B_G_RTPL_OK] = k + p[P_T_RTPL]
        counters[sm, C_DRAM_READS] += 1
        counters[sm, C_DRAM_READ_BYTES] += p[P_ATOM_BYTES]
    ch_s[ch, H_BUS_FREE] = data_end
    bank[ch, b, B_LEFT] -= 1
    if bank[ch, b, B_LEFT] > 0:
        return
    ch_s[ch, H_HELD] -= 1
    act[A_DRAM_Q] -= 1
    if not _is_write(info):
        cap = ret.shape[1]
        i = (ch_s[ch, H_RET_HEAD] + ch_s[ch, H_RET_COUNT]) % cap
        ret[ch, i, Q_ADDR] = addr
        ret[ch, i, Q_INFO] = info
        ret[ch, i, Q_READY] = core_of_tick(data_end, clk[0, DOM_DRAM], clk[1, DOM_DRAM]) + \
            p[P_DRAM_LATENCY]
        ch_s[ch, H_RET_COUNT] += 1
        act[A_DRAM_RET] += 1


@jit
def _issue_row(p, bank, ch_s, counters, ch: int, b: int, k: int) -> None:
    """ACTIVATE (bank precharged) or PRECHARGE (another row open) for bank ``b`` at ``k``."""
    sm = info_sm(bank[ch, b, B_INFO])
    if bank[ch, b, B_ACTIVE] == 0:
        bank[ch, b, B_ROW] = bank[ch, b, B_REQ_ROW]
        bank[ch, b, B_ACTIVE] = 1
        bank[ch, b, B_FRESH] = 1
        ch_s[ch, H_RRD_OK] = k + p[P_T_RRD]
        bank[ch, b, B_RCD_OK] = k + p[P_T_RCD]
        bank[ch, b, B_RCDWR_OK] = k + p[P_T_RCDWR]
        bank[ch, b, B_RAS_OK] = k + p[P_T_RAS]
        bank[ch, b, B_RC_OK] = k + p[P_T_RC]
        counters[sm, C_DRAM_ACTIVATES] += 1
    else:
        bank[ch, b, B_ACTIVE] = 0
        bank[ch, b, B_RP_OK] = k + p[P_T_RP]
        counters[sm, C_DRAM_PRECHARGES] += 1
    ch_s[ch, H_PRIO] = (b + 1) % p[P_N_BANKS]


@jit
def _commands(p, clk, bank, ch_s, ret, act, counters, ch: int, k: int) -> bool:
    """At most one column and one row command at tick ``k`` (scheduler step 3)."""
    nbk = p[P_N_BANKS]
    col = False
    row = False
    ret_full = ch_s[ch, H_RET_COUNT] >= ret.shape[1]
    for i in range(nbk):
        b = (i + ch_s[ch, H_PRIO]) % nbk
        if bank[ch, b, B_LEFT] == 0:
            continue
        if not col and _col_ok(p, bank, ch_s, ch, b) <= k and \
                not (ret_full and not _is_write(bank[ch, b, B_INFO])):
            _issue_col(p, clk, bank, ch_s, ret, act, counters, ch, b, k)
            col = True
        elif not col and not row and _row_ok(p, bank, ch_s, ch, b) <= k:
            _issue_row(p, bank, ch_s, counters, ch, b, k)
            row = True
    return col or row


@jit
def _admit(p, ca, dq, bank, ch_s, act, ch: int, k: int, cycle: int) -> bool:
    """Move at most one request per slice of channel ``ch`` into its scheduler queue."""
    moved = False
    spc = p[P_SLICES_PER_CHANNEL]
    cap = dq.shape[1]
    for j in range(spc):
        s = ch * spc + (k + j) % spc
        c = s + p[P_L2_BASE]
        if ca.cnt[c, K_MQ_COUNT] == 0 or ch_s[ch, H_DQ_COUNT] >= cap:
            continue
        i = ca.cnt[c, K_MQ_HEAD]
        if ca.mq[c, i, Q_READY] > cycle:
            continue
        addr = ca.mq[c, i, Q_ADDR]
        for e in range(cap):
            if dq[ch, e, Q_READY] < 0:
                b = addr_bank(p, addr)
                dq[ch, e, Q_ADDR] = addr
                dq[ch, e, Q_INFO] = ca.mq[c, i, Q_INFO]
                dq[ch, e, Q_READY] = ch_s[ch, H_DQ_NEXT_SEQ]
                dq[ch, e, D_BANK] = b
                dq[ch, e, D_ROW] = addr_row(p, addr)
                bank[ch, b, B_QUEUED] += 1
                ch_s[ch, H_DQ_NEXT_SEQ] += 1
                break
        ch_s[ch, H_DQ_COUNT] += 1
        mq_pop(ca, c)
        act[A_L2_MQ] -= 1
        act[A_DRAM_Q] += 1
        moved = True
    return moved


@jit
def tick_dram(p, clk, ca, dq, bank, ch_s, ret, act, counters, k: int, cycle: int) -> bool:
    """DRAM tick ``k`` (inside core cycle ``cycle``) of every channel; True when anything moved."""
    progress = False
    spc = p[P_SLICES_PER_CHANNEL]
    for ch in range(p[P_N_CHANNELS]):
        waiting = 0
        for s in range(ch * spc, (ch + 1) * spc):
            waiting += ca.cnt[s + p[P_L2_BASE], K_MQ_COUNT]
        if waiting > 0 and _admit(p, ca, dq, bank, ch_s, act, ch, k, cycle):
            progress = True
        if ch_s[ch, H_DQ_COUNT] > 0 and ch_s[ch, H_HELD] < p[P_N_BANKS] and \
                _assign(p, dq, bank, ch_s, ch):
            progress = True
        if ch_s[ch, H_HELD] > 0 and _commands(p, clk, bank, ch_s, ret, act, counters, ch, k):
            progress = True
    return progress


@jit
def dram_next_event(p, clk, ca, dq, bank, ch_s, act, cycle: int) -> int:
    """Earliest core cycle >= ``cycle`` at which a DRAM tick could do something (a lower bound:
    the ticks before it change nothing)."""
    ev = INT64_MAX
    if act[A_L2_MQ] + act[A_DRAM_Q] == 0:
        return ev
    num = clk[0, DOM_DRAM]
    den = clk[1, DOM_DRAM]
    k0 = first_tick(cycle, num, den)
    spc = p[P_SLICES_PER_CHANNEL]
    for ch in range(p[P_N_CHANNELS]):
        if ch_s[ch, H_DQ_COUNT] < dq.shape[1]:
            for s in range(ch * spc, (ch + 1) * spc):
                c = s + p[P_L2_BASE]
                if ca.cnt[c, K_MQ_COUNT] > 0:
                    r = max(ca.mq[c, ca.cnt[c, K_MQ_HEAD], Q_READY], cycle)
                    ev = min(ev, core_of_tick(first_tick(r, num, den), num, den))
        if ch_s[ch, H_DQ_COUNT] > 0 and ch_s[ch, H_HELD] < p[P_N_BANKS] and \
                _first_free_bank(p, dq, bank, ch_s, ch) >= 0:
            return cycle
        if ch_s[ch, H_HELD] == 0:
            continue
        for b in range(p[P_N_BANKS]):
            if bank[ch, b, B_LEFT] == 0:
                continue
            t = min(_col_ok(p, bank, ch_s, ch, b), _row_ok(p, bank, ch_s, ch, b))
            if t < INT64_MAX:
                ev = min(ev, core_of_tick(max(t, k0), num, den))
    return ev
