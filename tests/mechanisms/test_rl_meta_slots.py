"""RegLess's metadata words take fetch slots (§5.4: "The simulation accounts for the
performance ... of the metadata inserted into the instruction stream"; spec §3.7: one fetch
slot each, no issue slot). Hand-computed against the timeline conventions of
tests/mechanisms/test_rl_timeline.py: a lone warp's region [n independent adds, exit] with the
never-written input R0 activates 3 cycles late; a last-use flag word precedes region
instructions 9, 18, ... and costs that instruction one cycle, the header and the first flag
word being fetched while the warp waits for admission."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "timing"))

from test_rl_timeline import X, _run
from timing_helpers import Inst, rec


@pytest.mark.parametrize(("n_adds", "bubbles"), [(8, 0), (10, 1)])
def test_a_flag_word_inside_a_region_costs_one_cycle(n_adds, bubbles):
    # regions: one, [add x n, exit]; 8 adds: exit is instruction 8, no in-region flag word;
    # 10 adds: instruction 9 (the 10th add) follows the second flag word: one cycle later
    insts = [Inst("add", reads=(0,), writes=(1 + i % 7,), n_imm=1) for i in range(n_adds)] + [X]
    src = "\n".join(f"add.u32 %r{1 + i % 7}, %r0, 1" for i in range(n_adds)) + "\nexit"
    warp = [rec(i) for i in range(n_adds + 1)]
    on, base = _run(insts, src, [warp], 1, **{"regless.entries_per_sm": 32})
    s = on.stats
    assert s["rl_regions_executed"] == 1
    assert s["rl_region_insns"] == n_adds + 1
    assert s["rl_meta_fetch_bubbles"] == bubbles
    # meta words (spec §3.7): 1 header + ceil(n / 9) flag words (1 preload: no extra word)
    assert s["rl_meta_words"] == 1 + -(-(n_adds + 1) // 9)
    assert on.cycles - base.cycles == 3 + bubbles
