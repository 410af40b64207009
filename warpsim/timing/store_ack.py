"""Store acknowledgements (``l2.store_acks``): a warp exits, and its CTA's slot is freed, only
once the L2 has acknowledged every store the warp sent below the L1.

Follows: GPGPU-Sim 4.2 ``shader.cc`` (``ldst_unit::process_cache_access`` and ``memory_cycle``
call ``inc_store_req`` for a store sent below the L1; ``store_ack`` on a ``WRITE_ACK`` reply
calls ``dec_store_req``; ``shd_warp_t::hardware_done`` = functional done and ``stores_done()``
and nothing in the pipeline, and a CTA is released only when all its warps are hardware-done)
and ``l2cache.cc`` (``memory_sub_partition::cache_cycle``: a write that hits, or misses with
write-allocate / lazy fetch-on-read, is turned into a ``WRITE_ACK`` by ``set_reply`` and
pushed to the L2-to-interconnect queue, which must have room before the lookup; the reply is
``get_ctrl_size()`` = 8 bytes, one flit, per sector request of a sectored L2).

The path (docs/memory-model.md "Store acknowledgements"):
  core  ``tick_execute`` offers a store line with ``store_token(w)``; when accepted,
        ``store_sent`` counts it in ``warp[sm, w, F_WARP_STORES]`` (and in ``F_SM_LINES_OUT``,
        so the writeback stage polls the completions);
  L1    ``memsys._store`` puts ``ack_slot(token)`` (warp + 1) in the write packet's slot field;
        a store the L1 keeps (write-back hit) completes after the hit latency instead (GPGPU-Sim
        acknowledges those in the L1);
  L2    ``l2._access`` answers each sector it writes with ``ack_info``: a reply with no data
        (1 flit) on the slice's reply queue; only the packet's last sector carries the slot;
  icnt  the reply crossbar carries it like a read reply (``icnt._replies``);
  L1    ``memsys._l1_fill`` takes it from the ejection buffer (one reply per SM per cycle) and
        queues the completion ``ack_token(slot)``;
  core  ``tick_writeback`` pops it: ``store_acked`` uncounts it and lets a waiting warp exit.
Counters: ``store_acks`` (acknowledgement packets the L2 sent, GPGPU-Sim's
``traffic_breakdown_memtocore[GLOBAL_ACC_W]`` count), ``store_ack_wait_cycles`` (cycles warps
were done but for their acknowledgements, summed at exit).
Assumptions:
  [A] One completion per store line: the sectors of a line are acknowledged in order by one
      slice and travel one FIFO path to the SM, so the last sector's ack arrives last and the
      warp's count reaches 0 when GPGPU-Sim's per-sector count would.
  [A] Barriers and ``membar`` do not wait for acknowledgements (GPGPU-Sim 4.2's
      ``warp_waiting_at_mem_barrier`` checks the scoreboard's pending loads only).
"""

from __future__ import annotations

from warpsim._jit import jit
from warpsim.stats import C_STORE_ACK_WAIT_CYCLES
from warpsim.timing.dispatch import warp_try_exit
from warpsim.timing.fields import (
    F_SM_LINES_OUT,
    F_SM_STORE_ACKS,
    F_WARP_ACK_WAIT,
    F_WARP_STORES,
)
from warpsim.timing.memconsts import PK_WRITE, SRC_NONE
from warpsim.timing.memstate import info_slot, info_sm, pack_info

__all__ = ["ACK_TOKEN_BASE", "ack_info", "ack_slot", "ack_token", "store_acked", "store_sent",
           "store_token"]

ACK_TOKEN_BASE = 1 << 41
"""Completion tokens at and above this are store acknowledgements of warp slot ``token -
ACK_TOKEN_BASE`` (above ``consts.MECH_TOKEN_BASE``, a mechanism's lines, and the in-flight
slots below it)."""


@jit
def ack_slot(token: int) -> int:
    """The write packet's slot field for a store offered with ``token``: warp + 1, or 0 (no
    acknowledgement wanted: the engine's stores with ``l2.store_acks`` off, L1 write-backs)."""
    if token >= ACK_TOKEN_BASE:
        return token - ACK_TOKEN_BASE + 1
    return 0


@jit
def ack_token(slot: int) -> int:
    """The completion token of an acknowledgement packet's (non-zero) slot field."""
    return ACK_TOKEN_BASE + slot - 1


@jit
def ack_info(info: int, last: bool) -> int:
    """The WRITE_ACK reply to write packet ``info``: no data (one flit); the slot only on the
    acknowledgement of the packet's ``last`` sector."""
    return pack_info(info_sm(info), PK_WRITE, SRC_NONE, 0, info_slot(info) if last else 0)


@jit
def store_token(st, sm, w):  # pragma: no cover - jit
    """The token the LD/ST unit offers a store line of warp ``w`` with: an acknowledgement
    token when the SM waits for them, else -1 (posted)."""
    if st.smv[sm, F_SM_STORE_ACKS] != 0:
        return ACK_TOKEN_BASE + w
    return -1


@jit
def store_sent(st, sm, w):  # pragma: no cover - jit
    """A store line of warp ``w`` offered with an acknowledgement token was accepted."""
    st.warp[sm, w, F_WARP_STORES] += 1
    st.smv[sm, F_SM_LINES_OUT] += 1


@jit
def store_acked(st, counters, sm, w, cycle, hs, hooks):  # pragma: no cover - jit
    """Warp ``w``'s store line was acknowledged: the warp exits now when that was its last
    outstanding store and it was waiting for it (``dispatch.warp_try_exit``)."""
    st.warp[sm, w, F_WARP_STORES] -= 1
    if st.warp[sm, w, F_WARP_STORES] == 0 and st.warp[sm, w, F_WARP_ACK_WAIT] >= 0:
        counters[sm, C_STORE_ACK_WAIT_CYCLES] += cycle - st.warp[sm, w, F_WARP_ACK_WAIT]
        st.warp[sm, w, F_WARP_ACK_WAIT] = -1
        warp_try_exit(st, sm, w, cycle, hs, hooks)
