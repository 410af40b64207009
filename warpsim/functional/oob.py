"""Out-of-bounds global accesses that hardware forgives: the ``oob="report"`` mode.

Follows: issue 18 cause 7. A GPU faults only on addresses outside every mapped page; an access
just outside an allocation (Rodinia srad_v2 reads the row before its array) reads whatever is
there. warpsim's exact check (``oob="fault"``, the default) stops such launches; in the report
mode an access that is outside every allocation but inside warpsim's device heap proceeds as
on hardware (loads return the heap's bytes there: another allocation, or zeros where nothing
was ever allocated; stores write them), and each is recorded here: the first ``keep`` with
kernel, line, thread, block and address, and a count of all. Misaligned accesses, and
addresses outside the heap (an unmapped page on a GPU), still fault.
Assumptions:
  [A] The device that uses the mode reserves ``GUARD_BYTES`` of zeros before its first
      allocation, so that reads just before the lowest array stay inside the heap (on a GPU
      that memory is mapped too: allocations are carved out of larger mapped ranges).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = ["GUARD_BYTES", "OOB_MODES", "OOBLog", "OOBRecord"]

OOB_MODES = ("fault", "report")
"""``fault``: every access outside an allocation stops the launch (exact); ``report``: those
inside the device heap proceed and are reported."""

GUARD_BYTES = 64 * 1024
"""Zeros the report mode reserves before the first allocation."""


@dataclass(frozen=True)
class OOBRecord:
    """One forgiven access (one thread)."""

    kernel: str
    file: str
    line: int
    source_line: str
    thread: tuple[int, int, int]
    block: tuple[int, int, int]
    address: int
    space: str
    nearest: str
    src: tuple[str, int] | None = None
    """The CUDA source (file, line) when the PTX has line information."""

    def describe(self) -> str:
        where = f"{self.file or '<ptx>'}:{self.line}" if self.line else (self.file or "<ptx>")
        if self.src is not None:
            where = f"{self.src[0]}:{self.src[1]}, PTX {where}"
        return (f"kernel {self.kernel}, {where} ({self.source_line.strip()}), block "
                f"{self.block}, thread {self.thread}: {self.space} address {self.address:#x} "
                f"({self.nearest})")


@dataclass
class OOBLog:
    """The forgiven accesses of a device: ``count`` threads in all, the first ``keep`` kept."""

    keep: int = 20
    count: int = 0
    records: list[OOBRecord] = field(default_factory=list)
    per_kernel: dict[str, int] = field(default_factory=dict)

    def add(self, bs: Any, tidx: np.ndarray, addr: np.ndarray, bad: np.ndarray,
            space: str) -> None:
        """Record the lanes ``bad`` (positions into ``tidx``/``addr``) of the current
        instruction of batch state ``bs``."""
        n = int(bad.size)
        self.count += n
        self.per_kernel[bs.prog.name] = self.per_kernel.get(bs.prog.name, 0) + n
        inst = bs.prog.insts[bs.cur_pc]
        for i in bad[:max(0, self.keep - len(self.records))].tolist():
            tid, cta = bs.thread_coords(int(tidx[i]))
            a = int(addr[i])
            self.records.append(OOBRecord(
                bs.prog.name, bs.prog.file or "", int(inst.line or 0), inst.text or "", tid,
                cta, a, space, bs.memory.describe_nearest(a), inst.src))

    def summary(self) -> str:
        """The report printed at exit (empty when nothing was forgiven)."""
        if not self.count:
            return ""
        kernels = ", ".join(f"{k} ({v})" for k, v in self.per_kernel.items())
        lines = [f"WARNING: {self.count} out-of-bounds global access(es) by threads were "
                 f"allowed (oob=report) in: {kernels}. A GPU may read other data or fault "
                 f"there; the first {len(self.records)}:"]
        lines += [f"  {r.describe()}" for r in self.records]
        return "\n".join(lines)
