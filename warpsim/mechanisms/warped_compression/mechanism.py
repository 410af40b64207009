"""The Warped-Compression mechanism: BDI register compression with dummy MOVs for divergent
writes and power gating of empty register banks, on the timing engine's hooks.

Follows: specs/warped-compression.md §2-§5, §9.2, §10 (paper: Lee et al., ISCA 2015, Sec. 4-5);
docs/mechanisms/warped-compression.md (what is modelled, every [A] choice).
The trace fixes every register's value, so the compression state in program order (encodings,
bank accesses, MOVs) is computed when a chunk arrives (``walk.walk_chunk``); the hooks
(``hooks.py``) add what depends on time: bank valid counts and gating, wake-ups, compressor
throughput, the compression/decompression stages and the MOV's operand read.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from warpsim.mechanisms.base import Mechanism
from warpsim.mechanisms.warped_compression import hooks as wh
from warpsim.mechanisms.warped_compression.counters import (
    GATE_STATS,
    HOOK_STATS,
    N_COLS,
    WALK_STATS,
)
from warpsim.mechanisms.warped_compression.walk import SCHEME_CODES, walk_chunk
from warpsim.stats import C_GPU_SIM_CYCLE, C_SM_ACTIVE_CYCLES
from warpsim.timing.launch_info import LaunchInfo

__all__ = ["WarpedCompression"]

N_BANKS = 32
"""128-bit banks per SM (4 clusters of 8, spec §2.1)."""


POWER_BANK_BYTES = 4096
"""Bank size of the energy tables' register-file leakage (``EnergyTable.regfile_bank_bytes``)."""


def _hooks_of(base: Any) -> Any:
    """The mechanism's hooks over ``base`` (the no-ops)."""
    return base._replace(operand_bank=wh.wc_cluster_bank, dest_bank=wh.wc_cluster_bank,
                         on_warp_launch=wh.wc_on_warp_launch,
                         on_cta_release=wh.wc_on_cta_release,
                         on_operand_read=wh.wc_on_operand_read,
                         on_writeback=wh.wc_on_writeback, result_delay=wh.wc_result_delay,
                         can_writeback=wh.wc_can_writeback, extra_operand=wh.wc_extra_operand)


def _power_counters(out: dict[str, int | float], cfg: Any) -> dict[str, int | float]:
    """What the energy model (``power/counters.py``) reads, from the ``wc_*`` statistics: the
    128-bit bank accesses (MOVs included) and the gated bank-cycles in units of
    ``POWER_BANK_BYTES`` banks (the GPUWattch tables' ``regfile_bank_bytes``): one of the 32
    banks of a cluster organisation holds ``n_registers * 4 / 32`` bytes (integers: the
    device sums integer statistics over launches)."""
    scale = cfg.sm.n_registers * 4 / N_BANKS / POWER_BANK_BYTES
    return {"regfile_granule_reads": out["wc_bank_reads"],
            "regfile_granule_writes": out["wc_bank_writes"],
            "regfile_gated_bank_cycles": round(out["wc_gated_bank_cycles"] * scale)}


