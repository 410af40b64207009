"""The coarse-grained L1 fetch's jitted hooks. ``pairing=paired`` (the paper): an SM in coarse
mode sets its L1 fetch group (``l1_fetch_group``): every L1D global-load miss checks the other
lines of its aligned group in the same lookup and requests the absent ones with it
(``timing/l1group.py``). ``pairing=separate``: a global load that issues on an SM in coarse mode
queues the other lines of its aligned group (``on_issue``), the queue goes to the L1 through the
SM's memory port (``mem_request``, ``on_mem_sent``, ``on_mem_complete``) as whole-line loads
(present: an L1 hit, no traffic; absent: an L1 miss fetched from the L2). In both, set dueling
picks the followers' policy each epoch (``on_cycle_end``).

Follows: Xiang's dissertation §5.4 (check the neighbouring block, request it when absent),
§5.5 (coarse2 / coarse4, set dueling with one baseline and one coarse leader SM; the L2 treats
paired requests as one); spec §4.
Assumptions (docs/mechanisms/coarse-fetch.md):
  [A] ``separate``: the neighbours are offered to the L1 in the cycles the LD/ST unit has none
      of its own lines (the memory port), not in the same tag lookup: a present neighbour
      costs an L1 port cycle, an absent one a separate L1 miss and L2 request.
  [A] ``separate``: a group already fetched by this SM recently (``filter_entries`` FIFO) is
      not checked again, and a queued neighbour that a later load of the SM touches itself is
      cancelled (the load requests it anyway): the paper's check costs nothing when the core
      asks for the line.
  [A] Dueling compares the leaders' thread instructions (``gpu_sim_insn``) over each epoch;
      the coarse policy wins only with strictly more, a tie keeps the followers' policy.
"""

from __future__ import annotations

import numpy as np

from warpsim._jit import jit
from warpsim.mechanisms.coarse_fetch.state import (
    K_GROUPS,
    LINE_BYTES,
    P_DUEL,
    P_EPOCH,
    P_EPOCHS,
    P_EPOCHS_COARSE,
    P_FCAP,
    P_FOLLOW,
    P_GROUP,
    P_INSN_BASE,
    P_INSN_COARSE,
    P_LEAD_BASE,
    P_LEAD_COARSE,
    P_NEXT_EPOCH,
    P_PAIRED,
    P_QCAP,
    P_REC_BASE,
    ST_CANCELLED,
    ST_DROPPED,
    ST_FILTERED,
    ST_GROUPS,
    ST_LOADS,
    ST_LOADS_COARSE,
    ST_QUEUED,
    ST_REFUSED,
    ST_RETURNED,
    ST_SENT,
    ST_TRUNC,
)
from warpsim.stats import C_GPU_SIM_INSN
from warpsim.timing.consts import INT64_MAX, ISSUE_EXECUTE, MK_LD_GLOBAL, MK_NONE

__all__ = ["cf_l1_fetch_group", "cf_mem_request", "cf_on_cycle_end", "cf_on_issue",
           "cf_on_mem_complete", "cf_on_mem_sent"]


@jit
def _remembered(hs, sm, base):  # pragma: no cover - jit
    """True when ``base`` is in the SM's filter; otherwise it is entered (FIFO)."""
    cap = hs.prm[P_FCAP]
    if cap == 0:
        return False
    for i in range(cap):
        if hs.filt[sm, i] == base:
            return True
    k = hs.filt_next[sm]
    hs.filt[sm, k] = base
    hs.filt_next[sm] = (k + 1) % cap
    return False


