"""Small pure-Python job functions for the sweep tests (top-level, so workers can unpickle them).

Each returns counters derived from the job by a formula the tests recompute independently:
``gpu_sim_insn = 1000 * len(benchmark) + seed`` and ``gpgpu_n_tot_w_icount = 100 + seed``.
"""

from __future__ import annotations

import os
import time
from typing import Any

__all__ = ["dies_on_b", "expected_insn", "failing_on_b", "instant", "marked_sleepy", "sleepy"]


def expected_insn(benchmark: str, seed: int) -> int:
    """The ``gpu_sim_insn`` the job functions report."""
    return 1000 * len(benchmark) + seed


def instant(job: Any) -> dict[str, Any]:
    """Counters at once."""
    return {"stats": {"gpu_sim_insn": expected_insn(job.benchmark, job.seed),
                      "gpgpu_n_tot_w_icount": 100 + job.seed},
            "energy": {"regfile": 2.0, "dram": 3.0}, "verified": True, "mode": "test"}


def failing_on_b(job: Any) -> dict[str, Any]:
    """Raises for the benchmark named ``b``; counters for the others."""
    if job.benchmark == "b":
        raise ValueError(f"benchmark b cannot run (seed {job.seed})")
    return instant(job)


def sleepy(job: Any) -> dict[str, Any]:
    """Counters after ``SWEEP_TEST_SLEEP_S`` seconds (default 0.2)."""
    time.sleep(float(os.environ.get("SWEEP_TEST_SLEEP_S", "0.2")))
    return instant(job)


def marked_sleepy(job: Any) -> dict[str, Any]:
    """Writes its worker's process id into ``SWEEP_TEST_MARK_DIR`` (a file named after it),
    then behaves as :func:`sleepy`."""
    mark = os.path.join(os.environ["SWEEP_TEST_MARK_DIR"], str(os.getpid()))
    with open(mark, "w") as fh:
        fh.write(str(os.getppid()))
    return sleepy(job)


def dies_on_b(job: Any) -> dict[str, Any]:
    """Kills its worker process for the benchmark named ``b`` (a crash, not an exception)."""
    if job.benchmark == "b":
        os._exit(3)
    return instant(job)
