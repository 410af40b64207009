"""``_jit.jit``: timing-engine kernels (modules under ``warpsim.timing``) compile without
numba's reference-counting calls and index as numpy does; kernels elsewhere keep them."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from warpsim._jit import jit
from warpsim.stats import C_GPGPU_N_LOAD_INSN, C_GPGPU_N_STORE_INSN, make_counts
from warpsim.timing.consts import MK_LD_GLOBAL
from warpsim.timing.pipeline import _count_mem

pytestmark = pytest.mark.needs_jit


@jit
def _tail_sum(a, i):  # pragma: no cover - jit
    v = a[i:]  # a view: numba references the array
    return v[0] + v.shape[0]


def _llvm(dispatcher, *args) -> str:
    """LLVM IR of ``dispatcher``'s function compiled afresh with its options (code loaded from
    numba's on-disk cache cannot be inspected)."""
    options = {k: v for k, v in dispatcher.targetoptions.items() if k != "nopython"}  # njit's
    fresh = njit(**options)(dispatcher.py_func)
    fresh(*args)
    return "\n".join(fresh.inspect_llvm().values())


def test_an_engine_kernel_has_no_reference_counting_calls_and_counts_as_by_hand():
    counters = make_counts(2)
    _count_mem(counters, 1, MK_LD_GLOBAL, 17)
    _count_mem(counters, 1, MK_LD_GLOBAL, 5)
    assert counters[1, C_GPGPU_N_LOAD_INSN] == 22  # 17 + 5 threads, SM 1 only
    assert counters.sum() == 22 and counters[1, C_GPGPU_N_STORE_INSN] == 0
    ir = _llvm(_count_mem, make_counts(2), 0, MK_LD_GLOBAL, 1)
    assert "define" in ir and "NRT_incref" not in ir and "NRT_decref" not in ir


def test_a_kernel_outside_the_engine_keeps_reference_counting():
    assert _tail_sum(np.arange(4, dtype=np.int64), 2) == 2 + 2
    assert "NRT_decref" in _llvm(_tail_sum, np.arange(4, dtype=np.int64), 1)
