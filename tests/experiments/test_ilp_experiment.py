"""The ILP reproduction's bookkeeping with stand-in runners (no simulation): speedups over the
TLP core and over BP+SC, GPU-H against GPU-T / GPU-I, weighted speedups of a pair and the
issue's JSON keys, from hand-picked cycle counts."""

from __future__ import annotations

import json

import pytest

from warpsim.experiments.ilp import run_experiment
from warpsim.experiments.ilp_runs import CORES
from warpsim.experiments.wm_runs import BenchSel
from warpsim.runner.reproduce import list_reproductions

# cycles per benchmark and configuration (the overrides identify it)
CYCLES = {"lo": {"tlp": 1200, "bp": 1100, "sc": 1000, "bp_sc": 960, "bp_sc_static": 800,
                 "bp_sc_gshare": 750, "bp_sc_perfect": 700, "GPU-I": 900, "GPU-H": 1000},
          "hi": {"tlp": 1000, "bp": 1000, "sc": 1000, "bp_sc": 1000, "bp_sc_static": 1000,
                 "bp_sc_gshare": 1000, "bp_sc_perfect": 1000, "GPU-I": 1250, "GPU-H": 1000}}
CYCLES["lo"]["GPU-I-sm"] = 1000
TB0 = {"tb0_warp_insts": 1000, "tb0_branches": 137, "tb0_branch_stalls": 79,
       "cta_max_warp_insts": 1000}


def _which(overrides):
    if any(o.startswith("sm_kinds.n_sms") for o in overrides):
        return "GPU-H"
    if "sm.n_sms=9" in overrides:
        return "GPU-I"
    if "sm.n_registers=16384" in overrides:  # iso-SM-count GPU-I: 10 ILP SMs, half the file
        assert "sm.n_sms=10" in overrides and "ilp.scoreboard_entries=8" in overrides
        return "GPU-I-sm"
    rest = [o for o in overrides if not o.startswith("sm.n_sms")]
    return next(c for c, ov in CORES.items() if ov == rest)


def _fake(sel, overrides):
    c = CYCLES[sel.name][_which(overrides)]
    return {"bench": sel.name, "verified": True, "cycles": c, "insn": 10_000,
            "ipc": 10_000 / c, "energy_j": c * 1e-6, "launches": 1,
            "warps_per_sm": 8 if sel.name == "lo" else 48,
            "threads": 10**6, "route": "ilp" if sel.name == "lo" else "tlp",
            "stalls": {}, "branches": 5, "cond_branches": 4, "divergent_branches": 1,
            "bp_predictions": 3, "bp_accuracy": 2 / 3, "sb_fallback_issues": 0, "tb0": TB0}


PAIR_CALLS = []


def _fake_pair(a, b, gpu, sets):
    iso_sm = bool(gpu.ilp_registers)
    PAIR_CALLS.append((gpu.name, iso_sm, gpu.n_tlp, gpu.n_ilp, sets))
    ipc = {"GPU-T": (4.0, 8.0), "GPU-I": (6.0, 6.0), "GPU-H": (6.0, 8.0)}[gpu.name]
    energy = {"GPU-T": [2.0, 3.0], "GPU-I": [1.0, 3.0], "GPU-H": [1.0, 2.5]}[gpu.name]
    if iso_sm:
        ipc = {"GPU-I": (6.0, 7.0), "GPU-H": (6.0, 8.0)}[gpu.name]
        energy = {"GPU-I": [1.0, 3.5], "GPU-H": [1.0, 3.0]}[gpu.name]
    return {"gpu": gpu.name, "pair": [a.name, b.name], "verified": True, "ipc": list(ipc),
            "window_cycles": 100, "energy_j": energy}


