"""The simulated GPU as the host program sees it: memory, modules, textures and launches.

Follows: numba.cuda's host API (``to_device``, ``device_array``, ``device_array_like``,
``kernel[grid, block](...)``) and CuPy's ``RawModule``; the launch limits of compute capability
8.0 (CUDA C++ Programming Guide, "Technical Specifications per Compute Capability").
Assumptions: [A] every call is synchronous (one stream); [A] allocations are 256-byte aligned,
like ``cudaMalloc``.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from warpsim.errors import ConfigError, LaunchError
from warpsim.runtime.array import DeviceArray, DeviceMemoryError, _Allocation
from warpsim.runtime.kernel import Kernel, LaunchConfig
from warpsim.runtime.module import Module
from warpsim.runtime.texture import Texture, check_texture_request
from warpsim.runtime.timed import TimedDevice, TimedLaunch

__all__ = ["Device", "TimedLaunch"]

_log = logging.getLogger(__name__)

_ALLOC_ALIGN_BYTES = 256


class Device(TimedDevice):
    """A simulated GPU (functional model): allocate memory, load modules, launch kernels.

    Parameters
    ----------
    arch
        Target the CUDA compiler generates PTX for, and the one ptxas reports resources for.
    max_shared_per_block_bytes
        Static + dynamic shared memory a block may use (48 KiB without opt-in, as in CUDA).
    max_threads_per_block, max_block_dims, max_grid_dims
        Launch limits (compute capability 8.0 values by default).
    regs_per_block
        32-bit registers per SM available to one block (used by
        ``Kernel.get_max_threads_per_block``).
    trace
        Emit per-warp traces in every launch (needed by the timing model; off for pure
        functional runs, which are faster).
    trace_sink
        With ``trace``: a function that receives each CTA batch's ``TraceChunk`` as it is
        produced, instead of the launch result keeping the whole trace (bounded memory).
    memory_bytes
        Size of the simulated global memory.
    max_steps
        Stop a launch with ``StepLimitError`` (a ``LaunchError``) when one warp executes more
        dynamic instructions than this (a guard against infinite loops); None: no limit.
    launch_timeout_s
        Stop a launch with ``LaunchTimeoutError`` after this many seconds of wall time (the
        driver's watchdog); None: no limit. A launch that repeats its state forever (a
        spin-wait nothing ends) stops with ``SpinError`` regardless (``functional/watchdog.py``).
    config
        GPU to time launches on: a preset name (``"gtx480"``) or a ``warpsim.arch.GPUConfig``.
        Giving one turns the cycle-level timing model on (see ``timing``).
    timing
        Time every launch on ``config`` (default: on when ``config`` is given). The launch
        result (``kernel.last_launch``, ``device.last_launch``) then has ``.stats`` (counters
        such as ``gpu_sim_cycle``, ``gpu_ipc``) and ``.timing`` (a ``TimingResult``);
        ``device.stats`` sums the counters over all launches. ``timing=False``: functional only.
    overrides
        Dotted configuration overrides applied to ``config`` (``["regfile.n_banks=32"]``).
    sample
        Sampled simulation of timed launches (docs/sampling.md): True for the defaults, a
        ``--sample`` spec string (``"waves=4,max_waves=8,min_waves=10"``) or a
        ``warpsim.sampling.SampleOptions``; False: off; None (default): the ``WARPSIM_SAMPLE``
        environment variable's spec when set, else off. Functional results stay exact; the
        timing statistics of sampled launches carry ``sampled``,
        ``sample_projected_fraction`` and ``sample_error_est``.
    printf_to_stdout
        Write the text of a kernel's device ``printf`` calls to ``sys.stdout`` when its
        launch ends (every launch is synchronous: its end is the synchronisation point at
        which CUDA prints). The text is also in the launch result's ``printf_output``.

    Examples
    --------
    >>> gpu = warpsim.Device()
    >>> mod = gpu.compile(open("vadd.cu").read())
    >>> d_a = gpu.to_device(a); d_c = gpu.device_array_like(a)
    >>> mod.get_kernel("vadd")[(n + 255) // 256, 256](d_a, d_a, d_c, np.int32(n))
    >>> c = d_c.copy_to_host()
    """

    def __init__(self, *, arch: str = "sm_80", max_shared_per_block_bytes: int = 48 * 1024,
                 max_threads_per_block: int = 1024,
                 max_block_dims: tuple[int, int, int] = (1024, 1024, 64),
                 max_grid_dims: tuple[int, int, int] = (2**31 - 1, 65535, 65535),
                 regs_per_block: int = 65536, trace: bool = False,
                 trace_sink: Callable[[Any], None] | None = None,
                 memory_bytes: int = 4 << 30, max_steps: int | None = None,
                 config: Any = None, timing: bool | None = None, overrides: Any = (),
                 printf_to_stdout: bool = True, launch_timeout_s: float | None = None,
                 oob: str = "fault", sample: Any = None) -> None:
        for field, value in (("max_shared_per_block_bytes", max_shared_per_block_bytes),
                             ("max_threads_per_block", max_threads_per_block),
                             ("regs_per_block", regs_per_block), ("memory_bytes", memory_bytes)):
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
                raise ConfigError(f"Device.{field}", value, "a positive integer")
        for field, dims in (("max_block_dims", max_block_dims), ("max_grid_dims", max_grid_dims)):
            if len(tuple(dims)) != 3 or any(int(d) < 1 for d in dims):
                raise ConfigError(f"Device.{field}", dims, "three positive integers")
        self.arch = arch
        self.max_shared_per_block_bytes = int(max_shared_per_block_bytes)
        self.max_threads_per_block = int(max_threads_per_block)
        self.max_block_dims = tuple(int(d) for d in max_block_dims)
        self.max_grid_dims = tuple(int(d) for d in max_grid_dims)
        self.regs_per_block = int(regs_per_block)
        self.trace = bool(trace)
        self.printf_to_stdout = bool(printf_to_stdout)
        self.timing = bool(config is not None if timing is None else timing)
        self.gpu_config: Any = None
        """The timed GPU's ``GPUConfig`` (None for a functional-only device)."""
        if self.timing:
            from warpsim.arch import resolve_config

            self.gpu_config = resolve_config("gtx480" if config is None else config,
                                             overrides=overrides)
        self._timing_sim: Any = None
        self.sampler: Any = None
        """The ``sampling.sampler.Sampler`` of a sampled timed device, else None."""
        if sample is not None or self.timing:
            self.sampler = self._make_sampler(sample)
        self._l2_fills: list[tuple[int, int]] = []
        self._group: Any = None
        """The ``runtime.concurrent.ConcurrentGroup`` being collected, or None."""
        self._activity: dict[str, float] = {}
        """GPUWattch activity counters summed over timed launches (``power.activity``)."""
        self.trace_sink = trace_sink
        self.memory_bytes = int(memory_bytes)
        if max_steps is not None and (isinstance(max_steps, bool) or
                                      not isinstance(max_steps, (int, np.integer)) or
                                      max_steps < 1):
            raise ConfigError("Device.max_steps", max_steps, "a positive integer or None")
        self.max_steps = None if max_steps is None else int(max_steps)
        if launch_timeout_s is not None and (isinstance(launch_timeout_s, bool) or
                                             not isinstance(launch_timeout_s, (int, float))
                                             or not launch_timeout_s > 0):
            raise ConfigError("Device.launch_timeout_s", launch_timeout_s,
                              "a positive number of seconds or None")
        self.launch_timeout_s = launch_timeout_s
        from warpsim.functional.oob import GUARD_BYTES, OOB_MODES, OOBLog

        if oob not in OOB_MODES:
            raise ConfigError("Device.oob", oob, " or ".join(map(repr, OOB_MODES)),
                              hint="'report' lets accesses just outside an allocation proceed "
                                   "as on a GPU, and reports them")
        self.oob_log = OOBLog() if oob == "report" else None
        """The forgiven out-of-bounds accesses (``oob="report"``; ``functional/oob.py``)."""
        self.memory = self._make_memory()
        if self.oob_log is not None:  # zeros below the lowest allocation, as mapped memory
            self.memory.keep_below_free(GUARD_BYTES)
        self.closed = False
        self._allocations: dict[int, _Allocation] = {}
        self._textures: dict[int, Texture] = {}
        self._next_texture_handle = 1
        self._modules: list[Module] = []
        self.last_launch: Any = None
        """The result of the most recent launch on this device: the functional executor's
        ``LaunchResult``, wrapped in a ``TimedLaunch`` (``.stats``, ``.timing``) when timed."""
        self._launch_observers: list[Callable[[Kernel, LaunchConfig, Any], None]] = []
        self._oob_seen: dict[str, int] = {}

    def _make_sampler(self, sample: Any) -> Any:
        from warpsim.sampling import resolve_sample
        from warpsim.sampling.sampler import Sampler

        options = resolve_sample(sample)
        if options is None:
            return None
        if not self.timing:
            if sample is None:  # the environment's switch: only timed devices sample
                return None
            raise ConfigError("Device.sample", sample, "a timed device (give config=...)",
                              hint="sampling shortens the timing model's replay; a "
                                   "functional-only device has none")
        return Sampler(options)

    def __repr__(self) -> str:
        mode = f"timed on {self.gpu_config.name}" if self.timing else "functional"
        return (f"<warpsim Device {self.arch} {mode}, {len(self._allocations)} allocations, "
                f"{self.allocated_bytes} bytes>")

    # -- memory backend (warpsim.functional.memory) -------------------------------------------

    def _make_memory(self) -> Any:
        from warpsim.functional.memory import GlobalMemory

        return GlobalMemory()  # grows on demand; memory_bytes is enforced by _alloc

    def _read(self, address: int, nbytes: int) -> np.ndarray:
        """A copy of device bytes as a ``np.uint8`` array."""
        return self.memory.read(address, nbytes)

    def _write(self, address: int, data: Any) -> None:
        """Copy bytes, or a numpy array's raw bytes, to device memory."""
        self.memory.write(address, data)
        self._note_host_copy(address, np.asarray(data).nbytes if not isinstance(
            data, (bytes, bytearray, memoryview)) else len(data))

    def _symbol_address(self, module: Module, name: str) -> int:
        return int(module.image.symbol_address(name))

    # -- allocation ----------------------------------------------------------------------------

    @property
    def allocated_bytes(self) -> int:
        """Bytes held by live device arrays."""
        return sum(a.nbytes for a in self._allocations.values())

    def _check_open(self, what: str) -> None:
        if self.closed:
            raise DeviceMemoryError(f"{what}: the Device was closed",
                                    hint="create a new warpsim.Device()")

    def _alloc(self, shape: tuple[int, ...], dtype: np.dtype) -> DeviceArray:
        self._check_open("allocation")
        nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
        if nbytes + self.allocated_bytes > self.memory_bytes:
            raise DeviceMemoryError(f"out of device memory: {nbytes} bytes requested, "
                                    f"{self.allocated_bytes} of {self.memory_bytes} in use",
                                    hint="use smaller inputs or "
                                         "warpsim.Device(memory_bytes=...)")
        ptr = int(self.memory.alloc(nbytes, align=_ALLOC_ALIGN_BYTES))
        alloc = _Allocation(self, ptr, nbytes)
        self._allocations[ptr] = alloc
        return DeviceArray(self, ptr, shape, dtype, alloc)

    def device_array(self, shape: int | tuple[int, ...], dtype: Any = np.float64) -> DeviceArray:
        """A new device array; its contents are unspecified until written (warpsim zeroes it)."""
        dims = (int(shape),) if isinstance(shape, (int, np.integer)) else \
            tuple(int(s) for s in shape)
        if any(d < 0 for d in dims):
            raise DeviceMemoryError(f"device_array: negative dimension in shape {dims}")
        return self._alloc(dims, np.dtype(dtype))

    def device_array_like(self, ary: Any) -> DeviceArray:
        """A new device array with the shape and dtype of ``ary`` (host or device)."""
        return self.device_array(ary.shape, ary.dtype)

    def to_device(self, obj: Any) -> DeviceArray:
        """Copy a host array (anything ``np.asarray`` accepts) into a new device array."""
        if isinstance(obj, DeviceArray):
            out = self.device_array_like(obj)
            out.copy_to_device(obj)
            return out
        host = np.ascontiguousarray(obj)
        if host.dtype == object:
            raise DeviceMemoryError("to_device: cannot copy an object array",
                                    hint="pass a numeric numpy array")
        out = self._alloc(host.shape, host.dtype)
        if host.nbytes:
            self._write(out.device_ptr, host)
        return out

    def memset(self, ary: DeviceArray, value: int, nbytes: int | None = None) -> None:
        """Set every byte of ``ary`` (or its first ``nbytes``) to ``value`` (``cudaMemset``)."""
        ary._check_usable("memset")
        count = ary.nbytes if nbytes is None else int(nbytes)
        if not 0 <= count <= ary.nbytes:
            raise DeviceMemoryError(f"memset: {count} bytes requested, the array has "
                                    f"{ary.nbytes}")
        if not 0 <= int(value) <= 255:
            raise DeviceMemoryError(f"memset: value {value} is not a byte",
                                    hint="memset sets bytes (0..255), as cudaMemset does; to "
                                         "fill with a typed value use d[...] = x")
        if count:
            self.memory.memset(ary.device_ptr, int(value), count)

    def free(self, ary: DeviceArray) -> None:
        """Release a device array's memory (``cudaFree``); using it afterwards is an error."""
        alloc = ary._allocation
        if alloc is None or alloc.device is not self:
            raise DeviceMemoryError("free: this DeviceArray was not allocated by this Device "
                                    "(a view of a module symbol, or another device's array)")
        if alloc.freed:
            raise DeviceMemoryError(f"free: the array at {alloc.ptr:#x} was already freed")
        if ary.device_ptr != alloc.ptr:
            raise DeviceMemoryError("free: this DeviceArray is a view into an allocation",
                                    hint="free the array it was sliced from")
        for tex in list(self._textures.values()):
            if tex.array._allocation is alloc:
                raise DeviceMemoryError(f"free: texture object {tex.handle} still reads this "
                                        "array", hint="destroy the texture first")
        if not self.closed:
            self.memory.free(alloc.ptr)
        alloc.freed = True
        del self._allocations[alloc.ptr]

    def add_launch_observer(self, fn: Callable[[Kernel, LaunchConfig, Any], None]) -> None:
        """Call ``fn(kernel, config, result)`` after every successful launch on this device
        (``result`` is the executor's ``LaunchResult``: counters, trace)."""
        self._launch_observers.append(fn)

    def remove_launch_observer(self, fn: Callable[[Kernel, LaunchConfig, Any], None]) -> None:
        """Stop calling ``fn`` after launches."""
        self._launch_observers.remove(fn)

    def synchronize(self) -> None:
        """Wait for the device (a no-op: every launch and copy is synchronous)."""

    def close(self) -> None:
        """Free every array, texture and module; the Device cannot be used afterwards."""
        if self.closed:
            return
        for tex in list(self._textures.values()):
            self.destroy_texture(tex)
        for alloc in list(self._allocations.values()):
            self.memory.free(alloc.ptr)
            alloc.freed = True
        self._allocations.clear()
        self._modules.clear()
        self.closed = True

    def __enter__(self) -> Device:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # -- modules -------------------------------------------------------------------------------

    def compile(self, source: str | os.PathLike[str], *, options: tuple[str, ...] = (),
                name: str | None = None) -> Module:
        """Compile CUDA C++ (source text or a path to a ``.cu`` file) and load it.

        Raises ``CompileError`` with the compiler's message (and, when no CUDA compiler is
        installed, the pip package that provides one).
        """
        from warpsim import toolchain

        self._check_open("compile")
        compiled = toolchain.compile_cuda(source, arch=self.arch, options=tuple(options),
                                          name=name)
        file = compiled.source_file or name or "<cuda>"
        return self.load_ptx(compiled.ptx, name=str(Path(file).with_suffix(".ptx"))
                             if file != "<cuda>" else "<cuda>.ptx", _compiled=compiled)

    def load_ptx(self, ptx: str, *, name: str = "<ptx>", _compiled: Any = None) -> Module:
        """Parse PTX text and load it: its globals are placed and initialised in device memory.

        Needs no CUDA compiler.
        """
        from warpsim.functional.program import ModuleImage
        from warpsim.ptx.parser import parse_ptx

        self._check_open("load_ptx")
        ir_module = parse_ptx(ptx, name)
        image = ModuleImage(ir_module, self.memory)
        module = Module(self, ptx, ir_module, image, compiled=_compiled)
        self._modules.append(module)
        return module

    def link_ptx(self, units: list[str], *, name: str = "<ptx>") -> Module:
        """Parse the PTX of several translation units (a ``-rdc=true`` build: one unit's
        ``.extern`` kernels, functions and variables defined in another), link them
        (``ptx/link.py``) and load the result as one module."""
        from warpsim.functional.program import ModuleImage
        from warpsim.ptx.link import link_modules
        from warpsim.ptx.parser import parse_ptx

        self._check_open("link_ptx")
        parsed = [parse_ptx(text, f"{name}#{k}" if len(units) > 1 else name)
                  for k, text in enumerate(units)]
        ir_module = link_modules(parsed, name)
        module = Module(self, "\n".join(units), ir_module, ModuleImage(ir_module, self.memory))
        self._modules.append(module)
        return module

    # -- textures ------------------------------------------------------------------------------

    def _make_texture(self, array: DeviceArray, dims: int, owns: bool, address_mode: str,
                      filter_mode: str, normalized_coords: bool, read_mode: str,
                      layered: bool = False) -> Texture:
        check_texture_request(array, dims, address_mode, filter_mode, read_mode)
        handle = self._next_texture_handle
        self._next_texture_handle += 1
        tex = Texture(self, handle, array, dims, address_mode=address_mode,
                      filter_mode=filter_mode, normalized_coords=bool(normalized_coords),
                      read_mode=read_mode, owns_array=owns, layered=layered)
        self._textures[handle] = tex
        return tex

    def texture(self, ary: DeviceArray, *, address_mode: str = "clamp",
                filter_mode: str = "point", normalized_coords: bool = False,
                read_mode: str = "element_type") -> Texture:
        """A 1-D texture object over linear device memory (read with ``tex1Dfetch``).

        ``ary`` has shape ``(n,)`` or ``(n, c)`` for ``c``-component texels (c = 1, 2, 4).
        The texture reads the array's current contents at each launch (no copy).
        """
        self._check_open("texture")
        if not isinstance(ary, DeviceArray):
            raise DeviceMemoryError("texture: a 1-D texture reads linear device memory",
                                    hint="pass a DeviceArray: gpu.texture(gpu.to_device(a))")
        ary._check_usable("texture")
        return self._make_texture(ary, 1, False, address_mode, filter_mode, normalized_coords,
                                  read_mode)

    def texture_2d(self, ary: Any, *, address_mode: str = "clamp", filter_mode: str = "point",
                   normalized_coords: bool = False, read_mode: str = "element_type",
                   pitch_bytes: int | None = None) -> Texture:
        """A 2-D texture object (read with ``tex2D``) over a ``(height, width[, c])`` array.

        A host array is copied to device memory owned by the texture (a ``cudaArray``); a
        DeviceArray is used in place (pitched linear memory with pitch = width * texel size).
        ``pitch_bytes`` (DeviceArray only) gives another row pitch, as
        ``cudaResourceTypePitch2D`` does: row ``y`` of the texture starts at
        ``ary.device_ptr + y * pitch_bytes`` (a multiple of the texel size, at least a row),
        and every row must lie inside the allocation holding ``ary`` (``cudaMallocPitch``).
        """
        self._check_open("texture_2d")
        owns = not isinstance(ary, DeviceArray)
        if pitch_bytes is not None:
            if owns:
                raise DeviceMemoryError("texture_2d: pitch_bytes needs a DeviceArray in "
                                        "pitched device memory",
                                        hint="a host array is copied with its own row pitch")
            self._check_pitch(ary, pitch_bytes)
        array = self.to_device(ary) if owns else ary
        array._check_usable("texture_2d")
        try:
            tex = self._make_texture(array, 2, owns, address_mode, filter_mode,
                                     normalized_coords, read_mode)
        except DeviceMemoryError:
            if owns:
                self.free(array)
            raise
        if pitch_bytes is not None:
            tex.desc = dataclasses.replace(tex.desc, pitch_bytes=int(pitch_bytes))
        return tex

    def texture_3d(self, ary: Any, *, layered: bool = False, address_mode: str = "clamp",
                   filter_mode: str = "point", normalized_coords: bool = False,
                   read_mode: str = "element_type") -> Texture:
        """A 3-D texture (``tex3D``) over a ``(depth, height, width[, c])`` array, or with
        ``layered`` one of ``depth`` layers (``tex2DLayered``; ``tex1DLayered`` when height
        is 1). A host array is copied into memory the texture owns (a 3-D ``cudaArray``); a
        DeviceArray is used in place. Options as for :meth:`texture_2d`."""
        self._check_open("texture_3d")
        owns = not isinstance(ary, DeviceArray)
        array = self.to_device(ary) if owns else ary
        array._check_usable("texture_3d")
        try:
            return self._make_texture(array, 3, owns, address_mode, filter_mode,
                                      normalized_coords, read_mode, layered=layered)
        except DeviceMemoryError:
            if owns:
                self.free(array)
            raise

    def surface(self, ary: DeviceArray) -> Texture:
        """A surface object (``cudaSurfaceObject_t``, read and written with
        ``surf1Dread/surf1Dwrite``, ``surf2Dread/surf2Dwrite``; x counts bytes) over a
        DeviceArray of shape ``(n,)`` (1-D) or ``(height, width[, c])`` (2-D), used in place;
        release it with ``destroy_texture`` (``functional/surfaces.py``)."""
        self._check_open("surface")
        if not isinstance(ary, DeviceArray):
            raise DeviceMemoryError("surface: a surface is device memory the kernel writes",
                                    hint="pass a DeviceArray: gpu.surface(gpu.to_device(a))")
        ary._check_usable("surface")
        return self._make_texture(ary, 1 if len(ary.shape) == 1 else 2, False, "clamp",
                                  "point", False, "element_type")

    def _check_pitch(self, ary: DeviceArray, pitch_bytes: int) -> None:
        """Raise DeviceMemoryError unless ``pitch_bytes`` rows of ``ary`` fit its allocation."""
        shape = ary.shape
        if len(shape) < 2:
            return  # check_texture_request reports the shape
        texel = ary.dtype.itemsize * (int(shape[2]) if len(shape) == 3 else 1)
        row = int(shape[1]) * texel
        if (isinstance(pitch_bytes, bool) or not isinstance(pitch_bytes, (int, np.integer))
                or pitch_bytes < row or pitch_bytes % texel):
            raise DeviceMemoryError(f"texture_2d: pitch_bytes {pitch_bytes!r} for rows of "
                                    f"{shape[1]} texels of {texel} bytes",
                                    hint=f"use a multiple of {texel} that is at least {row}")
        end = ary.device_ptr + (int(shape[0]) - 1) * int(pitch_bytes) + row
        hit = self.memory.allocation_of(ary.device_ptr)
        if hit is None or end > hit[0] + hit[1]:
            raise DeviceMemoryError(f"texture_2d: {shape[0]} rows {pitch_bytes} bytes apart "
                                    f"from {ary.device_ptr:#x} end outside the allocation",
                                    hint="allocate height * pitch_bytes bytes")

    def destroy_texture(self, tex: Texture) -> None:
        """Release a texture object's handle (and the array it copied from the host)."""
        if tex.destroyed or self._textures.get(tex.handle) is not tex:
            raise DeviceMemoryError(f"destroy_texture: texture {tex.handle} is not live on "
                                    "this Device")
        del self._textures[tex.handle]
        tex.destroyed = True
        if tex.owns_array and not tex.array.is_freed:
            self.free(tex.array)

    # -- launch ----------------------------------------------------------------------------------

    def _launch(self, kernel: Kernel, cfg: LaunchConfig, params: bytes, depth: int = 0) -> Any:
        """Run one launch on the functional executor (arguments already checked and packed),
        then the grids its threads launched (``depth``: how deeply this one is nested)."""
        if self.closed:
            raise LaunchError(kernel.name, "the Device was closed",
                              hint="create a new warpsim.Device() and load the module again")
        textures = {h: t.desc for h, t in self._textures.items()}
        if self._group is not None:  # inside ``concurrent``: timed when the block ends
            return self._group.launch(kernel, cfg, params, textures)
        if self.sampler is not None:  # sampled timing (docs/sampling.md)
            result = self._finish_launch(kernel, cfg, self.sampler.launch(
                self, kernel, cfg, params, textures, depth))
            if result.children:
                self._run_children(kernel, result, depth)
            return result
        sink = self.trace_sink
        sim = self._start_timing(kernel, cfg) if self.timing else None
        if sim is not None:
            user_sink = self.trace_sink

            def sink(chunk: Any) -> None:
                sim.consume(chunk)
                if user_sink is not None:
                    user_sink(chunk)

        result = self._run_functional(kernel, cfg, params, textures,
                                      trace=self.trace or sim is not None, sink=sink,
                                      depth=depth)
        if sim is not None:
            result = TimedLaunch(result, self._with_activity(kernel, result, sim.finish()))
        result = self._finish_launch(kernel, cfg, result)
        if result.children:
            self._run_children(kernel, result, depth)
        return result

    def _run_children(self, parent: Kernel, result: Any, depth: int) -> None:
        """Dynamic parallelism: the grids ``result``'s threads launched, after their parent
        and in launch order (``functional/device_launch.py``), each a launch of its own
        (timed, observed, its own children after it); ``last_launch`` stays the parent."""
        from warpsim.functional.device_launch import ChildCopy

        for child in result.children:
            if isinstance(child, ChildCopy):  # a device-side cudaMemcpyAsync, in issue order
                if child.nbytes:
                    self.memory.write(child.dst, self.memory.read(child.src, child.nbytes))
                continue
            kernel = parent.module.get_kernel(child.kernel)
            cfg = LaunchConfig(child.grid, child.block, child.shared_bytes, False)
            kernel.check_config(cfg)
            self._launch(kernel, cfg, child.params, depth + 1)
        self.last_launch = result

    def _run_functional(self, kernel: Kernel, cfg: LaunchConfig, params: bytes,
                        textures: dict, *, trace: bool, sink: Any, depth: int = 0) -> Any:
        """The launch on the functional executor with this device's limits and banking."""
        from warpsim.functional.executor import launch

        return launch(kernel.module.image, kernel.name, grid=cfg.grid, block=cfg.block,
                      params=params, dynamic_shared_bytes=cfg.shared_bytes,
                      textures=textures, trace=trace, trace_sink=sink,
                      max_steps=self.max_steps, launch_timeout_s=self.launch_timeout_s,
                      oob_log=self.oob_log, cooperative=cfg.cooperative,
                      launch_depth=depth, **self._shmem_banks())

    def _finish_launch(self, kernel: Kernel, cfg: LaunchConfig, result: Any) -> Any:
        """Record ``result`` as the last launch, echo the kernel's printf, tell observers."""
        self.last_launch = result
        log = self.oob_log
        if log is not None and log.per_kernel.get(kernel.name, 0) > self._oob_seen.get(
                kernel.name, 0):
            new = log.per_kernel[kernel.name] - self._oob_seen.get(kernel.name, 0)
            self._oob_seen[kernel.name] = log.per_kernel[kernel.name]
            _log.warning("launch of %s: %d out-of-bounds global access(es) allowed "
                         "(oob=report)", kernel.name, new)
        if self.printf_to_stdout and result.printf_output:
            sys.stdout.write(result.printf_output)  # the kernel's own output, not a log
            sys.stdout.flush()
        for observe in self._launch_observers:
            observe(kernel, cfg, result)
        return result

    def _shmem_banks(self) -> dict[str, int]:
        """Shared-memory banking of the timed GPU for the trace's bank conflicts (32 banks of
        4 bytes on a functional-only device)."""
        if self.gpu_config is None:
            return {}
        sh = self.gpu_config.shmem
        return {"shmem_banks": sh.n_banks, "shmem_bank_width_bytes": sh.bank_width_bytes}
