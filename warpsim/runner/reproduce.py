"""The registry of paper reproductions behind ``warpsim reproduce PAPER [--quick]``.

Follows: ARCHITECTURE.md §7. Each mechanism issue registers its paper's experiment with
:func:`register_reproduction` from a module of ``warpsim/experiments/`` (layer 5, so it may run
sweeps and draw reports); :func:`reproduce` imports ``warpsim.experiments`` once, when that
package exists, so that its registrations are made, then runs the one asked for. A reproduction
function takes ``quick`` (small inputs, minutes on a laptop), ``out`` (its result folder) and
executor options (``jobs``, ``dask``), and returns what it produced (typically the report path).
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from warpsim.errors import ConfigError

__all__ = [
    "Reproduction",
    "list_reproductions",
    "register_reproduction",
    "reproduce",
    "result_folder",
    "sweep_and_report",
    "unregister_reproduction",
]

_log = logging.getLogger(__name__)

ReproduceFn = Callable[..., Any]
"""``fn(*, quick: bool, out: Path, jobs: int | None, dask: str | None) -> Any``."""


@dataclass(frozen=True, slots=True)
class Reproduction:
    """One registered paper experiment."""

    name: str
    """Registry key: the mechanism key or paper short name (``"wir"``)."""
    fn: ReproduceFn
    description: str
    """One line: the paper and the figures reproduced."""


_REGISTRY: dict[str, Reproduction] = {}
_LOADED: list[bool] = []


def register_reproduction(name: str, fn: ReproduceFn, description: str) -> Reproduction:
    """Register ``fn`` as the reproduction ``name``.

    Raises
    ------
    ConfigError
        When ``name`` is already registered to another function, or is not a lower-case key.
    """
    if not name or name != name.lower() or not name.replace("_", "").replace("-", "").isalnum():
        raise ConfigError("reproduction name", name, "a lower-case key such as 'wir'")
    old = _REGISTRY.get(name)
    if old is not None and old.fn is not fn:
        raise ConfigError("reproduction name", name, "a name not registered yet",
                          hint=f"{name!r} is registered by {old.fn.__module__}")
    entry = Reproduction(name=name, fn=fn, description=description)
    _REGISTRY[name] = entry
    return entry


def unregister_reproduction(name: str) -> None:
    """Remove ``name`` from the registry (tests)."""
    _REGISTRY.pop(name, None)


def _load() -> None:
    if _LOADED:
        return
    _LOADED.append(True)
    try:
        importlib.import_module("warpsim.experiments")
    except ModuleNotFoundError as exc:
        if exc.name not in ("warpsim.experiments",):
            raise
        _log.debug("no warpsim.experiments package: no reproduction registered by it")


def list_reproductions() -> list[Reproduction]:
    """The registered reproductions, sorted by name."""
    _load()
    return [_REGISTRY[k] for k in sorted(_REGISTRY)]


def reproduce(name: str, quick: bool = True, *, out: str | Path | None = None,
              jobs: int | None = None, dask: str | None = None) -> Any:
    """Run the reproduction ``name``.

    Parameters
    ----------
    name
        A registered key (see :func:`list_reproductions`).
    quick
        Small inputs that finish in minutes on a laptop; False runs the paper's inputs.
    out
        Result folder (default ``results/reproduce-<name>[-quick]``).
    jobs, dask
        Executor options passed to the reproduction's sweeps.

    Raises
    ------
    ConfigError
        For an unknown name; the message lists what is registered.
    """
    _load()
    entry = _REGISTRY.get(name)
    if entry is None:
        listing = ", ".join(sorted(_REGISTRY)) or "none yet (each mechanism issue registers its "
        listing += "" if _REGISTRY else "paper with warpsim.runner.reproduce.register_reproduction)"
        raise ConfigError("reproduce", name, f"a registered reproduction; registered: {listing}")
    return entry.fn(quick=quick, out=result_folder(name, quick, out), jobs=jobs, dask=dask)


def result_folder(name: str, quick: bool = True, out: str | Path | None = None) -> Path:
    """The folder :func:`reproduce` writes to: ``out``, else ``results/reproduce-<name>`` (with
    ``-quick``) under the current folder."""
    if out is not None:
        return Path(out)
    return Path("results") / f"reproduce-{name}{'-quick' if quick else ''}"


def sweep_and_report(sweep: dict[str, Any], *, quick: bool, out: str | Path,
                     jobs: int | None = None, dask: str | None = None,
                     quick_sizes: tuple[str, ...] = ("tiny",), baseline: str | None = None,
                     simulate: Any = None) -> Path:
    """The usual body of a reproduction: run ``sweep`` (resumable) into ``out``, then report.

    Parameters
    ----------
    sweep
        A sweep description (the mapping of a sweep file); with ``quick`` its ``sizes`` are
        replaced by ``quick_sizes``.
    quick, out, jobs, dask
        As given to the reproduction function.
    baseline
        The variant the report normalises to (default: the sweep's first).
    simulate
        Job function (default: :func:`warpsim.runner.simulate.simulate`).

    Returns
    -------
    Path
        The report's HTML page.
    """
    from warpsim.report import make_report
    from warpsim.runner.sweep import parse_sweep, run_sweep

    data = dict(sweep)
    if quick:
        data["sizes"] = list(quick_sizes)
    spec = parse_sweep(data, check_benchmarks=simulate is None)
    run_sweep(spec, out, jobs=jobs, dask=dask, resume=True, simulate=simulate)
    return make_report(out, baseline=baseline)
