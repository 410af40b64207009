"""The jitted timing hooks of WIR: rename and reuse at issue, pending-retry, physical register
banks, the register-allocation stage at writeback and the rename/RB update at retire.

Follows: specs/wir.md §2.1 (pipeline), §2.3 (rename), §2.4 (reuse lookup), §2.6 (register
allocation), §2.7 (retire), §2.8 (divergence), §2.9 (low register mode), §2.10 (pending-retry),
§2.12 (load reuse); warpsim/mechanisms/hooks.py (signatures). State layout: ``layout.py``.
Assumptions:
  [A8] A reuse hit retires ``reuse_hit_latency`` cycles after issue (ISSUE_COMPLETE); an
       executed instruction takes its latency + ``extra_delay_cycles`` (all after dispatch,
       ``result_delay``; the paper's split of 2 before the read is not modelled).
  [A7] Pending-retry: a parked instruction re-reads its RB entry every cycle (not limited to
       idle RB ports); tag replaced: it executes without reserving.
  [A] A verify read that misses the verify cache reads the matched register's bank in the
      writeback cycle (``writeback_read_bank``): it needs that bank's port (the writeback waits
      a cycle when a write took it) and counts as a register-file bank read.
  [A] Low register mode: a writeback that finds no register stalls (retried next cycle) and
      evicts one valid RB and one VSB entry (seeded pseudo-random start) per attempt; RB/VSB
      misses in the mode evict and insert nothing; it ends at the next successful allocation
      that leaves the pool non-empty. Deadlock fallback: a convergent write may overwrite a
      register only its own rename entry references [A12].
"""

from __future__ import annotations

import numpy as np

from warpsim._jit import jit
from warpsim.mechanisms.wir.allocation import (
    record_tag,
    wir_can_writeback,
    wir_dest_bank,
    wir_on_retire,
    wir_on_writeback,
    wir_writeback_read_bank,
)
from warpsim.mechanisms.wir.counters import S
from warpsim.mechanisms.wir.layout import (
    BC_MAX,
    C_ALLOC,
    C_BC,
    C_FLAGS,
    C_HITP,
    C_MOVP,
    C_NSRC,
    C_OUT,
    C_PC,
    C_RBIDX,
    C_S0,
    C_SIG0,
    FL_CONV,
    FL_STGL,
    FL_STSH,
    H_BASE,
    H_COLS,
    H_MISC,
    H_PCDST,
    H_PCSRC,
    H_PCX,
    H_PIN,
    H_PRM,
    H_PVAL,
    H_RB,
    H_RT,
    H_STATS,
    H_WCTA,
    M_LIVE,
    M_LOW,
    M_PENDQ,
    N_SRC,
    OUT_HIT,
    OUT_INELIGIBLE,
    OUT_MISS,
    OUT_MISS_NOINSERT,
    OUT_PARK,
    P_DELAY,
    P_HITLAT,
    P_LOADS,
    P_NBANKS,
    P_NRB,
    P_PEND,
    P_PENDQ,
    P_SEED,
    RB_PEND,
    RB_RES,
    RB_TB,
    RB_VALID,
)
from warpsim.mechanisms.wir.static_info import (
    K_ARITH,
    K_LD_GLOBAL,
    K_LD_RO,
    K_LD_SHARED,
    K_NONE,
    K_OTHER,
    PX_CLASS,
    PX_DSTSKIP,
    PX_MISMATCH,
    PX_SRCCONST,
)
from warpsim.mechanisms.wir.structures import (
    rb_evict,
    rb_index,
    rb_match,
    rb_write,
    ref_dec,
    ref_inc,
)
from warpsim.timing.consts import INT64_MAX, ISSUE_COMPLETE, ISSUE_EXECUTE, ISSUE_PARK

__all__ = ["wir_can_writeback", "wir_dest_bank", "wir_extra_operand", "wir_on_cta_release",
           "wir_on_cycle_end", "wir_on_issue", "wir_on_retire", "wir_on_warp_exit",
           "wir_on_warp_launch", "wir_operand_bank", "wir_poll_parked", "wir_result_delay",
           "wir_on_writeback", "wir_writeback_read_bank"]

