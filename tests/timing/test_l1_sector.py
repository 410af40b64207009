"""The sectored L1D (timing/l1sector.py, GPGPU-Sim 4.2 ``-gpgpu_cache:dl1 S:...``): a miss
fetches only the missing 32 B sectors of a line (one L2 request each), a load hits only when
every sector it wants is valid, a pending sector merges into its MSHR, counts are per sector.

Timeline: the memory system of test_memsys.py's ``SMALL`` (every clock at 700 MHz, one slice,
unsectored L2) with a sectored L1D. A cold sector miss takes the hand-computed cold-miss sum
of docs/memory-model.md with a reply of 8 + 32 bytes (2 flits of 32 B) instead of 8 + 128
(5 flits): 3 cycles less. An L1 hit completes after ``l1d.hit_latency_cycles`` (35).
"""

from __future__ import annotations

import numpy as np
import pytest

from warpsim.arch import GTX480_3X, QV100, apply_overrides
from warpsim.errors import ConfigError
from warpsim.functional.trace import mem_lines
from warpsim.stats import export, make_counts
from warpsim.timing import memsys
from warpsim.timing.l1sector import engine_lines
from warpsim.timing.memconsts import MEM_CTRL_BYTES, MEM_LD_GLOBAL, MEM_ST_GLOBAL

SECT = apply_overrides(GTX480_3X, {
    "sm.n_sms": 1, "dram.n_channels": 1, "l2.n_slices_per_channel": 1,
    "clocks.dram_mhz": 700.0, "l1d.sector_bytes": 32,
})
A = 0x10000


