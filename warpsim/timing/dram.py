"""DRAM channels: scheduler queue, banks with open rows, GDDR timing, data bus, return queue.

All times here are DRAM command-clock ticks (``clocks.dram_mhz``). Per tick each channel first
takes at most one request from each of its L2 slices' miss queues into its scheduler queue
(``dram.sched_queue_entries``), then issues at most one request's column commands and at most
one row command pair (GPGPU-Sim issues one column and one row command per DRAM cycle):

- column commands, for a request to its bank's open row: the bank has no column command
  scheduled after this tick and is past tRCD, the data bus is free by ``now + CAS`` (tCL for
  reads, tWL for writes), and for a read the return queue has room. ``frfcfs`` takes the
  one whose first column command can issue earliest (tCCD after the channel's last column
  command, tCCDL in its bank group), the oldest among equals; ``fifo`` only the oldest
  request of the queue;
- row commands, for a request to a row that is not open: its bank's column commands have all
  been issued and no queued request wants the bank's open row (FR-FCFS keeps a row open while
  it has hits). ``frfcfs`` takes the oldest such request, ``fifo`` only the oldest request.
  PRECHARGE (row open; not before tRAS after the ACTIVATE, tRTPL after a read, tWR after write
  data) and ACTIVATE (tRP after the precharge, tRC after the bank's previous ACTIVATE, tRRD
  after the channel's) are planned then; the request becomes a row hit whose column commands
  wait for tRCD. So one bank's precharge and activate overlap other banks' data transfers.

A request's ``ceil(bytes / atom)`` column commands are planned at once, ``step = max(burst
ticks, tCCDL)`` apart (tCCD/tCCDL after the channel's previous column command, tCDLR after write
data for a read). An atom is ``n_chips_per_channel x bus_width_bytes x n_burst_beats`` bytes
(GTX480: 64 B), a burst occupies the bus ``n_burst_beats / n_transfers_per_clock`` ticks
(GTX480: 2). Unloaded read of one 128 B line: row hit ``tCL + step + burst`` (17), closed bank
``tRCD + tCL + step + burst`` (29), row conflict ``tRP + tRCD + tCL + step + burst`` (41) ticks.
Read data reaches the L2 ``dram.latency_cycles`` core cycles after its last burst.

Counters (row of the requesting SM): ``dram_reads``/``dram_writes`` count bursts (column
commands, as GPGPU-Sim's n_rd/n_wr), ``dram_row_hits`` the bursts that found their row open,
``dram_busy_cycles`` the DRAM ticks the bus transferred data.

Follows: GPGPU-Sim 4.2 ``dram.cc`` (``dram_t::cycle``: per cycle one column and one row
command, banks served from their own request; ``issue_row_command`` / ``issue_col_command``) and
``dram_sched.cc`` (FR-FCFS per bank), timing parameters of ``-gpgpu_dram_timing_opt``,
reference/gpu-simulators.md §2.
Assumptions: [A] bank group = bank % n_bank_groups; [A] a request's column commands are
planned when it is picked (no interleaving with other requests' column commands).
Deviations: no refresh, no read-to-write bus turnaround, no power-down.
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
    B_ACT_OK,
    B_BUSY,
    B_CLAIM,
    B_COL_OK,
    B_FRESH,
    B_PRE_OK,
    B_ROW,
    DOM_DRAM,
    DS_FIFO,
    H_BUS_FREE,
    H_DQ_COUNT,
    H_DQ_NEXT_SEQ,
    H_LAST_ACT,
    H_LAST_COL,
    H_LAST_COL_BG,
    H_RET_COUNT,
    H_RET_HEAD,
    H_WR_END,
    INT64_MAX,
    K_MQ_COUNT,
    K_MQ_HEAD,
    P_ATOM_BYTES,
    P_BURST_TICKS,
    P_DRAM_LATENCY,
    P_DRAM_SCHED,
    P_L2_BASE,
    P_N_BANK_GROUPS,
    P_N_CHANNELS,
    P_SLICES_PER_CHANNEL,
    P_T_CCD,
    P_T_CCDL,
    P_T_CDLR,
    P_T_CL,
    P_T_RAS,
    P_T_RC,
    P_T_RCD,
    P_T_RP,
    P_T_RRD,
    P_T_RTPL,
    P_T_WL,
    P_T_WR,
    PK_WRITE,
    Q_ADDR,
    Q_INFO,
    Q_READY,
)
from warpsim.timing.memstate import core_of_tick, first_tick, info_bytes, info_ptype, info_sm

__all__ = ["dram_next_event", "dram_step", "tick_dram"]


@jit
def dram_step(p) -> int:
    """DRAM ticks between consecutive column commands of one request (same bank)."""
    ccd = p[P_T_CCDL] if p[P_N_BANK_GROUPS] > 1 else p[P_T_CCD]
    return max(p[P_BURST_TICKS], ccd)


@jit
def _cas(p, info: int) -> int:
    return p[P_T_WL] if info_ptype(info) == PK_WRITE else p[P_T_CL]


@jit
def _is_hit(p, dq, bank, ch: int, e: int) -> bool:
    """Scheduler entry ``e`` targets the open row of its bank."""
    addr = dq[ch, e, Q_ADDR]
    return bank[ch, addr_bank(p, addr), B_ROW] == addr_row(p, addr)


@jit
def _col_ready(p, dq, bank, ch_s, ret_cap: int, ch: int, e: int, k: int) -> bool:
    """Entry ``e`` (a row hit) may issue its column commands at tick ``k``: its bank has no
    column command scheduled after ``k`` and its row is open (tRCD passed), the data bus is free
    by ``k + CAS`` and, for a read, the return queue has room."""
    info = dq[ch, e, Q_INFO]
    b = addr_bank(p, dq[ch, e, Q_ADDR])
    if bank[ch, b, B_BUSY] > k or bank[ch, b, B_COL_OK] > k or \
            ch_s[ch, H_BUS_FREE] > k + _cas(p, info):
        return False
    if info_ptype(info) != PK_WRITE and ch_s[ch, H_RET_COUNT] >= ret_cap:
        return False
    return True


@jit
def _oldest(dq, ch: int) -> int:
    oldest = -1
    for e in range(dq.shape[1]):
        seq = dq[ch, e, Q_READY]
        if seq >= 0 and (oldest < 0 or seq < dq[ch, oldest, Q_READY]):
            oldest = e
    return oldest


@jit
def _pick_col(p, dq, bank, ch_s, ret_cap: int, ch: int, k: int) -> int:
    """Entry whose column commands issue at tick ``k``, or -1: ``frfcfs`` the oldest ready row
    hit, ``fifo`` the oldest request if it is a ready row hit."""
    if ch_s[ch, H_BUS_FREE] > k + max(p[P_T_CL], p[P_T_WL]):
        return -1                                   # no request can use the bus yet
    if p[P_DRAM_SCHED] == DS_FIFO:
        e = _oldest(dq, ch)
        if e >= 0 and _is_hit(p, dq, bank, ch, e) and \
                _col_ready(p, dq, bank, ch_s, ret_cap, ch, e, k):
            return e
        return -1
    best = -1
    best_t = 0
    for e in range(dq.shape[1]):
        seq = dq[ch, e, Q_READY]
        if seq < 0:
            continue
        if _is_hit(p, dq, bank, ch, e) and _col_ready(p, dq, bank, ch_s, ret_cap, ch, e, k):
            t = _col_tick(p, dq, bank, ch_s, ch, e, k)
            if best < 0 or t < best_t or (t == best_t and seq < dq[ch, best, Q_READY]):
                best = e
                best_t = t
    return best


@jit
def _col_tick(p, dq, bank, ch_s, ch: int, e: int, k: int) -> int:
    """Tick of entry ``e``'s first column command if it were issued at ``k`` (tCCD or, in the
    last command's bank group, tCCDL after it; tCDLR after write data for a read)."""
    b = addr_bank(p, dq[ch, e, Q_ADDR])
    ccd = p[P_T_CCDL] if b % p[P_N_BANK_GROUPS] == ch_s[ch, H_LAST_COL_BG] else p[P_T_CCD]
    col = max(k, bank[ch, b, B_COL_OK], ch_s[ch, H_LAST_COL] + ccd)
    if info_ptype(dq[ch, e, Q_INFO]) != PK_WRITE:
        col = max(col, ch_s[ch, H_WR_END] + p[P_T_CDLR])
    return col


