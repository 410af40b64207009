"""Device attributes (``cudaDeviceGetAttribute``) of the simulated GPU: every ``cudaDeviceAttr``.

Follows: ``driver_types.h`` of the CUDA 13 runtime (``enum cudaDeviceAttr``; the numbers are
part of the ABI, CUDA 12 has the same ones, two of its names are gone in 13: number 96
``cooperativeMultiDeviceLaunch`` and the alias ``MaxTimelineSemaphoreInteropSupported`` of
114); the CUDA Programming Guide's table of technical specifications for compute capability
8.0 (texture and surface limits); ``cudaDeviceProp``'s documentation (which field matches
which attribute).
Assumptions:
  [A] The compute capability is 8.0, the PTX target the functional model runs, whatever GPU
      the timing model times; limits that follow from it (grid, block, texture sizes) are
      sm_80's. SM resources, clocks, L2 and the memory bus come from the ``--config`` preset,
      or are A100-like without one (``resources._FUNCTIONAL_SM``).
  [A] A capability is reported as present (1, or a non-zero limit) only where warpsim
      implements what a program would then do; docs/cuda-runtime.md lists each choice.
      Texture and surface kinds warpsim does not have (gather textures, 3-D and layered
      mipmaps; 3-D, layered and cubemap surfaces) report a limit of 0.
  [A] Reserved numbers of the enum, and capabilities of multi-GPU, NUMA, IPC, interop and
      RDMA setups, report 0 (-1 for the NUMA ids, as a device without NUMA affinity does).
"""

from __future__ import annotations

from typing import Any

__all__ = ["ATTRIBUTES", "CUDA12_NAMES", "DEFAULT_SHARED_PER_BLOCK", "UNKNOWN",
           "attribute_values"]

DEFAULT_SHARED_PER_BLOCK = 48 * 1024
"""Shared memory a block may use without opting in (``sharedMemPerBlock``); more, up to
``sharedMemPerBlockOptin``, after ``cudaFuncSetAttribute(MaxDynamicSharedMemorySize)``."""

