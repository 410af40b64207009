"""The ILP core's branch predictors on known branch streams (spec §3.4.3): static backward
taken / forward not taken, and a 1-kbit gshare (512 two-bit counters, 9-bit history), with
accuracies computed by hand."""

from __future__ import annotations

import numpy as np
import pytest

from warpsim.mechanisms.ilp.hooks import gshare_update, predict
from warpsim.mechanisms.ilp.state import BP_GSHARE, BP_PERFECT, BP_STATIC

HIST_MASK = (1 << 9) - 1


def _hits(kind, pc, backward, stream):
    """Per outcome of ``stream`` (0/1 of one branch): whether it was predicted right."""
    pht = np.ones(HIST_MASK + 1, np.int64)
    hist = 0
    out = []
    for taken in stream:
        guess = predict(kind, pht, hist, HIST_MASK, pc, backward, taken)
        out.append(guess == taken)
        if kind == BP_GSHARE:
            hist = gshare_update(pht, hist, HIST_MASK, pc, taken)
    return np.array(out)


def _accuracy(kind, pc, backward, stream):
    return float(_hits(kind, pc, backward, stream).mean())


def test_static_predicts_a_loop_branch_taken_and_a_forward_branch_not_taken():
    loop = ([1] * 7 + [0]) * 50  # a backward branch closing an 8-trip loop
    assert _accuracy(BP_STATIC, 40, 1, loop) == 7 / 8
    assert _accuracy(BP_STATIC, 40, 0, loop) == 1 / 8  # the same stream seen as forward
    assert _accuracy(BP_STATIC, 12, 0, [0, 1] * 100) == 0.5


def test_gshare_misses_an_always_taken_branch_only_while_its_history_fills():
    # counters start weakly not taken (1); the history runs 0, 1, 3, ..., 511 (ten distinct
    # fresh counters, each predicted not taken once), then stays at 511 and the counter there
    # (trained once to 2 on the tenth step) predicts taken: exactly 10 misses
    n = 200
    assert _accuracy(BP_GSHARE, 5, 0, [1] * n) == (n - 10) / n


def test_gshare_learns_patterns_the_static_rule_cannot():
    # once the 9-bit history is full each pattern position has its own counter (pc ^ history),
    # trained once to the right side of 2: every later outcome is predicted right
    alt = [0, 1] * 200
    hits = _hits(BP_GSHARE, 7, 0, alt)
    assert hits[20:].all() and not hits.all()
    assert _accuracy(BP_STATIC, 7, 0, alt) == 0.5
    loop = ([1] * 3 + [0]) * 100  # period 4 fits the history
    hits = _hits(BP_GSHARE, 3, 1, loop)
    assert hits[20:].all()
    assert _accuracy(BP_STATIC, 3, 1, loop) == 0.75
    # a 16-trip loop does not fit 9 bits of history: at the exit the history is all taken,
    # like trips 9-14, whose shared counter saturates taken: every exit is missed, nothing else
    long = ([1] * 15 + [0]) * 40
    hits = _hits(BP_GSHARE, 3, 1, long)
    exits = np.arange(len(long)) % 16 == 15
    assert (hits[40:] == ~exits[40:]).all()


@pytest.mark.parametrize("stream", [[1, 0, 0, 1, 1], [0] * 9])
def test_perfect_is_always_right(stream):
    assert _accuracy(BP_PERFECT, 0, 0, stream) == 1.0


def test_two_bit_counters_saturate():
    pht = np.ones(HIST_MASK + 1, np.int64)
    h = 0
    for _ in range(5):  # history 0 every time: pc 0 ^ 0 -> counter 0 trained taken 5 times
        gshare_update(pht, h, 0, 0, 1)
    assert pht[0] == 3
    for _ in range(5):
        gshare_update(pht, h, 0, 0, 0)
    assert pht[0] == 0
    assert gshare_update(pht, 0b101, HIST_MASK, 0, 1) == 0b1011
    assert gshare_update(pht, HIST_MASK, HIST_MASK, 0, 0) == HIST_MASK - 1
