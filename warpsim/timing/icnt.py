"""Interconnect: a request crossbar (SMs -> L2 slices) and a reply crossbar (slices -> SMs).

Times are interconnect-clock ticks (``clocks.icnt_mhz``). A packet of ``b`` bytes is
``flits = ceil((MEM_CTRL_BYTES + data bytes) / icnt.flit_bytes)`` flits (a read request carries
no data: 1 flit; a 128 B reply with 32 B flits: 5). Every input and every output port moves one
flit per tick, so a packet holds its input and its output port for ``flits`` ticks. A packet
granted at tick ``t`` arrives at tick ``t + icnt.latency_cycles + flits - 1`` and is pushed into
the destination queue at grant time (the grant reserves the slot: ROP queue of the slice,
ejection buffer of the SM), so a full destination back-pressures the source. A slice's ROP
queue is GPGPU-Sim 4.2's pair of an unbounded ROP delay line and the icnt_L2 queue of
``l2.rop_queue_entries`` sector requests behind it: the slice takes a packet while the
requests past the delay leave room for one line's sectors (until 2026-11-26 the delay itself
counted against ``l2.rop_queue_entries``, capping a slice at 64 / 120 packets per cycle).

Arbitration per tick: inputs are visited in round-robin order starting at ``tick % n_inputs``
(``ICNT_ARBITRATION = ARB_ROUND_ROBIN``; ``ARB_FIXED`` starts at input 0); an input whose port is
free sends the first ready head packet (an SM chooses among its L1D, L1C and L1T miss queues,
again round robin from ``tick % 3``) whose output port is free and whose destination has room.
The pointer comes from the clock, not from a state variable, so idle skipping cannot change it.
``icnt_stall_cycles`` adds, per request packet, the core cycles between the moment its head was
ready and its grant.

Follows: GPGPU-Sim 3.x ``icnt_wrapper`` with the GTX480 one-stage crossbar (``fly``, k = 27,
request and reply subnets), reference/gpu-simulators.md §2.
Assumptions: [A] one flit per port per tick, no virtual channels or input speedup
(``icnt.n_vcs``, ``vc_buffer_entries``, ``n_input_speedup`` are not used); [A] an SM with
several SMs per cluster still has its own port.
Deviations: the input selects one packet per tick instead of an iSLIP request/grant/accept
exchange.
"""

from __future__ import annotations

from warpsim._jit import jit
from warpsim.stats import C_ICNT_FLITS_TO_MEM, C_ICNT_FLITS_TO_SM, C_ICNT_STALL_CYCLES
from warpsim.timing.cache import mq_pop
from warpsim.timing.l2 import addr_slice, group_units
from warpsim.timing.memconsts import (
    A_EJECT,
    A_L1_MQ,
    A_L2_RQ,
    A_ROP,
    ARB_ROUND_ROBIN,
    DOM_ICNT,
    G_LINE_SHIFT,
    G_SECTOR_SHIFT,
    INT64_MAX,
    K_MQ_COUNT,
    K_MQ_HEAD,
    MEM_CTRL_BYTES,
    N_L1_KINDS,
    P_FLIT_BYTES,
    P_ICNT_ARB,
    P_ICNT_LATENCY,
    P_L2_BASE,
    P_N_SLICES,
    P_N_SMS,
    P_ROP_ENTRIES,
    P_ROP_LATENCY,
    PK_GROUP,
    PK_READ,
    Q_ADDR,
    Q_INFO,
    Q_READY,
    S_EJ_COUNT,
    S_EJ_HEAD,
    S_REP_OUT_BUSY,
    S_REQ_IN_BUSY,
    X_REP_IN_BUSY,
    X_REQ_OUT_BUSY,
    X_ROP_COUNT,
    X_ROP_GROUPS,
    X_ROP_HEAD,
    X_ROP_SEC,
    X_RQ_COUNT,
    X_RQ_HEAD,
)
from warpsim.timing.memstate import core_of_tick, first_tick, info_bytes, info_ptype, info_sm

__all__ = ["icnt_next_event", "request_flits", "reply_flits", "tick_icnt"]


@jit
def request_flits(p, info: int) -> int:
    """Flits of a request packet (reads carry no data)."""
    pt = info_ptype(info)
    nbytes = MEM_CTRL_BYTES if pt == PK_READ or pt == PK_GROUP else MEM_CTRL_BYTES + \
        info_bytes(info)
    return (nbytes + p[P_FLIT_BYTES] - 1) // p[P_FLIT_BYTES]


