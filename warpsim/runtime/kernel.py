"""Kernel launch: launch configuration (grid, block, dynamic shared memory) and argument packing.

Follows: numba.cuda's ``kernel[griddim, blockdim, stream, sharedmem](args)`` launch syntax and
CUDA's launch limits (CUDA C++ Programming Guide, "Compute Capabilities" table: 1024 threads per
block, block dims (1024, 1024, 64), grid dims (2**31-1, 65535, 65535), 48 KiB of shared memory
per block without opt-in). Arguments are packed into the kernel's ``.param`` buffer at the
offsets the PTX declares (PTX ISA "Kernel Function Parameters").
Assumptions: [A] one stream: a launch runs to completion before the call returns; [A] a PTX
integer parameter's signedness is not part of the ABI (nvcc writes ``.u32`` for ``int``), so an
integer argument matches any integer parameter of the same width.
Deviations: CUDA checks the register budget of a block at launch; warpsim does not (ptxas may be
absent), see ``Kernel.get_max_threads_per_block``.
"""

from __future__ import annotations

import logging
import struct
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from warpsim.errors import LaunchError
from warpsim.ptx.ir import FLOAT_TYPES, INT_TYPES, TYPE_BITS, Function, Param
from warpsim.runtime.array import DeviceArray
from warpsim.runtime.texture import Texture

if TYPE_CHECKING:
    from warpsim.runtime.module import Module

__all__ = ["ConfiguredKernel", "Kernel", "LaunchConfig", "describe_param", "normalize_dims",
           "pack_arguments"]

_log = logging.getLogger(__name__)

Dim3 = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class LaunchConfig:
    """A normalised launch configuration."""

    grid: Dim3
    """Blocks per grid (x, y, z)."""
    block: Dim3
    """Threads per block (x, y, z)."""
    shared_bytes: int = 0
    """Dynamic shared memory per block, in bytes."""
    cooperative: bool = False
    """A cooperative launch (``cudaLaunchCooperativeKernel``): every block runs at once and
    ``cooperative_groups::this_grid().sync()`` works (functional/executor.py)."""

    @property
    def threads_per_block(self) -> int:
        return self.block[0] * self.block[1] * self.block[2]

    @property
    def n_blocks(self) -> int:
        return self.grid[0] * self.grid[1] * self.grid[2]


def normalize_dims(value: Any, what: str, kernel: str) -> Dim3:
    """Turn an int or a 1-3 tuple of positive ints into ``(x, y, z)``; LaunchError otherwise."""
    items = tuple(value) if isinstance(value, (tuple, list)) else (value,)
    example = "256" if what == "block" else "(n + 255) // 256"
    if not 1 <= len(items) <= 3:
        raise LaunchError(kernel, f"{what} dimensions {value!r} must have 1 to 3 entries",
                          hint=f"pass an int or a tuple (x, y, z), e.g. {what} = {example}")
    dims = []
    for item in items:
        if isinstance(item, (bool, np.bool_)) or not isinstance(item, (int, np.integer)):
            hint = f"use integers, e.g. {example}"
            if isinstance(item, (float, np.floating)):
                hint = f"use integer division (//) for {what} sizes, e.g. {example}"
            raise LaunchError(kernel, f"{what} dimension {item!r} is not an integer", hint=hint)
        if int(item) < 1:
            raise LaunchError(kernel, f"{what} dimension {int(item)} must be at least 1",
                              hint=f"every {what} dimension is >= 1; check the size you derive "
                                   "it from (an empty input gives a zero-sized grid)")
        dims.append(int(item))
    dims.extend([1] * (3 - len(dims)))
    return (dims[0], dims[1], dims[2])


def _align_up(value: int, align: int) -> int:
    return (value + align - 1) // align * align


# ---------------------------------------------------------------------------------------------
# argument packing


