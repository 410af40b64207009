"""Sweep descriptions (YAML or TOML), their expansion into jobs, and running them.

Follows: ARCHITECTURE.md §6-§7. A sweep is benchmarks x sizes x seeds x configurations x
parameter grid x mechanism sets; each combination is one :class:`~warpsim.runner.jobs.Job`.
The file format is documented in ``docs/runner.md``; in short::

    name: quick
    benchmarks: [vector_add, reduction]    # or "all"
    sizes: [tiny]
    seeds: [0]
    base: {gpu: gtx480, overrides: {sm.n_schedulers: 2}}
    configs:                               # named variants over base (default: {base: {}})
      base: {}
      banks32: {overrides: {regfile.n_banks: 32}}
    grid: {regfile.n_read_ports_per_bank: [1, 2]}   # cartesian product over every config
    mechanisms: [baseline, wir, {wir: {rb_entries: [256, 512]}}]

Every problem is a ``ConfigError`` naming the key (``configs.banks32.overrides``).
:func:`run_sweep` runs the jobs on an executor, appends each record to the result store as it
finishes, and with ``resume`` skips the jobs the store already holds.
"""

from __future__ import annotations

import itertools
import logging
import time
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from warpsim.errors import ConfigError, WarpsimError
from warpsim.runner.executors import Executor, make_executor
from warpsim.runner.jobs import Job, SimulateFn, run_job
from warpsim.runner.progress import SweepProgress
from warpsim.runner.store import ResultStore

__all__ = [
    "COMPACT_OVER_FILES",
    "SPEC_KEYS",
    "ConfigVariant",
    "SweepSpec",
    "SweepSummary",
    "load_sweep",
    "parse_sweep",
    "run_sweep",
]

_log = logging.getLogger(__name__)

SPEC_KEYS = ("name", "description", "benchmarks", "sizes", "seeds", "base", "configs", "grid",
             "mechanisms")
"""Top-level keys of a sweep file."""

COMPACT_OVER_FILES = 256
"""A finished sweep whose folder holds more record files merges them into one (faster queries)."""

_CONFIG_KEYS = ("gpu", "gpgpusim_config", "overrides")
_BASELINE = ("baseline", "none", "off")


@dataclass(frozen=True, slots=True)
class ConfigVariant:
    """One named configuration of a sweep (base merged in, grid point applied)."""

    label: str
    gpu: str
    gpgpusim_config: str | None
    overrides: tuple[tuple[str, Any], ...]


@dataclass(frozen=True, slots=True)
class SweepSpec:
    """A parsed sweep description; :meth:`jobs` expands it."""

    name: str
    benchmarks: tuple[str, ...]
    sizes: tuple[str, ...]
    seeds: tuple[int, ...]
    configs: tuple[ConfigVariant, ...]
    mechanisms: tuple[tuple[tuple[str, tuple[tuple[str, Any], ...]], ...], ...]
    description: str = ""
    source: dict[str, Any] = field(default_factory=dict, compare=False)
    """The mapping it was parsed from (kept in the result folder's ``sweep.json``)."""

    def jobs(self) -> list[Job]:
        """Every job, grouped by benchmark (jobs sharing a functional run are adjacent)."""
        out = []
        for bench, size, seed in itertools.product(self.benchmarks, self.sizes, self.seeds):
            for cfg, mechs in itertools.product(self.configs, self.mechanisms):
                out.append(Job(benchmark=bench, size=size, gpu=cfg.gpu,
                               gpgpusim_config=cfg.gpgpusim_config, overrides=cfg.overrides,
                               mechanisms=mechs, seed=seed, label=cfg.label))
        seen: dict[str, Job] = {}
        for job in out:
            if job.job_id in seen:
                raise ConfigError("configs", job.variant,
                                  f"configurations and mechanism sets that differ: it runs "
                                  f"the same job as {seen[job.job_id].variant!r} "
                                  f"({job.benchmark}, seed {job.seed})")
            seen[job.job_id] = job
        return out

    def variants(self) -> list[str]:
        """Series names in sweep order (configuration label plus mechanisms)."""
        jobs = self.jobs()
        return list(dict.fromkeys(j.variant for j in jobs))


# -- parsing -------------------------------------------------------------------------------------


