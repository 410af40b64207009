"""WIR's per-launch state arrays (the hook state after the record columns): parameters, rename
tables, physical register values and counts, free pool, VSB, RB, verify cache.

Follows: specs/wir.md §2.2 (structures), §2.3 (rename entries invalid at warp start), §2.9 (all
registers free at start, FIFO pool) [A]; layout: ``layout.py``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from warpsim.mechanisms.wir.counters import STATS
from warpsim.mechanisms.wir.layout import (
    M_RNG,
    N_MISC,
    N_PRM,
    N_RB,
    P_CAPPED,
    P_CHECK,
    P_DELAY,
    P_HITLAT,
    P_HMASK,
    P_LOADS,
    P_NBANKS,
    P_NP,
    P_NRB,
    P_NVC,
    P_NVSB,
    P_PEND,
    P_PENDQ,
    P_REGS,
    P_RELDELAY,
    P_SEED,
)
from warpsim.mechanisms.wir.structures import h3_matrix

__all__ = ["new_arrays"]


def new_arrays(w: Any, n_sms: int, n_warps: int, n_regs: int, n_phys: int,
               regs_per_warp: int, n_banks: int, pcx: np.ndarray, pc_src: np.ndarray,
               pc_dst: np.ndarray) -> tuple:
    """The state tuple ``(prm, pcx, pcsrc, pcdst, rt, pin, pval, ref, pool, poolp, rel, relp,
    vsb, rb, vc, wcta, misc, stats, h3q)`` for ``w`` (a ``WIRConfig``)."""
    s = n_sms
    prm = np.zeros(N_PRM, np.int64)
    prm[P_NP] = n_phys
    prm[P_NRB] = w.rb_entries
    prm[P_NVSB] = w.vsb_entries
    prm[P_NVC] = w.verify_cache_entries
    prm[P_PEND] = int(w.pending_retry)
    prm[P_PENDQ] = w.pending_queue_entries
    prm[P_LOADS] = int(w.load_reuse)
    prm[P_DELAY] = w.extra_delay_cycles
    prm[P_HITLAT] = w.reuse_hit_latency
    prm[P_CAPPED] = int(w.register_policy == "capped")
    prm[P_REGS] = regs_per_warp
    prm[P_RELDELAY] = w.release_delay_cycles
    prm[P_HMASK] = (1 << w.hash_bits) - 1
    prm[P_SEED] = w.hash_seed
    prm[P_NBANKS] = n_banks
    prm[P_CHECK] = int(w.check)
    misc = np.zeros((s, N_MISC), np.int64)
    misc[:, M_RNG] = w.hash_seed
    pool = np.tile(np.arange(n_phys, dtype=np.int64), (s, 1))
    poolp = np.zeros((s, 2), np.int64)
    poolp[:, 1] = n_phys
    nv, nrb, nvc = max(w.vsb_entries, 1), max(w.rb_entries, 1), max(w.verify_cache_entries, 1)
    vsb = np.zeros((s, nv, 2), np.int64)
    vsb[:, :, 1] = -1
    return (
        prm, np.ascontiguousarray(pcx, np.int64),
        np.ascontiguousarray(pc_src, np.int64), np.ascontiguousarray(pc_dst, np.int64),
        np.full((s, n_warps, n_regs), -1, np.int64),   # rt: logical -> physical
        np.zeros((s, n_warps, n_regs), np.int64),      # pin bits
        np.zeros((s, n_phys), np.int64),               # pval: value signature held
        np.zeros((s, n_phys), np.int64),               # ref: reference counts
        pool, poolp,
        np.zeros((s, n_phys, 2), np.int64),            # rel: (register, ready cycle)
        np.zeros((s, 2), np.int64),                    # relp: head, count
        vsb,                                           # (hash, register or -1)
        np.zeros((s, nrb, N_RB), np.int64),
        np.full((s, nvc, 2), -1, np.int64),            # verify cache: (register, LRU stamp)
        np.full((s, n_warps), -1, np.int64),           # warp slot -> TB slot
        misc,
        np.zeros(len(STATS), np.int64),
        h3_matrix(w.hash_seed),
    )
