"""The memory port a mechanism shares with the SM's LD/ST unit: its own lines (register
preloads and spills, say) offered to the memory system, and their completions routed back.

Follows: docs/dev-contracts.md "Mechanisms" (the memory-port seam; ``mechanisms/hooks.py``
``mem_request`` / ``on_mem_sent`` / ``on_mem_complete``); the L1 port interface of
docs/dev-contracts.md "Timing engine" (one line per SM per cycle; a refused line is retried).
Assumptions:
  [A] The core's own memory instructions have priority: the mechanism is asked only in cycles
      the LD/ST unit has no instruction of its own sending lines.
  [A] A refused line is the mechanism's to offer again; the engine may skip idle cycles until
      the memory system's next event before it is asked again (the port is busy until then).
  [A] Loads and atomics (``MK_LD_*``, ``MK_ATOMIC``) get a completion, stores do not.
  [A] The L1 fetch group (``l1_fetch_group``, ``timing/l1group.py``) is a per-SM register of
      the memory system set here, so a new answer takes effect at the SM's next cycle without
      a line of its own to send (the LD/ST unit's lines in between use the old one).
"""

from __future__ import annotations

from warpsim._jit import jit_inline
from warpsim.stats import C_MECH_MEM_LINES, C_MECH_MEM_REFUSALS
from warpsim.timing.consts import (
    MECH_TOKEN_BASE,
    MK_ATOMIC,
    MK_LD_CONST,
    MK_LD_GLOBAL,
    MK_LD_LOCAL,
    MK_LD_TEX,
    MK_NONE,
)
from warpsim.timing.fields import F_SM_LINES_OUT

__all__ = ["tick_mech_port"]


@jit_inline
def tick_mech_port(st, counters, sm, cycle, ms, mem, mem_kind_map, hs,
                   hooks):  # pragma: no cover - jit
    """Set the SM's L1 fetch group (``hooks.l1_fetch_group``), then offer the mechanism's next
    line of ``sm`` to the memory system. Returns True when one was accepted."""
    mem.set_fetch_group(ms, sm, hooks.l1_fetch_group(hs, sm, cycle))
    kind, addr, n_sec, tag = hooks.mem_request(hs, sm, cycle)
    if kind == MK_NONE:
        return False
    load = (kind == MK_LD_GLOBAL or kind == MK_LD_LOCAL or kind == MK_LD_CONST
            or kind == MK_LD_TEX or kind == MK_ATOMIC)
    token = MECH_TOKEN_BASE + tag if load else -1
    ns = min(4, max(1, n_sec))
    if mem.access(ms, sm, addr, ns, mem_kind_map[kind], token, cycle) == 0:
        counters[sm, C_MECH_MEM_REFUSALS] += 1
        hooks.on_mem_sent(hs, sm, tag, 0, cycle)
        return False
    counters[sm, C_MECH_MEM_LINES] += 1
    if load:
        st.smv[sm, F_SM_LINES_OUT] += 1
    hooks.on_mem_sent(hs, sm, tag, 1, cycle)
    return True
