"""Sampled simulation without the timing engine: options, sub-traces, the projection formula
and the statistics scaling, against hand-computed values and the full trace."""

from __future__ import annotations

import numpy as np
import pytest
from sampling_ptx import SCALE_PTX

import warpsim
from warpsim.errors import ConfigError
from warpsim.sampling import ENV_VAR, SampleOptions, parse_sample, resolve_sample
from warpsim.sampling.project import (
    Stop,
    interval_rates,
    is_stable,
    project_cycles,
    scale_stats,
    steady_rate,
)
from warpsim.sampling.reuse import Measured, Profile, ReuseTable
from warpsim.sampling.subtrace import cta_records, slice_ctas


def test_spec_parsing_round_trips_and_defaults():
    assert parse_sample("") == parse_sample("on") == SampleOptions()
    o = parse_sample("waves=5, max_waves=6,min_waves=7,tolerance=0.1,stability=0.2,reuse=off")
    assert (o.waves, o.max_waves, o.min_waves, o.tolerance, o.stability, o.reuse, o.intra) == (
        5, 6, 7, 0.1, 0.2, False, True)
    assert parse_sample(o.spec()) == o


@pytest.mark.parametrize("spec, field", [
    ("waves=3", "sample.waves"), ("waves=x", "sample.waves"), ("min_waves=12", "sample.min_waves"),
    ("waves=6,max_waves=5", "sample.max_waves"), ("stability=0", "sample.stability"),
    ("waves=6,max_waves=6,min_waves=6", "sample.min_waves"), ("tolerance=1.5", "sample.tolerance"),
    ("tolerance=abc", "sample.tolerance"), ("reuse=maybe", "sample.reuse"),
    ("frobnicate=1", "sample"), ("waves", "sample"), ("reuse=off,intra=off", "sample")])
def test_bad_specs_are_config_errors_naming_the_field(spec, field):
    with pytest.raises(ConfigError) as err:
        parse_sample(spec)
    assert err.value.field == field


def test_device_switch_and_environment(monkeypatch):
    monkeypatch.delenv(ENV_VAR, raising=False)
    assert resolve_sample(None) is None and resolve_sample(False) is None
    assert resolve_sample(True) == SampleOptions()
    monkeypatch.setenv(ENV_VAR, "waves=6,max_waves=8,min_waves=10")
    assert resolve_sample(None) == SampleOptions(waves=6, max_waves=8, min_waves=10)
    assert warpsim.Device().sampler is None  # the environment only reaches timed devices
    with pytest.raises(ConfigError, match="timed device"):
        warpsim.Device(sample=True)
    with pytest.raises(ConfigError, match=r"Device\.sample"):
        warpsim.Device(config="gtx480", sample=3)


def _scale_trace(n_ctas: int, block: int = 64):
    """The functional trace of ``scale`` over ``n_ctas`` CTAs, three CTAs per batch."""
    gpu = warpsim.Device(trace=True)
    k = gpu.load_ptx(SCALE_PTX).get_kernel("scale")
    n = n_ctas * block - 10  # the last CTA has idle threads
    a = gpu.to_device(np.arange(n_ctas * block, dtype=np.uint32))
    chunks = []
    gpu.trace_sink = chunks.append
    from warpsim.functional import executor

    real = executor.launch
    try:  # small batches: several chunks, CTAs split across them
        executor.launch = lambda *x, **kw: real(*x, **{**kw, "batch_threads": 3 * block})
        k[n_ctas, block](a, np.int32(n))
    finally:
        executor.launch = real
    return chunks, k.last_launch


def _per_warp(chunks):
    """{(cta, warp): (pcs, lines, signatures)} of a list of chunks."""
    out = {}
    for c in chunks:
        for w in range(c.n_warps):
            idx = c.order[c.offsets[w]:c.offsets[w + 1]]
            lines = [tuple(c.lines[s:s + n]) for s, n in zip(c.line_start[idx], c.n_lines[idx],
                                                              strict=True)]
            nv = np.diff(np.append(c.val_start, c.sig.size))
            sigs = [tuple(c.sig[s:s + n]) for s, n in zip(c.val_start[idx], nv[idx],
                                                          strict=True)]
            out[(int(c.warp_cta[w]), int(c.warp_in_cta[w]))] = (tuple(c.pc[idx]), lines, sigs)
    return out


def test_sub_traces_carry_each_warps_records_lines_and_values():
    chunks, result = _scale_trace(8)
    assert len(chunks) == 3
    whole = _per_warp(chunks)
    parts = [s for lo, hi in ((0, 2), (2, 5), (5, 8)) for c in chunks
             if (s := slice_ctas(c, lo, hi)) is not None]
    assert len(parts) == 5  # chunks hold CTAs 0-2, 3-5, 6-7: two ranges cut a chunk
    assert _per_warp(parts) == whole
    assert slice_ctas(chunks[0], 5, 8) is None
    recs = np.zeros(8, np.int64)
    for c in chunks:
        first, r = cta_records(c)
        recs[first:first + r.size] += r
    assert recs.sum() == result.warp_instructions
    assert (recs[:7] == recs[0]).all()  # identical full CTAs


