"""Memory-system state: structure-of-arrays NamedTuples, packet layout and clock-domain arithmetic.

Every packet queue is a bounded ring buffer ``<q>[owner, slot, Q_ADDR / Q_INFO / Q_READY]``
whose head and count sit in the owner's scalar row (``sm_s``, ``sl_s``, ``ch_s``, ``cnt``);
``Q_READY`` is always a core cycle (the cycle from which the consumer may take the entry).
Times inside the interconnect and DRAM are counted in their own clock's ticks (port busy-until
fields, ``bank``, ``ch_s``). Small per-owner scalars are grouped into one ``[owner, field]``
array with ``*_`` field constants from memconsts.py: numba's compile time grows quickly with the
number of NamedTuple fields (a 70-field state cost about 4 s per jitted function).

A packet is ``(addr, info)``: ``addr`` the byte address of the line, ``info`` an int64 with
the requesting SM (bits 0-15), packet type ``PK_*`` (16-19), source L1 kind or ``SRC_*``
(20-23), payload bytes (24-39) and a bypass slot (40-55).

Clock domains: with ``num / den`` = f_domain / f_core as reduced integers (kHz), domain tick
``k`` happens in core cycle ``floor(k * den / num)`` and core cycle ``c`` holds the ticks
``ceil(c * num / den) .. ceil((c + 1) * num / den) - 1``: a pure function of the cycle, so
skipping idle cycles cannot shift a tick.

Follows: STYLE.md §2.4 (SoA state, axes written ``owner_field[axis, axis]``).
Assumptions: [A] a slot for every queue entry is fixed at construction (no growth).
"""

from __future__ import annotations

from math import gcd
from typing import Any, NamedTuple

import numpy as np

from warpsim._jit import jit
from warpsim.arch import GPUConfig
from warpsim.arch.addr_mapping import parse_addr_mapping
from warpsim.timing.memconsts import (
    B_ACTIVE,
    B_ADDR,
    B_FRESH,
    B_INFO,
    B_LEFT,
    B_QUEUED,
    B_REQ_ROW,
    B_ROW,
    B_STREAK,
    C_MEM_FIRST,
    C_MEM_LAST,
    G_MQ_ENTRIES,
    G_MSHR_ENTRIES,
    G_MSHR_MAX_MERGE,
    G_N_SETS,
    G_WAYS,
    H_CCD_OK,
    H_RRD_OK,
    H_RTW_OK,
    H_WTR_OK,
    ICNT_ARBITRATION,
    MEM_CHANNEL_INTERLEAVE_BYTES,
    N_ACT,
    N_BANK_FIELDS,
    N_CACHE_SCALARS,
    N_CHANNEL_SCALARS,
    N_DQ_FIELDS,
    N_FAULT_FIELDS,
    N_GEOM,
    N_L1_KINDS,
    N_LQ_FIELDS,
    N_PARAMS,
    N_Q_FIELDS,
    N_SLICE_SCALARS,
    N_SM_SCALARS,
    N_T_FIELDS,
    P_ATOM_BYTES,
    P_BANK_MASK,
    P_BURST_TICKS,
    P_BYPASS_GLOBAL,
    P_CHAN_SHIFT,
    P_DRAM_LATENCY,
    P_DRAM_SCHED,
    P_FLIT_BYTES,
    P_ICNT_ARB,
    P_ICNT_LATENCY,
    P_L1_LATQ,
    P_L2_BASE,
    P_L2_LINE_BYTES,
    P_N_BANK_GROUPS,
    P_N_BANKS,
    P_N_CHANNELS,
    P_N_SLICES,
    P_N_SMS,
    P_ROP_ENTRIES,
    P_ROP_LATENCY,
    P_ROW_BYTES,
    P_ROW_MASK,
    P_SLICES_PER_CHANNEL,
    P_T_CCD,
    P_T_CCDL,
    P_T_CDLR,
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
    P_T_WR,
    P_T_WTP,
    P_T_WTR,
    Q_READY,
    S_PORT_CYCLE,
)

