"""The mechanism life cycle of the timing driver (docs/dev-contracts.md "Mechanisms"): a toy
mechanism sees every issued instruction with the record columns it attached, across chunks,
and its statistics reach the launch result; the registry refuses two mechanisms at once."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "timing"))

from timing_helpers import (
    EXIT,
    FakeAlloc,
    FakeProgram,
    Inst,
    make_chunk,
    rec,
    small_config,
    stub_memsys,
)

from warpsim._jit import jit
from warpsim.arch import GTX480, apply_overrides
from warpsim.errors import ConfigError, LaunchError
from warpsim.mechanisms.base import Mechanism
from warpsim.mechanisms.registry import enabled_mechanisms, mechanism_for
from warpsim.timing.consts import ISSUE_EXECUTE
from warpsim.timing.driver import TimingSimulator


@jit
def _count_issue(hs, sm, warp, pc, rec, cycle):  # pragma: no cover - jit
    cols, base, out, _ = hs
    out[0] += 1
    out[1] += cols[rec - base[0], 0]
    return ISSUE_EXECUTE, np.int64(0)


@jit
def _gate(hs, sm, warp, pc, cycle):  # pragma: no cover - jit
    return hs[3][0] != 0


class _Toy(Mechanism):
    """Attaches each record's PC x 10 + 1 as a column and sums it at issue; lets every warp
    issue (``allow``; one hook bundle for both tests: one compile of the cycle loop)."""

    name = "toy"
    n_record_columns = 1
    allow = 1

    def __init__(self, cfg):
        super().__init__(cfg)
        self.hooks = self.hooks._replace(on_issue=_count_issue, can_issue=_gate)
        self.launches = []

    def ctas_per_sm(self, cta_threads, regs_per_thread, shmem_bytes, baseline):
        return baseline

    def start_launch(self, info):
        self.launches.append(info)
        return {"out": np.zeros(2, np.int64), "info": info}

    def record_columns(self, launch_state, chunk):
        return (chunk.pc[chunk.order].astype(np.int64) * 10 + 1)[:, None]

    def hook_state(self, launch_state, rec_cols, rec_base):
        return (rec_cols, np.array([rec_base], np.int64), launch_state["out"],
                np.array([self.allow], np.int64))

    def finish_launch(self, launch_state, counts):
        out = launch_state["out"]
        return {"toy_issued": int(out[0]), "toy_col_sum": int(out[1])}


def test_hooks_see_record_columns_across_chunks_and_stats_are_merged():
    insts = [Inst("add", reads=(2,), writes=(3,), n_imm=1), Inst("exit", kind=EXIT)]
    warps = [[rec(0), rec(1)] for _ in range(6)]  # six one-warp CTAs
    cfg = small_config()
    mech = _Toy(cfg)
    sim = TimingSimulator(cfg, mechanism=mech, memsys=stub_memsys(None, 200))
    sim.start(FakeProgram(insts), FakeAlloc(insts, None), n_ctas=6, cta_threads=32,
              regs_per_thread=8, shmem_bytes=0)
    for b, c0 in enumerate(range(0, 6, 2)):  # three chunks of two CTAs
        sim.consume(make_chunk(warps[c0:c0 + 2], 1, first_cta=c0, batch=b))
    r = sim.finish()
    # 12 warp instructions; on_issue sees the six adds (not exit, barriers): column 0*10+1
    assert r.stats["gpgpu_n_tot_w_icount"] == 12
    assert r.stats["toy_issued"] == 6
    assert r.stats["toy_col_sum"] == 6 * 1
    assert sim.cumulative_stats()["toy_issued"] == 6
    info = mech.launches[-1]
    assert (info.n_ctas, info.cta_threads, info.warps_per_cta) == (6, 32, 1)
    assert info.ctas_per_sm == info.baseline_ctas_per_sm == 8


def test_registry_builds_nothing_for_the_baseline_and_combines_two_mechanisms():
    from warpsim.mechanisms.compose import CompositeMechanism

    assert mechanism_for(GTX480) is None
    assert enabled_mechanisms(GTX480) == []
    both = apply_overrides(GTX480, ["warped_compression.enabled=true",
                                    "register_sharing.enabled=true"])
    mech = mechanism_for(both)
    assert isinstance(mech, CompositeMechanism)
    assert mech.name == "warped_compression+register_sharing"


def test_a_jobs_mechanisms_become_config_sections():
    from warpsim.runner.jobs import Job

    cfg = Job(benchmark="vector_add", mechanisms=(("warped_compression", ()),)).resolve()
    assert cfg.warped_compression.enabled and not cfg.register_sharing.enabled
    assert mechanism_for(Job(benchmark="vector_add").resolve()) is None
    with pytest.raises(ConfigError, match="hint:"):
        Job(benchmark="vector_add", mechanisms=(("ltrf", ()),)).resolve()


class _Stuck(_Toy):
    """Vetoes every issue: the launch can never finish."""

    name = "stuck"
    allow = 0


def test_a_deadlock_caused_by_a_mechanism_names_it_and_is_not_called_a_bug():
    insts = [Inst("add", reads=(2,), writes=(3,), n_imm=1), Inst("exit", kind=EXIT)]
    cfg = small_config()
    sim = TimingSimulator(cfg, mechanism=_Stuck(cfg), memsys=stub_memsys(None, 200))
    sim.start(FakeProgram(insts), FakeAlloc(insts, None), n_ctas=1, cta_threads=32,
              regs_per_thread=8, shmem_bytes=0)
    with pytest.raises(LaunchError, match="stuck mechanism") as info:
        sim.consume(make_chunk([[rec(0), rec(1)]], 1))
        sim.finish()
    assert "deadlocked at cycle" in str(info.value)
