"""Dynamic parallelism: kernels launched from device code (CUDA's device runtime).

Follows: CUDA C++ Programming Guide, "CUDA Dynamic Parallelism" (CDP2: a launch from a thread
creates a child grid; the parent grid is not complete until its children are; launches into
the same stream run in order; ``cudaStreamTailLaunch`` runs after the parent grid; there is
no device-side ``cudaDeviceSynchronize``) and the PTX nvcc emits for ``k<<<g, b, s, st>>>(...)``
in device code (``-rdc=true``): ``call (buf), __cudaCDP2GetParameterBufferV2, (func, grid,
block, shmem)``, stores of the arguments into ``buf`` in the kernel's ``.param`` layout, then
``call (err), __cudaCDP2LaunchDeviceV2, (buf, stream)``; the CDP1 names without the
``__cudaCDP2`` prefix and the non-V2 pair (``GetParameterBuffer(align, size)``,
``LaunchDevice(func, buf, grid, block, shmem, stream)``) are the same calls.

Assumptions:
  [A] A child grid runs after its parent grid finishes (as a tail launch would), children in
      the order their launches executed (threads of one ``LaunchDeviceV2`` in increasing thread
      order); that is one legal CDP2 schedule: without a device-side synchronisation a parent
      cannot wait for its children. The timing model times each child as its own launch after
      the parent (no overlap of parent and child grids).
  [A] The parameter buffer is device memory (global allocations named "device launch
      parameters"); its bytes are read when ``LaunchDevice`` executes and the buffer is freed.
  [A] ``cudaMalloc``/``cudaFree`` in device code use the device heap of ``malloc``/``free``.
  [A] ``cudaStreamCreateWithFlags`` gives a fresh non-zero handle; every stream runs its
      children after the parent as above. ``cudaGetLastError``/``cudaPeekAtLastError`` return
      ``cudaSuccess`` (a failing child launch fails the host's launch instead).
Deviations: nesting deeper than ``MAX_DEPTH`` (CUDA's limit, 24) fails the launch.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from warpsim.errors import LaunchError
from warpsim.ptx.ir import Instruction

__all__ = ["MAX_DEPTH", "ChildCopy", "ChildLaunch", "build_device_runtime_call",
           "device_runtime_call"]

MAX_DEPTH = 24
"""Deepest nesting of device-side launches (CUDA's ``cudaLimitDevRuntimeSyncDepth`` bound)."""

_BUFFER = "device launch parameters"


@dataclass(frozen=True, slots=True)
class ChildLaunch:
    """A grid launched by a thread of a running kernel."""

    kernel: str
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    shared_bytes: int
    params: bytes
    stream: int


@dataclass(frozen=True, slots=True)
class ChildCopy:
    """A ``cudaMemcpyAsync`` issued by a thread of a running kernel: ordered with the grids
    it launched (it runs after the parent, in issue order)."""

    dst: int
    src: int
    nbytes: int


def _read(bs: Any, tidx: np.ndarray, off: int, n: int) -> np.ndarray:
    """``n`` bytes of each thread's call-scope ``.param`` slot at ``off`` (rows)."""
    return bs.local[(tidx * bs.local_bytes + off)[:, None] + np.arange(n)]


def _u64(bs: Any, tidx: np.ndarray, off: int) -> np.ndarray:
    """Each thread's 8-byte argument at ``off`` (a pointer, a size, a stream)."""
    return _read(bs, tidx, off, 8).view("<u8")[:, 0]


def _success(bs: Any, tidx: np.ndarray, ret: int) -> None:
    """``cudaSuccess`` into each thread's result slot (when the call has one)."""
    if ret >= 0:
        _write(bs, tidx, ret, np.zeros(tidx.size, np.int32))


def _write(bs: Any, tidx: np.ndarray, off: int, values: np.ndarray) -> None:
    raw = np.ascontiguousarray(values).view(np.uint8).reshape(tidx.size, -1)
    bs.local[(tidx * bs.local_bytes + off)[:, None] + np.arange(raw.shape[1])] = raw


def _threads(g: Any, pred: Any) -> np.ndarray:
    from warpsim.functional.ldst import lanes_of

    _, tidx, _, _ = lanes_of(g, pred)
    return np.sort(np.asarray(tidx, np.int64))


def _slots(inst: Instruction, ctx: Any, name: str, n_params: int, hint: str
           ) -> tuple[list[int], int]:
    from warpsim.functional.printf import call_param_slots

    params, rets = call_param_slots(inst, ctx, name, n_params=n_params, n_rets=1, hint=hint)
    return params, (rets[0] if rets else -1)


def _kernel_at(ctx: Any) -> dict[int, str]:
    """Kernel name by device address (kernels whose address the module takes)."""
    module = ctx.module
    return {a: n for n, a in ctx.image.function_addresses.items()
            if module.functions[n].is_entry}


def _pending(bs: Any) -> dict[int, tuple[str, tuple, tuple, int, int]]:
    """Parameter buffers handed out and not launched yet: (kernel, grid, block, shared,
    size) by address."""
    return bs.cdp_buffers


def _children(bs: Any) -> list[ChildLaunch]:
    return bs.children


def _buffer(bs: Any, inst: Instruction, kernels: dict[int, str], ctx: Any, func: int,
            grid: tuple, block: tuple, shmem: int, size: int | None) -> int:
    name = kernels.get(func)
    if name is None:
        raise LaunchError(ctx.fn.name, f"device-side launch of {func:#x}, which is no kernel "
                          f"of this module (line {inst.line})")
    if size is None:
        size = ctx.module.functions[name].param_bytes
    addr = bs.memory.alloc(max(8, size), align=64, name=_BUFFER)
    _pending(bs)[addr] = (name, grid, block, shmem, size)
    return addr


def _dims(raw: np.ndarray) -> tuple[int, int, int]:
    x, y, z = (int(v) for v in raw.view("<u4"))
    return x, y, z


def _build_param_buffer_v2(inst: Instruction, ctx: Any, name: str) -> Any:
    (f_off, g_off, b_off, s_off), ret = _slots(
        inst, ctx, name, 4, "GetParameterBufferV2 takes (kernel, grid, block, shared bytes)")
    kernels = _kernel_at(ctx)

    def run(bs: Any, g: Any, pred: Any, exm: Any) -> None:
        tidx = _threads(g, pred)
        funcs = _u64(bs, tidx, f_off)
        grids, blocks = _read(bs, tidx, g_off, 12), _read(bs, tidx, b_off, 12)
        shm = _read(bs, tidx, s_off, 4).view("<u4")[:, 0]
        out = np.array([_buffer(bs, inst, kernels, ctx, int(funcs[i]), _dims(grids[i]),
                                _dims(blocks[i]), int(shm[i]), None)
                        for i in range(tidx.size)], np.uint64)
        if ret >= 0:
            _write(bs, tidx, ret, out)
    return run


def _build_param_buffer(inst: Instruction, ctx: Any, name: str) -> Any:
    (_, size_off), ret = _slots(inst, ctx, name, 2,
                                "GetParameterBuffer takes (alignment, size)")

    def run(bs: Any, g: Any, pred: Any, exm: Any) -> None:
        tidx = _threads(g, pred)
        sizes = _u64(bs, tidx, size_off)
        out = np.zeros(tidx.size, np.uint64)
        for i in range(tidx.size):  # the kernel is named at LaunchDevice
            out[i] = bs.memory.alloc(max(8, int(sizes[i])), align=64, name=_BUFFER)
            _pending(bs)[int(out[i])] = ("", (1, 1, 1), (1, 1, 1), 0, int(sizes[i]))
        if ret >= 0:
            _write(bs, tidx, ret, out)
    return run


def _launch_child(bs: Any, inst: Instruction, ctx: Any, buf: int, stream: int,
                  override: tuple | None) -> None:
    entry = _pending(bs).pop(buf, None)
    if entry is None:
        raise LaunchError(ctx.fn.name, f"device-side launch with parameter buffer {buf:#x}, "
                          "which GetParameterBuffer did not return (or was launched already) "
                          f"(line {inst.line})")
    name, grid, block, shmem, size = entry
    if override is not None:
        name, grid, block, shmem = override
        size = ctx.module.functions[name].param_bytes
    depth = bs.launch_depth + 1
    if depth > MAX_DEPTH:
        raise LaunchError(ctx.fn.name, f"device-side launches nested deeper than {MAX_DEPTH} "
                          "grids (CUDA's limit)")
    params = bs.memory.read(buf, size).tobytes() if size else b""
    bs.memory.free(buf)
    _children(bs).append(ChildLaunch(name, grid, block, shmem, bytes(params), stream))


def _build_launch_v2(inst: Instruction, ctx: Any, name: str) -> Any:
    (buf_off, st_off), ret = _slots(inst, ctx, name, 2,
                                    "LaunchDeviceV2 takes (parameter buffer, stream)")

    def run(bs: Any, g: Any, pred: Any, exm: Any) -> None:
        tidx = _threads(g, pred)
        bufs = _u64(bs, tidx, buf_off)
        streams = _u64(bs, tidx, st_off)
        for i in range(tidx.size):
            _launch_child(bs, inst, ctx, int(bufs[i]), int(streams[i]), None)
        _success(bs, tidx, ret)
    return run


def _build_launch(inst: Instruction, ctx: Any, name: str) -> Any:
    (f_off, buf_off, g_off, b_off, s_off, st_off), ret = _slots(
        inst, ctx, name, 6, "LaunchDevice takes (kernel, buffer, grid, block, shared, stream)")
    kernels = _kernel_at(ctx)

    def run(bs: Any, g: Any, pred: Any, exm: Any) -> None:
        tidx = _threads(g, pred)
        funcs = _u64(bs, tidx, f_off)
        bufs = _u64(bs, tidx, buf_off)
        grids, blocks = _read(bs, tidx, g_off, 12), _read(bs, tidx, b_off, 12)
        shm = _read(bs, tidx, s_off, 4).view("<u4")[:, 0]
        streams = _u64(bs, tidx, st_off)
        for i in range(tidx.size):
            kname = kernels.get(int(funcs[i]))
            if kname is None:
                raise LaunchError(ctx.fn.name, f"device-side launch of {int(funcs[i]):#x}, "
                                  f"which is no kernel of this module (line {inst.line})")
            _launch_child(bs, inst, ctx, int(bufs[i]), int(streams[i]),
                          (kname, _dims(grids[i]), _dims(blocks[i]), int(shm[i])))
        _success(bs, tidx, ret)
    return run


def _build_success(inst: Instruction, ctx: Any, name: str) -> Any:
    """Calls answered with ``cudaSuccess`` (0) and no other effect."""
    from warpsim.functional.printf import call_param_slots

    params, rets = call_param_slots(inst, ctx, name, n_params=len(inst.srcs) - 1, n_rets=1,
                                    hint="")
    del params
    ret = rets[0] if rets else -1

    def run(bs: Any, g: Any, pred: Any, exm: Any) -> None:
        _success(bs, _threads(g, pred), ret)
    return run


def _store_through(bs: Any, tidx: np.ndarray, ptrs: np.ndarray, values: np.ndarray) -> None:
    """``*ptrs[i] = values[i]`` (8 bytes, generic addresses: local, shared or global)."""
    from warpsim.functional.memops import resolve_parts, space_view

    for part in resolve_parts(bs, "generic", tidx, ptrs, 0, 8, 3):
        sel = slice(None) if part.pos is None else part.pos
        space_view(bs, part.space, np.uint64)[part.idx] = values[sel]


def _build_stream_create(inst: Instruction, ctx: Any, name: str) -> Any:
    """``cudaStreamCreateWithFlags(cudaStream_t* s, flags)``: a fresh handle in ``*s``."""
    (p_off, _), ret = _slots(inst, ctx, name, 2,
                             "cudaStreamCreateWithFlags takes (stream pointer, flags)")

    def run(bs: Any, g: Any, pred: Any, exm: Any) -> None:
        tidx = _threads(g, pred)
        ptrs = _u64(bs, tidx, p_off).copy()
        first = getattr(bs, "cdp_streams", 0x100)
        bs.cdp_streams = first + tidx.size
        _store_through(bs, tidx, ptrs, np.arange(first, first + tidx.size, dtype=np.uint64))
        _success(bs, tidx, ret)
    return run


def _build_malloc(inst: Instruction, ctx: Any, name: str) -> Any:
    """``cudaMalloc(void** p, size)`` in device code: an allocation of the device heap (as
    ``malloc``: ``device_malloc.py``) in ``*p``; ``cudaErrorMemoryAllocation`` (2) when full."""
    from warpsim.functional.device_malloc import heap_alloc

    (p_off, size_off), ret = _slots(inst, ctx, name, 2, "cudaMalloc takes (pointer, size)")

    def run(bs: Any, g: Any, pred: Any, exm: Any) -> None:
        tidx = _threads(g, pred)
        ptrs = _u64(bs, tidx, p_off).copy()
        sizes = _u64(bs, tidx, size_off)
        out = heap_alloc(bs.memory, sizes.tolist())
        _store_through(bs, tidx, ptrs, out)
        if ret >= 0:
            _write(bs, tidx, ret, np.where(out == 0, 2, 0).astype(np.int32))
    return run


def _build_free(inst: Instruction, ctx: Any, name: str) -> Any:
    from warpsim.functional.device_malloc import build_free

    return build_free(inst, ctx, name)


def _build_memcpy(inst: Instruction, ctx: Any, name: str) -> Any:
    """``cudaMemcpyAsync(dst, src, n, kind, stream)`` in device code: a ``ChildCopy`` run in
    issue order with the thread block's launches, after the parent grid."""
    (d_off, s_off, n_off, _, _), ret = _slots(
        inst, ctx, name, 5, "cudaMemcpyAsync takes (dst, src, count, kind, stream)")

    def run(bs: Any, g: Any, pred: Any, exm: Any) -> None:
        tidx = _threads(g, pred)
        dst = _u64(bs, tidx, d_off)
        src = _u64(bs, tidx, s_off)
        n = _u64(bs, tidx, n_off)
        for i in range(tidx.size):
            _children(bs).append(ChildCopy(int(dst[i]), int(src[i]), int(n[i])))
        _success(bs, tidx, ret)
    return run


def _build_error_string(inst: Instruction, ctx: Any, name: str) -> Any:
    """``cudaGetErrorString(code)`` in device code: a pointer to a string in device memory."""
    (c_off,), ret = _slots(inst, ctx, name, 1, "cudaGetErrorString takes an error code")
    texts: dict[int, int] = {}

    def run(bs: Any, g: Any, pred: Any, exm: Any) -> None:
        tidx = _threads(g, pred)
        codes = _read(bs, tidx, c_off, 4).view("<i4")[:, 0]
        out = np.zeros(tidx.size, np.uint64)
        for i, code in enumerate(codes.tolist()):
            if code not in texts:
                text = (b"no error" if code == 0 else
                        f"device runtime error {code}".encode()) + b"\0"
                texts[code] = bs.memory.alloc(len(text), align=8, name="error string")
                bs.memory.write(texts[code], np.frombuffer(text, np.uint8))
            out[i] = texts[code]
        if ret >= 0:
            _write(bs, tidx, ret, out)
    return run


_BUILDERS: dict[str, Callable[[Instruction, Any, str], Any]] = {
    "GetParameterBufferV2": _build_param_buffer_v2,
    "LaunchDeviceV2": _build_launch_v2,
    "GetParameterBuffer": _build_param_buffer,
    "LaunchDevice": _build_launch,
    "GetLastError": _build_success,
    "PeekAtLastError": _build_success,
    "StreamDestroy": _build_success,
    "StreamCreateWithFlags": _build_stream_create,
    "Malloc": _build_malloc,
    "Free": _build_free,
    "MemcpyAsync": _build_memcpy,
    "GetErrorString": _build_error_string,
}


def device_runtime_call(name: str) -> str | None:
    """The device-runtime function a body-less callee ``name`` is (``LaunchDeviceV2`` for
    ``__cudaCDP2LaunchDeviceV2`` or ``cudaLaunchDeviceV2``), or None."""
    for prefix in ("__cudaCDP2", "cuda"):
        if name.startswith(prefix) and name[len(prefix):] in _BUILDERS:
            return name[len(prefix):]
    return None


def build_device_runtime_call(inst: Instruction, ctx: Any) -> Any:
    """The closure of a ``call`` of a device-runtime function (see ``device_runtime_call``)."""
    name = inst.srcs[0].name
    return _BUILDERS[device_runtime_call(name) or ""](inst, ctx, name)
