"""``warpsim energy-share --from``: saved records re-evaluated without simulating."""

from __future__ import annotations

import json

import pytest

from warpsim.cli import main
from warpsim.report.rf_share import load_records, rf_share_from_records, save_records


def _records() -> list[dict]:
    # 700 cycles at 700 MHz on gtx480 (1 us): 100 warp-register reads (800 granules).
    stats = {"gpu_sim_cycle": 700, "gpu_ipc": 1.0, "regfile_bank_reads": 100,
             "exec_int32_warp_insts": 10}
    activity = {"gpuwattch_sp_acc": 800.0, "gpuwattch_non_rf_operands": 0.0}
    return [{"benchmark": "micro", "size": "small", "config": "gtx480", "verified": True,
             "launches": 1, "stats": stats, "activity": activity},
            {"benchmark": "broken", "size": "small", "config": "gtx480",
             "error": "LaunchError: x"}]


def test_records_round_trip_and_evaluate(tmp_path):
    path = tmp_path / "rec.jsonl"
    save_records(_records(), path)
    rows, summary, failed = rf_share_from_records(load_records(path))
    assert [r["benchmark"] for r in rows] == ["micro"] and failed[0]["benchmark"] == "broken"
    # RF 800 granules x 29.08 pJ; ALU 800 SP_ACC units x 2.696 pJ; scheduler falls back to
    # exec_int32_warp_insts x 54.9 pJ (gpuwattch_fp_int_insts absent)
    rf, alu, sched = 800 * 29.08, 800 * 67.4 / 25, 10 * 54.9
    assert rows[0]["rf_dyn_frac"] == pytest.approx(rf / (rf + alu + sched))
    assert summary["n"] == 1


def test_cli_from_file_prints_json(tmp_path, capsys):
    path = tmp_path / "rec.jsonl"
    save_records(_records(), path)
    rc = main(["energy-share", "--from", str(path), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert rc == 1  # one record failed
    assert out["rows"][0]["benchmark"] == "micro"
    assert out["failed"] == [{"benchmark": "broken", "error": "LaunchError: x"}]
