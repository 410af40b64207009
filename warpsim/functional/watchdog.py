"""Runaway kernels: a launch whose warps repeat the same state forever, and a wall-clock limit.

Follows: the CUDA driver's launch watchdog (a kernel running too long fails with a launch
timeout), issue 19 ("runaway kernels hang forever": ``while (flag == 0) {}`` on a flag nothing
sets). Every ``CHECK_BRANCHES`` branches the executor asks ``Watchdog.check``:
  - Spin: the batch's whole state (every register of every thread, the positions and SIMT
    stacks of all warps, barrier waits, live lanes) is digested together with the number of
    memory writes (stores, atomics, reductions, async copies) so far. The executor is
    deterministic, so a digest seen before with no memory write in between means the batch
    repeats itself forever: ``SpinError``, naming the loop's line and block. A loop that
    counts, reads ``%clock`` or writes memory never repeats a digest, so it is never stopped
    here (exact: no false alarm).
  - Timeout: ``launch_timeout_s`` seconds of wall time since the launch started:
    ``LaunchTimeoutError`` (off by default, like the driver on a compute-only GPU).
"""

from __future__ import annotations

import hashlib
import time
from typing import Any

import numpy as np

from warpsim.errors import LaunchError

__all__ = ["CHECK_BRANCHES", "LaunchTimeoutError", "SpinError", "Watchdog"]

CHECK_BRANCHES = 1024
"""Branches executed between two checks."""

_MAX_SEEN = 1 << 14
"""Digests kept between memory writes (a longer period is not detected; bounded memory)."""

_WRITES = ("st", "atom", "red", "cp", "sust", "sured", "suatom", "stmatrix", "mbarrier")
"""Opcodes that change memory (their executions are counted from the per-PC counts)."""

_READS = frozenset({"test_wait", "try_wait", "pending_count"})
"""Modifiers of the ``mbarrier`` forms that only read (a loop on ``test_wait`` spins)."""


class SpinError(LaunchError):
    """The launch repeats the same state forever (a spin-wait nothing can end)."""


class LaunchTimeoutError(LaunchError):
    """The launch ran longer than ``launch_timeout_s`` seconds of wall time."""


class Watchdog:
    """Spin detection and the wall-clock limit of one launch."""

    def __init__(self, prog: Any, timeout_s: float | None) -> None:
        self.prog = prog
        self.timeout_s = timeout_s
        self.deadline = None if timeout_s is None else time.monotonic() + float(timeout_s)
        cache = getattr(prog, "launch_cache", {})
        write_pcs = cache.get("write_pcs")
        if write_pcs is None:
            write_pcs = np.array([i for i, op in enumerate(prog.opcodes)
                                  if op.split(".")[0] in _WRITES
                                  and _READS.isdisjoint(op.split("."))], np.int64)
            cache["write_pcs"] = write_pcs
        self.write_pcs = write_pcs
        self.seen: set[bytes] = set()
        """Full digests since the last memory write (only of states whose fingerprint
        repeated)."""
        self.seen_quick: set[bytes] = set()
        """Fingerprints since the last memory write."""
        self.writes = -1

    def check(self, run: Any, g: Any, pc: int) -> None:
        """Raise when the batch ``run`` spins (``g`` is the group at branch ``pc``) or the
        time is up."""
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise LaunchTimeoutError(self.prog.name, f"the launch ran longer than "
                                     f"launch_timeout_s={self.timeout_s} s (at line "
                                     f"{self._line(pc)}, block {self._block(run, g)})",
                                     hint="raise the limit, or look for a loop that does "
                                          "not end")
        pw = run.pc_warps
        writes = sum(pw[i] for i in self.write_pcs.tolist())
        if writes != self.writes or len(self.seen_quick) > _MAX_SEEN:
            self.seen.clear()
            self.seen_quick.clear()
            self.writes = writes
        quick = self._fingerprint(run, g, pc)
        if quick not in self.seen_quick:
            self.seen_quick.add(quick)
            return
        digest = self._digest(run, g, pc)
        if digest in self.seen:
            raise SpinError(self.prog.name, f"the kernel spins forever at line "
                            f"{self._line(pc)} in block {self._block(run, g)}: its warps "
                            "repeat the same state and no thread writes memory any more",
                            hint="a spin-wait on a flag no running thread sets? (the "
                                 "functional model runs blocks in batches: a flag set by a "
                                 "block of a later batch is never seen)")
        self.seen.add(digest)

    @staticmethod
    def _control(h: Any, run: Any, g: Any, pc: int) -> None:
        """Feed the batch's control state (positions, groups, stacks, live lanes, barrier
        waits) to ``h``."""
        h.update(np.int64(pc).tobytes())
        h.update(np.ascontiguousarray(g.ws).tobytes())
        h.update(np.ascontiguousarray(g.masks).tobytes())
        for key in sorted(run.groups):
            other = run.groups[key]
            h.update(np.int64(key).tobytes())
            h.update(np.ascontiguousarray(other.ws).tobytes())
            h.update(np.ascontiguousarray(other.masks).tobytes())
        st = run.stacks
        for a in (st.pc, st.rpc, st.mask, st.depth, run.live, run.bar_wait):
            h.update(np.ascontiguousarray(a).tobytes())

    @classmethod
    def _fingerprint(cls, run: Any, g: Any, pc: int) -> bytes:
        """A function of the same state as ``_digest``, cheap to take: the control state
        hashed, each register reduced to the wrapping sum of its 64-bit words (equal states
        give equal fingerprints; unequal ones rarely collide, and a collision only costs a
        full digest)."""
        h = hashlib.blake2b(digest_size=20)
        cls._control(h, run, g, pc)
        sums = np.empty(len(run.regs), np.uint64)
        add = np.add.reduce
        u64, u8 = np.uint64, np.uint8
        for i, r in enumerate(run.regs):
            b = np.ascontiguousarray(r).view(u8)
            sums[i] = add(b.view(u64), dtype=u64) if b.size % 8 == 0 else add(b, dtype=u64)
        h.update(sums.tobytes())
        return h.digest()

    @classmethod
    def _digest(cls, run: Any, g: Any, pc: int) -> bytes:
        h = hashlib.blake2b(digest_size=20)
        cls._control(h, run, g, pc)
        for r in run.regs:
            h.update(np.ascontiguousarray(r).tobytes())
        return h.digest()

    def _line(self, pc: int) -> str:
        insts = self.prog.insts
        inst = insts[min(pc, len(insts) - 1)]
        src = f", {inst.src[0]}:{inst.src[1]}" if inst.src is not None else ""
        return f"{inst.line} ({inst.text.strip()}{src})"

    @staticmethod
    def _block(run: Any, g: Any) -> tuple[int, int, int]:
        return run.thread_coords(int(g.ws[0]) * 32)[1]
