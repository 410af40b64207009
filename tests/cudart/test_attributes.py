"""Device attributes: the table is the CUDA runtime's ``cudaDeviceAttr`` enum, every number
has a value, and a timed GPU reports its own resources.

Oracles: the enum as written in the installed ``driver_types.h`` (parsed here), and the
GTX480's published figures (15 SMs at 700 MHz, 1536 threads, 32 Ki registers, 48 KiB of shared
memory and 8 blocks per SM, 768 KiB of L2, a 384-bit GDDR5 bus at 924 MHz: NVIDIA's GF100
specifications and GPGPU-Sim's GTX480 gpgpusim.config); the FP64 ratio of the simulated
pipelines, by hand from that config: 2 SP units at FP32 ADD interval 1 against DP on the one
SFU at DP ADD interval 8 is 16 (the published GeForce figure is 8).
"""

from __future__ import annotations

import re

import pytest

import warpsim
from warpsim.cudart.attributes import ATTRIBUTES, CUDA12_NAMES, UNKNOWN
from warpsim.cudart.build import find_cuda_include
from warpsim.cudart.context import CudaContext


def _header_enum() -> dict[str, int]:
    folder = find_cuda_include()
    assert folder is not None, "the nvidia-cuda-runtime wheel (a dependency) has the headers"
    text = (folder / "driver_types.h").read_text()
    body = re.search(r"enum\s+__device_builtin__\s+cudaDeviceAttr\s*\{(.*?)\};", text, re.S)
    assert body is not None
    return {m.group(1): int(m.group(2))
            for m in re.finditer(r"\bcudaDevAttr(\w+)\s*=\s*(\d+)", body.group(1))}


def test_table_holds_every_attribute_of_the_runtime_enum():
    header = _header_enum()
    assert len(header) > 100
    missing = {k: v for k, v in header.items() if ATTRIBUTES.get(k) != v}
    assert not missing, f"attributes of driver_types.h not in the table (or renumbered): {missing}"
    numbers = set(ATTRIBUTES.values())
    assert len(numbers) == len(ATTRIBUTES)
    assert set(CUDA12_NAMES.values()) <= numbers


@pytest.mark.parametrize("config", [None, "gtx480", "qv100", "a100"])
def test_every_attribute_has_an_int_value(config):
    with warpsim.Device(config=config) as gpu:
        values = CudaContext(gpu).attributes()
    assert set(values) == set(ATTRIBUTES.values())
    assert all(-2**31 <= v < 2**31 and v != UNKNOWN for v in values.values())


def test_gtx480_reports_its_own_resources():
    with warpsim.Device(config="gtx480") as gpu:
        values = CudaContext(gpu).attributes()
    got = {name: values[ATTRIBUTES[name]] for name in (
        "MultiProcessorCount", "ClockRate", "MaxThreadsPerMultiProcessor",
        "MaxRegistersPerMultiprocessor", "MaxRegistersPerBlock",
        "MaxSharedMemoryPerMultiprocessor", "MaxSharedMemoryPerBlock",
        "MaxBlocksPerMultiprocessor", "L2CacheSize", "GlobalMemoryBusWidth",
        "MemoryClockRate", "SingleToDoublePrecisionPerfRatio", "WarpSize",
        "ComputeCapabilityMajor", "ComputeCapabilityMinor")}
    assert got == {"MultiProcessorCount": 15, "ClockRate": 700_000,
                   "MaxThreadsPerMultiProcessor": 1536, "MaxRegistersPerMultiprocessor": 32768,
                   "MaxRegistersPerBlock": 32768, "MaxSharedMemoryPerMultiprocessor": 49152,
                   "MaxSharedMemoryPerBlock": 49152, "MaxBlocksPerMultiprocessor": 8,
                   "L2CacheSize": 768 * 1024, "GlobalMemoryBusWidth": 384,
                   "MemoryClockRate": 924_000, "SingleToDoublePrecisionPerfRatio": 16,
                   "WarpSize": 32, "ComputeCapabilityMajor": 8, "ComputeCapabilityMinor": 0}
