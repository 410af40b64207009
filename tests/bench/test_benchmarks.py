"""warpsim's own benchmark suite: every benchmark is described, compiles, and verifies at `tiny`
against its independent numpy reference."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from warpsim.bench import (
    BENCHMARKS,
    SIZES,
    get_benchmark,
    list_benchmarks,
    run_benchmark,
)
from warpsim.bench.registry import kernel_resources
from warpsim.errors import ConfigError

NAMES = sorted(BENCHMARKS)


@pytest.fixture(scope="module")
def gpu() -> Iterator[Any]:
    import warpsim

    device = warpsim.Device()
    yield device
    device.close()


def test_the_suite_has_at_least_30_benchmarks():
    assert len(BENCHMARKS) >= 30


@pytest.mark.parametrize("name", NAMES)
def test_benchmark_is_fully_described(name: str):
    b = get_benchmark(name)
    assert b.name == name
    assert b.suite in {"rodinia", "parboil", "sdk", "ispass2009", "other"}
    assert b.resembles and b.workload and b.launches and b.tolerance_note
    assert b.kernels and set(b.threads_per_block) == set(b.kernels)
    assert all(0 < t <= 1024 for t in b.threads_per_block.values())
    assert tuple(b.sizes) == SIZES
    assert b.source.is_file() and b.source.name == "kernels.cu"
    assert b.generate and b.launch and b.reference


@pytest.mark.parametrize("name", NAMES)
def test_benchmark_kernels_compile(name: str):
    res = kernel_resources(name)
    for kernel in get_benchmark(name).kernels:
        assert kernel in res, f"{kernel} missing from the compiled module"
        assert res[kernel].registers > 0


@pytest.mark.parametrize("name", NAMES)
def test_inputs_are_deterministic(name: str):
    b = get_benchmark(name)
    p = b.sizes["tiny"]
    one = b.generate(p, np.random.default_rng(7))
    two = b.generate(p, np.random.default_rng(7))
    for key, value in one.items():
        np.testing.assert_array_equal(np.asarray(value), np.asarray(two[key]))


@pytest.mark.parametrize("name", NAMES)
def test_benchmark_verifies_at_tiny(name: str, gpu: Any):
    result = run_benchmark(name, "tiny", device=gpu)
    assert result.verified, "\n".join(result.mismatches)
    assert result.n_launches == sum(result.launches.values()) >= 1
    assert set(result.launches) <= set(get_benchmark(name).kernels)


def test_list_benchmarks_has_registers_and_threads_per_block():
    rows = {r["name"]: r for r in list_benchmarks()}
    assert set(rows) == set(BENCHMARKS)
    sgemm = rows["sgemm"]
    assert sgemm["resembles"] == "parboil/sgemm"
    assert 40 <= sgemm["registers"]["sgemm_nt"] <= 48
    assert sgemm["threads_per_block"]["sgemm_nt"] == 128


def test_the_suite_has_register_limited_kernels():
    """Like Register Sharing's Set-1: 24-48 registers per thread at 128-512 threads per block."""
    limited = [(b.name, k) for b in BENCHMARKS.values() for k in b.kernels
               if 128 <= b.threads_per_block[k] <= 512
               and 24 <= kernel_resources(b.name)[k].registers <= 48]
    assert len(limited) >= 8, limited


def test_unknown_benchmark_lists_the_valid_names():
    with pytest.raises(ConfigError) as err:
        get_benchmark("no_such_benchmark")
    assert "vector_add" in str(err.value.expected)


def test_unknown_size_is_a_config_error(gpu: Any):
    with pytest.raises(ConfigError, match="size"):
        run_benchmark("vector_add", "huge", device=gpu)


def test_params_override_one_parameter_of_a_size(gpu: Any):
    result = run_benchmark("nw", "tiny", device=gpu, params={"n": 32})
    assert result.verified
    assert result.params["n"] == 32
    assert result.n_launches == 2 * (32 // 16) - 1
