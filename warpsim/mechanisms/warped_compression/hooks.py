"""The jitted timing hooks of Warped-Compression: per-register image sizes and per-bank valid
counts mirrored per SM, bank power gating with wake-up, compressor/decompressor throughput,
the compression/decompression pipeline stages and the dummy MOV's operand read.

Follows: specs/warped-compression.md §2.3 (cluster = (reg + warp) % 4, a warp register in 8
consecutive banks of its cluster, images from bank 0), §5.2 (latencies, units), §5.3 (write
path), §5.5 (MOV), §5.6 (gating FSM), §10 (integration checklist); warpsim/mechanisms/hooks.py
(signatures).
Hook state ``hs`` (built by ``mechanism.WarpedCompression.hook_state``), a tuple:
``(cols, base, pc_dst, prm, kreg, valid, on_since, off_at, wake_at, on_time, warp_cta,
unit_use, hstats)``.
Assumptions:
  [A15] A bank gates when its last valid entry is cleared (after ``gate_idle_timeout_cycles``);
       a write to a gated bank wakes it and waits ``wakeup_latency_cycles``; reads never wait
       (a valid entry implies an active bank); a waking bank counts as not gated.
  [A] ``on_warp_launch`` records each warp slot's CTA slot, so that ``on_cta_release`` clears
       the valid bits of exactly that CTA's warps.
  [A] Structural limits: a write waits a cycle when the SM's compressors are taken this cycle;
       decompressor over-subscription is counted (``wc_decomp_struct_stalls``), not delayed.
"""

from __future__ import annotations

import numpy as np

from warpsim._jit import jit
from warpsim.mechanisms.warped_compression.counters import (
    COL_COMP,
    COL_DST_BANKS,
    COL_FLAGS,
    COL_MOV_REG,
    FL_HAS_DST,
    FL_MOV_SHIFT,
    FL_READS_COMPRESSED,
    FL_WRITES_COMPRESSED,
    H,
)

__all__ = ["N_PRM", "wc_can_writeback", "wc_cluster_bank", "wc_extra_operand", "wc_on_cta_release",
           "wc_on_operand_read", "wc_on_warp_launch", "wc_on_writeback", "wc_result_delay"]

# prm indices
PR_WAKE = 0
PR_TIMEOUT = 1
PR_GATING = 2
PR_NCOMP = 3
PR_NDECOMP = 4
PR_C = 5
PR_D = 6
PR_ONLY_COMPRESSED = 7
PR_WPC = 8
PR_LAST_CYCLE = 9
N_PRM = 10

_H_WAKEUPS = H["wc_wakeups"]
_H_WAKE_STALL = H["wc_wakeup_stall_cycles"]
_H_COMP_STALL = H["wc_comp_struct_stalls"]
_H_DECOMP_STALL = H["wc_decomp_struct_stalls"]


@jit
def _ensure_on(hs, sm, b, cycle):  # pragma: no cover - jit
    """Turn bank ``b`` on (waking it when gated); returns the cycle it can be written."""
    prm = hs[3]
    on_since = hs[6]
    off_at = hs[7]
    wake_at = hs[8]
    on_time = hs[9]
    if prm[PR_GATING] == 0:
        return np.int64(0)
    gated = on_since[sm, b] < 0
    if not gated and off_at[sm, b] >= 0:
        if cycle < off_at[sm, b]:
            off_at[sm, b] = -1  # still on: the pending gate is cancelled
        else:
            on_time[sm, b] += off_at[sm, b] - on_since[sm, b]
            off_at[sm, b] = -1
            gated = True
    if gated:
        on_since[sm, b] = cycle
        wake_at[sm, b] = cycle + prm[PR_WAKE]
        hs[12][_H_WAKEUPS] += 1
    return wake_at[sm, b]


@jit
def _invalidate(hs, sm, b, cycle):  # pragma: no cover - jit
    """One valid entry of bank ``b`` left; gate the bank when it was the last."""
    valid = hs[5]
    valid[sm, b] -= 1
    prm = hs[3]
    if valid[sm, b] > 0 or prm[PR_GATING] == 0 or hs[6][sm, b] < 0:
        return
    if prm[PR_TIMEOUT] == 0:
        hs[9][sm, b] += cycle - hs[6][sm, b]
        hs[6][sm, b] = -1
        hs[7][sm, b] = -1
    else:
        hs[7][sm, b] = cycle + prm[PR_TIMEOUT]


@jit
def _note_cycle(hs, cycle):  # pragma: no cover - jit
    if cycle > hs[3][PR_LAST_CYCLE]:
        hs[3][PR_LAST_CYCLE] = cycle


@jit
def wc_on_writeback(hs, sm, warp, pc, rec, cycle):  # pragma: no cover - jit
    """Store the record's images: set/clear valid entries of the destination clusters' banks
    (waking gated ones); returns the dummy MOVs' extra warp-register writes."""
    cols = hs[0]
    row = rec - hs[1][0]
    pc_dst = hs[2]
    kreg = hs[4]
    valid = hs[5]
    _note_cycle(hs, cycle)
    packed = cols[row, COL_DST_BANKS]
    extra = cols[row, COL_FLAGS] >> FL_MOV_SHIFT
    for k in range(pc_dst.shape[1]):
        reg = pc_dst[pc, k]
        if reg < 0:
            break
        kb = (packed >> (4 * k)) & 15 if k < 15 else 8
        if kb == 0:
            kb = 8
        if reg >= kreg.shape[2]:
            continue
        old = kreg[sm, warp, reg]
        cl = (reg + warp) % 4
        for j in range(max(old, kb)):
            b = cl * 8 + j
            if j >= old:
                _ensure_on(hs, sm, b, cycle)
                valid[sm, b] += 1
            elif j >= kb:
                _invalidate(hs, sm, b, cycle)
        kreg[sm, warp, reg] = kb
    return extra


