"""The register-file share of GPU energy over the benchmark suite, run timed (issue #6).

Follows: docs/energy-model.md §8. Each benchmark runs on a timed ``warpsim.Device`` of the
chosen GPU preset (as ``warpsim run`` does); a launch observer adds the GPUWattch activity of
every launch (``power.activity.gpuwattch_activity`` over the functional per-PC counts), and
``power.rf_share`` turns counters and activity into the table and its summary. Records (the
counters and the activity, no joules) can be saved as JSON lines and re-evaluated with
another energy table without simulating again.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from warpsim.errors import WarpsimError
from warpsim.power.activity import gpuwattch_activity, inst_info, sum_activity
from warpsim.power.rf_share import rf_share_row, rf_share_summary
from warpsim.power.table import EnergyTable
from warpsim.runtime.observers import per_program

__all__ = ["load_records", "rf_share_from_records", "rf_share_record", "rf_share_table",
           "save_records"]

_log = logging.getLogger(__name__)


def _number(value: Any) -> Any:
    """A counter as a JSON value (numpy scalars to Python; NaN/inf to None)."""
    try:
        v = float(value)
    except (TypeError, ValueError):
        return value
    if v != v or v in (float("inf"), float("-inf")):
        return None
    return int(v) if float(v).is_integer() and abs(v) < 2**63 else v


def rf_share_record(name: str, *, size: str = "small", config: Any = "gtx480") -> dict[str, Any]:
    """Run benchmark ``name`` timed on ``config`` (a preset name or ``GPUConfig``); returns
    ``benchmark``, ``size``, ``config``, ``verified``, ``launches``, ``stats`` (the device's
    cumulative counters), ``activity`` (GPUWattch activity summed over launches), ``wall_s``;
    or, when the run raises a ``WarpsimError``, ``error`` instead of the counters."""
    import warpsim
    from warpsim.arch import resolve_config
    from warpsim.bench import run_benchmark

    cfg = resolve_config(config) if isinstance(config, str) else config
    infos = per_program(lambda p: [inst_info(i) for i in p.insts])
    parts: list[dict[str, float]] = []

    def observe(kernel: Any, launch_cfg: Any, result: Any) -> None:
        del launch_cfg
        f = getattr(result, "functional", result)
        parts.append(gpuwattch_activity(infos(kernel), f.pc_warp_counts, f.pc_thread_counts))

    t0 = time.perf_counter()
    rec: dict[str, Any] = {"benchmark": name, "size": size, "config": cfg.name}
    gpu = warpsim.Device(config=cfg)
    gpu.add_launch_observer(observe)
    try:
        result = run_benchmark(name, size=size, device=gpu)
        rec.update(verified=bool(result.verified), launches=int(result.n_launches),
                   stats={k: _number(v) for k, v in gpu.stats.items()},
                   activity=sum_activity(parts))
    except WarpsimError as err:
        rec["error"] = f"{type(err).__name__}: {err.message}"
    finally:
        gpu.close()
    rec["wall_s"] = round(time.perf_counter() - t0, 2)
    return rec


def save_records(records: Iterable[dict[str, Any]], path: str | Path) -> None:
    """Write records as JSON lines."""
    with Path(path).open("w") as fh:
        for rec in records:
            fh.write(json.dumps(rec) + "\n")


def load_records(path: str | Path) -> list[dict[str, Any]]:
    """Read records written by ``save_records`` (or ``warpsim energy-share --save``)."""
    return [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]


def rf_share_from_records(records: Sequence[dict[str, Any]], *, config: Any = None,
                          table: EnergyTable | None = None
                          ) -> tuple[list[dict[str, Any]], dict[str, Any], list[dict[str, Any]]]:
    """(rows, summary, failed records) of saved records; ``config`` defaults to each record's
    own preset, ``table`` to that preset's default energy table."""
    from warpsim.arch import resolve_config

    rows, failed = [], []
    for rec in records:
        if "error" in rec:
            failed.append(rec)
            continue
        cfg = config or rec.get("config", "gtx480")
        gpu = resolve_config(cfg) if isinstance(cfg, str) else cfg
        rows.append(rf_share_row(rec["benchmark"], rec["stats"], gpu,
                                 activity=rec.get("activity"), table=table,
                                 size=rec.get("size", ""), verified=rec.get("verified", True),
                                 launches=rec.get("launches", 0)))
    return rows, rf_share_summary(rows), failed


def rf_share_table(benchmarks: Sequence[str] | None = None, *, size: str = "small",
                   config: Any = "gtx480", table: EnergyTable | None = None,
                   progress: Callable[[dict[str, Any]], None] | None = None
                   ) -> tuple[list[dict[str, Any]], dict[str, Any], list[dict[str, Any]]]:
    """Run ``benchmarks`` (default: the whole suite) and return (rows, summary, records).

    ``rows`` are ``power.rf_share.rf_share_row`` dicts (``rf_dyn_frac``, ``rf_total_frac``,
    ...), ``summary`` their ``rf_share_summary``, ``records`` the raw records (failed runs
    included, with ``error``). ``progress`` is called with each record as it completes.
    """
    from warpsim.bench import BENCHMARKS, get_benchmark

    names = list(BENCHMARKS) if not benchmarks else list(benchmarks)
    for name in names:  # every name is checked before anything runs
        get_benchmark(name)
    records = []
    for name in names:
        rec = rf_share_record(name, size=size, config=config)
        if "error" in rec:
            _log.warning("%s: %s", name, rec["error"])
        records.append(rec)
        if progress is not None:
            progress(rec)
    rows, summary, _ = rf_share_from_records(records, table=table)
    return rows, summary, records
