"""Where sweep jobs run: a local process pool, or a Dask distributed cluster, one code path.

Follows: ARCHITECTURE.md §7 (independent jobs on a local process pool by default, or on a Dask
cluster given a scheduler address, with the same code). Both executors offer the same three
operations, which is all :func:`warpsim.runner.sweep.run_sweep` uses: ``submit(fn, *args)`` ->
future, ``wait_first(futures)`` -> (done, pending) and ``shutdown(cancel)``; a future answers
``result()``. The local pool uses the ``spawn`` start method, so it behaves as a cluster worker
does (nothing inherited from the parent but what is pickled) and is safe beside numba's threads.
Its workers die with the sweep process, even when that is killed with ``kill -9``
(:func:`_worker_init`): an orphaned worker would simulate on for minutes beside a resumed sweep.
"""

from __future__ import annotations

import concurrent.futures as cf
import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from warpsim.errors import ConfigError

__all__ = ["DaskExecutor", "Executor", "InlineExecutor", "LocalExecutor", "make_executor"]


_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def _watch_parent(parent_pid: int, poll_s: float) -> None:
    while os.getppid() == parent_pid:
        time.sleep(poll_s)
    os._exit(1)


def _worker_init(parent_pid: int, poll_s: float = 1.0) -> None:
    """Initializer of each pool worker: make it die with the process that started it.

    On Linux the kernel sends the worker SIGKILL when its parent dies
    (``prctl(PR_SET_PDEATHSIG)``), at once, even inside a long numba call. Everywhere a daemon
    thread also polls the parent id and exits the worker once it changed (the parent died and
    the worker was re-parented); that thread runs whenever the worker holds no lock on Python.
    A parent already dead before this ran is caught by the first check. (The kernel's signal
    follows the parent *thread* that started the worker: the pool starts workers from the thread
    that submits, :func:`warpsim.runner.sweep.run_sweep`'s caller, which outlives them.)
    """
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
        except (OSError, AttributeError):  # no prctl (an unusual libc): the thread remains
            pass
    if os.getppid() != parent_pid:
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent_pid, poll_s), daemon=True,
                     name="warpsim-parent-watch").start()


def _process_pool(n_workers: int) -> cf.ProcessPoolExecutor:
    """``n_workers`` spawned processes that die with this one (see :func:`_worker_init`)."""
    return cf.ProcessPoolExecutor(max_workers=n_workers,
                                  mp_context=multiprocessing.get_context("spawn"),
                                  initializer=_worker_init, initargs=(os.getpid(),))


