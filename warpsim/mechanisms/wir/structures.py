"""WIR's per-SM hardware structures as jitted functions over the hook state: reference counts
with their release delay, the free register pool, the H3 value hash, the value signature buffer,
the verify cache and the reuse buffer.

Follows: specs/wir.md §2.2 (organisation), §2.4 (reuse-buffer tag and index), §2.6 (VSB), §2.7
(which references count: rename entries, RB operand and result fields, VSB entries), §2.9
(free pool, 2-cycle pipelined release, low register mode), §2.11 (verify cache), §4.1 (H3).
Assumptions:
  [A5] RB index: a fixed 31-bit multiply/xor fold of opcode id, operand IDs and TB slot,
       seeded; the barrier count is not in the index.
  [A9] Verify cache: fully associative, LRU, filled by verify-read misses only, invalidated by
       any write of the register.
  [A] H3 over the trace's 64-bit value signature (itself a hash of the 1024-bit value): bit i
      set XORs a seeded 32-bit constant ``h3q[i]``; ``hash_bits`` masks the result.
  [A4] In-flight references: sources from rename to retire, results from allocation to retire.
"""

from __future__ import annotations

import numpy as np

from warpsim._jit import jit
from warpsim.mechanisms.wir.counters import S
from warpsim.mechanisms.wir.layout import (
    C_S0,
    H_H3Q,
    H_POOL,
    H_POOLP,
    H_PRM,
    H_RB,
    H_REF,
    H_REL,
    H_RELP,
    H_STATS,
    H_VC,
    H_VSB,
    M_CLOCK,
    M_LIVE,
    M_PEAK,
    N_SRC,
    P_CAPPED,
    P_HMASK,
    P_NP,
    P_NVSB,
    P_REGS,
    P_RELDELAY,
    RB_BC,
    RB_O1,
    RB_OPID,
    RB_PEND,
    RB_RES,
    RB_TB,
    RB_VALID,
)

__all__ = ["alloc_reg", "available", "drain", "h3", "rb_evict", "rb_index", "rb_match",
           "rb_write", "ref_dec", "ref_inc", "vc_invalidate", "vc_lookup", "vsb_evict",
           "vsb_insert", "vsb_match"]

_S_REL = S["wir_releases"]
_S_ALLOC = S["wir_allocations"]
_S_REFOPS = S["wir_refcount_ops"]
_S_POOL = S["wir_pool_ops"]
_S_RBEV = S["wir_rb_evictions"]
_S_VSBEV = S["wir_vsb_evictions"]
_S_PEAK = S["wir_peak_regs_in_use"]


def h3_matrix(seed: int) -> np.ndarray:
    """The 64 seeded 32-bit constants of the H3 hash (``h3q``)."""
    rng = np.random.default_rng(seed)
    return rng.integers(0, 1 << 32, 64, dtype=np.int64)


@jit
def h3(h3q, sig, mask):  # pragma: no cover - jit
    """H3 hash of a 64-bit value signature: XOR of ``h3q[i]`` over its set bits, masked."""
    h = np.int64(0)
    for i in range(64):
        if (sig >> i) & 1:
            h ^= h3q[i]
    return h & mask


@jit
def rb_index(opid, cols, row, tb, seed, n):  # pragma: no cover - jit
    """Direct-mapped RB index of a tag (barrier count excluded) [A5]."""
    x = (opid * 40503 + seed) & 0x7FFFFFFF
    for k in range(N_SRC):
        x = ((x ^ (cols[row, C_S0 + k] + 1)) * 69069 + 2 * k + 1) & 0x7FFFFFFF
    x = ((x ^ tb) * 40503 + 7) & 0x7FFFFFFF
    x ^= x >> 15
    return x % n


@jit
def in_use(hs, sm):  # pragma: no cover - jit
    """Physical registers neither in the free pool nor waiting to return to it."""
    return hs[H_PRM][P_NP] - hs[H_POOLP][sm, 1] - hs[H_RELP][sm, 1]


