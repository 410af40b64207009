"""Per-kernel statistics: GPGPU-Sim's per-kernel dump and a per-kernel summary table.

Follows: GPGPU-Sim 4.2's output after each kernel (``kernel_name``, ``kernel_launch_uid``,
``gpu_sim_cycle`` and ``gpu_sim_insn`` of that launch, ``gpu_tot_sim_cycle`` /
``gpu_tot_sim_insn`` summed over the launches so far, then the cache and DRAM counters), so a
user comparing with GPGPU-Sim logs reads the same names. Each launch is a dict as ``warpsim
run`` records it in ``per_launch`` (``kernel``, ``grid``, ``block``, ``stats``).
"""

from __future__ import annotations

from typing import Any

__all__ = ["SUMMARY_ROWS", "format_launches", "format_per_kernel", "per_kernel"]

SUMMARY_ROWS: tuple[tuple[str, str], ...] = (
    ("gpu_sim_cycle", "d"), ("gpu_sim_insn", "d"), ("gpu_ipc", ".4f"),
    ("gpgpu_n_tot_w_icount", "d"), ("gpu_warp_ipc", ".4f"), ("sm_avg_active_warps", ".2f"),
    ("sched_issue_frac", ".4f"), ("L1D_total_cache_accesses", "d"),
    ("L1D_total_cache_misses", "d"), ("L1D_total_cache_miss_rate", ".4f"),
    ("L2_total_cache_accesses", "d"), ("L2_total_cache_misses", "d"),
    ("L2_total_cache_miss_rate", ".4f"), ("dram_reads", "d"), ("dram_writes", "d"),
    ("regfile_bank_reads", "d"), ("regfile_bank_writes", "d"),
    ("regfile_bank_conflict_stalls", "d"), ("regfile_write_conflict_stalls", "d"),
    ("regfile_bank_conflict_frac", ".4f"), ("gpgpu_n_shmem_bkconflict", "d"),
    ("simt_divergence_frac", ".4f"),
)
"""Counters of the text summaries, in GPGPU-Sim's order, with formats."""


def _row(key: str, value: Any, fmt: str) -> str:
    text = "n/a" if value is None else format(value, fmt)
    return f"{key:<32} = {text}"


def format_launches(launches: list[dict[str, Any]]) -> str:
    """GPGPU-Sim's per-kernel dump, one block per launch, with the running totals."""
    blocks = []
    tot_cycle = tot_insn = 0
    for uid, launch in enumerate(launches, start=1):
        s = launch["stats"]
        tot_cycle += int(s.get("gpu_sim_cycle", 0))
        tot_insn += int(s.get("gpu_sim_insn", 0))
        lines = [f"{'kernel_name':<32} = {launch['kernel']}",
                 f"{'kernel_launch_uid':<32} = {uid}",
                 f"{'gridDim':<32} = ({', '.join(map(str, launch['grid']))})",
                 f"{'blockDim':<32} = ({', '.join(map(str, launch['block']))})"]
        lines += [_row(key, s.get(key), fmt) for key, fmt in SUMMARY_ROWS[:3]]
        lines += [_row("gpu_tot_sim_cycle", tot_cycle, "d"),
                  _row("gpu_tot_sim_insn", tot_insn, "d"),
                  _row("gpu_tot_ipc", tot_insn / tot_cycle if tot_cycle else None, ".4f")]
        lines += [_row(key, s.get(key), fmt) for key, fmt in SUMMARY_ROWS[3:]]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def per_kernel(launches: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per kernel name, in order of first launch: ``kernel``, ``launches``,
    ``cycles`` and ``insn`` summed over its launches, ``ipc`` of the sum."""
    rows: dict[str, dict[str, Any]] = {}
    for launch in launches:
        s = launch["stats"]
        r = rows.setdefault(launch["kernel"], {"kernel": launch["kernel"], "launches": 0,
                                               "cycles": 0, "insn": 0})
        r["launches"] += 1
        r["cycles"] += int(s.get("gpu_sim_cycle", 0))
        r["insn"] += int(s.get("gpu_sim_insn", 0))
    for r in rows.values():
        r["ipc"] = r["insn"] / r["cycles"] if r["cycles"] else 0.0
    return list(rows.values())


def format_per_kernel(launches: list[dict[str, Any]]) -> str:
    """The per-kernel table: kernel, launches, cycles, thread instructions, IPC."""
    rows = per_kernel(launches)
    width = max([len("kernel"), *(len(r["kernel"]) for r in rows)])
    lines = [f"{'kernel':<{width}}  launches      cycles  thread insts      IPC"]
    lines += [f"{r['kernel']:<{width}}  {r['launches']:>8}  {r['cycles']:>10}  "
              f"{r['insn']:>12}  {r['ipc']:>7.2f}" for r in rows]
    return "\n".join(lines)