def test_summary_from_hand_picked_runs(tmp_path):
    PAIR_CALLS.clear()
    s = run_experiment((BenchSel("lo", "tiny", (), "NQU"), BenchSel("hi", "tiny", (), "MM")),
                       tmp_path, pairs=(("lo", "hi"),), runner=_fake, pair_runner=_fake_pair)
    # bypass: lo 1200/1100, hi 1 -> GM sqrt(12/11) - 1
    assert s["speedup_bypass"] == pytest.approx((1200 / 1100) ** 0.5 - 1)
    assert s["speedup_scoreboard"] == pytest.approx(1.2 ** 0.5 - 1)
    assert s["speedup_bypass_scoreboard"] == pytest.approx(1.25 ** 0.5 - 1)
    # over BP+SC: lo 960/800 = 1.2
    assert s["per_benchmark"]["lo"]["speedup_branch_static"] == pytest.approx(0.2)
    assert s["speedup_branch_gshare"] == pytest.approx((960 / 750) ** 0.5 - 1)
    assert s["branch_prediction_accuracy_static"] == pytest.approx(2 / 3)
    # GPU-H vs GPU-T: lo 1200/1000, hi 1.0; vs GPU-I: lo 0.9, hi 1.25
    assert s["gpu_h_speedup_single_kernel"] == pytest.approx(1.2 ** 0.5 - 1)
    assert s["gpu_h_vs_gpu_i_single_kernel"] == pytest.approx((0.9 * 1.25) ** 0.5 - 1)
    # references: lo alone on GPU-I 10000/900, hi alone on GPU-T 10
    r1, r2 = 10_000 / 900, 10.0
    ws = s["concurrent"][0]["weighted_speedup"]
    assert ws["GPU-H"] == pytest.approx(0.5 * (6 / r1 + 8 / r2))
    assert s["gpu_h_speedup_concurrent"]["vs_gpu_t"] == pytest.approx(
        ws["GPU-H"] / ws["GPU-T"] - 1)
    assert s["gpus"] == {"GPU-T": [10, 0, 118.23], "GPU-I": [0, 9, 116.676],
                         "GPU-H": [5, 4, 110.971]}
    for k in ("speedup_bypass", "speedup_scoreboard", "speedup_bypass_scoreboard",
              "branch_prediction_accuracy_static", "gpu_h_speedup_single_kernel",
              "gpu_h_speedup_concurrent", "per_benchmark"):
        assert k in s
    assert set(s["targets"]) == {f"C-R{i}" for i in range(1, 14)}
    # C-R7 from lo's (NQU's) TLP-core run: 137 branches in 1000 warp instructions, 79 stalled
    assert s["targets"]["C-R7"]["ours"] == pytest.approx(
        {"branch_frac": 0.137, "no_hazard_frac": 58 / 137, "stall_frac": 79 / 137,
         "dominant": True})
    # C-R12 energy: GPU-H 3.5 J against GPU-I 4 J and GPU-T 5 J
    assert s["gpu_h_energy_concurrent"] == pytest.approx({"vs_gpu_i": 3.5 / 4 - 1,
                                                          "vs_gpu_t": 3.5 / 5 - 1})
    # C-R13: iso-SM GPU-I = 10 ILP SMs (5 + 5 for the pair), GPU-H 5 ILP + 5 TLP; GPU-T's pair
    # run is the iso-area one (not run again); kernel 1's reference alone on iso-SM GPU-I:
    # 10000 / 1000
    assert [c[:4] for c in PAIR_CALLS] == [("GPU-T", False, 10, 0), ("GPU-I", False, 0, 9),
                                           ("GPU-H", False, 5, 4), ("GPU-I", True, 0, 10),
                                           ("GPU-H", True, 5, 5)]
    assert PAIR_CALLS[3][4] == (range(0, 5), range(5, 10))
    r1 = 10.0
    ws_t, ws_i, ws_h = (0.5 * (a / r1 + b / r2) for a, b in ((4, 8), (6, 7), (6, 8)))
    assert s["gpu_h_speedup_concurrent_iso_sm"] == pytest.approx(
        {"vs_gpu_i": ws_h / ws_i - 1, "vs_gpu_t": ws_h / ws_t - 1})
    assert s["gpu_h_energy_concurrent_iso_sm"] == pytest.approx({"vs_gpu_i": 4 / 4.5 - 1,
                                                                 "vs_gpu_t": 4 / 5 - 1})
    assert s["gpus_iso_sm"]["GPU-I"] == {"tlp_sms": 0, "ilp_sms": 10, "tlp_registers": 32768,
                                         "ilp_registers": 16384}
    assert json.loads((tmp_path / "summary.json").read_text())["speedup_bypass"] == (
        pytest.approx(s["speedup_bypass"]))


def test_ilp_is_a_registered_reproduction():
    assert "ilp" in {r.name for r in list_reproductions()}


def _sweep_fake(sel, overrides):
    """Cycles from the overrides: 1000 x 32k / registers, BP+SC 2 % faster per scoreboard
    entry up to 8."""
    def val(prefix, default):
        return next((float(o.split("=")[1]) for o in overrides if o.startswith(prefix)),
                    default)

    cycles = 1000 * 32768 / val("sm.n_registers=", 32768)
    if "ilp.bypass=true" in overrides:
        cycles /= 1 + 0.02 * min(val("ilp.scoreboard_entries=", 0), 8)
    return {"cycles": cycles}


