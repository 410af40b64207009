"""The uniform-vector mechanism's jitted hooks: decode-time detection at issue, scalar
conversion (token bits or SRF renaming with a free list), the per-SM inter-warp reuse buffer,
copy-on-write under divergence, and the register-file, ALU and coverage accounting.

Follows: specs/xiang-simt-efficiency.md §1.4-§1.10 and the dissertation §2.3-§2.4. Seams:
``on_issue`` (detection in program order per warp; an IRB hit completes the next cycle with no
unit or register write), ``unit_choice`` (a converted instruction holds its unit one cycle
instead of warpsize/NumSP; a copy-on-write move adds one vector issue), ``operand_bank`` /
``dest_bank`` (SRF operands bypass the banked vector file), ``can_issue`` / ``on_cycle_end``
(the SRF design's rename stage: one more front-end cycle after a branch), ``on_retire`` (SR
release at WB), ``on_warp_launch`` / ``on_warp_exit`` (token bits reset, SRs released).
Assumptions:
  [A] SRs are released at the issue (ID) of the redefining instruction, as the text says
      (``srf_release=id``), or when it retires (``wb``); all of a warp's SRs at its exit.
  [A] The rename stage adds one cycle to the front-end refill after a branch: the first
      instruction fetched after it issues one cycle later than the engine's earliest issue
      (``on_cycle_end`` sees the refill reach the I-buffer in the read-only warp table).
  [A] Faults are drawn from a hash of (SM, lookup count) for the IRB and of the record for an
      ALU fault: deterministic, no state shared between runs.
  [A] The IRB probe is resolved at issue with the trace's values (spec §1.15 item 5).
  [A] A copy-on-write move occupies the unit like one more vector instruction (ii cycles).
  [A] VRF coverage: a register is live from its definition's issue to the issue of its last
      reader before redefinition; protected when defined by a converted (dual-lane) or reused
      instruction in reliability mode.
"""

from __future__ import annotations

import numpy as np

from warpsim._jit import jit
from warpsim.mechanisms.uniform_vectors.counters import (
    COL_FLAGS,
    COL_KEY,
    COL_NTHR,
    RF_BCAST,
    RF_FULL,
    H,
)
from warpsim.mechanisms.uniform_vectors.decode import PF_BRANCH, PF_ELIG, PF_LOAD, PF_TIDDEP
from warpsim.mechanisms.uniform_vectors.state import (
    IRB_KEY,
    IRB_PC,
    IRB_STAMP,
    M_COPY_SHIFT,
    M_DST_SRF,
    M_HIT,
    M_SCALAR,
    P_ALU_FAULT,
    P_BCAST,
    P_DESIGN,
    P_IRB_FAULT,
    P_LAUNCH,
    P_NIRB,
    P_NREGS,
    P_NSRF,
    P_REC_BASE,
    P_REL,
    P_RELEASE_WB,
    P_RENAME,
    P_SCALAR,
    P_TAG_MASK,
    RING,
    RING_OLD,
)
from warpsim.timing.consts import INT64_MAX, ISSUE_COMPLETE, ISSUE_EXECUTE
from warpsim.timing.fields import F_WARP_IBUF

__all__ = ["uv_can_issue", "uv_dest_bank", "uv_on_cycle_end", "uv_on_issue", "uv_on_retire",
           "uv_on_warp_exit", "uv_on_warp_launch", "uv_operand_bank", "uv_unit_choice"]

_DET, _CONV, _FULLSRF = H["uv_detected_insts"], H["uv_converted_insts"], H[
    "uv_not_converted_srf_full"]
_ULD, _LOOK, _TAGH, _HIT = (H["uv_uniform_loads"], H["uv_irb_lookups"], H["uv_irb_tag_hits"],
                            H["uv_irb_hits"])
_MISM, _MISS, _FILL = H["uv_irb_value_mismatches"], H["uv_irb_misses"], H["uv_irb_fills"]
_RI, _RE, _RC = (H["uv_redundant_ops_intra"], H["uv_redundant_ops_inter"],
                 H["uv_redundant_ops_combined"])
_TI, _COWN, _COWA, _COPY = (H["uv_thread_insts"], H["uv_cow_narrow"], H["uv_cow_all"],
                            H["uv_copy_insts"])
_TSET, _TRES, _SALLOC, _SFREE = (H["uv_token_sets"], H["uv_token_resets"], H["uv_srf_allocs"],
                                 H["uv_srf_frees"])
