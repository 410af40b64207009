"""The live progress display of a sweep: a bar with done / failed / running counts and an ETA.

Follows: ARCHITECTURE.md §7; STYLE.md §2.1 (progress bars only in ``cli.py`` and ``runner/``).
Drawn with ``rich`` on a terminal; silent when the output is not a TTY (logs, CI, tests), where
only the final summary line that the CLI prints appears.
"""

from __future__ import annotations

import sys
import time
from typing import Any, TextIO

__all__ = ["SweepProgress"]


class SweepProgress:
    """A context manager showing a sweep's progress.

    Parameters
    ----------
    total
        Jobs to run in this invocation (skipped ones excluded).
    description
        Text left of the bar (the sweep's name).
    enabled
        Force the display on or off; default: on when ``stream`` is a terminal.
    stream
        Where to draw (default ``sys.stderr``).
    """

    def __init__(self, total: int, description: str = "sweep", *,
                 enabled: bool | None = None, stream: TextIO | None = None) -> None:
        self.total = total
        self.description = description
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.done = 0
        self.failed = 0
        self.running = 0
        self.started = time.monotonic()
        self._progress: Any = None
        self._task: Any = None

    def __enter__(self) -> SweepProgress:
        self.started = time.monotonic()
        if self.enabled:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            self._progress = Progress(
                TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                TextColumn("[green]ok {task.fields[ok]}[/] [red]failed {task.fields[failed]}[/]"
                           " [cyan]running {task.fields[running]}[/]"),
                TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                console=Console(file=self.stream), transient=False)
            self._progress.start()
            self._task = self._progress.add_task(self.description, total=self.total, ok=0,
                                                 failed=0, running=0)
        return self

    def update(self, *, done: int, failed: int, running: int) -> None:
        """Set the counts: ``done`` finished jobs (failed ones included), ``failed``, and
        ``running`` jobs now on workers."""
        self.done, self.failed, self.running = done, failed, running
        if self._progress is not None:
            self._progress.update(self._task, completed=done, ok=done - failed, failed=failed,
                                  running=running)

    def eta_s(self) -> float | None:
        """Seconds left at the mean rate so far (None before the first job finishes)."""
        if self.done == 0:
            return None
        rate = self.done / max(time.monotonic() - self.started, 1e-9)
        return (self.total - self.done) / rate

    def __exit__(self, *exc: object) -> None:
        if self._progress is not None:
            self._progress.stop()
            self._progress = None
