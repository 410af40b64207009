"""CUDA runtime error codes (``cudaError_t``) and the exception that carries one.

Follows: ``driver_types.h`` of the CUDA runtime (enum ``cudaError``), whose values are part of
the ABI programs are compiled against.
"""

from __future__ import annotations

from warpsim.errors import WarpsimError

__all__ = ["NO_STICKY", "CudaError"]

SUCCESS = 0
INVALID_VALUE = 1
MEMORY_ALLOCATION = 2
INVALID_CONFIGURATION = 9
INVALID_PITCH_VALUE = 12
INVALID_SYMBOL = 13
INVALID_DEVICE_POINTER = 17
INVALID_TEXTURE = 18
INVALID_DEVICE_FUNCTION = 98
NO_KERNEL_IMAGE = 209
INVALID_PTX = 218
INVALID_RESOURCE_HANDLE = 400
ILLEGAL_ADDRESS = 700
LAUNCH_TIMEOUT = 702
ASSERT = 710
LAUNCH_FAILURE = 719
COOPERATIVE_LAUNCH_TOO_LARGE = 720
NOT_SUPPORTED = 801

NO_STICKY = frozenset({"__register_fatbin", "__register_function", "__register_var",
                       "__props", "__attributes", "__classify", "cudaDeviceReset"})
"""Calls that still work after a sticky error (registration and queries)."""


class CudaError(WarpsimError):
    """A forwarded call that fails with ``code``; ``sticky`` errors (a fault inside a kernel)
    make every later call fail too, as a corrupted CUDA context does."""

    def __init__(self, code: int, message: str = "", *, sticky: bool = False) -> None:
        super().__init__(message or f"CUDA error {code}")
        self.code = code
        self.message = message
        self.sticky = sticky
