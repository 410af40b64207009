"""Device-side ``cudaGraphSetConditional``: a kernel sets the value of a graph's conditional
node handle.

Follows: CUDA C++ Programming Guide, "Conditional Graph Nodes" (a kernel in the graph sets the
condition with ``cudaGraphSetConditional(handle, value)``; the conditional node reads it when
it runs) and the PTX nvcc 13 emits for it (no ``-rdc`` needed): ``call.uni
cudaGraphSetConditional, (handle, value)`` with a ``.b64`` handle and a ``.b32`` value, the
callee an ``.extern .func`` without a body.
Assumptions:
  [A] warpsim's runtime (``warpsim/cudart/shim_graph.c``) makes a handle the device address of
      a 4-byte word; the call stores ``value`` there, and the host reads it when the graph
      reaches the conditional node (every call in warpsim is synchronous).
  [A] Several threads setting one handle: the last in increasing thread order wins (CUDA
      calls concurrent calls undefined behaviour).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from warpsim.ptx.ir import Instruction

__all__ = ["NAME", "build_set_conditional"]

NAME = "cudaGraphSetConditional"


def build_set_conditional(inst: Instruction, ctx: Any) -> Any:
    """The closure of ``call cudaGraphSetConditional, (handle, value)``: stores each executing
    thread's ``value`` (32 bits) at the address ``handle``."""
    from warpsim.functional.ldst import lanes_of
    from warpsim.functional.memops import resolve_parts, space_view
    from warpsim.functional.printf import call_param_slots

    (h_off, v_off), _ = call_param_slots(
        inst, ctx, NAME, n_params=2, n_rets=0,
        hint="cudaGraphSetConditional takes (cudaGraphConditionalHandle, unsigned int)")

    def run(bs: Any, g: Any, pred: Any, exm: Any) -> None:
        _, tidx, _, _ = lanes_of(g, pred)
        tidx = np.sort(np.asarray(tidx, np.int64))
        if tidx.size == 0:
            return
        base = tidx * bs.local_bytes
        handles = bs.local[(base + h_off)[:, None] + np.arange(8)].view("<u8")[:, 0]
        values = bs.local[(base + v_off)[:, None] + np.arange(4)].view("<u4")[:, 0]
        for part in resolve_parts(bs, "global", tidx, handles, 0, 4, 2):
            sel = slice(None) if part.pos is None else part.pos
            view = space_view(bs, part.space, np.uint32)
            for i, v in zip(np.atleast_1d(part.idx).tolist(), values[sel].tolist(), strict=True):
                view[i] = v  # one by one: the last thread wins on equal handles
    return run