def _str_list(value: Any, key: str) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list | tuple) or not value:
        raise ConfigError(key, value, "a non-empty list of names")
    for i, item in enumerate(value):
        if not isinstance(item, str) or not item:
            raise ConfigError(f"{key}[{i}]", item, "a name (string)")
    return tuple(value)


def _mapping(value: Any, key: str) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise ConfigError(key, value, "a mapping")
    return {str(k): v for k, v in value.items()}


def _unknown(data: Mapping[str, Any], valid: Iterable[str], where: str) -> None:
    valid = tuple(valid)
    for key in data:
        if key not in valid:
            import difflib

            close = difflib.get_close_matches(str(key), valid, n=1)
            raise ConfigError(f"{where}{key}", data[key], f"one of the keys {', '.join(valid)}",
                              hint=f"did you mean {close[0]!r}?" if close else "")


def _check_scalar(value: Any, key: str) -> Any:
    if isinstance(value, str | int | float | bool):
        return value
    raise ConfigError(key, value, "a string, number or boolean (write a tuple as \"4,13,4\")")


def _overrides(value: Any, key: str) -> dict[str, Any]:
    if isinstance(value, list):  # ["sm.n_schedulers=4", ...]
        out = {}
        for i, item in enumerate(value):
            if not isinstance(item, str) or "=" not in item:
                raise ConfigError(f"{key}[{i}]", item, "a 'path.to.field=value' string")
            k, _, v = item.partition("=")
            out[k.strip()] = v.strip()
        return out
    return {k: _check_scalar(v, f"{key}.{k}") for k, v in _mapping(value, key).items()}


def _config_part(data: Mapping[str, Any], key: str) -> dict[str, Any]:
    _unknown(data, _CONFIG_KEYS, f"{key}.")
    out: dict[str, Any] = {}
    if "gpu" in data:
        if not isinstance(data["gpu"], str):
            raise ConfigError(f"{key}.gpu", data["gpu"], "a preset name such as 'gtx480'")
        out["gpu"] = data["gpu"].lower()
    if data.get("gpgpusim_config") is not None:
        out["gpgpusim_config"] = str(data["gpgpusim_config"])
    out["overrides"] = _overrides(data.get("overrides"), f"{key}.overrides")
    return out


def _grid_points(grid: Mapping[str, Any], key: str,
                 scalars: bool = False) -> list[dict[str, Any]]:
    """Cartesian product of the list-valued entries (``scalars``: a scalar is one value)."""
    axes = []
    for path, values in grid.items():
        if scalars and not isinstance(values, list):
            values = [values]
        if not isinstance(values, list) or not values:
            raise ConfigError(f"{key}.{path}", values, "a non-empty list of values (one axis)")
        axes.append([(path, _check_scalar(v, f"{key}.{path}")) for v in values])
    return [dict(point) for point in itertools.product(*axes)]


def _short_names(paths: Iterable[str]) -> dict[str, str]:
    paths = list(paths)
    tails = [p.rsplit(".", 1)[-1] for p in paths]
    return {p: (t if tails.count(t) == 1 else p) for p, t in zip(paths, tails, strict=True)}


def _configs(data: Mapping[str, Any]) -> tuple[ConfigVariant, ...]:
    base = _config_part(_mapping(data.get("base"), "base"), "base")
    named = _mapping(data.get("configs"), "configs") or {"base": {}}
    points = _grid_points(_mapping(data.get("grid"), "grid"), "grid")
    short = _short_names(points[0]) if points and points[0] else {}
    out = []
    for name, body in named.items():
        part = _config_part(_mapping(body, f"configs.{name}"), f"configs.{name}")
        for point in points:
            overrides = {**base.get("overrides", {}), **part["overrides"], **point}
            if point:
                tag = ",".join(f"{short[k]}={v}" for k, v in point.items())
                label = tag if len(named) == 1 else f"{name}[{tag}]"
            else:
                label = name
            variant = ConfigVariant(
                label=label, gpu=part.get("gpu", base.get("gpu", "gtx480")),
                gpgpusim_config=part.get("gpgpusim_config", base.get("gpgpusim_config")),
                overrides=tuple(sorted(overrides.items())))
            _validate_config(variant, f"configs.{name}")
            out.append(variant)
    return tuple(out)