def test_sweeps_of_scoreboard_clocks_and_register_file():
    from warpsim.experiments.ilp import _sweeps

    sw = _sweeps((BenchSel("a", "tiny"), BenchSel("b", "tiny")), _sweep_fake)
    assert sw["scoreboard"] == pytest.approx({"2": 0.04, "4": 0.08, "8": 0.16, "16": 0.16})
    assert sw["clocks"] == pytest.approx({"core_325": 0.16, "core_650": 0.16,
                                          "core_1300": 0.16, "dram_x0.5": 0.16,
                                          "dram_x2.0": 0.16})
    assert sw["register_file"] == pytest.approx({"8192": 0.16, "16384": 0.16, "32768": 0.16})
    # TLP at 16k: 2000 cycles; BP+SC at 8k: 4000 / 1.16
    assert sw["ilp_8k_vs_tlp_16k"] == pytest.approx(2000 / (4000 / 1.16) - 1)


def test_pair_energy_charges_each_kernels_sms_and_their_register_file():
    # iso-SM GPU-H on the GTX480 preset: SMs 0-4 ILP (16k registers = 16 banks of 4 KB),
    # 5-9 TLP (32k = 32 banks). 700 cycles at 700 MHz = 1 us, every SM idle, no events:
    # chip 11 W + 5 idle SMs x 1.59 W + 5 x banks x 3.26 mW (GPUWattch table), for 1 us
    from warpsim.arch import apply_overrides, resolve_config
    from warpsim.errors import ConfigError
    from warpsim.experiments.ilp_runs import run_energy_j
    from warpsim.mechanisms.ilp.gpus import iso_sm_count

    h = iso_sm_count(10, 32768)[2]
    cfg = apply_overrides(resolve_config("gtx480"), dict(o.split("=", 1) for o in h.overrides()))
    idle = {"sm_active_cycles": 0}
    for sms, banks in ((range(0, 5), 16), (range(5, 10), 32)):
        want = (11.0 + 5 * 1.59 + 5 * banks * 3.26e-3) * 1e-6
        assert run_energy_j(idle, 700, cfg, list(sms)) == pytest.approx(want, rel=1e-12)
    with pytest.raises(ConfigError):
        run_energy_j(idle, 700, cfg, [4, 5])


def test_gpu_h_kinds_follow_the_routing_rule():
    from warpsim.experiments.ilp import gpu_h_kinds

    assert gpu_h_kinds(("ilp", "tlp")) == (0, 1)
    assert gpu_h_kinds(("tlp", "ilp")) == (1, 0)
    # both to one kind: the pair's order decides (kernel 1 on the ILP SMs)
    assert gpu_h_kinds(("ilp", "ilp")) == (0, 1)
    assert gpu_h_kinds(("tlp", "tlp")) == (0, 1)


def test_full_pairs_are_the_dissertations_mixes_we_have():
    from warpsim.bench import get_benchmark
    from warpsim.experiments.ilp_runs import BENCH_FULL, PAIRS_FULL, PAIRS_QUICK
    from warpsim.mechanisms.ilp.gpus import THREADS_LIMIT

    assert PAIRS_QUICK == (("nqueens", "matrix_mul"),)
    assert set(PAIRS_FULL) == {("nqueens", b) for b in ("matrix_mul", "dxtc", "matvec")}
    paper = {s.name: s.paper for s in BENCH_FULL}
    assert {paper[a] for a, _ in PAIRS_FULL} == {"NQU"}
    assert {paper[b] for _, b in PAIRS_FULL} == {"MM", "DT", "MV"}
    assert all(len(get_benchmark(n).kernels) == 1 for p in PAIRS_FULL for n in p)
    # MV small: one thread per row, more threads than GPU-H sends to its ILP SMs
    assert get_benchmark("matvec").sizes["small"]["rows"] > THREADS_LIMIT


def test_pair_routed_the_other_way_swaps_gpu_h_kinds_and_reuses_the_reference(tmp_path):
    calls = []

    def swapped(sel, overrides):
        calls.append((sel.name, _which(overrides)))
        return {**_fake(sel, overrides), "route": "tlp" if sel.name == "lo" else "ilp"}

    PAIR_CALLS.clear()
    s = run_experiment((BenchSel("lo", "tiny", (), "NQU"), BenchSel("hi", "tiny", (), "MM")),
                       tmp_path, cores=("tlp",), pairs=(("lo", "hi"), ("lo", "hi")),
                       runner=swapped, pair_runner=_fake_pair)
    assert [c[4] for c in PAIR_CALLS if c[0] == "GPU-H"] == [(1, 0)] * 4
    assert s["concurrent"][0]["routes"] == ["tlp", "ilp"]
    assert s["concurrent_iso_sm"][1]["gpu_h_kinds"] == [1, 0]
    # kernel 1's reference alone on the iso-SM GPU-I runs once for both pairs
    assert calls.count(("lo", "GPU-I-sm")) == 1