@jit
def _mark_claims(p, dq, bank, ch: int) -> None:
    """``B_CLAIM`` = 1 for the banks of channel ``ch`` whose open row a queued request wants."""
    for b in range(bank.shape[1]):
        bank[ch, b, B_CLAIM] = 0
    for e in range(dq.shape[1]):
        if dq[ch, e, Q_READY] >= 0 and _is_hit(p, dq, bank, ch, e):
            bank[ch, addr_bank(p, dq[ch, e, Q_ADDR]), B_CLAIM] = 1


@jit
def _pick_row(p, dq, bank, ch: int, k: int) -> int:
    """Entry whose bank gets PRECHARGE/ACTIVATE at tick ``k``, or -1: the oldest request to a
    row that is not open, in a bank whose column commands are all issued and whose open row no
    queued request wants (FR-FCFS keeps a row open while it has hits); ``fifo``: only the
    oldest request."""
    if p[P_DRAM_SCHED] == DS_FIFO:
        e = _oldest(dq, ch)
        if e < 0 or _is_hit(p, dq, bank, ch, e) or \
                bank[ch, addr_bank(p, dq[ch, e, Q_ADDR]), B_BUSY] > k:
            return -1
        return e
    _mark_claims(p, dq, bank, ch)
    best = -1
    for e in range(dq.shape[1]):
        seq = dq[ch, e, Q_READY]
        if seq < 0 or (best >= 0 and seq > dq[ch, best, Q_READY]):
            continue
        b = addr_bank(p, dq[ch, e, Q_ADDR])
        if bank[ch, b, B_CLAIM] == 0 and bank[ch, b, B_BUSY] <= k:
            best = e
    return best