def _cold_sector_miss(cfg) -> int:
    """docs/memory-model.md "Latency of a cold miss" (all clocks equal), a 32 B reply."""
    d = cfg.dram
    burst = d.n_burst_beats // d.n_transfers_per_clock
    atom = d.n_chips_per_channel * d.bus_width_bytes * d.n_burst_beats
    step = max(burst, d.t_ccdl_cycles if d.n_bank_groups > 1 else d.t_ccd_cycles)
    dram = d.t_rcd_cycles + d.t_cl_cycles + (cfg.l2.line_bytes // atom - 1) * step + burst
    req_flits = -(-MEM_CTRL_BYTES // cfg.icnt.flit_bytes)
    rep_flits = -(-(MEM_CTRL_BYTES + 32) // cfg.icnt.flit_bytes)
    return (cfg.l1d.hit_latency_cycles + cfg.icnt.latency_cycles + req_flits - 1
            + cfg.l2.hit_latency_cycles + 1 + dram + d.latency_cycles + 1
            + cfg.icnt.latency_cycles + rep_flits - 1)


def _run(cfg, stream):
    """Offer ``(cycle, line address | sector mask, kind, token)`` in order on SM 0 (retrying
    while refused), cycle by cycle; ``(completions {token: cycle}, counters, memory state)``."""
    ms = memsys.make_mem_state(cfg)
    counters = make_counts(cfg.n_sms)
    done: dict[int, int] = {}
    head = 0
    for c in range(5000):
        if head < len(stream) and stream[head][0] <= c:
            _, addr, kind, tok = stream[head]
            head += memsys.mem_access(ms, 0, addr, 4, kind, tok, c)
        memsys.tick_memsys(ms, counters, c)
        while (tok := memsys.mem_pop_completion(ms, 0, c)) >= 0:
            done[tok] = c
        if head == len(stream) and memsys.mem_idle(ms):
            break
    memsys.mem_flush_counters(ms, counters)
    return done, export(counters), ms


def test_the_trace_names_the_sectors_of_each_line():
    # one warp: bytes 0 and 4 (sector 0), 40 (1), 100 (3) of line 0; 130 (line 1, sector 0);
    # 300 (line 2, sector 1)
    addr = np.array([300, 4, 100, 0, 40, 130], np.uint64)
    nsec, nlin = np.zeros(1, np.int64), np.zeros(1, np.int64)
    lines, lsec = np.empty(6, np.uint64), np.empty(6, np.uint8)
    k = mem_lines(addr, np.array([0, 6], np.int64), 32, 128, nsec, nlin, lines, lsec)
    assert k == 3 and nsec[0] == 5 and nlin[0] == 3
    assert lines[:3].tolist() == [0, 128, 256]
    assert lsec[:3].tolist() == [0b1011, 0b0001, 0b0010]
    assert engine_lines(lines[:3], lsec[:3]).tolist() == [0b1011, 128 | 1, 256 | 2]


def test_a_sector_miss_fetches_only_the_missing_sectors():
    t_cold = _cold_sector_miss(SECT)
    assert t_cold == 35 + 4 + 120 + 1 + (12 + 12 + 3 + 2) + 100 + 1 + 4 + 1
    t4 = t_cold + 10
    stream = [(0, A | 0b0010, MEM_LD_GLOBAL, 1),     # sector 1: miss, L2 request 1
              (1, A | 0b0010, MEM_LD_GLOBAL, 2),     # sector 1 pending: merges
              (2, A | 0b0110, MEM_LD_GLOBAL, 3),     # 1 merges, 2 misses: L2 request 2
              (t4, A | 0b0110, MEM_LD_GLOBAL, 4),    # both valid: a hit
              (t4 + 1, A | 0b1111, MEM_LD_GLOBAL, 5)]  # 0 and 3 miss: L2 requests 3, 4
    done, st, ms = _run(SECT, stream)
    assert done[1] == done[2] == t_cold
    # sector 2's request reaches the L2 while its line is in flight from DRAM: both replies
    # leave with the line's fill, sector 2's two reply flits right behind sector 1's
    assert done[3] == t_cold + 2
    assert done[4] == t4 + 35
    assert done[5] > t4 + 1 + 35
    assert st["L2_total_cache_accesses"] == 4
    assert st["L1D_total_cache_accesses"] == 1 + 1 + 2 + 2 + 4
    assert st["L1D_total_cache_misses"] == 1 + 1 + 2
    assert st["L1D_total_cache_pending_hits"] == 1 + 1
    assert st["icnt_flits_to_sm"] == 4 * 2               # four 32 B replies, 2 flits each
    assert int(ms.caches.tag_sec[:, :, :].max()) & 0xFF == 0b1111   # the line: all valid


def test_a_refused_line_changes_nothing_and_a_write_counts_per_sector():
    cfg = apply_overrides(SECT, {"l1d.mshr_entries": 2})
    ms = memsys.make_mem_state(cfg)
    assert memsys.mem_access(ms, 0, A | 0b0111, 4, MEM_LD_GLOBAL, 1, 0) == 0   # 3 MSHRs
    assert memsys.mem_access(ms, 0, A | 0b0011, 4, MEM_LD_GLOBAL, 2, 1) == 1
    assert memsys.mem_access(ms, 0, A | 0b1100, 4, MEM_ST_GLOBAL, -1, 2) == 1
    counters = make_counts(1)
    memsys.mem_flush_counters(ms, counters)
    st = export(counters)
    assert st["L1D_total_cache_reservation_fails"] == 1
    assert st["L1D_total_cache_accesses"] == 2 + 2
    assert st["L1D_total_cache_writes"] == 2
    assert st["L1D_total_cache_misses"] == 2 + 2


PTX_STRIDED = r"""
.version 7.0
.target sm_70
.address_size 64
.visible .entry strided(.param .u64 pin, .param .u64 pout)
{
  .reg .b32 %r<2>; .reg .b64 %rd<8>; .reg .f32 %f<2>;
  ld.param.u64 %rd1, [pin];
  ld.param.u64 %rd2, [pout];
  cvta.to.global.u64 %rd1, %rd1;
  cvta.to.global.u64 %rd2, %rd2;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 128;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.f32 %f1, [%rd4];
  mul.wide.u32 %rd5, %r1, 4;
  add.s64 %rd6, %rd2, %rd5;
  st.global.f32 [%rd6], %f1;
  ret;
}
"""


def test_strided_loads_send_one_l2_request_per_line():
    # 64 threads load one float each 128 B apart: 64 lines, one sector each; they store 64
    # floats = 2 lines of 4 sectors. L2 lookups (the qv100 L2 is sectored: one per sector):
    # 64 sector reads + 8 sector writes. An unsectored L1D would read 64 whole lines.
    import warpsim

    cfg = apply_overrides(QV100, {"sm.n_sms": 1})
    dev = warpsim.Device(config=cfg)
    k = dev.load_ptx(PTX_STRIDED, name="strided.ptx").get_kernel("strided")
    a = np.arange(64 * 32, dtype=np.float32)
    out = dev.device_array(64, np.float32)
    k[1, 64](dev.to_device(a), out)
    np.testing.assert_array_equal(out.copy_to_host(), a[::32])
    st = dev.last_launch.stats
    assert st["L2_total_cache_accesses"] == 64 + 8
    assert st["L1D_total_cache_accesses"] == 64 + 8
    assert st["L1D_total_cache_misses"] == 64 + 8
    assert st["icnt_flits_to_sm"] == 64 * -(-(MEM_CTRL_BYTES + 32) // QV100.icnt.flit_bytes)


def test_impossible_sectored_l1d_configurations_are_refused():
    for bad, field in (({"l1d.sector_bytes": 64}, "l1d.sector_bytes"),
                       ({"l1d.sector_bytes": 32, "l1d.alloc_policy": "on_fill"},
                        "l1d.alloc_policy"),
                       ({"l1d.sector_bytes": 32, "l1d.line_bytes": 64, "l1d.size_bytes": 8192},
                        "l1d.line_bytes")):
        with pytest.raises(ConfigError) as info:
            apply_overrides(GTX480_3X, bad)
        assert info.value.field == field
