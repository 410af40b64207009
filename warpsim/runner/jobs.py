"""One simulation job of a sweep and the wrapper that turns it into one result record.

Follows: ARCHITECTURE.md §6 (one result record per run: configuration, benchmark, counters,
energy, versions, wall time, simulation rate) and §7 (jobs are independent, so any executor
can run them). A :class:`Job` is a frozen, hashable description; its ``job_id`` is a stable
hash of everything that determines its result, so a resumed sweep recognises finished work.

:func:`run_job` is the function executors ship to workers: it is top-level (spawn- and
pickle-safe), never raises for a failing simulation, and returns a flat record whose keys are
documented in ``docs/runner.md`` (the record schema).
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import os
import platform
import socket
import subprocess
import time
import traceback
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from warpsim.errors import ConfigError, InternalError, WarpsimError

__all__ = [
    "METADATA_COLUMNS",
    "Job",
    "energy_columns",
    "SimulateFn",
    "git_revision",
    "run_job",
    "split_size",
    "warpsim_version",
]

Scalar = str | int | float | bool
SimulateFn = Callable[["Job"], Mapping[str, Any]]
"""A job function: ``simulate(job) -> {"stats": {...}, "energy": {...}, "verified": ...}``."""

METADATA_COLUMNS = (
    "job_id", "sweep", "label", "variant", "benchmark", "size", "gpu", "gpgpusim_config",
    "seed", "overrides", "mechanisms", "mechanism_config", "config_hash", "config", "mode",
    "status", "error_type", "error_message", "error_context", "traceback", "verified",
    "wall_s", "sim_rate_insn_per_s", "functional_cached", "warpsim_version", "git_revision",
    "hostname", "python", "pid", "started_at", "finished_at",
)
"""Columns every record has (counters and ``energy_*`` columns come after them)."""


def split_size(size: str) -> tuple[str, dict[str, int | float]]:
    """A job's size as (named size, parameter overrides): ``"small+nx=256,iterations=1"`` ->
    ``("small", {"nx": 256, "iterations": 1})``; a plain name has no overrides."""
    name, _, rest = size.partition("+")
    params: dict[str, int | float] = {}
    for item in filter(None, rest.split(",")):
        key, _, value = item.partition("=")
        params[key.strip()] = float(value) if "." in value else int(value)
    return name, params


def _canonical(value: Any) -> Any:
    """Lists to tuples, recursively, so that YAML/TOML values are hashable and comparable."""
    if isinstance(value, list | tuple):
        return tuple(_canonical(v) for v in value)
    if isinstance(value, Mapping):
        return tuple(sorted((str(k), _canonical(v)) for k, v in value.items()))
    if value is None or isinstance(value, str | int | float | bool):
        return value
    raise ConfigError("value", value, "a string, number, boolean or list of them")


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    return value


@dataclass(frozen=True, slots=True, kw_only=True)
class Job:
    """One independent simulation: a benchmark at a size on one configuration.

    Attributes
    ----------
    benchmark, size
        The benchmark name (``warpsim.bench``) and its named input size.
    gpu
        The base preset name (``"gtx480"``).
    gpgpusim_config
        Optional gpgpusim.config path applied over the preset.
    overrides
        Sorted ``(dotted.path, value)`` pairs applied last.
    mechanisms
        Sorted ``(name, ((field, value), ...))`` pairs: the active mechanisms and their
        per-mechanism overrides; empty for the baseline.
    seed
        Input and engine seed.
    label
        The configuration's name in the sweep file (for tables and figures); not part of the
        job's identity.
    """

    benchmark: str
    size: str = "tiny"
    gpu: str = "gtx480"
    gpgpusim_config: str | None = None
    overrides: tuple[tuple[str, Any], ...] = ()
    mechanisms: tuple[tuple[str, tuple[tuple[str, Any], ...]], ...] = ()
    seed: int = 0
    label: str = field(default="base", compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "overrides",
                           tuple(sorted((str(k), _canonical(v)) for k, v in self.overrides)))
        mechs = []
        for name, params in self.mechanisms:
            mechs.append((str(name), tuple(sorted((str(k), _canonical(v)) for k, v in params))))
        object.__setattr__(self, "mechanisms", tuple(sorted(mechs)))
        if not isinstance(self.seed, int) or isinstance(self.seed, bool):
            raise ConfigError("seed", self.seed, "an integer")

    def identity(self) -> dict[str, Any]:
        """The job's description (everything but the label), JSON-compatible."""
        return {
            "benchmark": self.benchmark, "size": self.size, "gpu": self.gpu,
            "gpgpusim_config": self.gpgpusim_config,
            "overrides": [[k, _jsonable(v)] for k, v in self.overrides],
            "mechanisms": [[n, [[k, _jsonable(v)] for k, v in p]] for n, p in self.mechanisms],
            "seed": self.seed,
        }

    def hashed_identity(self) -> dict[str, Any]:
        """What ``job_id`` hashes: benchmark, size, seed, mechanisms, and the resolved
        ``GPUConfig.config_hash()`` in place of preset + option file + overrides (so two
        spellings of one configuration are one job, and a changed preset is a new job). When
        the configuration does not resolve, the description is hashed instead."""
        ident = self.identity()
        config_hash = _config_hash(self.gpu, self.gpgpusim_config, self.overrides)
        if config_hash is None:
            return ident
        return {"benchmark": self.benchmark, "size": self.size, "seed": self.seed,
                "mechanisms": ident["mechanisms"], "config_hash": config_hash}

    @property
    def job_id(self) -> str:
        """Stable 20-hex-digit hash of :meth:`hashed_identity` (same job, same id, on any
        machine and in any run)."""
        text = json.dumps(self.hashed_identity(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:20]

    @property
    def functional_key(self) -> tuple[str, str, int]:
        """What the functional run depends on: jobs sharing it can share one trace."""
        return (self.benchmark, self.size, self.seed)

    @property
    def mechanism_names(self) -> tuple[str, ...]:
        """The active mechanisms' names, sorted."""
        return tuple(name for name, _ in self.mechanisms)

    @property
    def variant(self) -> str:
        """Configuration label plus mechanisms, e.g. ``base+wir``: one series in a figure."""
        return "+".join((self.label, *self.mechanism_names))

    def mechanism_overrides(self) -> dict[str, dict[str, Any]]:
        """``{"wir": {"rb_entries": 512}}``: the form the engine's mechanism selection takes."""
        return {name: dict(params) for name, params in self.mechanisms}

    def resolve(self) -> Any:
        """The job's ``GPUConfig`` (preset, then gpgpusim.config, then overrides, then each
        mechanism's section: ``<name>.enabled = true`` and its parameters).

        Raises
        ------
        ConfigError
            For an unknown preset, field or mechanism, or an invalid value.
        """
        from warpsim.mechanisms import REGISTRY

        for name in self.mechanism_names:
            if name not in REGISTRY:
                raise ConfigError("mechanisms", name,
                                  f"a mechanism warpsim implements: {', '.join(sorted(REGISTRY))}",
                                  hint="the others are not implemented yet")
        mech = tuple((f"{name}.{k}", v) for name, params in self.mechanisms
                     for k, v in (("enabled", True), *params))
        return _resolve(self.gpu, self.gpgpusim_config, self.overrides + mech)

    def to_dict(self) -> dict[str, Any]:
        """:meth:`identity` plus the label; inverse of :meth:`from_dict`."""
        return {**self.identity(), "label": self.label}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Job:
        """Rebuild a job from :meth:`to_dict` output."""
        return cls(benchmark=data["benchmark"], size=data.get("size", "tiny"),
                   gpu=data.get("gpu", "gtx480"), gpgpusim_config=data.get("gpgpusim_config"),
                   overrides=tuple((k, v) for k, v in data.get("overrides", ())),
                   mechanisms=tuple((n, tuple((k, v) for k, v in p))
                                    for n, p in data.get("mechanisms", ())),
                   seed=int(data.get("seed", 0)), label=data.get("label", "base"))


def _resolve(gpu: str, gpgpusim_config: str | None,
             overrides: tuple[tuple[str, Any], ...]) -> Any:
    from warpsim.arch import resolve_config

    values = {k: (",".join(map(str, v)) if isinstance(v, tuple) else v) for k, v in overrides}
    return resolve_config(gpu, gpgpusim_config=gpgpusim_config, overrides=values)


@functools.lru_cache(maxsize=1024)
def _config_hash(gpu: str, gpgpusim_config: str | None,
                 overrides: tuple[tuple[str, Any], ...]) -> str | None:
    try:
        return str(_resolve(gpu, gpgpusim_config, overrides).config_hash())
    except WarpsimError:
        return None


# -- versions ------------------------------------------------------------------------------------


def warpsim_version() -> str:
    """The installed warpsim version string."""
    import warpsim

    return str(warpsim.__version__)


@functools.cache
def git_revision() -> str:
    """``git rev-parse HEAD`` of the checkout warpsim runs from (``-dirty`` when modified),
    or ``"unknown"`` outside a checkout or without git."""
    root = Path(__file__).resolve().parents[2]
    try:
        out = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"],
                             capture_output=True, text=True, timeout=10, check=False)
        if out.returncode != 0 or not out.stdout.strip():
            return "unknown"
        rev = out.stdout.strip()
        diff = subprocess.run(["git", "-C", str(root), "diff", "--quiet", "HEAD", "--",
                               "warpsim"], capture_output=True, timeout=10, check=False)
        return rev + ("-dirty" if diff.returncode == 1 else "")
    except (OSError, subprocess.SubprocessError):
        return "unknown"


