"""Uniform vectors on hand-written PTX micro-kernels (specs/xiang-simt-efficiency.md §1.3-§1.8):
decode-time detection against hand-counted answers and the trace's true uniformity, the Fig. 2
redundancy counting rules, the 8-entry IRB, copy-on-write, the SRF falling back when full, and
the issue-port timeline of converted instructions. Every run uses the mechanism's one hook
bundle (one engine compilation)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from uv_kernels import BLOCK_OFFSET, INDEPENDENT_MOVS, LOOP_DIVERGE, run_ptx

from warpsim.experiments.uv_analysis import redundancy

ON = ["uniform_vectors.enabled=true"]
_CACHE: dict = {}


def _run(name, ptx, kernel, grid, block, overrides=()):
    key = (name, tuple(overrides))
    if key not in _CACHE:
        _CACHE[key] = run_ptx(ptx, kernel, grid, block, [*ON, *overrides])
    return _CACHE[key]


def _block():
    # 4 CTAs of 64 threads on 30 SMs: one CTA (2 warps) per SM
    return _run("block", BLOCK_OFFSET, "uv_block", 4, 64)


def test_detection_matches_the_hand_count_and_the_trace():
    st = _block()
    # 8 warps x 10 records; eligible ALU: 7 per warp; detected: ctaid, ntid, mul (3 per warp)
    assert st["gpgpu_n_tot_w_icount"] == 80
    assert st["uv_walk_eligible_insts"] == 56
    assert st["uv_walk_detected_insts"] == 24
    assert st["uv_detected_insts"] == 24           # the hooks agree with the walk
    assert st["uv_walk_true_uniform_insts"] == 24   # nothing uniform was missed here
    assert st["uv_walk_detected_not_true"] == 0     # detection is sound
    assert st["uv_uniform_loads"] == 8              # ld.param: uniform address
    assert st["uv_converted_insts"] + st["uv_irb_hits"] == 24


def test_statistics_are_deterministic():
    again = run_ptx(BLOCK_OFFSET, "uv_block", 4, 64, ON)
    first = _block()
    assert {k: v for k, v in again.items() if k.startswith("uv_") or k == "gpu_sim_cycle"} == {
        k: v for k, v in first.items() if k.startswith("uv_") or k == "gpu_sim_cycle"}


def test_irb_reuses_the_trailing_warps_values():
    st = _block()
    # per SM: warp 0 misses on ctaid, ntid, mul; warp 1 (same CTA) hits all three
    assert st["uv_irb_lookups"] == 24
    assert st["uv_irb_misses"] == 12
    assert st["uv_irb_hits"] == 12
    assert st["uv_irb_value_mismatches"] == 0


def test_fig2_counting_rules():
    st = _block()
    assert st["uv_redundant_ops_intra"] == 24 * 31
    assert st["uv_redundant_ops_inter"] == 12 * 32
    assert st["uv_redundant_ops_combined"] == 24 * 31 + 12
    r = redundancy(st)
    total = 80 * 32  # every record has 32 active threads (the exit included)
    assert st["gpu_sim_insn"] == total
    assert r["intra"] == pytest.approx(744 / total)
    assert r["inter"] == pytest.approx(384 / total)
    assert r["combined"] == pytest.approx(r["intra"] + r["inter"] / 32)


def test_loop_counter_and_copy_on_write():
    st = _run("loop", LOOP_DIVERGE, "uv_loop", 1, 64)
    # per warp 18 records; eligible: mov 0, mov tid, 3 x add, 3 x setp, setp tid, guarded add,
    # mul.wide, add.s64 = 12; detected: mov 0, 3 x add, 3 x setp = 7
    assert st["gpgpu_n_tot_w_icount"] == 36
    assert st["uv_walk_eligible_insts"] == 24
    assert st["uv_detected_insts"] == st["uv_walk_detected_insts"] == 14
    # true uniformity has one more: warp 1's tid < 16 is false in all its lanes (tid 32-63),
    # a value-uniform result that decode-time detection cannot see
    assert st["uv_walk_true_uniform_insts"] == 15
    assert st["uv_walk_detected_not_true"] == 0
    # warp 0 writes %r1 (token set) with 16 lanes: one copy; warp 1 executes no lane
    assert st["uv_cow_all"] == 1
    assert st["uv_cow_narrow"] == 1
    assert st["uv_copy_insts"] == 1
    assert st["uv_irb_lookups"] == 14
    assert st["uv_irb_hits"] + st["uv_irb_misses"] + st["uv_irb_value_mismatches"] == 14


def test_srf_falls_back_when_full():
    st = _run("loop1", LOOP_DIVERGE, "uv_loop", 1, 32,
              ("uniform_vectors.design=srf", "uniform_vectors.n_srf_entries=1",
               "uniform_vectors.n_irb_entries=0"))
    # ld.param needs 2 SRs (64-bit): not tracked. mov 0 takes the only SR; the first add
    # finds the free list empty (its own old SR is released after the pop): not converted,
    # %r1 untracked from then on, so nothing after it is detected.
    assert st["uv_detected_insts"] == 2
    assert st["uv_converted_insts"] == 1
    assert st["uv_not_converted_srf_full"] == 1
    assert st["uv_srf_allocs"] == 1
    assert st["uv_srf_frees"] == 1
    assert st["uv_srf_peak_occupancy"] == 1


def test_srf_results_bypass_the_vector_register_banks():
    token = _run("loop_t", LOOP_DIVERGE, "uv_loop", 1, 32, ("uniform_vectors.n_irb_entries=0",))
    srf = _run("loop_s", LOOP_DIVERGE, "uv_loop", 1, 32,
               ("uniform_vectors.design=srf", "uniform_vectors.n_irb_entries=0"))
    assert token["uv_converted_insts"] == srf["uv_converted_insts"] == 7
    # the converted register results (mov 0 and 3 x add; the 3 setp write predicates, which
    # are no bank accesses) and the uniform ld.param's two registers live in the SRF
    assert token["regfile_bank_writes"] == 12
    assert token["regfile_bank_writes"] - srf["regfile_bank_writes"] == 4 + 2
    assert srf["uv_srf_writes"] == 4 + 2


def test_converted_instructions_hold_the_issue_port_one_cycle():
    intra = _run("movs_i", INDEPENDENT_MOVS, "uv_movs", 1, 32,
                 ("uniform_vectors.n_irb_entries=0",))
    inter = _run("movs_v", INDEPENDENT_MOVS, "uv_movs", 1, 32,
                 ("uniform_vectors.scalar_issue=false",))
    # the oracle: the engine's own timing of the same stream with a one-cycle integer unit
    ii1 = _run("movs_ii1", INDEPENDENT_MOVS, "uv_movs", 1, 32,
               ("uniform_vectors.scalar_issue=false",
                "pipelines.int32.initiation_interval_cycles=1"))
    assert intra["uv_converted_insts"] == 8
    assert inter["uv_converted_insts"] == 0 and inter["uv_irb_hits"] == 0
    # eight independent movs on GTX285's one SP unit: vector ii = warpsize / 8 SPs = 4 cycles,
    # a converted (scalar) instruction 1 cycle, exactly as a unit with ii = 1
    assert intra["gpu_sim_cycle"] == ii1["gpu_sim_cycle"]
    assert inter["gpu_sim_cycle"] > intra["gpu_sim_cycle"]
    assert intra["opcoll_dispatch_stalls"] < inter["opcoll_dispatch_stalls"]


def test_mechanism_off_is_the_baseline_bit_for_bit():
    off = ["uniform_vectors.enabled=false", "uniform_vectors.design=srf",
           "uniform_vectors.n_irb_entries=2", "uniform_vectors.reliability=true",
           "uniform_vectors.srf_release=wb", "uniform_vectors.broadcast_uniform=false",
           "uniform_vectors.irb_fault_rate=0.5", "uniform_vectors.alu_fault_rate=0.01"]
    base = run_ptx(LOOP_DIVERGE, "uv_loop", 1, 64, [])
    other = run_ptx(LOOP_DIVERGE, "uv_loop", 1, 64, off)
    volatile = ("wall", "_per_s", "compile")
    a = {k: v for k, v in base.items() if not any(x in k for x in volatile)}
    b = {k: v for k, v in other.items() if not any(x in k for x in volatile)}
    assert a.keys() == b.keys()
    for k in a:  # NaN ratios (no cache accesses) are equal too
        assert a[k] == b[k] or (a[k] != a[k] and b[k] != b[k]), k
    assert not any(k.startswith("uv_") for k in a)
