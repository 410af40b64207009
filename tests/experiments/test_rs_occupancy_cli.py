"""``warpsim occupancy`` (issue #9): baseline and Register-Sharing blocks per SM and their
limits, as text and JSON, checked against the paper's Table 5 / Fig. 8 values
(specs/register-sharing.md §8.2, §8.6)."""

from __future__ import annotations

import json

from warpsim.cli import main


def _json(capsys, *argv: str) -> dict:
    assert main(["occupancy", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_hotspot_json(capsys):
    rep = _json(capsys, "--config", "c2050", "--regs", "36", "--threads", "256")
    assert {k: rep[k] for k in ("baseline_blocks", "blocks", "shared_pairs", "unshared_blocks",
                                "limit", "baseline_limit")} == {
        "baseline_blocks": 3, "blocks": 6, "shared_pairs": 3, "unshared_blocks": 0,
        "limit": "threads", "baseline_limit": "registers"}
    assert rep["threshold_fraction"] == "1/10" and rep["unused_registers"] == 5120


def test_threshold_sweep_matches_table5_lib(capsys):
    # LIB (192 threads, 36 registers): 4, 4, 5 (1,3), 5 (1,3), 6 (2,2), 8 (4,0)
    got = []
    for t in ("1.0", "0.9", "0.7", "0.5", "0.3", "0.1"):
        rep = _json(capsys, "--regs", "36", "--threads", "192", "--sharing-threshold", t)
        got.append((rep["blocks"], rep["shared_pairs"], rep["unshared_blocks"]))
    assert got == [(4, 0, 4), (4, 0, 4), (5, 1, 3), (5, 1, 3), (6, 2, 2), (8, 4, 0)]


def test_shared_memory_and_overrides(capsys):
    rep = _json(capsys, "--regs", "40", "--threads", "128", "--smem", "12288")
    assert (rep["baseline_blocks"], rep["blocks"], rep["limit"]) == (4, 4, "shared_memory")
    assert not rep["sharing_mode"]
    rep = _json(capsys, "--regs", "36", "--threads", "256", "-o", "sm.n_registers=65536",
                "-o", "sm.n_max_regs_per_cta=65536")
    assert rep["baseline_blocks"] == 6  # Fig. 13's 64K-register hotspot


def test_text_output_and_errors(capsys):
    assert main(["occupancy", "--regs", "28", "--threads", "512"]) == 0
    out = capsys.readouterr().out
    assert "baseline: 2 blocks/SM (32 warps), limited by registers" in out
    assert "3 blocks/SM (48 warps) = 1 shared pairs + 1 unshared blocks" in out
    assert main(["occupancy", "--regs", "20", "--threads", "256"]) == 0
    assert "no extra block fits (limited by threads)" in capsys.readouterr().out
    assert main(["occupancy", "--regs", "24", "--threads", "256",
                 "--sharing-threshold", "0"]) == 2
    assert "--sharing-threshold" in capsys.readouterr().err
    assert main(["occupancy", "--regs", "63", "--threads", "1024"]) == 2
    assert "does not fit" in capsys.readouterr().err
