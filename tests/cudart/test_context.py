"""The Python side of the CUDA runtime: forwarded calls on a functional Device, and the wire
protocol of the server (no CUDA compiler needed: the PTX is written here)."""

from __future__ import annotations

import socket
import struct
import threading
from types import SimpleNamespace

import numpy as np
import pytest
from cudart_programs import fatbin

from warpsim.cudart import errors as ce
from warpsim.cudart.context import CudaContext
from warpsim.cudart.server import serve_connection

PTX = """
.version 8.0
.target sm_80
.address_size 64
.const .align 4 .b8 scale[4];
.visible .entry add_k(.param .u64 p0, .param .u32 p1)
{
    .reg .b32 %r<6>;
    .reg .b64 %rd<5>;
    ld.param.u64 %rd1, [p0];
    ld.param.u32 %r1, [p1];
    cvta.to.global.u64 %rd2, %rd1;
    mov.u32 %r2, %tid.x;
    mul.wide.u32 %rd3, %r2, 4;
    add.s64 %rd4, %rd2, %rd3;
    ld.global.u32 %r3, [%rd4];
    ld.const.u32 %r5, [scale];
    mul.lo.s32 %r3, %r3, %r5;
    add.s32 %r4, %r3, %r1;
    st.global.u32 [%rd4], %r4;
    ret;
}
"""
HOST_FUN = 0x401000
HOST_VAR = 0x602000


@pytest.fixture
def ctx(capsys):
    import warpsim

    c = CudaContext(warpsim.Device(), program="test")
    status, (fid,), _ = c.handle("__register_fatbin", (1,), fatbin([(1, 80, 0x11,
                                                                      PTX.encode(), 0)]))
    assert status == 0
    c.handle("__register_function", (fid, HOST_FUN), b"add_k")
    c.handle("__register_var", (fid, HOST_VAR, 4, 1), b"scale")
    return c


def _launch(ctx, ptr: int, k: int, threads: int) -> int:
    params = struct.pack("<QI", ptr, k) + b"\0" * 4
    return ctx.handle("__launch", (HOST_FUN, 1, 1, 1, threads, 1, 1, 0, 0, 0), params)[0]


def test_copy_launch_copy_back(ctx):
    status, (ptr,), _ = ctx.handle("cudaMalloc", (64,), b"")
    assert status == 0
    ctx.handle("__write", (ptr,), np.arange(16, dtype=np.int32).tobytes())
    address, size = ctx.handle("__symbol", (HOST_VAR,), b"")[1]
    assert size == 4
    assert ctx.handle("__write", (address,), struct.pack("<i", 3))[0] == 0
    status, (nbytes, n), pairs = ctx.handle("__layout", (HOST_FUN,), b"")
    assert (nbytes, n) == (12, 2) and struct.unpack("<4I", pairs) == (0, 8, 8, 4)
    assert _launch(ctx, ptr, 100, 16) == 0
    out = np.frombuffer(ctx.handle("__read", (ptr, 64), b"")[2], np.int32)
    assert out.tolist() == [3 * i + 100 for i in range(16)]
    assert [launch.kernel for launch in ctx.launches] == ["add_k"]


def test_fault_in_a_kernel_is_sticky(ctx, capsys):
    ptr = ctx.handle("cudaMalloc", (64,), b"")[1][0]
    assert _launch(ctx, ptr + (1 << 20), 1, 32) == ce.ILLEGAL_ADDRESS
    assert ctx.handle("cudaMalloc", (64,), b"")[0] == ce.ILLEGAL_ADDRESS
    assert "warpsim: kernel launch:" in capsys.readouterr().err
    assert ctx.handle("cudaDeviceReset", (), b"")[0] == 0  # a reset clears it
    assert ctx.handle("cudaMalloc", (64,), b"")[0] == 0


def test_bad_pointers_and_unknown_calls_are_named(ctx, capsys):
    assert ctx.handle("cudaFree", (0x1234,), b"")[0] == ce.INVALID_DEVICE_POINTER
    assert ctx.handle("__read", (0x1234, 4), b"")[0] == ce.INVALID_VALUE
    assert ctx.handle("cudaGraphLaunch", (), b"")[0] == ce.NOT_SUPPORTED
    assert ctx.handle("__launch", (0x999, 1, 1, 1, 1, 1, 1, 0, 0, 0), b"")[0] == \
        ce.INVALID_DEVICE_FUNCTION
    err = capsys.readouterr().err
    assert "cudaFree(0x1234): not a pointer returned by cudaMalloc" in err
    assert "warpsim: cudaGraphLaunch is not supported" in err
    assert "not a registered __global__ function" in err


def test_event_time_comes_from_simulated_cycles():
    clocks = SimpleNamespace(core_mhz=700.0)
    device = SimpleNamespace(timing=True, gpu_config=SimpleNamespace(clocks=clocks),
                             add_launch_observer=lambda fn: None)
    ctx = CudaContext(device)
    ctx.handle("cudaEventRecord", (1,), b"")
    ctx.sim_cycles += 7000  # what the launch observer adds after a timed launch
    ctx.handle("cudaEventRecord", (2,), b"")
    status, (bits,), _ = ctx.handle("cudaEventElapsedTime", (1, 2), b"")
    assert status == 0
    assert struct.unpack("<d", struct.pack("<Q", bits))[0] == pytest.approx(0.01)  # 10 us


