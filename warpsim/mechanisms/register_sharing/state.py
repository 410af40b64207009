"""Run-time state of Register Sharing: per-SM slot roles, per-pair locks and owners, per-warp
slot/position/dynamic id, the DWE probabilities, and the mechanism's counters, as numpy arrays
the jitted hooks update (STYLE.md §2.4: structure of arrays, no Python objects).

Follows: specs/register-sharing.md §3.4-§3.7 (slots, pairs, locks, owners), §4.3 (DWE state),
§5 (the paper's per-SM hardware: sharing-mode bit, sharer id per slot, per-warp shared and owner
bits, a lock per warp pair holding the holder's warp id).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from warpsim.timing import consts as tc
from warpsim.timing import fields as fl

__all__ = ["DWE_KINDS", "RSState", "make_state"]

# g[...]: parameters, then counters, then bookkeeping scalars
G_SHARING = 0
G_N_SCHED = 1
G_OWF = 2
G_OWF_GREEDY = 3
G_DWE = 4
G_WINDOW = 5
G_STEP = 6
G_STICKY = 7
G_METRIC = 8
G_SEED = 9
G_ACQ = 10
G_DENY = 11
G_LOCK_STALL = 12
G_OWN_CHANGES = 13
G_TRANSFERS = 14
G_DWE_DENY = 15
G_DWE_WINDOWS = 16
G_DWE_DRAWS = 17
G_ISSUED_OWNER = 18
G_ISSUED_UNSHARED = 19
G_ISSUED_NONOWNER = 20
G_NONOWNER_MEM = 21
G_LAST_CYCLE = 22
G_LAST_STALL = 23
G_LAST_DENY = 24
G_LAST_DWE_DENY = 25
G_CYC_DENY = 26
G_CYC_DWE_DENY = 27
G_WIN_START = 28
G_FORCE = 29
G_DENY_RULE = 30
G_WARP_RULE = 31
N_G = 32

# pc_tab[pc, ...]
PC_SHARED = 0
PC_DWE = 1
N_PC = 2

# slot_tab[slot, ...]
T_PARTNER = 0
T_PAIR = 1
N_T = 2

# warp[sm, w, ...]
W_SLOT = 0
W_POS = 1
W_DYN = 2
W_LOCK = 3
W_STICKY = 4
N_W = 5

# slot[sm, c, ...]
S_LIVE = 0
S_HOLDERS = 1
N_S = 2

# lock[sm, k, 0] = owner slot of pair k; lock[sm, k, 1 + pos] = holder warp slot or -1

# smr[sm, ...]
M_DYN_CTR = 0
M_P = 1
M_RNG_CTR = 2
M_WIN_METRIC = 3
M_WIN_ACTIVE = 4
N_M = 5

# sched[sm, s, ...]
SC_PASS = 0
SC_DENY = 1
SC_LAST = 2
N_SC = 3

DWE_KINDS = (tc.MK_LD_GLOBAL, tc.MK_ST_GLOBAL, tc.MK_LD_LOCAL, tc.MK_ST_LOCAL, tc.MK_LD_TEX,
             tc.MK_ATOMIC, tc.MK_LD_GENERIC, tc.MK_ST_GENERIC, tc.MK_ATOMIC_GENERIC)
"""Memory kinds DWE throttles (spec §10.10 [A]: global/local load, store, atomic, texture;
generic accesses count as global [A]; shared, const and param never)."""

TRACE_WINDOWS = 1 << 15
"""Windows of the per-window DWE probability trace kept per launch (later ones are counted in
``rs_dwe_windows`` but not recorded)."""


class RSState(NamedTuple):
    """The hooks' state (``hs``) of one launch."""

    g: np.ndarray
    """``g[G_*]`` int64: parameters, counters, bookkeeping."""
    pc_tab: np.ndarray
    """``pc_tab[pc, PC_*]`` int64: the instruction needs the pair lock (a register with sequence
    number > u; not bar/exit), it is a DWE-throttled memory instruction."""
    slot_tab: np.ndarray
    """``slot_tab[c, T_*]`` int64: partner slot and pair index of CTA slot ``c`` (-1:
    unshared)."""
    warp: np.ndarray
    """``warp[sm, w, W_*]`` int64: CTA slot, position in the CTA, dynamic warp id, holds its
    pair lock, DWE sticky denial until this cycle."""
    slot: np.ndarray
    """``slot[sm, c, S_*]`` int64: a thread block is resident, its warps holding a lock."""
    slot_warps: np.ndarray
    """``slot_warps[sm, c, pos]`` int64: warp slot at position ``pos`` of CTA slot ``c``."""
    lock: np.ndarray
    """``lock[sm, k, 0]`` owner slot of pair ``k``; ``lock[sm, k, 1 + pos]`` the warp slot
    holding the lock of warp pair ``pos`` (-1: free)."""
    smr: np.ndarray
    """``smr[sm, M_*]`` int64: dynamic warp id counter, DWE probability P in tenths, draw
    counter, the stall metric and active cycles at the window's start."""
    sched: np.ndarray
    """``sched[sm, s, SC_*]`` int64: last cycle a warp passed ``can_issue``, last cycle one was
    denied by a lock, the warp that issued last (OWF greedy)."""
    trace: np.ndarray
    """``trace[window, sm]`` int8: P in tenths after each DWE window."""