def _validate_config(variant: ConfigVariant, key: str) -> None:
    job = Job(benchmark="-", gpu=variant.gpu, gpgpusim_config=variant.gpgpusim_config,
              overrides=variant.overrides, label=variant.label)
    try:
        job.resolve()
    except ConfigError as err:
        hint = [ln.strip()[len("hint:"):].strip() for ln in err.message.splitlines()
                if ln.strip().startswith("hint:")]
        raise ConfigError(f"{key} ({variant.label}): {err.field}", err.value, err.expected,
                          hint=hint[0] if hint else "") from err


def _mechanism_sets(value: Any) -> tuple[tuple[tuple[str, tuple[tuple[str, Any], ...]], ...], ...]:
    if value is None:
        return ((),)
    if not isinstance(value, list) or not value:
        raise ConfigError("mechanisms", value, "a non-empty list of mechanism sets")
    out: list[tuple[tuple[str, tuple[tuple[str, Any], ...]], ...]] = []
    for i, entry in enumerate(value):
        key = f"mechanisms[{i}]"
        if entry is None or (isinstance(entry, str) and entry.lower() in _BASELINE) \
                or entry == []:
            out.append(())
        elif isinstance(entry, str):
            out.append(((entry, ()),))
        elif isinstance(entry, list):
            out.append(tuple((name, ()) for name in _str_list(entry, key)))
        elif isinstance(entry, Mapping):
            per_mech = []
            for name, params in entry.items():
                points = _grid_points(_mapping(params, f"{key}.{name}"), f"{key}.{name}",
                                      scalars=True)
                per_mech.append([(str(name), tuple(sorted(p.items()))) for p in points])
            out.extend(tuple(combo) for combo in itertools.product(*per_mech))
        else:
            raise ConfigError(key, entry, "'baseline', a mechanism name, a list of names or a "
                                          "mapping name -> {field: value or [values]}")
    _validate_mechanisms(out)
    return tuple(out)


def _validate_mechanisms(sets: list[tuple[tuple[str, Any], ...]]) -> None:
    try:
        from warpsim.mechanisms import REGISTRY
    except ImportError:
        return  # no mechanism registry yet: simulate() reports it per job
    import dataclasses

    for i, mechs in enumerate(sets):
        for name, params in mechs:
            if name not in REGISTRY:
                raise ConfigError(f"mechanisms[{i}]", name,
                                  f"one of {', '.join(sorted(REGISTRY)) or '(none registered)'}")
            config = getattr(REGISTRY[name], "Config", None)
            if config is None or not dataclasses.is_dataclass(config):
                continue
            valid = [f.name for f in dataclasses.fields(config)]
            for key, _ in params:
                if key not in valid:
                    raise ConfigError(f"mechanisms[{i}].{name}.{key}", key,
                                      f"a field of {name}.Config: {', '.join(valid)}")


def _suite() -> Mapping[str, Any] | None:
    try:
        from warpsim.bench import BENCHMARKS
    except ImportError:
        return None
    return BENCHMARKS


def _benchmarks(value: Any, sizes: tuple[str, ...], check: bool) -> tuple[str, ...]:
    if value is None:
        raise ConfigError("benchmarks", value, "a list of benchmark names or 'all'")
    suite = _suite() if check or value == "all" else None
    if value == "all":
        if suite is None:
            raise ConfigError("benchmarks", value, "explicit names: the suite is not installed")
        return tuple(suite)
    names = _str_list(value, "benchmarks")
    if suite is not None:
        for i, name in enumerate(names):
            if name not in suite:
                raise ConfigError(f"benchmarks[{i}]", name, f"one of {', '.join(suite)}")
            missing = [s for s in sizes if s not in suite[name].sizes]
            if missing:
                raise ConfigError("sizes", missing[0], f"a size {name} has: "
                                  f"{', '.join(suite[name].sizes)}")
    return names