ATTRIBUTES: dict[str, int] = {
    "MaxThreadsPerBlock": 1, "MaxBlockDimX": 2, "MaxBlockDimY": 3, "MaxBlockDimZ": 4,
    "MaxGridDimX": 5, "MaxGridDimY": 6, "MaxGridDimZ": 7, "MaxSharedMemoryPerBlock": 8,
    "TotalConstantMemory": 9, "WarpSize": 10, "MaxPitch": 11, "MaxRegistersPerBlock": 12,
    "ClockRate": 13, "TextureAlignment": 14, "GpuOverlap": 15, "MultiProcessorCount": 16,
    "KernelExecTimeout": 17, "Integrated": 18, "CanMapHostMemory": 19, "ComputeMode": 20,
    "MaxTexture1DWidth": 21, "MaxTexture2DWidth": 22, "MaxTexture2DHeight": 23,
    "MaxTexture3DWidth": 24, "MaxTexture3DHeight": 25, "MaxTexture3DDepth": 26,
    "MaxTexture2DLayeredWidth": 27, "MaxTexture2DLayeredHeight": 28,
    "MaxTexture2DLayeredLayers": 29, "SurfaceAlignment": 30, "ConcurrentKernels": 31,
    "EccEnabled": 32, "PciBusId": 33, "PciDeviceId": 34, "TccDriver": 35,
    "MemoryClockRate": 36, "GlobalMemoryBusWidth": 37, "L2CacheSize": 38,
    "MaxThreadsPerMultiProcessor": 39, "AsyncEngineCount": 40, "UnifiedAddressing": 41,
    "MaxTexture1DLayeredWidth": 42, "MaxTexture1DLayeredLayers": 43,
    "MaxTexture2DGatherWidth": 45, "MaxTexture2DGatherHeight": 46,
    "MaxTexture3DWidthAlt": 47, "MaxTexture3DHeightAlt": 48, "MaxTexture3DDepthAlt": 49,
    "PciDomainId": 50, "TexturePitchAlignment": 51, "MaxTextureCubemapWidth": 52,
    "MaxTextureCubemapLayeredWidth": 53, "MaxTextureCubemapLayeredLayers": 54,
    "MaxSurface1DWidth": 55, "MaxSurface2DWidth": 56, "MaxSurface2DHeight": 57,
    "MaxSurface3DWidth": 58, "MaxSurface3DHeight": 59, "MaxSurface3DDepth": 60,
    "MaxSurface1DLayeredWidth": 61, "MaxSurface1DLayeredLayers": 62,
    "MaxSurface2DLayeredWidth": 63, "MaxSurface2DLayeredHeight": 64,
    "MaxSurface2DLayeredLayers": 65, "MaxSurfaceCubemapWidth": 66,
    "MaxSurfaceCubemapLayeredWidth": 67, "MaxSurfaceCubemapLayeredLayers": 68,
    "MaxTexture1DLinearWidth": 69, "MaxTexture2DLinearWidth": 70,
    "MaxTexture2DLinearHeight": 71, "MaxTexture2DLinearPitch": 72,
    "MaxTexture2DMipmappedWidth": 73, "MaxTexture2DMipmappedHeight": 74,
    "ComputeCapabilityMajor": 75, "ComputeCapabilityMinor": 76,
    "MaxTexture1DMipmappedWidth": 77, "StreamPrioritiesSupported": 78,
    "GlobalL1CacheSupported": 79, "LocalL1CacheSupported": 80,
    "MaxSharedMemoryPerMultiprocessor": 81, "MaxRegistersPerMultiprocessor": 82,
    "ManagedMemory": 83, "IsMultiGpuBoard": 84, "MultiGpuBoardGroupID": 85,
    "HostNativeAtomicSupported": 86, "SingleToDoublePrecisionPerfRatio": 87,
    "PageableMemoryAccess": 88, "ConcurrentManagedAccess": 89,
    "ComputePreemptionSupported": 90, "CanUseHostPointerForRegisteredMem": 91,
    "Reserved92": 92, "Reserved93": 93, "Reserved94": 94, "CooperativeLaunch": 95,
    "Reserved96": 96, "MaxSharedMemoryPerBlockOptin": 97, "CanFlushRemoteWrites": 98,
    "HostRegisterSupported": 99, "PageableMemoryAccessUsesHostPageTables": 100,
    "DirectManagedMemAccessFromHost": 101, "MaxBlocksPerMultiprocessor": 106,
    "MaxPersistingL2CacheSize": 108, "MaxAccessPolicyWindowSize": 109,
    "ReservedSharedMemoryPerBlock": 111, "SparseCudaArraySupported": 112,
    "HostRegisterReadOnlySupported": 113, "TimelineSemaphoreInteropSupported": 114,
    "MemoryPoolsSupported": 115, "GPUDirectRDMASupported": 116,
    "GPUDirectRDMAFlushWritesOptions": 117, "GPUDirectRDMAWritesOrdering": 118,
    "MemoryPoolSupportedHandleTypes": 119, "ClusterLaunch": 120,
    "DeferredMappingCudaArraySupported": 121, "Reserved122": 122, "Reserved123": 123,
    "Reserved124": 124, "IpcEventSupport": 125, "MemSyncDomainCount": 126,
    "Reserved127": 127, "Reserved128": 128, "Reserved129": 129, "NumaConfig": 130,
    "NumaId": 131, "Reserved132": 132, "MpsEnabled": 133, "HostNumaId": 134,
    "D3D12CigSupported": 135, "VulkanCigSupported": 138, "GpuPciDeviceId": 139,
    "GpuPciSubsystemId": 140, "Reserved141": 141, "HostNumaMemoryPoolsSupported": 142,
    "HostNumaMultinodeIpcSupported": 143, "HostMemoryPoolsSupported": 144,
    "Reserved145": 145, "OnlyPartialHostNativeAtomicSupported": 147,
    "AtomicReductionSupported": 148, "LocalityDomainCount": 149,
    "OversizedSharedMemoryPerBlock": 150, "CigStreamsSupported": 151,
    "LocalityDomainMultiprocessorCount": 157, "TensorMapLargeTensorMinSize": 160,
}
"""``cudaDevAttr<Name>`` -> its number (CUDA 13 ``driver_types.h``, without the prefix)."""

CUDA12_NAMES: dict[str, int] = {"CooperativeMultiDeviceLaunch": 96,
                                "MaxTimelineSemaphoreInteropSupported": 114}
"""CUDA 12 names of numbers that CUDA 13 renamed or reserved."""

UNKNOWN = -(1 << 63)
"""The value ``attribute_values`` gives a number that is not an attribute."""

_SM80_TEXTURES = {
    "MaxTexture1DWidth": 131072, "MaxTexture2DWidth": 131072, "MaxTexture2DHeight": 65536,
    "MaxTexture1DLinearWidth": 1 << 28, "MaxTexture2DLinearWidth": 131072,
    "MaxTexture2DLinearHeight": 65000, "MaxTexture2DLinearPitch": (1 << 21) - 32,
    "MaxSurface1DWidth": 32768, "MaxSurface2DWidth": 131072, "MaxSurface2DHeight": 65536,
    "MaxTexture3DWidth": 16384, "MaxTexture3DHeight": 16384, "MaxTexture3DDepth": 16384,
    "MaxTexture2DMipmappedWidth": 32768, "MaxTexture2DMipmappedHeight": 32768,
    "MaxTexture1DMipmappedWidth": 32768, "MaxTexture2DLayeredWidth": 32768,
    "MaxTexture2DLayeredHeight": 32768,
    "MaxTexture2DLayeredLayers": 2048, "MaxTexture1DLayeredWidth": 32768,
    "MaxTexture1DLayeredLayers": 2048, "MaxTextureCubemapWidth": 32768,
    "MaxTextureCubemapLayeredWidth": 32768, "MaxTextureCubemapLayeredLayers": 2046,
}
"""Limits of the texture and surface kinds warpsim has (1-D, 2-D, 3-D, layered and cubemap
textures from arrays, linear and pitched memory; 1-D and 2-D surfaces): compute capability 8.0's
(CUDA Programming Guide, technical specifications)."""