# -- the record ----------------------------------------------------------------------------------


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _config_columns(job: Job) -> dict[str, Any]:
    try:
        cfg = job.resolve()
    except WarpsimError:
        return {"config_hash": None, "config": None}
    return {"config_hash": cfg.config_hash(),
            "config": json.dumps(cfg.to_dict(), sort_keys=True)}


def _error_columns(exc: BaseException) -> dict[str, Any]:
    context = getattr(exc, "context", None)
    if isinstance(exc, WarpsimError):
        message = exc.message
    else:
        message = f"{type(exc).__name__}: {exc}"
    return {
        "status": "failed",
        "error_type": type(exc).__name__,
        "error_message": message,
        "error_context": json.dumps(context, default=repr, sort_keys=True) if context else None,
        "traceback": "".join(traceback.format_exception(exc)),
    }


def _check_result(result: Any) -> Mapping[str, Any]:
    if not isinstance(result, Mapping):
        raise InternalError(f"a job function returned {type(result).__name__}, expected a "
                            "mapping with 'stats' (and optionally 'energy', 'verified')")
    return result


def _numeric_columns(result: Mapping[str, Any]) -> dict[str, Any]:
    cols: dict[str, Any] = {}
    for name, value in dict(result.get("stats") or {}).items():
        if name in METADATA_COLUMNS:
            raise InternalError(f"counter name {name!r} collides with a record column")
        cols[name] = int(value) if isinstance(value, int | bool) else float(value)
    cols.update(energy_columns(result.get("energy")))
    for name, value in dict(result.get("extra") or {}).items():
        if name in METADATA_COLUMNS or name in cols:
            raise InternalError(f"extra column {name!r} collides with a record column")
        cols[name] = value
    return cols


