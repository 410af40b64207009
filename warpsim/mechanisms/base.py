"""What a mechanism gives the timing engine: hooks, and a Python-side life cycle per launch.

Follows: STYLE.md §2.2 (mechanisms are switchable per run, off means the baseline engine
bit for bit), ARCHITECTURE.md §5-§6. A mechanism is a subclass of :class:`Mechanism` built
from the ``GPUConfig`` (``Cls(cfg)``) by ``warpsim.mechanisms.registry.mechanism_for``. The
timing driver calls, in order:

1. ``compile_pass(program, alloc)`` once per kernel (may return a renumbered allocation);
2. ``ctas_per_sm(cta_threads, regs_per_thread, shmem_bytes, baseline)`` per launch: the CTA
   slots per SM the dispatcher may fill (``baseline``: the occupancy limit without it);
3. ``start_launch(info) -> launch_state`` (any Python object kept for the launch), then
   ``bind_core(launch_state, core)`` with the engine's state as read-only views;
4. ``record_columns(launch_state, chunk)`` per trace chunk: ``int64[n_records, K]`` with
   ``K = n_record_columns``, one row per record of the chunk in the order the engine replays
   them (``chunk.order``, i.e. per warp contiguous), or None when ``K == 0``;
5. ``hook_state(launch_state, rec_cols, rec_base) -> hs`` before every engine call: the
   numba-typable value passed to every hook; the row of absolute record ``rec`` (the ``rec``
   argument of the hooks) is ``rec_cols[rec - rec_base]``. Its numba type must be the same for
   every launch (a warm-up launch with no CTAs compiles the loop);
6. ``finish_launch(launch_state, counts) -> dict`` at the end: the mechanism's statistics
   (names prefixed with its key), merged into the launch's ``stats`` and summed over launches.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from warpsim.mechanisms.hooks import Hooks, is_noop, noop_hooks
from warpsim.timing.launch_info import LaunchInfo

__all__ = ["LaunchInfo", "Mechanism"]


class Mechanism:
    """Base class: every method is the baseline's (nothing changes)."""

    name: str = "baseline"
    """Registry key, also the prefix of the mechanism's statistics."""
    n_record_columns: int = 0
    """Columns ``record_columns`` returns per trace record."""
    regfile_banks: int = 0
    """Bank rows the mechanism's ``operand_bank``/``dest_bank`` may return (0: the configured
    ``regfile.n_banks``); the engine's bank state has at least this many."""
    counter_names: tuple[str, ...] = ()
    """Per-SM counters the mechanism keeps in the engine's counts array (columns after the
    engine's own), so idle-cycle skipping scales them like the baseline's: a hook that counts
    per simulated cycle (``on_cycle_end``) counts skipped cycles too. ``bind_counters`` gives
    the writable ``int64[n_sms, len(counter_names)]`` view; the statistics are exported under
    these names, summed over SMs (and over launches by the device)."""
    heterogeneous_sms: bool = True
    """Whether the mechanism is correct on a GPU with several SM kinds (``sm_kinds``): False
    for one whose ``ctas_per_sm`` or state assumes the ``sm`` section's resources on every SM
    (the driver then refuses the combination)."""
    extra_units: tuple[tuple[str, int], ...] = ()
    """Execution unit types the mechanism adds, ``(name, instances per SM)``; their type ids
    are ``LaunchInfo.unit_types[name]`` (the ``unit_choice`` hook sends instructions there)."""

    def __init__(self, cfg: Any) -> None:
        self.cfg = cfg
        self.hooks: Hooks = noop_hooks()
        """The jitted hooks (``noop_hooks()._replace(on_issue=my_on_issue)``)."""

    @property
    def uses_memory_port(self) -> bool:
        """Its ``mem_request`` or ``l1_fetch_group`` is not the no-op: the engine offers it the
        L1 port."""
        return not (is_noop("mem_request", self.hooks.mem_request)
                    and is_noop("l1_fetch_group", self.hooks.l1_fetch_group))

    def compile_pass(self, program: Any, alloc: Any) -> Any:
        """The allocation the timing replays (default: ``alloc`` unchanged)."""
        return alloc

    def ctas_per_sm(self, cta_threads: int, regs_per_thread: int, shmem_bytes: int,
                    baseline: int) -> int:
        """CTA slots per SM (default: the baseline occupancy)."""
        return baseline

    def start_launch(self, info: LaunchInfo) -> Any:
        """Per-launch Python-side state (default: the ``LaunchInfo``)."""
        return info

    def bind_core(self, launch_state: Any, core: Any) -> None:
        """Called once per launch after ``start_launch`` with the engine's ``CoreState`` as
        read-only views (``timing/state.py``; live: they show the state as the run goes). A
        mechanism that needs to see core state (a warp's CTA slot, age, scoreboard...) keeps
        the arrays it needs in its launch state and passes them in ``hook_state``; writing
        through them is an error. Default: nothing."""
        return None

    def bind_counters(self, launch_state: Any, counters: np.ndarray) -> None:
        """Called once per launch (when ``counter_names`` is not empty) with the writable view
        ``counters[sm, i]`` of the mechanism's own counters; keep it for ``hook_state``."""
        return None

    def record_columns(self, launch_state: Any, chunk: Any) -> np.ndarray | None:
        """Per-record columns of one trace chunk (default: none)."""
        return None

    def hook_state(self, launch_state: Any, rec_cols: np.ndarray, rec_base: int) -> Any:
        """The ``hs`` argument of the hooks (default: a one-element int64 array)."""
        return np.zeros(1, np.int64)

    def finish_launch(self, launch_state: Any, counts: np.ndarray) -> dict[str, int | float]:
        """The mechanism's statistics of the launch (default: none)."""
        return {}
