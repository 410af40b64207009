"""RegLess's per-launch hook state: the compiler's region tables per pc, the capacity managers
(per-bank free counters, LIFO warp stacks), the OSU residency of every (warp, register), the
per-warp region state machine and the queue of register lines for the L1 port.

Follows: Kloosterman et al., RegLess (MICRO-50 2017) §4.2 (capacity manager: warp states,
warp stack, free counters per bank), §4.3 (OSU: 8 banks per shard, bank = (warp + reg) mod 8,
free / clean / dirty lists); specs/regless.md §4.2.1, §4.3.1, §4.5 (register backing store).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from warpsim.functional.lane_patterns import RL_PATTERN_NAMES

__all__ = ["RLState", "make_state", "meta_before", "region_tables"]

# prm: launch constants
(P_NS, P_NW, P_BANK_CAP, P_MAXREG, P_BASE, P_QCAP, P_N_PC, P_L1_LAT, P_COMP, P_CC_LINES,
 P_LPS) = range(11)
N_PRM = 11

# rg: per region
RG_START, RG_END, RG_NIN, RG_NHINV, RG_META, RG_NOISSUE_END = range(6)
N_RG = 6

# w: per (sm, warp slot)
(W_STATE, W_REGION, W_POS, W_READY, W_OUT, W_NEXT_PC, W_INFLIGHT, W_ALLOW_PC,
 W_ACT_CYCLE, W_META_REC, W_META_DONE) = range(11)
N_W = 11

FLAG_WORD_INSNS = 9
"""A last-use flag word precedes every 9 instructions of a region (§5.4)."""

# record columns (``RegLess.record_columns``): written values' compressor patterns, metadata
# words in front of the record
RCOL_PATTERN, RCOL_META = 0, 1
N_RCOL = 2

# warp states (paper §4.2: inactive, preloading, active, draining)
S_NONE, S_INACTIVE, S_PRELOADING, S_ACTIVE, S_DRAINING, S_EXITED = range(6)

# reg: residency of (sm, warp, register) in the OSU
R_ABSENT, R_CACHED, R_PINNED = 0, 1, 2
# reg columns: residency R_*, dirty, memory copy, last value's compressor pattern (1-5, 0 none),
# copy compressed
RC_RES, RC_DIRTY, RC_MEM, RC_PATTERN, RC_COMPRESSED = range(5)
N_RC = 5

# flag kinds per pc (lifetimes.py)
F_SRC_ERASE, F_SRC_EVICT, F_DST_ERASE, F_DST_EVICT = 1, 2, 3, 4

# st: launch-wide statistics
(ST_REGIONS, ST_PRELOADS, ST_PRELOAD_OSU, ST_PRELOAD_MEM, ST_PRELOAD_UNDEF, ST_EVICT_CLEAN,
 ST_EVICT_DIRTY, ST_HDR_INV, ST_L1_INV, ST_OSU_READS, ST_OSU_WRITES, ST_META, ST_OVERCOMMIT,
 ST_ACTIVE_CYCLES, ST_MEMQ_FULL, ST_INV_READS, ST_REGION_INSNS, ST_PRELOAD_L1, ST_PRELOAD_L2,
 ST_LINE_LOADS, ST_LINE_STORES, ST_COMP_OPS, ST_MEM_LAT, ST_PRELOAD_COMP, ST_EVICT_COMPRESSED,
 ST_COMP_FILLS, ST_COMP_WB, ST_RFV_STALLS, ST_RFV_THROTTLED, ST_RFV_PEAK, ST_COMP_PORT_WAIT,
 ST_COMP_MERGED, ST_COMP_FULL, ST_META_FETCHED, ST_EVICT_INCOMPRESSIBLE) = range(35)
ST_COMP_PATTERN = 35
"""Compressed evictions per pattern: ``ST_COMP_PATTERN + pattern - 1`` (5 counters)."""
N_ST = 40
STAT_NAMES = ("regions_executed", "preloads", "preload_osu", "preload_mem", "preload_undefined",
              "evictions_clean", "evictions_dirty", "header_invalidations", "l1_invalidations",
              "osu_reads", "osu_writes", "meta_words", "osu_overcommits",
              "region_cycles", "memq_full", "invalidating_reads", "region_insns",
              "preload_l1", "preload_l2", "line_loads", "line_stores", "compressor_ops",
              "preload_mem_cycles", "preload_compressor", "evictions_compressed",
              "comp_line_fills", "comp_line_writebacks", "rfv_alloc_stalls",
              "rfv_throttled_stalls", "rfv_peak_registers", "comp_port_wait_cycles",
              "comp_merged_preloads", "comp_cache_full", "meta_words_fetched",
              "evictions_incompressible",
              *(f"evictions_compressed_{n}" for n in RL_PATTERN_NAMES))

K_BANKS = 8


class RLState(NamedTuple):
    """Hook state (every array int64)."""

    prm: np.ndarray
    pc_region: np.ndarray
    """[n_pc] region id of each pc."""
    pc_flags: np.ndarray
    """[n_pc, K, 2] (register, F_* kind) last-use flags, -1 padded."""
    pc_dst: np.ndarray
    """[n_pc, K] destination registers, -1 padded."""
    pc_info: np.ndarray
    """[n_pc, 2]: long-latency producer, registers read."""
    rg: np.ndarray
    rg_need: np.ndarray
    """[n_regions, 8] need per bank for warp 0 (register mod 8)."""
    rg_in: np.ndarray
    """[n_regions, K, 2] (input register, invalidating read) -1 padded."""
    rg_hinv: np.ndarray
    """[n_regions, K] header invalidations, -1 padded."""
    w: np.ndarray
    """[n_sms, n_warps, N_W]."""
    w_res: np.ndarray
    """[n_sms, n_warps, 8] entries reserved per physical bank."""
    w_pend: np.ndarray
    """[n_sms, n_warps, 8] destinations of long-latency instructions not yet written."""
    w_held: np.ndarray
    """[n_sms, n_warps, 8] of those, held past the region end (draining)."""
    reg: np.ndarray
    """[n_sms, n_warps, maxreg, N_RC]: residency R_*, dirty, memory copy, the compressor
    pattern the last written value matches (0 none), the memory copy is compressed
    (``RC_*``)."""
    reg_stamp: np.ndarray
    """[n_sms, n_warps, maxreg] insertion stamp into the clean/dirty lists (FIFO victims)."""
    occ: np.ndarray
    """[n_sms, n_shards, 8] occupied OSU entries."""
    free: np.ndarray
    """[n_sms, n_shards, 8] entries not reserved by a preloading/active/draining region."""
    stack: np.ndarray
    """[n_sms, n_shards, warps per shard] LIFO of inactive warps (top = last)."""
    stack_n: np.ndarray
    memq: np.ndarray
    """[n_sms, qcap, 3] (kind, line address, tag) ring of register lines for the L1 port."""
    memq_ht: np.ndarray
    """[n_sms, 2] head, count."""
    sent: np.ndarray
    """[n_sms, qcap] cycle the L1 port accepted the line queued in that ring slot."""
    cc_tag: np.ndarray
    """[n_sms, n_shards, lines] compressed line held by each compressor-cache line (-1 none)."""
    cc_stamp: np.ndarray
    """[n_sms, n_shards, lines] last use (LRU)."""
    cc_dirty: np.ndarray
    """[n_sms, n_shards, lines] written since it was filled."""
    cc_clock: np.ndarray
    """[n_sms] LRU clock."""
    cc_pend: np.ndarray
    """[n_sms, n_shards, lines] ring slot + 1 of the line's load in flight (0: present)."""
    cc_valid: np.ndarray
    """[n_sms, n_shards, lines] bit j: slot j's register is present (all 15 unless in flight)."""
    cc_wait: np.ndarray
    """[n_sms, n_shards, lines, warps per shard] preloads merged into the line's fill."""
    cc_busy: np.ndarray
    """[n_sms, n_shards] first cycle the shard's compressor is free (one access per cycle)."""
    eng_dst: np.ndarray
    """[n_pc, K] the engine's destination registers per pc (value entry j -> register)."""
    rec: np.ndarray
    """[n_records, N_RCOL] per trace record: bits 3j..3j+2 of ``RCOL_PATTERN`` the compressor
    pattern destination value j matches (``record_patterns``); ``RCOL_META`` the metadata
    words in front of it (``meta_before``); replaced per chunk by ``hook_state``."""
    rec_base: np.ndarray
    """[1] absolute index of ``rec``'s first row."""
    st: np.ndarray
    cnt: np.ndarray
    """[n_sms, 1] engine-scaled counter: capacity-manager stall cycles."""


