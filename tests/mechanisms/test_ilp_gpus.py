"""The ILP chapter's GPU compositions, routing rule and weighted speedup against the
dissertation's numbers (§4.5)."""

from __future__ import annotations

import pytest

from warpsim.arch import GTX480, apply_overrides
from warpsim.arch.sm_kinds import sm_kinds
from warpsim.mechanisms.ilp.gpus import (
    AREA,
    iso_area,
    iso_sm_count,
    route,
    weighted_speedup,
)


def test_iso_area_gpus_are_the_papers_40_36_and_20_plus_18():
    t, i, h = iso_area(40)
    assert (t.n_tlp, t.n_ilp, i.n_tlp, i.n_ilp, h.n_tlp, h.n_ilp) == (40, 0, 0, 36, 20, 18)
    assert t.area_mm2 == pytest.approx(472.92)
    assert i.area_mm2 == pytest.approx(466.704)
    assert h.area_mm2 == pytest.approx(469.812)  # the spec's [FIX] of "467.812"
    assert AREA["ilp_sm"] / AREA["tlp_sm"] - 1 == pytest.approx(0.096, abs=1e-3)  # 9.65 %, "9.6 %"
    assert AREA["tlp_sm"] + 8 * AREA["bypass_per_sc"] + AREA["scoreboard"] == pytest.approx(
        AREA["ilp_sm"])


def test_gpu_h_overrides_put_ilp_cores_on_kind_0_only():
    _, _, h = iso_area(10)
    assert (h.n_tlp, h.n_ilp) == (5, 4)
    cfg = apply_overrides(GTX480, dict(o.split("=") for o in h.overrides()))
    kinds = sm_kinds(cfg)
    assert [k.n_sms for k in kinds] == [4, 5]  # ILP SMs first
    assert cfg.ilp.sm_kinds == (0,) and cfg.ilp.scoreboard_entries == 8 and cfg.ilp.bypass


@pytest.mark.parametrize("warps, threads, where", [
    (8, 10**6, "ilp"),        # NQU/STO: one large block per SM
    (16, 16384, "ilp"),       # FFT: 16 warps/SM but only 16384 threads
    (48, 10**6, "tlp"),       # MM, BS: many warps, many threads
    (16, 32768, "ilp"), (16, 32769, "tlp"), (15, 32769, "ilp")])
def test_routing_rule(warps, threads, where):
    assert route(warps, threads) == where


def test_weighted_speedup():
    assert weighted_speedup(2.0, 2.0, 3.0, 3.0) == 1.0
    assert weighted_speedup(1.0, 2.0, 3.0, 2.0) == pytest.approx(0.5 * (0.5 + 1.5))


def test_iso_sm_count_gpus_of_figs_52_53():
    # 30 SMs each; TLP SMs 16k registers (11.823 mm^2), ILP SMs 8k (12.026 mm^2); GPU-H 15+15
    t, i, h = iso_sm_count(30, 16384)
    assert [(g.n_tlp, g.n_ilp) for g in (t, i, h)] == [(30, 0), (0, 30), (15, 15)]
    assert i.area_mm2 == pytest.approx(30 * 12.026)
    assert h.area_mm2 == pytest.approx(15 * 11.823 + 15 * 12.026)
    assert "sm.n_registers=8192" in i.overrides()
    cfg = apply_overrides(GTX480, dict(o.split("=", 1) for o in h.overrides()))
    kinds = [(k.first_sm, k.n_sms, k.cfg.sm.n_registers) for k in sm_kinds(cfg)]
    assert kinds == [(0, 15, 8192), (15, 15, 16384)]
    assert cfg.ilp.sm_kinds == (0,) and cfg.ilp.scoreboard_entries == 8