def _pc_tables(tables: Any, pc_max_seq: np.ndarray, u: int) -> np.ndarray:
    info = tables.pc_info
    n = info.shape[0]
    pc_tab = np.zeros((n, N_PC), np.int64)
    seq = np.zeros(n, np.int64)
    m = min(n, pc_max_seq.size)
    seq[:m] = pc_max_seq[:m]
    flags = info[:, fl.F_PC_FLAGS]
    resolved_at_issue = (flags & (tc.F_BARRIER | tc.F_BAR_ARRIVE | tc.F_EXIT)) != 0
    pc_tab[:, PC_SHARED] = (seq > u) & ~resolved_at_issue
    pc_tab[:, PC_DWE] = np.isin(info[:, fl.F_PC_MEM], DWE_KINDS)
    return pc_tab


def make_state(cfg: Any, layout: Any, tables: Any, pc_max_seq: np.ndarray,
               warps_per_cta: int) -> RSState:
    """Zeroed state of one launch: ``layout`` a ``SharingLayout``, ``tables`` the launch's
    ``StaticTables``, ``pc_max_seq`` per pc (``reorder.SharingSeq.pc_max_seq``)."""
    rs = cfg.register_sharing
    n_sms, n_w, n_c = cfg.sm.n_sms, cfg.sm.n_max_warps, cfg.sm.n_max_ctas
    n_sched = cfg.sm.n_schedulers
    wpc = max(1, int(warps_per_cta))
    i64 = np.int64
    g = np.zeros(N_G, i64)
    g[G_SHARING] = int(layout.sharing_mode)
    g[G_N_SCHED] = n_sched
    g[G_OWF] = int(rs.owf)
    g[G_WARP_RULE] = int(rs.lock_rule == "warp")
    g[G_OWF_GREEDY] = int(rs.owf_greedy)
    g[G_DWE] = int(rs.dwe and layout.sharing_mode)
    g[G_WINDOW] = rs.dwe_window_cycles
    g[G_STEP] = round(rs.dwe_step_frac * 10)
    g[G_STICKY] = int(rs.dwe_sticky)
    g[G_METRIC] = 0 if rs.dwe_stall_metric == "pipeline_stall" else 1
    g[G_SEED] = rs.n_rng_seed
    g[G_LAST_CYCLE] = -1
    g[G_WIN_START] = -1
    g[G_FORCE] = -1
    slot_tab = np.full((n_c, N_T), -1, i64)
    for c, (p, k) in enumerate(zip(layout.partner, layout.pair, strict=True)):
        if c < n_c:
            slot_tab[c, T_PARTNER] = p
            slot_tab[c, T_PAIR] = k
    warp = np.zeros((n_sms, n_w, N_W), i64)
    warp[:, :, W_SLOT] = -1
    lock = np.full((n_sms, max(1, layout.shared_pairs), 1 + wpc), -1, i64)
    for c, k in enumerate(layout.pair):
        if k >= 0 and c < layout.partner[c]:  # the original slot U+k starts as owner
            lock[:, k, 0] = c
    smr = np.zeros((n_sms, N_M), i64)
    smr[1:, M_P] = 10  # spec §4.3: P = 1 on every SM but the reference SM 0
    sched = np.full((n_sms, n_sched, N_SC), -1, i64)
    return RSState(
        g=g, pc_tab=_pc_tables(tables, pc_max_seq, layout.unshared_regs_per_thread),
        slot_tab=slot_tab, warp=warp, slot=np.zeros((n_sms, n_c, N_S), i64),
        slot_warps=np.full((n_sms, n_c, wpc), -1, i64), lock=lock, smr=smr, sched=sched,
        trace=np.zeros((TRACE_WINDOWS if g[G_DWE] else 1, n_sms), np.int8))
