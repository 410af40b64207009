"""Quick reproductions on a scaled-down GPU (warpsim.arch.scaled, experiments.quick_runs) and
the resident-warps report of ``warpsim reproduce`` (issue 17), on stand-in jobs."""

from __future__ import annotations

import dataclasses
import json

import pytest

from warpsim.arch import resolve_config
from warpsim.arch.scaled import scaled_overrides
from warpsim.errors import ConfigError
from warpsim.experiments.quick_runs import WC_QUICK_SIZES, quick_gpu_overrides
from warpsim.runner.executors import InlineExecutor
from warpsim.runner.jobs import split_size


def test_gtx480_and_c2050_scale_to_the_same_sms_per_channel():
    # 15 SMs / 6 channels: gcd 3 -> 5 / 2; 14 / 6: gcd 2 -> 7 / 3
    assert scaled_overrides(resolve_config("gtx480")) == {"sm.n_sms": 5, "dram.n_channels": 2}
    assert scaled_overrides(resolve_config("c2050")) == {"sm.n_sms": 7, "dram.n_channels": 3}
    assert scaled_overrides(resolve_config("gtx480"), 1) == {"sm.n_sms": 15,
                                                             "dram.n_channels": 6}


def test_only_the_sm_and_channel_counts_change():
    full = resolve_config("gtx480", overrides={"regfile.n_banks": 4})
    over = quick_gpu_overrides("gtx480", {"regfile.n_banks": 4})
    small = resolve_config("gtx480", overrides=over)
    assert (small.sm.n_sms, small.dram.n_channels, small.regfile.n_banks) == (5, 2, 4)
    assert small.n_l2_slices == 4 == full.n_l2_slices // 3  # 2 slices per channel, as before
    back = dataclasses.replace(small, sm=dataclasses.replace(small.sm, n_sms=15),
                               dram=dataclasses.replace(small.dram, n_channels=6))
    assert back.to_dict() == full.to_dict()  # every other field, latencies and clocks too


def test_a_factor_that_does_not_divide_both_counts_is_refused():
    with pytest.raises(ConfigError, match="divisor"):
        scaled_overrides(resolve_config("gtx480"), 2)          # 15 SMs
    with pytest.raises(ConfigError, match="divisor"):
        scaled_overrides(resolve_config("gtx480"), 5)          # 6 channels
    kinds = resolve_config("gtx480", overrides={"sm_kinds.n_sms": "9,6",
                                                "sm_kinds.n_registers": "32768,16384"})
    with pytest.raises(ConfigError, match="sm_kinds"):
        scaled_overrides(kinds)


def test_quick_sizes_name_real_sizes_and_parameters():
    from warpsim.bench import get_benchmark

    for bench, size in WC_QUICK_SIZES.items():
        name, params = split_size(size)
        spec = get_benchmark(bench)
        assert name in spec.sizes, (bench, size)
        assert set(params) <= set(spec.sizes[name]), (bench, params)


def _stand_in(seen):
    def simulate(job):
        seen.append(job)
        # one SM-cycle in four idle; 6 warps resident on average
        stats = {"regfile_bank_reads": 100, "regfile_bank_writes": 50,
                 "gpgpu_n_tot_w_icount": 1000, "gpu_tot_sim_cycle": 1000,
                 "gpu_sim_cycle": 1000, "sm_active_cycles": 3750,
                 "sm_active_warp_cycles": 22500}
        if job.mechanisms:
            stats.update({"wc_warp_insts_nondiv": 10, "wc_warp_insts_div": 0,
                          "wc_bank_reads": 300, "wc_bank_writes": 200,
                          "wc_comp_activations": 50, "wc_decomp_activations": 40,
                          "wc_bank_cycles": 5 * 32 * 1000, "wc_gated_bank_cycles": 0})
        return {"stats": stats, "verified": True, "mode": "test"}
    return simulate


def test_wc_quick_runs_the_scaled_gpu_and_reports_resident_warps(tmp_path):
    from warpsim.experiments.warped_compression import run_reproduction

    seen = []
    s = run_reproduction(quick=True, out=tmp_path / "q", benchmarks=["aes", "bfs"],
                         variants=["base", "wc"], executor=InlineExecutor(),
                         simulate=_stand_in(seen))
    assert {j.size for j in seen if j.benchmark == "bfs"} == {WC_QUICK_SIZES["bfs"]}
    for job in seen:
        over = dict(job.overrides)
        assert (over["sm.n_sms"], over["dram.n_channels"], over["regfile.n_banks"]) == (5, 2, 4)
    row = s["per_benchmark"]["aes"]
    # 22500 warp-cycles / 3750 active SM-cycles; 3750 / (5 SMs x 1000 cycles)
    assert row["resident_warps"] == pytest.approx(6.0)
    assert row["max_warps_per_sm"] == 48 and row["n_sms"] == 5
    assert row["sm_busy_frac"] == pytest.approx(0.75)
    assert s["residency"]["bfs"]["resident_warps_frac"] == pytest.approx(6 / 48)
    assert s["sizes"] == {"aes": WC_QUICK_SIZES["aes"], "bfs": WC_QUICK_SIZES["bfs"]}
    assert json.loads((tmp_path / "q" / "summary.json").read_text())["residency"] == \
        s["residency"]


def test_reproduce_prints_the_residency_table(capsys):
    from warpsim.runner.cli import main
    from warpsim.runner.reproduce import register_reproduction, unregister_reproduction

    def fake(*, quick, out, jobs=None, dask=None):
        return {"quick": quick, "residency": {"aes": {
            "resident_warps": 6.0, "peak_resident_warps": 32, "max_warps_per_sm": 48,
            "resident_warps_frac": 0.125, "sms_with_cta": 5, "n_sms": 5,
            "sm_busy_frac": 0.75}}}

    register_reproduction("residency-table-test", fake, "test")
    try:
        assert main(["reproduce", "residency-table-test"]) == 0
        out = capsys.readouterr().out
        assert main(["reproduce", "residency-table-test", "--json"]) == 0
        js = json.loads(capsys.readouterr().out)
    finally:
        unregister_reproduction("residency-table-test")
    assert "resident warps/SM" in out
    assert out.splitlines()[-1].split() == ["aes", "6.0", "32", "48", "12%", "5/5", "75%"]
    assert js["residency"]["aes"]["resident_warps"] == 6.0