__all__ = [
    "HIT_QUEUE_SLACK",
    "CacheArrays",
    "MemState",
    "build_mem_state",
    "clock_ratio",
    "core_of_tick",
    "first_tick",
    "info_bytes",
    "info_ptype",
    "info_lead",
    "info_slot",
    "info_sm",
    "info_src",
    "make_cache_arrays",
    "pack_info",
]

HIT_QUEUE_SLACK = 32
"""[A] Hit-pipeline slots per L1 beyond its hit latency (completions the core has not popped)."""


class CacheArrays(NamedTuple):
    """A group of set-associative caches of possibly different geometry (all L1s, or all L2
    slices), padded to the largest set, way, MSHR and queue counts. Axis ``cache`` is the
    cache id. (Few fields on purpose: numba's compile time grows with the tuple's length.)"""

    geo: np.ndarray
    """geo[cache, G_*] int64: geometry and policy codes (sets, ways, log2 line, ``SI_*``,
    ``REPL_*``, ``WP_*``, ``AP_*``, ``WA_*``, MSHRs, merges per MSHR, miss-queue entries, hit
    latency in core cycles)."""
    cnt: np.ndarray
    """cnt[cache, K_*] int64: replacement clock, busy MSHRs, miss-queue head and count."""
    tag: np.ndarray
    """tag[cache, set, way] int64: line number (address >> log2 line)."""
    tag_state: np.ndarray
    """tag_state[cache, set, way] int8: ``LS_*``."""
    tag_stamp: np.ndarray
    """tag_stamp[cache, set, way] int64: last use (LRU) or insertion (FIFO) order."""
    tag_sec: np.ndarray
    """tag_sec[cache, set, way] int64: sectored caches only: valid, pending and dirty sector
    bits (``SEC_*``); 0 for unsectored caches."""
    mshr_line: np.ndarray
    """mshr_line[cache, entry] int64: line number (sectored caches: sector number =
    address >> log2 sector), -1 = free."""
    mshr_index: np.ndarray
    """mshr_index[cache, slot] int64: the busy MSHR entries by line (open addressing, linear
    probing, twice as many slots as entries; -1 = empty slot): ``mshr_find`` without a scan
    of the table."""
    mshr_got: np.ndarray
    """mshr_got[cache, entry] int64: reply bytes received so far (an L1 line is filled once
    replies for all its bytes arrived: one per 32 B sector from a sectored L2)."""
    mshr_n_req: np.ndarray
    """mshr_n_req[cache, entry] int64: requests merged so far (the first included)."""
    mshr_req: np.ndarray
    """mshr_req[cache, entry, k] int64: a token (L1; -2 = a merged write) or a packet info
    (L2)."""
    mq: np.ndarray
    """mq[cache, slot, Q_*] int64: miss queue towards the next level (ring)."""


