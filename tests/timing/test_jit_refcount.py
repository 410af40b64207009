"""``_jit.jit_no_refcount`` (the per-instruction engine kernels): compiled without numba's
reference-counting calls, with the same results as plain numpy indexing."""

from __future__ import annotations

import numpy as np
import pytest

from warpsim._jit import jit_no_refcount

pytestmark = pytest.mark.needs_jit


@jit_no_refcount
def _bump(a, b, i):  # pragma: no cover - jit
    a[i] += b[i]
    v = a[i:]  # a view: no reference taken either
    return v[0] + v.shape[0]


def test_no_reference_counting_calls_and_the_same_result():
    a = np.arange(4, dtype=np.int64)
    b = np.full(4, 3, np.int64)
    assert _bump(a, b, 2) == 5 + 2  # hand-computed: a[2] = 2 + 3, two elements from 2 on
    assert a.tolist() == [0, 1, 5, 3]
    ir = "\n".join(_bump.inspect_llvm().values())
    assert "NRT_incref" not in ir and "NRT_decref" not in ir