def describe_param(p: Param, kernel: str = "") -> str:
    """``name: type (meaning)`` for messages, e.g. ``param_0: u64 (pointer or 64-bit int)``."""
    name = p.name.removeprefix(f"{kernel}_") if kernel else p.name
    if _is_blob(p):
        return f"{name}: .b8[{p.size_bytes}] (by-value struct of {p.size_bytes} bytes, " \
               f"align {p.align})"
    meaning = {
        "u64": "pointer or 64-bit int", "b64": "pointer or 64-bit int", "s64": "64-bit int",
        "u32": "32-bit int", "s32": "32-bit int", "b32": "32-bit int",
        "u16": "16-bit int", "s16": "16-bit int", "b16": "16-bit int or half",
        "u8": "8-bit int or bool", "s8": "8-bit int", "b8": "8-bit int or bool",
        "f32": "float", "f64": "double", "f16": "half", "bf16": "bfloat16",
    }.get(p.type, p.type)
    return f"{name}: {p.type} ({meaning})"


def _signature(fn: Function) -> str:
    return ", ".join(describe_param(p, fn.name) for p in fn.params) or "(no parameters)"


def _is_blob(p: Param) -> bool:
    return p.count > 1 or p.type not in INT_TYPES | FLOAT_TYPES


def pack_arguments(fn: Function, args: tuple, *, device: Any = None) -> bytes:
    """Pack launch arguments into the kernel's parameter buffer (little-endian).

    Parameters
    ----------
    fn
        The kernel.
    args
        One argument per ``.param``: numpy scalars (width must match the parameter), Python
        ``int``/``float``/``bool``, ``DeviceArray`` (its device pointer), ``Texture`` (its
        handle), and for by-value structs ``np.void``/structured scalars, ``bytes`` or a numpy
        array of exactly the parameter's size.
    device
        The launching device; device arrays and textures must belong to it.
    """
    if len(args) != len(fn.params):
        raise LaunchError(
            fn.name, f"it takes {len(fn.params)} argument(s), {len(args)} given",
            hint=f"pass one argument per parameter: {fn.name}({_signature(fn)})")
    buf = bytearray(fn.param_bytes)
    for index, (p, arg) in enumerate(zip(fn.params, args, strict=True)):
        data = _pack_one(fn, index, p, arg, device)
        buf[p.offset:p.offset + len(data)] = data
    return bytes(buf)


def _arg_error(fn: Function, index: int, p: Param, problem: str, hint: str) -> LaunchError:
    return LaunchError(fn.name, f"argument {index} ({describe_param(p, fn.name)}): {problem}",
                       hint=hint)


def _scalar_hint(p: Param) -> str:
    bits = TYPE_BITS.get(p.type, 0)
    if p.type in FLOAT_TYPES:
        return {"f32": "np.float32(x)", "f64": "np.float64(x)", "f16": "np.float16(x)"}.get(
            p.type, f"a {p.type} value")
    if p.type.startswith("u"):
        return f"np.uint{bits}(x) (or np.int{bits}(x))"
    return f"np.int{bits}(x)"


def _pack_one(fn: Function, index: int, p: Param, arg: Any, device: Any) -> bytes:
    if _is_blob(p):
        return _pack_blob(fn, index, p, arg)
    bits = TYPE_BITS[p.type]
    is_float = p.type in FLOAT_TYPES
    if isinstance(arg, DeviceArray):
        arg._check_usable(what=f"argument {index} of kernel {fn.name}", error_kernel=fn.name)
        if device is not None and arg.device is not device:
            raise _arg_error(fn, index, p, "the DeviceArray belongs to another Device",
                             "allocate it on the Device the module was loaded on")
        if is_float or bits != 64:
            raise _arg_error(fn, index, p, "a DeviceArray passes a 64-bit pointer",
                             "the kernel parameter should be a pointer (T*); for a scalar "
                             f"pass {_scalar_hint(p)}")
        return struct.pack("<Q", arg.device_ptr)
    if isinstance(arg, Texture):
        arg._check_usable(fn.name)
        if device is not None and arg.device is not device:
            raise _arg_error(fn, index, p, "the texture belongs to another Device",
                             "create it with the Device the module was loaded on")
        if is_float or bits != 64:
            raise _arg_error(fn, index, p, "a texture object is a 64-bit handle",
                             "declare the parameter as cudaTextureObject_t")
        return struct.pack("<Q", arg.handle)
    if isinstance(arg, np.ndarray):
        if arg.ndim == 0:
            return _pack_one(fn, index, p, arg[()], device)
        hint = f"copy it to the device first: d = gpu.to_device(a); {fn.name}[...](..., d, ...)"
        raise _arg_error(fn, index, p, "a host numpy array cannot be passed to a kernel",
                         hint if bits == 64 and not is_float else
                         f"for a scalar parameter pass {_scalar_hint(p)}")
    if isinstance(arg, (np.generic, bool, int, float)):
        return _pack_scalar(fn, index, p, arg)
    raise _arg_error(fn, index, p, f"cannot pass a {type(arg).__name__}",
                     f"pass {_scalar_hint(p)}, a DeviceArray, a texture object or a Python "
                     "int/float")


