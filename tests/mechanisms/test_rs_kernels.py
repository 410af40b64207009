"""Register Sharing on real benchmark kernels (C2050 preset, tiny inputs): with the mechanism
off every statistic is the baseline's; on, but with no extra block that fits (Set-2-like),
LRR and GTO runs are cycle-identical to the unshared ones (spec §3.10, §9.4); t = 1 with OWF
is oldest-first (spec §9.4); with sharing engaged the results still verify, every lock is
released, and runs are deterministic with idle skipping on and off."""

from __future__ import annotations

import warpsim
from warpsim.bench import run_benchmark
from warpsim.mechanisms.registry import mechanism_for
from warpsim.timing.driver import TimingSimulator

ON = ["register_sharing.enabled=true"]
ALL_OPTS = ["register_sharing.unroll_reorder=true", "register_sharing.dwe=true"]


def _run(overrides, bench, size="tiny", *, skip_idle=True):
    gpu = warpsim.Device(config="c2050", overrides=overrides)
    if not skip_idle:
        mech = mechanism_for(gpu.gpu_config)
        gpu._timing_sim = TimingSimulator(gpu.gpu_config, mechanism=mech,
                                          skip_idle_cycles=False)
    r = run_benchmark(bench, size, device=gpu)
    assert r.verified, r.mismatches
    return gpu


def _same(a, b):
    """Statistics dicts equal, NaN (a ratio of zero events) equal to NaN."""
    return a.keys() == b.keys() and all(
        a[k] == b[k] or (isinstance(a[k], float) and a[k] != a[k] and b[k] != b[k]) for k in a)


def _base(stats):
    return {k: v for k, v in stats.items() if not k.startswith("rs_")}


def test_mechanism_off_is_the_baseline_counter_for_counter():
    off = ["register_sharing.threshold_frac=0.3", "register_sharing.owf=true",
           "register_sharing.owf_greedy=true", "register_sharing.dwe_window_cycles=50",
           "register_sharing.n_rng_seed=9", *ALL_OPTS]
    a = _run(["sm.n_sms=2", *off], "hotspot").stats
    b = _run(["sm.n_sms=2"], "hotspot").stats
    assert _same(a, b)
    assert not any(k.startswith("rs_") for k in a)


def test_no_extra_block_means_identical_to_unshared_lrr_and_gto():
    # vector_add: 12 registers, 256 threads: thread-limited (6 blocks), so M = baseline
    for policy in ("lrr", "gto"):
        base = _run([f"sm.sched_policy={policy}", "sm.n_sms=2"], "vector_add").stats
        rs = _run([*ON, *ALL_OPTS, f"sm.sched_policy={policy}", "sm.n_sms=2"],
                  "vector_add").stats
        assert rs["rs_sharing_mode"] == 0 and rs["rs_lock_acquisitions"] == 0
        assert _same(_base(rs), base), policy


def test_t1_owf_is_oldest_first():
    # hotspot shares at t = 0.1; at t = 1 no pair forms and OWF orders by dynamic warp id
    owf = _run([*ON, "register_sharing.threshold_frac=1.0", "register_sharing.owf=true",
                "sm.n_sms=1"], "hotspot").stats
    old = _run(["sm.sched_policy=oldest", "sm.n_sms=1"], "hotspot").stats
    assert owf["rs_sharing_mode"] == 0
    assert _same(_base(owf), old)


def test_sharing_engaged_verifies_releases_every_lock_and_is_deterministic():
    over = [*ON, *ALL_OPTS, "register_sharing.owf=true", "sm.n_sms=2",
            "register_sharing.dwe_window_cycles=50"]
    gpu = _run(over, "hotspot")
    s = gpu.stats
    res = gpu.last_launch.stats
    assert res["rs_sharing_mode"] == 1 and res["rs_blocks_per_sm"] > res[
        "rs_baseline_blocks_per_sm"]
    assert s["rs_lock_acquisitions"] > 0 and s["rs_locks_held_at_end"] == 0
    assert s["rs_dwe_windows"] > 0
    mech = gpu._timing_sim.mechanism
    assert mech.dwe_trace.shape == (res["rs_dwe_windows"], 2)
    assert (mech.dwe_trace[:, 0] == 0).all()  # SM 0 is the reference: P = 0
    base = _run(["sm.n_sms=2"], "hotspot").stats
    assert s["gpu_sim_insn"] == base["gpu_sim_insn"]
    assert s["gpu_sim_cycle"] != base["gpu_sim_cycle"]
    again = _run(over, "hotspot").stats
    assert _same(again, s)
    assert _same(_run(over, "hotspot", skip_idle=False).stats, s)
