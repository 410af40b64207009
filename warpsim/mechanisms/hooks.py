"""The hook points of the timing engine, their signatures, how several mechanisms' hooks
combine, and the shared no-op implementations the engine receives for every hook no active
mechanism implements.

Follows: STYLE.md §2.2 (fixed hook names, one signature each; off means free) and §2.4 (hooks are
jitted functions passed into the jitted cycle loop, as PySDM passes ``scheme``, here as one
``Hooks`` bundle); ARCHITECTURE.md §5 (dispatch, scheduling priority and issue permission,
rename/reuse at issue, operand storage, unit choice, writeback, retire).

A hook point is one field of :class:`Hooks`, one no-op below and one entry of ``COMBINE``; the
engine passes the bundle everywhere, so adding a hook point changes this file and the engine
function that calls it, nothing in between.

Signatures (``hs`` is the mechanism's state, any numba-typable value; ``sm``, ``warp`` are the SM
and its warp slot; ``rec`` is the absolute trace record of the instruction; ``cycle`` int64):

Dispatch and warps (warp-level dispatch and release: WarpMan, Xiang's dissertation §3.4)
- ``cta_fit(hs, sm, cta, fits) -> bool``: whether CTA ``cta`` may be started on ``sm`` now
  (take a CTA slot); ``fits`` is the baseline occupancy decision. A CTA admitted beyond the
  baseline is started only where a CTA slot is free and ``warps_to_place`` places at least one
  of its warps; CTAs are offered only to SMs below the CTAs-per-SM occupancy, so a mechanism
  that starts more CTAs raises it with ``Mechanism.ctas_per_sm`` (WarpMan: the CTA slots).
- ``warps_to_place(hs, sm, cta, cta_slot, placed, n_warps, free_warps, n) -> int64``: how many
  more warps of CTA ``cta`` (in CTA slot ``cta_slot``) to place on warp slots now, the next
  being warp ``placed`` (warp-id order, GPGPU-Sim/WarpMan). ``n_warps`` is the CTA's warp
  count, ``free_warps`` the SM's free warp slots and ``n`` the baseline answer: every remaining
  warp (``n_warps - placed``) when they all fit in ``free_warps``, else 0. The engine places
  ``min(answer, n_warps - placed, free_warps)``. Asked for a CTA about to start (``placed`` 0;
  0 warps: it is not started, its CTA slot stays free) and, every simulated cycle before new
  CTAs are considered, for each partially dispatched CTA of the SM, oldest first. A partially
  dispatched CTA holds its CTA slot; its warps not placed yet count as live (not arrived) at
  its barriers and keep it from completing. Skipped idle cycles are not asked: a mechanism
  that places warps on time alone bounds the skipping with ``on_cycle_end``.
- ``on_warp_launch(hs, sm, warp, cta_slot, pos, cycle) -> None``: warp slot ``warp`` starts
  warp ``pos`` (0-based within the CTA) of the CTA placed in CTA slot ``cta_slot``.
- ``on_warp_exit(hs, sm, warp, cycle) -> None``: the warp issued its last record and every
  instruction it issued retired (called before ``on_cta_release`` of its CTA).
- ``release_warp_slot(hs, sm, warp, cycle) -> bool``: after ``on_warp_exit``: whether the
  exited warp's slot is freed now, for any CTA's next warp (baseline False: GPGPU-Sim frees a
  CTA's hardware warp slots when the whole CTA completes).
- ``on_cta_release(hs, sm, cta_slot, cycle) -> None``: the CTA's resources were released.

Fetch
- ``fetch_word(hs, sm, warp, rec, cycle) -> bool``: asked for each decode slot of a fetch of
  ``warp`` before record ``rec`` is decoded in it: True when this slot fetches and decodes one
  extra instruction word in front of ``rec`` instead (a mechanism's metadata, e.g. RegLess's
  region headers): the word takes the decode slot, goes to no I-buffer entry, and the mechanism
  counts it fetched (it is asked again for the same ``rec`` in the next slot). A fetch whose
  slots all went to words still takes its fetch slot (``n_fetch_per_cycle``) and counts one
  I-cache access. Baseline False: no extra words.

Issue
- ``issue_priority(hs, sm, warp, key) -> int64``: scheduling key (smaller issues first); ``key``
  is the policy's own key.
- ``can_issue(hs, sm, warp, pc, cycle) -> bool``: veto issue of the warp's next instruction
  (asked after the scoreboard and the ID_OC room; a vetoed warp counts as not ready, i.e. in
  ``sched_scoreboard_stall_cycles`` when no warp of the scheduler issues).
- ``on_issue(hs, sm, warp, pc, rec, cycle) -> (outcome, t)``: what happens to the issued
  instruction (``timing.consts.ISSUE_*``): EXECUTE (baseline), DROP (finished by the mechanism:
  no scoreboard, unit or writeback), COMPLETE (no operand read, unit or register write; the
  scoreboard entry is held and the instruction retires at cycle ``t``, at least the next cycle)
  or PARK (scoreboard held; ``poll_parked`` decides later). Called for every issued instruction
  except barriers, ``bar.arrive`` and ``exit``. COMPLETE and PARK need an in-flight slot; with
  none free the instruction executes.
- ``poll_parked(hs, sm, warp, rec, cycle) -> (outcome, t)``: asked every simulated cycle for
  each parked instruction: PARK (keep it), EXECUTE (it enters the ID_OC register of its
  collector set when there is room, else stays parked) or COMPLETE at ``t``. A mechanism that
  releases on time alone must bound idle-cycle skipping with ``on_cycle_end``.

Operand storage and execution
- ``extra_operand(hs, sm, warp, rec) -> int``: one more register the instruction's collector
  unit must read before dispatch (an injected MOV's source, a verify read), or -1.
- ``operand_bank(hs, sm, warp, rec, reg, bank) -> int64``: the register-file bank a source
  operand ``reg`` is read from; ``bank`` is the baseline mapping. -1: the operand is served
  outside the banked register file (no bank port, no ``regfile_bank_reads``; counted in
  ``regfile_non_rf_operands``).
- ``on_operand_read(hs, sm, warp, reg, bank, cycle) -> int``: bank accesses this operand read
  costs (baseline 1).
- ``unit_choice(hs, sm, warp, rec, unit_type, ii) -> (unit_type, ii)``: the execution unit type
  (``UNIT_*`` or a mechanism's own, ``StaticTables.type_info`` row) and initiation interval of
  the collected instruction (baseline: the static table's).
- ``result_delay(hs, sm, warp, rec, cycle) -> int64``: extra pipeline cycles between dispatch
  to a unit and the result being ready (baseline 0; memory instructions: added when their data
  arrives).

Writeback and retire
- ``can_writeback(hs, sm, warp, pc, rec, cycle) -> bool``: veto the write of a ready result
  this cycle (asked after the bank write ports were found free; retried next cycle).
- ``dest_bank(hs, sm, warp, rec, reg, bank) -> int64``: the bank destination ``reg`` is
  written to (``bank``: the baseline mapping); -1: not written to the banked register file.
- ``writeback_read_bank(hs, sm, warp, rec, reg) -> int64``: a bank the writeback of
  destination ``reg`` must read (a verify read of a register holding the same value), or -1
  (baseline). Asked with the write ports (before ``can_writeback``: the bank must have a free
  port this cycle, else the writeback waits) and again when the ports are taken (after it):
  the read takes the bank's port for the cycle like a write and counts in
  ``regfile_bank_reads``.
- ``on_writeback(hs, sm, warp, pc, rec, cycle) -> int``: extra bank writes (baseline 0).
- ``on_retire(hs, sm, warp, pc, rec, cycle) -> None``: the instruction left the pipeline
  (also for COMPLETE instructions, at their cycle).
- ``on_cycle_end(hs, counters, cycle) -> int64``: end of every simulated cycle; returns the
  next cycle the engine must simulate rather than skip (INT64_MAX: no constraint); a finite
  answer also means the mechanism waits on time, not a deadlock: the launch goes on to it.

Memory port (a mechanism's own traffic through the SM's L1 port: register preloads, spills)
- ``mem_request(hs, sm, cycle) -> (kind, line_addr, n_sectors, tag)``: asked each cycle the
  SM's LD/ST unit has no instruction of its own to send (the core's accesses go first); ``kind``
  is an ``MK_*`` memory kind (``MK_NONE``: nothing to send), ``tag`` (0 .. 2**32-1) names the
  request in the callbacks. Loads and atomics complete; stores do not.
- ``on_mem_sent(hs, sm, tag, accepted, cycle) -> None``: the memory system accepted the line
  (``accepted`` 1) or refused it this cycle (0: offer it again later).
- ``on_mem_complete(hs, sm, tag, cycle) -> None``: the data of a load the mechanism sent reached
  the SM (called in the writeback stage, before the core's own completions of that cycle are
  written back).
- ``l1_fetch_group(hs, sm, cycle) -> int64``: the SM's L1D fetch group (``timing/l1group.py``):
  a global-load miss also fetches the absent lines of its aligned group of this many lines, in
  the same tag lookup and as one request per L2 slice (baseline 1: the line alone; at most
  16). Asked when the memory port is (cycles the LD/ST unit sends no line of its own, only for
  a mechanism that implements it or ``mem_request``); the answer holds until asked again.

``compile_pass`` and the per-launch life cycle are Python methods of the mechanism
(``base.py``). Hooks see the engine's state only through ``hs``: ``Mechanism.bind_core`` gives
the mechanism read-only views of the core state to put there.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from warpsim._bundle import register_bundle
from warpsim._jit import jit
from warpsim.timing.consts import (
    INT64_MAX,
    ISSUE_COMPLETE,
    ISSUE_DROP,
    ISSUE_EXECUTE,
    ISSUE_PARK,
    MK_NONE,
)

__all__ = ["COMBINE", "HOOK_NAMES", "ISSUE_COMPLETE", "ISSUE_DROP", "ISSUE_EXECUTE",
           "ISSUE_PARK", "Hooks", "noop_hooks", "noop_state"]


@jit
def cta_fit(hs, sm, cta, fits):  # pragma: no cover - trivial
    """Baseline: the occupancy decision stands."""
    return fits


@jit
def warps_to_place(hs, sm, cta, cta_slot, placed, n_warps, free_warps, n):  # pragma: no cover
    """Baseline: every remaining warp of the CTA when they all fit, else none (``n``)."""
    return n


@jit
def release_warp_slot(hs, sm, warp, cycle):  # pragma: no cover - trivial
    """Baseline: a warp slot is freed with its whole CTA."""
    return False


@jit
def on_cta_release(hs, sm, cta_slot, cycle):  # pragma: no cover - trivial
    """Baseline: nothing to do."""
    return None


@jit
def fetch_word(hs, sm, warp, rec, cycle):  # pragma: no cover - trivial
    """Baseline: the instruction stream has no extra words."""
    return False


@jit
def issue_priority(hs, sm, warp, key):  # pragma: no cover - trivial
    """Baseline: the policy's key."""
    return key


