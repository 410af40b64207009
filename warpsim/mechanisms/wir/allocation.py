"""WIR's register-allocation stage and retire as timing hooks: the VSB lookup with verify read,
new, dedicated or in-place registers, low register mode, then the rename-table write, the RB
fill/update and the reference counts at retire.

Follows: specs/wir.md §2.6 (register allocation), §2.7 (retire), §2.8 (divergence: pin bits,
dummy MOV), §2.9 (low register mode, deadlock fallback [A12]), §2.11 (verify cache).
Assumptions: see ``hooks.py`` (verify reads take no bank port; low register mode).
"""

from __future__ import annotations

import numpy as np

from warpsim._jit import jit
from warpsim.mechanisms.wir.counters import S
from warpsim.mechanisms.wir.layout import (
    C_ALLOC,
    C_BC,
    C_FLAGS,
    C_HITP,
    C_MOVP,
    C_NEW0,
    C_NSRC,
    C_OUT,
    C_PC,
    C_RBIDX,
    C_S0,
    C_SIG0,
    C_VRB0,
    FL_CONV,
    H_BASE,
    H_COLS,
    H_MISC,
    H_PCDST,
    H_PCX,
    H_PIN,
    H_PRM,
    H_PVAL,
    H_RB,
    H_REF,
    H_RELP,
    H_RT,
    H_STATS,
    H_VSB,
    H_WCTA,
    M_LOW,
    M_RNG,
    OUT_HIT,
    OUT_MISS,
    P_NBANKS,
    P_NRB,
    P_NVC,
    P_NVSB,
    RB_PEND,
    RB_RES,
    RB_VALID,
)
from warpsim.mechanisms.wir.static_info import (
    K_LD_GLOBAL,
    K_LD_SHARED,
    K_NONE,
    MAX_DST,
    PX_CLASS,
    PX_DSTSKIP,
    PX_NDST,
    PX_OPID,
)
from warpsim.mechanisms.wir.structures import (
    alloc_reg,
    available,
    rb_evict,
    rb_match,
    rb_write,
    ref_dec,
    ref_inc,
    vc_contains,
    vc_invalidate,
    vc_lookup,
    vsb_evict,
    vsb_insert,
    vsb_match,
)

__all__ = ["record_tag", "wir_can_writeback", "wir_dest_bank", "wir_on_retire",
           "wir_on_writeback", "wir_writeback_read_bank"]

_S_ALLOC_STALLS = S["wir_alloc_stalls"]
_S_DEDICATED_ALLOCS = S["wir_dedicated_allocs"]
_S_DIVERGENT_WRITES = S["wir_divergent_writes"]
_S_DUMMY_MOVS = S["wir_dummy_movs"]
_S_EXECUTED_INSTS = S["wir_executed_insts"]
_S_HASHES = S["wir_hashes"]
_S_INPLACE_FALLBACKS = S["wir_inplace_fallbacks"]
_S_INPLACE_WRITES = S["wir_inplace_writes"]
_S_LOW_REG_EVICTIONS = S["wir_low_reg_evictions"]
_S_RB_UPDATES = S["wir_rb_updates"]
_S_REG_WRITES = S["wir_reg_writes"]
_S_RENAME_ACCESSES = S["wir_rename_accesses"]
_S_VERIFY_CACHE_HITS = S["wir_verify_cache_hits"]
_S_VERIFY_CACHE_MISSES = S["wir_verify_cache_misses"]
_S_VERIFY_READS = S["wir_verify_reads"]
_S_VSB_FALSE_POSITIVES = S["wir_vsb_false_positives"]
_S_VSB_HITS = S["wir_vsb_hits"]
_S_VSB_INSERTS = S["wir_vsb_inserts"]
_S_VSB_LOOKUPS = S["wir_vsb_lookups"]
_S_VSB_MISSES = S["wir_vsb_misses"]
_S_VSB_VERIFIED = S["wir_vsb_verified"]