_SRD, _SWR, _VRD, _VWR = (H["uv_srf_reads"], H["uv_srf_writes"], H["uv_vrf_lane_reads"],
                          H["uv_vrf_lane_writes"])
_BVRD, _BVWR, _ALU, _BALU = (H["uv_base_vrf_lane_reads"], H["uv_base_vrf_lane_writes"],
                             H["uv_alu_lane_ops"], H["uv_base_alu_lane_ops"])
_BCAST, _SISS, _APROT, _ATOT = (H["uv_broadcast_operands"], H["uv_scalar_issues"],
                                H["uv_alu_ops_protected"], H["uv_alu_ops_total"])
_LIVE, _PLIVE, _PEAK = (H["uv_vrf_live_cycles"], H["uv_vrf_protected_live_cycles"],
                        H["uv_srf_peak_occupancy"])
_BCLD, _IFLT, _PAR, _SIL = (H["uv_broadcast_loads"], H["uv_irb_faults"], H["uv_irb_parity_errors"],
                            H["uv_irb_silent_corruptions"])
_AFLT, _ADET, _AMASK = H["uv_alu_faults"], H["uv_alu_faults_detected"], H["uv_alu_faults_masked"]
_RSTALL, _WBREL = H["uv_rename_stalls"], H["uv_srf_wb_releases"]

IRB_ENTRY_BITS = 136
"""Data bits of an IRB entry a fault may strike: 8-bit opcode, three 32-bit sources, the 32-bit
result (spec §1.8; the 10-bit tag and the LRU bits are not modelled [A])."""
IRB_RESULT_BIT0 = 104
"""The result's bits are the last 32 of the entry."""
_SALT_IRB = 0x5EED1
_SALT_ALU = 0xA1F


@jit
def _hash3(a, b, c):  # pragma: no cover - jit
    """splitmix64 of three integers: the deterministic draw of a fault."""
    z = (np.uint64(a) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(b) * np.uint64(0xBF58476D1CE4E5B9)
         + np.uint64(c) * np.uint64(0x94D049BB133111EB))
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@jit
def _close(live, st, sm, w, reg):  # pragma: no cover - jit
    """End the live interval of (sm, w, reg): definition to last use."""
    d = live[sm, w, reg, 0]
    u = live[sm, w, reg, 1]
    if d >= 0 and u > d:
        st[_LIVE] += u - d
        if live[sm, w, reg, 2] != 0:
            st[_PLIVE] += u - d
    live[sm, w, reg, 0] = -1
    live[sm, w, reg, 1] = -1
    live[sm, w, reg, 2] = 0


@jit
def _free_sr(srmap, stack, top, st, sm, w, reg):  # pragma: no cover - jit
    sr = srmap[sm, w, reg]
    if sr >= 0:
        stack[sm, top[sm]] = sr
        top[sm] += 1
        srmap[sm, w, reg] = -1
        st[_SFREE] += 1


@jit
def _defer_sr(srmap, stack, top, st, ring, sm, w, i, reg):  # pragma: no cover - jit
    """Unmap (sm, w, reg)'s SR now and release it when ring entry ``i`` retires (WB); the
    entry holds ``RING_OLD`` of them, a further one is released now."""
    for k in range(RING_OLD):
        if ring[sm, w, i, 2 + k] < 0:
            ring[sm, w, i, 2 + k] = srmap[sm, w, reg]
            srmap[sm, w, reg] = -1
            return
    _free_sr(srmap, stack, top, st, sm, w, reg)


@jit
def _release_ring(ring, stack, top, st, sm, w, i):  # pragma: no cover - jit
    for k in range(RING_OLD):
        sr = ring[sm, w, i, 2 + k]
        if sr >= 0:
            stack[sm, top[sm]] = sr
            top[sm] += 1
            ring[sm, w, i, 2 + k] = -1
            st[_SFREE] += 1
            st[_WBREL] += 1


