"""Per-kernel result records of a program run under warpsim's libcudart (``--stats FILE``).

Follows: the record of ``warpsim run --json`` (``benchmark``, ``config``, ``overrides``,
``stats``, ``ctas_per_sm``, ``wall_s``, ``per_launch``, ``energy`` ...), one record per kernel
launch, written as JSON Lines. ``benchmark`` is the program's name; ``kernel``,
``launch_index``, ``grid``, ``block``, ``shared_bytes`` and ``exit_status`` are added.
Assumptions: [A] without a timing configuration ``stats`` holds the functional counts
(``gpu_sim_insn``, ``gpgpu_n_tot_w_icount``) and ``config`` is ``"functional"``;
[A] ``verified`` is the program's own verdict: exit status 0 (None when unknown).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["launch_records", "write_records"]


def _number(value: Any) -> Any:
    """A counter as a JSON value: ints stay ints, NaN/inf become None."""
    if isinstance(value, (bool, np.bool_, int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        v = float(value)
        return v if math.isfinite(v) else None
    return value


def _record(ctx: Any, index: int, launch: Any, spec: Any, exit_status: int | None
            ) -> dict[str, Any]:
    result = launch.result
    stats = dict(getattr(result, "stats", None) or {})
    if not stats:
        stats = {"gpu_sim_insn": int(getattr(result, "thread_instructions", 0)),
                 "gpgpu_n_tot_w_icount": int(getattr(result, "warp_instructions", 0))}
    stats = {k: _number(v) for k, v in stats.items()}
    timing = getattr(result, "timing", None)
    timing_s = float(getattr(timing, "wall_s", 0.0) or 0.0)
    compile_s = float(getattr(timing, "numba_compile_s", 0.0) or 0.0)
    ctas = int((getattr(timing, "occupancy", None) or {}).get("ctas_per_sm", 0))
    warp_insts = float(stats.get("gpgpu_n_tot_w_icount") or 0)
    wall_s = max(launch.wall_s - compile_s, 1e-9)
    cycles = int(stats.get("gpu_sim_cycle") or 0)
    cfg = ctx.device.gpu_config
    record: dict[str, Any] = {
        "benchmark": ctx.program, "kernel": launch.kernel, "launch_index": index,
        "config": cfg.name if cfg is not None else "functional",
        "overrides": list(spec.overrides),
        "gpgpusim_config": getattr(spec, "gpgpusim_config", None), "size": None,
        "verified": None if exit_status is None else exit_status == 0,
        "exit_status": exit_status, "mismatches": [], "launches": 1,
        "grid": list(launch.grid), "block": list(launch.block),
        "shared_bytes": launch.shared_bytes, "stats": stats,
        "ctas_per_sm": {launch.kernel: ctas}, "wall_s": round(wall_s, 4),
        "warp_inst_per_s": warp_insts / wall_s, "timing_wall_s": round(timing_s, 4),
        "timing_warp_inst_per_s": warp_insts / timing_s if timing_s > 0 else None,
        "numba_compile_s": round(compile_s, 3), "ptx_compile_s": 0.0,
        "per_launch": [{"kernel": launch.kernel, "cycles": cycles,
                        "warp_insts": int(warp_insts), "timing_wall_s": timing_s,
                        "numba_compile_s": compile_s, "ctas_per_sm": ctas}],
    }
    if cfg is not None and getattr(result, "stats", None):
        from warpsim.power import energy_for_gpu

        record["energy"] = energy_for_gpu(result.stats, cfg).to_dict()
    return record


def launch_records(contexts: list[Any], spec: Any, exit_status: int | None
                   ) -> list[dict[str, Any]]:
    """One record per launch of every context (program), in launch order."""
    out = []
    for ctx in contexts:
        for i, launch in enumerate(ctx.launches):
            out.append(_record(ctx, i, launch, spec, exit_status))
    return out


def write_records(path: str | Path, contexts: list[Any], spec: Any,
                  exit_status: int | None) -> int:
    """Append the records to ``path`` (JSON Lines); returns how many were written."""
    records = launch_records(contexts, spec, exit_status)
    with open(path, "a") as f:
        for rec in records:
            f.write(json.dumps(rec, default=str) + "\n")
    return len(records)
