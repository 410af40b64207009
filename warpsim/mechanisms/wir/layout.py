"""Index constants of WIR's hook state: the per-record columns, the parameter vector, the
reuse-buffer entry fields and the per-SM scalars.

Follows: specs/wir.md §2.2 (structures and the reuse-buffer entry of Fig. 9).
Hook state ``hs`` (``mechanism.WIR.hook_state``), a tuple:
``(cols, base, prm, pcx, pcsrc, pcdst, rt, pin, pval, ref, pool, poolp, rel, relp, vsb, rb, vc,
wcta, misc, stats, h3q)``.
"""

from __future__ import annotations

__all__ = ["C_BC", "C_FLAGS", "C_SIG0", "N_COLS"]

# -- hs tuple positions ---------------------------------------------------------------------
H_COLS, H_BASE, H_PRM, H_PCX, H_PCSRC, H_PCDST = 0, 1, 2, 3, 4, 5
H_RT, H_PIN, H_PVAL, H_REF, H_POOL, H_POOLP, H_REL, H_RELP = 6, 7, 8, 9, 10, 11, 12, 13
H_VSB, H_RB, H_VC, H_WCTA, H_MISC, H_STATS, H_H3Q = 14, 15, 16, 17, 18, 19, 20

# -- per-record columns (record_columns fills the first ones, the hooks the rest) -------------
C_FLAGS = 0
"""``FL_*`` bits of the record (program-order facts of its warp)."""
C_BC = 1
"""The warp's barrier count at the record (barriers it passed, saturating at 31)."""
C_SIG0 = 2
"""``C_SIG0 + k``: 64-bit signature of destination ``k``'s full 32-lane value after the write."""
C_OUT = 6
"""``OUT_*``: what happened at the reuse stage."""
C_RBIDX = 7
N_SRC = 6
"""Source registers in the tag: 3 operands of up to 64 bits (2 registers each) [A14]."""
C_S0 = 8
"""``C_S0 + k``: physical register of source ``k`` at rename (-1 invalid), k < N_SRC."""
C_NSRC = C_S0 + N_SRC
C_HITP = C_NSRC + 1
"""Result register(s) of a reuse hit (two for a 64-bit result)."""
C_ALLOC = C_HITP + 2
"""Allocation done (bit 0), bank write per destination (bits 1..4), pin per destination
(bits 5..8)."""
C_NEW0 = C_ALLOC + 1
"""``C_NEW0 + k``: physical register destination ``k`` maps to at retire."""
C_MOVP = C_NEW0 + 4
"""Physical register the dummy MOV copies (-1: none)."""
C_PC = C_MOVP + 1
"""The record's pc (hooks without a ``pc`` argument read it here)."""
C_VRB0 = C_PC + 1
"""``C_VRB0 + k``: 1 + the bank destination ``k``'s verify read took (0: none)."""
N_COLS = C_VRB0 + 4

FL_CONV = 1
FL_STSH = 2
FL_STGL = 4

OUT_NONE = 0
OUT_INELIGIBLE = 1
OUT_MISS = 2
OUT_HIT = 3
OUT_PARK = 4
OUT_MISS_NOINSERT = 5

BC_MAX = 31
"""Barrier counts saturate here (5-bit field, §2.12)."""

# -- parameters -----------------------------------------------------------------------------
P_NP, P_NRB, P_NVSB, P_NVC, P_PEND, P_PENDQ, P_LOADS, P_DELAY = 0, 1, 2, 3, 4, 5, 6, 7
P_HITLAT, P_CAPPED, P_REGS, P_RELDELAY, P_HMASK, P_SEED, P_NBANKS, P_CHECK = (
    8, 9, 10, 11, 12, 13, 14, 15)
P_TOKEN = 16
"""Counter of unique values for destinations the trace does not annotate."""
N_PRM = 17

# -- reuse-buffer entry fields (Fig. 9) -------------------------------------------------------
RB_VALID, RB_OPID, RB_O1 = 0, 1, 2
"""``RB_O1 + k``: operand field ``k`` (a source physical register or -1), k < N_SRC."""
RB_TB = RB_O1 + N_SRC
RB_BC = RB_TB + 1
RB_RES = RB_BC + 1
"""Result register(s): ``RB_RES`` and ``RB_RES + 1`` (second half of a 64-bit result)."""
RB_PEND = RB_RES + 2
N_RB = RB_PEND + 1

# -- per-SM scalars ---------------------------------------------------------------------------
M_LIVE, M_PENDQ, M_LOW, M_RNG, M_CLOCK, M_PEAK = range(6)
N_MISC = 6
