"""Redundancy for reliability (specs/xiang-simt-efficiency.md §1.9): the dual-lane comparison
detects every single-bit fault of a lane, IRB parity rejects a corrupted entry, and the ALU
coverage the hooks count on a micro-kernel agrees with a fault-injection campaign."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from uv_kernels import BLOCK_OFFSET, run_ptx

from warpsim.experiments.uv_analysis import coverage
from warpsim.mechanisms.uniform_vectors.reliability import (
    dual_lane,
    fault_campaign,
    irb_entry_ok,
    parity32,
)


def test_dual_lane_detects_every_single_bit_fault():
    for lane in (0, 1):
        for bit in range(32):
            value, detected = dual_lane(lambda x, y: x * y, (6, 7), (lane, bit))
            assert detected
            assert value == (42 ^ (1 << bit) if lane == 0 else 42)
    assert dual_lane(lambda x, y: x * y, (6, 7)) == (42, False)


def test_irb_parity_rejects_a_flipped_bit():
    v = 0x12345678
    p = parity32(v)
    assert irb_entry_ok(v, p)
    assert all(not irb_entry_ok(v ^ (1 << b), p) for b in range(32))


def test_coverage_counted_by_the_hooks_matches_fault_injection():
    st = run_ptx(BLOCK_OFFSET, "uv_block", 4, 64,
                 ["uniform_vectors.enabled=true", "uniform_vectors.reliability=true"])
    # hand count (see test_uv_kernels): 7 ALU instructions x 32 threads per warp, 8 warps;
    # per SM warp 0 converts ctaid, ntid, mul (dual lanes), warp 1 reuses them from the IRB
    assert st["uv_alu_ops_total"] == 8 * 7 * 32
    assert st["uv_alu_ops_protected"] == 8 * 3 * 32
    # +1 ALU op and +1 lane write per converted instruction
    assert st["uv_alu_lane_ops"] == 8 * 4 * 32 + 12 * 2
    alu = coverage(st)["alu"]
    assert alu == pytest.approx(3 / 7)
    records = ([("dual", 32)] * st["uv_converted_insts"] + [("reused", 32)] * st["uv_irb_hits"]
               + [("vector", 32)] * (8 * 4))
    measured = fault_campaign(records, 20000, seed=1)
    sigma = (alu * (1 - alu) / 20000) ** 0.5
    assert abs(measured - alu) < 4 * sigma
    assert 0 < coverage(st)["vrf"] < 1
