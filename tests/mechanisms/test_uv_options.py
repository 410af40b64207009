"""Uniform vectors, the dissertation's remaining design points on hand-written PTX
(specs/xiang-simt-efficiency.md §1.5-§1.9): the token set by the broadcast path, the oracle
IRB, IRB parity faults and ALU lane faults injected in the timing model, the SRF's scalar
register release at WB and its rename stage. Hand-counted answers; one engine compilation (the
mechanism's hook bundle, shared with test_uv_kernels)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from uv_kernels import (
    BLOCK_OFFSET,
    BROADCAST,
    INDEPENDENT_MOVS,
    LOOP_DIVERGE,
    SRF_RELEASE,
    THREAD_PRIVATE,
    run_ptx,
)

from warpsim.errors import ConfigError
from warpsim.experiments.uv_analysis import coverage

ON = ["uniform_vectors.enabled=true"]
_CACHE: dict = {}


def _run(ptx, kernel, grid, block, overrides=()):
    key = (kernel, grid, block, tuple(overrides))
    if key not in _CACHE:
        _CACHE[key] = run_ptx(ptx, kernel, grid, block, [*ON, *overrides])
    return _CACHE[key]


def test_broadcast_path_sets_the_token():
    on = _run(BROADCAST, "uv_bcast", 1, 64)
    off = _run(BROADCAST, "uv_bcast", 1, 64, ("uniform_vectors.broadcast_uniform=false",))
    for st in (on, off):  # 2 warps: eligible pcs 1-4, 6; truly uniform pcs 2-4, 6
        assert st["uv_walk_eligible_insts"] == 10
        assert st["uv_walk_true_uniform_insts"] == 8
        assert st["uv_walk_broadcast_loads"] == 2   # pc 5 of each warp
        assert st["uv_walk_detected_not_true"] == 0
        assert st["uv_uniform_loads"] == 2          # ld.param (decode)
    # only the broadcast token makes pc 6 (add of the loaded value) detectable
    assert on["uv_broadcast_loads"] == 2
    assert on["uv_detected_insts"] == on["uv_walk_detected_insts"] == 2
    assert off["uv_broadcast_loads"] == 0
    assert off["uv_detected_insts"] == off["uv_walk_detected_insts"] == 0
    srf = _run(BROADCAST, "uv_bcast", 1, 64, ("uniform_vectors.design=srf",))
    assert srf["uv_broadcast_loads"] == 2 and srf["uv_detected_insts"] == 2


def test_oracle_irb_has_no_capacity_misses():
    # 2 warps x 8 uniform movs: whichever warp probes a pc first misses, the other hits
    st = _run(INDEPENDENT_MOVS, "uv_movs", 1, 64, ("uniform_vectors.n_irb_entries=-1",))
    assert st["uv_irb_lookups"] == 16
    assert st["uv_irb_misses"] == 8 and st["uv_irb_hits"] == 8
    # one entry holds one pc: the two warps' probes of a pc must be adjacent to hit
    one = _run(INDEPENDENT_MOVS, "uv_movs", 1, 64, ("uniform_vectors.n_irb_entries=1",))
    assert one["uv_irb_lookups"] == 16
    assert one["uv_irb_hits"] <= st["uv_irb_hits"]
    assert one["uv_irb_hits"] + one["uv_irb_misses"] == 16


def test_irb_parity_detects_every_injected_fault():
    # BLOCK_OFFSET: per SM warp 1 tag-hits warp 0's 3 entries with equal values (12 in all)
    rel = _run(BLOCK_OFFSET, "uv_block", 4, 64,
               ("uniform_vectors.reliability=true", "uniform_vectors.irb_fault_rate=1.0"))
    assert rel["uv_irb_tag_hits"] == 12
    assert rel["uv_irb_faults"] == rel["uv_irb_parity_errors"] == 12
    assert rel["uv_irb_hits"] == 0 and rel["uv_irb_silent_corruptions"] == 0
    assert rel["uv_converted_insts"] == 24  # each faulty hit executes (on two lanes)
    raw = _run(BLOCK_OFFSET, "uv_block", 4, 64, ("uniform_vectors.irb_fault_rate=1.0",))
    assert raw["uv_irb_faults"] == 12 and raw["uv_irb_parity_errors"] == 0
    # without parity a flipped result bit is reused silently, an opcode/source bit fails the
    # compare (a mismatch: the instruction executes)
    assert raw["uv_irb_silent_corruptions"] == raw["uv_irb_hits"]
    assert raw["uv_irb_hits"] + raw["uv_irb_value_mismatches"] == 12
    with pytest.raises(ConfigError):
        run_ptx(BLOCK_OFFSET, "uv_block", 1, 32, [*ON, "uniform_vectors.irb_fault_rate=1.5"])


def test_alu_lane_faults_detected_at_the_coverage_rate():
    # p = 1/32: every warp instruction of 32 threads takes one fault. 56 ALU instructions:
    # 12 converted (dual lanes: detected), 12 IRB hits (no ALU: masked), 32 vector (silent)
    st = _run(BLOCK_OFFSET, "uv_block", 4, 64,
              ("uniform_vectors.reliability=true", "uniform_vectors.alu_fault_rate=0.03125"))
    assert st["uv_alu_faults"] == 56
    assert st["uv_alu_faults_detected"] == 12
    assert st["uv_alu_faults_masked"] == 12
    safe = (st["uv_alu_faults_detected"] + st["uv_alu_faults_masked"]) / st["uv_alu_faults"]
    assert safe == pytest.approx(coverage(st)["alu"]) == pytest.approx(3 / 7)


@pytest.mark.parametrize(("release", "converted", "full", "wb"), [("id", 3, 0, 0),
                                                                  ("wb", 2, 1, 1)])
def test_srf_release_at_id_or_wb(release, converted, full, wb):
    st = _run(SRF_RELEASE, "uv_release", 1, 32,
              ("uniform_vectors.design=srf", "uniform_vectors.n_srf_entries=2",
               "uniform_vectors.n_irb_entries=0", f"uniform_vectors.srf_release={release}"))
    assert st["uv_detected_insts"] == 3
    assert st["uv_converted_insts"] == converted
    assert st["uv_not_converted_srf_full"] == full
    assert st["uv_srf_wb_releases"] == wb
    assert st["uv_srf_allocs"] == st["uv_srf_frees"]  # every SR comes back by the warp's exit


def test_rename_stage_delays_the_refill_after_each_branch():
    srf = ("uniform_vectors.design=srf", "uniform_vectors.n_irb_entries=0")
    with_stage = _run(LOOP_DIVERGE, "uv_loop", 1, 32, srf)
    without = _run(LOOP_DIVERGE, "uv_loop", 1, 32,
                   (*srf, "uniform_vectors.srf_rename_stage=false"))
    token = _run(LOOP_DIVERGE, "uv_loop", 1, 32, ("uniform_vectors.n_irb_entries=0",))
    # one warp, 3 issued branches (the loop's bra): each next issue waits one cycle more
    assert with_stage["uv_rename_stalls"] == 3
    assert without["uv_rename_stalls"] == token["uv_rename_stalls"] == 0
    # at most 3 cycles later; here every delay is absorbed: the add after each branch would
    # have waited for its unit in the operand collector anyway (the paper: "very limited
    # performance impact")
    assert 0 <= with_stage["gpu_sim_cycle"] - without["gpu_sim_cycle"] <= 3
    assert with_stage["opcoll_dispatch_stalls"] <= without["opcoll_dispatch_stalls"]


def test_thread_private_values_are_never_detected():
    st = _run(THREAD_PRIVATE, "uv_private", 1, 32)
    # ld.param is the only uniform instruction: the local load (one address, each thread's
    # own word), its add, and the folded abs of a tid-dependent value are not detected
    assert st["uv_uniform_loads"] == 1
    assert st["uv_detected_insts"] == st["uv_walk_detected_insts"] == 0
    assert st["uv_walk_detected_not_true"] == 0
    assert st["uv_broadcast_loads"] == 0
