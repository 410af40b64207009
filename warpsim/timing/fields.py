"""Field indices of the packed core state and static tables (``state.py``, ``static.py``):
the last axis of ``CoreState.warp[sm, w, F_WARP_*]`` and the others.

Follows: STYLE.md §2.4 (integer constants only). Packing the per-warp, per-unit scalars into
a few int64 arrays keeps the argument tuples of jitted calls short: numba passes and
reference-counts every array of a tuple argument, about 15 ns each per call.
"""

from __future__ import annotations

__all__ = [
    "F_REC_PC",
    "F_REC_NTHR",
    "F_REC_NLINES",
    "F_REC_NSEC",
    "F_REC_BANK",
    "F_REC_LINE0",
    "F_REC_DIVERGED",
    "N_REC_FIELDS",
    "F_WT_BEG",
    "F_WT_END",
    "N_WT_FIELDS",
    "F_ACT_EXEC_THREADS",
    "F_ACT_EXEC_WARPS",
    "N_ACT_FIELDS",
    "F_BANK_RD_COUNT",
    "F_BANK_RD_STAMP",
    "F_BANK_WR_COUNT",
    "F_BANK_WR_STAMP",
    "F_CTA_ID",
    "F_CTA_N_BAR",
    "F_CTA_N_LIVE",
    "F_CTA_N_PLACED",
    "F_CTA_VALID",
    "F_CU_LEFT",
    "F_CU_REC",
    "F_CU_VALID",
    "F_CU_WARP",
    "F_IDOC_COUNT",
    "F_IDOC_HEAD",
    "F_IDOC_REC",
    "F_IDOC_WARP",
    "F_INFL_DELAY",
    "F_INFL_ISSUE",
    "F_INFL_LINES",
    "F_INFL_MK",
    "F_INFL_NFREE",
    "F_INFL_REC",
    "F_INFL_STATE",
    "INFL_BYPASS",
    "INFL_EXEC",
    "INFL_PARKED",
    "F_INFL_VALID",
    "F_INFL_WARP",
    "F_LDST_CUR",
    "F_LDST_LINE",
    "F_LDST_UNIT",
    "F_PC_FLAGS",
    "F_PC_II",
    "F_PC_LATENCY",
    "F_PC_MEM",
    "F_PC_NDST",
    "F_PC_NIMM",
    "F_PC_NSRC",
    "F_PC_OCSET",
    "F_PC_OPCLASS",
    "F_PC_UNIT",
    "F_SET_CU_COUNT",
    "F_SET_CU_START",
    "F_SET_IDOC_CAP",
    "F_SET_IN_PORTS",
    "F_SET_OUT_PORTS",
    "F_SM_CTA_CAP",
    "F_SM_INFL_HW",
    "F_SM_LINES_OUT",
    "F_SM_NEXT_WB",
    "F_SM_N_PARKED",
    "F_SM_N_CTAS",
    "F_SM_N_PARTIAL",
    "F_SM_N_WARPS",
    "F_SM_STORE_ACKS",
    "F_TYPE_UNIT_COUNT",
    "F_TYPE_UNIT_START",
    "F_WARP_AGE",
    "F_WARP_AT_BAR",
    "F_WARP_CTA",
    "F_WARP_END",
    "F_WARP_FETCH_READY",
    "F_WARP_GID",
    "F_WARP_IBUF",
    "F_WARP_INFLIGHT",
    "F_WARP_POS",
    "F_WARP_SB_COUNT",
    "F_WARP_SB_WAIT",
    "F_WARP_STORES",
    "F_WARP_ACK_WAIT",
    "F_WARP_TL_ACTIVE",
    "F_WARP_TL_SEQ",
    "F_WARP_VALID",
    "N_BANK_FIELDS",
    "N_CTA_FIELDS",
    "N_CU_FIELDS",
    "N_IDOC_HC_FIELDS",
    "N_IDOC_Q_FIELDS",
    "N_INFL_FIELDS",
    "N_PC_INFO_FIELDS",
    "N_SET_INFO_FIELDS",
    "N_SMV_FIELDS",
    "WARP_SLOT_OFF",
    "N_TYPE_INFO_FIELDS",
    "N_WARP_FIELDS",
    "N_WB_KINDS",
    "WB_AT_BAR",
    "WB_IBUF",
    "WB_IBUF_FULL",
    "WB_SB_WAIT",
    "WB_VALID",
]

# -- warp --------------------------------------------------------------------------------------
F_WARP_VALID = 0
F_WARP_CTA = 1
F_WARP_GID = 2
F_WARP_POS = 3
F_WARP_END = 4
F_WARP_IBUF = 5
F_WARP_FETCH_READY = 6
F_WARP_AGE = 7
F_WARP_AT_BAR = 8
F_WARP_INFLIGHT = 9
F_WARP_SB_COUNT = 10
F_WARP_TL_ACTIVE = 11
F_WARP_TL_SEQ = 12
F_WARP_SB_WAIT = 13
F_WARP_STORES = 14
"""Stores of the warp sent below the L1 and not acknowledged yet (``l2.store_acks``;
``store_ack.py``): the warp exits only at 0 (GPGPU-Sim ``m_stores_outstanding``)."""
F_WARP_ACK_WAIT = 15
"""Cycle from which the warp was done but for its store acknowledgements; -1: not waiting."""
N_WARP_FIELDS = 16

