"""Per-kernel result records of a program run under warpsim's libcudart (``--stats FILE``).

Follows: the record of ``warpsim run --json`` (``benchmark``, ``config``, ``overrides``,
``stats``, ``ctas_per_sm``, ``wall_s``, ``per_launch``, ``energy`` ...), one record per kernel
launch, written as JSON Lines. ``benchmark`` is the program's name; ``kernel``,
``launch_index``, ``grid``, ``block``, ``shared_bytes``, ``exit_status``, ``status`` (``"ok"``,
or ``"fault"`` for a launch that stopped on an error) and ``error_message`` are added.
:class:`RecordWriter` appends each launch's record as the launch completes, so a program that
faults or is killed keeps the records of what ran; when the program exits, its records are
rewritten with its exit status (``verified``, ``exit_status``; null until then).
Assumptions: [A] without a timing configuration ``stats`` holds the functional counts
(``gpu_sim_insn``, ``gpgpu_n_tot_w_icount``) and ``config`` is ``"functional"``;
[A] ``verified`` is the program's own verdict: exit status 0 (None when unknown).
"""

from __future__ import annotations

import json
import logging
import math
import os
import threading
import uuid
from pathlib import Path
from typing import Any

import numpy as np

_log = logging.getLogger(__name__)

__all__ = ["RecordWriter"]


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
    fault = launch.extra.get("fault")
    stats = dict(getattr(result, "stats", None) or {})
    if not stats and fault is None:
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
        "exit_status": exit_status, "status": "ok" if fault is None else "fault",
        "error_message": fault, "mismatches": [], "launches": 1,
        "grid": list(launch.grid), "block": list(launch.block),
        "shared_bytes": launch.shared_bytes,
        "launched_by": launch.extra.get("launched_by", "host"), "stats": stats,
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


class RecordWriter:
    """Appends one record per launch to ``path`` as each launch completes (thread-safe).

    Parameters
    ----------
    path
        The JSON Lines file (created when absent; earlier content is kept).
    spec
        The ``server.DeviceSpec`` the programs run with (its overrides are recorded).
    """

    def __init__(self, path: str | Path, spec: Any) -> None:
        self.path = Path(path)
        self.spec = spec
        self.written: list[tuple[Any, int, Any]] = []
        self._lock = threading.Lock()
        with open(self.path, "a"):  # the file exists from the start; earlier runs' lines kept
            pass
        self._start = self.path.stat().st_size

    def add(self, ctx: Any, index: int, launch: Any) -> None:
        """Append the record of launch ``index`` of ``ctx`` (exit status not yet known)."""
        line = json.dumps(_record(ctx, index, launch, self.spec, None), default=str) + "\n"
        with self._lock:
            self.written.append((ctx, index, launch))
            try:
                with open(self.path, "a") as f:
                    f.write(line)
            except OSError as err:  # kept in memory: finish() tries again
                _log.warning("cannot append to the records file %s: %s", self.path,
                             err.strerror or err)

    def finish(self, exit_status: int | None) -> int:
        """Rewrite this writer's records with the program's exit status (atomically: the
        file is replaced by a complete copy); returns how many records there are."""
        with self._lock:
            if exit_status is None or not self.written:
                return len(self.written)
            prefix = self.path.read_bytes()[:self._start]
            lines = [json.dumps(_record(ctx, i, launch, self.spec, exit_status), default=str)
                     + "\n" for ctx, i, launch in self.written]
            tmp = self.path.with_name(f".{self.path.name}.{uuid.uuid4().hex[:8]}.tmp")
            try:
                with open(tmp, "wb") as f:
                    f.write(prefix + "".join(lines).encode())
                    f.flush()
                    os.fsync(f.fileno())
                os.replace(tmp, self.path)
            finally:
                tmp.unlink(missing_ok=True)
            return len(self.written)
