"""Cross-cutting engine properties: identical statistics for identical runs, with idle-cycle
skipping on and off, for any split of the trace into chunks; jitted kernels equal their
``.py_func`` on small random states (STYLE.md §2.4, §2.9)."""

from __future__ import annotations

import numpy as np
import pytest
from timing_helpers import (
    BARRIER,
    EXIT,
    FakeAlloc,
    FakeProgram,
    Inst,
    make_chunk,
    rec,
    simulate,
    small_config,
)

from warpsim.timing.static import build_static

X = Inst("exit", kind=EXIT)
INSTS = [
    Inst("ld", space="global", reads=(1,), writes=(2,)),                     # 0
    Inst("mad", reads=(2, 3, 4), writes=(5,)),                              # 1
    Inst("ld", space="shared", reads=(1,), writes=(6,)),                    # 2
    Inst("bar", kind=BARRIER),                                              # 3
    Inst("sin", types=("f32",), mods=("approx",), reads=(6,), writes=(7,)),  # 4
    Inst("st", space="global", reads=(1, 7)),                               # 5
    Inst("add", types=("f64",), reads=(8, 9), writes=(8, 9)),               # 6
    X,                                                                      # 7
]


def _warps(n_ctas, wpc, seed=1):
    rng = np.random.default_rng(seed)
    warps = []
    for c in range(n_ctas):
        for w in range(wpc):
            base = 0x10000 + 4096 * (c * wpc + w)
            n_lines = int(rng.integers(1, 5))
            rs = [rec(0, lines=[base + 128 * k for k in range(n_lines)]), rec(1),
                  rec(2, bank=int(rng.integers(1, 5))), rec(3), rec(4),
                  rec(5, lines=[base]), rec(6), rec(6), rec(7)]
            warps.append(rs)
    return warps


def _same(a, b):
    """Equal statistics dicts (NaN ratios, from 0/0, compare equal)."""
    return a.keys() == b.keys() and all(
        a[k] == b[k] or (a[k] != a[k] and b[k] != b[k]) for k in a)


def _run(**kw):
    cfg = small_config(**{"sm.n_sms": 2, "sm.n_schedulers": 2})
    return simulate(cfg, INSTS, _warps(12, 3), wpc=3, cta_threads=96, miss=150, **kw)


def test_two_identical_runs_give_identical_statistics():
    a, b = _run(), _run()
    assert _same(a.stats, b.stats)
    assert a.per_sm == b.per_sm


def test_idle_cycle_skipping_changes_no_statistic():
    on, off = _run(skip_idle=True), _run(skip_idle=False)
    assert _same(on.stats, off.stats)
    assert on.per_sm == off.per_sm


@pytest.mark.parametrize("chunks", [2, 5])
def test_statistics_do_not_depend_on_the_trace_batches(chunks):
    assert _same(_run(chunks=chunks).stats, _run(chunks=1).stats)


def test_jit_equals_python_for_decode_and_collector_allocation():
    from warpsim.mechanisms.hooks import Hooks, noop_hooks, noop_state
    from warpsim.stats import make_counts
    from warpsim.timing import consts as tc
    from warpsim.timing.fields import (
        F_IDOC_COUNT,
        F_IDOC_REC,
        F_REC_PC,
        F_WARP_CTA,
        F_WARP_END,
        F_WARP_FETCH_READY,
        F_WARP_IBUF,
        F_WARP_POS,
        F_WARP_VALID,
        N_REC_FIELDS,
    )
    from warpsim.timing.params import engine_params as _params
    from warpsim.timing.regfile import _allocate_collectors
    from warpsim.timing.sched import tick_decode
    from warpsim.timing.state import empty_window, make_core_state
    from warpsim.timing.warpbits import warp_bits_of

    cfg = small_config()
    tables = build_static(FakeProgram(INSTS), FakeAlloc(INSTS), cfg)
    rng = np.random.default_rng(7)
    chunk = make_chunk(_warps(4, 2, seed=3), 2)
    rec = np.zeros((chunk.n_records, N_REC_FIELDS), np.int64)
    rec[:, F_REC_PC] = chunk.pc[chunk.order]
    window = empty_window(8)._replace(rec=rec)
    st = make_core_state(cfg, tables, 4)
    n_w = st.warp.shape[1]
    st.warp[0, :8, F_WARP_VALID] = 1
    st.warp[0, :8, F_WARP_CTA] = 0
    st.warp[0, :8, F_WARP_POS] = chunk.offsets[:-1]
    st.warp[0, :8, F_WARP_END] = chunk.offsets[1:]
    st.warp[0, :8, F_WARP_IBUF] = rng.integers(0, 2, 8)
    st.warp[0, :n_w, F_WARP_FETCH_READY] = rng.integers(0, 3, n_w)
    st.idoc_hc[0, tc.OC_SP, F_IDOC_COUNT] = 1
    st.idoc_q[0, tc.OC_SP, 0, F_IDOC_REC] = 1
    prm = _params(cfg, True)
    st.warp_bits[:] = warp_bits_of(st.warp, int(prm[tc.P_IBUF]))
    decode_py = getattr(tick_decode, "py_func", tick_decode)
    alloc_py = getattr(_allocate_collectors, "py_func", _allocate_collectors)
    for cycle in range(3):
        sa = type(st)(*[a.copy() for a in st])
        sb = type(st)(*[a.copy() for a in st])
        ca, cb = make_counts(1), make_counts(1)
        hs = noop_state()
        py_hooks = Hooks(*(getattr(f, "py_func", f) for f in noop_hooks()))
        assert tick_decode(sa.warp, sa.warp_bits, window.rec, window.base, tables.pc_info, prm,
                           ca, 0, cycle, hs, noop_hooks()) == decode_py(
            sb.warp, sb.warp_bits, window.rec, window.base, tables.pc_info, prm, cb, 0, cycle,
            hs, py_hooks)
        assert _allocate_collectors(sa, tables, window, ca, 0, hs, noop_hooks()) == alloc_py(
            sb, tables, window, cb, 0, hs, py_hooks)
        assert np.array_equal(ca, cb)
        for x, y in zip(sa, sb, strict=True):
            assert np.array_equal(x, y)
        st = sa