def _pack_scalar(fn: Function, index: int, p: Param, arg: Any) -> bytes:
    bits = TYPE_BITS[p.type]
    nbytes = bits // 8
    if p.type in FLOAT_TYPES:
        if isinstance(arg, np.floating):
            if arg.dtype.itemsize * 8 != bits or (p.type == "bf16"):
                raise _arg_error(fn, index, p, f"the value is {arg.dtype}, the parameter "
                                 f"{bits}-bit", f"pass {_scalar_hint(p)}")
            return arg.tobytes()
        if isinstance(arg, (np.integer, np.bool_)):
            raise _arg_error(fn, index, p, f"an integer ({arg.dtype}) for a floating-point "
                             "parameter", f"pass {_scalar_hint(p)}")
        if isinstance(arg, (bool, int, float)) and p.type in ("f16", "f32", "f64"):
            dtype = {"f16": np.float16, "f32": np.float32, "f64": np.float64}[p.type]
            with np.errstate(over="ignore"):
                value = dtype(arg)
            if np.isinf(value) and np.isfinite(float(arg)):
                raise _arg_error(fn, index, p, f"{arg!r} overflows {p.type}",
                                 "pass a value in range, or change the parameter type")
            return value.tobytes()
        raise _arg_error(fn, index, p, f"cannot pass a {type(arg).__name__}",
                         f"pass {_scalar_hint(p)}")
    # integer parameter
    if isinstance(arg, np.floating) or isinstance(arg, float):
        raise _arg_error(fn, index, p, f"a floating-point value ({arg!r}) for an integer "
                         "parameter", f"pass {_scalar_hint(p)}")
    if isinstance(arg, np.bool_):
        arg = bool(arg)
    if isinstance(arg, np.integer):
        if arg.dtype.itemsize != nbytes:
            raise _arg_error(fn, index, p, f"the value is {arg.dtype}, the parameter "
                             f"{bits}-bit", f"pass {_scalar_hint(p)}")
        return arg.tobytes()
    if isinstance(arg, (bool, int)):
        value = int(arg)
        if not -(1 << (bits - 1)) <= value < (1 << bits):
            raise _arg_error(fn, index, p, f"{value} does not fit in {bits} bits",
                             f"pass a value in [{-(1 << (bits - 1))}, {(1 << bits) - 1}]")
        return (value & ((1 << bits) - 1)).to_bytes(nbytes, "little")
    raise _arg_error(fn, index, p, f"cannot pass a {type(arg).__name__}",
                     f"pass {_scalar_hint(p)}")


def _pack_blob(fn: Function, index: int, p: Param, arg: Any) -> bytes:
    hint = (f"pass a numpy structured scalar (np.void) or bytes of exactly {p.size_bytes} bytes; "
            "build the dtype with align=True so it matches the C layout, e.g. "
            "np.zeros((), np.dtype([('a', np.float32), ('b', np.float64)], align=True))[()]")
    if isinstance(arg, np.ndarray):
        data = np.ascontiguousarray(arg).tobytes()
    elif isinstance(arg, np.generic):
        data = arg.tobytes()
    elif isinstance(arg, (bytes, bytearray, memoryview)):
        data = bytes(arg)
    else:
        raise _arg_error(fn, index, p, f"cannot pass a {type(arg).__name__} as a by-value "
                         "struct", hint)
    if len(data) != p.size_bytes:
        raise _arg_error(fn, index, p, f"the value has {len(data)} bytes, the parameter "
                         f"{p.size_bytes}", hint)
    return data


# ---------------------------------------------------------------------------------------------
# kernels


