"""Device-side ``assert``: the ``__assertfail`` built-in that CUDA's ``assert`` compiles to.

Follows: CUDA C++ Programming Guide, "Assertion" (a failing ``assert`` stops the kernel; the
driver prints, for each failing thread, ``file:line: function: block: [x,y,z], thread:
[x,y,z] Assertion `expression` failed.``, and the launch reports ``cudaErrorAssert``, which
leaves the context unusable); the PTX nvcc emits: ``call.uni __assertfail, (message, file,
line, function, charSize)`` with generic pointers to NUL-terminated strings and a ``.b32``
line. An ``assert`` compiled with ``NDEBUG`` is no call at all.
Assumptions:
  [A] Every thread of the execution group that runs the failing ``__assertfail`` is reported
      (the executor runs a batch's warps at one PC together; increasing thread order; the
      message shows the first ``SHOWN`` of them), and the launch stops there: threads that
      would fail later (other batches, other paths) are not reported (the driver's order is
      unspecified too).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from warpsim.errors import LaunchError, WarpsimError
from warpsim.ptx.ir import Instruction

__all__ = ["SHOWN", "DeviceAssertError", "build_assertfail"]

SHOWN = 8
"""Failing threads listed in the message (the count of the others follows)."""


class DeviceAssertError(LaunchError):
    """A device-side ``assert`` failed (``lines``: the driver's message per failing thread)."""

    def __init__(self, kernel: str, lines: list[str], where: str) -> None:
        more = len(lines) - SHOWN
        text = "\n".join([f"device-side assert failed in kernel {kernel} ({where}):",
                          *(f"  {s}" for s in lines[:SHOWN]),
                          *([f"  ... and {more} more thread(s)"] if more > 0 else []),
                          "  hint: the launch stopped there, as on a GPU (cudaErrorAssert); "
                          "build with -DNDEBUG to compile the asserts out"])
        WarpsimError.__init__(self, text, kernel=kernel, problem="device-side assert",
                              lines=lines)


def build_assertfail(inst: Instruction, ctx: Any) -> Any:
    """The closure of ``call __assertfail, (message, file, line, function, charSize)``:
    raises ``DeviceAssertError`` naming every thread that executes it."""
    from warpsim.functional.ldst import lanes_of
    from warpsim.functional.printf import call_param_slots, read_string

    slots, _ = call_param_slots(inst, ctx, "__assertfail", n_params=5, n_rets=0,
                                hint="__assertfail takes (message, file, line, function, "
                                     "charSize)")
    msg_off, file_off, line_off, func_off = slots[:4]

    def run(bs: Any, g: Any, pred: Any, exm: Any) -> None:
        _, tidx, _, _ = lanes_of(g, pred)
        tidx = np.sort(np.asarray(tidx, np.int64))
        if tidx.size == 0:
            return
        local, lb = bs.local, bs.local_bytes

        def word(t: int, off: int, n: int) -> int:
            return int.from_bytes(local[t * lb + off:t * lb + off + n].tobytes(), "little")

        lines = []
        for t in tidx.tolist():
            text = [read_string(bs, t, word(t, off, 8)).decode("utf-8", "replace")
                    for off in (msg_off, file_off, func_off)]
            tid, cta = bs.thread_coords(t)
            lines.append(f"{text[1]}:{word(t, line_off, 4)}: {text[2]}: block: "
                         f"[{cta[0]},{cta[1]},{cta[2]}], thread: [{tid[0]},{tid[1]},{tid[2]}]"
                         f" Assertion `{text[0]}` failed.")
        raise DeviceAssertError(bs.prog.name, lines,
                                f"{bs.prog.file or '<ptx>'}:{inst.line}" if inst.line
                                else bs.prog.file or "<ptx>")
    return run