@jit
def _irb_probe(irb, clk, st, sm, n, pc, key, tag_mask, thr, rel, salt):  # pragma: no cover
    """Look ``pc``/``key`` up in SM ``sm``'s reuse buffer (``n`` entries; -1: the oracle, one
    entry per pc). 1: a reuse hit; 0: no reuse (a tag hit with other values updates the entry, a
    miss fills the LRU or an invalid entry); 2: a parity error (spec §1.9: the instruction
    executes and the entry is updated). ``thr``: the fault threshold of a tag hit."""
    st[_LOOK] += 1
    clk[sm] += 1
    found = -1
    if n < 0:
        if irb[sm, pc, IRB_STAMP] > 0:
            found = pc
    else:
        for e in range(n):
            if irb[sm, e, IRB_STAMP] > 0 and (irb[sm, e, IRB_PC] & tag_mask) == (pc & tag_mask):
                found = e
                break
    if found >= 0:
        st[_TAGH] += 1
        irb[sm, found, IRB_STAMP] = clk[sm]
        match = irb[sm, found, IRB_KEY] == key
        if thr > 0:
            h = _hash3(salt, sm, clk[sm])
            if np.int64(h & np.uint64(0xFFFFFFFF)) < thr:
                st[_IFLT] += 1
                if rel:  # the parity bit detects the single flip
                    st[_PAR] += 1
                    st[_FILL] += 1
                    irb[sm, found, IRB_PC] = pc
                    irb[sm, found, IRB_KEY] = key
                    return 2
                if np.int64((h >> np.uint64(32)) % np.uint64(IRB_ENTRY_BITS)) >= IRB_RESULT_BIT0:
                    if match:  # a wrong result is reused
                        st[_SIL] += 1
                else:  # an opcode or source bit: the compare fails
                    match = False
        if match:
            return 1
        st[_MISM] += 1
        st[_FILL] += 1
        irb[sm, found, IRB_PC] = pc
        irb[sm, found, IRB_KEY] = key
        return 0
    st[_MISS] += 1
    st[_FILL] += 1
    v = 0
    if n < 0:
        v = pc
    for e in range(n):
        if irb[sm, e, IRB_STAMP] < irb[sm, v, IRB_STAMP]:
            v = e
    irb[sm, v, IRB_PC] = pc
    irb[sm, v, IRB_KEY] = key
    irb[sm, v, IRB_STAMP] = clk[sm]
    return 0


