"""State of the ILP core: per-pc classes, per-warp readiness and scoreboard pointers, the
per-SM scoreboard entries (a linked list per warp: a distributed reorder buffer) and the gshare
pattern tables.

Follows: the dissertation §4.4 (TLP core ready bit; Fig. 39: tag store with the NM bit, data
store with completion flag, active mask, next pointer; warp-scheduler head/tail, in-board,
in-store); specs/xiang-simt-efficiency.md §3.2, §3.4. STYLE.md §2.4 (NamedTuple of arrays).
Assumptions:
  [A] gshare counters start weakly not taken (1); histories start at 0.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from warpsim.arch.ilp import PREDICTORS
from warpsim.timing.consts import F_BRANCH, MK_NONE, UNIT_SFU
from warpsim.timing.fields import F_PC_FLAGS, F_PC_LATENCY, F_PC_MEM, F_PC_UNIT

__all__ = ["ILPState", "make_state", "pc_table"]

# -- prm[...] ---------------------------------------------------------------------------------
P_BYPASS = 0
P_ENTRIES = 1
P_PREDICTOR = 2   # index into arch.ilp.PREDICTORS
P_HIST_MASK = 3
P_REC_BASE = 4
P_N_SCHED = 5     # warp schedulers per SM (warp w belongs to scheduler w % n)
N_P = 6
BP_NONE, BP_STATIC, BP_GSHARE, BP_PERFECT = 0, 1, 2, 3

# -- pct[pc, ...]: the instruction's class ----------------------------------------------------
T_CLASS = 0       # C_* below
T_DST = 1         # first scoreboard id written (the SB tag), -1: none
T_COND = 2        # 1: a guarded (conditional) branch
T_BACKWARD = 3    # 1: the branch target is at or before the branch
T_BYPASS = 4      # 1: an ALU result the bypass forwards (not memory, SFU, branch; latency >= 2)
N_T = 5
C_ALU, C_LOAD, C_STORE, C_BRANCH = 0, 1, 2, 3

# -- rc[rec - base, ...]: per trace record ----------------------------------------------------
R_PC = 0
R_MASK = 1        # active mask
R_TAKEN = 2       # a branch record: 1 when the warp's next record is not at pc + 1
R_DIVERGED = 3    # a branch record that split its warp
N_R = 4

# -- ws[sm, w, ...]: per warp -----------------------------------------------------------------
W_FB = 0          # 1: an instruction issued without a scoreboard entry is in flight
W_FB_REC = 1
W_BR = 2          # 0 none, 1 wait until the branch resolves, 2 ready after its EX entry
W_BR_REC = 3
W_BR_AT = 4       # BR == 2: ready from this cycle (INT64_MAX until the branch dispatches)
W_HEAD = 5
W_TAIL = 6
W_IN_BOARD = 7    # scoreboard entries of the warp (in-board = count > 0)
W_IN_STORE = 8
W_HIST = 9        # gshare history
W_COUNTED = 10    # cycle + 1 of the warp's last counted stall (one class per warp-cycle)
W_BR_ISSUE = 11   # issue cycle of the warp's last branch
W_BR_SLOTS = 12   # its scheduler's issue cycles (I_COUNT) up to and including that cycle
N_W = 13

# -- iss[sm, sched, ...]: issue slots used per scheduler ----------------------------------------
I_LAST = 0        # last cycle the scheduler issued an instruction the hooks see (-1: none)
I_COUNT = 1       # cycles in which it issued
N_I = 2

# -- sb[sm, e, ...]: scoreboard entries -------------------------------------------------------
E_VALID = 0
E_WARP = 1
E_REC = 2
E_TAG = 3
E_NM = 4
E_MASK = 5
E_COMPLETE = 6
E_NEXT = 7
E_STORE = 8
N_E = 9

# -- counters (Mechanism.counter_names order) -------------------------------------------------
COUNTERS = (
    "ilp_stall_raw_alu", "ilp_stall_raw_mem", "ilp_stall_inflight", "ilp_stall_control",
    "ilp_stall_sb_full", "ilp_stall_waw", "ilp_stall_store_drain", "ilp_stall_load_after_store",
    "ilp_stall_barrier", "ilp_bypassed_insts", "ilp_sb_allocs", "ilp_sb_fallback_issues",
    "ilp_sb_commits", "ilp_sb_occupancy_sum", "ilp_branches", "ilp_cond_branches",
    "ilp_divergent_branches", "ilp_bp_predictions", "ilp_bp_correct", "ilp_bp_nullified",
    "ilp_branch_stalls")
(K_RAW_ALU, K_RAW_MEM, K_INFLIGHT, K_CONTROL, K_SB_FULL, K_WAW, K_STORE_DRAIN,
 K_LOAD_AFTER_STORE, K_BARRIER, K_BYPASSED, K_SB_ALLOCS, K_SB_FALLBACK, K_SB_COMMITS,
 K_SB_OCC, K_BRANCHES, K_COND, K_DIVERGENT, K_BP_PRED, K_BP_CORRECT, K_NULLIFIED,
 K_BR_STALLS) = range(len(COUNTERS))


class ILPState(NamedTuple):
    """The hooks' state (``hs``)."""

    prm: np.ndarray
    """``prm[P_*]`` int64."""
    sm_ilp: np.ndarray
    """``sm_ilp[sm]`` int64: 1 where the SM has ILP cores (``ilp.sm_kinds``), 0 for a TLP-core
    SM (the one-in-flight rule only)."""
    pct: np.ndarray
    """``pct[pc, T_*]`` int64."""
    sbsrc: np.ndarray
    """``sbsrc[pc, k]`` int32: scoreboard ids read (static tables), -1 padded."""
    rc: np.ndarray
    """``rc[rec - prm[P_REC_BASE], R_*]`` int64: the trace window's records."""
    ws: np.ndarray
    """``ws[sm, w, W_*]`` int64."""
    sb: np.ndarray
    """``sb[sm, e, E_*]`` int64."""
    pht: np.ndarray
    """``pht[sm, i]`` int64: gshare two-bit counters (0..3, >= 2 predicts taken)."""
    cnt: np.ndarray
    """``cnt[sm, K_*]`` int64: the engine counts' columns of ``COUNTERS``."""
    iss: np.ndarray
    """``iss[sm, sched, I_*]`` int64: issue cycles per scheduler (branch hazards)."""
    cta_br_stalls: np.ndarray
    """``cta_br_stalls[cta]`` int64: the CTA's branches that left an issue slot empty
    (``ilp_branch_stalls`` per CTA, C-R7)."""
    core_warp: np.ndarray
    """The engine's ``CoreState.warp`` (read-only view)."""
    core_sb: np.ndarray
    """The engine's ``CoreState.warp_sb`` (read-only view)."""
    core_sb_long: np.ndarray
    """The engine's ``CoreState.warp_sb_long`` (read-only view)."""
    core_cta: np.ndarray
    """The engine's ``CoreState.cta`` (read-only view: a warp's CTA id)."""