class MemState(NamedTuple):
    """The whole memory system behind the SMs' LD/ST units."""

    p: np.ndarray
    """p[P_*] int64: parameters from the configuration."""
    clk: np.ndarray
    """clk[0 = num / 1 = den, DOM_*] int64: f_domain / f_core as a reduced fraction."""
    caches: CacheArrays
    """Every cache: the L1D, L1C and L1T of SM ``sm`` are ids ``sm * N_L1_KINDS + L1_*``, L2
    slice ``s`` is id ``p[P_L2_BASE] + s`` (its miss queue feeds its DRAM channel). One group,
    not two: every array of the state costs each call that receives it."""
    sm_s: np.ndarray
    """sm_s[sm, S_*] int64: L1 port cycle, bypass slots used, fill-completion and ejection ring
    heads/counts, request-input and reply-output port busy-until (icnt ticks), pending counts."""
    byp_token: np.ndarray
    """byp_token[sm, slot, 0] int64: token of a request that skipped the L1s, -1 = free;
    ``[sm, slot, 1]``: reply bytes still expected (a sectored L2 replies per sector)."""
    hq: np.ndarray
    """hq[sm, l1_kind, slot, T_*] int64: hit pipeline (token, ready)."""
    hq_hc: np.ndarray
    """hq_hc[sm, l1_kind, RB_*] int64: hit pipeline ring head and count."""
    lq: np.ndarray
    """lq[sm, slot, LQ_*] int64: L1 latency queue (ring; head and count in ``sm_s``; one slot
    when ``l1d.latency_queue`` is off)."""
    fq: np.ndarray
    """fq[sm, slot, T_*] int64: tokens completed by fills and bypass replies."""
    ej: np.ndarray
    """ej[sm, slot, Q_*] int64: reply packets delivered to the SM (ejection buffer)."""
    sl_s: np.ndarray
    """sl_s[slice, X_*] int64: request-output / reply-input port busy-until (icnt ticks), ROP
    and reply queue heads and counts."""
    rop: np.ndarray
    """rop[slice, slot, Q_*] int64: requests between the interconnect and the L2 (ROP delay)."""
    rq: np.ndarray
    """rq[slice, slot, Q_*] int64: L2 replies waiting for the reply network."""
    ch_s: np.ndarray
    """ch_s[channel, H_*] int64: scheduler-queue count and arrival counter, return-queue head
    and count, data bus free, earliest ACTIVATE / column command / read / write (DRAM ticks),
    round-robin bank pointer, banks holding a request."""
    dq: np.ndarray
    """dq[channel, entry, Q_* / D_*] int64: DRAM scheduler queue; ``Q_READY`` holds the arrival
    order (-1 = empty entry), ``D_BANK`` and ``D_ROW`` the address's bank and row; an entry
    leaves when a bank takes it."""
    ret: np.ndarray
    """ret[channel, slot, Q_*] int64: DRAM read data returning to the L2 (return queue)."""
    bank: np.ndarray
    """bank[channel, bank, B_*] int64: row and state, the request the bank serves, its row
    streak, earliest commands (DRAM ticks); rows ``g < n_bank_groups`` also hold bank group
    ``g``'s timers (``B_G_*``)."""
    pend: np.ndarray
    """pend[sm, counter - C_MEM_FIRST] int64: counts of mem_access, added at the next tick."""
    act: np.ndarray
    """act[A_*] int64: entries in flight per structure."""
    fault: np.ndarray
    """fault[0:4] int64: (code, sm, kind, line address) of the first fault."""


# -- packets -----------------------------------------------------------------------------------
@jit
def pack_info(sm: int, ptype: int, src: int, nbytes: int, slot: int) -> int:
    """Pack a packet's routing fields into one int64."""
    return sm | (ptype << 16) | (src << 20) | (nbytes << 24) | (slot << 40)


@jit
def info_sm(info: int) -> int:
    """Requesting SM."""
    return info & 0xFFFF


@jit
def info_ptype(info: int) -> int:
    """Packet type ``PK_*``."""
    return (info >> 16) & 0xF


@jit
def info_src(info: int) -> int:
    """Source L1 kind ``L1_*`` or ``SRC_*``."""
    return (info >> 20) & 0xF


@jit
def info_bytes(info: int) -> int:
    """Payload bytes (data carried by a write request or a read reply)."""
    return (info >> 24) & 0xFFFF


@jit
def info_lead(info: int) -> int:
    """A group read's (``PK_GROUP``) first line to look up: its bit in the slot field's mask
    (the demand line; set with ``| lead << 56`` on ``pack_info``'s result)."""
    return (info >> 56) & 0xF


@jit
def info_slot(info: int) -> int:
    """Bypass slot of an SM (atomics and L1-bypassing loads)."""
    return (info >> 40) & 0xFFFF


# -- clock domains -----------------------------------------------------------------------------
@jit
def first_tick(cycle: int, num: int, den: int) -> int:
    """First domain tick at or after the start of core cycle ``cycle``."""
    return (cycle * num + den - 1) // den


@jit
def core_of_tick(tick: int, num: int, den: int) -> int:
    """Core cycle in which domain tick ``tick`` happens."""
    return (tick * den) // num


