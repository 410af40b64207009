"""Register Sharing (Jatala, Anantpur, Karkare: "The More We Share, The More We Have"): extra
thread blocks on the registers a register-limited SM wastes, paired blocks whose warps share
(1-t) of their registers under a per-warp-pair lock, Owner-Warp-First scheduling, declaration
unroll/reorder and Dynamic Warp Execution.

Follows: the paper Secs. 4-6; specs/register-sharing.md §3-§4 (occupancy ``occupancy.py``,
slot layout ``layout.py``, locks and owners ``locks.py``, OWF ``owf.py``, DWE ``dwe.py``,
per-cycle accounting ``cycle.py``, sequence numbers ``reorder.py``), §9.3 (counters).
docs/mechanisms/register-sharing.md lists what is modelled and every assumption.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from warpsim.arch import SchedPolicy
from warpsim.arch.register_sharing import RegisterSharingConfig
from warpsim.errors import ConfigError
from warpsim.mechanisms.base import LaunchInfo, Mechanism
from warpsim.mechanisms.register_sharing.cycle import rs_on_cycle_end
from warpsim.mechanisms.register_sharing.layout import SharingLayout, sharing_layout
from warpsim.mechanisms.register_sharing.locks import (
    rs_can_issue,
    rs_on_cta_release,
    rs_on_issue,
    rs_on_warp_exit,
    rs_on_warp_launch,
)
from warpsim.mechanisms.register_sharing.owf import rs_issue_priority
from warpsim.mechanisms.register_sharing.renumber import renumbered_allocation
from warpsim.mechanisms.register_sharing.reorder import sharing_sequence
from warpsim.mechanisms.register_sharing.state import (
    G_ACQ,
    G_DENY,
    G_DENY_RULE,
    G_DWE,
    G_DWE_DENY,
    G_DWE_DRAWS,
    G_DWE_WINDOWS,
    G_ISSUED_NONOWNER,
    G_ISSUED_OWNER,
    G_ISSUED_UNSHARED,
    G_LOCK_STALL,
    G_NONOWNER_MEM,
    G_OWN_CHANGES,
    G_TRANSFERS,
    M_P,
    S_HOLDERS,
    RSState,
    make_state,
)
from warpsim.mechanisms.spec import MechanismSpec

__all__ = ["ENERGY", "HOOKS", "NAME", "PAPER", "SPEC", "STATIC", "Config", "RegisterSharing"]

NAME = "register_sharing"
PAPER = "Jatala et al., The More We Share, The More We Have: Secs. 4-6 (spec §3-§4)"
Config = RegisterSharingConfig
HOOKS = ("compile_pass", "on_cta_release", "issue_priority", "can_issue", "on_issue",
         "on_warp_launch", "on_warp_exit", "on_cycle_end")
"""The hook points it implements (``mechanisms/hooks.py``)."""
ENERGY: tuple[tuple[str, str], ...] = ()
"""The paper gives no energy for its 273 bits/SM of state and two comparators (spec §5)."""
STATIC: tuple[tuple[str, str | None], ...] = ()

SPEC = MechanismSpec(name=NAME, paper=PAPER, config=RegisterSharingConfig,
                     implementation="warpsim.mechanisms.register_sharing:RegisterSharing",
                     hooks=HOOKS, stat_prefix="rs_", energy=ENERGY, static=STATIC,
                     conflicts=("warpman",))  # two policies for the same register allocation
"""The mechanism's declaration (``registry.PACKAGES``)."""


@dataclass
class _LaunchState:
    layout: SharingLayout
    state: RSState


