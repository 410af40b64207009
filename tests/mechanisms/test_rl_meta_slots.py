"""RegLess's metadata words in the fetch stage (§5.4: "The simulation accounts for the
performance ... of the metadata inserted into the instruction stream"; spec §3.7: one fetch and
decode slot each, no issue slot; the engine's ``fetch_word`` seam). Hand-computed against the
timeline conventions of tests/mechanisms/test_rl_timeline.py: a lone warp is fetched from
cycle 1, 2 decode slots per fetch into a 2-entry I-buffer; its region's first instruction is
offered at t, admitted at the end of t and active at t + 3 (1 + one preload in a bank + the
compressor's check of the never-written input R0)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "timing"))

from rl_helpers import plan
from test_rl_timeline import X, _run
from timing_helpers import Inst, rec

from warpsim.mechanisms.regless.state import meta_before


def _adds(n):
    insts = [Inst("add", reads=(0,), writes=(1 + i % 7,), n_imm=1) for i in range(n)] + [X]
    src = "\n".join(f"add.u32 %r{1 + i % 7}, %r0, 1" for i in range(n)) + "\nexit"
    return insts, src


@pytest.mark.parametrize(("n_adds", "words"), [(8, [2]), (10, [2, 1])])
def test_header_words_delay_the_first_fetch_and_the_run_ahead_hides_flag_words(n_adds, words):
    # one region [add x n, exit], 1 preload: no extra preload word (spec §3.7). 9 instructions:
    # header + first flag word (2 words) in front of add 0, nothing else; 11 instructions: one
    # more flag word in front of instruction 9.
    # Cycle 1's fetch decodes the 2 header words, cycle 2's adds 0 and 1: add 0 is offered at
    # 3 (not 2), admitted at the end of 3 and active at 6: 4 cycles after the baseline's issue
    # at 2. An active warp issues one instruction per cycle and its fetch refills one I-buffer
    # entry per cycle, so the flag word takes the fetch's spare decode slot: no extra cycle.
    insts, src = _adds(n_adds)
    p = plan(src, max_regs=8, bank=4)
    expect = np.zeros(n_adds + 1, np.int64)
    expect[0] = 2
    if n_adds > 8:
        expect[9] = 1
    assert list(meta_before(p, n_adds + 1)) == list(expect)
    assert [w for w in expect if w] == words
    on, base = _run(insts, src, [[rec(i) for i in range(n_adds + 1)]], 1,
                    **{"regless.entries_per_sm": 32})
    s = on.stats
    assert s["rl_regions_executed"] == 1
    assert s["rl_region_insns"] == n_adds + 1
    assert s["rl_meta_words"] == s["rl_meta_words_fetched"] == sum(words)
    assert on.cycles - base.cycles == 4
    # the header's fetch slot is one more I-cache access; words are not decoded instructions
    assert s["l1i_fetches"] == base.stats["l1i_fetches"] + 1
    assert s["decode_insts"] == base.stats["decode_insts"]


def test_a_compact_region_word_shares_the_first_fetch():
    # [add, exit] with one input: one compact word; cycle 1 decodes the word and the add, which
    # is offered at 2 as without metadata: the region costs its 3 admission cycles only
    insts = [Inst("add", reads=(1,), writes=(1,), n_imm=1), X]
    on, base = _run(insts, "add.u32 %r1, %r1, 1\nexit", [[rec(0), rec(1)]], 1,
                    **{"regless.entries_per_sm": 32})
    assert on.stats["rl_meta_words_fetched"] == 1
    assert on.cycles - base.cycles == 3
