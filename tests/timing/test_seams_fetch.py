"""The fetch seam (``hooks.fetch_word``): a mechanism's extra instruction words (RegLess's
metadata) take decode slots of the fetch stage, in front of the record they precede, and go to
no I-buffer entry. Driven by the seams probe's FETCH mode with hand-computed timelines.

Timeline (tests/timing/test_engine_alu.py conventions, ``small_config``: one scheduler, a
2-entry I-buffer, one warp fetched per cycle, 2 decode slots per fetch): the CTA is dispatched
in cycle 0, its warp fetches from cycle 1; what a fetch decodes in cycle c issues from c+1. A
chain of n dependent adds issues every 7 cycles, so the exit issues at 2 + 7n and
``gpu_sim_cycle`` is 3 + 7n (31 for n = 4) without words.
With w words in front of the first record, cycle 1's two slots take the first two words, and
so on: the first record is decoded in cycle 1 + w // 2 (the slot after the last word), and
everything after it moves by w // 2 cycles. Words in front of a later record are fetched while
the I-buffer runs ahead of the 7-cycle chain, which hides them.
"""

from __future__ import annotations

import pytest
from seams_probe import FETCH, Probe, timed
from timing_helpers import EXIT, Inst, rec, small_config

X = Inst("exit", kind=EXIT)
CHAIN = [Inst("add", reads=(2,), writes=(2,), n_imm=1) for _ in range(4)] + [X]
WARPS = [[rec(i) for i in range(5)]]


def _run(words, skip_idle=True):
    probe = Probe(small_config(), FETCH, words=words)
    return probe, timed(probe, CHAIN, WARPS, skip_idle=skip_idle)


@pytest.mark.parametrize("skip_idle", [True, False])
@pytest.mark.parametrize("w, delay", [(1, 0), (2, 1), (3, 1), (4, 2)])
def test_words_in_front_of_the_first_instruction_delay_it_by_half_their_count(w, delay,
                                                                              skip_idle):
    base = timed(FETCH, CHAIN, WARPS)  # FETCH with no words: the baseline
    probe, r = _run({0: w}, skip_idle)
    assert base.cycles == 31
    assert r.cycles == 31 + delay
    # the words are decoded two per cycle from cycle 1
    assert probe.word_cycles == [1 + i // 2 for i in range(w)]
    # a fetch of words alone is still a fetch (an I-cache access); words are no instructions
    assert r.stats["l1i_fetches"] == base.stats["l1i_fetches"] + delay
    assert r.stats["decode_insts"] == base.stats["decode_insts"] == 5
    assert r.stats["gpgpu_n_tot_w_icount"] == 5


def test_words_in_front_of_a_later_instruction_are_hidden_by_the_run_ahead():
    # record 0 issues at 2; the fetch of cycle 2 has one I-buffer entry free and spends both
    # slots on record 2's words; record 2 is decoded in cycle 3, long before its issue at 16
    base = timed(FETCH, CHAIN, WARPS)
    probe, r = _run({2: 2})
    assert probe.word_cycles == [2, 2]
    assert r.cycles == base.cycles == 31
    assert r.stats["l1i_fetches"] == base.stats["l1i_fetches"] + 1