def clock_ratio(domain_mhz: float, core_mhz: float) -> tuple[int, int]:
    """f_domain / f_core as a reduced integer fraction (frequencies rounded to 1 kHz)."""
    num = round(domain_mhz * 1000)
    den = round(core_mhz * 1000)
    g = gcd(num, den)
    return num // g, den // g


# -- construction ------------------------------------------------------------------------------
def _i64(*shape: int, fill: int = 0) -> np.ndarray:
    return np.full(shape, fill, dtype=np.int64)


def make_cache_arrays(geoms: list[dict[str, int]]) -> CacheArrays:
    """Empty arrays for caches described by dicts of geometry values (keys: the ``G_*``
    names in lower case without the prefix)."""
    n = len(geoms)
    keys = ("n_sets", "ways", "line_shift", "set_fn", "repl", "write_policy", "alloc_policy",
            "write_alloc", "mshr_entries", "mshr_max_merge", "mq_entries", "hit_latency",
            "sector_shift", "part_chan_shift", "part_n_channels", "part_spc", "part_sub_mask")
    fill = {"sector_shift": None, "part_chan_shift": 0, "part_n_channels": 1, "part_spc": 1,
            "part_sub_mask": 0}
    geo = np.array([[g.get(k, g["line_shift"] if fill.get(k, 0) is None else fill.get(k, 0))
                     for k in keys] for g in geoms], dtype=np.int64).reshape(n, N_GEOM)
    max_sets = int(geo[:, G_N_SETS].max())
    max_ways = int(geo[:, G_WAYS].max())
    max_mshr = int(geo[:, G_MSHR_ENTRIES].max())
    max_merge = int(geo[:, G_MSHR_MAX_MERGE].max())
    max_mq = int(geo[:, G_MQ_ENTRIES].max())
    return CacheArrays(
        geo=geo,
        cnt=_i64(n, N_CACHE_SCALARS),
        tag=_i64(n, max_sets, max_ways, fill=-1),
        tag_state=np.zeros((n, max_sets, max_ways), dtype=np.int8),
        tag_stamp=_i64(n, max_sets, max_ways),
        tag_sec=_i64(n, max_sets, max_ways),
        mshr_line=_i64(n, max_mshr, fill=-1),
        mshr_index=_i64(n, 1 << (2 * max_mshr - 1).bit_length(), fill=-1),
        mshr_got=_i64(n, max_mshr),
        mshr_n_req=_i64(n, max_mshr),
        mshr_req=_i64(n, max_mshr, max_merge, fill=-1),
        mq=_i64(n, max_mq, N_Q_FIELDS),
    )


def _log2(n: int) -> int:
    return n.bit_length() - 1


def _index(member: object) -> int:
    return list(type(member)).index(member)


def _geom(cc: object) -> dict[str, int]:
    return {
        "n_sets": cc.n_sets, "ways": cc.ways, "line_shift": _log2(cc.line_bytes),
        "set_fn": _index(cc.set_index), "repl": _index(cc.replacement),
        "write_policy": _index(cc.write_policy), "alloc_policy": _index(cc.alloc_policy),
        "write_alloc": _index(cc.write_alloc_policy), "mshr_entries": cc.mshr_entries,
        "mshr_max_merge": cc.n_mshr_max_merge, "mq_entries": cc.miss_queue_entries,
        "hit_latency": cc.hit_latency_cycles, "sector_shift": _log2(cc.sector_bytes),
    }


def _l2_geom(l2: Any, d: Any) -> dict[str, int]:
    """An L2 slice: its miss queue includes the L2-to-DRAM queue (``l2.dram_queue_entries``);
    its set index comes from the address inside the slice (cache.partition_line)."""
    g = _geom(l2)
    g["mq_entries"] = l2.miss_queue_entries + l2.dram_queue_entries
    m = _mapping(d)
    spc = l2.n_slices_per_channel
    sub = 0
    if m[P_BANK_MASK] != 0 and spc & (spc - 1) == 0:
        bits = m[P_BANK_MASK]
        for _ in range(spc.bit_length() - 1):      # the bank's low bits pick the slice
            low = bits & -bits
            sub |= low
            bits ^= low
    g.update(part_chan_shift=m[P_CHAN_SHIFT], part_n_channels=d.n_channels, part_spc=spc,
             part_sub_mask=sub)
    return g