class WarpedCompression(Mechanism):
    """Warped-Compression (``GPUConfig.warped_compression``)."""

    name = "warped_compression"
    n_record_columns = N_COLS
    regfile_banks = 4
    """The 4 clusters of 8 banks the bank arbiter sees (``hooks.wc_cluster_bank``)."""

    def __init__(self, cfg: Any) -> None:
        super().__init__(cfg)
        self.wc = cfg.warped_compression
        self.scheme = SCHEME_CODES[self.wc.scheme]
        self.hooks = _hooks_of(self.hooks)

    def start_launch(self, info: LaunchInfo) -> dict[str, Any]:
        cfg = info.cfg
        wc = cfg.warped_compression
        s, w = cfg.sm.n_sms, cfg.sm.n_max_warps
        n_regs = int(info.alloc.n_regs) if info.alloc is not None else 1
        prm = np.zeros(wh.N_PRM, np.int64)
        prm[wh.PR_WAKE] = wc.wakeup_latency_cycles
        prm[wh.PR_TIMEOUT] = wc.gate_idle_timeout_cycles
        prm[wh.PR_GATING] = int(wc.power_gating)
        prm[wh.PR_NCOMP] = wc.n_compressors
        prm[wh.PR_NDECOMP] = wc.n_decompressors
        prm[wh.PR_C] = wc.comp_latency_cycles
        prm[wh.PR_D] = wc.decomp_latency_cycles
        prm[wh.PR_ONLY_COMPRESSED] = int(wc.latency_only_when_compressed)
        prm[wh.PR_WPC] = info.warps_per_cta
        prm[wh.PR_LAST_CYCLE] = -1
        n_values = (np.asarray(info.program.n_values, np.int64) if info.program is not None
                    else np.zeros(1, np.int64))
        return {
            "info": info, "n_regs": n_regs, "n_values": n_values,
            "pc_src": np.ascontiguousarray(info.tables.pc_src, np.int32),
            "pc_dst": np.ascontiguousarray(info.tables.pc_dst, np.int32),
            "walk": np.zeros(len(WALK_STATS), np.int64),
            "arrays": (
                prm,
                np.zeros((s, w, n_regs), np.int64),      # kreg: banks of each image (0 invalid)
                np.zeros((s, N_BANKS), np.int64),        # valid entries per bank
                np.full((s, N_BANKS), -1, np.int64),     # on_since (-1: gated)
                np.full((s, N_BANKS), -1, np.int64),     # off_at (pending gate)
                np.zeros((s, N_BANKS), np.int64),        # wake_at
                np.zeros((s, N_BANKS), np.int64),        # on_time
                np.full((s, w), -1, np.int64),           # warp slot -> CTA slot
                np.full((s, 4), -1, np.int64),           # compressor/decompressor use per cycle
                np.zeros(len(HOOK_STATS), np.int64)),
        }

    def record_columns(self, launch_state: Any, chunk: Any) -> np.ndarray:
        ls = launch_state
        n = int(chunk.pc.size)
        cols = np.zeros((n, N_COLS), np.int64)
        if n == 0:
            return cols
        walk_chunk(chunk.order, chunk.offsets, chunk.warp_in_cta, chunk.pc, chunk.mask,
                   chunk.exec_mask, chunk.val_start, chunk.bdi, ls["n_values"], ls["pc_src"],
                   ls["pc_dst"], ls["n_regs"], ls["info"].cta_threads,
                   ls["info"].regs_per_thread, self.scheme, ls["walk"], cols)
        return cols

    def hook_state(self, launch_state: Any, rec_cols: np.ndarray, rec_base: int) -> Any:
        a = launch_state["arrays"]
        return (np.ascontiguousarray(rec_cols, np.int64), np.array([rec_base], np.int64),
                launch_state["pc_dst"], *a)

    def finish_launch(self, launch_state: Any, counts: np.ndarray) -> dict[str, int | float]:
        ls = launch_state
        prm, _, _, on_since, off_at, _, on_time, *_rest = ls["arrays"]
        hstats = ls["arrays"][-1]
        last = int(prm[wh.PR_LAST_CYCLE])
        on = on_since >= 0  # still on at the end: close at the pending gate or the last event
        ends = np.where(off_at >= 0, off_at, last)
        on_time = on_time + np.where(on, np.maximum(ends - on_since, 0), 0)
        n_sms = counts.shape[0]
        cycles = int(counts[:, C_GPU_SIM_CYCLE].max()) if n_sms else 0
        active = int(counts[:, C_SM_ACTIVE_CYCLES].sum())
        out: dict[str, int | float] = {n: int(v) for n, v in zip(WALK_STATS, ls["walk"],
                                                               strict=True)}
        out.update({n: int(v) for n, v in zip(HOOK_STATS, hstats, strict=True)})
        gate = prm[wh.PR_GATING] != 0
        total_on = int(on_time.sum())
        vals = [n_sms * N_BANKS * cycles,
                max(0, n_sms * N_BANKS * cycles - total_on) if gate else 0,
                max(0, N_BANKS * active - total_on) if gate else 0]
        per_bank = on_time.sum(axis=0)
        vals += [max(0, n_sms * cycles - int(per_bank[b])) if gate else 0
                 for b in range(N_BANKS)]
        out.update(dict(zip(GATE_STATS, (int(v) for v in vals), strict=True)))
        out.update(_power_counters(out, ls["info"].cfg))
        return out
