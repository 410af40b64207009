"""Structure-of-arrays state of the SM core timing model (warps, CTAs, scoreboard, ID_OC
registers, collector units, execution units, in-flight instructions) and the trace window.

Follows: STYLE.md §2.4 (a NamedTuple of numpy arrays, axes written ``owner_field[axis, ...]``,
explicit dtypes, cycles int64). Axes: ``sm`` (SM), ``w`` (warp slot of an SM, 0 ..
n_max_warps-1), ``c`` (CTA slot of an SM), ``set`` (collector set OC_*), ``q`` (ID_OC entry),
``cu`` (collector unit of an SM), ``k`` (operand), ``u`` (execution unit instance of an SM),
``f`` (in-flight instruction slot of an SM), ``b`` (register bank), ``word`` (64 scoreboard ids).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from warpsim.arch import GPUConfig
from warpsim.timing import consts as tc
from warpsim.timing import fields as fl
from warpsim.timing.static import StaticTables
from warpsim.timing.warpbits import sched_bits

__all__ = ["INFLIGHT_ENTRIES", "CoreState", "TraceWindow", "empty_window", "make_core_state",
           "read_only_view"]

INFLIGHT_ENTRIES = 256
"""[A] In-flight (dispatched, not written back) instructions per SM: the capacity of the
execute/memory-wait stage. GPGPU-Sim bounds this implicitly by its pipeline registers and MSHRs;
warpsim has no config field for it (listed in docs/timing-model.md)."""


class CoreState(NamedTuple):
    """Mutable state of all SMs' cores for one launch. Per-entity scalars are packed as int64
    fields on the last axis (``timing/fields.py``): a jitted call pays for every array of its
    tuple arguments, so fewer, larger arrays keep the cycle loop fast."""

    sc: np.ndarray
    """``sc[SC_*]`` int64 scalars: cycle, next CTA, delivered CTAs, flags (consts.SC_*)."""
    warp: np.ndarray
    """``warp[sm, w, F_WARP_*]`` int64: VALID (1 while resident and not exited), CTA (CTA slot
    holding the warp slot, -1 free; held until the CTA is released, as GPGPU-Sim frees hardware
    warp ids per CTA, or freed at the warp's exit when the ``release_warp_slot`` hook says so),
    GID (launch-wide warp), POS (absolute record of the next instruction to
    issue), END (one past the last record), IBUF (decoded instructions), FETCH_READY (first
    cycle it may decode: the branch hazard), AGE (dispatch order, GTO/oldest), AT_BAR,
    INFLIGHT (issued, not written back), SB_COUNT (pending-write ids), TL_ACTIVE and TL_SEQ
    (two-level scheduler: active flag, pending FIFO order), SB_WAIT (1: the next instruction
    was found blocked by the scoreboard and nothing it depends on changed since; cleared by
    the warp's issue and writebacks, so the issue scan skips the check)."""
    warp_bits: np.ndarray
    """``warp_bits[sm, WB_*, word]`` uint64: bitsets of warp-row flags (``timing/warpbits.py``;
    written only through its setters, with the fields)."""
    sched_bits: np.ndarray
    """``sched_bits[sched, word]`` uint64: the warp slots each scheduler owns (constant)."""
    warp_sb: np.ndarray
    """``warp_sb[sm, w, word]`` uint64: scoreboard (pending writes) bitset."""
    warp_sb_long: np.ndarray
    """``warp_sb_long[sm, w, word]`` uint64: pending writes of long-latency loads."""
    cta: np.ndarray
    """``cta[sm, c, F_CTA_*]`` int64: VALID, ID (linear CTA index), N_LIVE (warps not
    exited, including warps not placed yet), N_BAR (live warps arrived at the current
    barrier), N_PLACED (warps placed on warp slots so far; below the CTA's warp count while it
    is partially dispatched)."""
    cta_done: np.ndarray
    """``cta_done[cta]`` int8: the launch's CTA has finished (driver retires trace chunks)."""
    sched_last: np.ndarray
    """``sched_last[sm, sched]`` int32: warp slot that issued last (-1: none)."""
    idoc_q: np.ndarray
    """``idoc_q[sm, set, q, F_IDOC_*]`` int64: ID_OC pipeline register entries (WARP, REC)."""
    idoc_hc: np.ndarray
    """``idoc_hc[sm, set, F_IDOC_*]`` int64: HEAD and COUNT of each set's ID_OC FIFO."""
    cu: np.ndarray
    """``cu[sm, cu, F_CU_*]`` int64: collector units: VALID, WARP, REC (absolute record),
    LEFT (source operands still to read)."""
    cu_src: np.ndarray
    """``cu_src[sm, cu, k]`` int32: registers still to read (-1 = read)."""
    bank: np.ndarray
    """``bank[sm, b, F_BANK_*]`` int64: RD_STAMP (operand-collector step of the last read
    grant), RD_COUNT, WR_STAMP (cycle of the last write), WR_COUNT."""
    unit_free_at: np.ndarray
    """``unit_free_at[sm, u]`` int64: first cycle the unit accepts an instruction."""
    infl: np.ndarray
    """``infl[sm, f, F_INFL_*]`` int64: in-flight instructions: VALID, WARP, REC, LINES
    (memory lines not yet returned), ISSUE (dispatch cycle), MK (resolved memory kind), DELAY,
    STATE."""
    infl_ready: np.ndarray
    """``infl_ready[sm, f]`` int64: the cycle in-flight slot ``f``'s result may be written back
    (INT64_MAX while memory lines are outstanding and for a free slot). Kept out of ``infl``:
    the writeback stage scans it every cycle, and contiguous it is a few cache lines."""
    infl_free: np.ndarray
    """``infl_free[sm, i]`` int32: stack of free in-flight slots (top at SM field
    INFL_NFREE - 1)."""
    pc_act: np.ndarray
    """``pc_act[pc, F_ACT_*]`` int64: warp instructions (and their executing lanes) dispatched
    to a unit, per static instruction (the energy model's per-opcode ALU activity)."""
    smv: np.ndarray
    """``smv[sm, F_SM_*]`` int64 (fields named after the former arrays): N_CTAS, N_WARPS,
    LDST_CUR (in-flight slot whose lines the LD/ST unit sends, -1), LDST_LINE (next line),
    LDST_UNIT, NEXT_WB (earliest READY: writeback skip), LINES_OUT (load lines not returned),
    INFL_NFREE, INFL_HW (one past the highest in-flight slot used: the writeback scan's
    bound), N_PARKED, N_PARTIAL (partially dispatched CTAs; ``sc[SC_N_PARTIAL]`` sums them)."""


class TraceWindow(NamedTuple):
    """The records of the trace chunks the engine may still need, per warp contiguous.

    Record ``r`` (absolute, launch-wide) is row ``r - base[0]`` of ``rec``."""

    base: np.ndarray
    """``base[0]`` int64: absolute index of the first record of the window."""
    wt: np.ndarray
    """``wt[gw, F_WT_*]`` int64: BEG and END (absolute records) of launch-wide warp ``gw``."""
    rec: np.ndarray
    """``rec[r, F_REC_*]`` int64: PC, NTHR (executing lanes: popcount of ``exec_mask``),
    NLINES, NSEC (sectors), BANK (shared-memory bank-conflict degree, 0: not shared), LINE0
    (first line of the record in ``lines``), DIVERGED (1: a branch whose warp split)."""
    lines: np.ndarray
    """int64: line byte addresses."""


def empty_window(n_warps_total: int) -> TraceWindow:
    """A window with no records (warp table sized for the launch)."""
    return TraceWindow(base=np.zeros(1, np.int64),
                       wt=np.zeros((n_warps_total, fl.N_WT_FIELDS), np.int64),
                       rec=np.zeros((0, fl.N_REC_FIELDS), np.int64),
                       lines=np.zeros(0, np.int64))


def make_core_state(cfg: GPUConfig, tables: StaticTables, n_ctas: int,
                    n_banks: int = 0) -> CoreState:
    """Zeroed core state for a launch of ``n_ctas`` CTAs (``n_banks``: bank rows a mechanism's
    operand storage needs beyond ``regfile.n_banks``)."""
    s = cfg.sm.n_sms
    w = cfg.sm.n_max_warps
    c = cfg.sm.n_max_ctas
    n_cu = max(1, int(tables.cu_set.size))
    n_k = int(tables.pc_src.shape[1]) + 1  # + the ``extra_operand`` hook's register
    n_u = int(tables.unit_type.size)
    qcap = int(tables.set_info[:, fl.F_SET_IDOC_CAP].max())
    words = (tables.n_sb_bits + 63) // 64
    nb = max(cfg.regfile.n_banks, n_banks)
    f = INFLIGHT_ENTRIES
    i64 = np.int64
    warp = np.zeros((s, w, fl.N_WARP_FIELDS), i64)
    warp[:, :, fl.F_WARP_CTA] = -1
    bank = np.zeros((s, nb, fl.N_BANK_FIELDS), i64)
    bank[:, :, fl.F_BANK_RD_STAMP] = -1
    bank[:, :, fl.F_BANK_WR_STAMP] = -1
    infl = np.zeros((s, f, fl.N_INFL_FIELDS), i64)
    smv = np.zeros((s, fl.N_SMV_FIELDS), i64)
    smv[:, fl.F_LDST_CUR] = -1
    smv[:, fl.F_SM_NEXT_WB] = tc.INT64_MAX
    smv[:, fl.F_INFL_NFREE] = f
    smv[:, fl.F_SM_STORE_ACKS] = int(cfg.l2.store_acks)
    warp[:, :, fl.F_WARP_ACK_WAIT] = -1
    return CoreState(
        sc=np.zeros(tc.N_SCALARS, i64), warp=warp,
        warp_bits=np.zeros((s, fl.N_WB_KINDS, (w + 63) // 64), np.uint64),
        sched_bits=sched_bits(cfg.sm.n_schedulers, w),
        warp_sb=np.zeros((s, w, words), np.uint64),
        warp_sb_long=np.zeros((s, w, words), np.uint64),
        cta=np.zeros((s, c, fl.N_CTA_FIELDS), i64), cta_done=np.zeros(max(1, n_ctas), np.int8),
        sched_last=np.full((s, cfg.sm.n_schedulers), -1, np.int32),
        idoc_q=np.zeros((s, tc.N_OC_SETS, qcap, fl.N_IDOC_Q_FIELDS), i64),
        idoc_hc=np.zeros((s, tc.N_OC_SETS, fl.N_IDOC_HC_FIELDS), i64),
        cu=np.zeros((s, n_cu, fl.N_CU_FIELDS), i64), cu_src=np.full((s, n_cu, n_k), -1, np.int32),
        bank=bank, unit_free_at=np.zeros((s, max(1, n_u)), i64), infl=infl,
        infl_ready=np.full((s, f), tc.INT64_MAX, i64),
        infl_free=np.ascontiguousarray(np.tile(np.arange(f - 1, -1, -1, dtype=np.int32),
                                               (s, 1))),
        pc_act=np.zeros((int(tables.pc_info.shape[0]), fl.N_ACT_FIELDS), i64), smv=smv)


def read_only_view(state: CoreState) -> CoreState:
    """The same arrays as read-only views (what mechanisms may see: ``Mechanism.bind_core``);
    a write through them is an error, in numba at compile time."""
    views = []
    for a in state:
        v = a.view()
        v.setflags(write=False)
        views.append(v)
    return CoreState(*views)