class Kernel:
    """A kernel of a loaded module; launch it with ``kernel[grid, block](*args)``.

    Attributes
    ----------
    name : str
        The PTX (possibly mangled) name.
    params : list of Param
        The PTX parameters in order.
    last_launch : LaunchResult, TimedLaunch or None
        What the functional executor returned for the most recent launch (instruction counts,
        traces when tracing is on); on a timed device (``Device(config="gtx480")``) a
        ``TimedLaunch`` that adds ``.stats`` (timing counters) and ``.timing``. The launch call
        itself returns None, as in numba-cuda.
    """

    def __init__(self, module: Module, fn: Function) -> None:
        self.module = module
        self.function = fn
        self.name = fn.name
        self.params = list(fn.params)
        self.last_launch: Any = None
        self._static_shared: int | None = None

    def __repr__(self) -> str:
        return f"<warpsim Kernel {self.name}({_signature(self.function)})>"

    @property
    def signature(self) -> str:
        """The parameters with their PTX types, as listed in launch errors."""
        return _signature(self.function)

    def __getitem__(self, config: Any) -> ConfiguredKernel:
        """``kernel[grid, block]``, ``[grid, block, stream]``, ``[grid, block, stream, shared]``."""
        items = config if isinstance(config, tuple) else (config,)
        if not 2 <= len(items) <= 4:
            raise LaunchError(self.name, f"launch configuration {config!r} needs 2 to 4 entries",
                              hint=f"{self.name}[blocks_per_grid, threads_per_block](...) or "
                                   f"{self.name}[grid, block, stream, dynamic_shared_bytes](...)")
        grid, block = items[0], items[1]
        stream = items[2] if len(items) > 2 else 0
        shared = items[3] if len(items) > 3 else 0
        return self.configure(grid, block, stream=stream, shared_mem=shared)

    def configure(self, grid: Any, block: Any, *, stream: Any = 0,
                  shared_mem: int = 0, cooperative: bool = False) -> ConfiguredKernel:
        """A launcher for this configuration (same as ``kernel[grid, block, stream, shared_mem]``).

        Parameters
        ----------
        grid, block
            An int or a tuple of 1 to 3 ints.
        stream
            ``0`` or ``None``: warpsim models a single stream.
        shared_mem
            Dynamic shared memory per block, in bytes (``extern __shared__`` arrays).
        cooperative
            Launch cooperatively (``cudaLaunchCooperativeKernel``): all blocks are resident
            together, so the kernel may synchronise the whole grid
            (``cooperative_groups::this_grid().sync()``).
        """
        if stream not in (0, None):
            raise LaunchError(self.name, f"stream {stream!r} is not supported",
                              hint="warpsim runs launches in order on one stream: pass 0")
        cfg = LaunchConfig(normalize_dims(grid, "grid", self.name),
                           normalize_dims(block, "block", self.name),
                           self._check_shared_arg(shared_mem), bool(cooperative))
        return ConfiguredKernel(self, cfg)

    def __call__(self, *args: Any, **kwargs: Any) -> None:
        raise LaunchError(self.name, "no launch configuration was given",
                          hint=f"launch with {self.name}[blocks_per_grid, threads_per_block]"
                               f"(...), e.g. {self.name}[(n + 255) // 256, 256](...)")

    def _check_shared_arg(self, shared: Any) -> int:
        if isinstance(shared, (bool, np.bool_)) or not isinstance(shared, (int, np.integer)) \
                or int(shared) < 0:
            raise LaunchError(self.name, f"dynamic shared memory size {shared!r} is not a "
                              "non-negative integer number of bytes",
                              hint="e.g. kernel[grid, block, 0, 256 * 4] for 256 floats")
        return int(shared)

    # -- resources ---------------------------------------------------------------------------

    @property
    def static_shared_bytes(self) -> int:
        """Statically declared shared memory per block, as the functional model lays it out
        (the kernel's and its callees' ``.shared`` variables; needs no CUDA compiler)."""
        if self._static_shared is None:
            program = self.module.image.program(self.name)
            self._static_shared = int(program.shared_static_bytes)
        return self._static_shared

    def _resources(self) -> Any:
        return self.module._resource_usage(self.name)

    def get_regs_per_thread(self) -> int:
        """Registers per thread that ptxas allocates for this kernel."""
        return int(self._resources().registers)

    def get_shared_mem_per_block(self) -> int:
        """Static shared memory per block in bytes, as ptxas reports it."""
        return int(self._resources().shared_bytes)

    def get_local_mem_per_thread(self) -> int:
        """Local memory (stack frame, spills) per thread in bytes, as ptxas reports it."""
        return int(self._resources().local_bytes)

    def get_max_threads_per_block(self) -> int:
        """Largest block this kernel can run: device limit, ``.maxntid`` and register budget."""
        limit = self.module.device.max_threads_per_block
        for key in ("maxntid", "reqntid"):
            dims = self.function.directives.get(key)
            if dims:
                limit = min(limit, int(np.prod(dims)))
        regs = self.get_regs_per_thread()
        if regs > 0:
            per_warp = _align_up(regs * 32, 256)  # register allocation unit: 256 per warp
            limit = min(limit, self.module.device.regs_per_block // per_warp * 32)
        return limit

    # -- checks ------------------------------------------------------------------------------

    def check_config(self, cfg: LaunchConfig) -> None:
        """Raise LaunchError when the configuration exceeds the device's limits."""
        dev = self.module.device
        mb = dev.max_block_dims
        for axis, n, limit in zip("xyz", cfg.block, mb, strict=True):
            if n > limit:
                raise LaunchError(self.name, f"block dimension {axis} = {n} exceeds the limit "
                                  f"{limit} (block limits {mb})",
                                  hint="use fewer threads per block and more blocks")
        if cfg.threads_per_block > dev.max_threads_per_block:
            raise LaunchError(self.name, f"a block of {cfg.block} has {cfg.threads_per_block} "
                              f"threads, more than the limit of {dev.max_threads_per_block}",
                              hint="use at most 1024 threads per block, e.g. block = 256 and "
                                   "grid = (n + 255) // 256")
        for key in ("reqntid", "maxntid"):
            dims = self.function.directives.get(key)
            if not dims:
                continue
            want = tuple(dims) + (1,) * (3 - len(dims))
            if key == "reqntid" and tuple(cfg.block) != want:
                raise LaunchError(self.name, f"the kernel requires blocks of {want} threads "
                                  f"(.reqntid), got {cfg.block}", hint=f"launch with block={want}")
            if key == "maxntid" and cfg.threads_per_block > int(np.prod(dims)):
                raise LaunchError(self.name, f"the kernel allows at most {int(np.prod(dims))} "
                                  f"threads per block (.maxntid / __launch_bounds__), got "
                                  f"{cfg.threads_per_block}", hint="use smaller blocks")
        mg = dev.max_grid_dims
        for axis, n, limit in zip("xyz", cfg.grid, mg, strict=True):
            if n > limit:
                raise LaunchError(self.name, f"grid dimension {axis} = {n} exceeds the limit "
                                  f"{limit} (grid limits {mg})",
                                  hint="use a grid-stride loop, or spread the blocks over "
                                       "grid y and z")
        static = self.static_shared_bytes
        total = static + cfg.shared_bytes
        if total > dev.max_shared_per_block_bytes:
            raise LaunchError(self.name, f"too much shared memory: {static} bytes static + "
                              f"{cfg.shared_bytes} bytes dynamic = {total} bytes per block, "
                              f"more than the device's {dev.max_shared_per_block_bytes}",
                              hint="request less dynamic shared memory, or raise the limit "
                                   "with warpsim.Device(max_shared_per_block_bytes=...)")


class ConfiguredKernel:
    """A kernel with its launch configuration; calling it launches the kernel."""

    def __init__(self, kernel: Kernel, config: LaunchConfig) -> None:
        self.kernel = kernel
        self.config = config

    def __repr__(self) -> str:
        c = self.config
        return f"<warpsim {self.kernel.name}[grid={c.grid}, block={c.block}, " \
               f"shared={c.shared_bytes}]>"

    def __call__(self, *args: Any, shared_mem: int | None = None) -> None:
        """Launch synchronously; device memory holds the results when this returns."""
        kernel = self.kernel
        cfg = self.config
        if shared_mem is not None:
            cfg = LaunchConfig(cfg.grid, cfg.block, kernel._check_shared_arg(shared_mem),
                               cfg.cooperative)
        kernel.check_config(cfg)
        device = kernel.module.device
        params = pack_arguments(kernel.function, args, device=device)
        kernel.last_launch = device._launch(kernel, cfg, params)