@jit
def ref_inc(hs, sm, p):  # pragma: no cover - jit
    hs[H_REF][sm, p] += 1
    hs[H_STATS][_S_REFOPS] += 1


@jit
def ref_dec(hs, sm, p, cycle):  # pragma: no cover - jit
    """Drop a reference; a register left without any goes back to the pool after the
    reference counter's pipeline delay."""
    ref = hs[H_REF]
    ref[sm, p] -= 1
    hs[H_STATS][_S_REFOPS] += 1
    if ref[sm, p] == 0:
        rel = hs[H_REL]
        relp = hs[H_RELP]
        n = rel.shape[1]
        t = (relp[sm, 0] + relp[sm, 1]) % n
        rel[sm, t, 0] = p
        rel[sm, t, 1] = cycle + hs[H_PRM][P_RELDELAY]
        relp[sm, 1] += 1
        hs[H_STATS][_S_REL] += 1


@jit
def drain(hs, sm, cycle):  # pragma: no cover - jit
    """Move registers whose release delay has passed into the free pool (FIFO)."""
    rel = hs[H_REL]
    relp = hs[H_RELP]
    pool = hs[H_POOL]
    poolp = hs[H_POOLP]
    n = rel.shape[1]
    while relp[sm, 1] > 0 and rel[sm, relp[sm, 0], 1] <= cycle:
        p = rel[sm, relp[sm, 0], 0]
        relp[sm, 0] = (relp[sm, 0] + 1) % n
        relp[sm, 1] -= 1
        pool[sm, (poolp[sm, 0] + poolp[sm, 1]) % n] = p
        poolp[sm, 1] += 1
        hs[H_STATS][_S_POOL] += 1


@jit
def available(hs, sm, misc, cycle):  # pragma: no cover - jit
    """Registers that may be allocated now (pool, capped by the policy)."""
    drain(hs, sm, cycle)
    prm = hs[H_PRM]
    n = hs[H_POOLP][sm, 1]
    if prm[P_CAPPED] != 0:
        cap = prm[P_REGS] * misc[sm, M_LIVE] - in_use(hs, sm)
        n = min(n, max(cap, 0))
    return n


@jit
def alloc_reg(hs, sm, misc):  # pragma: no cover - jit
    """Pop the oldest free register (call ``available`` first)."""
    pool = hs[H_POOL]
    poolp = hs[H_POOLP]
    p = pool[sm, poolp[sm, 0]]
    poolp[sm, 0] = (poolp[sm, 0] + 1) % pool.shape[1]
    poolp[sm, 1] -= 1
    st = hs[H_STATS]
    st[_S_ALLOC] += 1
    st[_S_POOL] += 1
    u = in_use(hs, sm)
    if u > misc[sm, M_PEAK]:
        misc[sm, M_PEAK] = u
        if u > st[_S_PEAK]:
            st[_S_PEAK] = u
    return p


# -- value signature buffer -------------------------------------------------------------------

@jit
def vsb_match(hs, sm, sig):  # pragma: no cover - jit
    """The VSB lookup of a value signature (§2.6), without side effects: ``(h, e, p)``, its H3
    hash, its entry and the physical register whose tag matches (-1: none). The caller verifies
    ``p``'s value (a tag match may be a false positive)."""
    prm = hs[H_PRM]
    h = h3(hs[H_H3Q], sig, prm[P_HMASK])
    e = h % prm[P_NVSB]
    vsb = hs[H_VSB]
    p = vsb[sm, e, 1]
    if p < 0 or vsb[sm, e, 0] != h:
        p = np.int64(-1)
    return h, e, p


@jit
def vsb_evict(hs, sm, i, cycle):  # pragma: no cover - jit
    vsb = hs[H_VSB]
    if vsb[sm, i, 1] >= 0:
        ref_dec(hs, sm, vsb[sm, i, 1], cycle)
        vsb[sm, i, 1] = -1
        hs[H_STATS][_S_VSBEV] += 1


