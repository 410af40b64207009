"""The in-flight table's mechanism outcomes: instructions a mechanism completes at a later cycle
without a unit (``ISSUE_COMPLETE``) or parks after issue (``ISSUE_PARK``), and the per-cycle
poll that releases parked ones.

Follows: docs/dev-contracts.md "Mechanisms" (the issue-outcome seam; ``mechanisms/hooks.py``
``on_issue`` / ``poll_parked``). A held instruction occupies an in-flight slot like a dispatched
one, so the warp's scoreboard entries, ``INFLIGHT`` count and exit wait for it; writeback retires
a COMPLETE one at its cycle without a bank write (``pipeline.tick_writeback``).
Assumptions:
  [A] A completion cycle not after the issue cycle means the next cycle (writeback runs before
      issue within a cycle).
  [A] With no in-flight slot free, a COMPLETE or PARK outcome falls back to EXECUTE (the
      instruction then waits in the ID_OC register like any other).
  [A] Parked instructions are polled at the issue stage (after writeback and the operand
      collector of the cycle), so one released to EXECUTE enters its collector set's ID_OC
      register as if issued in that cycle; parked ones are visited in slot order; with the
      register full it stays parked.
"""

from __future__ import annotations

from warpsim._jit import jit, jit_inline
from warpsim.stats import C_ISSUE_COMPLETED_INSTS, C_ISSUE_PARKED_INSTS
from warpsim.timing.consts import INT64_MAX, ISSUE_COMPLETE, ISSUE_EXECUTE, ISSUE_PARK, MK_NONE
from warpsim.timing.fields import (
    F_IDOC_COUNT,
    F_IDOC_HEAD,
    F_IDOC_REC,
    F_IDOC_WARP,
    F_INFL_DELAY,
    F_INFL_ISSUE,
    F_INFL_LINES,
    F_INFL_MK,
    F_INFL_NFREE,
    F_INFL_REC,
    F_INFL_STATE,
    F_INFL_VALID,
    F_INFL_WARP,
    F_PC_OCSET,
    F_REC_PC,
    F_SET_IDOC_CAP,
    F_SM_INFL_HW,
    F_SM_N_PARKED,
    F_SM_NEXT_WB,
    INFL_BYPASS,
    INFL_EXEC,
    INFL_PARKED,
)

__all__ = ["free_slot", "hold_issued", "push_idoc", "take_slot", "tick_parked"]


@jit_inline
def push_idoc(idoc_q, idoc_hc, sm, oc, w, rec):  # pragma: no cover - jit
    """Append (warp, record) to the ID_OC register of collector set ``oc`` (the caller checked
    its room): where an issued instruction waits for a collector unit."""
    q = (idoc_hc[sm, oc, F_IDOC_HEAD] + idoc_hc[sm, oc, F_IDOC_COUNT]) % idoc_q.shape[2]
    idoc_q[sm, oc, q, F_IDOC_WARP] = w
    idoc_q[sm, oc, q, F_IDOC_REC] = rec
    idoc_hc[sm, oc, F_IDOC_COUNT] += 1


@jit
def take_slot(infl_free, smv, sm):  # pragma: no cover - jit
    """Pop a free in-flight slot of ``sm`` (the caller checked ``INFL_NFREE > 0``)."""
    smv[sm, F_INFL_NFREE] -= 1
    f = infl_free[sm, smv[sm, F_INFL_NFREE]]
    if f >= smv[sm, F_SM_INFL_HW]:
        smv[sm, F_SM_INFL_HW] = f + 1
    return f


@jit
def free_slot(infl, infl_ready, infl_free, smv, sm, f):  # pragma: no cover - jit
    """Return in-flight slot ``f`` of ``sm`` to the free stack."""
    infl[sm, f, F_INFL_VALID] = 0
    infl_ready[sm, f] = INT64_MAX
    infl[sm, f, F_INFL_STATE] = INFL_EXEC
    infl_free[sm, smv[sm, F_INFL_NFREE]] = f
    smv[sm, F_INFL_NFREE] += 1


@jit
def _complete_at(infl, infl_ready, smv, sm, f, t, cycle):  # pragma: no cover - jit
    ready = t if t > cycle else cycle + 1
    infl[sm, f, F_INFL_STATE] = INFL_BYPASS
    infl_ready[sm, f] = ready
    if ready < smv[sm, F_SM_NEXT_WB]:
        smv[sm, F_SM_NEXT_WB] = ready


@jit
def hold_issued(st, counters, sm, w, rec, cycle, outcome, t):  # pragma: no cover - jit
    """Put an issued instruction whose outcome is COMPLETE (at ``t``) or PARK into an in-flight
    slot. False when no slot is free (the caller executes it instead)."""
    if st.smv[sm, F_INFL_NFREE] == 0:
        return False
    f = take_slot(st.infl_free, st.smv, sm)
    st.infl[sm, f, F_INFL_VALID] = 1
    st.infl[sm, f, F_INFL_WARP] = w
    st.infl[sm, f, F_INFL_REC] = rec
    st.infl[sm, f, F_INFL_ISSUE] = cycle
    st.infl[sm, f, F_INFL_MK] = MK_NONE
    st.infl[sm, f, F_INFL_LINES] = 0
    st.infl[sm, f, F_INFL_DELAY] = 0
    if outcome == ISSUE_PARK:
        st.infl[sm, f, F_INFL_STATE] = INFL_PARKED
        st.infl_ready[sm, f] = INT64_MAX
        st.smv[sm, F_SM_N_PARKED] += 1
        counters[sm, C_ISSUE_PARKED_INSTS] += 1
    else:
        _complete_at(st.infl, st.infl_ready, st.smv, sm, f, t, cycle)
        counters[sm, C_ISSUE_COMPLETED_INSTS] += 1
    return True


@jit_inline
def tick_parked(st, tb, tw, counters, sm, cycle, hs, hooks):  # pragma: no cover - jit
    """Ask the mechanism about every parked instruction of ``sm``; release the ones it lets go.
    Returns True when one was released."""
    progress = False
    for f in range(st.smv[sm, F_SM_INFL_HW]):
        if st.infl[sm, f, F_INFL_STATE] != INFL_PARKED:
            continue
        w = st.infl[sm, f, F_INFL_WARP]
        rec = st.infl[sm, f, F_INFL_REC]
        outcome, t = hooks.poll_parked(hs, sm, w, rec, cycle)
        if outcome == ISSUE_PARK:
            continue
        if outcome == ISSUE_EXECUTE:
            oc = tb.pc_info[tw.rec[rec - tw.base[0], F_REC_PC], F_PC_OCSET]
            if st.idoc_hc[sm, oc, F_IDOC_COUNT] >= tb.set_info[oc, F_SET_IDOC_CAP]:
                continue
            push_idoc(st.idoc_q, st.idoc_hc, sm, oc, w, rec)
            free_slot(st.infl, st.infl_ready, st.infl_free, st.smv, sm, f)
        else:  # ISSUE_COMPLETE (DROP is not an answer to a poll: it completes next cycle)
            _complete_at(st.infl, st.infl_ready, st.smv, sm, f,
                         t if outcome == ISSUE_COMPLETE else cycle, cycle)
            counters[sm, C_ISSUE_COMPLETED_INSTS] += 1
        st.smv[sm, F_SM_N_PARKED] -= 1
        progress = True
    return progress