@jit
def record_tag(hs, sm, warp, pc, row):  # pragma: no cover - jit
    """(opid, tb, bc) of the record: TB slot + 1 for shared loads, the barrier count for
    shared and global loads, else 0 (the source fields are the record's ``C_S0`` columns)."""
    cols = hs[H_COLS]
    cls = hs[H_PCX][pc, PX_CLASS]
    tb = hs[H_WCTA][sm, warp] + 1 if cls == K_LD_SHARED else 0
    bc = cols[row, C_BC] if cls == K_LD_SHARED or cls == K_LD_GLOBAL else 0
    return hs[H_PCX][pc, PX_OPID], tb, bc


@jit
def _evict_some(hs, sm, misc, cycle):  # pragma: no cover - jit
    """Low register mode: evict one valid RB entry and one VSB entry (pseudo-random start).
    Returns whether anything was evicted."""
    prm = hs[H_PRM]
    st = hs[H_STATS]
    misc[sm, M_RNG] = (misc[sm, M_RNG] * 1103515245 + 12345) & 0x7FFFFFFF
    r = misc[sm, M_RNG]
    done = False
    rb = hs[H_RB]
    n = prm[P_NRB]
    for j in range(n):
        i = (r + j) % n
        if rb[sm, i, RB_VALID] != 0:
            rb_evict(hs, sm, i, cycle)
            st[_S_LOW_REG_EVICTIONS] += 1
            done = True
            break
    vsb = hs[H_VSB]
    n = prm[P_NVSB]
    for j in range(n):
        i = (r + j) % n
        if vsb[sm, i, 1] >= 0:
            vsb_evict(hs, sm, i, cycle)
            st[_S_LOW_REG_EVICTIONS] += 1
            done = True
            break
    return done


@jit
def wir_can_writeback(hs, sm, warp, pc, rec, cycle):  # pragma: no cover - jit
    """The register-allocation stage (§2.6, §2.8): per destination, the VSB lookup with verify
    read, or a new / dedicated register, or an in-place divergent write. False (retry next
    cycle) when registers are short."""
    cols = hs[H_COLS]
    row = rec - hs[H_BASE][0]
    if cols[row, C_ALLOC] & 1:
        return True
    prm = hs[H_PRM]
    st = hs[H_STATS]
    misc = hs[H_MISC]
    out = cols[row, C_OUT]
    if out == OUT_HIT or hs[H_PCX][pc, PX_CLASS] == K_NONE:
        cols[row, C_ALLOC] = 1
        return True
    rt = hs[H_RT]
    pin = hs[H_PIN]
    pval = hs[H_PVAL]
    pcdst = hs[H_PCDST]
    nr = rt.shape[2]
    conv = (cols[row, C_FLAGS] & FL_CONV) != 0
    nv = prm[P_NVSB]
    skip = hs[H_PCX][pc, PX_DSTSKIP]
    # phase 1: registers needed (no side effects)
    need = 0
    inplace_ok = True
    for k in range(min(pcdst.shape[1], MAX_DST)):
        d = pcdst[pc, k]
        if d < 0:
            break
        if d >= nr or (skip >> k) & 1:
            continue
        old = rt[sm, warp, d]
        if not conv:
            if pin[sm, warp, d] == 0 or old < 0:
                need += 1
                inplace_ok = False
            continue
        fresh = True
        if nv > 0:
            s = cols[row, C_SIG0 + k]
            _, _, p = vsb_match(hs, sm, s)
            if p >= 0 and pval[sm, p] == s:
                fresh = False
        if fresh:
            need += 1
            if old < 0 or hs[H_REF][sm, old] != 1 or pin[sm, warp, d] != 0:
                inplace_ok = False
    fallback = False
    if need > 0 and available(hs, sm, misc, cycle) < need:
        misc[sm, M_LOW] = 1
        st[_S_ALLOC_STALLS] += 1
        if _evict_some(hs, sm, misc, cycle) or hs[H_RELP][sm, 1] > 0 or not inplace_ok:
            return False
        fallback = True
    # phase 2: allocate
    bits = np.int64(1)
    for k in range(min(pcdst.shape[1], MAX_DST)):
        d = pcdst[pc, k]
        if d < 0:
            break
        if d >= nr or (skip >> k) & 1:
            continue
        old = rt[sm, warp, d]
        s = cols[row, C_SIG0 + k]
        newp = np.int64(-1)
        write = True
        pinned = False
        if not conv:
            st[_S_DIVERGENT_WRITES] += 1
            pinned = True
            if pin[sm, warp, d] != 0 and old >= 0:
                newp = old
                st[_S_INPLACE_WRITES] += 1
            else:
                newp = alloc_reg(hs, sm, misc)
                st[_S_DEDICATED_ALLOCS] += 1
                if old >= 0:
                    st[_S_DUMMY_MOVS] += 1
        else:
            if nv > 0:
                h, e, pc_ = vsb_match(hs, sm, s)
                st[_S_HASHES] += 1
                st[_S_VSB_LOOKUPS] += 1
                if pc_ >= 0:
                    st[_S_VSB_HITS] += 1
                    st[_S_VERIFY_READS] += 1
                    if prm[P_NVC] > 0 and vc_lookup(hs, sm, misc, pc_):
                        st[_S_VERIFY_CACHE_HITS] += 1
                    else:  # a read of the register file: its bank's port this cycle
                        st[_S_VERIFY_CACHE_MISSES] += 1
                        cols[row, C_VRB0 + k] = pc_ % prm[P_NBANKS] + 1
                    if pval[sm, pc_] == s:
                        st[_S_VSB_VERIFIED] += 1
                        newp = pc_
                        write = False
                    else:
                        st[_S_VSB_FALSE_POSITIVES] += 1
                        newp = old if fallback else alloc_reg(hs, sm, misc)
                else:
                    st[_S_VSB_MISSES] += 1
                    newp = old if fallback else alloc_reg(hs, sm, misc)
                    if misc[sm, M_LOW] != 0:
                        vsb_evict(hs, sm, e, cycle)
                    else:
                        vsb_insert(hs, sm, e, h, newp, cycle)
                        st[_S_VSB_INSERTS] += 1
            else:
                newp = old if fallback else alloc_reg(hs, sm, misc)
            if fallback:
                st[_S_INPLACE_FALLBACKS] += 1
        if write:
            pval[sm, newp] = s
            if prm[P_NVC] > 0:
                vc_invalidate(hs, sm, newp)
            st[_S_REG_WRITES] += 1
            bits |= np.int64(1) << (1 + k)
        if pinned:
            bits |= np.int64(1) << (5 + k)
        ref_inc(hs, sm, newp)  # in flight until retire
        cols[row, C_NEW0 + k] = newp
    if misc[sm, M_LOW] != 0 and available(hs, sm, misc, cycle) > 0:
        misc[sm, M_LOW] = 0
    cols[row, C_ALLOC] = bits
    return True