def test_projection_of_a_linear_wave_timeline_is_exact():
    # 10 CTAs of 4 work units; pauses as 1, 2, 4 and 6 CTAs had started (a warm-up interval,
    # then 100 cycles per 2 CTAs); 8 CTAs replayed in 420 cycles: 8 units left at 100 / 8
    work = np.full(10, 4)
    stops = [Stop(30, 1), Stop(110, 2), Stop(210, 4), Stop(310, 6)]
    assert interval_rates(stops, work) == [20.0, 12.5, 12.5]
    assert steady_rate([20.0, 12.5, 12.5]) == (12.5, 0.0) and is_stable(stops, work, 0.001)
    p = project_cycles(stops, 420, work, 8)
    assert p.rate == 100 / 8 and p.cycles == 420 + 100 and p.error == 0.0
    assert p.work_ratio == 40 / 32 and p.projected_fraction == pytest.approx(100 / 520)


def test_steady_rate_drops_the_warm_up_third_and_the_extremes():
    rates = [5.0, 10.0, 12.0, 9.0, 11.0, 30.0]  # warm-up 5, 10; steady 12, 9, 11, 30
    rate, rel_se = steady_rate(rates)
    assert rate == 11.5  # mean of 12 and 11 (9 and 30 dropped)
    want_se = np.std([12.0, 9.0, 11.0, 30.0], ddof=1) / np.sqrt(4)
    assert rel_se == pytest.approx(want_se / 11.5)
    assert steady_rate([5.0, 10.0, 14.0]) == (12.0, pytest.approx(2.0 / 12.0))
    assert steady_rate([5.0, 10.0])[1] == float("inf")


def test_projection_error_is_twice_the_standard_error_of_the_rate():
    work = np.full(10, 4)
    stops = [Stop(50, 2), Stop(190, 4), Stop(270, 6), Stop(390, 8)]  # 140, 80, 120 cycles
    assert interval_rates(stops, work) == [17.5, 10.0, 15.0]
    assert not is_stable(stops, work, 0.19) and is_stable(stops, work, 0.2)  # se 2.5 / 12.5
    p = project_cycles(stops, 500, work, 9)  # one CTA (4 units) left at 12.5 per unit
    assert p.rate == 12.5 and p.cycles == 500 + 50
    assert p.error == pytest.approx((50 / 550) * 2 * 2.5 / 12.5)
    one = project_cycles(stops[:3], 500, work, 9)  # one steady interval: error = fraction
    assert one.rate == 10.0 and one.error == one.projected_fraction == 40 / 540


def test_statistics_scale_by_work_or_cycles_and_derived_metrics_follow():
    from warpsim.stats import export, make_counts

    flat = dict(export(make_counts(2)))
    flat.update(gpu_sim_cycle=100, gpu_sim_insn=640, gpgpu_n_tot_w_icount=20,
                sm_active_cycles=150, L1D_total_cache_accesses=30, L1D_total_cache_misses=9,
                wc_reads=7, wc_ratio=0.5)
    out = scale_stats(flat, 250, 2.5, 3.0, {"gpu_sim_insn": 2000, "gpgpu_n_tot_w_icount": 60})
    assert out["gpu_sim_cycle"] == 250 and out["sm_active_cycles"] == 375
    assert out["L1D_total_cache_accesses"] == 90 and out["L1D_total_cache_misses"] == 27
    assert out["wc_reads"] == 21 and out["wc_ratio"] == 0.5
    assert out["gpu_ipc"] == 2000 / 250 and out["L1D_total_cache_miss_rate"] == 0.3


def test_reuse_needs_two_agreeing_measurements_of_a_matching_profile():
    a = Profile(np.array([10, 20, 70]), 100)
    table = ReuseTable(0.05)
    m1 = Measured(a, {"gpu_sim_cycle": 1100}, 0.0)  # a cold first launch: 11 cycles / inst
    table.add("k", m1)
    assert table.find("k", a) is None  # one measurement: measure again
    m2 = Measured(a, {"gpu_sim_cycle": 1000}, 0.0)
    table.add("k", m2)
    assert table.find("k", a) is None  # 10 vs 11 cycles per instruction: 10 % apart
    m3 = Measured(a, {"gpu_sim_cycle": 1020}, 0.0)
    table.add("k", m3)
    near = Profile(np.array([10, 21, 72]), 103)  # distance max(3/100, 3/100)
    far = Profile(np.array([10, 20, 80]), 100)
    assert table.find("k", near) == (m3, pytest.approx(0.03), pytest.approx(20 / 1020))
    assert table.find("k", far) is None and table.find("other", a) is None
    assert Profile(np.array([1, 2]), 1).distance(a) == float("inf")
    for c in (1200, 1300, 1400, 1500, 1600):  # a class that never settles: 8 measured ...
        table.add("k", Measured(a, {"gpu_sim_cycle": c}, 0.0))
    last = table.find("k", a)  # ... then the latest is reused with its spread as error
    assert last is not None and last[0].stats["gpu_sim_cycle"] == 1600
    assert last[2] == pytest.approx(100 / 1600)