def region_tables(plan, n_pc: int) -> tuple[np.ndarray, ...]:
    """Per-pc and per-region int64 tables of a ``RegionPlan`` (a warm-up launch: ``plan`` None).
    """
    from warpsim.mechanisms.regless.lifetimes import ERASE

    if plan is None:
        z = np.zeros
        return (z(1, np.int64), np.full((1, 1, 2), -1, np.int64), np.full((1, 1), -1, np.int64),
                z((1, 2), np.int64), z((1, N_RG), np.int64), z((1, K_BANKS), np.int64),
                np.full((1, 1, 2), -1, np.int64), np.full((1, 1), -1, np.int64))
    v, ann, regs = plan.view, plan.ann, plan.regions
    kf = max([len(ann.src[i]) + len(ann.dst[i]) for i in range(v.n)] + [1])
    kd = max([len(w) for w in v.writes] + [1])
    pc_region = np.zeros(max(1, n_pc), np.int64)
    pc_flags = np.full((max(1, n_pc), kf, 2), -1, np.int64)
    pc_dst = np.full((max(1, n_pc), kd), -1, np.int64)
    pc_info = np.zeros((max(1, n_pc), 2), np.int64)
    for i in range(v.n):
        pc_region[i] = ann.region_of[i]
        k = 0
        for r, kind in ann.src[i].items():
            pc_flags[i, k] = (r, F_SRC_ERASE if kind == ERASE else F_SRC_EVICT)
            k += 1
        for r, kind in ann.dst[i].items():
            pc_flags[i, k] = (r, F_DST_ERASE if kind == ERASE else F_DST_EVICT)
            k += 1
        for k, r in enumerate(v.writes[i]):
            pc_dst[i, k] = r
        pc_info[i] = (int(v.longlat[i]), len(v.reads[i]) + len(v.premat[i]))
    ki = max([len(r.inputs) for r in regs] + [1])
    kh = max([len(r.header_invalidations) for r in regs] + [1])
    rg = np.zeros((len(regs), N_RG), np.int64)
    need = np.zeros((len(regs), K_BANKS), np.int64)
    rin = np.full((len(regs), ki, 2), -1, np.int64)
    hinv = np.full((len(regs), kh), -1, np.int64)
    for reg in regs:
        noissue = v.barrier[reg.end] or v.exits[reg.end]
        rg[reg.id] = (reg.start, reg.end, len(reg.inputs), len(reg.header_invalidations),
                      reg.meta_words, int(noissue))
        need[reg.id] = reg.need_per_bank
        for k, r in enumerate(reg.inputs):
            rin[reg.id, k] = (r, int(r in reg.invalidating))
        for k, r in enumerate(reg.header_invalidations):
            hinv[reg.id, k] = r
    return pc_region, pc_flags, pc_dst, pc_info, rg, need, rin, hinv