@jit
def _issue_row(p, dq, bank, ch_s, counters, ch: int, e: int, k: int) -> None:
    """PRECHARGE (if a row is open; not before tRAS after its ACTIVATE, tRTPL after a read,
    tWR after write data) and ACTIVATE (tRP after the precharge, tRC after the bank's previous
    ACTIVATE, tRRD after the channel's) for entry ``e``, planned from tick ``k``."""
    addr = dq[ch, e, Q_ADDR]
    sm = info_sm(dq[ch, e, Q_INFO])
    b = addr_bank(p, addr)
    t_act = k
    if bank[ch, b, B_ROW] >= 0:
        t_act = max(k, bank[ch, b, B_PRE_OK]) + p[P_T_RP]
        counters[sm, C_DRAM_PRECHARGES] += 1
    t_act = max(t_act, bank[ch, b, B_ACT_OK], ch_s[ch, H_LAST_ACT] + p[P_T_RRD])
    counters[sm, C_DRAM_ACTIVATES] += 1
    ch_s[ch, H_LAST_ACT] = t_act
    bank[ch, b, B_ACT_OK] = t_act + p[P_T_RC]
    bank[ch, b, B_PRE_OK] = t_act + p[P_T_RAS]
    bank[ch, b, B_COL_OK] = t_act + p[P_T_RCD]
    bank[ch, b, B_ROW] = addr_row(p, addr)
    bank[ch, b, B_FRESH] = 1


