"""What the timing model says on stderr while it works: the engine-compile notice.

Follows: issue 19 (feedback on every long wait): a terminal, or ``WARPSIM_PROGRESS=1``, is told
when the cycle loop compiles and how long it took.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
from collections.abc import Iterator

__all__ = ["compile_notice", "progress_wanted"]


def progress_wanted() -> bool:
    """Whether to show progress on stderr: a terminal, or ``WARPSIM_PROGRESS=1``."""
    if os.environ.get("WARPSIM_PROGRESS", "") == "1":
        return True
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):  # replaced or closed stderr
        return False


@contextlib.contextmanager
def compile_notice(delay_s: float = 0.5) -> Iterator[None]:
    """Say on stderr that the timing engine is compiling when the body takes longer than
    ``delay_s`` (a body that finds the engine compiled says nothing), and how long it took;
    only when ``progress_wanted()``."""
    if not progress_wanted():
        yield
        return
    t0 = time.perf_counter()
    lock = threading.Lock()
    shown = [False, False]  # [start line printed, body finished]

    def announce() -> None:
        with lock:
            if shown[1]:
                return
            shown[0] = True
            erase = "\r\x1b[K" if sys.stderr.isatty() else ""  # a status line may be open
            print(f"{erase}warpsim: compiling the timing engine (once per machine, ~25 s)...",
                  file=sys.stderr, flush=True)

    timer = threading.Timer(delay_s, announce)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        with lock:
            shown[1] = True
            if shown[0]:
                print(f"warpsim: compiling the timing engine... done in "
                      f"{time.perf_counter() - t0:.1f} s", file=sys.stderr, flush=True)
