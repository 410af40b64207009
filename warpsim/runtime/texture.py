"""Texture objects: a 64-bit handle (``cudaTextureObject_t``) naming device memory and a sampler.

Follows: CUDA runtime ``cudaCreateTextureObject`` with ``cudaResourceTypeLinear`` (1-D,
``tex1Dfetch``) and ``cudaResourceTypePitch2D`` / arrays (2-D, ``tex2D``); ``cudaTextureDesc``
fields ``addressMode``, ``filterMode``, ``normalizedCoords``, ``readMode``.
Assumptions: [A] handles are small positive integers, unique per Device, never reused;
[A] a texture's texels are the elements of its DeviceArray: shape ``(n,)`` or ``(h, w)`` for one
channel, a trailing axis of 2 or 4 for vector texels (``float2``, ``float4``, ...).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from warpsim.errors import LaunchError
from warpsim.functional.textures import TextureDesc
from warpsim.runtime.array import DeviceArray, DeviceMemoryError

if TYPE_CHECKING:
    from warpsim.runtime.device import Device

__all__ = ["ADDRESS_MODES", "FILTER_MODES", "READ_MODES", "Texture"]

ADDRESS_MODES = ("clamp", "wrap", "mirror", "border")
FILTER_MODES = ("point", "linear")
READ_MODES = ("element_type", "normalized_float")
_CHANNEL_FORMATS = {np.int8: "s8", np.uint8: "u8", np.int16: "s16", np.uint16: "u16",
                    np.int32: "s32", np.uint32: "u32", np.float16: "f16", np.float32: "f32"}
"""numpy texel dtype -> channel format of ``TextureDesc``."""


class Texture:
    """A texture object; pass it to a kernel parameter of type ``cudaTextureObject_t``.

    Attributes
    ----------
    handle : int
        The 64-bit value the kernel receives.
    array : DeviceArray
        The texels.
    dims : int
        1 (``tex1Dfetch`` over linear memory), 2 (``tex2D``) or 3 (``tex3D``, or with
        ``layered`` ``tex2DLayered``/``tex1DLayered``).
    width, height, depth : int
        Texels per row, rows (1 for 1-D textures), slices or layers (1 below 3-D).
    layered : bool
        ``depth`` layers of 2-D (or, with height 1, 1-D) images.
    channels : int
        Components per texel (1, 2 or 4).
    address_mode, filter_mode, read_mode : str
    normalized_coords : bool
    """

    def __init__(self, device: Device, handle: int, array: DeviceArray, dims: int, *,
                 address_mode: str, filter_mode: str, normalized_coords: bool, read_mode: str,
                 owns_array: bool, layered: bool = False) -> None:
        self.device = device
        self.handle = handle
        self.array = array
        self.dims = dims
        shape = array.shape
        vector = len(shape) == dims + 1
        self.channels = int(shape[-1]) if vector else 1
        self.width = int(shape[dims - 1])
        self.height = int(shape[dims - 2]) if dims >= 2 else 1
        self.depth = int(shape[0]) if dims == 3 else 1
        self.layered = bool(layered)
        self.address_mode = address_mode
        self.filter_mode = filter_mode
        self.normalized_coords = normalized_coords
        self.read_mode = read_mode
        self.owns_array = owns_array
        self.destroyed = False
        self.desc = TextureDesc(
            address=array.device_ptr, width=self.width, height=self.height,
            channels=self.channels, dtype=_CHANNEL_FORMATS[array.dtype.type],
            filter=filter_mode, address_mode=address_mode,
            normalized_coords=normalized_coords, normalized_read=read_mode == "normalized_float",
            depth=self.depth, layered=self.layered)
        """What the functional executor samples through (``launch(textures={handle: desc})``)."""

    def __repr__(self) -> str:
        size = "x".join(str(v) for v in (self.width, self.height, self.depth)[:self.dims])
        size += " layered" if self.layered else ""
        return (f"<warpsim Texture handle={self.handle} {self.dims}-D {size} "
                f"{self.array.dtype}x{self.channels} {self.filter_mode}/{self.address_mode}>")

    def __int__(self) -> int:
        return self.handle

    @property
    def dtype(self) -> np.dtype:
        return self.array.dtype

    def destroy(self) -> None:
        """Release the handle (``cudaDestroyTextureObject``) and an array it copied from host."""
        self.device.destroy_texture(self)

    def __enter__(self) -> Texture:
        return self

    def __exit__(self, *exc: Any) -> None:
        if not self.destroyed and not self.device.closed:
            self.destroy()

    def _check_usable(self, kernel: str) -> None:
        if self.destroyed:
            raise LaunchError(kernel, f"texture object {self.handle} was destroyed",
                              hint="create a new one with gpu.texture(...)")
        self.array._check_usable(f"the array of texture {self.handle}", error_kernel=kernel)


def check_texture_request(array: DeviceArray, dims: int, address_mode: str, filter_mode: str,
                          read_mode: str) -> None:
    """Raise DeviceMemoryError for a texture the model cannot build."""
    fn = {1: "texture", 2: "texture_2d", 3: "texture_3d"}[dims]
    if address_mode not in ADDRESS_MODES:
        raise DeviceMemoryError(f"{fn}: address_mode {address_mode!r} is not one of "
                                f"{ADDRESS_MODES}")
    if filter_mode not in FILTER_MODES:
        raise DeviceMemoryError(f"{fn}: filter_mode {filter_mode!r} is not one of "
                                f"{FILTER_MODES}")
    if read_mode not in READ_MODES:
        raise DeviceMemoryError(f"{fn}: read_mode {read_mode!r} is not one of {READ_MODES}")
    if array.dtype.type not in _CHANNEL_FORMATS:
        raise DeviceMemoryError(
            f"{fn}: texels of dtype {array.dtype} are not supported",
            hint="use 8/16/32-bit integers, float16 or float32 (CUDA has no 64-bit texels; "
                 "int2 / float2 texels are a trailing axis of 2)")
    shape = array.shape
    ok = len(shape) == dims or (len(shape) == dims + 1 and shape[-1] in (1, 2, 4))
    if not ok or array.size == 0:
        want = {1: "(n,) or (n, c)", 2: "(height, width) or (height, width, c)",
                3: "(depth, height, width) or (depth, height, width, c)"}[dims]
        raise DeviceMemoryError(f"{fn}: array of shape {shape} cannot be a {dims}-D texture",
                                hint=f"use shape {want} with c in (1, 2, 4)")
    if filter_mode == "linear" and not (array.dtype.kind == "f" or
                                        read_mode == "normalized_float"):
        raise DeviceMemoryError(f"{fn}: linear filtering needs float texels or "
                                "read_mode='normalized_float'",
                                hint="use filter_mode='point' for integer texels")