class Executor:
    """The interface the sweep runner uses (see the module docstring)."""

    n_workers: int = 1
    """How many jobs run at once."""
    description: str = ""

    def submit(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Start ``fn(*args)`` somewhere; returns a future."""
        raise NotImplementedError

    def wait_first(self, futures: Iterable[Any],
                   timeout_s: float | None = None) -> tuple[set[Any], set[Any]]:
        """Block until at least one of ``futures`` finished (or the timeout); (done, pending)."""
        raise NotImplementedError

    def shutdown(self, cancel: bool = False) -> None:
        """Release the workers; with ``cancel``, drop jobs not yet started."""
        raise NotImplementedError

    def is_crash(self, exc: BaseException) -> bool:
        """Whether ``exc`` (from a future) means a worker process died and took every job in
        flight with it; the runner then calls :meth:`restart` and reruns those jobs alone."""
        del exc
        return False

    def restart(self) -> None:
        """Replace crashed workers."""

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, exc_type: object, *rest: object) -> None:
        self.shutdown(cancel=exc_type is not None)


class LocalExecutor(Executor):
    """A ``concurrent.futures.ProcessPoolExecutor`` of ``n_workers`` spawned processes.

    Parameters
    ----------
    n_workers
        Worker processes (default: the machine's core count).
    """

    def __init__(self, n_workers: int | None = None) -> None:
        n = n_workers if n_workers is not None else (os.cpu_count() or 1)
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ConfigError("jobs", n_workers, "a positive number of worker processes")
        self.n_workers = n
        self.description = f"local process pool, {n} worker{'s' if n != 1 else ''}"
        self._pool = _process_pool(n)

    def submit(self, fn: Callable[..., Any], *args: Any) -> cf.Future[Any]:
        return self._pool.submit(fn, *args)

    def wait_first(self, futures: Iterable[Any],
                   timeout_s: float | None = None) -> tuple[set[Any], set[Any]]:
        done, pending = cf.wait(list(futures), timeout=timeout_s,
                                return_when=cf.FIRST_COMPLETED)
        return set(done), set(pending)

    def shutdown(self, cancel: bool = False) -> None:
        self._pool.shutdown(wait=not cancel, cancel_futures=cancel)

    def is_crash(self, exc: BaseException) -> bool:
        from concurrent.futures.process import BrokenProcessPool

        return isinstance(exc, BrokenProcessPool)

    def restart(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._pool = _process_pool(self.n_workers)


class InlineExecutor(Executor):
    """Runs each job in the calling process when it is submitted (debugging, ``pdb``, tests).

    Jobs share the caller's process, so one that crashes the interpreter ends the sweep; use
    :class:`LocalExecutor` for isolation.
    """

    n_workers = 1
    description = "in-process, serial"

    def submit(self, fn: Callable[..., Any], *args: Any) -> cf.Future[Any]:
        fut: cf.Future[Any] = cf.Future()
        try:
            fut.set_result(fn(*args))
        except Exception as exc:  # delivered through the future, as a pool would
            fut.set_exception(exc)
        return fut

    def wait_first(self, futures: Iterable[Any],
                   timeout_s: float | None = None) -> tuple[set[Any], set[Any]]:
        items = set(futures)
        return {f for f in items if f.done()}, {f for f in items if not f.done()}

    def shutdown(self, cancel: bool = False) -> None:
        return None


class DaskExecutor(Executor):
    """Jobs as tasks of a Dask ``distributed`` cluster.

    Parameters
    ----------
    address
        A scheduler address (``"tcp://host:8786"``) or an existing ``distributed.Client``
        (which is then not closed by :meth:`shutdown`).
    """

    def __init__(self, address: Any) -> None:
        try:
            import distributed
        except ImportError as exc:  # declared dependency; a broken install is the only cause
            raise ConfigError("dask", address, "an installed dask[distributed]",
                              hint="pip install 'dask[distributed]'") from exc
        self._distributed = distributed
        if isinstance(address, distributed.Client):
            self._client = address
            self._owns = False
        else:
            try:
                self._client = distributed.Client(address, timeout="20s")
            except OSError as exc:
                raise ConfigError("dask", address, "the address of a running Dask scheduler",
                                  hint="start one with `dask scheduler` and workers with "
                                       f"`dask worker {address}`") from exc
            self._owns = True
        threads = self._client.nthreads()
        self.n_workers = max(1, sum(threads.values()))
        self.description = (f"Dask cluster {self._client.scheduler.address}, "
                            f"{len(threads)} workers, {self.n_workers} threads")

    def submit(self, fn: Callable[..., Any], *args: Any) -> Any:
        return self._client.submit(fn, *args, pure=False)

    def wait_first(self, futures: Iterable[Any],
                   timeout_s: float | None = None) -> tuple[set[Any], set[Any]]:
        items = list(futures)
        try:
            done, pending = self._distributed.wait(items, timeout=timeout_s,
                                                   return_when="FIRST_COMPLETED")
        except TimeoutError:
            return set(), set(items)
        return set(done), set(pending)

    def shutdown(self, cancel: bool = False) -> None:
        if self._owns:
            self._client.close()


def make_executor(jobs: int | None = None, dask: Any = None) -> Executor:
    """A :class:`DaskExecutor` when ``dask`` (an address or Client) is given, else a
    :class:`LocalExecutor` with ``jobs`` workers."""
    if dask is not None:
        return DaskExecutor(dask)
    return LocalExecutor(jobs)