@jit
def wc_can_writeback(hs, sm, warp, pc, rec, cycle):  # pragma: no cover - jit
    """Whether the record may write this cycle: every bank it needs is awake (a gated one is
    woken now) and the SM's compressors have room; takes the compressors when it may."""
    cols = hs[0]
    row = rec - hs[1][0]
    pc_dst = hs[2]
    prm = hs[3]
    kreg = hs[4]
    unit_use = hs[11]
    hst = hs[12]
    _note_cycle(hs, cycle)
    packed = cols[row, COL_DST_BANKS]
    ready = np.int64(0)
    for k in range(pc_dst.shape[1]):
        reg = pc_dst[pc, k]
        if reg < 0:
            break
        if reg >= kreg.shape[2]:
            continue
        kb = (packed >> (4 * k)) & 15 if k < 15 else 8
        if kb == 0:
            kb = 8
        old = kreg[sm, warp, reg]
        cl = (reg + warp) % 4
        for j in range(old, kb):
            ready = max(ready, _ensure_on(hs, sm, cl * 8 + j, cycle))
    if ready > cycle:
        hst[_H_WAKE_STALL] += 1
        return False
    nc = cols[row, COL_COMP]
    if nc > 0:
        if unit_use[sm, 0] != cycle:
            unit_use[sm, 0] = cycle
            unit_use[sm, 1] = 0
        if unit_use[sm, 1] > 0 and unit_use[sm, 1] + nc > prm[PR_NCOMP]:
            hst[_H_COMP_STALL] += 1
            return False
        unit_use[sm, 1] += nc
    return True


@jit
def wc_on_operand_read(hs, sm, warp, reg, bank, cycle):  # pragma: no cover - jit
    """A granted operand read: one warp-register read for the engine's counters; counts the
    decompressors it takes this cycle (over-subscription is a structural stall)."""
    kreg = hs[4]
    if reg < kreg.shape[2] and 0 < kreg[sm, warp, reg] < 8:
        unit_use = hs[11]
        if unit_use[sm, 2] != cycle:
            unit_use[sm, 2] = cycle
            unit_use[sm, 3] = 0
        unit_use[sm, 3] += 1
        if unit_use[sm, 3] > hs[3][PR_NDECOMP]:
            hs[12][_H_DECOMP_STALL] += 1
    return 1


@jit
def wc_result_delay(hs, sm, warp, rec, cycle):  # pragma: no cover - jit
    """Extra cycles before the result is written: the decompression stage (D, every
    instruction) and the compression stage (C, instructions writing registers), or only for
    compressed operands / writes (spec §5.2, A8)."""
    prm = hs[3]
    fl = hs[0][rec - hs[1][0], COL_FLAGS]
    if prm[PR_ONLY_COMPRESSED] == 0:
        return prm[PR_D] + (prm[PR_C] if fl & FL_HAS_DST else 0)
    d = np.int64(0)
    if fl & FL_READS_COMPRESSED:
        d += prm[PR_D]
    if fl & FL_WRITES_COMPRESSED:
        d += prm[PR_C]
    return d


@jit
def wc_extra_operand(hs, sm, warp, rec):  # pragma: no cover - jit
    """The register the record's dummy MOV reads through the same collector, or -1."""
    return hs[0][rec - hs[1][0], COL_MOV_REG]


@jit
def wc_cluster_bank(hs, sm, warp, rec, reg, bank):  # pragma: no cover - jit
    """Operand storage (spec §2.3-§2.4): a warp register lives in the 8 banks of cluster
    ``(reg + warp) % 4``, every image from the cluster's bank 0, so the bank arbiter sees the
    cluster as one bank: two accesses to one cluster conflict whatever their sizes."""
    return (reg + warp) % 4


@jit
def wc_on_warp_launch(hs, sm, warp, cta_slot, pos, cycle):  # pragma: no cover - jit
    """Remember which CTA slot holds the warp slot (its registers are freed with the CTA)."""
    hs[10][sm, warp] = cta_slot
    return None


@jit
def wc_on_cta_release(hs, sm, cta_slot, cycle):  # pragma: no cover - jit
    """Register deallocation at CTA exit: clear every valid entry of the CTA's warps."""
    kreg = hs[4]
    warp_cta = hs[10]
    _note_cycle(hs, cycle)
    for w in range(warp_cta.shape[1]):
        if warp_cta[sm, w] != cta_slot:
            continue
        for reg in range(kreg.shape[2]):
            kb = kreg[sm, w, reg]
            if kb == 0:
                continue
            cl = (reg + w) % 4
            for j in range(kb):
                _invalidate(hs, sm, cl * 8 + j, cycle)
            kreg[sm, w, reg] = 0
        warp_cta[sm, w] = -1
    return None
