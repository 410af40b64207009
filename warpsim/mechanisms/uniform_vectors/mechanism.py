"""The uniform-vector mechanism: decode-time detection of intra-warp uniform instructions,
their scalar execution (token bits or a scalar register file), the inter-warp reuse buffer and
opportunistic redundancy for reliability, on the timing engine's seams.

Follows: specs/xiang-simt-efficiency.md §1 (the dissertation ch. 2);
docs/mechanisms/uniform-vectors.md (what is modelled, every [A] choice). The trace fixes every
value, so the program-order analysis (token-design detection against true uniformity, value keys)
is computed when a chunk arrives (``walk.walk_chunk``); the hooks (``hooks.py``) add what depends
on the issue order: SRF occupancy, the per-SM reuse buffer, live intervals.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from warpsim.mechanisms.base import Mechanism
from warpsim.mechanisms.uniform_vectors import hooks as uh
from warpsim.mechanisms.uniform_vectors.counters import HOOK_STATS, N_COLS, WALK_STATS
from warpsim.mechanisms.uniform_vectors.decode import decode_flags
from warpsim.mechanisms.uniform_vectors.state import (
    N_PRM,
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
    PARTIAL_PC_BITS,
    fault_threshold,
    make_arrays,
)
from warpsim.mechanisms.uniform_vectors.walk import walk_chunk
from warpsim.timing.fields import F_WARP_IBUF
from warpsim.timing.launch_info import LaunchInfo

__all__ = ["UniformVectors"]

_READ_ONLY_WARPS = np.zeros((1, 1, F_WARP_IBUF + 1), np.int64)
_READ_ONLY_WARPS.setflags(write=False)
"""The warp table's stand-in until ``bind_core`` (same numba type: read-only)."""


class UniformVectors(Mechanism):
    """Uniform vectors (``GPUConfig.uniform_vectors``)."""

    name = "uniform_vectors"
    n_record_columns = N_COLS

    def __init__(self, cfg: Any) -> None:
        super().__init__(cfg)
        self.uv = cfg.uniform_vectors
        self._srf_peak = 0
        """Largest SRF occupancy of any SM over the launches so far."""
        self._launches = 0
        """Launches started (salts the fault draws)."""
        self.hooks = self.hooks._replace(
            on_issue=uh.uv_on_issue, unit_choice=uh.uv_unit_choice,
            operand_bank=uh.uv_operand_bank, dest_bank=uh.uv_dest_bank,
            on_warp_launch=uh.uv_on_warp_launch, on_warp_exit=uh.uv_on_warp_exit,
            on_retire=uh.uv_on_retire, can_issue=uh.uv_can_issue,
            on_cycle_end=uh.uv_on_cycle_end)

    def start_launch(self, info: LaunchInfo) -> dict[str, Any]:
        cfg = info.cfg
        uv = cfg.uniform_vectors
        n_regs = int(info.alloc.n_regs) if info.alloc is not None else 1
        n_sb = int(info.tables.n_sb_bits) if info.tables is not None else 1
        prm = np.zeros(N_PRM, np.int64)
        prm[P_DESIGN] = 1 if uv.design == "srf" else 0
        prm[P_SCALAR] = int(uv.scalar_issue)
        prm[P_NIRB] = uv.n_irb_entries
        prm[P_NSRF] = uv.n_srf_entries
        prm[P_REL] = int(uv.reliability)
        prm[P_NREGS] = n_regs
        prm[P_TAG_MASK] = (1 << PARTIAL_PC_BITS) - 1
        prm[P_BCAST] = int(uv.broadcast_uniform)
        prm[P_RELEASE_WB] = int(uv.srf_release == "wb")
        prm[P_RENAME] = int(uv.srf_rename_stage)
        prm[P_IRB_FAULT] = fault_threshold(uv.irb_fault_rate)
        prm[P_ALU_FAULT] = fault_threshold(uv.alu_fault_rate)
        prm[P_LAUNCH] = self._launches
        self._launches += 1
        if info.program is not None:
            pcf = decode_flags(info.program, info.tables.pc_info, info.tables.pc_sbsrc)
            n_values = np.asarray(info.program.n_values, np.int64)
        else:
            pcf = np.zeros(1, np.int64)
            n_values = np.zeros(1, np.int64)
        sbsrc = (np.ascontiguousarray(info.tables.pc_sbsrc, np.int32) if info.tables is not None
                 else np.full((1, 1), -1, np.int32))
        sbdst = (np.ascontiguousarray(info.tables.pc_sbdst, np.int32) if info.tables is not None
                 else np.full((1, 1), -1, np.int32))
        return {
            "info": info, "prm": prm, "pcf": pcf, "n_values": n_values, "sbsrc": sbsrc,
            "sbdst": sbdst, "n_regs": n_regs, "n_sb": n_sb,
            "walk": np.zeros(len(WALK_STATS), np.int64),
            "warp": _READ_ONLY_WARPS,
            "arrays": make_arrays(cfg.sm.n_sms, cfg.sm.n_max_warps, n_regs, n_sb,
                                  uv.n_irb_entries, uv.n_srf_entries, len(pcf)),
        }

    def record_columns(self, launch_state: Any, chunk: Any) -> np.ndarray:
        ls = launch_state
        n = int(chunk.pc.size)
        cols = np.zeros((n, N_COLS), np.int64)
        if n == 0:
            return cols
        walk_chunk(chunk.order, chunk.offsets, chunk.warp_in_cta, chunk.pc, chunk.mask,
                   chunk.exec_mask, chunk.val_start, chunk.sig, chunk.uniform, chunk.bdi,
                   ls["n_values"], ls["pcf"], ls["sbsrc"], ls["sbdst"], ls["n_regs"],
                   ls["n_sb"], ls["info"].cta_threads, bool(ls["prm"][P_BCAST]), ls["walk"],
                   cols)
        return cols

    def bind_core(self, launch_state: Any, core: Any) -> None:
        """Keeps the warp table (read-only: the rename stage watches the I-buffers)."""
        launch_state["warp"] = core.warp

    def hook_state(self, launch_state: Any, rec_cols: np.ndarray, rec_base: int) -> Any:
        ls = launch_state
        ls["prm"][P_REC_BASE] = rec_base
        return (ls["prm"], ls["pcf"], ls["sbsrc"], ls["sbdst"],
                np.ascontiguousarray(rec_cols, np.int64), *ls["arrays"], ls["warp"])

    def finish_launch(self, launch_state: Any, counts: np.ndarray) -> dict[str, int | float]:
        ls = launch_state
        stats = ls["arrays"][-2]
        out: dict[str, int | float] = {n: int(v) for n, v in zip(WALK_STATS, ls["walk"],
                                                               strict=True)}
        out.update({n: int(v) for n, v in zip(HOOK_STATS, stats, strict=True)})
        # the device sums integer statistics over launches: report the peak's increase, so
        # that the sum is the peak over all launches
        peak = max(self._srf_peak, out["uv_srf_peak_occupancy"])
        out["uv_srf_peak_occupancy"] = peak - self._srf_peak
        self._srf_peak = peak
        return out