# -- warp_bits (CoreState.warp_bits[sm, WB_*, word]: one bit per warp slot) -------------------
WB_VALID = 0
"""F_WARP_VALID != 0."""
WB_AT_BAR = 1
"""F_WARP_AT_BAR != 0."""
WB_IBUF = 2
"""F_WARP_IBUF > 0 (an instruction to issue)."""
WB_IBUF_FULL = 3
"""F_WARP_IBUF >= the I-buffer size (nothing to decode into)."""
WB_SB_WAIT = 4
"""F_WARP_SB_WAIT != 0."""
N_WB_KINDS = 5

# -- infl --------------------------------------------------------------------------------------
F_INFL_VALID = 0
F_INFL_WARP = 1
F_INFL_REC = 2
F_INFL_LINES = 3
F_INFL_ISSUE = 4
F_INFL_MK = 5
F_INFL_DELAY = 6
"""Extra cycles from the ``result_delay`` hook, added when a memory instruction's data is in."""
F_INFL_STATE = 7
"""INFL_EXEC (0: dispatched to a unit), INFL_BYPASS (completes at READY without a unit or a
register write: ``ISSUE_COMPLETE``) or INFL_PARKED (held: ``ISSUE_PARK``)."""
N_INFL_FIELDS = 8
INFL_EXEC = 0
INFL_BYPASS = 1
INFL_PARKED = 2

# -- cu ----------------------------------------------------------------------------------------
F_CU_VALID = 0
F_CU_WARP = 1
F_CU_REC = 2
F_CU_LEFT = 3
N_CU_FIELDS = 4

# -- cta ---------------------------------------------------------------------------------------
F_CTA_VALID = 0
F_CTA_ID = 1
F_CTA_N_LIVE = 2
F_CTA_N_BAR = 3
F_CTA_N_PLACED = 4
"""Warps of the CTA placed on warp slots so far (positions 0 .. N_PLACED-1, in warp-id order);
below the CTA's warp count while it is partially dispatched (``warps_to_place`` hook)."""
N_CTA_FIELDS = 5

# -- bank --------------------------------------------------------------------------------------
F_BANK_RD_STAMP = 0
F_BANK_RD_COUNT = 1
F_BANK_WR_STAMP = 2
F_BANK_WR_COUNT = 3
N_BANK_FIELDS = 4

WARP_SLOT_OFF = -2
"""``warp[sm, w, F_WARP_CTA]`` of a warp slot the SM's kind does not have (``sm_kinds``): never
free, never placed (-1 = free, >= 0 = the CTA slot holding it)."""

# -- smv ---------------------------------------------------------------------------------------
F_SM_N_CTAS = 0
F_SM_N_WARPS = 1
F_LDST_CUR = 2
F_LDST_LINE = 3
F_LDST_UNIT = 4
F_SM_NEXT_WB = 5
F_SM_LINES_OUT = 6
F_INFL_NFREE = 7
F_SM_INFL_HW = 8
F_SM_N_PARKED = 9
F_SM_N_PARTIAL = 10
"""CTAs of the SM partially dispatched (some warps not placed yet); the dispatcher scans the
SM's CTA slots for them only while this is positive."""
F_SM_CTA_CAP = 11
"""CTA slots of the SM for this launch (its kind's occupancy limit, after the mechanism's
``ctas_per_sm``); -1: the SM is not in the launch's SM set (not ticked, never dispatched to,
no counters: another launch may own it)."""
F_SM_STORE_ACKS = 12
"""1: the SM's stores are acknowledged and warps wait for them at exit (``l2.store_acks``)."""
N_SMV_FIELDS = 13

# -- idoc_q ------------------------------------------------------------------------------------
F_IDOC_WARP = 0
F_IDOC_REC = 1
N_IDOC_Q_FIELDS = 2

# -- idoc_hc -----------------------------------------------------------------------------------
F_IDOC_HEAD = 0
F_IDOC_COUNT = 1
N_IDOC_HC_FIELDS = 2

# -- pc_info -----------------------------------------------------------------------------------
F_PC_OPCLASS = 0
F_PC_UNIT = 1
F_PC_OCSET = 2
F_PC_LATENCY = 3
F_PC_II = 4
F_PC_NSRC = 5
F_PC_NDST = 6
F_PC_NIMM = 7
F_PC_MEM = 8
F_PC_FLAGS = 9
N_PC_INFO_FIELDS = 10

# -- set_info ----------------------------------------------------------------------------------
F_SET_CU_START = 0
F_SET_CU_COUNT = 1
F_SET_IN_PORTS = 2
F_SET_OUT_PORTS = 3
F_SET_IDOC_CAP = 4
N_SET_INFO_FIELDS = 5

# -- type_info ---------------------------------------------------------------------------------
F_TYPE_UNIT_START = 0
F_TYPE_UNIT_COUNT = 1
N_TYPE_INFO_FIELDS = 2

# -- rec (TraceWindow.rec[r, F_REC_*]) -------------------------------------------------------
F_REC_PC = 0
F_REC_NTHR = 1
F_REC_NLINES = 2
F_REC_NSEC = 3
F_REC_BANK = 4
F_REC_LINE0 = 5
F_REC_DIVERGED = 6
"""1 on a branch record whose warp split: the warp's next record runs fewer of its lanes
(the first path of the reconvergence stack), else 0."""
N_REC_FIELDS = 7

# -- pc_act (CoreState.pc_act[pc, F_ACT_*]) ---------------------------------------------------
F_ACT_EXEC_WARPS = 0
"""Warp instructions dispatched to an execution unit (not those a mechanism completed; every
record issues once, so the issued counts are the functional pass's ``pc_warp_counts``)."""
F_ACT_EXEC_THREADS = 1
N_ACT_FIELDS = 2

# -- wt (TraceWindow.wt[gw, F_WT_*]) ---------------------------------------------------------
F_WT_BEG = 0
F_WT_END = 1
N_WT_FIELDS = 2