def _fp64_ratio(cfg: Any) -> int:
    """Single- to double-precision throughput of the timed pipelines: units over the ADD
    initiation interval, double precision with its own interval on the units that run it
    (the SFU where there is no DP unit, as GPGPU-Sim); 2 as on an A100 without a
    configuration."""
    if cfg is None:
        return 2
    p = cfg.pipelines
    dp_units = p.fp64.n_units or p.sfu.n_units

    def interval(pipe: Any) -> int:
        ii = pipe.op_initiation_interval_cycles
        return max(ii[0] if ii else pipe.initiation_interval_cycles, 1)

    if not dp_units:
        return 0
    return max(round((p.fp32.n_units / interval(p.fp32)) / (dp_units / interval(p.fp64))), 1)


def attribute_values(device: Any, sm: dict[str, int]) -> dict[int, int]:
    """Every attribute number of ``ATTRIBUTES`` -> its value on ``device`` (a
    ``warpsim.Device``), with ``sm`` the per-SM resources ``ResourcesMixin.sm_resources``
    reports (``sms``, ``threads``, ``registers``, ``shmem``, ``ctas``, ``l2``, ``clock_khz``,
    ``mem_khz``, ``bus_bits``)."""
    d = device
    cfg = d.gpu_config
    major, minor = divmod(int(d.arch.removeprefix("sm_").rstrip("af")), 10)
    threads_per_block = d.max_threads_per_block
    regs_per_block = d.regs_per_block
    if cfg is not None:
        threads_per_block = min(threads_per_block, cfg.sm.n_max_threads_per_cta)
        regs_per_block = min(regs_per_block, cfg.sm.n_max_regs_per_cta)
    optin = min(d.max_shared_per_block_bytes, sm["shmem"])
    shared_per_block = min(DEFAULT_SHARED_PER_BLOCK, optin)
    values: dict[str, int] = dict.fromkeys(ATTRIBUTES, 0)
    values.update(_SM80_TEXTURES)
    values.update({
        "MaxThreadsPerBlock": threads_per_block,
        "MaxBlockDimX": min(d.max_block_dims[0], threads_per_block),
        "MaxBlockDimY": min(d.max_block_dims[1], threads_per_block),
        "MaxBlockDimZ": d.max_block_dims[2],
        "MaxGridDimX": d.max_grid_dims[0], "MaxGridDimY": d.max_grid_dims[1],
        "MaxGridDimZ": d.max_grid_dims[2],
        "MaxSharedMemoryPerBlock": shared_per_block,
        "MaxSharedMemoryPerBlockOptin": optin,  # cudaFuncSetAttribute raises a kernel to it
        "TotalConstantMemory": 65536, "WarpSize": 32, "MaxPitch": (1 << 31) - 1,
        "MaxRegistersPerBlock": regs_per_block, "ClockRate": sm["clock_khz"],
        "TextureAlignment": 512, "TexturePitchAlignment": 32, "SurfaceAlignment": 512,
        "MultiProcessorCount": sm["sms"], "MemoryClockRate": sm["mem_khz"],
        "GlobalMemoryBusWidth": sm["bus_bits"], "L2CacheSize": sm["l2"],
        "MaxThreadsPerMultiProcessor": sm["threads"],
        "MaxSharedMemoryPerMultiprocessor": sm["shmem"],
        "MaxRegistersPerMultiprocessor": sm["registers"],
        "MaxBlocksPerMultiprocessor": sm["ctas"],
        "ComputeCapabilityMajor": major, "ComputeCapabilityMinor": minor,
        "SingleToDoublePrecisionPerfRatio": _fp64_ratio(cfg),
        # what warpsim implements (docs/cuda-runtime.md, "Device properties"):
        "UnifiedAddressing": 1,          # one address space; cudaMemcpyDefault works
        "CanMapHostMemory": 1,           # cudaHostAlloc(Mapped) + cudaHostGetDevicePointer
        "ManagedMemory": 1,              # cudaMallocManaged, __managed__
        "GpuOverlap": 1,                 # async copies run in stream order and take no
        "AsyncEngineCount": 1,           # simulated time, as with a free copy engine
        "HostRegisterSupported": 1,      # cudaHostRegister pins (a no-op); not mapped
        "CooperativeLaunch": 1,          # cudaLaunchCooperativeKernel, grid sync
        "MemoryPoolsSupported": 1,       # cudaMallocAsync, cudaMemPool* (shim_pool.c)
        "GlobalL1CacheSupported": 1, "LocalL1CacheSupported": 1,
        "MemSyncDomainCount": 1,         # sm_80 has one domain
        "LocalityDomainCount": 1, "LocalityDomainMultiprocessorCount": sm["sms"],
        "NumaId": -1, "HostNumaId": -1,
        "TensorMapLargeTensorMinSize": 2147483647,  # no "large tensor" distinction
    })
    return {ATTRIBUTES[name]: int(v) for name, v in values.items()}
