"""Coarse-grained L1 fetch with ``pairing=paired`` (the default, the dissertation's design): the
mechanism asks the engine for an L1 fetch group per SM (``l1_fetch_group``); the memory system
checks the neighbours in the demand miss's lookup and sends them in its request
(tests/timing/test_l1group.py tests the memory system's side by hand).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "timing"))

from timing_helpers import EXIT, FakeAlloc, FakeProgram, Inst, make_chunk, rec, small_config

from warpsim.arch import GTX480, apply_overrides
from warpsim.errors import ConfigError
from warpsim.mechanisms.coarse_fetch.hooks import (
    cf_l1_fetch_group,
    cf_mem_request,
    cf_on_issue,
)
from warpsim.mechanisms.coarse_fetch.mechanism import CoarseFetch
from warpsim.mechanisms.coarse_fetch.state import STAT_NAMES, make_state
from warpsim.timing.consts import MK_NONE
from warpsim.timing.driver import TimingSimulator


def _cfg(**over):
    return apply_overrides(GTX480, {"coarse_fetch.enabled": True, **over})


def test_paired_is_the_default_and_asks_for_the_group_on_coarse_sms():
    assert GTX480.coarse_fetch.pairing == "paired"
    hs = make_state(_cfg(**{"coarse_fetch.n_group_lines": 4}), 1)
    assert [cf_l1_fetch_group.py_func(hs, sm, 0) for sm in (0, 7)] == [4, 4]
    # dueling: SM 0 (baseline leader) fetches its line alone, SM 1 (coarse leader) the group,
    # the followers what the last epoch decided (here the baseline)
    hs = make_state(_cfg(**{"coarse_fetch.dueling": True}), 0)
    assert [cf_l1_fetch_group.py_func(hs, sm, 0) for sm in (0, 1, 2)] == [1, 2, 1]
    # separate: no fetch group, the neighbours go through the memory port
    hs = make_state(_cfg(**{"coarse_fetch.pairing": "separate"}), 1)
    assert cf_l1_fetch_group.py_func(hs, 0, 0) == 1


def test_paired_queues_nothing_for_the_memory_port():
    hs = make_state(_cfg(), 1)._replace(cols=np.array([[1, 0x1000 | 1, 0, 0, 0]], np.int64))
    cf_on_issue.py_func(hs, 0, 0, 0, 0, 2)
    assert cf_mem_request.py_func(hs, 0, 3)[0] == MK_NONE
    st = dict(zip(STAT_NAMES, hs.st.tolist(), strict=True))
    assert st["loads"] == 1 and st["loads_coarse_sm"] == 1 and st["lines_queued"] == 0


def test_pairing_errors():
    with pytest.raises(ConfigError, match="pairing"):
        _cfg(**{"coarse_fetch.pairing": "both"})
    with pytest.raises(ConfigError, match="queue_entries"):
        _cfg(**{"coarse_fetch.queue_entries": 16})
    with pytest.raises(ConfigError, match="filter_entries"):
        _cfg(**{"coarse_fetch.filter_entries": 0})
    sep = _cfg(**{"coarse_fetch.pairing": "separate", "coarse_fetch.queue_entries": 16})
    assert sep.coarse_fetch.queue_entries == 16


@pytest.mark.slow
def test_paired_neighbour_arrives_with_the_demand_through_the_engine():
    """Slow: its own engine compilation (the CoarseFetch hooks with the real memory system).
    The micro-kernel of test_l1group.py::test_engine_pair_arrives_with_the_demand: load 1
    (0x10000) offered at 6, filled at 304 (seen 305); load 2 (0x10080, its pair) offered at
    309 merges into the pair's fill at 310, seen at 311: 312 cycles. ``separate`` sends the
    pair through the port as its own miss."""
    cfg = small_config(**{"dram.n_channels": 1, "l2.n_slices_per_channel": 1,
                          "clocks.dram_mhz": 700.0, "coarse_fetch.enabled": True})
    insts = [Inst("ld", space="global", reads=(1,), writes=(2,)),
             Inst("ld", space="global", reads=(2,), writes=(3,)), Inst("exit", kind=EXIT)]

    def run(c):
        sim = TimingSimulator(c, mechanism=CoarseFetch(c))
        sim.start(FakeProgram(insts), FakeAlloc(insts, None), n_ctas=1, cta_threads=32,
                  regs_per_thread=8, shmem_bytes=0)
        sim.consume(make_chunk([[rec(0, lines=[0x10000]), rec(1, lines=[0x10080]),
                                 rec(2)]], 1))
        return sim.finish()

    r = run(cfg)
    assert r.cycles == 312
    s = r.stats
    assert s["l1d_group_lines"] == 1 and s["l1d_group_requests"] == 1
    assert s["icnt_flits_to_mem"] == 1 and s["cf_lines_sent"] == 0
    assert s["cf_loads_coarse_sm"] == 2
    sep = run(apply_overrides(cfg, {"coarse_fetch.pairing": "separate"}))
    assert sep.stats["l1d_group_lines"] == 0 and sep.stats["cf_lines_sent"] >= 1
    assert sep.stats["icnt_flits_to_mem"] == 2


@pytest.mark.slow
def test_paired_idle_skipping_changes_nothing_with_dueling():
    """Slow (the engine compilation above). 3 SMs (base leader, coarse leader, a follower),
    epochs of 50 cycles, the real memory system: every statistic is the same with idle-cycle
    skipping on and off (the fetch group is set only in simulated cycles)."""
    cfg = small_config(**{"sm.n_sms": 3, "coarse_fetch.enabled": True,
                          "coarse_fetch.dueling": True, "coarse_fetch.dueling_epoch_cycles": 50})
    insts = [Inst("ld", space="global", reads=(1,), writes=(2,)),
             Inst("ld", space="global", reads=(2,), writes=(3,)), Inst("exit", kind=EXIT)]
    warps = [[rec(0, lines=[0x10000 + 0x1000 * c]), rec(1, lines=[0x10080 + 0x1000 * c]),
              rec(2)] for c in range(6)]

    def run(skip):
        sim = TimingSimulator(cfg, mechanism=CoarseFetch(cfg), skip_idle_cycles=skip)
        sim.start(FakeProgram(insts), FakeAlloc(insts, None), n_ctas=6, cta_threads=32,
                  regs_per_thread=8, shmem_bytes=0)
        sim.consume(make_chunk(warps, 1))
        return sim.finish()

    on, off = run(True), run(False)

    def numbers(st):  # NaN ratios compare unequal
        return {k: v for k, v in st.items() if v == v}

    assert numbers(on.stats) == numbers(off.stats) and on.cycles == off.cycles
    assert on.stats["cf_dueling_epochs"] >= 4 and on.stats["l1d_group_lines"] >= 1
