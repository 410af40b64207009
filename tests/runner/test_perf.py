"""The benchmark command core: structure of the report, verification, instruction counts."""

from __future__ import annotations

import json

import numpy as np
import pytest

from warpsim.errors import ConfigError
from warpsim.runner import perf


@pytest.fixture(scope="module")
def report():
    return perf.run_perf(timing=False, repeat=2, n_threads=2048)


def test_report_has_every_benchmark_verified(report):
    assert [b["name"] for b in report["benchmarks"]] == list(perf.BENCHMARKS)
    for b in report["benchmarks"]:
        assert b["verified"] and b["threads"] == 2048
        assert b["thread_instructions"] > 0 and b["warp_instructions"] > 0
        assert b["thread_instructions"] <= 32 * b["warp_instructions"]
        assert len(b["wall_s_all"]) == 2 and b["wall_s"] > 0
        assert b["thread_inst_per_s"] == pytest.approx(b["thread_instructions"] / b["wall_s"])
        assert b["trace_records"] == b["warp_instructions"]  # traces on: one record each
        assert b["trace_bytes"] > 0
    rates = sorted(b["thread_inst_per_s"] for b in report["benchmarks"])
    assert report["functional_thread_inst_per_s"] == rates[1]
    assert report["timing_warp_inst_per_s"] is None
    assert report["peak_rss_mb"] > 10
    json.dumps(report)  # the CLI prints it with --json


def test_straight_line_kernel_counts_every_static_instruction(report):
    # perf_saxpy has no loop: with n a multiple of the block size every thread executes each
    # static instruction once (the guard branch is not taken), so the counts follow the PTX.
    from warpsim import toolchain
    from warpsim.ptx.parser import parse_ptx

    ptx = toolchain.compile_cuda(perf.PERF_KERNELS).ptx
    n_static = len(parse_ptx(ptx).kernel("perf_saxpy").instructions)
    saxpy = next(b for b in report["benchmarks"] if b["kernel"] == "perf_saxpy")
    assert saxpy["thread_instructions"] == 2048 * n_static
    assert saxpy["warp_instructions"] == 2048 // 32 * n_static


def test_divergent_kernel_runs_partial_warps(report):
    div = next(b for b in report["benchmarks"] if b["kernel"] == "perf_divergent")
    assert div["thread_instructions"] < 32 * div["warp_instructions"]


def test_divergent_reference_matches_a_scalar_loop():
    v = np.array([0, 1, 31, 0xFFFFFFFF, 12345], np.uint32)
    got = perf._divergent_reference(v)
    for i, x in enumerate(int(e) for e in v):
        acc, m = x, 0xFFFFFFFF
        for t in range(x & 31):
            if acc & 1:
                acc = (acc * 3 + 1) & m
                acc ^= acc >> 7
            else:
                acc = ((acc >> 1) + (acc << 3) + t) & m
        if i & 1:
            acc = ((acc ^ 0x5BD1E995) * 0x9E3779B9) & m
        else:
            acc = (acc + i) & m
            acc = ((acc << 5) | (acc >> 27)) & m
        assert int(got[i]) == acc


@pytest.mark.parametrize("kwargs", [dict(functional=False, timing=False), dict(repeat=0),
                                    dict(benchmarks=("nope",)), dict(n_threads=0),
                                    dict(functional=False, timing_benchmarks=("nope",)),
                                    dict(functional=False, timing_benchmarks=()),
                                    dict(functional=False, timing_size="huge")])
def test_bad_arguments_are_config_errors(kwargs):
    with pytest.raises(ConfigError):
        perf.run_perf(**kwargs)


# -- the timing half ------------------------------------------------------------------------------

_TIMED = ("vector_add", "reduction")


@pytest.fixture(scope="module")
def timing_report():
    pytest.importorskip("warpsim.bench")
    return perf.run_perf(functional=False, timing=True, repeat=2, timing_benchmarks=_TIMED,
                         timing_size="tiny")


def _functional_counts(name):
    """Oracle: the functional executor alone (no timing), summed over the launches."""
    from warpsim.bench import run_benchmark
    from warpsim.runtime import Device

    counts = [0, 0, 0]

    def observe(kernel, cfg, result):
        counts[0] += 1
        counts[1] += result.thread_instructions
        counts[2] += result.warp_instructions

    with Device() as gpu:
        gpu.add_launch_observer(observe)
        assert run_benchmark(name, size="tiny", device=gpu).verified
    return tuple(counts)


def test_timing_half_reports_each_benchmark_verified_and_deterministic(timing_report):
    r = timing_report
    assert r["benchmarks"] == [] and r["functional_thread_inst_per_s"] is None
    assert [b["name"] for b in r["timing_benchmarks"]] == list(_TIMED)
    assert r["timing_size"] == "tiny" and r["timing_config"] == "gtx480"
    for b in r["timing_benchmarks"]:
        assert b["verified"] and b["cycles"] > 0
        assert (b["launches"], b["thread_instructions"], b["warp_instructions"]) == \
            _functional_counts(b["name"])
        assert len(b["timing_wall_s_all"]) == 2 and b["timing_wall_s"] > 0
        assert b["timing_warp_inst_per_s"] == pytest.approx(
            b["warp_instructions"] / b["timing_wall_s"])
        assert b["ipc"] == pytest.approx(b["thread_instructions"] / b["cycles"])
    rates = [b["timing_warp_inst_per_s"] for b in r["timing_benchmarks"]]
    assert r["timing_warp_inst_per_s"] == pytest.approx(sum(rates) / 2)  # median of two
    walls = sum(b["timing_wall_s"] for b in r["timing_benchmarks"])
    warps = sum(b["warp_instructions"] for b in r["timing_benchmarks"])
    assert r["timing_warp_inst_per_s_total"] == pytest.approx(warps / walls)
    # clock readings: only their type and sign (compile time is measured inside the warm-up,
    # but two clocks read on a busy machine need not order as expected)
    assert isinstance(r["numba_compile_s"], float) and r["numba_compile_s"] >= 0
    assert isinstance(r["timing_warmup_s"], float) and r["timing_warmup_s"] > 0
    json.dumps(r)


def test_nondeterministic_cycles_are_an_internal_error(monkeypatch):
    from warpsim.errors import InternalError

    calls = iter(range(100))

    def fake_run(name, size, config):
        timing = type("T", (), {"wall_s": 0.1, "numba_compile_s": 0.0})()
        n = next(calls)
        return True, [timing], {"gpu_sim_cycle": 100 + n, "gpu_sim_insn": 64,
                                "gpgpu_n_tot_w_icount": 2}

    monkeypatch.setattr(perf, "_timed_run", fake_run)
    with pytest.raises(InternalError, match="not deterministic"):
        perf._measure_timing("vector_add", "tiny", "gtx480", 2)
