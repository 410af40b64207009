"""Runaway kernels (``functional/watchdog.py``): a spin-wait nothing can end stops with a
message naming the loop's line and block; loops that count, or wait for a flag another warp
sets, are never stopped; the wall-clock limit stops a long launch. Oracles: the loops' line
numbers in the PTX below and hand-computed results."""

from __future__ import annotations

import numpy as np
import pytest

from warpsim.errors import ConfigError
from warpsim.functional.executor import launch
from warpsim.functional.memory import GlobalMemory
from warpsim.functional.program import ModuleImage
from warpsim.functional.watchdog import LaunchTimeoutError, SpinError, Watchdog
from warpsim.ptx.parser import parse_ptx
from warpsim.runtime import Device

HDR = ".version 9.0\n.target sm_80\n.address_size 64\n"

# line 10: the load of the flag; every thread waits for a flag nobody sets
FLAG_WAIT = HDR + r"""
.visible .entry wait(.param .u64 flag)
{
    .reg .b32 %r<3>; .reg .b64 %rd<3>; .reg .pred %p<2>;
    ld.param.u64 %rd1, [flag];
    mov.u32 %r2, %tid.x;
    setp.ne.u32 %p1, %r2, WAITER;
    @%p1 bra DONE;
LOOP:
    ld.volatile.global.u32 %r1, [%rd1];
    setp.eq.u32 %p1, %r1, 0;
    @%p1 bra LOOP;
DONE:
    ret;
}
"""

# thread 0 waits for the flag thread 32 (another warp) sets after a long computation
HANDOFF = HDR + r"""
.visible .entry handoff(.param .u64 flag)
{
    .reg .b32 %r<5>; .reg .b64 %rd<3>; .reg .pred %p<3>;
    ld.param.u64 %rd1, [flag];
    mov.u32 %r2, %tid.x;
    setp.eq.u32 %p2, %r2, 32;
    @%p2 bra SETTER;
    setp.ne.u32 %p1, %r2, 0;
    @%p1 bra DONE;
LOOP:
    ld.volatile.global.u32 %r1, [%rd1];
    setp.eq.u32 %p1, %r1, 0;
    @%p1 bra LOOP;
    st.global.u32 [%rd1+4], %r1;
    bra DONE;
SETTER:
    mov.u32 %r3, 0;
    mov.u32 %r4, 0;
COUNT:
    add.u32 %r4, %r4, 3;
    add.u32 %r3, %r3, 1;
    setp.lt.u32 %p1, %r3, 5000;
    @%p1 bra COUNT;
    st.volatile.global.u32 [%rd1], %r4;
DONE:
    ret;
}
"""


def _run(ptx, name, words=2, block=64, **kw):
    mem = GlobalMemory()
    img = ModuleImage(parse_ptx(ptx, "w.ptx"), mem)
    addr = mem.alloc(4 * words)
    mem.write(addr, np.zeros(words, np.uint32))
    launch(img, name, grid=(1,), block=(block,), params=np.uint64(addr).tobytes(), **kw)
    return mem.read(addr, 4 * words).view(np.uint32)


@pytest.mark.parametrize("waiter", [0, 5])      # a whole warp, or one lane of a diverged warp
def test_a_spin_wait_on_a_flag_nobody_sets_is_reported(waiter):
    ptx = FLAG_WAIT.replace("WAITER", str(waiter))
    with pytest.raises(SpinError) as ei:
        _run(ptx, "wait")
    msg = str(ei.value)
    assert "spins forever" in msg and "block (0, 0, 0)" in msg
    assert any(f"line {n} " in msg for n in (13, 14, 15))          # the loop's lines


def test_waiting_for_another_warps_flag_is_not_a_spin():
    out = _run(HANDOFF, "handoff")
    assert out.tolist() == [15000, 15000]       # 5000 x 3, seen by the waiting thread


def _count_digests(monkeypatch):
    """Count the watchdog's full digests (taken only when a cheap fingerprint repeats)."""
    calls = []
    full = Watchdog._digest

    def counted(run, g, pc):
        calls.append(pc)
        return full(run, g, pc)
    monkeypatch.setattr(Watchdog, "_digest", staticmethod(counted))
    return calls


def test_a_long_counting_loop_is_not_a_spin(monkeypatch):
    calls = _count_digests(monkeypatch)
    ptx = HANDOFF.replace("5000", "30000")  # about 30 spin checks (one per 1024 branches)
    assert _run(ptx, "handoff").tolist() == [90000, 90000]
    assert calls == []  # the counter changes every state: no fingerprint repeats


def test_a_spin_is_confirmed_by_full_digests(monkeypatch):
    calls = _count_digests(monkeypatch)
    with pytest.raises(SpinError):
        _run(FLAG_WAIT.replace("WAITER", "0"), "wait")
    # the second visit of the repeating state takes the first digest, the third confirms it
    assert len(calls) == 2


def test_the_wall_clock_limit_stops_a_long_launch():
    ptx = HANDOFF.replace("5000", "100000000")
    with pytest.raises(LaunchTimeoutError, match=r"launch_timeout_s=0\.2"):
        _run(ptx, "handoff", launch_timeout_s=0.2)


def test_device_checks_the_limit():
    with pytest.raises(ConfigError, match="launch_timeout_s"):
        Device(launch_timeout_s=0)
    assert Device(launch_timeout_s=1.5).launch_timeout_s == 1.5