def rop_ring_entries(cfg: GPUConfig) -> int:
    """Slots of a slice's ROP ring: ``l2.rop_queue_entries`` sector requests past the ROP delay
    (plus one line's sectors of slack) and the delay line, which holds at most one packet per
    interconnect tick of the delay (the slice's input port takes one flit per tick): GPGPU-Sim
    4.2's unbounded ``m_rop`` queue followed by its icnt_L2 queue."""
    core, icnt = cfg.clocks.core_mhz, cfg.clocks.icnt_mhz
    delay = -(-cfg.l2.hit_latency_cycles * int(icnt * 1000) // int(core * 1000)) + 2
    return cfg.l2.rop_queue_entries + cfg.l2.line_bytes // cfg.l2.sector_bytes + delay


def _turnarounds(d: Any) -> dict[int, int]:
    """GPGPU-Sim 4.2's derived DRAM timings (``memory_config::init``): read-to-write and
    write-to-read turnaround, write to precharge, activate to write."""
    burst = max(1, -(-d.n_burst_beats // d.n_transfers_per_clock))
    rtw = d.t_cl_cycles + burst + 2 - d.t_wl_cycles
    wtr = d.t_wl_cycles + burst + d.t_cdlr_cycles
    if not d.rw_turnaround:
        rtw = wtr = 0
    return {P_T_RTW: max(0, rtw), P_T_WTR: wtr, P_T_WTP: d.t_wl_cycles + burst + d.t_wr_cycles,
            P_T_RCDWR: max(0, d.t_rcd_cycles - (d.t_wl_cycles + 1))}


def _mapping(d: Any) -> dict[int, int]:
    """Address-mapping parameters of ``dram`` (``dram.addr_mapping``; linear when empty)."""
    if not d.addr_mapping:
        return {P_CHAN_SHIFT: MEM_CHANNEL_INTERLEAVE_BYTES.bit_length() - 1, P_BANK_MASK: 0,
                P_ROW_MASK: 0}
    m = parse_addr_mapping(d.addr_mapping)
    return {P_CHAN_SHIFT: m.chip_shift, P_BANK_MASK: m.bank_mask, P_ROW_MASK: m.row_mask}


def build_mem_state(cfg: GPUConfig) -> MemState:
    """Fresh, empty memory-system state for ``cfg`` (see memsys.make_mem_state)."""
    n_sms, d, l2 = cfg.n_sms, cfg.dram, cfg.l2
    n_slices, n_ch = cfg.n_l2_slices, d.n_channels
    p = np.zeros(N_PARAMS, dtype=np.int64)
    lq_cap = cfg.l1d.hit_latency_cycles if cfg.l1d.latency_queue else 1
    vals = {
        P_N_SMS: n_sms, P_N_SLICES: n_slices, P_N_CHANNELS: n_ch,
        P_SLICES_PER_CHANNEL: l2.n_slices_per_channel, P_ICNT_LATENCY: cfg.icnt.latency_cycles,
        P_FLIT_BYTES: cfg.icnt.flit_bytes, P_ROP_LATENCY: l2.hit_latency_cycles,
        P_DRAM_LATENCY: d.latency_cycles, P_N_BANKS: d.n_banks, P_N_BANK_GROUPS: d.n_bank_groups,
        P_ROW_BYTES: d.row_bytes,
        P_BURST_TICKS: max(1, -(-d.n_burst_beats // d.n_transfers_per_clock)),
        P_ATOM_BYTES: d.n_chips_per_channel * d.bus_width_bytes * d.n_burst_beats,
        P_T_CCD: d.t_ccd_cycles, P_T_RRD: d.t_rrd_cycles, P_T_RCD: d.t_rcd_cycles,
        P_T_RAS: d.t_ras_cycles, P_T_RP: d.t_rp_cycles, P_T_RC: d.t_rc_cycles,
        P_T_CL: d.t_cl_cycles, P_T_WL: d.t_wl_cycles, P_T_CDLR: d.t_cdlr_cycles,
        P_T_WR: d.t_wr_cycles, P_T_CCDL: d.t_ccdl_cycles, P_T_RTPL: d.t_rtpl_cycles,
        P_DRAM_SCHED: _index(d.scheduler), P_BYPASS_GLOBAL: int(cfg.l1d.bypass_global),
        P_ICNT_ARB: ICNT_ARBITRATION, P_L2_LINE_BYTES: l2.line_bytes,
        P_L2_BASE: n_sms * N_L1_KINDS, **_mapping(d), **_turnarounds(d),
        P_ROP_ENTRIES: l2.rop_queue_entries, P_L1_LATQ: lq_cap if cfg.l1d.latency_queue else 0,
    }
    for k, v in vals.items():
        p[k] = v
    clk = cfg.clocks
    ratios = [clock_ratio(m, clk.core_mhz) for m in (clk.icnt_mhz, clk.l2_mhz, clk.dram_mhz)]
    l1_geoms = [_geom(cc) for _ in range(n_sms) for cc in (cfg.l1d, cfg.l1c, cfg.l1t)]
    hq_cap = max(g["hit_latency"] for g in l1_geoms[:N_L1_KINDS]) + HIT_QUEUE_SLACK
    n_byp = cfg.l1d.mshr_entries
    fq_cap = sum(g["mshr_entries"] * g["mshr_max_merge"] for g in l1_geoms[:N_L1_KINDS]) + n_byp
    n_dq, n_ret, never = d.sched_queue_entries, d.return_queue_entries, -(1 << 40)
    sm_s = _i64(n_sms, N_SM_SCALARS)
    sm_s[:, S_PORT_CYCLE] = -1
    ch_s = _i64(n_ch, N_CHANNEL_SCALARS)
    for h in (H_RRD_OK, H_CCD_OK, H_WTR_OK, H_RTW_OK):
        ch_s[:, h] = never
    bank = _i64(n_ch, d.n_banks, N_BANK_FIELDS, fill=never)
    bank[:, :, B_ROW] = -1
    bank[:, :, B_STREAK] = -1
    for f in (B_ACTIVE, B_ADDR, B_INFO, B_LEFT, B_FRESH, B_QUEUED, B_REQ_ROW):
        bank[:, :, f] = 0
    dq = _i64(n_ch, n_dq, N_DQ_FIELDS)
    dq[:, :, Q_READY] = -1
    return MemState(
        p=p,
        clk=np.array([[r[0] for r in ratios], [r[1] for r in ratios]], dtype=np.int64),
        caches=make_cache_arrays(l1_geoms + [_l2_geom(l2, d)] * n_slices),
        sm_s=sm_s,
        byp_token=_i64(n_sms, n_byp, 2, fill=-1),
        hq=_i64(n_sms, N_L1_KINDS, hq_cap, N_T_FIELDS),
        hq_hc=_i64(n_sms, N_L1_KINDS, 2),
        lq=_i64(n_sms, lq_cap, N_LQ_FIELDS),
        fq=_i64(n_sms, fq_cap, N_T_FIELDS),
        ej=_i64(n_sms, cfg.icnt.eject_buffer_entries, N_Q_FIELDS),
        sl_s=_i64(n_slices, N_SLICE_SCALARS),
        rop=_i64(n_slices, rop_ring_entries(cfg), N_Q_FIELDS),
        rq=_i64(n_slices, l2.reply_queue_entries, N_Q_FIELDS),
        ch_s=ch_s,
        dq=dq,
        ret=_i64(n_ch, n_ret, N_Q_FIELDS),
        bank=bank,
        pend=_i64(n_sms, C_MEM_LAST - C_MEM_FIRST),
        act=_i64(N_ACT),
        fault=_i64(N_FAULT_FIELDS),
    )
