"""``Device(oob="report")``: global accesses just outside an allocation proceed as on a GPU
(the heap's bytes there) and are reported; accesses outside the heap and the default mode
still fault.

Oracles by hand: allocations are 256-byte aligned and first-fit (docs/host-api.md), so a
64-int array is followed directly by the next one; the report mode keeps 64 KiB of zeros
below the first allocation.
"""

from __future__ import annotations

import logging

import numpy as np
import pytest

import warpsim
from warpsim.errors import ConfigError, MemoryAccessError

SRC = r"""
extern "C" __global__ void shift_read(const int* x, int* y) {
    int i = threadIdx.x;
    y[i] = x[i - 1] + 1;          // thread 0 reads the int before x
}
extern "C" __global__ void past_end(int* a, long long at) { a[at] = 7; }
extern "C" __global__ void get(const int* a, long long at, int* out) { out[0] = a[at]; }
"""


def _setup(oob: str):
    dev = warpsim.Device(oob=oob)
    mod = dev.compile(SRC, name="oob.cu")
    return dev, mod


def test_default_mode_faults_on_the_read_before_the_array():
    dev, mod = _setup("fault")
    x, y = dev.to_device(np.arange(32, dtype=np.int32)), dev.device_array(32, np.int32)
    with pytest.raises(MemoryAccessError, match="out-of-bounds"):
        mod.get_kernel("shift_read")[1, 32](x, y)


def test_report_mode_reads_zeros_below_the_first_array_and_reports_it(caplog):
    dev, mod = _setup("report")
    x, y = dev.to_device(np.arange(32, dtype=np.int32)), dev.device_array(32, np.int32)
    with caplog.at_level(logging.WARNING):
        mod.get_kernel("shift_read")[1, 32](x, y)
    want = np.arange(32, dtype=np.int32)  # x[i-1] + 1 = i, and 0 + 1 for thread 0
    want[0] = 1
    np.testing.assert_array_equal(y.copy_to_host(), want)
    log = dev.oob_log
    assert log.count == 1 and log.per_kernel == {"shift_read": 1}
    rec = log.records[0]
    assert rec.thread == (0, 0, 0) and rec.block == (0, 0, 0)
    assert rec.address == x.device_ptr - 4 and rec.space == "global"
    assert "1 out-of-bounds global access(es) allowed" in caplog.text
    assert "shift_read (1)" in log.summary() and f"{x.device_ptr - 4:#x}" in log.summary()


def test_report_mode_stores_and_loads_the_gap_after_an_array():
    dev, mod = _setup("report")
    a = dev.to_device(np.zeros(64, np.int32))        # bytes [P, P+256)
    b = dev.to_device(np.zeros(1, np.int32))         # [P+256, P+260), then a gap to P+512
    out = dev.device_array(1, np.int32)              # P+512
    assert b.device_ptr == a.device_ptr + 256 and out.device_ptr == a.device_ptr + 512
    mod.get_kernel("past_end")[1, 1](a, np.int64(66))  # P+264: in the gap
    mod.get_kernel("get")[1, 1](a, np.int64(66), out)
    assert out.copy_to_host()[0] == 7 and dev.oob_log.count == 2
    # a[64] is b[0]: inside an allocation, so the checker (which cannot tell which
    # allocation a pointer came from) sees nothing to report, as in the fault mode
    mod.get_kernel("past_end")[1, 1](a, np.int64(64))
    assert b.copy_to_host()[0] == 7 and dev.oob_log.count == 2


def test_report_mode_still_faults_outside_the_heap():
    dev, mod = _setup("report")
    a = dev.to_device(np.zeros(64, np.int32))
    with pytest.raises(MemoryAccessError):
        mod.get_kernel("past_end")[1, 1](a, np.int64(-(1 << 40)))
    assert dev.oob_log.count == 0


def test_unknown_mode_is_a_config_error():
    with pytest.raises(ConfigError, match=r"Device\.oob"):
        warpsim.Device(oob="ignore")


def test_fault_names_the_cuda_source_line_from_the_line_information():
    """compile() adds -lineinfo, so the error names oob.cu's line 4 (x[i - 1]) before the
    PTX line."""
    dev, mod = _setup("fault")
    x, y = dev.to_device(np.arange(32, dtype=np.int32)), dev.device_array(32, np.int32)
    with pytest.raises(MemoryAccessError) as info:
        mod.get_kernel("shift_read")[1, 32](x, y)
    assert "at kernel shift_read, oob.cu:4 (PTX line " in info.value.message
    assert info.value.src == ("oob.cu", 4)
