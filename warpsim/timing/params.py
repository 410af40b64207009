"""The cycle loop's parameter vector (``consts.P_*``) from a GPU configuration.

Follows: docs/timing-model.md (each parameter's GPGPU-Sim option).
"""

from __future__ import annotations

import numpy as np

from warpsim.arch import BankMapping, GPUConfig, SchedPolicy
from warpsim.timing import consts as tc

__all__ = ["BRANCH_BUBBLE_CYCLES", "engine_params"]

BRANCH_BUBBLE_CYCLES = 1
"""[A] Cycles after a branch issues before its warp fetches again (GPGPU-Sim flushes the
I-buffer and refetches; no config field)."""


def engine_params(cfg: GPUConfig, skip_idle: bool) -> np.ndarray:
    """The engine's launch-independent parameter vector (``consts.P_*``) for ``cfg``."""
    sm, rf = cfg.sm, cfg.regfile
    prm = np.zeros(tc.N_PARAMS, np.int64)
    prm[tc.P_N_SCHED] = sm.n_schedulers
    prm[tc.P_POLICY] = {SchedPolicy.LRR: tc.POL_LRR, SchedPolicy.GTO: tc.POL_GTO,
                       SchedPolicy.TWO_LEVEL: tc.POL_TWO_LEVEL,
                       SchedPolicy.OLDEST: tc.POL_OLDEST}[sm.sched_policy]
    prm[tc.P_TL_ACTIVE] = sm.n_two_level_active_warps
    prm[tc.P_MAX_ISSUE] = sm.n_max_issue_per_warp
    prm[tc.P_IBUF] = sm.ibuffer_entries
    prm[tc.P_SB_ENTRIES] = sm.scoreboard_entries
    prm[tc.P_N_FETCH] = sm.n_fetch_per_cycle
    prm[tc.P_N_DECODE] = sm.n_decode_per_cycle
    prm[tc.P_N_BANKS] = rf.n_banks
    mapping = rf.bank_mapping
    if sm.sub_core_model:
        mapping = BankMapping.SUB_CORE
    prm[tc.P_BANK_MAP] = {BankMapping.WARP_SKEWED: tc.BANK_MAP_WARP_SKEWED,
                         BankMapping.LINEAR: tc.BANK_MAP_LINEAR,
                         BankMapping.SUB_CORE: tc.BANK_MAP_SUB_CORE}[mapping]
    prm[tc.P_RD_PORTS] = rf.n_read_ports_per_bank
    prm[tc.P_WR_PORTS] = rf.n_write_ports_per_bank
    prm[tc.P_OC_STEPS] = min(rf.n_oc_steps_per_cycle, 8)
    prm[tc.P_SINGLE_READ] = int(rf.collector_single_read_per_cycle)
    prm[tc.P_EX_WB] = cfg.pipelines.n_ex_wb_slots
    prm[tc.P_SHMEM_LAT] = cfg.shmem.latency_cycles
    prm[tc.P_PARAM_LAT] = cfg.l1c.hit_latency_cycles
    prm[tc.P_LDST_LAT] = cfg.pipelines.ldst.latency_cycles
    prm[tc.P_LAUNCH_LAT] = cfg.kernel_launch_latency_cycles
    prm[tc.P_SKIP_IDLE] = int(skip_idle)
    prm[tc.P_BRANCH_BUBBLE] = BRANCH_BUBBLE_CYCLES
    prm[tc.P_MAX_WARPS] = sm.n_max_warps
    prm[tc.P_TEX_LAT] = cfg.l1t.hit_latency_cycles
    return prm