def parse_sweep(data: Mapping[str, Any], *, name: str = "sweep",
                check_benchmarks: bool = True) -> SweepSpec:
    """Validate a sweep description (the mapping a YAML/TOML file holds).

    ``check_benchmarks=False`` accepts any benchmark name (for job functions other than the
    default, which runs ``warpsim.bench``).

    Raises
    ------
    ConfigError
        For an unknown key (with the closest valid one), a value of the wrong shape, an unknown
        benchmark, preset, field or mechanism; the error's ``field`` names the key.
    """
    if not isinstance(data, Mapping):
        raise ConfigError("sweep", data, "a mapping with the keys " + ", ".join(SPEC_KEYS))
    _unknown(data, SPEC_KEYS, "")
    sizes = _str_list(data.get("sizes", ["tiny"]), "sizes")
    from warpsim.bench.spec import SIZES

    for i, size in enumerate(sizes):
        if size not in SIZES:
            raise ConfigError(f"sizes[{i}]", size, f"one of {', '.join(SIZES)}")
    seeds = data.get("seeds", [0])
    seeds = [seeds] if isinstance(seeds, int) else seeds
    if not isinstance(seeds, list) or not seeds or not all(
            isinstance(s, int) and not isinstance(s, bool) for s in seeds):
        raise ConfigError("seeds", data.get("seeds"), "a non-empty list of integers")
    sweep_name = data.get("name", name)
    if not isinstance(sweep_name, str) or not sweep_name:
        raise ConfigError("name", sweep_name, "a non-empty string")
    return SweepSpec(name=sweep_name, benchmarks=_benchmarks(data.get("benchmarks"), sizes,
                                                       check_benchmarks),
                     sizes=sizes, seeds=tuple(seeds), configs=_configs(data),
                     mechanisms=_mechanism_sets(data.get("mechanisms")),
                     description=str(data.get("description", "")), source=dict(data))


def load_sweep(path: str | Path, *, check_benchmarks: bool = True) -> SweepSpec:
    """Read and validate a sweep file (``.yaml``/``.yml`` or ``.toml``); see
    :func:`parse_sweep`.

    Raises
    ------
    ConfigError
        For a missing or unparsable file, or an invalid description (see :func:`parse_sweep`).
    """
    p = Path(path)
    if not p.is_file():
        raise ConfigError("sweep file", str(p), "an existing .yaml or .toml file")
    text = p.read_text()
    try:
        if p.suffix == ".toml":
            data = tomllib.loads(text)
        else:
            import yaml

            data = yaml.safe_load(text)
    except (tomllib.TOMLDecodeError, ValueError) as exc:
        raise ConfigError("sweep file", str(p), "valid YAML or TOML", hint=str(exc)) from exc
    except Exception as exc:  # yaml.YAMLError has no common base with ValueError
        if type(exc).__module__.startswith("yaml"):
            raise ConfigError("sweep file", str(p), "valid YAML", hint=str(exc)) from exc
        raise
    return parse_sweep(data, name=p.stem, check_benchmarks=check_benchmarks)


# -- running -------------------------------------------------------------------------------------


@dataclass(slots=True)
class SweepSummary:
    """What one :func:`run_sweep` call did."""

    out: Path
    total: int
    """Jobs in the sweep."""
    skipped: int
    """Jobs already recorded (``resume``)."""
    ok: int = 0
    failed: int = 0
    wall_s: float = 0.0
    failures: list[tuple[str, str]] = field(default_factory=list)
    """``(job_id, first line of the error)`` of each failed job."""


def _record_for_lost_job(job: Job, exc: BaseException, sweep: str,
                         crash: bool) -> dict[str, Any]:
    """A failed record for a job whose result never came back from its worker."""
    if crash:
        what = (f"the worker process died while running this job alone ({type(exc).__name__}: "
                f"{exc})\n  hint: a crash in native code, running out of memory or os._exit; "
                "rerun it with --resume --retry-failed")
    else:
        what = (f"the job's result never came back from its worker ({type(exc).__name__}: "
                f"{exc})\n  hint: a lost Dask worker, or a job function that cannot be "
                "pickled; rerun it with --resume --retry-failed")

    def died(_job: Job) -> dict[str, Any]:
        raise WarpsimError(what)

    return run_job(job, died, sweep)