@jit
def reply_flits(p, info: int) -> int:
    """Flits of a reply packet (header plus the data the request asked for)."""
    return (MEM_CTRL_BYTES + info_bytes(info) + p[P_FLIT_BYTES] - 1) // p[P_FLIT_BYTES]


@jit
def _rop_room(p, ca, sl_s, rop, dst: int, cycle: int, info: int) -> bool:
    """Slice ``dst`` takes a packet (GPGPU-Sim 4.2 ``memory_sub_partition``): requests wait out
    the ROP delay in an unbounded delay line, then in the icnt_L2 queue of
    ``l2.rop_queue_entries`` sector requests; a packet is taken while that queue has room for
    one line's sectors (a group read ``info``: for all its lookups). The ring's entries are in
    arrival order and their ready times do not decrease, so the entries past the delay are a
    prefix."""
    cnt = sl_s[dst, X_ROP_COUNT]
    if cnt >= rop.shape[1]:
        return False
    c = dst + p[P_L2_BASE]
    shift = ca.geo[c, G_LINE_SHIFT]
    sh = ca.geo[c, G_SECTOR_SHIFT]
    per_line = 1 << (shift - sh)
    cap = p[P_ROP_ENTRIES]
    need = per_line
    if info_ptype(info) == PK_GROUP:
        need = max(per_line, group_units(ca, c, info))
    if sl_s[dst, X_ROP_GROUPS] == 0 and cnt * per_line + need <= cap:
        return True                                 # even if every entry were past the delay
    used = 0
    head = sl_s[dst, X_ROP_HEAD]
    for j in range(cnt):
        slot = (head + j) % rop.shape[1]
        if rop[dst, slot, Q_READY] > cycle:
            break
        n = 1
        e_info = rop[dst, slot, Q_INFO]
        if info_ptype(e_info) == PK_GROUP:
            n = group_units(ca, c, e_info)
        elif sh < shift:
            first = (rop[dst, slot, Q_ADDR] >> sh) & (per_line - 1)
            n = min(max(1, info_bytes(e_info) >> sh), per_line - first)
        if j == 0:
            n -= sl_s[dst, X_ROP_SEC]
        used += n
    return used + need <= cap


@jit
def _requests(p, clk, ca, sm_s, sl_s, rop, act, counters, k: int, cycle: int) -> bool:
    n = p[P_N_SMS]
    rr = p[P_ICNT_ARB] == ARB_ROUND_ROBIN
    sm = (k % n if rr else 0) - 1  # round robin without a division per input
    num = clk[0, DOM_ICNT]
    den = clk[1, DOM_ICNT]
    moved = False
    for _ in range(n):
        sm += 1
        if sm == n:
            sm = 0
        if sm_s[sm, S_REQ_IN_BUSY] > k:
            continue
        for q in range(N_L1_KINDS):
            c = sm * N_L1_KINDS + ((k + q) % N_L1_KINDS if rr else q)
            if ca.cnt[c, K_MQ_COUNT] == 0:
                continue
            i = ca.cnt[c, K_MQ_HEAD]
            ready = ca.mq[c, i, Q_READY]
            if ready > cycle:
                continue
            addr = ca.mq[c, i, Q_ADDR]
            dst = addr_slice(p, addr)
            info = ca.mq[c, i, Q_INFO]
            if sl_s[dst, X_REQ_OUT_BUSY] > k or not _rop_room(p, ca, sl_s, rop, dst, cycle,
                                                               info):
                continue
            flits = request_flits(p, info)
            arrive = k + p[P_ICNT_LATENCY] + flits - 1
            slot = (sl_s[dst, X_ROP_HEAD] + sl_s[dst, X_ROP_COUNT]) % rop.shape[1]
            rop[dst, slot, Q_ADDR] = addr
            rop[dst, slot, Q_INFO] = info
            rop[dst, slot, Q_READY] = core_of_tick(arrive, num, den) + p[P_ROP_LATENCY]
            sl_s[dst, X_ROP_COUNT] += 1
            if info_ptype(info) == PK_GROUP:
                sl_s[dst, X_ROP_GROUPS] += 1
            sm_s[sm, S_REQ_IN_BUSY] = k + flits
            sl_s[dst, X_REQ_OUT_BUSY] = k + flits
            mq_pop(ca, c)
            act[A_L1_MQ] -= 1
            act[A_ROP] += 1
            counters[info_sm(info), C_ICNT_FLITS_TO_MEM] += flits
            counters[info_sm(info), C_ICNT_STALL_CYCLES] += cycle - ready
            moved = True
            break
    return moved


