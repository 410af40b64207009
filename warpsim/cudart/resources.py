"""Device memory, CUDA arrays, texture objects and device/function queries of a CUDA context.

Follows: the CUDA Runtime API reference: ``cudaMalloc`` / ``cudaFree`` / ``cudaMallocPitch``,
``cudaMemcpy`` (1-D and 2-D), ``cudaMemset``, ``cudaMallocArray``, ``cudaCreateTextureObject``
(``cudaResourceTypeArray`` / ``MipmappedArray`` / ``Linear`` / ``Pitch2D``; ``cudaTextureDesc``
address, filter and read modes, mipmap filter, level bias and clamps),
``cudaMallocMipmappedArray`` / ``cudaGetMipmappedArrayLevel`` / ``cudaFreeMipmappedArray``,
``cudaGetDeviceProperties``, ``cudaFuncGetAttributes``,
``cudaOccupancyMaxActiveBlocksPerMultiprocessor``.
Assumptions: [A] pitched allocations use a 128-byte row pitch; [A] a texture's address mode
is its x mode (``addressMode[0]``), the one the functional model has; [A] the reported compute
capability is the PTX target the functional model runs (``Device.arch``, sm_80), whatever GPU
the timing model times; [A] a GPU without a timing configuration reports A100-like SM
resources (108 SMs, 2048 threads, 64 Ki registers, 164 KiB shared memory per SM).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from warpsim.cudart import errors as ce
from warpsim.cudart.attributes import DEFAULT_SHARED_PER_BLOCK, UNKNOWN, attribute_values
from warpsim.cudart.handlers import api
from warpsim.errors import WarpsimError
from warpsim.runtime import DeviceMemoryError

__all__ = ["ResourcesMixin"]

_PITCH_ALIGN_BYTES = 128
_PAGE_BYTES = 4096
_OK = (0, [], b"")
_CHANNEL_DTYPES = {(0, 8): np.int8, (0, 16): np.int16, (0, 32): np.int32,
                   (1, 8): np.uint8, (1, 16): np.uint16, (1, 32): np.uint32,
                   (2, 16): np.float16, (2, 32): np.float32}
"""(cudaChannelFormatKind Signed/Unsigned/Float, bits) -> numpy texel dtype."""
_ADDRESS = {0: "wrap", 1: "clamp", 2: "mirror", 3: "border"}
_FILTER = {0: "point", 1: "linear"}
_READ = {0: "element_type", 1: "normalized_float"}
_FUNCTIONAL_SM = {"sms": 108, "threads": 2048, "registers": 65536, "shmem": 167936,
                  "ctas": 32, "l2": 40 << 20, "clock_khz": 1410000, "mem_khz": 1215000,
                  "bus_bits": 5120}


def _channel(x: int, y: int, z: int, w: int, f: int) -> tuple[Any, int]:
    """(numpy dtype, channels) of a ``cudaChannelFormatDesc``."""
    bits = [b for b in (x, y, z, w) if b]
    if not bits or any(b != bits[0] for b in bits) or len(bits) == 3:
        raise ce.CudaError(ce.INVALID_VALUE, f"channel format ({x}, {y}, {z}, {w}) is not "
                           "supported: use 1, 2 or 4 channels of one size")
    dtype = _CHANNEL_DTYPES.get((f, bits[0]))
    if dtype is None:
        raise ce.CudaError(ce.INVALID_VALUE, f"channel format kind {f} with {bits[0]}-bit "
                           "channels is not supported (8/16/32-bit ints, 16/32-bit floats)")
    return dtype, len(bits)


@dataclasses.dataclass(slots=True)
class _CudaArray:
    """A ``cudaArray``: row-major texels in device memory owned by the context."""

    data: Any
    dtype: Any
    channels: int
    width: int
    height: int
    depth: int = 1
    """Slices (3-D) or layers (layered); the data's shape is (depth, height, width[, c])
    when the array was made by ``cudaMalloc3DArray``, else (height, width[, c])."""
    layered: bool = False

    @property
    def row_bytes(self) -> int:
        return self.width * self.channels * np.dtype(self.dtype).itemsize


class ResourcesMixin:
    """The memory, texture and query calls of ``CudaContext`` (kept apart for size)."""

    device: Any
    allocations: dict[int, Any]
    arrays: dict[int, Any]
    mipmaps: dict[int, list[int]]
    textures: dict[int, Any]
    managed: dict[int, int]
    sticky: int

    # -- memory --------------------------------------------------------------------------------

    def _alloc(self, nbytes: int) -> int:
        try:
            arr = self.device.device_array(max(int(nbytes), 1), np.uint8)
        except DeviceMemoryError as err:  # out of simulated memory
            raise ce.CudaError(ce.MEMORY_ALLOCATION, err.message.splitlines()[0]) from None
        self.allocations[arr.device_ptr] = arr
        return arr.device_ptr

    @api("cudaMalloc")
    def _malloc(self, ints: tuple[int, ...], blob: bytes) -> Any:
        return (0, [self._alloc(ints[0]) if ints[0] else 0], b"")

    @api("cudaMallocPitch")
    def _malloc_pitch(self, ints: tuple[int, ...], blob: bytes) -> Any:
        width, height = ints
        pitch = max(-(-int(width) // _PITCH_ALIGN_BYTES) * _PITCH_ALIGN_BYTES, _PITCH_ALIGN_BYTES)
        return (0, [self._alloc(pitch * max(int(height), 1)), pitch], b"")

    def _free_array(self, arr: Any) -> None:
        for handle, tex in list(self.textures.items()):  # CUDA leaves them dangling
            if tex.array._allocation is arr._allocation:
                tex.destroy()
                del self.textures[handle]
        self.device.free(arr)

    @api("cudaMallocManaged")
    def _malloc_managed(self, ints: tuple[int, ...], blob: bytes) -> Any:
        """Page-aligned memory the library maps in the host at the same address."""
        mapped = max(-(-int(ints[0]) // _PAGE_BYTES) * _PAGE_BYTES, _PAGE_BYTES)
        parent = self._alloc(mapped + _PAGE_BYTES)
        aligned = -(-parent // _PAGE_BYTES) * _PAGE_BYTES
        self.managed[aligned] = parent
        return (0, [aligned, mapped], b"")

    @api("cudaFree")
    def _free(self, ints: tuple[int, ...], blob: bytes) -> Any:
        arr = self.allocations.pop(self.managed.pop(ints[0], ints[0]), None)
        if arr is None:
            raise ce.CudaError(ce.INVALID_DEVICE_POINTER, f"cudaFree({ints[0]:#x}): not a "
                               "pointer returned by cudaMalloc")
        self._free_array(arr)
        return _OK

    @api("cudaMemGetInfo")
    def _mem_info(self, ints: tuple[int, ...], blob: bytes) -> Any:
        total = int(self.device.memory_bytes)
        return (0, [max(total - int(self.device.allocated_bytes), 0), total], b"")

    @api("cudaDeviceReset")
    def _reset(self, ints: tuple[int, ...], blob: bytes) -> Any:
        for tex in self.textures.values():
            tex.destroy()
        self.textures.clear()
        for arr in self.allocations.values():
            self.device.free(arr)
        for cuda_array in self.arrays.values():
            self.device.free(cuda_array.data)
        self.allocations.clear()
        self.managed.clear()
        self.arrays.clear()
        self.mipmaps.clear()
        self.sticky = 0  # a reset clears a kernel fault, as on a GPU
        return _OK

    def _memory(self) -> Any:
        return self.device.memory

    def _check(self, address: int, nbytes: int, what: str) -> None:
        if not self._memory().check_range(address, nbytes):
            raise ce.CudaError(ce.INVALID_VALUE, f"{what}: [{address:#x}, +{nbytes}) is not "
                               "inside one device allocation")

    @api("__classify")
    def _classify(self, ints: tuple[int, ...], blob: bytes) -> Any:
        mem = self._memory()
        return (0, [int(mem.allocation_of(p) is not None) for p in ints], b"")

    @api("__write")
    def _write(self, ints: tuple[int, ...], blob: bytes) -> Any:
        self._check(ints[0], len(blob), "copy to the device")
        self.device._write(ints[0], np.frombuffer(blob, np.uint8))  # (warms the L2: timed.py)
        return _OK

    @api("__read")
    def _read(self, ints: tuple[int, ...], blob: bytes) -> Any:
        self._check(ints[0], ints[1], "copy from the device")
        return (0, [], self._memory().read(ints[0], ints[1]).tobytes())

    @api("__copy")
    def _copy(self, ints: tuple[int, ...], blob: bytes) -> Any:
        dst, src, n = ints
        self._check(src, n, "device-to-device copy source")
        self._check(dst, n, "device-to-device copy destination")
        mem = self._memory()
        mem.write(dst, mem.read(src, n))
        return _OK

    @api("__memset")
    def _memset(self, ints: tuple[int, ...], blob: bytes) -> Any:
        ptr, value, n = ints
        self._check(ptr, n, "cudaMemset")
        self._memory().memset(ptr, value, n)
        return _OK

    @api("__write2d")
    def _write2d(self, ints: tuple[int, ...], blob: bytes) -> Any:
        dst, pitch, width, height = ints
        self._check(dst, pitch * (height - 1) + width, "2-D copy to the device")
        rows = np.frombuffer(blob, np.uint8).reshape(height, width)
        for y in range(height):
            self.device._write(dst + y * pitch, rows[y])
        return _OK

    @api("__read2d")
    def _read2d(self, ints: tuple[int, ...], blob: bytes) -> Any:
        src, pitch, width, height = ints
        self._check(src, pitch * (height - 1) + width, "2-D copy from the device")
        mem = self._memory()
        return (0, [], b"".join(mem.read(src + y * pitch, width).tobytes()
                                for y in range(height)))

    @api("__copy2d")
    def _copy2d(self, ints: tuple[int, ...], blob: bytes) -> Any:
        dst, dpitch, src, spitch, width, height = ints
        self._check(src, spitch * (height - 1) + width, "2-D copy source")
        self._check(dst, dpitch * (height - 1) + width, "2-D copy destination")
        mem = self._memory()
        for y in range(height):
            mem.write(dst + y * dpitch, mem.read(src + y * spitch, width))
        return _OK

    # -- arrays and textures -------------------------------------------------------------------

    @api("cudaMalloc3DArray")
    def _malloc_3d_array(self, ints: tuple[int, ...], blob: bytes) -> Any:
        x, y, z, w, f, width, height, depth, flags = ints
        if flags & 4 and (width != height or depth == 0 or depth % 6):  # cudaArrayCubemap
            raise ce.CudaError(ce.INVALID_VALUE, f"cudaMalloc3DArray: a cubemap needs square "
                               f"faces and a depth of 6 (x layers), not {width} x {height} x "
                               f"{depth}")
        layered = bool(flags & 5)  # a cubemap is a layered array of 6 faces per cube
        if not layered and depth == 0:  # a 1-D or 2-D array
            return self._malloc_array((x, y, z, w, f, width, height), blob)
        dtype, channels = _channel(x, y, z, w, f)
        height, depth = max(int(height), 1), max(int(depth), 1)
        shape = (depth, height, int(width)) + ((channels,) if channels > 1 else ())
        data = self.device.device_array(shape, dtype)
        self.arrays[data.device_ptr] = _CudaArray(data, dtype, channels, int(width), height,
                                                  depth, layered)
        return (0, [data.device_ptr], b"")

    @api("cudaMallocArray")
    def _malloc_array(self, ints: tuple[int, ...], blob: bytes) -> Any:
        x, y, z, w, f, width, height = ints
        dtype, channels = _channel(x, y, z, w, f)
        height = max(int(height), 1)
        shape = (height, int(width)) + ((channels,) if channels > 1 else ())
        data = self.device.device_array(shape, dtype)
        handle = data.device_ptr
        self.arrays[handle] = _CudaArray(data, dtype, channels, int(width), height)
        return (0, [handle], b"")

    @api("cudaMallocMipmappedArray")
    def _malloc_mipmapped(self, ints: tuple[int, ...], blob: bytes) -> Any:
        """Levels of ``max(1, size >> i)`` texels a side, ``numLevels`` clamped to
        [1, 1 + floor(log2(largest side))] as CUDA does; each level is a cudaArray."""
        x, y, z, w, f, width, height, depth, levels, flags = ints
        if depth or flags:
            raise ce.CudaError(ce.NOT_SUPPORTED, "cudaMallocMipmappedArray: 3-D, layered, "
                               "cubemap and surface mipmaps are not supported (1-D and 2-D "
                               "are)")
        if not width:
            raise ce.CudaError(ce.INVALID_VALUE, "cudaMallocMipmappedArray: width 0")
        n = min(max(int(levels), 1), max(int(width), int(height)).bit_length())
        handles = []
        for i in range(n):
            lh = max(int(height) >> i, 1) if height else 0
            handles.append(self._malloc_array((x, y, z, w, f, max(int(width) >> i, 1), lh),
                                              b"")[1][0])
        handle = handles[0] | 1  # cudaArrays are aligned: an odd number names the set
        self.mipmaps[handle] = handles
        return (0, [handle], b"")

    def _mipmap(self, handle: int) -> list[int]:
        levels = self.mipmaps.get(handle)
        if levels is None:
            raise ce.CudaError(ce.INVALID_RESOURCE_HANDLE, f"{handle:#x} is not a "
                               "cudaMipmappedArray")
        return levels

    @api("cudaGetMipmappedArrayLevel")
    def _mipmap_level(self, ints: tuple[int, ...], blob: bytes) -> Any:
        levels = self._mipmap(ints[0])
        if ints[1] >= len(levels):
            raise ce.CudaError(ce.INVALID_VALUE, f"cudaGetMipmappedArrayLevel: level {ints[1]} "
                               f"of an array of {len(levels)} levels")
        return (0, [levels[ints[1]]], b"")

    @api("cudaFreeMipmappedArray")
    def _free_mipmapped(self, ints: tuple[int, ...], blob: bytes) -> Any:
        for h in self._mipmap(ints[0]):
            self._free_array(self.arrays.pop(h).data)
        del self.mipmaps[ints[0]]
        return _OK

    def _array(self, handle: int) -> _CudaArray:
        arr = self.arrays.get(handle)
        if arr is None:
            raise ce.CudaError(ce.INVALID_RESOURCE_HANDLE, f"{handle:#x} is not a cudaArray")
        return arr

    @api("cudaFreeArray")
    def _free_array_call(self, ints: tuple[int, ...], blob: bytes) -> Any:
        arr = self._array(ints[0])
        del self.arrays[ints[0]]
        self._free_array(arr.data)
        return _OK

    @api("__array_info")
    def _array_info(self, ints: tuple[int, ...], blob: bytes) -> Any:
        arr = self._array(ints[0])
        elem = arr.channels * np.dtype(arr.dtype).itemsize
        return (0, [arr.data.device_ptr, arr.row_bytes, arr.height, elem, arr.depth], b"")

    def _linear_view(self, ptr: int, nbytes: int, dtype: Any, shape: tuple[int, ...]) -> Any:
        """A typed DeviceArray view of ``nbytes`` at ``ptr`` inside a cudaMalloc allocation."""
        hit = self._memory().allocation_of(ptr)
        parent = self.allocations.get(hit[0]) if hit is not None else None
        if parent is None or ptr + nbytes > hit[0] + hit[1]:
            raise ce.CudaError(ce.INVALID_VALUE, f"texture memory [{ptr:#x}, +{nbytes}) is not "
                               "inside one cudaMalloc allocation")
        off = ptr - hit[0]
        return parent[off:off + nbytes].view(dtype).reshape(shape)

    @api("cudaCreateTextureObject")
    def _create_texture(self, ints: tuple[int, ...], blob: bytes) -> Any:
        (res_type, ptr, x, y, z, w, f, size, height, pitch, address, filt, read,
         norm, mip_filter, *mip) = ints
        opts = {"address_mode": _ADDRESS.get(address, "clamp"),
                "filter_mode": _FILTER.get(filt, "point"),
                "read_mode": _READ.get(read, "element_type"), "normalized_coords": bool(norm)}
        if res_type == 1:  # cudaResourceTypeMipmappedArray
            levels = [self._array(h) for h in self._mipmap(ptr)]
            data = levels[0].data
            tex = (self.device.texture(data.reshape(data.shape[1:]), **opts)
                   if levels[0].height == 1 else self.device.texture_2d(data, **opts))
            bias, lo, hi = (float(np.uint32(v).view(np.float32)) for v in mip)
            tex.desc = dataclasses.replace(
                tex.desc, mipmap_filter=_FILTER.get(mip_filter, "point"), level_bias=bias,
                min_level=lo, max_level=hi, levels=tuple(
                    dataclasses.replace(tex.desc, address=a.data.device_ptr, width=a.width,
                                        height=a.height, pitch_bytes=0) for a in levels[1:]))
        elif res_type == 0:  # cudaResourceTypeArray
            arr = self._array(ptr)
            if arr.data.ndim >= 3 + (arr.channels > 1):  # from cudaMalloc3DArray
                tex = self.device.texture_3d(arr.data, layered=arr.layered, **opts)
            elif arr.height == 1:
                tex = self.device.texture(arr.data.reshape(arr.data.shape[1:]), **opts)
            else:
                tex = self.device.texture_2d(arr.data, **opts)
        else:
            dtype, channels = _channel(x, y, z, w, f)
            texel = np.dtype(dtype).itemsize * channels
            vec = (channels,) if channels > 1 else ()
            if res_type == 2:  # cudaResourceTypeLinear
                n = int(size) // texel
                tex = self.device.texture(self._linear_view(ptr, n * texel, dtype, (n, *vec)),
                                          **opts)
            elif res_type == 3:  # cudaResourceTypePitch2D
                width, rows = int(size), int(height)
                if pitch < width * texel or pitch % texel:
                    raise ce.CudaError(ce.INVALID_PITCH_VALUE, f"pitch {pitch} for {width} "
                                       f"texels of {texel} bytes")
                view = self._linear_view(ptr, width * rows * texel, dtype, (rows, width, *vec))
                tex = self.device.texture_2d(view, pitch_bytes=int(pitch), **opts)
            else:
                raise ce.CudaError(ce.NOT_SUPPORTED, f"texture resource type {res_type}")
        self.textures[tex.handle] = tex
        return (0, [tex.handle], b"")

    @api("cudaCreateSurfaceObject")
    def _create_surface(self, ints: tuple[int, ...], blob: bytes) -> Any:
        arr = self._array(ints[0])
        if arr.data.ndim >= 3 + (arr.channels > 1):
            raise ce.CudaError(ce.NOT_SUPPORTED, "cudaCreateSurfaceObject: 3-D and layered "
                               "surfaces are not supported (1-D and 2-D arrays are)")
        data = arr.data.reshape(arr.data.shape[1:]) if arr.height == 1 else arr.data
        surf = self.device.surface(data)
        self.textures[surf.handle] = surf
        return (0, [surf.handle], b"")

    @api("cudaDestroyTextureObject")
    def _destroy_texture(self, ints: tuple[int, ...], blob: bytes) -> Any:
        tex = self.textures.pop(ints[0], None)
        if tex is None:
            raise ce.CudaError(ce.INVALID_VALUE, f"{ints[0]} is not a live texture object")
        tex.destroy()
        return _OK

    # -- queries -------------------------------------------------------------------------------

    def sm_resources(self) -> dict[str, int]:
        """Per-SM resources reported to the program: the timed GPU's, or A100-like ones."""
        cfg = self.device.gpu_config
        if cfg is None:
            return dict(_FUNCTIONAL_SM)
        return {"sms": cfg.sm.n_sms, "threads": cfg.sm.n_max_threads,
                "registers": cfg.sm.n_registers, "shmem": cfg.shmem.size_bytes,
                "ctas": cfg.sm.n_max_ctas,
                "l2": cfg.l2.size_bytes * cfg.l2.n_slices_per_channel * cfg.dram.n_channels,
                "clock_khz": int(cfg.clocks.core_mhz * 1000),
                "mem_khz": int(cfg.clocks.dram_mhz * 1000),
                "bus_bits": (cfg.dram.n_channels * cfg.dram.n_chips_per_channel *
                             cfg.dram.bus_width_bytes * 8)}

    def attributes(self) -> dict[int, int]:
        """``cudaDeviceAttr`` number -> value, every attribute (``attributes.py``)."""
        return attribute_values(self.device, self.sm_resources())

    @api("__props")
    def _props(self, ints: tuple[int, ...], blob: bytes) -> Any:
        """The device name and the properties without an attribute (total memory); every
        other ``cudaDeviceProp`` field is filled from ``__attributes``."""
        d = self.device
        cfg = d.gpu_config
        name = f"warpsim {cfg.name} (simulated)" if cfg is not None else \
            "warpsim functional GPU (simulated)"
        return (0, [int(d.memory_bytes)], name.encode())

    @api("__attributes")
    def _attributes(self, ints: tuple[int, ...], blob: bytes) -> Any:
        """Every attribute as one little-endian int64 per number from 0 to the largest, and
        ``UNKNOWN`` for the numbers that name none."""
        values = self.attributes()
        table = np.full(max(values) + 1, UNKNOWN, np.int64)
        for number, value in values.items():
            table[number] = value
        return (0, [len(table)], table.astype("<i8").tobytes())

    def _regs(self, kernel: Any) -> int:
        try:
            return int(kernel.get_regs_per_thread())
        except WarpsimError:  # no ptxas: warpsim's own allocation, comparable with ptxas's
            from warpsim.ptx.regalloc import allocate_registers

            program = kernel.module.image.program(kernel.name)
            return int(allocate_registers(program.fn).regs_per_thread)

    @api("cudaFuncGetAttributes")
    def _func_attributes(self, ints: tuple[int, ...], blob: bytes) -> Any:
        kernel = self.kernel(ints[0])  # type: ignore[attr-defined]
        static = kernel.static_shared_bytes
        try:
            local = int(kernel.get_local_mem_per_thread())
            max_threads = int(kernel.get_max_threads_per_block())
        except WarpsimError:  # no ptxas
            local, max_threads = 0, int(self.device.max_threads_per_block)
        arch = int(self.device.arch.removeprefix("sm_").rstrip("af"))
        return (0, [static, 0, local, max_threads, self._regs(kernel),
                    _virtual_arch(kernel.module.ir.target, arch), arch,
                    self.max_dynamic_shared(ints[0])], b"")

    def max_dynamic_shared(self, func: int) -> int:
        """``cudaFuncAttributeMaxDynamicSharedMemorySize`` of a kernel: what
        ``cudaFuncSetAttribute`` set, else the default 48 KiB per block less its static
        shared memory (at most the device's opt-in limit)."""
        kernel = self.kernel(func)  # type: ignore[attr-defined]
        default = min(DEFAULT_SHARED_PER_BLOCK, self.device.max_shared_per_block_bytes)
        return self.func_max_dynamic.get(func, default - kernel.static_shared_bytes)

    @api("cudaFuncSetAttribute")
    def _func_set_attribute(self, ints: tuple[int, ...], blob: bytes) -> Any:
        func, attr, value = ints[0], int(ints[1]), int(ints[2])
        kernel = self.kernel(func)  # type: ignore[attr-defined]
        if attr == 8:  # cudaFuncAttributeMaxDynamicSharedMemorySize
            limit = self.device.max_shared_per_block_bytes - kernel.static_shared_bytes
            if not 0 <= value <= limit:
                raise ce.CudaError(ce.INVALID_VALUE, f"{kernel.name}: dynamic shared memory "
                                   f"{value} bytes: the device allows at most {limit} "
                                   "(sharedMemPerBlockOptin less the kernel's static shared)")
            self.func_max_dynamic[func] = value
        elif attr != 9:  # the carveout preference is a hint; clusters are not simulated
            raise ce.CudaError(ce.INVALID_VALUE, f"cudaFuncSetAttribute: attribute {attr} "
                               "(thread-block clusters) is not supported")
        return _OK

    @api("cudaOccupancyMaxActiveBlocksPerMultiprocessor")
    def _occupancy(self, ints: tuple[int, ...], blob: bytes) -> Any:
        kernel = self.kernel(ints[0])  # type: ignore[attr-defined]
        block, dyn = int(ints[1]), int(ints[2])
        if block < 1:
            raise ce.CudaError(ce.INVALID_VALUE, f"block size {block}")
        sm = self.sm_resources()
        warps = -(-block // 32)
        limits = [sm["ctas"], sm["threads"] // (warps * 32)]
        regs = self._regs(kernel)
        if regs:
            per_warp = -(-(regs * 32) // 256) * 256  # allocation unit: 256 registers per warp
            limits.append(sm["registers"] // (per_warp * warps))
        shared = kernel.static_shared_bytes + dyn
        if shared:
            limits.append(sm["shmem"] // shared)
        return (0, [max(min(limits), 0)], b"")


def _virtual_arch(target: tuple[str, ...], default: int) -> int:
    """``cudaFuncAttributes.ptxVersion``: the virtual architecture the PTX was generated for
    (``.target sm_80`` -> 80, what the driver reports and CUB picks its tuning policy by), not
    the PTX ISA version; ``default`` when the module names none."""
    for t in target:
        digits = t.removeprefix("sm_").rstrip("af")
        if t.startswith("sm_") and digits.isdigit():
            return int(digits)
    return default