def run_sweep(spec: SweepSpec | str | Path, out: str | Path, *, jobs: int | None = None,
              dask: Any = None, executor: Executor | None = None, resume: bool = False,
              retry_failed: bool = False, simulate: SimulateFn | None = None,
              progress: bool | None = None) -> SweepSummary:
    """Run every job of a sweep, writing one record per job to the result folder ``out``.

    Parameters
    ----------
    spec
        A :class:`SweepSpec` or the path of a sweep file.
    out
        The result folder.
    jobs, dask
        Worker processes of the local pool, or a Dask scheduler address / ``Client``.
    executor
        An executor to use instead (not shut down here).
    resume
        Skip jobs already recorded in ``out``; without it, a folder holding records is refused.
    retry_failed
        With ``resume``, run the jobs recorded as failed again (the new record supersedes the
        old one in the ``results`` view).
    simulate
        The job function (default :func:`warpsim.runner.simulate.simulate`); a top-level
        function, as it is pickled to the workers.
    progress
        Show the progress bar (default: when stderr is a terminal).

    Raises
    ------
    ConfigError
        For an invalid sweep, or records in ``out`` without ``resume``.
    """
    if not isinstance(spec, SweepSpec):
        spec = load_sweep(spec)
    all_jobs = spec.jobs()
    store = ResultStore(out)
    t0 = time.monotonic()
    with store:
        recorded = store.finished()
        if recorded and not resume:
            raise ConfigError("--out", str(store.directory), "an empty result folder",
                              hint=f"it holds {len(recorded)} records; pass --resume to "
                                   "continue that sweep, or choose another --out")
        skip = {j for j, s in recorded.items() if s == "ok" or not retry_failed}
        todo = [job for job in all_jobs if job.job_id not in skip]
        store.write_manifest({"name": spec.name, "description": spec.description,
                              "spec": spec.source, "variants": spec.variants(),
                              "jobs": [dict(j.to_dict(), job_id=j.job_id) for j in all_jobs]})
        summary = SweepSummary(out=store.directory, total=len(all_jobs),
                               skipped=len(all_jobs) - len(todo))
        if todo:
            own = executor is None
            ex = executor if executor is not None else make_executor(jobs, dask)
            try:
                _drive(ex, todo, store, spec.name, simulate, summary, progress)
            finally:
                if own:
                    ex.shutdown(cancel=True)
        if len(store.files()) > COMPACT_OVER_FILES:
            store.compact()
    summary.wall_s = time.monotonic() - t0
    return summary


def _drive(ex: Executor, todo: list[Job], store: ResultStore, sweep: str,
           simulate: SimulateFn | None, summary: SweepSummary, progress: bool | None) -> None:
    """Submit ``todo`` through a window of 2 x workers; store each record as it arrives.

    When a worker process dies (``ex.is_crash``), every job then in flight is a suspect: the
    pool is restarted and the suspects run again one at a time, nothing beside them, so that
    only the job that kills its worker alone is recorded as failed.
    """
    window = max(2 * ex.n_workers, 2)
    queue = list(reversed(todo))
    suspects: list[Job] = []
    inflight: dict[Any, Job] = {}
    _log.info("sweep %s: %d jobs on %s", sweep, len(todo), ex.description)

    def store_record(job: Job, record: dict[str, Any]) -> None:
        store.append([record])
        if record["status"] == "ok":
            summary.ok += 1
        else:
            summary.failed += 1
            first = str(record.get("error_message") or "").splitlines()[:1]
            summary.failures.append((job.job_id, first[0] if first else ""))

    alone: Job | None = None
    with SweepProgress(len(todo), sweep, enabled=progress) as bar:
        try:
            while queue or inflight or suspects:
                if suspects and not inflight:
                    alone = suspects.pop(0)
                    inflight[ex.submit(run_job, alone, simulate, sweep)] = alone
                while not suspects and queue and len(inflight) < window:
                    job = queue.pop()
                    inflight[ex.submit(run_job, job, simulate, sweep)] = job
                bar.update(done=summary.ok + summary.failed, failed=summary.failed,
                           running=min(len(inflight), ex.n_workers))
                done, _ = ex.wait_first(inflight, timeout_s=1.0)
                crashed: list[Job] = []
                for fut in done:
                    job = inflight.pop(fut)
                    try:
                        record = fut.result()
                    except Exception as exc:  # the job function never returned
                        if ex.is_crash(exc) and job is not alone:
                            crashed.append(job)
                            continue
                        crash = ex.is_crash(exc)
                        if crash:
                            ex.restart()
                        record = _record_for_lost_job(job, exc, sweep, crash)
                    store_record(job, record)
                if crashed:
                    crashed.extend(inflight.values())  # the dead pool took them down too
                    inflight.clear()
                    ex.restart()
                    _log.warning("a worker died; rerunning %d jobs one at a time",
                                 len(crashed))
                    suspects.extend(crashed)
            bar.update(done=summary.ok + summary.failed, failed=summary.failed, running=0)
        except BaseException:
            for fut in inflight:
                fut.cancel()
            raise
