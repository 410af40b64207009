"""Store acknowledgements (``l2.store_acks``, timing/store_ack.py): the L2's WRITE_ACK round
trip worked out by hand from the configuration, one ack per sector written, a warp's exit
delayed until its last store is acknowledged, and every count back at 0 at the end."""

from __future__ import annotations

import numpy as np
from test_memsys import SMALL, run
from timing_helpers import (
    EXIT,
    FakeAlloc,
    FakeProgram,
    Inst,
    make_chunk,
    rec,
    simulate,
    small_config,
)

from warpsim.arch import GTX480_3X, apply_overrides
from warpsim.mechanisms.hooks import noop_hooks
from warpsim.stats import export
from warpsim.timing.driver import TimingSimulator, default_memsys
from warpsim.timing.fields import F_WARP_ACK_WAIT, F_WARP_STORES, F_WARP_VALID
from warpsim.timing.memconsts import MEM_CTRL_BYTES, MEM_LD_LOCAL, MEM_ST_GLOBAL, MEM_ST_LOCAL
from warpsim.timing.store_ack import ACK_TOKEN_BASE


def ack_round_trip(cfg, n_sectors: int) -> int:
    """Core cycles from the store line's acceptance by the L1 to its last sector's ack popped
    from the SM's completion queue, every clock equal to the core's (docs/memory-model.md)."""
    st_flits = -(-(MEM_CTRL_BYTES + 32 * n_sectors) // cfg.icnt.flit_bytes)
    ack_flits = -(-MEM_CTRL_BYTES // cfg.icnt.flit_bytes)             # no data: 1 flit
    sectors_after_first = n_sectors - 1 if cfg.l2.sector_bytes < cfg.l2.line_bytes else 0
    return (cfg.l1d.hit_latency_cycles                                # L1 tag pipeline
            + cfg.icnt.latency_cycles + st_flits - 1                  # request crossbar
            + cfg.l2.hit_latency_cycles                               # ROP delay
            + sectors_after_first                                     # one sector per L2 tick
            + 1                                                       # lookup -> reply queue
            + cfg.icnt.latency_cycles + ack_flits - 1)                # reply crossbar


SECTORED = apply_overrides(SMALL, {"l2.sector_bytes": 32, "icnt.flit_bytes": 40})
"""SMALL with GPGPU-Sim 4.2's sectored L2 and 40-byte flits (the gtx480 preset's)."""


def test_store_ack_round_trip_is_the_hand_computed_sum():
    tok = ACK_TOKEN_BASE + 5                           # warp slot 5
    done, cnt, _, _ = run(SMALL, [(3, 0, 0x10000, 4, MEM_ST_GLOBAL, tok)])
    # 35 + (4 + 5 - 1) + 120 + 0 + 1 + (4 + 1 - 1) = 168 cycles after the store at 3
    assert ack_round_trip(SMALL, 4) == 35 + 8 + 120 + 1 + 4
    assert done == [(3 + 168, 0, tok)]
    flat = export(cnt)
    assert flat["store_acks"] == 1 and flat["icnt_flits_to_sm"] == 1
    assert flat["L2_total_cache_writes"] == 1


def test_sectored_l2_acknowledges_every_sector_and_completes_on_the_last():
    tok = ACK_TOKEN_BASE
    done, cnt, _, _ = run(SECTORED, [(0, 1, 0x20000, 3, MEM_ST_GLOBAL, tok)])
    # 35 + (4 + ceil(104 / 40) - 1) + 120 + 2 + 1 + 4 = 168; three 1-flit acks, one completion
    assert ack_round_trip(SECTORED, 3) == 35 + 6 + 120 + 2 + 1 + 4
    assert done == [(168, 1, tok)]
    flat = export(cnt)
    assert flat["store_acks"] == 3 and flat["icnt_flits_to_sm"] == 3
    assert flat["L2_total_cache_writes"] == 3


def test_posted_stores_send_no_ack_and_a_kept_local_store_completes_in_the_l1():
    done, cnt, _, _ = run(SMALL, [(0, 0, 0x10000, 4, MEM_ST_GLOBAL, -1)])
    assert done == [] and export(cnt)["store_acks"] == 0 and export(cnt)["icnt_flits_to_sm"] == 0
    # a local store that hits a line the L1 holds stays there (write-back): no traffic, the
    # acknowledgement is the L1's, after its hit latency (GPGPU-Sim's write-hit store_ack)
    t1 = 400
    tok = ACK_TOKEN_BASE + 2
    done, cnt, _, _ = run(SMALL, [(0, 0, 0x30000, 4, MEM_LD_LOCAL, 1),      # local load
                                  (t1, 0, 0x30000, 4, MEM_ST_LOCAL, tok)])
    assert done[-1] == (t1 + SMALL.l1d.hit_latency_cycles, 0, tok)
    assert export(cnt)["store_acks"] == 0


def _store_kernel():
    return [Inst("st", space="global", reads=(1, 2)), Inst("exit", kind=EXIT)]


def test_warp_exit_waits_exactly_the_ack_round_trip():
    # as test_engine_memory.test_stores_need_no_completion: issue 2, collector 3, reads 4 and
    # 5, dispatch 6, the line (one sector) accepted at 7, retired at 8: the warp would exit at
    # 8. With acks it exits when the ack is popped, the cycle after it reached the SM:
    # 7 + (35 + (4 + 2 - 1) + 120 + 1 + 4) + 1 = 173
    memsys = default_memsys()
    off = simulate(small_config(), _store_kernel(), [[rec(0, lines=[0x1000]), rec(1)]],
                   memsys=memsys)
    cfg = small_config(**{"l2.store_acks": True})
    on = simulate(cfg, _store_kernel(), [[rec(0, lines=[0x1000]), rec(1)]], memsys=memsys)
    exit_on = 7 + ack_round_trip(cfg, 1) + 1
    assert exit_on == 173
    assert on.stats["store_ack_wait_cycles"] == exit_on - 8
    assert on.cycles == exit_on + 1                    # the launch ends the cycle after
    assert on.stats["store_acks"] == 1
    assert off.stats["store_acks"] == off.stats["store_ack_wait_cycles"] == 0
    assert off.cycles < on.cycles


def test_every_store_is_acknowledged_and_every_count_returns_to_zero():
    # 6 CTAs x 2 warps on one SM (3 resident CTAs at a time), each warp 1-3 stores of 1-4
    # sectors to random lines: every sector is acknowledged once, nothing stays outstanding,
    # and a CTA's slot is reused only after its warps' acks (all 6 CTAs complete)
    rng = np.random.default_rng(16)
    cfg = apply_overrides(GTX480_3X, {"sm.n_sms": 1, "sm.n_schedulers": 1,
                                      "sm.n_max_ctas": 3, "l2.sector_bytes": 32,
                                      "l2.store_acks": True})
    insts = [Inst("st", space="global", reads=(1, 2)), Inst("st", space="global", reads=(1, 2)),
             Inst("st", space="global", reads=(1, 2)), Inst("exit", kind=EXIT)]
    warps, n_sec = [], 0
    for _ in range(12):
        n = int(rng.integers(1, 4))
        recs = []
        for pc in range(n):
            lines = [0x1_0000_0000 + 128 * int(x) for x in rng.integers(0, 4096, size=2)]
            nsec = int(rng.integers(1, 5))
            n_sec += 2 * nsec
            recs.append(rec(pc, lines=lines, nsec=2 * nsec))
        warps.append([*recs, rec(3)])
    sim = TimingSimulator(cfg, hooks=noop_hooks(), memsys=default_memsys())
    sim.start(FakeProgram(insts), FakeAlloc(insts), n_ctas=6, cta_threads=64,
              regs_per_thread=8, shmem_bytes=0)
    warp = sim._launch.state.warp                     # the core state, kept after the launch
    sim.consume(make_chunk(warps, 2))
    r = sim.finish()
    assert r.stats["store_acks"] == n_sec
    assert r.stats["L2_total_cache_writes"] == n_sec
    assert r.stats["sm_ctas_launched"] == 6
    assert (warp[:, :, F_WARP_STORES] == 0).all()
    assert (warp[:, :, F_WARP_ACK_WAIT] == -1).all()
    assert (warp[:, :, F_WARP_VALID] == 0).all()
    assert r.stats["store_ack_wait_cycles"] > 0