_S_ARITH_MISMATCHES = S["wir_arith_mismatches"]
_S_BYPASS_BARRIER_SAT = S["wir_bypass_barrier_sat"]
_S_BYPASS_CLASS = S["wir_bypass_class"]
_S_BYPASS_DIVERGENT = S["wir_bypass_divergent"]
_S_BYPASS_SOURCE = S["wir_bypass_source"]
_S_BYPASS_STORE_FLAG = S["wir_bypass_store_flag"]
_S_HITS_ALU = S["wir_hits_alu"]
_S_HITS_LD_GLOBAL = S["wir_hits_ld_global"]
_S_HITS_LD_RO = S["wir_hits_ld_ro"]
_S_HITS_LD_SHARED = S["wir_hits_ld_shared"]
_S_LOAD_MISMATCHES = S["wir_load_mismatches"]
_S_LOW_REG_MISSES = S["wir_low_reg_misses"]
_S_PEND_FALLBACKS = S["wir_pend_fallbacks"]
_S_PEND_REQUEUES = S["wir_pend_requeues"]
_S_PEND_RETRIES = S["wir_pend_retries"]
_S_PENDQ_ENQUEUES = S["wir_pendq_enqueues"]
_S_PENDQ_FULL = S["wir_pendq_full"]
_S_RB_HITS = S["wir_rb_hits"]
_S_RB_LOOKUPS = S["wir_rb_lookups"]
_S_RB_MISSES = S["wir_rb_misses"]
_S_RB_PENDING_HITS = S["wir_rb_pending_hits"]
_S_RB_RESERVATIONS = S["wir_rb_reservations"]
_S_RENAME_ACCESSES = S["wir_rename_accesses"]
_S_RENAMED_INSTS = S["wir_renamed_insts"]
_HIT_STAT = (0, _S_HITS_ALU, _S_HITS_LD_RO, _S_HITS_LD_SHARED,
             _S_HITS_LD_GLOBAL)


@jit
def _hit(hs, sm, pc, row, i):  # pragma: no cover - jit
    """Record a reuse hit on entry ``i``; checks the reused value against the trace's."""
    cols = hs[H_COLS]
    st = hs[H_STATS]
    cols[row, C_OUT] = OUT_HIT
    st[_S_RB_HITS] += 1
    cls = hs[H_PCX][pc, PX_CLASS]
    st[_HIT_STAT[cls]] += 1
    wrong = False
    for k in range(2):
        res = hs[H_RB][sm, i, RB_RES + k]
        cols[row, C_HITP + k] = res
        if res >= 0:
            ref_inc(hs, sm, res)
            if hs[H_PVAL][sm, res] != cols[row, C_SIG0 + k]:
                wrong = True
    if wrong:
        hs[H_PCX][pc, PX_MISMATCH] += 1
        if cls == K_ARITH or cls == K_LD_RO:
            st[_S_ARITH_MISMATCHES] += 1
        else:
            st[_S_LOAD_MISMATCHES] += 1


