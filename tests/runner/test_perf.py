"""The benchmark command core: structure of the report, verification, instruction counts."""

from __future__ import annotations

import json

import numpy as np
import pytest

from warpsim.errors import ConfigError
from warpsim.runner import perf


@pytest.fixture(scope="module")
def report():
    return perf.run_perf(repeat=2, n_threads=2048)


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
                                    dict(benchmarks=("nope",)), dict(n_threads=0)])
def test_bad_arguments_are_config_errors(kwargs):
    with pytest.raises(ConfigError):
        perf.run_perf(**kwargs)
