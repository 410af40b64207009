"""The uniform-vector mechanism's hook state: parameter slots, issue-mode bits and the arrays
(token bits, rename table, free list, reuse buffer, in-flight modes, live intervals).

Follows: specs/xiang-simt-efficiency.md §1.5 (token file: one bit per physical vector register),
§1.6 (SRF, rename map table, free list), §1.8 (IRB: partial-PC tag, values, LRU), §1.9 (live
intervals for the VRF coverage).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from warpsim.mechanisms.uniform_vectors.counters import HOOK_STATS

__all__ = ["FAULT_ONE", "IRB_PC", "IRB_KEY", "IRB_STAMP", "M_COPY_SHIFT", "M_DST_SRF", "M_HIT",
           "M_SCALAR", "N_PRM", "P_ALU_FAULT", "P_BCAST", "P_DESIGN", "P_IRB_FAULT", "P_LAUNCH",
           "P_NIRB", "P_NREGS", "P_NSRF", "P_REC_BASE", "P_REL", "P_RELEASE_WB", "P_RENAME",
           "P_SCALAR", "P_TAG_MASK", "RING", "RING_OLD", "fault_threshold", "make_arrays"]

(P_DESIGN, P_SCALAR, P_NIRB, P_NSRF, P_REL, P_NREGS, P_REC_BASE, P_TAG_MASK, P_BCAST,
 P_RELEASE_WB, P_RENAME, P_IRB_FAULT, P_ALU_FAULT, P_LAUNCH) = range(14)
N_PRM = 14
"""Parameter slots: design (1: srf), scalar issue, IRB entries (-1: oracle), SRF entries,
reliability, registers per thread, first record of the hook state, partial-PC tag mask,
broadcast tokens, SR release at WB, SRF rename stage, fault thresholds (``fault_threshold``),
the launch's index (salts the fault draws: launches of one kernel draw differently)."""

FAULT_ONE = 1 << 32
"""Fault probabilities are fixed point: a 32-bit random draw below ``p * FAULT_ONE`` faults."""

M_SCALAR = 1
"""Converted: one lane computes, the issue port is held one cycle."""
M_HIT = 2
"""IRB hit: completes the next cycle without a unit."""
M_DST_SRF = 4
"""The result is written to the scalar register file, not the banked vector file."""
M_COPY_SHIFT = 8
"""Bits from here: copy-on-write moves inserted before the instruction."""

RING = 128
"""In-flight issue modes kept per warp (indexed by record modulo RING, tagged by record)."""
RING_OLD = 2
"""Old scalar registers a ring entry holds for release at retirement (``srf_release=wb``);
a redefinition of more registers releases the rest at issue [A]."""

IRB_PC, IRB_KEY, IRB_STAMP = 0, 1, 2
"""IRB entry fields: the pc (its low bits are the tag), the value key, the LRU stamp (0:
invalid)."""

PARTIAL_PC_BITS = 10
"""The IRB's partial-PC tag (spec §1.8: 10 bits)."""


def fault_threshold(p: float) -> int:
    """``p`` as the fixed-point threshold of a 32-bit draw (``FAULT_ONE``)."""
    return round(p * FAULT_ONE)


def make_arrays(n_sms: int, n_warps: int, n_regs: int, n_sb: int, n_irb: int,
                n_srf: int, n_pcs: int = 1) -> tuple[Any, ...]:
    """Fresh per-launch arrays: utrk, srmap, free stack, free top, irb (``n_irb`` entries, or
    one per pc for the oracle, ``n_irb`` -1), irb clock, ring, live, rename-stage state per
    warp (-1 idle, -2 a branch issued, else the cycle its refill reached the I-buffer), the
    wake-up cycle and the number of armed warps, stats, the armed warps (a warp slot may be
    listed twice for a cycle: its exit and a new warp's branch)."""
    stack = np.tile(np.arange(n_srf - 1, -1, -1, dtype=np.int32), (n_sms, 1))
    live = np.full((n_sms, n_warps, max(1, n_regs), 3), -1, np.int64)
    live[:, :, :, 2] = 0
    return (np.zeros((n_sms, n_warps, max(1, n_sb)), np.uint8),       # utrk
            np.full((n_sms, n_warps, max(1, n_regs)), -1, np.int32),    # srmap
            stack,                                                      # free SRs (stack)
            np.full(n_sms, n_srf, np.int64),                            # free count
            np.zeros((n_sms, max(1, n_pcs if n_irb < 0 else n_irb), 3), np.int64),  # irb
            np.zeros(n_sms, np.int64),                                  # irb LRU clock
            np.full((n_sms, n_warps, RING, 2 + RING_OLD), -1, np.int64),  # tag, mode, old SRs
            live,                                                       # def, use, protected
            np.full((n_sms, n_warps), -1, np.int64),                    # rename stage
            np.array([np.iinfo(np.int64).max, 0], np.int64),            # wake-up, n armed
            np.zeros(len(HOOK_STATS), np.int64),
            np.zeros((2 * n_sms * n_warps, 2), np.int64))               # armed (sm, warp)