@jit
def _replies(p, clk, sm_s, sl_s, rq, ej, act, counters, k: int, cycle: int) -> bool:
    n = p[P_N_SLICES]
    s = (k % n if p[P_ICNT_ARB] == ARB_ROUND_ROBIN else 0) - 1  # no division per slice
    num = clk[0, DOM_ICNT]
    den = clk[1, DOM_ICNT]
    moved = False
    for _ in range(n):
        s += 1
        if s == n:
            s = 0
        if sl_s[s, X_RQ_COUNT] == 0 or sl_s[s, X_REP_IN_BUSY] > k:
            continue
        i = sl_s[s, X_RQ_HEAD]
        if rq[s, i, Q_READY] > cycle:
            continue
        info = rq[s, i, Q_INFO]
        sm = info_sm(info)
        if sm_s[sm, S_REP_OUT_BUSY] > k or sm_s[sm, S_EJ_COUNT] >= ej.shape[1]:
            continue
        flits = reply_flits(p, info)
        arrive = k + p[P_ICNT_LATENCY] + flits - 1
        slot = (sm_s[sm, S_EJ_HEAD] + sm_s[sm, S_EJ_COUNT]) % ej.shape[1]
        ej[sm, slot, Q_ADDR] = rq[s, i, Q_ADDR]
        ej[sm, slot, Q_INFO] = info
        ej[sm, slot, Q_READY] = core_of_tick(arrive, num, den)
        sm_s[sm, S_EJ_COUNT] += 1
        sl_s[s, X_REP_IN_BUSY] = k + flits
        sm_s[sm, S_REP_OUT_BUSY] = k + flits
        sl_s[s, X_RQ_HEAD] = (i + 1) % rq.shape[1]
        sl_s[s, X_RQ_COUNT] -= 1
        act[A_L2_RQ] -= 1
        act[A_EJECT] += 1
        counters[sm, C_ICNT_FLITS_TO_SM] += flits
        moved = True
    return moved


@jit
def tick_icnt(p, clk, ca, sm_s, sl_s, rop, rq, ej, act, counters, k: int,
              cycle: int) -> bool:
    """Interconnect tick ``k`` (inside core cycle ``cycle``): both networks."""
    progress = False
    if act[A_L2_RQ] > 0 and _replies(p, clk, sm_s, sl_s, rq, ej,
                                             act, counters, k, cycle):
        progress = True
    if act[A_L1_MQ] > 0 and _requests(p, clk, ca, sm_s, sl_s,
                                              rop, act, counters, k, cycle):
        progress = True
    return progress


@jit
def _at(clk, ready: int, busy: int, cycle: int) -> int:
    num = clk[0, DOM_ICNT]
    den = clk[1, DOM_ICNT]
    t = max(first_tick(max(ready, cycle), num, den), busy)
    return core_of_tick(t, num, den)


@jit
def icnt_next_event(p, clk, ca, sm_s, sl_s, rq, act, cycle: int) -> int:
    """Earliest core cycle >= ``cycle`` at which an interconnect tick could grant a packet (a
    lower bound from ready times and port occupancy)."""
    ev = INT64_MAX
    if act[A_L1_MQ] > 0:
        for sm in range(p[P_N_SMS]):
            for q in range(N_L1_KINDS):
                c = sm * N_L1_KINDS + q
                if ca.cnt[c, K_MQ_COUNT] == 0:
                    continue
                i = ca.cnt[c, K_MQ_HEAD]
                dst = addr_slice(p, ca.mq[c, i, Q_ADDR])
                busy = max(sm_s[sm, S_REQ_IN_BUSY], sl_s[dst, X_REQ_OUT_BUSY])
                ev = min(ev, _at(clk, ca.mq[c, i, Q_READY], busy, cycle))
    if act[A_L2_RQ] > 0:
        for s in range(p[P_N_SLICES]):
            if sl_s[s, X_RQ_COUNT] == 0:
                continue
            i = sl_s[s, X_RQ_HEAD]
            sm = info_sm(rq[s, i, Q_INFO])
            busy = max(sl_s[s, X_REP_IN_BUSY], sm_s[sm, S_REP_OUT_BUSY])
            ev = min(ev, _at(clk, rq[s, i, Q_READY], busy, cycle))
    return ev