@jit
def can_issue(hs, sm, warp, pc, cycle):  # pragma: no cover - trivial
    """Baseline: no veto."""
    return True


@jit
def on_issue(hs, sm, warp, pc, rec, cycle):  # pragma: no cover - trivial
    """Baseline: every instruction executes."""
    return ISSUE_EXECUTE, np.int64(0)


@jit
def poll_parked(hs, sm, warp, rec, cycle):  # pragma: no cover - trivial
    """Baseline: nothing is parked; an instruction nobody holds executes."""
    return ISSUE_EXECUTE, np.int64(0)


@jit
def extra_operand(hs, sm, warp, rec):  # pragma: no cover - trivial
    """Baseline: the instruction's own operands only."""
    return -1


@jit
def operand_bank(hs, sm, warp, rec, reg, bank):  # pragma: no cover - trivial
    """Baseline: the register file's own mapping."""
    return bank


@jit
def on_operand_read(hs, sm, warp, reg, bank, cycle):  # pragma: no cover - trivial
    """Baseline: one bank access per operand."""
    return 1


@jit
def unit_choice(hs, sm, warp, rec, unit_type, ii):  # pragma: no cover - trivial
    """Baseline: the static table's unit and initiation interval."""
    return unit_type, ii


@jit
def result_delay(hs, sm, warp, rec, cycle):  # pragma: no cover - trivial
    """Baseline: the unit's latency only."""
    return 0