def meta_before(plan, n_pc: int) -> np.ndarray:
    """[n_pc] metadata words fetched in front of each pc (§5.4, spec §3.7): a region's header
    words, its extra preload/invalidation words and its first last-use flag word (or its one
    compact word) in front of its first instruction; one flag word in front of region
    instructions 9, 18, ... (a warm-up launch: ``plan`` None, zeros)."""
    out = np.zeros(max(1, n_pc), np.int64)
    if plan is None:
        return out
    for reg in plan.regions:
        n = reg.end - reg.start + 1
        later = (n - 1) // FLAG_WORD_INSNS  # none in a compact region (<= 4 instructions)
        out[reg.start] = reg.meta_words - later
        out[reg.start + FLAG_WORD_INSNS:reg.end + 1:FLAG_WORD_INSNS] = 1
    return out


def make_state(tables: tuple[np.ndarray, ...], *, n_sms: int, n_warps: int, n_shards: int,
               bank_cap: int, maxreg: int, base: int, l1_latency: int, compressor: bool = True,
               cc_lines: int = 16, eng_dst: np.ndarray | None = None,
               qcap: int = 4096) -> RLState:
    """Zeroed state: every free counter at the bank capacity, empty stacks and queues.

    ``l1_latency``: a preloaded line whose data arrives at most this many cycles after the L1
    port accepted it was an L1 hit; later ones came from L2 or DRAM."""
    pc_region, pc_flags, pc_dst, pc_info, rg, need, rin, hinv = tables
    wps = max(1, -(-n_warps // n_shards))
    lps = -(-max(1, maxreg) * wps // 15)  # compressed lines per shard (15 registers each)
    prm = np.array([n_shards, n_warps, bank_cap, maxreg, base, qcap, pc_region.size,
                    l1_latency, int(compressor), cc_lines, lps], np.int64)
    w = np.zeros((n_sms, n_warps, N_W), np.int64)
    w[:, :, W_NEXT_PC] = -1
    w[:, :, W_ALLOW_PC] = -1
    w[:, :, W_META_REC] = -1
    per = max(1, n_warps // n_shards)
    return RLState(
        prm=prm, pc_region=pc_region, pc_flags=pc_flags, pc_dst=pc_dst, pc_info=pc_info, rg=rg,
        rg_need=need, rg_in=rin, rg_hinv=hinv, w=w,
        w_res=np.zeros((n_sms, n_warps, K_BANKS), np.int64),
        w_pend=np.zeros((n_sms, n_warps, K_BANKS), np.int64),
        w_held=np.zeros((n_sms, n_warps, K_BANKS), np.int64),
        reg=np.zeros((n_sms, n_warps, max(1, maxreg), N_RC), np.int64),
        reg_stamp=np.zeros((n_sms, n_warps, max(1, maxreg)), np.int64),
        occ=np.zeros((n_sms, n_shards, K_BANKS), np.int64),
        free=np.full((n_sms, n_shards, K_BANKS), bank_cap, np.int64),
        stack=np.full((n_sms, n_shards, per), -1, np.int64),
        stack_n=np.zeros((n_sms, n_shards), np.int64),
        memq=np.zeros((n_sms, qcap, 3), np.int64), memq_ht=np.zeros((n_sms, 2), np.int64),
        sent=np.zeros((n_sms, qcap), np.int64),
        cc_tag=np.full((n_sms, n_shards, cc_lines), -1, np.int64),
        cc_stamp=np.zeros((n_sms, n_shards, cc_lines), np.int64),
        cc_dirty=np.zeros((n_sms, n_shards, cc_lines), np.int64),
        cc_clock=np.zeros(n_sms, np.int64),
        cc_pend=np.zeros((n_sms, n_shards, cc_lines), np.int64),
        cc_valid=np.zeros((n_sms, n_shards, cc_lines), np.int64),
        cc_wait=np.zeros((n_sms, n_shards, cc_lines, wps), np.int64),
        cc_busy=np.zeros((n_sms, n_shards), np.int64),
        eng_dst=(np.full((1, 1), -1, np.int64) if eng_dst is None
                 else np.ascontiguousarray(eng_dst, np.int64)),
        rec=np.zeros((1, N_RCOL), np.int64), rec_base=np.zeros(1, np.int64),
        st=np.zeros(N_ST, np.int64), cnt=np.zeros((n_sms, 1), np.int64))