@jit
def wir_dest_bank(hs, sm, warp, rec, reg, bank):  # pragma: no cover - jit
    """The bank of the allocated physical register; -1 when the result is not written (a
    verified VSB hit or a reuse hit). Before allocation: the baseline mapping."""
    cols = hs[H_COLS]
    row = rec - hs[H_BASE][0]
    a = cols[row, C_ALLOC]
    if (a & 1) == 0:
        return bank
    if cols[row, C_OUT] == OUT_HIT:
        return -1
    pcdst = hs[H_PCDST]
    pc = cols[row, C_PC]
    for k in range(min(pcdst.shape[1], MAX_DST)):
        if pcdst[pc, k] == reg:
            if (hs[H_PCX][pc, PX_DSTSKIP] >> k) & 1:
                return bank
            if (a >> (1 + k)) & 1:
                return cols[row, C_NEW0 + k] % hs[H_PRM][P_NBANKS]
            return -1
    return bank


@jit
def wir_writeback_read_bank(hs, sm, warp, rec, reg):  # pragma: no cover - jit
    """The bank of destination ``reg``'s verify read (§2.6: a VSB tag hit reads the matched
    register unless the verify cache holds it), -1 for none. After the allocation stage: the
    read it made; before (the engine's port check): what the VSB and the verify cache would
    give now, without side effects."""
    cols = hs[H_COLS]
    row = rec - hs[H_BASE][0]
    pc = cols[row, C_PC]
    pcdst = hs[H_PCDST]
    k = -1
    for j in range(min(pcdst.shape[1], MAX_DST)):
        if pcdst[pc, j] == reg:
            k = j
            break
    if k < 0:
        return np.int64(-1)
    if cols[row, C_ALLOC] & 1:
        return np.int64(cols[row, C_VRB0 + k] - 1)
    prm = hs[H_PRM]
    nv = prm[P_NVSB]
    if (nv <= 0 or cols[row, C_OUT] == OUT_HIT or hs[H_PCX][pc, PX_CLASS] == K_NONE
            or (cols[row, C_FLAGS] & FL_CONV) == 0 or (hs[H_PCX][pc, PX_DSTSKIP] >> k) & 1
            or reg >= hs[H_RT].shape[2]):
        return np.int64(-1)
    _, _, p = vsb_match(hs, sm, cols[row, C_SIG0 + k])
    if p < 0:
        return np.int64(-1)
    if prm[P_NVC] > 0 and vc_contains(hs, sm, p):
        return np.int64(-1)
    return np.int64(p % prm[P_NBANKS])


