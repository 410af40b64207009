"""Device-side ``malloc`` and ``free`` (and C++ ``new``/``delete``, which call them).

Follows: CUDA C++ Programming Guide, "Dynamic Global Memory Allocation and Operations"
(``malloc`` returns a 16-byte aligned pointer into a device heap that outlives the launch, or
NULL when the heap is exhausted; ``free`` of NULL does nothing; memory from ``malloc`` is
released only by ``free``); the PTX nvcc emits: ``call.uni (retval), malloc, (size)`` and
``call.uni free, (ptr)`` on the body-less ``.extern .func``s.
Assumptions:
  [A] The heap is ``HEAP_LIMIT_BYTES`` (CUDA's default ``cudaLimitMallocHeapSize``, 8 MiB) per
      device memory; each allocation is an allocation of warpsim's global memory, so accesses
      outside it are faults like any other.
  [A] The threads of one executed ``malloc`` allocate in increasing thread order; a size of 0
      returns NULL.
  [A] ``free`` of an address ``malloc`` did not return (or freed already) stops the launch
      with a ``MemoryAccessError`` (the GPU's behaviour is undefined).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from warpsim.errors import MemoryAccessError
from warpsim.ptx.ir import Instruction

__all__ = ["HEAP_LIMIT_BYTES", "build_free", "build_malloc", "heap_alloc"]

HEAP_LIMIT_BYTES = 8 << 20
"""The device heap's size (CUDA's default ``cudaLimitMallocHeapSize``)."""

_NAME = "device malloc"


def _used(memory: Any) -> int:
    return sum(size for _, size, name in memory.allocations() if name == _NAME)


def heap_alloc(memory: Any, sizes: list[int]) -> np.ndarray:
    """One heap allocation per size, in order (0 for a size of 0 or once the heap is full)."""
    used = _used(memory)
    out = np.zeros(len(sizes), np.uint64)
    for i, n in enumerate(sizes):
        if 0 < n and used + n <= HEAP_LIMIT_BYTES:
            out[i] = memory.alloc(int(n), align=16, name=_NAME)
            used += int(n)
    return out


def build_malloc(inst: Instruction, ctx: Any) -> Any:
    """The closure of ``call (ptr), malloc, (size)``."""
    from warpsim.functional.ldst import lanes_of
    from warpsim.functional.printf import call_param_slots

    (size_off,), rets = call_param_slots(inst, ctx, "malloc", n_params=1, n_rets=1,
                                         hint="malloc takes a size and returns a pointer")
    if not rets:
        raise ctx.error(inst, "malloc without a result")
    ret_off = rets[0]

    def run(bs: Any, g: Any, pred: Any, exm: Any) -> None:
        _, tidx, _, _ = lanes_of(g, pred)
        tidx = np.sort(np.asarray(tidx, np.int64))
        local, lb = bs.local, bs.local_bytes
        sizes = local[(tidx * lb + size_off)[:, None] + np.arange(8)].view("<u8")[:, 0]
        out = heap_alloc(bs.memory, sizes.tolist())
        local[(tidx * lb + ret_off)[:, None] + np.arange(8)] = out.view(np.uint8).reshape(-1, 8)
    return run


def build_free(inst: Instruction, ctx: Any, name: str = "free") -> Any:
    """The closure of ``call free, (ptr)`` (and of the device runtime's ``cudaFree``, whose
    result, ``cudaSuccess``, it writes)."""
    from warpsim.functional.ldst import lanes_of
    from warpsim.functional.printf import call_param_slots

    (ptr_off,), rets = call_param_slots(inst, ctx, name, n_params=1, n_rets=1,
                                        hint=f"{name} takes the pointer malloc returned")

    def run(bs: Any, g: Any, pred: Any, exm: Any) -> None:
        _, tidx, _, _ = lanes_of(g, pred)
        tidx = np.sort(np.asarray(tidx, np.int64))
        local, lb = bs.local, bs.local_bytes
        ptrs = local[(tidx * lb + ptr_off)[:, None] + np.arange(8)].view("<u8")[:, 0]
        names = {a: name for a, _, name in bs.memory.allocations()}
        for t, p in zip(tidx.tolist(), ptrs.tolist(), strict=True):
            if p == 0:
                continue
            if names.get(p) != _NAME:
                tid, cta = bs.thread_coords(t)
                raise MemoryAccessError(
                    "free of an address malloc did not return (or freed twice)",
                    kernel=bs.prog.name, line=inst.line or None, thread=tid, block=cta,
                    address=int(p), space="global", bounds=bs.memory.describe_nearest(p),
                    file=bs.prog.file, source_line=inst.text, src=inst.src)
            bs.memory.free(p)
            del names[p]
        if rets:
            local[(tidx * lb + rets[0])[:, None] + np.arange(4)] = 0
    return run