def energy_columns(energy: Any) -> dict[str, Any]:
    """Record columns of an energy result, all in pJ.

    ``energy`` is a ``warpsim.power`` ``EnergyBreakdown``, its ``to_dict()`` (joules, split
    into dynamic and static), or a flat ``{component: pJ}`` mapping. Columns:
    ``energy_<component>_pj`` (dynamic plus static), ``energy_total_pj``, and for a breakdown
    ``energy_dynamic_total_pj``, ``energy_static_total_pj``, ``energy_table`` and
    ``energy_breakdown`` (its ``to_dict()`` as JSON).
    """
    if energy is None:
        return {}
    if hasattr(energy, "to_dict"):
        energy = energy.to_dict()
    if not isinstance(energy, Mapping):
        raise InternalError(f"energy result of type {type(energy).__name__}, expected a "
                            "mapping or an EnergyBreakdown")
    cols: dict[str, Any] = {}
    if "dynamic_by_component" in energy:
        dyn = dict(energy["dynamic_by_component"])
        static = dict(energy.get("static_by_component") or {})
        for comp in dict.fromkeys([*dyn, *static]):
            cols[f"energy_{comp}_pj"] = (float(dyn.get(comp, 0.0))
                                         + float(static.get(comp, 0.0))) * 1e12
        cols["energy_dynamic_total_pj"] = sum(float(v) for v in dyn.values()) * 1e12
        cols["energy_static_total_pj"] = sum(float(v) for v in static.values()) * 1e12
        cols["energy_total_pj"] = cols["energy_dynamic_total_pj"] + cols["energy_static_total_pj"]
        cols["energy_table"] = str(energy.get("table", ""))
        cols["energy_breakdown"] = json.dumps(energy, sort_keys=True, default=float)
        return cols
    for comp, value in energy.items():
        key = comp if comp.startswith("energy_") else f"energy_{comp}"
        cols[key if key.endswith("_pj") else f"{key}_pj"] = float(value)
    if cols and "energy_total_pj" not in cols:
        cols["energy_total_pj"] = sum(cols.values())
    return cols


