"""The WIR mechanism: warp register reuse (per-warp rename tables onto shared physical warp
registers, value signature buffer with verify) and warp instruction reuse (reuse buffer,
pending-retry, load reuse), on the timing engine's hooks.

Follows: specs/wir.md §2 (paper: Kim & Ro, HPCA 2018, §V-§VI); docs/mechanisms/wir.md.
The trace fixes every value, so the functional result of each record (its 64-bit signature) is
known when its chunk arrives (``walk.walk_chunk``); which physical registers, RB entries and VSB
entries exist depends on the timing order and is decided by the hooks (``hooks.py``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from warpsim.errors import InternalError
from warpsim.mechanisms.base import Mechanism
from warpsim.mechanisms.wir import hooks as wh
from warpsim.mechanisms.wir.counters import STATS
from warpsim.mechanisms.wir.layout import (
    C_OUT,
    H_PIN,
    H_POOLP,
    H_RB,
    H_REF,
    H_RELP,
    H_RT,
    H_STATS,
    H_VSB,
    N_COLS,
    N_SRC,
    RB_O1,
    RB_RES,
    RB_VALID,
)
from warpsim.mechanisms.wir.profile import N_PROF, profile_chunk
from warpsim.mechanisms.wir.state import new_arrays
from warpsim.mechanisms.wir.static_info import PX_MISMATCH, build_pcx
from warpsim.mechanisms.wir.walk import walk_chunk
from warpsim.timing import consts as tc
from warpsim.timing import fields as fl
from warpsim.timing.launch_info import LaunchInfo

__all__ = ["PROF_STATS", "WIR", "check_invariants"]

PROF_STATS = ("wir_prof_insts", "wir_prof_repeated", "wir_prof_repeated_alt",
              "wir_prof_repeated_gt10", "wir_prof_windows")
"""The Fig. 2 profiler's counts (``profile.PR_*`` order)."""


def _hooks_of(base: Any) -> Any:
    return base._replace(
        on_warp_launch=wh.wir_on_warp_launch, on_warp_exit=wh.wir_on_warp_exit,
        on_cta_release=wh.wir_on_cta_release, on_issue=wh.wir_on_issue,
        poll_parked=wh.wir_poll_parked, extra_operand=wh.wir_extra_operand,
        operand_bank=wh.wir_operand_bank, result_delay=wh.wir_result_delay,
        can_writeback=wh.wir_can_writeback, dest_bank=wh.wir_dest_bank,
        writeback_read_bank=wh.wir_writeback_read_bank,
        on_writeback=wh.wir_on_writeback, on_retire=wh.wir_on_retire,
        on_cycle_end=wh.wir_on_cycle_end)


def n_phys(cfg: Any) -> int:
    """Physical warp registers per SM (``wir.n_phys_registers``, 0: the register file)."""
    w = cfg.wir
    return w.n_phys_registers or cfg.sm.n_registers // cfg.sm.n_threads_per_warp


def check_invariants(hs: tuple) -> list[str]:
    """Spec §2.14 item 3 at a quiescent point (no instruction in flight): every count equals
    the references held by rename entries, VSB entries and RB fields; free + in use = all;
    a pinned register is held by exactly one rename entry. Returns the violations."""
    rt, pin, ref = hs[H_RT], hs[H_PIN], hs[H_REF]
    vsb, rb = hs[H_VSB], hs[H_RB]
    bad: list[str] = []
    for sm in range(ref.shape[0]):
        want = np.zeros(ref.shape[1], np.int64)
        m = rt[sm][rt[sm] >= 0]
        np.add.at(want, m, 1)
        v = vsb[sm, :, 1]
        np.add.at(want, v[v >= 0], 1)
        valid = rb[sm, :, RB_VALID] != 0
        for f in (*range(RB_O1, RB_O1 + N_SRC), RB_RES, RB_RES + 1):
            col = rb[sm, valid, f]
            np.add.at(want, col[col >= 0], 1)
        if not np.array_equal(want, ref[sm]):
            p = int(np.nonzero(want != ref[sm])[0][0])
            bad.append(f"SM {sm}: register {p} has count {int(ref[sm, p])}, "
                       f"{int(want[p])} references")
        free = int(hs[H_POOLP][sm, 1] + hs[H_RELP][sm, 1])
        if free != int((ref[sm] == 0).sum()):
            bad.append(f"SM {sm}: {free} registers free, {int((ref[sm] == 0).sum())} unreferenced")
        pinned = rt[sm][(pin[sm] != 0) & (rt[sm] >= 0)]
        if pinned.size and (ref[sm, pinned] != 1).any():
            bad.append(f"SM {sm}: a pinned register is shared")
    return bad


