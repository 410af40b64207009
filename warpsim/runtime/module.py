"""A PTX module loaded on a Device: its kernels and its ``__device__`` / ``__constant__`` symbols.

Follows: CUDA driver ``cuModuleLoadData`` / ``cuModuleGetFunction`` / ``cuModuleGetGlobal``,
CuPy ``RawModule.get_function`` / ``get_global``.
Assumptions: [A] module globals are placed in the device's global heap when the module is loaded
(initialisers applied then, zero otherwise) and live as long as the Device.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from warpsim.errors import LaunchError
from warpsim.ptx import ir
from warpsim.runtime.array import DeviceArray, DeviceMemoryError
from warpsim.runtime.kernel import Kernel

if TYPE_CHECKING:
    from warpsim.runtime.device import Device

__all__ = ["Module"]

_PTX_DTYPES = {
    "b8": np.uint8, "u8": np.uint8, "s8": np.int8,
    "b16": np.uint16, "u16": np.uint16, "s16": np.int16, "f16": np.float16,
    "b32": np.uint32, "u32": np.uint32, "s32": np.int32, "f32": np.float32,
    "b64": np.uint64, "u64": np.uint64, "s64": np.int64, "f64": np.float64,
}
"""numpy dtype of a PTX variable's element type (``b8`` arrays are raw bytes)."""


class Module:
    """PTX loaded on a Device (``gpu.compile(...)`` or ``gpu.load_ptx(...)``).

    Attributes
    ----------
    device : Device
    ir : warpsim.ptx.ir.Module
        The parsed PTX.
    ptx : str
        The PTX text.
    compiled : CompiledPTX or None
        The compiler's output when the module came from CUDA source.
    """

    def __init__(self, device: Device, ptx: str, ir_module: ir.Module, image: Any,
                 compiled: Any = None) -> None:
        self.device = device
        self.ptx = ptx
        self.ir = ir_module
        self.image = image
        self.compiled = compiled
        self._kernels: dict[str, Kernel] = {}
        self._resources: dict[str, Any] | None = None

    def __repr__(self) -> str:
        return f"<warpsim Module {self.ir.file or '<ptx>'} kernels={self.kernel_names}>"

    @property
    def kernel_names(self) -> list[str]:
        """The PTX names of the module's kernels."""
        return sorted(self.ir.kernels)

    def get_kernel(self, name: str) -> Kernel:
        """The kernel called ``name``: its ``extern "C"`` name, mangled name, or unqualified C++
        name when that is unambiguous."""
        fn = self.ir.kernel(name)
        if fn.name not in self._kernels:
            self._kernels[fn.name] = Kernel(self, fn)
        return self._kernels[fn.name]

    get_function = get_kernel  # CuPy spelling

    def __getattr__(self, name: str) -> Kernel:
        # ``mod.vadd`` as a shortcut for ``mod.get_kernel("vadd")``
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self.get_kernel(name)
        except LaunchError:
            raise AttributeError(f"module has no kernel or attribute {name!r}") from None

    def get_global(self, name: str, dtype: Any = None, shape: Any = None) -> DeviceArray:
        """A DeviceArray view of a module-scope ``.global`` or ``.const`` variable.

        Write it (``copy_to_device``, ``d[...] = x``) before a launch to set constants; read it
        after a launch to get a ``__device__`` variable's value.

        Parameters
        ----------
        name
            The variable's PTX name (``__constant__ float coef[4]`` is ``coef``).
        dtype, shape
            Element type and shape of the view. By default the PTX element type (``uint8`` for
            the ``.b8`` arrays nvcc writes for most arrays, ``uint32`` for ``int``); such a
            default view accepts host data of any dtype and shape with the same byte size,
            since the PTX type does not say what the C type was.
        """
        var = self.ir.variables.get(name)
        if var is None or var.space not in ("global", "const"):
            symbols = sorted(n for n, v in self.ir.variables.items()
                             if v.space in ("global", "const"))
            raise DeviceMemoryError(f"no __device__ or __constant__ variable {name!r} in the "
                                    "module", hint=f"symbols: {', '.join(symbols) or '(none)'}; "
                                                   "use the PTX name (mangled for C++ names)")
        address = self.device._symbol_address(self, name)
        raw = dtype is None  # PTX types lose C signedness (int is .u32) and arrays are .b8
        dt = np.dtype(dtype) if dtype is not None else np.dtype(_PTX_DTYPES.get(var.type,
                                                                                 np.uint8))
        if var.size_bytes % dt.itemsize:
            raise DeviceMemoryError(f"get_global: {name} has {var.size_bytes} bytes, not a "
                                    f"multiple of {dt} ({dt.itemsize} bytes)")
        n = var.size_bytes // dt.itemsize
        arr = DeviceArray(self.device, address, (n,), dt, None)
        if shape is not None:
            arr = arr.reshape(shape)
        arr._raw_bytes = raw
        return arr

    def _resource_usage(self, name: str) -> Any:
        """ptxas's report for kernel ``name`` (computed once per module, then cached), for the
        device's arch or the timed GPU's ``sm.occupancy_arch``."""
        if self._resources is None:
            from warpsim import toolchain

            cfg = self.device.gpu_config
            target = cfg.sm.occupancy_arch.number if cfg is not None else None
            self._resources = (  # sm.occupancy_arch: GPGPU-Sim's ptxas target
                toolchain.resource_usage(toolchain.lower_ptx_target(self.ptx, target),
                                         arch=f"sm_{target}") if target else
                toolchain.resource_usage(self.ptx, arch=self.device.arch))
        if name not in self._resources:
            raise LaunchError(name, "ptxas reported no resource usage for this kernel")
        return self._resources[name]