@jit
def wir_on_issue(hs, sm, warp, pc, rec, cycle):  # pragma: no cover - jit
    """Rename (sources -> physical IDs, in-flight references, dummy-MOV source) and the reuse
    stage: a hit completes after ``reuse_hit_latency``, a pending hit parks, else execute."""
    cols = hs[H_COLS]
    row = rec - hs[H_BASE][0]
    prm = hs[H_PRM]
    st = hs[H_STATS]
    misc = hs[H_MISC]
    rt = hs[H_RT]
    pin = hs[H_PIN]
    pcsrc = hs[H_PCSRC]
    pcdst = hs[H_PCDST]
    nr = rt.shape[2]
    st[_S_RENAMED_INSTS] += 1
    fl = cols[row, C_FLAGS]
    bad = False
    ns = 0
    for k in range(N_SRC):
        cols[row, C_S0 + k] = -1
    cbits = hs[H_PCX][pc, PX_SRCCONST]
    for k in range(pcsrc.shape[1]):
        reg = pcsrc[pc, k]
        if reg < 0:
            break
        if (cbits >> k) & 1:  # a rematerialised constant: in the operation identity
            if k < N_SRC:
                ns += 1
            continue
        st[_S_RENAME_ACCESSES] += 1
        p = rt[sm, warp, reg] if reg < nr else -1
        if p < 0 or pin[sm, warp, reg] != 0:
            bad = True
        if k < N_SRC:
            cols[row, C_S0 + k] = p
            if p >= 0:
                ref_inc(hs, sm, p)
            ns += 1
    cols[row, C_NSRC] = ns
    cols[row, C_MOVP] = -1
    cols[row, C_ALLOC] = 0
    cols[row, C_PC] = pc
    cols[row, C_RBIDX] = -1
    cols[row, C_OUT] = OUT_INELIGIBLE
    cls = hs[H_PCX][pc, PX_CLASS]
    if cls == K_NONE:
        return ISSUE_EXECUTE, np.int64(0)
    d0 = pcdst[pc, 0]
    st[_S_RENAME_ACCESSES] += 1
    conv = (fl & FL_CONV) != 0
    if (not conv and d0 >= 0 and d0 < nr and pin[sm, warp, d0] == 0
            and rt[sm, warp, d0] >= 0 and (hs[H_PCX][pc, PX_DSTSKIP] & 1) == 0):
        cols[row, C_MOVP] = rt[sm, warp, d0]
    if cls == K_OTHER or prm[P_NRB] == 0 or (cls != K_ARITH and prm[P_LOADS] == 0):
        st[_S_BYPASS_CLASS] += 1
        return ISSUE_EXECUTE, np.int64(0)
    if not conv:
        st[_S_BYPASS_DIVERGENT] += 1
        return ISSUE_EXECUTE, np.int64(0)
    if bad:
        st[_S_BYPASS_SOURCE] += 1
        return ISSUE_EXECUTE, np.int64(0)
    if (cls == K_LD_SHARED and fl & FL_STSH) or (cls == K_LD_GLOBAL and fl & FL_STGL):
        st[_S_BYPASS_STORE_FLAG] += 1
        return ISSUE_EXECUTE, np.int64(0)
    if (cls == K_LD_SHARED or cls == K_LD_GLOBAL) and cols[row, C_BC] >= BC_MAX:
        st[_S_BYPASS_BARRIER_SAT] += 1
        return ISSUE_EXECUTE, np.int64(0)
    opid, tb, bc = record_tag(hs, sm, warp, pc, row)
    i = rb_index(opid, cols, row, tb, prm[P_SEED], prm[P_NRB])
    cols[row, C_RBIDX] = i
    cols[row, C_OUT] = OUT_MISS
    st[_S_RB_LOOKUPS] += 1
    rb = hs[H_RB]
    if rb_match(hs, sm, i, opid, cols, row, tb, bc):
        if rb[sm, i, RB_PEND] == 0:
            _hit(hs, sm, pc, row, i)
            return ISSUE_COMPLETE, cycle + prm[P_HITLAT]
        if misc[sm, M_PENDQ] < prm[P_PENDQ]:
            misc[sm, M_PENDQ] += 1
            cols[row, C_OUT] = OUT_PARK
            st[_S_PENDQ_ENQUEUES] += 1
            return ISSUE_PARK, np.int64(0)
        st[_S_PENDQ_FULL] += 1
        cols[row, C_OUT] = OUT_MISS_NOINSERT
        return ISSUE_EXECUTE, np.int64(0)
    st[_S_RB_MISSES] += 1
    if misc[sm, M_LOW] != 0:
        rb_evict(hs, sm, i, cycle)
        st[_S_LOW_REG_MISSES] += 1
        cols[row, C_OUT] = OUT_MISS_NOINSERT
    elif prm[P_PEND] != 0:
        rb_write(hs, sm, i, opid, cols, row, tb, bc, -1, -1, 1, cycle)
        st[_S_RB_RESERVATIONS] += 1
    return ISSUE_EXECUTE, np.int64(0)


