"""The WIR reproduction's bookkeeping with a stand-in runner (no simulation): the JSON keys the
issue asks for, fractions of the Base instruction count, energy savings and geometric-mean
speedups from hand-picked numbers, the registered reproduction."""

from __future__ import annotations

import json

import pytest

from warpsim.experiments.wir import run_experiment
from warpsim.experiments.wir_runs import BenchSel, sm_energy_j
from warpsim.runner.reproduce import list_reproductions

CYCLES = {"a": {"base": 1000, "R": 1000, "RLP": 800, "RLPV": 500, "RPV": 1000},
          "b": {"base": 900, "R": 900, "RLP": 900, "RLPV": 1000, "RPV": 900}}


def _fake(sel, design, extra=()):
    c = CYCLES[sel.name].get(design, 1000)
    out = {"bench": sel.name, "design": design, "verified": True, "cycles": c,
           "warp_insts": 1000, "l1d_accesses": 100, "l1d_misses": 50,
           "regfile_bank_reads": 2000, "regfile_bank_writes": 1000, "bank_conflict_stalls": 0,
           "energy_j": c * 1e-3, "sm_energy_j": c * 5e-4, "exec_ldst_warp_insts": 100,
           "energy_by_counter_j": {"regfile_granule_reads": 0.08, "regfile_granule_writes": 0.08,
                                   "gpuwattch_sp_acc": 0.04, "gpuwattch_fpu_acc": 0.0}}
    if design == "base":
        out["affine_shares"] = {"read": 0.5, "write": 0.5, "int_lanes_saved": 0.5,
                                "fp_lanes_saved": 0.0}
    if design != "base":
        hits = {"RLPV": 200, "RLP": 200, "RL": 160, "NoVSB": 10}.get(design, 100)
        if "wir.rb_entries=512" in extra:
            hits = 250
        out.update({"wir_rb_hits": hits, "wir_vsb_lookups": 100,
                    "wir_rb_pending_hits": 20, "wir_dummy_movs": 10,
                    "wir_executed_insts": 800, "wir_vsb_verified": 30, "wir_reg_writes": 70,
                    "wir_prof_insts": 1000, "wir_prof_repeated": 300,
                    "wir_prof_repeated_alt": 400, "wir_prof_repeated_gt10": 100,
                    "wir_peak_regs_in_use": 64})
    return out


def test_summary_keys_and_values_from_hand_picked_runs(tmp_path):
    s = run_experiment((BenchSel("a", "tiny"), BenchSel("b", "tiny")), tmp_path,
                       runner=_fake)
    for key in ("repeated_computation_fraction", "reused_instruction_fraction",
                "sm_energy_saving", "gpu_energy_saving", "dummy_mov_fraction",
                "speedup_geomean", "per_benchmark"):
        assert key in s
    assert s["repeated_computation_fraction"] == pytest.approx(0.3)
    assert s["repeated_gt10_fraction"] == pytest.approx(0.1)
    assert s["reused_instruction_fraction"] == pytest.approx(0.2)   # 200 of 1000
    assert s["dummy_mov_fraction"] == pytest.approx(0.01)
    # RLPV speedups: a 1000/500 = 2, b 900/1000 = 0.9 -> sqrt(1.8)
    assert s["speedup_geomean"] == pytest.approx(1.8 ** 0.5)
    # energy ~ cycles: saving a 0.5, b -1/9 -> mean
    assert s["gpu_energy_saving"] == pytest.approx((0.5 - 1 / 9) / 2)
    assert s["per_benchmark"]["a"]["RLPV"]["verified_write_fraction"] == pytest.approx(0.3)
    assert s["per_benchmark"]["a"]["RLPV"]["backend_executed_fraction"] == pytest.approx(0.81)
    assert json.loads((tmp_path / "summary.json").read_text())["speedup_geomean"] == \
        pytest.approx(s["speedup_geomean"])


def test_affine_gpus_from_hand_picked_shares(tmp_path):
    s = run_experiment((BenchSel("a", "tiny"), BenchSel("b", "tiny")), tmp_path,
                       runner=_fake)
    # saving on either run: 7/8 * (0.08 * 0.5 + 0.08 * 0.5) + 0.04 * 0.5 = 0.09 J
    # Affine: a 0.09 / 0.5, b 0.09 / 0.45; Affine+RLPV: a 1 - (0.25 - 0.09) / 0.5,
    # b 1 - (0.5 - 0.09) / 0.45
    assert s["sm_energy_saving_affine"] == pytest.approx((0.18 + 0.2) / 2)
    assert s["sm_energy_saving_affine_rlpv"] == pytest.approx((0.68 + 1 - 0.41 / 0.45) / 2)
    t = s["targets"]["12_sm_energy_rlpv"]
    assert t["paper_affine"] == 0.136 and t["ours_affine"] == s["sm_energy_saving_affine"]


def test_sm_energy_leaves_out_the_memory_side():
    comp = {"regfile": 1.0, "alu": 2.0, "l2": 10.0, "dram": 20.0, "noc": 5.0, "l1d": 0.5}
    assert sm_energy_j(comp) == pytest.approx(3.5)


def test_registered():
    assert "wir" in {r.name for r in list_reproductions()}


def test_full_designs_and_sweeps_give_every_target(tmp_path):
    from warpsim.experiments.wir import FULL_DESIGNS, SWEEPS

    s = run_experiment((BenchSel("a", "tiny"),), tmp_path, designs=FULL_DESIGNS, sweeps=True,
                       runner=_fake)
    t = s["targets"]
    assert t["5_pending_retry_gain"]["ours"] == pytest.approx(200 / 160 - 1)
    assert t["7_novsb_reused"]["ours"] == pytest.approx(0.01)
    assert t["4_reused_rb512"]["ours"] == pytest.approx(0.25)
    assert set(s["sweeps"]) == set(SWEEPS)
    assert set(t["21_delay"]["ours"]) == {"3", "4", "5", "6", "7"}