@jit
def _issue_col(p, clk, dq, bank, ch_s, ret, act, counters, ch: int, e: int,
               k: int) -> None:
    """Plan the column commands of entry ``e`` (a row hit) from tick ``k`` and retire it."""
    addr = dq[ch, e, Q_ADDR]
    info = dq[ch, e, Q_INFO]
    sm = info_sm(info)
    is_write = info_ptype(info) == PK_WRITE
    b = addr_bank(p, addr)
    bg = b % p[P_N_BANK_GROUPS]
    n_bursts = max(1, (info_bytes(info) + p[P_ATOM_BYTES] - 1) // p[P_ATOM_BYTES])
    ccd = p[P_T_CCDL] if bg == ch_s[ch, H_LAST_COL_BG] else p[P_T_CCD]
    col = max(k, bank[ch, b, B_COL_OK], ch_s[ch, H_LAST_COL] + ccd)
    if not is_write:
        col = max(col, ch_s[ch, H_WR_END] + p[P_T_CDLR])
    cas = _cas(p, info)
    data_start = max(col + cas, ch_s[ch, H_BUS_FREE])
    col = data_start - cas
    step = dram_step(p)
    last_col = col + (n_bursts - 1) * step
    data_end = data_start + (n_bursts - 1) * step + p[P_BURST_TICKS]
    bank[ch, b, B_BUSY] = last_col
    ch_s[ch, H_LAST_COL] = last_col
    ch_s[ch, H_LAST_COL_BG] = bg
    ch_s[ch, H_BUS_FREE] = data_end
    nbytes = n_bursts * p[P_ATOM_BYTES]
    counters[sm, C_DRAM_ROW_HITS] += n_bursts - bank[ch, b, B_FRESH]
    bank[ch, b, B_FRESH] = 0
    counters[sm, C_DRAM_BUSY_CYCLES] += n_bursts * p[P_BURST_TICKS]
    if is_write:
        bank[ch, b, B_PRE_OK] = max(bank[ch, b, B_PRE_OK], data_end + p[P_T_WR])
        ch_s[ch, H_WR_END] = data_end
        counters[sm, C_DRAM_WRITES] += n_bursts
        counters[sm, C_DRAM_WRITE_BYTES] += nbytes
    else:
        bank[ch, b, B_PRE_OK] = max(bank[ch, b, B_PRE_OK], last_col + p[P_T_RTPL])
        counters[sm, C_DRAM_READS] += n_bursts
        counters[sm, C_DRAM_READ_BYTES] += nbytes
        cap = ret.shape[1]
        i = (ch_s[ch, H_RET_HEAD] + ch_s[ch, H_RET_COUNT]) % cap
        num = clk[0, DOM_DRAM]
        den = clk[1, DOM_DRAM]
        ret[ch, i, Q_ADDR] = addr
        ret[ch, i, Q_INFO] = info
        ret[ch, i, Q_READY] = core_of_tick(data_end, num, den) + p[P_DRAM_LATENCY]
        ch_s[ch, H_RET_COUNT] += 1
        act[A_DRAM_RET] += 1
    dq[ch, e, Q_READY] = -1
    ch_s[ch, H_DQ_COUNT] -= 1
    act[A_DRAM_Q] -= 1


@jit
def _admit(p, ca, dq, ch_s, act, ch: int, k: int, cycle: int) -> bool:
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
        for e in range(cap):
            if dq[ch, e, Q_READY] < 0:
                dq[ch, e, Q_ADDR] = ca.mq[c, i, Q_ADDR]
                dq[ch, e, Q_INFO] = ca.mq[c, i, Q_INFO]
                dq[ch, e, Q_READY] = ch_s[ch, H_DQ_NEXT_SEQ]
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
        if waiting > 0 and _admit(p, ca, dq, ch_s, act, ch, k, cycle):
            progress = True
        if ch_s[ch, H_DQ_COUNT] > 0:
            e = _pick_col(p, dq, bank, ch_s, ret.shape[1], ch, k)
            if e >= 0:
                _issue_col(p, clk, dq, bank, ch_s, ret, act, counters, ch, e, k)
                progress = True
        if ch_s[ch, H_DQ_COUNT] > 0:
            e = _pick_row(p, dq, bank, ch, k)
            if e >= 0:
                _issue_row(p, dq, bank, ch_s, counters, ch, e, k)
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
        if ch_s[ch, H_DQ_COUNT] == 0:
            continue
        _mark_claims(p, dq, bank, ch)
        for e in range(dq.shape[1]):
            if dq[ch, e, Q_READY] < 0:
                continue
            b = addr_bank(p, dq[ch, e, Q_ADDR])
            t = max(k0, bank[ch, b, B_BUSY])
            if _is_hit(p, dq, bank, ch, e):
                t = max(t, bank[ch, b, B_COL_OK],
                        ch_s[ch, H_BUS_FREE] - _cas(p, dq[ch, e, Q_INFO]))
            elif bank[ch, b, B_CLAIM] != 0 and p[P_DRAM_SCHED] != DS_FIFO:
                continue                    # waits for the bank's row hits (their times count)
            ev = min(ev, core_of_tick(t, num, den))
    return ev