class RegisterSharing(Mechanism):
    """Register Sharing in the timing engine (``-o register_sharing.enabled=true``).

    ``dwe_trace`` (int8 ``[windows, n_sms]``, P in tenths after each window) and ``layout``
    (``SharingLayout``) describe the last finished launch. ``sequence`` is the function giving
    register sequence numbers (``reorder.sharing_sequence``; tests may substitute one).
    """

    name = NAME
    n_record_columns = 0
    heterogeneous_sms = False  # its sharing layout takes the ``sm`` section's register file

    def __init__(self, cfg: Any) -> None:
        super().__init__(cfg)
        rs = cfg.register_sharing
        if (rs.owf or rs.owf_greedy) and cfg.sm.sched_policy is SchedPolicy.TWO_LEVEL:
            raise ConfigError("register_sharing.owf", True,
                              "false with sm.sched_policy = two_level (the paper does not "
                              "combine OWF with two-level scheduling, Sec. 5.1)",
                              hint="use sm.sched_policy=lrr or gto with OWF")
        if rs.lock_rule == "warp" and rs.dwe:
            raise ConfigError("register_sharing.lock_rule", "warp",
                              "block with register_sharing.dwe = true (under the warp rule a "
                              "non-owner warp can hold a lock, and DWE may never let it issue: "
                              "its partner would wait forever)",
                              hint="use lock_rule=block, or dwe=false")
        if rs.owf_greedy and not rs.owf:
            raise ConfigError("register_sharing.owf_greedy", True,
                              "only together with register_sharing.owf=true")
        repl = {"can_issue": rs_can_issue, "on_issue": rs_on_issue,
                "issue_priority": rs_issue_priority, "on_cta_release": rs_on_cta_release,
                "on_warp_launch": rs_on_warp_launch, "on_warp_exit": rs_on_warp_exit,
                "on_cycle_end": rs_on_cycle_end}
        self.hooks = self.hooks._replace(**{k: v for k, v in repl.items()
                                            if k in self.hooks._fields})
        self.sequence = sharing_sequence
        self.dwe_trace = np.zeros((0, cfg.sm.n_sms), np.int8)
        self.layout: SharingLayout | None = None

    def compile_pass(self, program: Any, alloc: Any) -> Any:
        """With ``unroll_reorder`` and ``unroll_affects_banks``: physical registers renumbered
        in the reordered sequence (the bank mapping follows); otherwise ``alloc``."""
        rs = self.cfg.register_sharing
        if not (rs.unroll_reorder and rs.unroll_affects_banks):
            return alloc
        return renumbered_allocation(alloc, self.sequence(program, alloc, unroll=True))

    def _layout(self, cta_threads: int, regs: int, shmem: int, baseline: int) -> SharingLayout:
        return sharing_layout(self.cfg, cta_threads, regs, shmem, baseline)

    def ctas_per_sm(self, cta_threads: int, regs_per_thread: int, shmem_bytes: int,
                    baseline: int) -> int:
        """M blocks in sharing mode, else the baseline (spec §3.3, §3.10)."""
        return self._layout(cta_threads, regs_per_thread, shmem_bytes, baseline).blocks

    def start_launch(self, info: LaunchInfo) -> _LaunchState:
        """The launch's layout, sequence numbers and zeroed state."""
        rs = self.cfg.register_sharing
        n = info.baseline_ctas_per_sm
        if info.program is None:  # warm-up launch: no CTAs, same types
            layout = SharingLayout(n, n, 0, n, n, 0, False, (-1,) * n, (-1,) * n)
            pc_max_seq = np.zeros(1, np.int32)
        else:
            layout = self._layout(info.cta_threads, info.regs_per_thread, info.shmem_bytes, n)
            pc_max_seq = np.zeros(1, np.int32)
            if layout.sharing_mode:
                alloc = getattr(info.alloc, "original", info.alloc)
                pc_max_seq = self.sequence(info.program, alloc,
                                           unroll=rs.unroll_reorder).pc_max_seq
        return _LaunchState(layout, make_state(self.cfg, layout, info.tables, pc_max_seq,
                                               info.warps_per_cta))

    def hook_state(self, launch_state: _LaunchState, rec_cols: np.ndarray,
                   rec_base: int) -> RSState:
        """The hooks' state (the same arrays for the whole launch)."""
        return launch_state.state

    def finish_launch(self, launch_state: _LaunchState,
                      counts: np.ndarray) -> dict[str, int | float]:
        """The ``rs_*`` statistics of the launch (spec §9.3)."""
        lay, st = launch_state.layout, launch_state.state
        g = st.g
        n_win = int(g[G_DWE_WINDOWS])
        self.dwe_trace = st.trace[:min(n_win, st.trace.shape[0])].copy()
        self.layout = lay
        return {
            "rs_blocks_per_sm": lay.blocks,
            "rs_baseline_blocks_per_sm": lay.baseline_blocks,
            "rs_shared_pairs": lay.shared_pairs,
            "rs_unshared_blocks": lay.unshared_blocks,
            "rs_sharing_mode": int(lay.sharing_mode),
            "rs_unshared_regs_per_thread": lay.unshared_regs_per_thread,
            "rs_lock_acquisitions": int(g[G_ACQ]),
            "rs_lock_denials": int(g[G_DENY]),
            "rs_lock_denials_deadlock_rule": int(g[G_DENY_RULE]),
            "rs_lock_stall_cycles": int(g[G_LOCK_STALL]),
            "rs_ownership_changes": int(g[G_OWN_CHANGES]),
            "rs_ownership_transfers": int(g[G_TRANSFERS]),
            "rs_dwe_denials": int(g[G_DWE_DENY]),
            "rs_dwe_draws": int(g[G_DWE_DRAWS]),
            "rs_dwe_windows": n_win,
            "rs_dwe_p_final_sum": int(st.smr[:, M_P].sum()) if g[G_DWE] else 0,
            "rs_issued_owner": int(g[G_ISSUED_OWNER]),
            "rs_issued_unshared": int(g[G_ISSUED_UNSHARED]),
            "rs_issued_nonowner": int(g[G_ISSUED_NONOWNER]),
            "rs_nonowner_mem_issued": int(g[G_NONOWNER_MEM]),
            "rs_locks_held_at_end": int(st.slot[:, :, S_HOLDERS].sum()),
        }