@jit
def _cancel_own(hs, sm, r, n, gbytes):  # pragma: no cover - jit
    """Cancel queued neighbours that this load (record row ``r``) touches itself."""
    cap = hs.prm[P_QCAP]
    head = hs.q_ht[sm, 0]
    for i in range(hs.q_ht[sm, 1]):
        k = (head + i) % cap
        a = hs.q[sm, k]
        if a < 0:
            continue
        for j in range(n):
            e = hs.cols[r, 1 + j]
            mask = e & (gbytes - 1)
            off = a - (e - mask)
            if 0 <= off < gbytes and (mask >> (off // LINE_BYTES)) & 1 == 1:
                hs.q[sm, k] = -1
                hs.st[ST_CANCELLED] += 1
                break


@jit
def cf_on_issue(hs, sm, warp, pc, rec, cycle):  # pragma: no cover - jit
    """A global load on a coarse-mode SM queues the lines of its groups it does not touch and
    cancels queued neighbours it touches."""
    r = rec - hs.prm[P_REC_BASE]
    if r < 0 or r >= hs.cols.shape[0]:
        return ISSUE_EXECUTE, np.int64(0)
    n = hs.cols[r, 0]
    if n == 0:
        return ISSUE_EXECUTE, np.int64(0)
    hs.st[ST_LOADS] += 1
    if hs.prm[P_PAIRED] != 0:                   # the L1 fetches the neighbours itself
        hs.st[ST_LOADS_COARSE] += hs.mode[sm]
        return ISSUE_EXECUTE, np.int64(0)
    g = hs.prm[P_GROUP]
    gbytes = g * LINE_BYTES
    if n > K_GROUPS:
        hs.st[ST_TRUNC] += n - K_GROUPS
        n = K_GROUPS
    if hs.q_ht[sm, 1] > 0:
        _cancel_own(hs, sm, r, n, gbytes)
    if hs.mode[sm] == 0:
        return ISSUE_EXECUTE, np.int64(0)
    hs.st[ST_LOADS_COARSE] += 1
    cap = hs.prm[P_QCAP]
    for k in range(n):
        e = hs.cols[r, 1 + k]
        mask = e & (gbytes - 1)
        base = e - mask
        hs.st[ST_GROUPS] += 1
        if _remembered(hs, sm, base):
            hs.st[ST_FILTERED] += 1
            continue
        need = 0
        for j in range(g):
            if (mask >> j) & 1 == 0:
                need += 1
        if hs.q_ht[sm, 1] + need > cap:
            hs.st[ST_DROPPED] += need
            continue
        for j in range(g):
            if (mask >> j) & 1 == 0:
                i = (hs.q_ht[sm, 0] + hs.q_ht[sm, 1]) % cap
                hs.q[sm, i] = base + j * LINE_BYTES
                hs.q_ht[sm, 1] += 1
                hs.st[ST_QUEUED] += 1
    return ISSUE_EXECUTE, np.int64(0)


@jit
def cf_l1_fetch_group(hs, sm, cycle):  # pragma: no cover - jit
    """``paired``: the SM's L1 fetches whole groups in coarse mode, its own line otherwise."""
    if hs.prm[P_PAIRED] != 0 and hs.mode[sm] != 0:
        return hs.prm[P_GROUP]
    return np.int64(1)


@jit
def cf_mem_request(hs, sm, cycle):  # pragma: no cover - jit
    """The oldest queued neighbour line, as a whole-line global load (cancelled ones leave)."""
    cap = hs.prm[P_QCAP]
    while hs.q_ht[sm, 1] > 0 and hs.q[sm, hs.q_ht[sm, 0]] < 0:
        hs.q_ht[sm, 0] = (hs.q_ht[sm, 0] + 1) % cap
        hs.q_ht[sm, 1] -= 1
    if hs.q_ht[sm, 1] == 0:
        return MK_NONE, np.int64(0), np.int64(0), np.int64(0)
    return MK_LD_GLOBAL, hs.q[sm, hs.q_ht[sm, 0]], np.int64(4), np.int64(0)


@jit
def cf_on_mem_sent(hs, sm, tag, accepted, cycle):  # pragma: no cover - jit
    """An accepted line leaves the queue; a refused one is offered again."""
    if accepted:
        hs.q_ht[sm, 0] = (hs.q_ht[sm, 0] + 1) % hs.prm[P_QCAP]
        hs.q_ht[sm, 1] -= 1
        hs.st[ST_SENT] += 1
    else:
        hs.st[ST_REFUSED] += 1


@jit
def cf_on_mem_complete(hs, sm, tag, cycle):  # pragma: no cover - jit
    """A neighbour line reached the SM (hit latency or fill)."""
    hs.st[ST_RETURNED] += 1


@jit
def cf_on_cycle_end(hs, counters, cycle):  # pragma: no cover - jit
    """Set dueling: at each epoch end the leader with more thread instructions in the epoch
    sets the followers' policy for the next one."""
    p = hs.prm
    if p[P_DUEL] == 0:
        return INT64_MAX
    a = counters[p[P_LEAD_BASE], C_GPU_SIM_INSN]
    b = counters[p[P_LEAD_COARSE], C_GPU_SIM_INSN]
    if p[P_NEXT_EPOCH] < 0:
        p[P_INSN_BASE] = a
        p[P_INSN_COARSE] = b
        p[P_NEXT_EPOCH] = cycle + p[P_EPOCH]
    elif cycle >= p[P_NEXT_EPOCH]:
        db = a - p[P_INSN_BASE]
        dc = b - p[P_INSN_COARSE]
        if dc > db:
            p[P_FOLLOW] = 1
        elif db > dc:
            p[P_FOLLOW] = 0
        for sm in range(hs.mode.shape[0]):
            if hs.role[sm] == 2:
                hs.mode[sm] = p[P_FOLLOW]
        p[P_EPOCHS] += 1
        p[P_EPOCHS_COARSE] += p[P_FOLLOW]
        p[P_INSN_BASE] = a
        p[P_INSN_COARSE] = b
        p[P_NEXT_EPOCH] = cycle + p[P_EPOCH]
    return p[P_NEXT_EPOCH]
