"""Owner-Warp-First scheduling: shared owner warps, then unshared warps, then shared
non-owner warps; oldest dynamic warp id first inside a class.

Follows: Jatala et al. Sec. 5.1; specs/register-sharing.md §4.1 (non-greedy, GPGPU-Sim
``ORDERING_PRIORITY_FUNC_ONLY`` with key (class, dynamic warp id); the dynamic warp id counts
the warps launched on the SM) and §10.9. ``owf_greedy`` [A]: the warp that issued last on its
scheduler (as seen by ``on_issue``, i.e. not bar/exit) stays first.
"""

from __future__ import annotations

from warpsim._jit import jit
from warpsim.mechanisms.register_sharing.state import (
    G_N_SCHED,
    G_OWF,
    G_OWF_GREEDY,
    G_SHARING,
    SC_LAST,
    T_PAIR,
    W_DYN,
    W_SLOT,
)

__all__ = ["CLASS_SHIFT", "rs_issue_priority"]

CLASS_SHIFT = 40
"""The class rank sits above any dynamic warp id: key = rank << 40 | dynamic id."""


@jit
def rs_issue_priority(hs, sm, w, key):  # pragma: no cover - jit
    """OWF key of warp ``w`` (smaller issues first), or the policy's ``key`` without OWF."""
    g = hs.g
    if g[G_OWF] == 0:
        return key
    if g[G_OWF_GREEDY] != 0 and hs.sched[sm, w % g[G_N_SCHED], SC_LAST] == w:
        return -1
    rank = 1
    if g[G_SHARING] != 0:
        slot = hs.warp[sm, w, W_SLOT]
        k = hs.slot_tab[slot, T_PAIR]
        if k >= 0:
            rank = 0 if hs.lock[sm, k, 0] == slot else 2
    return (rank << CLASS_SHIFT) | hs.warp[sm, w, W_DYN]
