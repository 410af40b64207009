"""The L1 fetch group: the other lines of an L1D global-load miss's aligned group, checked in the
same tag lookup and fetched with the missing line as one request per L2 slice.

The seam behind coarse-grained L1 fetch (Xiang's dissertation §5.4-5.5: "when there is a L1
miss ... check whether the neighbor block is in L1. If it doesn't, we will treat it as a miss
and issue a memory request"; the L2 "can essentially treat these paired requests as one and
process them in the same cycle"). An SM's group size is ``sm_s[sm, S_GROUP_LINES]``, set by the
mechanism (``mechanisms/hooks.py`` ``l1_fetch_group``, through ``timing/mechport.py``); 0 or 1,
the baseline, never reaches this module.

On a demand miss of line ``L`` (its MSHR and way already allocated by ``cache_read``), each
other line of the aligned group of ``g`` lines holding ``L`` is probed: present, reserved or in
an MSHR, nothing happens (no LRU update: a probe, not a use); absent, it gets an MSHR without
requester and a reserved way (``cache_reserve``). The lines to fetch are then sent as one read
packet per L2 slice (``PK_GROUP`` when it holds several lines, an ordinary ``PK_READ`` when
one), the demand line's slice first and the demand line first in its packet; the L2 answers
each line with its own reply (``l2.py``), which fills it like any miss.

Assumptions:
  [A] MSHRs: one per line (each line is filled on its own); a neighbour that finds no MSHR, way
      or miss-queue entry is not fetched (``l1d_group_lines_dropped``): the demand access is
      never refused because of its neighbours (the paper's neighbour fetch is a by-product of
      the miss, never a reason to stall it).
  [A] The neighbours' probes cost no L1D access or miss count (one lookup): they are counted
      in ``l1d_group_lines`` / ``l1d_group_lines_dropped`` only.
  [A] Lines of a group that map to different L2 slices travel as one packet per slice
      (``l1d_group_splits`` counts the extra packets): one packet cannot be served by two
      slices. With the linear 256 B channel interleave, a 2-line group of 128 B lines never
      splits, a 4-line group always does (two channels).
  [A] At most 16 lines per group (the packet's 16-bit line mask).
"""

from __future__ import annotations

from warpsim._jit import jit
from warpsim.stats import (
    C_L1D_GROUP_LINES,
    C_L1D_GROUP_LINES_DROPPED,
    C_L1D_GROUP_REQUESTS,
    C_L1D_GROUP_SPLITS,
)
from warpsim.timing.cache import cache_probe, cache_reserve, cache_set, mq_push, mshr_find
from warpsim.timing.l2 import addr_slice
from warpsim.timing.memconsts import (
    A_COMPLETIONS,
    A_L1_MQ,
    A_MSHR,
    C_MEM_FIRST,
    L1_D,
    PK_GROUP,
    PK_READ,
    PK_WRITE,
    S_FQ_COUNT,
    S_FQ_HEAD,
    S_PEND_ANY,
    SRC_NONE,
    T_READY,
    T_TOKEN,
)
from warpsim.timing.memstate import pack_info

__all__ = ["MAX_GROUP_LINES", "group_miss", "l1_push", "l1_writeback"]

MAX_GROUP_LINES = 16
"""Most lines in one fetch group (the ``PK_GROUP`` packet's line mask is 16 bits)."""


@jit
def _add(pend, sm_s, sm: int, counter: int, n: int) -> None:
    if n != 0:
        pend[sm, counter - C_MEM_FIRST] += n
        sm_s[sm, S_PEND_ANY] = 1


@jit
def l1_push(ca, act, c: int, addr: int, info: int, ready: int) -> None:
    """Queue a request in L1 cache ``c``'s miss queue (for the interconnect from ``ready``)."""
    mq_push(ca, c, addr, info, ready)
    act[A_L1_MQ] += 1