@jit
def uv_on_issue(hs, sm, warp, pc, rec, cycle):  # pragma: no cover - jit
    """Decode-time uniform detection, conversion, IRB probe and register bookkeeping."""
    prm, pcf, sbsrc, sbdst, cols, utrk, srmap, stack, top, irb, clk, ring, live, fe, wake, st = (
        hs[:16])
    r = rec - prm[P_REC_BASE]
    full = (cols[r, COL_FLAGS] & RF_FULL) != 0
    nt = cols[r, COL_NTHR]
    pf = pcf[pc]
    nregs = prm[P_NREGS]
    srf = prm[P_DESIGN] == 1 and prm[P_SCALAR] != 0
    rel = prm[P_REL] != 0
    st[_TI] += nt
    if srf and prm[P_RENAME] != 0 and (pf & PF_BRANCH) != 0:
        if fe[sm, warp] != -2:  # the front end refills through the rename stage
            arm = hs[16]
            arm[wake[1], 0] = sm
            arm[wake[1], 1] = warp
            wake[1] += 1
        fe[sm, warp] = -2
    i = rec % RING
    _release_ring(ring, stack, top, st, sm, warp, i)  # an older record's SRs, never left held
    ring[sm, warp, i, 0] = rec
    uni = full and (pf & (PF_ELIG | PF_LOAD)) != 0 and (pf & PF_TIDDEP) == 0
    n_src = 0
    n_usrc = 0
    for k in range(sbsrc.shape[1]):
        s = sbsrc[pc, k]
        if s < 0:
            break
        if utrk[sm, warp, s] == 0:
            uni = False
        if s < nregs:
            n_src += 1
            live[sm, warp, s, 1] = cycle
            if utrk[sm, warp, s] != 0:
                n_usrc += 1
    n_dst = 0
    for k in range(sbdst.shape[1]):
        d = sbdst[pc, k]
        if d < 0:
            break
        if d < nregs:
            n_dst += 1
    elig = (pf & PF_ELIG) != 0
    bcast = False
    if (pf & PF_LOAD) != 0 and not uni and prm[P_BCAST] != 0 and (
            cols[r, COL_FLAGS] & RF_BCAST) != 0:
        uni = True  # the token set by the broadcast path
        bcast = True
    mode = 0
    st[_BVRD] += nt * n_src
    st[_BVWR] += nt * n_dst
    if elig:
        st[_BALU] += nt
        st[_ATOT] += nt
    if uni and elig:
        st[_DET] += 1
        st[_RI] += 31
        st[_RC] += 31
        can = True
        if srf and top[sm] < n_dst:
            can = False
            uni = False
            st[_FULLSRF] += 1
        hit = False
        if can and prm[P_NIRB] != 0:
            hit = _irb_probe(irb, clk, st, sm, prm[P_NIRB], pc, cols[r, COL_KEY],
                             prm[P_TAG_MASK], prm[P_IRB_FAULT], rel,
                             _SALT_IRB + (prm[P_LAUNCH] << 20)) == 1
        if hit:
            mode = M_HIT
            st[_HIT] += 1
            st[_RE] += 32
            st[_RC] += 1
            if rel:
                st[_APROT] += nt
        elif can and prm[P_SCALAR] != 0:
            mode = M_SCALAR
            st[_CONV] += 1
            st[_SISS] += 1
            st[_ALU] += 2 if rel else 1
            if rel:
                st[_APROT] += nt
        else:
            st[_ALU] += nt
        if srf and can:
            mode |= M_DST_SRF
    elif elig:
        st[_ALU] += nt
    elif uni:
        st[_BCLD if bcast else _ULD] += 1
        if srf:
            if top[sm] >= n_dst:
                mode |= M_DST_SRF
            else:
                uni = False
    if elig and nt > 0 and prm[P_ALU_FAULT] > 0:  # a single-bit fault in one lane's ALU
        h = _hash3(_SALT_ALU + (prm[P_LAUNCH] << 20), rec, sm)
        if np.int64(h & np.uint64(0xFFFFFFFF)) < prm[P_ALU_FAULT] * nt:
            st[_AFLT] += 1
            if mode & M_HIT:
                st[_AMASK] += 1  # no ALU computes a reused result
            elif mode & M_SCALAR and rel:
                st[_ADET] += 1   # the two lanes' results differ
    # operand reads: a tracked source is one lane (token, broadcast) or one SRF read
    if mode & M_HIT == 0:
        if mode & M_SCALAR:
            if srf:
                st[_SRD] += n_src
            else:
                st[_VRD] += n_src
        else:
            if srf:
                st[_SRD] += n_usrc
            else:
                st[_VRD] += n_usrc
            st[_BCAST] += n_usrc
            st[_VRD] += nt * (n_src - n_usrc)
    else:
        if srf:
            st[_SRD] += n_src
        else:
            st[_VRD] += n_src
    # results
    if mode & M_DST_SRF:
        st[_SWR] += n_dst
        if rel and mode & (M_SCALAR | M_HIT):
            st[_VWR] += n_dst  # the second copy, in the first VRF lane
    elif mode & (M_SCALAR | M_HIT):
        st[_VWR] += (2 if rel else 1) * n_dst
    else:
        st[_VWR] += nt * n_dst
    prot = 1 if rel and mode & (M_SCALAR | M_HIT) else 0
    copies = 0
    for k in range(sbdst.shape[1]):
        d = sbdst[pc, k]
        if d < 0 or nt == 0:  # no lane executes: nothing is written, the bits stay
            break
        old = utrk[sm, warp, d]
        if old != 0 and not full:  # copy-on-write: the scalar to all 32 lanes first
            st[_COWA] += 1
            copies += 1
            for j in range(sbsrc.shape[1]):
                if sbsrc[pc, j] < 0:
                    break
                if sbsrc[pc, j] == d:
                    st[_COWN] += 1
                    break
            if srf and d < nregs and srmap[sm, warp, d] >= 0:
                st[_SRD] += 1
            else:
                st[_VRD] += 1
            st[_VWR] += 32
        if d < nregs:
            _close(live, st, sm, warp, d)
            live[sm, warp, d, 0] = cycle
            live[sm, warp, d, 2] = prot
            if srf:
                if prm[P_RELEASE_WB] != 0 and srmap[sm, warp, d] >= 0:
                    _defer_sr(srmap, stack, top, st, ring, sm, warp, i, d)
                else:
                    _free_sr(srmap, stack, top, st, sm, warp, d)
                if uni:
                    top[sm] -= 1
                    srmap[sm, warp, d] = stack[sm, top[sm]]
                    st[_SALLOC] += 1
                    occ = prm[P_NSRF] - top[sm]
                    if occ > st[_PEAK]:
                        st[_PEAK] = occ
        if uni and old == 0:
            st[_TSET] += 1
        elif old != 0 and not uni:
            st[_TRES] += 1
        utrk[sm, warp, d] = 1 if uni else 0
    if copies > 0:
        st[_COPY] += 1
    ring[sm, warp, i, 1] = mode | (copies << M_COPY_SHIFT)
    if mode & M_HIT:
        return ISSUE_COMPLETE, np.int64(cycle + 1)
    return ISSUE_EXECUTE, np.int64(0)


