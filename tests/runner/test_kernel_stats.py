"""The per-kernel dump and table (runner/kernel_stats.py) on hand-made launches: running
totals as GPGPU-Sim accumulates them (``gpu_tot_sim_cycle`` = the launches so far)."""

from __future__ import annotations

from warpsim.runner.kernel_stats import format_launches, format_per_kernel, per_kernel

LAUNCHES = [
    {"kernel": "scan", "grid": [4, 1, 1], "block": [128, 1, 1],
     "stats": {"gpu_sim_cycle": 1000, "gpu_sim_insn": 5000, "gpu_ipc": 5.0}},
    {"kernel": "add", "grid": [2, 1, 1], "block": [64, 1, 1],
     "stats": {"gpu_sim_cycle": 200, "gpu_sim_insn": 100, "gpu_ipc": 0.5}},
    {"kernel": "scan", "grid": [1, 1, 1], "block": [128, 1, 1],
     "stats": {"gpu_sim_cycle": 300, "gpu_sim_insn": 1000, "gpu_ipc": 1000 / 300}},
]


def _value(block: str, key: str) -> str:
    return next(line.split("=", 1)[1].strip() for line in block.splitlines()
                if line.split("=", 1)[0].strip() == key)


def test_dump_has_one_block_per_launch_with_running_totals():
    blocks = format_launches(LAUNCHES).split("\n\n")
    assert [_value(b, "kernel_name") for b in blocks] == ["scan", "add", "scan"]
    assert [_value(b, "kernel_launch_uid") for b in blocks] == ["1", "2", "3"]
    assert [_value(b, "gpu_tot_sim_cycle") for b in blocks] == ["1000", "1200", "1500"]
    assert [_value(b, "gpu_tot_sim_insn") for b in blocks] == ["5000", "5100", "6100"]
    assert _value(blocks[2], "gpu_tot_ipc") == f"{6100 / 1500:.4f}"
    assert _value(blocks[1], "gridDim") == "(2, 1, 1)"
    assert _value(blocks[1], "L2_total_cache_misses") == "n/a"  # absent counters say so


def test_per_kernel_sums_launches_of_each_kernel_in_first_launch_order():
    rows = per_kernel(LAUNCHES)
    assert [(r["kernel"], r["launches"], r["cycles"], r["insn"]) for r in rows] == [
        ("scan", 2, 1300, 6000), ("add", 1, 200, 100)]
    assert rows[0]["ipc"] == 6000 / 1300
    table = format_per_kernel(LAUNCHES).splitlines()
    assert table[1].split() == ["scan", "2", "1300", "6000", f"{6000 / 1300:.2f}"]
