"""CTA-wide reductions (``__syncthreads_count/_and/_or``: PTX ``bar.red``) and Thrust / CUB
(``thrust::sort``, ``thrust::reduce``, ``cub::DeviceScan::InclusiveSum``) in our own CUDA
programs under ``warpsim exec``, checked against numpy computed from the programs' inputs.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import numpy as np
import pytest
from cudart_programs import PROGRAMS, cache_dir, exec_env, warpsim_exec


def _block_reference(n: int = 1000, block: int = 96) -> list[tuple[int, int, int, int]]:
    """(count, and, or, rounds) per block of syncthreads_reduce.cu, from its value formula."""
    i = np.arange(n, dtype=np.uint64)
    v = ((i * np.uint64(2654435761)) % np.uint64(2**32)) >> np.uint64(20)
    out = []
    for b in range(-(-n // block)):
        vb, ib = v[b * block:(b + 1) * block], i[b * block:(b + 1) * block]
        workers = vb[(ib % np.uint64(block)) % np.uint64(32) == 3] % np.uint64(7)
        out.append((int(np.count_nonzero(vb % 3 == 0)), int(np.all(vb % 256 != 5)),
                    int(np.any(vb < 40)), int(workers.max(initial=0))))
    return out


def _parse_blocks(stdout: str) -> list[tuple[int, int, int, int]]:
    rows = []
    for line in stdout.splitlines():
        if line.startswith("block "):
            w = line.split()
            rows.append((int(w[3]), int(w[5]), int(w[7]), int(w[9])))
    return rows


def test_reference_mixes_outcomes():
    """The inputs exercise both results of each reduction (else the test proves little)."""
    ref = _block_reference()
    assert {r[1] for r in ref} == {0, 1} and {r[2] for r in ref} == {0, 1}
    assert len({r[3] for r in ref}) > 2


def test_syncthreads_count_and_or_functional(build):
    proc = warpsim_exec("--", str(build("syncthreads_reduce")))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert _parse_blocks(proc.stdout) == _block_reference()
    assert proc.stdout.rstrip().endswith("PASSED")


def test_syncthreads_reductions_are_barriers_in_the_timing_model(build, tmp_path):
    """Timed on gtx480: same results, and every warp waits once per bar.red it executes:
    3 reductions plus (rounds + 1) loop tests per warp, 3 warps per block."""
    stats = tmp_path / "stats.jsonl"
    proc = warpsim_exec("--config", "gtx480", "--stats", str(stats), "--",
                        str(build("syncthreads_reduce")))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    ref = _block_reference()
    assert _parse_blocks(proc.stdout) == ref
    record = json.loads(stats.read_text().splitlines()[0])
    waits = sum(3 * (3 + rounds + 1) for *_, rounds in ref)
    assert record["stats"]["sm_barrier_waits"] == waits


def _lcg_inputs(n: int) -> tuple[np.ndarray, np.ndarray]:
    """thrust_cub.cu's keys and values: state = state * 1664525 + 1013904223 (mod 2^32)."""
    state = 12345
    draws = []
    for _ in range(2 * n):
        state = (state * 1664525 + 1013904223) % 2**32
        draws.append(state >> 8)
    d = np.array(draws, dtype=np.int64)
    return d[0::2] % 200001 - 100000, d[1::2] % 1000


@pytest.fixture(scope="module")
def thrust_program() -> Path:
    """thrust_cub.cu built with ``warpsim nvcc`` (cached); skipped without Thrust/CUB headers
    (a toolkit's include/cccl, or the nvidia-cuda-cccl wheel)."""
    import hashlib

    from warpsim.cudart.nvcc import nvcc_command
    from warpsim.errors import WarpsimError

    src = PROGRAMS / "thrust_cub.cu"
    try:
        cmd = nvcc_command(["-arch=sm_80", str(src)])
    except WarpsimError as err:
        pytest.skip(f"no nvcc: {err}")
    key = hashlib.sha256(src.read_bytes() + " ".join(cmd).encode()).hexdigest()[:20]
    out = cache_dir() / "cudart-programs" / key / "thrust_cub"
    if out.is_file():
        return out
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(f".tmp{os.getpid()}")
    proc = subprocess.run([*cmd[:-1], "-o", str(tmp), str(src)], capture_output=True,
                          text=True, timeout=600, env=exec_env())
    if proc.returncode != 0 and "thrust/device_vector.h" in proc.stderr:
        pytest.skip("the CUDA toolkit has no Thrust/CUB headers (include/cccl)")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    tmp.replace(out)
    return out


@pytest.mark.parametrize("n", [1000, 20000])
def test_thrust_sort_reduce_and_cub_scan(thrust_program, n):
    """1000 keys take CUB's single-tile kernels; 20000 its multi-block ones: the radix sort's
    histogram and onesweep passes (3 tiles chained by look-back, bmsk and bar.red.or.pred),
    a two-pass reduction and a decoupled look-back scan over 6 tiles."""
    proc = warpsim_exec("--", str(thrust_program), str(n), timeout=900)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    keys, vals = _lcg_inputs(n)
    s = np.sort(keys)
    total = int(vals.sum())
    assert proc.stdout.splitlines() == [
        f"sort ok first {s[0]} last {s[-1]}", f"reduce ok sum {total}",
        f"scan ok last {int(np.cumsum(vals)[-1])}", "PASSED"]