def test_wire_protocol_round_trip():
    import warpsim

    ours, theirs = socket.socketpair()
    server = threading.Thread(target=serve_connection,
                              args=(ours, lambda: CudaContext(warpsim.Device())))
    server.start()
    name = b"cudaMalloc"
    body = struct.pack("<H", len(name)) + name + struct.pack("<HQ", 1, 256)
    theirs.sendall(struct.pack("<I", len(body)) + body)
    length, status, n = struct.unpack("<IiH", theirs.recv(10))
    (ptr,) = struct.unpack("<Q", theirs.recv(8))
    theirs.close()
    server.join(10)
    assert (length, status, n) == (14, 0, 1)
    assert ptr >= 0x1_0000_0000 and ptr % 256 == 0


PRINTF_PTX = """
.version 8.0
.target sm_80
.address_size 64
.extern .func (.param .b32 func_retval0) vprintf
(
    .param .b64 vprintf_param_0,
    .param .b64 vprintf_param_1
);
.global .align 1 .b8 $str[11] = {116, 105, 100, 32, 37, 100, 32, 37, 100, 10, 0};
.global .attribute(.managed) .align 4 .u32 bias = 7;
.visible .entry say()
{
    .local .align 8 .b8 __local_depot0[8];
    .reg .b64 %SP;
    .reg .b64 %SPL;
    .reg .b32 %r<4>;
    .reg .b64 %rd<4>;
    mov.u64 %SPL, __local_depot0;
    cvta.local.u64 %SP, %SPL;
    add.u64 %rd1, %SP, 0;
    add.u64 %rd2, %SPL, 0;
    mov.u32 %r1, %tid.x;
    ld.global.u32 %r2, [bias];
    st.local.u32 [%rd2], %r1;
    st.local.u32 [%rd2+4], %r2;
    mov.u64 %rd3, $str;
    cvta.global.u64 %rd3, %rd3;
    {
    .param .b64 param0;
    st.param.b64 [param0+0], %rd3;
    .param .b64 param1;
    st.param.b64 [param1+0], %rd1;
    .param .b32 retval0;
    call.uni (retval0), vprintf, (param0, param1);
    ld.param.b32 %r3, [retval0+0];
    }
    ret;
}
"""


def test_launch_reply_carries_device_printf_text(capfd):
    """A __managed__ variable's PTX loads as is, and the kernel's printf text comes back in the
    launch reply (the library prints it), never on the simulator's own stdout."""
    from warpsim.cudart.server import DeviceSpec

    c = CudaContext(DeviceSpec().make_device(), program="test")
    fid = c.handle("__register_fatbin", (1,), fatbin([(1, 80, 0x11, PRINTF_PTX.encode(),
                                                       0)]))[1][0]
    c.handle("__register_function", (fid, HOST_FUN), b"say")
    status, ints, blob = c.handle("__launch", (HOST_FUN, 1, 1, 1, 3, 1, 1, 0, 0, 0), b"")
    assert (status, ints) == (0, [])
    assert blob == b"tid 0 7\ntid 1 7\ntid 2 7\n"
    assert capfd.readouterr().out == ""


def test_dynamic_shared_memory_above_48k_needs_the_opt_in():
    """A100-like functional device: 164 KiB per SM, 48 KiB per block by default; a kernel may
    use up to the opt-in limit once cudaFuncSetAttribute(MaxDynamicSharedMemorySize) raised
    its own limit (CUDA's rule; sharedMemPerBlockOptin = 167936 here)."""
    import warpsim

    c = CudaContext(warpsim.Device(max_shared_per_block_bytes=167936), program="test")
    _, (fid,), _ = c.handle("__register_fatbin", (1,), fatbin([(1, 80, 0x11, PTX.encode(),
                                                                0)]))
    c.handle("__register_function", (fid, HOST_FUN), b"add_k")
    _, (ptr,), _ = c.handle("cudaMalloc", (64,), b"")
    params = struct.pack("<QI", ptr, 0) + b"\0" * 4
    launch = (HOST_FUN, 1, 1, 1, 16, 1, 1, 65536, 0, 0)
    assert c.handle("__launch", launch, params)[0] == ce.INVALID_VALUE
    assert c.handle("cudaFuncGetAttributes", (HOST_FUN,), b"")[1][7] == 49152
    assert c.handle("cudaFuncSetAttribute", (HOST_FUN, 8, 167937), b"")[0] == ce.INVALID_VALUE
    assert c.handle("cudaFuncSetAttribute", (HOST_FUN, 8, 65536), b"")[0] == 0
    assert c.handle("cudaFuncGetAttributes", (HOST_FUN,), b"")[1][7] == 65536
    assert c.handle("__launch", launch, params)[0] == 0
