"""One program's CUDA context on a warpsim Device: what each forwarded runtime call does.

Follows: the CUDA Runtime API reference (module management, memory, texture objects, stream
and event management, execution control, occupancy) for the calls ``shim.c`` forwards; nvcc's
registration protocol (``__cudaRegisterFatBinary``, ``__cudaRegisterFunction``,
``__cudaRegisterVar``) that maps host stubs and shadow variables to PTX names.
Assumptions: [A] one device (ordinal 0) per program; [A] every call runs to completion before
it returns, so streams execute in order and events complete when recorded; [A] an event's
time is the simulated cycle count converted with the core clock when timing is on, host wall
time otherwise; [A] PTX is loaded lazily, at the first launch or symbol access of its fat
binary (as CUDA's lazy loading does), so an unsupported PTX construct fails that call.
Deviations: a fault inside a kernel (``MemoryAccessError``) is reported by the launch call
itself and is sticky, as CUDA reports it at the next synchronisation.
"""

from __future__ import annotations

import logging
import struct
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from warpsim.cudart import errors as ce
from warpsim.cudart.fatbin import extract_ptx, relocatable_ptx
from warpsim.cudart.handlers import HANDLERS, api
from warpsim.cudart.resources import ResourcesMixin
from warpsim.errors import (
    BarrierDeadlockError,
    DeviceTrapError,
    LaunchError,
    MemoryAccessError,
    UnsupportedPTXError,
    WarpsimError,
)
from warpsim.functional.assertfail import DeviceAssertError
from warpsim.functional.executor import StepLimitError
from warpsim.functional.watchdog import LaunchTimeoutError, SpinError
from warpsim.ptx.ir import FLOAT_TYPES, INT_TYPES

__all__ = ["CudaContext", "Reply"]

_log = logging.getLogger(__name__)

Reply = tuple[int, list[int], bytes]
"""(cudaError_t status, integer results, byte results) of one call."""

_OK: Reply = (0, [], b"")
_SHOWN_AS = {"__launch": "kernel launch", "__layout": "kernel launch",
             "__write": "cudaMemcpy (host to device)", "__read": "cudaMemcpy (device to host)",
             "__copy": "cudaMemcpy (device to device)", "__memset": "cudaMemset",
             "__write2d": "cudaMemcpy2D", "__read2d": "cudaMemcpy2D", "__copy2d": "cudaMemcpy2D",
             "__symbol": "symbol lookup", "__array_info": "cudaArray copy"}
"""How a failing internal wire call is named in messages (the API call that sent it)."""
_FLOAT_DTYPES = {"f16": np.float16, "f32": np.float32, "f64": np.float64}


@dataclass(slots=True)
class _Fatbin:
    """A registered fat binary: its PTX, loaded on first use."""

    ptx: str
    module: Any = None
    error: ce.CudaError | None = None
    units: tuple[str, ...] = ()
    """The PTX of each translation unit of a ``-rdc=true`` build (linked on load), else ()."""


@dataclass(slots=True, eq=False)
class _Launch:
    """What the stats file records about one launch (compared by identity)."""

    kernel: str
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    shared_bytes: int
    result: Any = None
    wall_s: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)


def _cuda_error(err: WarpsimError) -> ce.CudaError:
    """The CUDA error a failed launch reports (sticky when the context is unusable after)."""
    if isinstance(err, MemoryAccessError):
        return ce.CudaError(ce.ILLEGAL_ADDRESS, err.message, sticky=True)
    if isinstance(err, BarrierDeadlockError):
        return ce.CudaError(ce.LAUNCH_FAILURE, err.message, sticky=True)
    if isinstance(err, UnsupportedPTXError):  # the kernel did not run: later results are wrong
        return ce.CudaError(ce.INVALID_PTX, err.message, sticky=True)
    if isinstance(err, DeviceTrapError):
        return ce.CudaError(ce.LAUNCH_FAILURE, err.message, sticky=True)
    if isinstance(err, DeviceAssertError):
        return ce.CudaError(ce.ASSERT, err.message, sticky=True)
    if isinstance(err, StepLimitError | LaunchTimeoutError | SpinError):  # stopped mid-run
        return ce.CudaError(ce.LAUNCH_TIMEOUT, err.message, sticky=True)
    return ce.CudaError(ce.INVALID_CONFIGURATION, err.message)


