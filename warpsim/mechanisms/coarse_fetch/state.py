"""State of the coarse-grained L1 fetch: per-SM neighbour-line queues, the recently fetched
groups, the dueling decision, and the record columns that carry each global load's groups.

Follows: Xiang's dissertation §5.4-§5.5; STYLE.md §2.4 (state as a NamedTuple of numpy arrays).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from warpsim.timing.consts import MK_LD_GENERIC, MK_LD_GLOBAL

__all__ = ["K_GROUPS", "LINE_BYTES", "N_COLS", "P_DUEL", "P_EPOCH", "P_EPOCHS",
           "P_EPOCHS_COARSE", "P_FCAP", "P_FOLLOW", "P_GROUP", "P_INSN_BASE", "P_INSN_COARSE",
           "P_LEAD_BASE", "P_LEAD_COARSE", "P_NEXT_EPOCH", "P_PAIRED", "P_QCAP", "P_REC_BASE",
           "STAT_NAMES", "CFState", "group_columns", "make_state"]

LINE_BYTES = 128
"""Bytes of a trace line (the L1 access unit; docs/trace-format.md)."""
K_GROUPS = 4
"""[A] Groups of one warp load whose neighbours are fetched (record columns 1..4); a load
spread over more groups fetches the neighbours of its first four (``cf_groups_truncated``)."""
N_COLS = 1 + K_GROUPS
"""Record columns: the number of groups, then one packed group per column."""

(P_GROUP, P_DUEL, P_EPOCH, P_NEXT_EPOCH, P_LEAD_BASE, P_LEAD_COARSE, P_INSN_BASE,
 P_INSN_COARSE, P_FOLLOW, P_REC_BASE, P_QCAP, P_FCAP, P_EPOCHS, P_EPOCHS_COARSE,
 P_PAIRED) = range(15)
N_P = 15

STAT_NAMES = ("loads", "groups", "groups_truncated", "groups_filtered", "lines_queued",
              "lines_dropped", "lines_sent", "lines_refused", "lines_returned",
              "loads_coarse_sm", "lines_cancelled")
"""Event counts (``st``), exported as ``cf_<name>``."""
(ST_LOADS, ST_GROUPS, ST_TRUNC, ST_FILTERED, ST_QUEUED, ST_DROPPED, ST_SENT, ST_REFUSED,
 ST_RETURNED, ST_LOADS_COARSE, ST_CANCELLED) = range(len(STAT_NAMES))


class CFState(NamedTuple):
    """The hooks' state (``hs``)."""

    prm: np.ndarray
    """``prm[P_*]`` int64: parameters, the dueling account and the window's first record."""
    mode: np.ndarray
    """``mode[sm]`` int64: 1 when SM ``sm`` fetches whole groups now."""
    role: np.ndarray
    """``role[sm]`` int64: 0 base leader, 1 coarse leader, 2 follower (all 1 without dueling)."""
    q: np.ndarray
    """``q[sm, i]`` int64: neighbour line addresses waiting for the L1 port (ring; -1: cancelled,
    a later load of the SM requests that line itself)."""
    q_ht: np.ndarray
    """``q_ht[sm, 0/1]`` int64: head and count of ``q``."""
    filt: np.ndarray
    """``filt[sm, i]`` int64: base addresses of recently fetched groups (-1 empty; FIFO)."""
    filt_next: np.ndarray
    """``filt_next[sm]`` int64: the ``filt`` slot replaced next."""
    cols: np.ndarray
    """``cols[rec - prm[P_REC_BASE], c]`` int64: the record columns (``group_columns``)."""
    st: np.ndarray
    """``st[ST_*]`` int64: event counts."""


def make_state(cfg, follow: int) -> CFState:
    """Empty queues and filters; ``follow`` is the followers' policy carried over from the last
    launch (1 coarse)."""
    cf = cfg.coarse_fetch
    n = cfg.sm.n_sms
    prm = np.zeros(N_P, np.int64)
    prm[P_GROUP] = cf.n_group_lines
    prm[P_DUEL] = int(cf.dueling)
    prm[P_EPOCH] = cf.dueling_epoch_cycles
    prm[P_NEXT_EPOCH] = -1  # set at the launch's first cycle
    prm[P_LEAD_BASE] = cf.n_leader_base_sm
    prm[P_LEAD_COARSE] = cf.n_leader_coarse_sm
    prm[P_FOLLOW] = follow
    prm[P_QCAP] = cf.queue_entries
    prm[P_FCAP] = cf.filter_entries
    prm[P_PAIRED] = int(cf.pairing == "paired")
    role = np.full(n, 1, np.int64)
    mode = np.ones(n, np.int64)
    if cf.dueling:
        role[:] = 2
        mode[:] = follow
        role[cf.n_leader_base_sm] = 0
        mode[cf.n_leader_base_sm] = 0
        role[cf.n_leader_coarse_sm] = 1
        mode[cf.n_leader_coarse_sm] = 1
    return CFState(prm=prm, mode=mode, role=role,
                   q=np.zeros((n, cf.queue_entries), np.int64),
                   q_ht=np.zeros((n, 2), np.int64),
                   filt=np.full((n, max(1, cf.filter_entries)), -1, np.int64),
                   filt_next=np.zeros(n, np.int64),
                   cols=np.zeros((0, N_COLS), np.int64),
                   st=np.zeros(len(STAT_NAMES), np.int64))


def group_columns(pc: np.ndarray, n_lines: np.ndarray, line_start: np.ndarray,
                  lines: np.ndarray, pc_mem: np.ndarray, group_lines: int) -> np.ndarray:
    """Record columns of a chunk's records (already in replay order): for a global load, the
    number of aligned groups of ``group_lines`` lines its lines fall in, then up to
    ``K_GROUPS`` entries ``group_base | own_mask`` (bit k: the load touches line k of the group
    itself, so only the other lines are neighbours); zeros for every other record."""
    n = pc.size
    out = np.zeros((n, N_COLS), np.int64)
    mk = pc_mem[pc]
    load = ((mk == MK_LD_GLOBAL) | (mk == MK_LD_GENERIC)) & (n_lines > 0)
    recs = np.flatnonzero(load)
    if recs.size == 0 or group_lines <= 1:
        return out
    nl = n_lines[recs].astype(np.int64)
    rec_of = np.repeat(np.arange(recs.size), nl)
    first = np.repeat(np.cumsum(nl) - nl, nl)
    idx = np.repeat(line_start[recs].astype(np.int64), nl) + np.arange(int(nl.sum())) - first
    addr = lines[idx].astype(np.int64)
    gbytes = group_lines * LINE_BYTES
    base = addr - addr % gbytes
    bit = np.left_shift(1, (addr % gbytes) // LINE_BYTES)
    # lines of a record are sorted ascending, so equal bases are adjacent
    new = np.ones(addr.size, bool)
    new[1:] = (base[1:] != base[:-1]) | (rec_of[1:] != rec_of[:-1])
    gid = np.cumsum(new) - 1
    g_base = base[new]
    g_rec = rec_of[new]
    g_mask = np.zeros(g_base.size, np.int64)
    np.bitwise_or.at(g_mask, gid, bit)
    g_first = np.searchsorted(g_rec, g_rec, side="left")
    g_pos = np.arange(g_base.size) - g_first
    counts = np.bincount(g_rec, minlength=recs.size)
    out[recs, 0] = counts
    keep = g_pos < K_GROUPS
    out[recs[g_rec[keep]], 1 + g_pos[keep]] = g_base[keep] | g_mask[keep]
    return out