@jit
def can_writeback(hs, sm, warp, pc, rec, cycle):  # pragma: no cover - trivial
    """Baseline: a result writes as soon as its banks are free."""
    return True


@jit
def dest_bank(hs, sm, warp, rec, reg, bank):  # pragma: no cover - trivial
    """Baseline: the register file's own mapping."""
    return bank


@jit
def writeback_read_bank(hs, sm, warp, rec, reg):  # pragma: no cover - trivial
    """Baseline: a writeback reads no register."""
    return np.int64(-1)


@jit
def on_writeback(hs, sm, warp, pc, rec, cycle):  # pragma: no cover - trivial
    """Baseline: no extra bank writes."""
    return 0


@jit
def on_retire(hs, sm, warp, pc, rec, cycle):  # pragma: no cover - trivial
    """Baseline: nothing to do."""
    return None


@jit
def on_warp_launch(hs, sm, warp, cta_slot, pos, cycle):  # pragma: no cover - trivial
    """Baseline: nothing to do."""
    return None


@jit
def on_warp_exit(hs, sm, warp, cycle):  # pragma: no cover - trivial
    """Baseline: nothing to do."""
    return None


@jit
def on_cycle_end(hs, counters, cycle):  # pragma: no cover - trivial
    """Baseline: no cycle must be simulated."""
    return INT64_MAX