class CudaContext(ResourcesMixin):
    """The state behind one connected program: device, registrations, handles, errors.

    Parameters
    ----------
    device
        The ``warpsim.Device`` the program runs on (timed when it has a configuration).
    program
        The program's name, for messages and records.
    on_launch
        Called as ``on_launch(context, index, launch)`` when a kernel launch completes or
        faults (``launch.extra["fault"]`` then holds the message), e.g.
        ``records.RecordWriter.add``.
    """

    def __init__(self, device: Any, program: str = "<program>",
                 on_launch: Callable[[CudaContext, int, _Launch], None] | None = None,
                 executable: bytes = b"") -> None:
        self.device = device
        self.program = program
        self.executable = executable
        """The program's ELF file (its ``-rdc=true`` units' PTX), empty when unknown."""
        self.on_launch = on_launch
        self.fatbins: dict[int, _Fatbin] = {}
        self.functions: dict[int, tuple[int, str]] = {}
        self.variables: dict[int, tuple[int, str, int]] = {}
        self.allocations: dict[int, Any] = {}
        self.managed: dict[int, int] = {}
        """cudaMallocManaged: page-aligned address -> the allocation holding it."""
        self.arrays: dict[int, Any] = {}
        self.mipmaps: dict[int, list[int]] = {}
        """cudaMallocMipmappedArray handle -> the cudaArray handles of its levels."""
        self.textures: dict[int, Any] = {}
        self.func_max_dynamic: dict[int, int] = {}
        """cudaFuncAttributeMaxDynamicSharedMemorySize set per kernel (resources.py)."""
        self.events: dict[int, tuple[int, float]] = {}
        self.launches: list[_Launch] = []
        self.sim_cycles = 0
        self.sticky = 0
        self._kernels: dict[int, Any] = {}
        self._pending: _Launch | None = None
        self._printf: list[str] = []
        """Device printf text of the launch in progress and of the grids it launched."""
        device.add_launch_observer(self._observe)

    # -- dispatch ------------------------------------------------------------------------------

    def handle(self, name: str, ints: tuple[int, ...], blob: bytes) -> Reply:
        """Run one forwarded call; a failure prints ``warpsim: <call>: <why>`` on stderr."""
        fn = HANDLERS.get(name)
        if fn is None:
            self._say(f"{name} is not supported")
            return (ce.NOT_SUPPORTED, [], b"")
        if self.sticky and name not in ce.NO_STICKY:
            return (self.sticky, [], b"")
        try:
            return fn(self, ints, blob)
        except ce.CudaError as err:
            if err.message:
                self._say(f"{_SHOWN_AS.get(name, name)}: {err.message}")
            if err.sticky:
                self.sticky = err.code
            return (err.code, [], b"")
        except WarpsimError as err:
            self._say(f"{_SHOWN_AS.get(name, name)}: {err.message}")
            return (ce.INVALID_VALUE, [], b"")

    @staticmethod
    def _say(text: str) -> None:
        print(f"warpsim: {text}", file=sys.stderr, flush=True)

    # -- registration --------------------------------------------------------------------------

    @api("__register_fatbin")
    def _register_fatbin(self, ints: tuple[int, ...], blob: bytes) -> Reply:
        fid = len(self.fatbins) + 1
        try:
            self.fatbins[fid] = _Fatbin(extract_ptx(blob))
        except WarpsimError as err:
            self.fatbins[fid] = self._relocatable(err)
        return (0, [fid], b"")

    def _relocatable(self, err: WarpsimError) -> _Fatbin:
        """A SASS-only image: nvlink's output for a ``-rdc=true`` build, whose unit's PTX the
        executable keeps in ``__nv_relfatbin`` (``fatbin.relocatable_ptx``)."""
        units = relocatable_ptx(self.executable) if self.executable else []
        if units:
            return _Fatbin("\n".join(units), units=tuple(units))
        return _Fatbin("", error=ce.CudaError(ce.NO_KERNEL_IMAGE, err.message))

    @api("__register_function")
    def _register_function(self, ints: tuple[int, ...], blob: bytes) -> Reply:
        fid, host_fun = ints
        self.functions[host_fun] = (fid, blob.decode())
        return _OK

    @api("__register_var")
    def _register_var(self, ints: tuple[int, ...], blob: bytes) -> Reply:
        fid, host_var, size, _constant = ints
        self.variables[host_var] = (fid, blob.decode(), size)
        return _OK

    def _module(self, fid: int) -> Any:
        fb = self.fatbins.get(fid)
        if fb is None:
            raise ce.CudaError(ce.INVALID_RESOURCE_HANDLE, f"no fat binary {fid} registered")
        if fb.error is not None:
            raise fb.error
        if fb.module is None:
            # managed memory is the runtime's business (shim_managed.c): to the kernel a
            # __managed__ variable (.attribute(.managed)) is a global one
            try:
                fb.module = (self.device.link_ptx(list(fb.units), name=f"{self.program}.ptx")
                             if fb.units else
                             self.device.load_ptx(fb.ptx, name=f"{self.program}.ptx"))
            except WarpsimError as err:
                fb.error = ce.CudaError(ce.INVALID_PTX, "cannot load the program's PTX: " +
                                        err.message)
                raise fb.error from None
        return fb.module

    def kernel(self, host_fun: int) -> Any:
        """The warpsim Kernel registered for a host stub address."""
        k = self._kernels.get(host_fun)
        if k is None:
            entry = self.functions.get(host_fun)
            if entry is None:
                raise ce.CudaError(ce.INVALID_DEVICE_FUNCTION,
                                   f"{host_fun:#x} is not a registered __global__ function")
            fid, name = entry
            k = self._module(fid).get_kernel(name)
            self._kernels[host_fun] = k
        return k

    def _symbol(self, host_var: int) -> tuple[int, int]:
        entry = self.variables.get(host_var)
        if entry is None:
            raise ce.CudaError(ce.INVALID_SYMBOL, f"{host_var:#x} is not a registered "
                               "__device__ or __constant__ variable")
        fid, name, size = entry
        address = self._module(fid).image.symbol_address(name)
        return int(address), int(size)

    @api("__symbol")
    def _symbol_call(self, ints: tuple[int, ...], blob: bytes) -> Reply:
        address, size = self._symbol(ints[0])
        return (0, [address, size], b"")

    # -- launch --------------------------------------------------------------------------------

    @api("__layout")
    def _layout(self, ints: tuple[int, ...], blob: bytes) -> Reply:
        fn = self.kernel(ints[0]).function
        pairs = b"".join(struct.pack("<II", p.offset, p.size_bytes) for p in fn.params)
        return (0, [fn.param_bytes, len(fn.params)], pairs)

    @staticmethod
    def _unpack(kernel: Any, params: bytes) -> list[Any]:
        """The packed parameter buffer as one host value per PTX parameter."""
        args: list[Any] = []
        for p in kernel.function.params:
            raw = params[p.offset:p.offset + p.size_bytes]
            if p.count > 1 or p.type not in INT_TYPES | FLOAT_TYPES or p.type == "bf16":
                args.append(bytes(raw))
            elif p.type in _FLOAT_DTYPES:
                args.append(np.frombuffer(raw, _FLOAT_DTYPES[p.type])[0])
            else:
                args.append(np.frombuffer(raw, f"<u{p.size_bytes}")[0])
        return args

    @api("__launch")
    def _launch(self, ints: tuple[int, ...], blob: bytes) -> Reply:
        func, gx, gy, gz, bx, by, bz, shmem, _stream, coop = ints
        kernel = self.kernel(func)
        if shmem > self.max_dynamic_shared(func):
            raise ce.CudaError(ce.INVALID_VALUE, f"{kernel.name}: {shmem} bytes of dynamic "
                               f"shared memory, above its limit of "
                               f"{self.max_dynamic_shared(func)}: raise it with cudaFuncSetAttri"
                               "bute(cudaFuncAttributeMaxDynamicSharedMemorySize) first")
        if coop:
            self._check_coresident(func, (gx, gy, gz), bx * by * bz, int(shmem))
        args = self._unpack(kernel, blob)
        pending = _Launch(kernel.name, (gx, gy, gz), (bx, by, bz), int(shmem))
        self._pending = pending
        self._printf = []
        start = time.perf_counter()
        try:
            kernel.configure((gx, gy, gz), (bx, by, bz), shared_mem=int(shmem),
                             cooperative=bool(coop))(*args)
        except (MemoryAccessError, BarrierDeadlockError, UnsupportedPTXError,
                LaunchError) as err:
            if pending not in self.launches:  # stopped before its result: recorded as a fault
                pending.extra["fault"] = err.message
                self.launches.append(pending)
            pending.wall_s = time.perf_counter() - start
            self._completed(pending)
            raise _cuda_error(err) from None
        finally:
            self._pending = None
        pending.wall_s = time.perf_counter() - start
        self._completed(pending)
        # the kernel's device printf text: the library writes it to the program's stdout at
        # the next synchronisation point (shim.c, ws_printf_flush)
        text = "".join(self._printf)  # the launch's and its device-launched grids'
        return (0, [], text.encode()) if text else _OK

    def _check_coresident(self, func: int, grid: tuple[int, int, int], threads: int,
                          shmem: int) -> None:
        """A cooperative grid must fit on the GPU at once (``cudaLaunchCooperativeKernel``:
        ``cudaErrorCooperativeLaunchTooLarge``): at most the SM count times the blocks per
        SM that ``cudaOccupancyMaxActiveBlocksPerMultiprocessor`` reports."""
        per_sm = self._occupancy((func, threads, shmem), b"")[1][0]
        limit = per_sm * self.sm_resources()["sms"]
        blocks = grid[0] * grid[1] * grid[2]
        if blocks > limit:
            raise ce.CudaError(ce.COOPERATIVE_LAUNCH_TOO_LARGE,
                               f"a cooperative launch of {blocks} blocks; at most {limit} "
                               f"({per_sm} per SM x {self.sm_resources()['sms']} SMs) are "
                               "resident at once")

    def _completed(self, launch: _Launch) -> None:
        if self.on_launch is not None and launch in self.launches:
            self.on_launch(self, self.launches.index(launch), launch)

    def _observe(self, kernel: Any, cfg: Any, result: Any) -> None:
        rec = self._pending
        child = rec is not None and rec in self.launches
        if rec is None or child:  # a grid launched from the device, after its parent
            rec = _Launch(kernel.name, cfg.grid, cfg.block, cfg.shared_bytes)
        if child:
            rec.extra["launched_by"] = "device"
        rec.result = result
        self.launches.append(rec)
        self._printf.append(getattr(result, "printf_output", ""))
        if child:
            self._completed(rec)
        stats = getattr(result, "stats", None)
        if stats:
            self.sim_cycles += int(stats.get("gpu_sim_cycle", 0))

    # -- synchronisation, events ---------------------------------------------------------------

    @api("cudaDeviceSynchronize")
    def _sync(self, ints: tuple[int, ...], blob: bytes) -> Reply:
        return _OK

    @api("cudaEventRecord")
    def _event_record(self, ints: tuple[int, ...], blob: bytes) -> Reply:
        self.events[ints[0]] = (self.sim_cycles, time.perf_counter())
        return _OK

    @api("cudaEventDestroy")
    def _event_destroy(self, ints: tuple[int, ...], blob: bytes) -> Reply:
        self.events.pop(ints[0], None)
        return _OK

    @api("cudaEventElapsedTime")
    def _event_elapsed(self, ints: tuple[int, ...], blob: bytes) -> Reply:
        start, end = self.events.get(ints[0]), self.events.get(ints[1])
        if start is None or end is None:
            raise ce.CudaError(ce.INVALID_RESOURCE_HANDLE, "an event was not recorded")
        cfg = self.device.gpu_config
        if self.device.timing and cfg is not None:
            ms = (end[0] - start[0]) / (cfg.clocks.core_mhz * 1e3)
        else:
            ms = (end[1] - start[1]) * 1e3
        return (0, [struct.unpack("<Q", struct.pack("<d", ms))[0]], b"")