@jit
def _mode(ring, sm, warp, rec):  # pragma: no cover - jit
    i = rec % RING
    if ring[sm, warp, i, 0] == rec:
        return ring[sm, warp, i, 1]
    return 0


@jit
def uv_unit_choice(hs, sm, warp, rec, unit_type, ii):  # pragma: no cover - jit
    """A converted instruction holds its unit one cycle; each copy-on-write move adds ii."""
    m = _mode(hs[11], sm, warp, rec)
    out = np.int64(1) if m & M_SCALAR else np.int64(ii)
    return unit_type, out + np.int64(ii) * (m >> M_COPY_SHIFT)


@jit
def uv_operand_bank(hs, sm, warp, rec, reg, bank):  # pragma: no cover - jit
    """SRF design: a source mapped to a scalar register is read from the SRF (no bank)."""
    prm = hs[0]
    if prm[P_DESIGN] == 1 and prm[P_SCALAR] != 0 and reg < hs[6].shape[2]:
        if hs[6][sm, warp, reg] >= 0:
            return np.int64(-1)
    return np.int64(bank)


@jit
def uv_dest_bank(hs, sm, warp, rec, reg, bank):  # pragma: no cover - jit
    """SRF design: a converted instruction's result is written to the SRF (no bank)."""
    if _mode(hs[11], sm, warp, rec) & M_DST_SRF:
        return np.int64(-1)
    return np.int64(bank)


@jit
def uv_on_retire(hs, sm, warp, pc, rec, cycle):  # pragma: no cover - jit
    """``srf_release=wb``: the redefined registers' old SRs return to the free list."""
    ring = hs[11]
    i = rec % RING
    if ring[sm, warp, i, 0] == rec:
        _release_ring(ring, hs[7], hs[8], hs[15], sm, warp, i)


@jit
def uv_can_issue(hs, sm, warp, pc, cycle):  # pragma: no cover - jit
    """The rename stage: the first instruction fetched after a branch reaches the I-buffer at
    cycle f (decode runs after issue: baseline issue from f + 1) and issues from f + 2."""
    fe = hs[13]
    t = fe[sm, warp]
    if t < 0:
        return True
    if cycle < t + 2:
        hs[14][0] = t + 2
        hs[15][_RSTALL] += 1
        return False
    fe[sm, warp] = -1
    return True


@jit
def uv_on_cycle_end(hs, counters, cycle):  # pragma: no cover - jit
    """Records the cycle an armed warp's refill reached its I-buffer; a warp the rename stage
    holds must be simulated at its next cycle, not skipped."""
    fe = hs[13]
    wake = hs[14]
    arm = hs[16]
    view = hs[17]
    k = 0
    while k < wake[1]:
        sm = arm[k, 0]
        w = arm[k, 1]
        if fe[sm, w] == -2 and view[sm, w, F_WARP_IBUF] == 0:
            k += 1
            continue
        if fe[sm, w] == -2:
            fe[sm, w] = cycle
        wake[1] -= 1
        arm[k, 0] = arm[wake[1], 0]
        arm[k, 1] = arm[wake[1], 1]
    t = wake[0]
    return t if t > cycle else INT64_MAX


@jit
def _reset_warp(hs, sm, warp):  # pragma: no cover - jit
    _, _, _, _, _, utrk, srmap, stack, top, _, _, ring, live, fe, _, st = hs[:16]
    for reg in range(live.shape[2]):
        _close(live, st, sm, warp, reg)
        _free_sr(srmap, stack, top, st, sm, warp, reg)
    for i in range(RING):
        _release_ring(ring, stack, top, st, sm, warp, i)
        ring[sm, warp, i, 0] = -1
    utrk[sm, warp, :] = 0
    fe[sm, warp] = -1


@jit
def uv_on_warp_launch(hs, sm, warp, cta_slot, pos, cycle):  # pragma: no cover - jit
    """A new warp in the slot: no register is tracked uniform."""
    _reset_warp(hs, sm, warp)


@jit
def uv_on_warp_exit(hs, sm, warp, cycle):  # pragma: no cover - jit
    """The warp's live intervals end and its scalar registers are released."""
    _reset_warp(hs, sm, warp)