def pc_table(program: Any, tables: Any, stages: int = 0) -> np.ndarray:
    """``pct[pc, T_*]`` from the kernel's program (opcodes, branch targets and guards) and the
    static tables (memory kind, branch flag, scoreboard destinations); ``stages``: the
    ``pipelines.register_stage_cycles`` the tables' latencies include (not the unit's own)."""
    n = tables.pc_info.shape[0]
    pct = np.zeros((max(1, n), N_T), np.int64)
    pct[:, T_DST] = -1
    if program is None:
        return pct
    insts = program.insts
    targets = getattr(program, "targets", None)
    guards = getattr(program, "guards", None)
    for pc in range(min(n, len(insts))):
        inst = insts[pc]
        fl = int(tables.pc_info[pc, F_PC_FLAGS])
        mk = int(tables.pc_info[pc, F_PC_MEM])
        op = str(inst.opcode)
        if fl & F_BRANCH:
            pct[pc, T_CLASS] = C_BRANCH
            if guards is not None:
                pct[pc, T_COND] = int(guards[pc][0] >= 0)
            if targets is not None and 0 <= int(targets[pc]) <= pc:
                pct[pc, T_BACKWARD] = 1
        elif mk != MK_NONE:
            pct[pc, T_CLASS] = C_STORE if op in ("st", "red") else C_LOAD
        elif (int(tables.pc_info[pc, F_PC_UNIT]) != UNIT_SFU
              and int(tables.pc_info[pc, F_PC_LATENCY]) - stages >= 2):
            pct[pc, T_BYPASS] = 1
        d = tables.pc_sbdst[pc]
        if d.size and d[0] >= 0:
            pct[pc, T_DST] = int(d[0])
    return pct


def make_state(cfg: Any, info: Any, counters: np.ndarray, core_warp: np.ndarray,
               core_sb: np.ndarray, core_sb_long: np.ndarray,
               core_cta: np.ndarray) -> ILPState:
    """Zeroed state for a launch (``info``: the ``LaunchInfo``)."""
    il = cfg.ilp
    n_sms = cfg.sm.n_sms
    n_w = core_warp.shape[1]
    prm = np.zeros(N_P, np.int64)
    prm[P_BYPASS] = int(il.bypass)
    prm[P_ENTRIES] = il.scoreboard_entries
    prm[P_PREDICTOR] = PREDICTORS.index(il.branch_predictor)
    prm[P_HIST_MASK] = (1 << il.gshare_history_bits) - 1
    prm[P_N_SCHED] = cfg.sm.n_schedulers
    kinds = np.asarray(info.sm_kind if info.sm_kind is not None else np.zeros(n_sms), np.int64)
    sm_ilp = (np.isin(kinds, np.asarray(il.sm_kinds, np.int64)) if il.sm_kinds
             else np.ones(n_sms, bool)).astype(np.int64)
    tables = info.tables
    ws = np.zeros((n_sms, n_w, N_W), np.int64)
    ws[:, :, W_HEAD] = -1
    ws[:, :, W_TAIL] = -1
    sb = np.zeros((n_sms, max(1, il.scoreboard_entries), N_E), np.int64)
    iss = np.zeros((n_sms, cfg.sm.n_schedulers, N_I), np.int64)
    iss[:, :, I_LAST] = -1
    return ILPState(
        prm=prm, sm_ilp=sm_ilp,
        pct=pc_table(info.program, tables, cfg.pipelines.register_stage_cycles),
        sbsrc=np.ascontiguousarray(tables.pc_sbsrc, np.int32),
        rc=np.zeros((1, N_R), np.int64), ws=ws, sb=sb,
        pht=np.ones((n_sms, 1 << il.gshare_history_bits), np.int64), cnt=counters,
        iss=iss, cta_br_stalls=np.zeros(max(1, info.n_ctas), np.int64),
        core_warp=core_warp, core_sb=core_sb, core_sb_long=core_sb_long, core_cta=core_cta)