@jit
def wir_poll_parked(hs, sm, warp, rec, cycle):  # pragma: no cover - jit
    """Pending-retry (§VI-B): re-read the entry; filled: a pending-retry hit; still pending:
    re-queue; replaced: execute without reserving."""
    cols = hs[H_COLS]
    row = rec - hs[H_BASE][0]
    if cols[row, C_OUT] != OUT_PARK:
        return ISSUE_EXECUTE, np.int64(0)
    st = hs[H_STATS]
    misc = hs[H_MISC]
    pc = cols[row, C_PC]
    opid, tb, bc = record_tag(hs, sm, warp, pc, row)
    i = cols[row, C_RBIDX]
    st[_S_PEND_RETRIES] += 1
    if rb_match(hs, sm, i, opid, cols, row, tb, bc):
        if hs[H_RB][sm, i, RB_PEND] != 0:
            st[_S_PEND_REQUEUES] += 1
            return ISSUE_PARK, np.int64(0)
        misc[sm, M_PENDQ] -= 1
        _hit(hs, sm, pc, row, i)
        st[_S_RB_PENDING_HITS] += 1
        return ISSUE_COMPLETE, cycle + 1
    misc[sm, M_PENDQ] -= 1
    st[_S_PEND_FALLBACKS] += 1
    cols[row, C_OUT] = OUT_MISS
    return ISSUE_EXECUTE, np.int64(0)


@jit
def wir_extra_operand(hs, sm, warp, rec):  # pragma: no cover - jit
    """The dummy MOV reads the destination's current register through the collector."""
    row = rec - hs[H_BASE][0]
    if hs[H_COLS][row, C_MOVP] >= 0:
        return np.int64(hs[H_RT].shape[2])  # a pseudo register: operand_bank maps it
    return -1


@jit
def wir_operand_bank(hs, sm, warp, rec, reg, bank):  # pragma: no cover - jit
    """Register banks are indexed by physical ID (``P mod n_banks``) [A28]."""
    cols = hs[H_COLS]
    row = rec - hs[H_BASE][0]
    nb = hs[H_PRM][P_NBANKS]
    if reg == hs[H_RT].shape[2] and cols[row, C_MOVP] >= 0:
        return cols[row, C_MOVP] % nb
    pcsrc = hs[H_PCSRC]
    pc = cols[row, C_PC]
    for k in range(min(pcsrc.shape[1], N_SRC)):
        if pcsrc[pc, k] == reg:
            p = cols[row, C_S0 + k]
            return p % nb if p >= 0 else bank
        if pcsrc[pc, k] < 0:
            break
    return bank


@jit
def wir_result_delay(hs, sm, warp, rec, cycle):  # pragma: no cover - jit
    """The rename, reuse and two allocation stages of an executed instruction; a parked or
    completed instruction the engine executes anyway (no in-flight slot) becomes a miss."""
    cols = hs[H_COLS]
    row = rec - hs[H_BASE][0]
    if cols[row, C_OUT] == OUT_PARK:
        hs[H_MISC][sm, M_PENDQ] -= 1
        cols[row, C_OUT] = OUT_MISS_NOINSERT
    return hs[H_PRM][P_DELAY]


@jit
def wir_on_warp_launch(hs, sm, warp, cta_slot, pos, cycle):  # pragma: no cover - jit
    """Rename-table entries of a new warp are invalid (§2.3); remember its TB slot."""
    hs[H_WCTA][sm, warp] = cta_slot
    hs[H_MISC][sm, M_LIVE] += 1
    return None


@jit
def wir_on_warp_exit(hs, sm, warp, cycle):  # pragma: no cover - jit
    """The exited warp's rename entries drop their references."""
    rt = hs[H_RT]
    for r in range(rt.shape[2]):
        p = rt[sm, warp, r]
        if p >= 0:
            ref_dec(hs, sm, p, cycle)
            rt[sm, warp, r] = -1
        hs[H_PIN][sm, warp, r] = 0
    hs[H_MISC][sm, M_LIVE] -= 1
    return None


@jit
def wir_on_cta_release(hs, sm, cta_slot, cycle):  # pragma: no cover - jit
    """Shared-load entries of the TB slot die with its scratchpad contents [A18]."""
    rb = hs[H_RB]
    for i in range(hs[H_PRM][P_NRB]):
        if rb[sm, i, RB_VALID] != 0 and rb[sm, i, RB_TB] == cta_slot + 1:
            rb_evict(hs, sm, i, cycle)
    return None


@jit
def wir_on_cycle_end(hs, counters, cycle):  # pragma: no cover - jit
    """Keep simulating every cycle while an SM waits for registers to return to the pool."""
    misc = hs[H_MISC]
    for sm in range(misc.shape[0]):
        if misc[sm, M_LOW] != 0:
            return cycle + 1
    return INT64_MAX

