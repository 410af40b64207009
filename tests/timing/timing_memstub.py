"""A fixed-latency stand-in for the memory system, used only by the timing tests (the real one
is ``warpsim/timing/memsys.py``, written separately against docs/dev-contracts.md).

Loads complete ``hit_cycles`` after acceptance when their line was accessed before by the same
SM (a direct-mapped tag array of ``N_TAGS`` lines), else ``miss_cycles``; stores and atomics
without a token complete silently. One line per SM per cycle is accepted; at most ``QUEUE``
loads per SM are outstanding (further requests are refused).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from warpsim._jit import jit
from warpsim.timing.consts import INT64_MAX, N_MEM_KINDS
from warpsim.timing.driver import MemSystem

N_TAGS = 1024
QUEUE = 64


class StubMemState(NamedTuple):
    lat: np.ndarray
    """[hit, miss] latencies."""
    port: np.ndarray
    """port[sm]: last cycle a line was accepted."""
    tags: np.ndarray
    q_token: np.ndarray
    q_ready: np.ndarray
    n_access: np.ndarray
    """n_access[sm, 0] accesses, [sm, 1] misses."""


def make_stub_state(cfg, hit_cycles=None, miss_cycles=200):
    n = cfg.sm.n_sms
    hit = cfg.l1d.hit_latency_cycles if hit_cycles is None else hit_cycles
    return StubMemState(lat=np.array([hit, miss_cycles], np.int64),
                        port=np.full(n, -1, np.int64), tags=np.full((n, N_TAGS), -1, np.int64),
                        q_token=np.full((n, QUEUE), -1, np.int64),
                        q_ready=np.full((n, QUEUE), INT64_MAX, np.int64),
                        n_access=np.zeros((n, 2), np.int64))


@jit
def stub_access(ms, sm, line_addr, n_sectors, kind, token, cycle):
    if ms.port[sm] == cycle:
        return 0
    slot = -1
    if token >= 0:
        for i in range(ms.q_token.shape[1]):
            if ms.q_token[sm, i] < 0:
                slot = i
                break
        if slot < 0:
            return 0
    ms.port[sm] = cycle
    tag = line_addr // 128
    idx = tag % ms.tags.shape[1]
    hit = ms.tags[sm, idx] == tag
    ms.tags[sm, idx] = tag
    ms.n_access[sm, 0] += 1
    if not hit:
        ms.n_access[sm, 1] += 1
    if token >= 0:
        ms.q_token[sm, slot] = token
        ms.q_ready[sm, slot] = cycle + (ms.lat[0] if hit else ms.lat[1])
    return 1


@jit
def stub_tick(ms, counters, cycle):
    return False


@jit
def stub_next_event(ms, cycle):
    nxt = INT64_MAX
    for sm in range(ms.q_ready.shape[0]):
        for i in range(ms.q_ready.shape[1]):
            if ms.q_token[sm, i] >= 0:
                nxt = min(nxt, max(ms.q_ready[sm, i], cycle))
    return nxt


@jit
def stub_pop(ms, sm, cycle):
    best = -1
    for i in range(ms.q_ready.shape[1]):
        if ms.q_token[sm, i] >= 0 and ms.q_ready[sm, i] <= cycle:
            if best < 0 or ms.q_ready[sm, i] < ms.q_ready[sm, best]:
                best = i
    if best < 0:
        return -1
    tok = ms.q_token[sm, best]
    ms.q_token[sm, best] = -1
    ms.q_ready[sm, best] = INT64_MAX
    return tok


@jit
def stub_has_completion(ms):
    for sm in range(ms.q_token.shape[0]):
        for i in range(ms.q_token.shape[1]):
            if ms.q_token[sm, i] >= 0:
                return True
    return False


def stub_memsys(hit_cycles=None, miss_cycles=200):
    """A ``MemSystem`` over the stand-in with the given latencies."""
    def make(cfg):
        return make_stub_state(cfg, hit_cycles, miss_cycles)
    return MemSystem(make, stub_access, stub_tick, stub_next_event, stub_pop,
                     np.zeros(N_MEM_KINDS, np.int64), None, stub_has_completion)
