"""Device arrays: typed, C-contiguous views of the simulated GPU's global memory.

Follows: numba.cuda's ``DeviceNDArray`` (``copy_to_host``, ``copy_to_device``, ``device_ptr``
through ``device_ctypes_pointer``) and CuPy's ``ndarray`` (no implicit host conversion).
Assumptions: [A] arrays are C-contiguous; slicing keeps contiguity (first axis, step 1).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from warpsim.errors import LaunchError, WarpsimError

if TYPE_CHECKING:
    from warpsim.runtime.device import Device

__all__ = ["DeviceArray", "DeviceMemoryError"]


class DeviceMemoryError(WarpsimError, ValueError):
    """A host-side device-memory operation that cannot be done as asked (wrong shape or dtype,
    freed array, exhausted device memory)."""

    def __init__(self, problem: str, hint: str = "") -> None:
        text = problem + (f"\n  hint: {hint}" if hint else "")
        super().__init__(text, problem=problem, hint=hint)


class _Allocation:
    """One block of device memory; every view of it shares this record."""

    __slots__ = ("device", "freed", "nbytes", "ptr")

    def __init__(self, device: Device, ptr: int, nbytes: int) -> None:
        self.device = device
        self.ptr = ptr
        self.nbytes = nbytes
        self.freed = False


class DeviceArray:
    """An n-dimensional array in simulated device memory.

    Create one with ``Device.to_device``, ``Device.device_array`` or
    ``Device.device_array_like``; pass it to a kernel where the kernel takes a pointer.

    Attributes
    ----------
    shape : tuple of int
    dtype : numpy.dtype
    device : Device
    """

    def __init__(self, device: Device, ptr: int, shape: tuple[int, ...], dtype: Any,
                 allocation: _Allocation | None) -> None:
        self.device = device
        self._ptr = int(ptr)
        self.shape = tuple(int(s) for s in shape)
        self.dtype = np.dtype(dtype)
        self._allocation = allocation
        self._raw_bytes = False
        """A symbol view with the PTX's own type (``get_global`` without dtype): it accepts
        host data of any dtype and shape with the same byte size."""

    # -- properties --------------------------------------------------------------------------

    @property
    def device_ptr(self) -> int:
        """Address of the first element in the simulated global memory (what kernels receive)."""
        return self._ptr

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def itemsize(self) -> int:
        return self.dtype.itemsize

    @property
    def nbytes(self) -> int:
        return self.size * self.dtype.itemsize

    @property
    def strides(self) -> tuple[int, ...]:
        strides, step = [], self.itemsize
        for s in reversed(self.shape):
            strides.append(step)
            step *= s
        return tuple(reversed(strides))

    @property
    def is_freed(self) -> bool:
        return self._allocation is not None and self._allocation.freed

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of a 0-d DeviceArray")
        return self.shape[0]

    def __repr__(self) -> str:
        state = " freed" if self.is_freed else ""
        return (f"<warpsim DeviceArray shape={self.shape} dtype={self.dtype} "
                f"ptr={self._ptr:#x}{state}>")

    # -- transfers ---------------------------------------------------------------------------

    def copy_to_host(self, ary: np.ndarray | None = None) -> np.ndarray:
        """Copy to a new host array, or into ``ary`` (same shape and dtype)."""
        self._check_usable("copy_to_host")
        raw = self.device._read(self._ptr, self.nbytes)
        out = raw.view(self.dtype).reshape(self.shape)  # _read returns a fresh copy
        if ary is None:
            return out
        if not isinstance(ary, np.ndarray) or ary.shape != self.shape or \
                ary.dtype != self.dtype:
            got = f"{ary.shape} {ary.dtype}" if isinstance(ary, np.ndarray) else type(ary)
            raise DeviceMemoryError(
                f"copy_to_host: destination is {got}, the device array {self.shape} "
                f"{self.dtype}", hint="pass np.empty(d.shape, d.dtype), or no argument")
        ary[...] = out
        return ary

    def copy_to_device(self, host: Any) -> None:
        """Copy a host array (or another DeviceArray) of the same shape and dtype into this one."""
        self._check_usable("copy_to_device")
        if isinstance(host, DeviceArray):
            host._check_usable("copy_to_device (source)")
            self._check_same_layout(host.shape, host.dtype, "device array")
            self.device._write(self._ptr, self.device._read(host._ptr, host.nbytes))
            return
        arr = np.asarray(host)
        if self._raw_bytes and arr.nbytes == self.nbytes:
            self.device._write(self._ptr, np.ascontiguousarray(arr))
            return
        if arr.shape != self.shape and arr.size == self.size and arr.ndim <= 1 \
                and self.ndim <= 1:
            arr = arr.reshape(self.shape)  # scalar into a 1-element array
        self._check_same_layout(arr.shape, arr.dtype, "host array")
        self.device._write(self._ptr, np.ascontiguousarray(arr))

    def _check_same_layout(self, shape: tuple, dtype: np.dtype, what: str) -> None:
        if self._raw_bytes and int(np.prod(shape, dtype=np.int64)) * np.dtype(dtype).itemsize \
                == self.nbytes:
            return
        if tuple(shape) != self.shape:
            raise DeviceMemoryError(
                f"copy_to_device: the {what} has shape {tuple(shape)}, the device array "
                f"{self.shape}", hint="copy an array of the same shape, or allocate a new one "
                                      "with gpu.to_device(a)")
        if np.dtype(dtype) != self.dtype:
            raise DeviceMemoryError(
                f"copy_to_device: the {what} has dtype {np.dtype(dtype)}, the device array "
                f"{self.dtype}", hint=f"convert first: a.astype(np.{self.dtype.name})")

    def _check_usable(self, what: str, error_kernel: str = "") -> None:
        if self.device.closed:
            raise DeviceMemoryError(f"{what}: the array's Device was closed",
                                    hint="device memory ends with its Device")
        if self.is_freed:
            if error_kernel:
                raise LaunchError(error_kernel, f"{what} is a freed DeviceArray",
                                  hint="pass an array that is still allocated")
            raise DeviceMemoryError(f"{what}: the DeviceArray at {self._ptr:#x} was freed",
                                    hint="allocate a new array; gpu.free(d) ends its lifetime")

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        raise DeviceMemoryError("implicit conversion of a DeviceArray to a numpy array",
                                hint="copy explicitly: d.copy_to_host()")

    # -- views -------------------------------------------------------------------------------

    def view(self, dtype: Any) -> DeviceArray:
        """The same bytes as another dtype (the last axis is rescaled, like ``ndarray.view``)."""
        dtype = np.dtype(dtype)
        if dtype.itemsize == self.itemsize:
            return DeviceArray(self.device, self._ptr, self.shape, dtype, self._allocation)
        last = self.shape[-1] if self.shape else 1
        if (last * self.itemsize) % dtype.itemsize:
            raise DeviceMemoryError(
                f"view: {last} x {self.dtype} does not divide into {dtype} elements",
                hint="view a region whose byte size is a multiple of the new item size")
        shape = (*self.shape[:-1], last * self.itemsize // dtype.itemsize)
        return DeviceArray(self.device, self._ptr, shape, dtype, self._allocation)

    def reshape(self, *shape: Any) -> DeviceArray:
        """A view with another shape (same number of elements; one entry may be -1)."""
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        dims = [int(d) for d in shape]
        if dims.count(-1) > 1 or any(d < -1 for d in dims):
            raise DeviceMemoryError(f"reshape: bad shape {tuple(dims)}")
        known = int(np.prod([d for d in dims if d != -1], dtype=np.int64))
        if -1 in dims:
            if known == 0 or self.size % known:
                raise DeviceMemoryError(f"reshape: cannot reshape {self.shape} into "
                                        f"{tuple(dims)}")
            dims[dims.index(-1)] = self.size // known
        elif known != self.size:
            raise DeviceMemoryError(f"reshape: cannot reshape {self.shape} ({self.size} "
                                    f"elements) into {tuple(dims)}")
        new = tuple(dims)
        return DeviceArray(self.device, self._ptr, new, self.dtype, self._allocation)

    def ravel(self) -> DeviceArray:
        return self.reshape(-1)

    def __getitem__(self, key: Any) -> Any:
        """``d[i]`` reads an element (ndim 1) or a sub-array view; ``d[a:b]`` is a view."""
        target = self._select(key)
        if target.shape == () and self._is_element_key(key):
            target._check_usable("indexing")
            raw = self.device._read(target._ptr, self.itemsize)
            return raw.view(self.dtype)[0]
        return target

    def __setitem__(self, key: Any, value: Any) -> None:
        """``d[...] = host``, ``d[a:b] = host``, ``d[i] = x``: copy into the selected region."""
        target = self._select(key)
        if isinstance(value, DeviceArray):
            target.copy_to_device(value)
            return
        src = np.broadcast_to(np.asarray(value, dtype=self.dtype), target.shape)
        target.copy_to_device(np.ascontiguousarray(src))

    def _is_element_key(self, key: Any) -> bool:
        keys = key if isinstance(key, tuple) else (key,)
        return len(keys) == self.ndim and all(isinstance(k, (int, np.integer)) for k in keys)

    def _select(self, key: Any) -> DeviceArray:
        """The view that ``key`` selects (integers on leading axes, or one contiguous slice)."""
        keys = key if isinstance(key, tuple) else (key,)
        if keys in ((Ellipsis,), (slice(None),)) or (keys == () and not self.shape):
            return self
        if all(isinstance(k, (int, np.integer)) for k in keys) and len(keys) <= self.ndim:
            offset = 0
            for axis, k in enumerate(keys):
                n = self.shape[axis]
                i = int(k)
                if not -n <= i < n:
                    raise DeviceMemoryError(f"index {i} is out of bounds for axis {axis} with "
                                            f"size {n}")
                offset = offset * n + (i % n)
            rest = self.shape[len(keys):]
            item = int(np.prod(rest, dtype=np.int64)) * self.itemsize
            return DeviceArray(self.device, self._ptr + offset * item, rest, self.dtype,
                               self._allocation)
        if len(keys) == 1 and isinstance(keys[0], slice) and self.shape:
            start, stop, step = keys[0].indices(self.shape[0])
            if step != 1:
                raise DeviceMemoryError("only contiguous slices (step 1) of a DeviceArray are "
                                        "supported",
                                        hint="slice the host copy instead: d.copy_to_host()[::2]")
            n = max(stop - start, 0)
            row = int(np.prod(self.shape[1:], dtype=np.int64)) * self.itemsize
            return DeviceArray(self.device, self._ptr + start * row, (n, *self.shape[1:]),
                               self.dtype, self._allocation)
        raise DeviceMemoryError(f"unsupported DeviceArray index {key!r}",
                                hint="use d[i], d[i, j], d[a:b] or d.copy_to_host()[...]")

    # -- lifetime ----------------------------------------------------------------------------

    def free(self) -> None:
        """Release the memory (same as ``gpu.free(d)``); views of it become unusable."""
        self.device.free(self)

    def __enter__(self) -> DeviceArray:
        return self

    def __exit__(self, *exc: Any) -> None:
        if not self.is_freed and not self.device.closed:
            self.device.free(self)