@jit
def vsb_insert(hs, sm, i, h, p, cycle):  # pragma: no cover - jit
    vsb = hs[H_VSB]
    vsb_evict(hs, sm, i, cycle)
    vsb[sm, i, 0] = h
    vsb[sm, i, 1] = p
    ref_inc(hs, sm, p)


# -- verify cache -----------------------------------------------------------------------------

@jit
def vc_lookup(hs, sm, misc, p):  # pragma: no cover - jit
    """Verify-read of ``p`` through the cache: True on a hit; a miss fills the LRU line."""
    vc = hs[H_VC]
    misc[sm, M_CLOCK] += 1
    victim = 0
    for i in range(vc.shape[1]):
        if vc[sm, i, 0] == p:
            vc[sm, i, 1] = misc[sm, M_CLOCK]
            return True
        if vc[sm, i, 0] < 0:
            if vc[sm, victim, 0] >= 0:
                victim = i
        elif vc[sm, victim, 0] >= 0 and vc[sm, i, 1] < vc[sm, victim, 1]:
            victim = i
    vc[sm, victim, 0] = p
    vc[sm, victim, 1] = misc[sm, M_CLOCK]
    return False


@jit
def vc_contains(hs, sm, p):  # pragma: no cover - jit
    """Whether the verify cache holds ``p`` (no replacement update: a look ahead)."""
    vc = hs[H_VC]
    for i in range(vc.shape[1]):
        if vc[sm, i, 0] == p:
            return True
    return False


@jit
def vc_invalidate(hs, sm, p):  # pragma: no cover - jit
    """A write of ``p`` evicts its line."""
    vc = hs[H_VC]
    for i in range(vc.shape[1]):
        if vc[sm, i, 0] == p:
            vc[sm, i, 0] = -1


# -- reuse buffer -----------------------------------------------------------------------------

@jit
def rb_match(hs, sm, i, opid, cols, row, tb, bc):  # pragma: no cover - jit
    """Entry ``i`` is valid and holds the tag (operation, the record's renamed sources, TB
    slot, barrier count)."""
    e = hs[H_RB][sm, i]
    if e[RB_VALID] == 0 or e[RB_OPID] != opid or e[RB_TB] != tb or e[RB_BC] != bc:
        return False
    for k in range(N_SRC):
        if e[RB_O1 + k] != cols[row, C_S0 + k]:
            return False
    return True


@jit
def rb_evict(hs, sm, i, cycle):  # pragma: no cover - jit
    """Invalidate entry ``i``, dropping the references of its operand and result fields."""
    e = hs[H_RB][sm, i]
    if e[RB_VALID] == 0:
        return
    for f in range(RB_O1, RB_O1 + N_SRC):
        if e[f] >= 0:
            ref_dec(hs, sm, e[f], cycle)
    for f in range(RB_RES, RB_RES + 2):
        if e[f] >= 0:
            ref_dec(hs, sm, e[f], cycle)
    e[RB_VALID] = 0
    hs[H_STATS][_S_RBEV] += 1


@jit
def rb_write(hs, sm, i, opid, cols, row, tb, bc, res, res2, pend,
             cycle):  # pragma: no cover - jit
    """Write entry ``i`` (most recent writer wins), taking references on its register
    fields."""
    rb_evict(hs, sm, i, cycle)
    e = hs[H_RB][sm, i]
    e[RB_VALID] = 1
    e[RB_OPID] = opid
    for k in range(N_SRC):
        e[RB_O1 + k] = cols[row, C_S0 + k]
        if e[RB_O1 + k] >= 0:
            ref_inc(hs, sm, e[RB_O1 + k])
    e[RB_TB] = tb
    e[RB_BC] = bc
    e[RB_RES] = res
    e[RB_RES + 1] = res2
    e[RB_PEND] = pend
    for f in range(RB_RES, RB_RES + 2):
        if e[f] >= 0:
            ref_inc(hs, sm, e[f])