def run_job(job: Job, simulate: SimulateFn | None = None, sweep: str = "") -> dict[str, Any]:
    """Run one job and return its flat result record; a failure becomes a ``failed`` record.

    Parameters
    ----------
    job
        The job to run.
    simulate
        The job function (default :func:`warpsim.runner.simulate.simulate`); it must be a
        top-level function when the executor pickles it.
    sweep
        The sweep's name, stored in the record.

    Returns
    -------
    dict
        Metadata columns (``METADATA_COLUMNS``), then one column per counter and per energy
        component (``energy_<component>_pj``).
    """
    if simulate is None:
        from warpsim.runner.simulate import simulate as default_simulate

        simulate = default_simulate
    record: dict[str, Any] = {
        "job_id": job.job_id, "sweep": sweep, "label": job.label, "variant": job.variant,
        "benchmark": job.benchmark, "size": job.size, "gpu": job.gpu,
        "gpgpusim_config": job.gpgpusim_config, "seed": job.seed,
        "overrides": json.dumps(job.identity()["overrides"]),
        "mechanisms": "+".join(job.mechanism_names) or "baseline",
        "mechanism_config": json.dumps(job.identity()["mechanisms"]),
        **_config_columns(job),
        "mode": None, "status": "ok", "error_type": None, "error_message": None,
        "error_context": None, "traceback": None, "verified": None,
        "wall_s": math.nan, "sim_rate_insn_per_s": math.nan, "functional_cached": None,
        "warpsim_version": warpsim_version(), "git_revision": git_revision(),
        "hostname": socket.gethostname(), "python": platform.python_version(),
        "pid": os.getpid(), "started_at": _now(), "finished_at": None,
    }
    t0 = time.perf_counter()
    try:
        result = _check_result(simulate(job))
        numeric = _numeric_columns(result)
    except Exception as exc:  # any failure is recorded; the sweep goes on
        record.update(_error_columns(exc))
        numeric = {}
        result = {}
    wall = time.perf_counter() - t0
    record["wall_s"] = wall
    record["finished_at"] = _now()
    record["mode"] = result.get("mode")
    verified = result.get("verified")
    record["verified"] = None if verified is None else bool(verified)
    cached = result.get("functional_cached")
    record["functional_cached"] = None if cached is None else bool(cached)
    insn = numeric.get("gpu_sim_insn")
    compile_s = numeric.get("numba_compile_s")  # the engine's one-off compile, not simulation
    busy = wall - compile_s if isinstance(compile_s, int | float) and \
        math.isfinite(compile_s) and 0 <= compile_s < wall else wall
    if isinstance(insn, int | float) and busy > 0:
        record["sim_rate_insn_per_s"] = insn / busy
    record.update(numeric)
    return record