@jit
def fq_push(fq, sm_s, act, sm: int, token: int, ready: int) -> None:
    """Complete ``token`` at cycle ``ready``: SM ``sm``'s fill-completion ring (memsys.py)."""
    cap = fq.shape[1]
    i = (sm_s[sm, S_FQ_HEAD] + sm_s[sm, S_FQ_COUNT]) % cap
    fq[sm, i, T_TOKEN] = token
    fq[sm, i, T_READY] = ready
    sm_s[sm, S_FQ_COUNT] += 1
    act[A_COMPLETIONS] += 1


@jit
def l1_writeback(ca, act, c: int, sm: int, line: int, shift: int, ready: int) -> None:
    """Queue the write-back of the dirty ``line`` that L1 cache ``c`` of SM ``sm`` evicted."""
    l1_push(ca, act, c, line << shift, pack_info(sm, PK_WRITE, SRC_NONE, 1 << shift, 0), ready)


@jit
def _emit(ca, act, c: int, sm: int, base: int, mask: int, d: int, shift: int,
          ready: int) -> int:
    """Queue one read packet for the lines of ``mask`` (bit k: line ``base + k``), the L2 to
    look up line ``base + d`` first when it is one of them (the demand line); returns 1 when
    it carries several lines."""
    k0 = 0
    while (mask >> k0) & 1 == 0:
        k0 += 1
    rel = mask >> k0
    n = 0
    m = rel
    while m != 0:
        n += m & 1
        m >>= 1
    if n == 1:
        info = pack_info(sm, PK_READ, L1_D, 1 << shift, 0)
    else:
        lead = d - k0 if (mask >> d) & 1 else 0
        info = pack_info(sm, PK_GROUP, L1_D, n << shift, rel) | (lead << 56)
    l1_push(ca, act, c, (base + k0) << shift, info, ready)
    return 1 if n > 1 else 0


@jit
def group_miss(p, ca, pend, sm_s, act, sm: int, c: int, line: int, shift: int, g: int,
               ready: int) -> None:
    """After ``cache_read`` allocated the demand miss of ``line`` in L1D cache ``c`` (its read
    not yet queued; its victim's write-back, if any, queued already): allocate
    the absent lines of its aligned group of ``g`` lines and queue the reads, one packet per L2
    slice."""
    base = line - line % g
    d = line - base
    fetch = 1 << d
    n_pk = 1                                    # read packets the lines need so far
    added = 0
    dropped = 0
    for k in range(g):
        n = base + k
        if k == d:
            continue
        if cache_probe(ca, c, cache_set(ca, c, n), n) >= 0 or mshr_find(ca, c, n) >= 0:
            continue                            # present or already on its way
        sl = addr_slice(p, n << shift)
        new = 1
        for j in range(g):
            if (fetch >> j) & 1 and addr_slice(p, (base + j) << shift) == sl:
                new = 0
                break
        ok, victim = cache_reserve(ca, c, n, n_pk + new)
        if ok == 0:
            dropped += 1
            continue
        n_pk += new
        fetch |= 1 << k
        added += 1
        act[A_MSHR] += 1
        if victim >= 0:
            l1_writeback(ca, act, c, sm, victim, shift, ready)
    group_pk = 0
    left = fetch
    first = d                                   # the demand line's slice goes first
    for _ in range(n_pk):
        sl = addr_slice(p, (base + first) << shift)
        mask = 0
        for j in range(g):
            if (left >> j) & 1 and addr_slice(p, (base + j) << shift) == sl:
                mask |= 1 << j
        left &= ~mask
        group_pk += _emit(ca, act, c, sm, base, mask, d, shift, ready)
        if left == 0:
            break
        first = 0
        while (left >> first) & 1 == 0:
            first += 1
    _add(pend, sm_s, sm, C_L1D_GROUP_LINES, added)
    _add(pend, sm_s, sm, C_L1D_GROUP_LINES_DROPPED, dropped)
    _add(pend, sm_s, sm, C_L1D_GROUP_REQUESTS, group_pk)
    _add(pend, sm_s, sm, C_L1D_GROUP_SPLITS, n_pk - 1)