@jit
def mem_request(hs, sm, cycle):  # pragma: no cover - trivial
    """Baseline: no traffic of its own."""
    return MK_NONE, np.int64(0), np.int64(0), np.int64(0)


@jit
def on_mem_sent(hs, sm, tag, accepted, cycle):  # pragma: no cover - trivial
    """Baseline: nothing to do."""
    return None


@jit
def on_mem_complete(hs, sm, tag, cycle):  # pragma: no cover - trivial
    """Baseline: nothing to do."""
    return None


@jit
def l1_fetch_group(hs, sm, cycle):  # pragma: no cover - trivial
    """Baseline: an L1D miss fetches its own line only."""
    return np.int64(1)


@register_bundle
class Hooks(NamedTuple):
    """The jitted hook functions handed to the engine as one bundle, in pipeline order."""

    cta_fit: Any
    warps_to_place: Any
    on_warp_launch: Any
    on_warp_exit: Any
    release_warp_slot: Any
    on_cta_release: Any
    fetch_word: Any
    issue_priority: Any
    can_issue: Any
    on_issue: Any
    poll_parked: Any
    extra_operand: Any
    operand_bank: Any
    on_operand_read: Any
    unit_choice: Any
    result_delay: Any
    can_writeback: Any
    dest_bank: Any
    writeback_read_bank: Any
    on_writeback: Any
    on_retire: Any
    on_cycle_end: Any
    mem_request: Any
    on_mem_sent: Any
    on_mem_complete: Any
    l1_fetch_group: Any


HOOK_NAMES = ("compile_pass", *Hooks._fields)
"""Every hook point, in pipeline order (``compile_pass`` is a Python method)."""

COMBINE: dict[str, str] = {
    "cta_fit": "chain",          # each gets the previous decision as ``fits``
    "warps_to_place": "chain",   # each gets the previous count as ``n``
    "on_warp_launch": "all",
    "on_warp_exit": "all",
    "release_warp_slot": "or",   # freed at exit when any mechanism frees it
    "on_cta_release": "all",
    "fetch_word": "until",       # asked in order until one fetches a word (only it counts it)
    "issue_priority": "chain",   # each gets the previous key
    "can_issue": "and",
    "on_issue": "first",         # asked in order until one does not say EXECUTE
    "poll_parked": "park",       # PARK if any holds it, else the first non-EXECUTE answer
    "extra_operand": "first",    # the first register that is not -1
    "operand_bank": "chain",     # each gets the previous bank (stops at -1)
    "on_operand_read": "extra",  # 1 + the sum of each one's accesses beyond 1
    "unit_choice": "chain",      # each gets the previous (unit type, ii)
    "result_delay": "sum",
    "can_writeback": "and",
    "dest_bank": "chain",
    "writeback_read_bank": "first",  # the first bank that is not -1
    "on_writeback": "sum",
    "on_retire": "all",
    "on_cycle_end": "min",
    "mem_request": "route",      # the first mechanism with a request; its index rides in the tag
    "on_mem_sent": "route",      # to the mechanism whose request it was
    "on_mem_complete": "route",
    "l1_fetch_group": "max",     # the largest group any mechanism asks for
}
"""How the hooks of several mechanisms combine (``mechanisms.compose``), in list order."""

_NOOPS = (cta_fit, warps_to_place, on_warp_launch, on_warp_exit, release_warp_slot,
          on_cta_release, fetch_word, issue_priority, can_issue,
          on_issue, poll_parked, extra_operand, operand_bank, on_operand_read, unit_choice,
          result_delay, can_writeback, dest_bank, writeback_read_bank, on_writeback, on_retire,
          on_cycle_end,
          mem_request, on_mem_sent, on_mem_complete, l1_fetch_group)


def noop_hooks() -> Hooks:
    """Every hook as the shared no-op: the baseline engine."""
    return Hooks(*_NOOPS)


def is_noop(name: str, fn: Any) -> bool:
    """``fn`` is the shared no-op of hook ``name``."""
    return getattr(noop_hooks(), name) is fn


def noop_state() -> np.ndarray:
    """The hook state passed when no mechanism is active (a one-element int64 array)."""
    return np.zeros(1, np.int64)