class WIR(Mechanism):
    """WIR (``GPUConfig.wir``)."""

    name = "wir"
    n_record_columns = N_COLS

    def __init__(self, cfg: Any) -> None:
        super().__init__(cfg)
        self.hooks = _hooks_of(self.hooks)
        self._opids: dict[Any, int] = {}

    def start_launch(self, info: LaunchInfo) -> dict[str, Any]:
        cfg = info.cfg
        w = cfg.wir
        s, nw = cfg.sm.n_sms, cfg.sm.n_max_warps
        npr = n_phys(cfg)
        n_regs = max(int(info.alloc.n_regs) if info.alloc is not None else 1, 1)
        tables = info.tables
        pcx = build_pcx(info.program, info.alloc, tables, self._opids)
        flags = tables.pc_info[:, fl.F_PC_FLAGS]
        regs = info.regs_per_thread if info.program is not None else n_regs
        arrays = new_arrays(w, s, nw, n_regs, npr, regs, self.cfg.regfile.n_banks, pcx,
                            tables.pc_src, tables.pc_dst)
        return {"info": info, "arrays": arrays, "pcx": pcx,
                "is_bar": (flags & tc.F_BARRIER) != 0, "token": np.zeros(1, np.int64),
                "prof": np.zeros(N_PROF, np.int64),
                "n_regs": n_regs}

    def record_columns(self, launch_state: Any, chunk: Any) -> np.ndarray:
        ls = launch_state
        n = int(chunk.pc.size)
        cols = np.zeros((n, N_COLS), np.int64)
        if n == 0:
            return cols
        walk_chunk(chunk.order, chunk.offsets, chunk.pc, chunk.exec_mask, chunk.val_start,
                   np.ascontiguousarray(chunk.sig).view(np.int64), ls["pcx"], ls["is_bar"],
                   ls["token"], cols)
        a = ls["arrays"]
        profile_chunk(chunk.order, chunk.offsets, chunk.pc, chunk.mask, chunk.val_start,
                      np.ascontiguousarray(chunk.sig).view(np.int64), ls["pcx"], a[2], a[3],
                      ls["n_regs"], ls["prof"])
        return cols

    def hook_state(self, launch_state: Any, rec_cols: np.ndarray, rec_base: int) -> Any:
        a = launch_state["arrays"]
        cols = np.ascontiguousarray(rec_cols, np.int64)
        old = launch_state.get("hs")
        if old is not None and old[0] is not cols and old[0].size and cols.size:
            # the driver rebuilt its window: carry the in-flight records' scratch columns
            ob, nb = int(old[1][0]), rec_base
            lo, hi = max(ob, nb), min(ob + old[0].shape[0], nb + cols.shape[0])
            if hi > lo:
                cols[lo - nb:hi - nb, C_OUT:] = old[0][lo - ob:hi - ob, C_OUT:]
        hs = (cols, np.array([rec_base], np.int64), *a)
        launch_state["hs"] = hs
        return hs

    def finish_launch(self, launch_state: Any, counts: np.ndarray) -> dict[str, int | float]:
        a = launch_state["arrays"]
        st = a[H_STATS - 2]
        out: dict[str, int | float] = {n: int(v) for n, v in zip(STATS, st, strict=True)}
        out.update(zip(PROF_STATS, (int(v) for v in launch_state["prof"]), strict=True))
        hs = launch_state.get("hs")
        if self.cfg.wir.check and hs is not None:
            bad = check_invariants(hs)
            if out["wir_arith_mismatches"]:
                pcx = launch_state["pcx"]
                prog = launch_state["info"].program
                where = [f"pc {pc} ({prog.insts[pc].text.strip()}): {int(pcx[pc, PX_MISMATCH])}"
                         for pc in np.nonzero(pcx[:-1, PX_MISMATCH])[0][:4]]
                bad.append(f"{out['wir_arith_mismatches']} reused arithmetic results differ "
                           f"from the executed ones ({'; '.join(where)})")
            if bad:
                raise InternalError("WIR checking mode: " + "; ".join(bad[:5]))
        return out