@jit
def wir_on_writeback(hs, sm, warp, pc, rec, cycle):  # pragma: no cover - jit
    """The dummy MOV's write of the inactive lanes into the new dedicated register."""
    return 1 if hs[H_COLS][rec - hs[H_BASE][0], C_MOVP] >= 0 else 0


@jit
def wir_on_retire(hs, sm, warp, pc, rec, cycle):  # pragma: no cover - jit
    """Retire (§2.7): rename-table write with reference counts, RB fill/update for executed
    eligible instructions, in-flight references dropped."""
    cols = hs[H_COLS]
    row = rec - hs[H_BASE][0]
    st = hs[H_STATS]
    rt = hs[H_RT]
    pin = hs[H_PIN]
    pcdst = hs[H_PCDST]
    nr = rt.shape[2]
    out = cols[row, C_OUT]
    a = cols[row, C_ALLOC]
    cls = hs[H_PCX][pc, PX_CLASS]
    if out != OUT_HIT:
        st[_S_EXECUTED_INSTS] += 1
    if cls != K_NONE:
        for k in range(min(pcdst.shape[1], MAX_DST)):
            d = pcdst[pc, k]
            if d < 0:
                break
            if d >= nr or (hs[H_PCX][pc, PX_DSTSKIP] >> k) & 1:
                continue
            newp = cols[row, C_HITP + k] if out == OUT_HIT else cols[row, C_NEW0 + k]
            if out != OUT_HIT and (a & 1) == 0:
                continue
            old = rt[sm, warp, d]
            st[_S_RENAME_ACCESSES] += 1
            if old != newp:
                ref_inc(hs, sm, newp)
                if old >= 0:
                    ref_dec(hs, sm, old, cycle)
                rt[sm, warp, d] = newp
            pin[sm, warp, d] = 1 if out != OUT_HIT and (a >> (5 + k)) & 1 else 0
            ref_dec(hs, sm, newp, cycle)  # the in-flight reference
            if out == OUT_HIT and k >= 1:
                break
        nd = hs[H_PCX][pc, PX_NDST]
        if out == OUT_MISS and nd <= 2 and cols[row, C_RBIDX] >= 0 and (a & 1) != 0:
            opid, tb, bc = record_tag(hs, sm, warp, pc, row)
            i = cols[row, C_RBIDX]
            rb = hs[H_RB]
            r0 = cols[row, C_NEW0]
            r1 = cols[row, C_NEW0 + 1] if nd == 2 else np.int64(-1)
            if rb_match(hs, sm, i, opid, cols, row, tb, bc) and rb[sm, i, RB_RES] < 0:
                rb[sm, i, RB_RES] = r0
                rb[sm, i, RB_RES + 1] = r1
                rb[sm, i, RB_PEND] = 0
                ref_inc(hs, sm, r0)
                if r1 >= 0:
                    ref_inc(hs, sm, r1)
            else:
                rb_write(hs, sm, i, opid, cols, row, tb, bc, r0, r1, 0, cycle)
            st[_S_RB_UPDATES] += 1
    for k in range(cols[row, C_NSRC]):
        p = cols[row, C_S0 + k]
        if p >= 0:
            ref_dec(hs, sm, p, cycle)
    return None


