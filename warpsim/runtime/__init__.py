"""The Python host API: a CUDA-like Device, device arrays, modules, kernels and textures.

Follows: numba.cuda and CuPy conventions (see docs/host-api.md)::

    gpu = warpsim.Device()
    mod = gpu.compile(source)                 # or gpu.load_ptx(ptx_text)
    vadd = mod.get_kernel("vadd")
    d_a = gpu.to_device(a); d_c = gpu.device_array(n, np.float32)
    vadd[(n + 255) // 256, 256](d_a, d_b, d_c, np.int32(n))
    c = d_c.copy_to_host()
"""

from __future__ import annotations

from warpsim.runtime.array import DeviceArray, DeviceMemoryError
from warpsim.runtime.device import Device
from warpsim.runtime.kernel import ConfiguredKernel, Kernel, LaunchConfig, pack_arguments
from warpsim.runtime.module import Module
from warpsim.runtime.texture import Texture

__all__ = [
    "ConfiguredKernel",
    "Device",
    "DeviceArray",
    "DeviceMemoryError",
    "Kernel",
    "LaunchConfig",
    "Module",
    "Texture",
    "pack_arguments",
]
