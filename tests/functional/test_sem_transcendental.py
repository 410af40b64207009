"""Approximate math (ex2, lg2, sin, cos, tanh, rsqrt, rcp/sqrt.approx) within PTX's error bounds."""

from __future__ import annotations

import math

import numpy as np
import pytest

try:
    from tests.functional.sem_builder import op_for, run
except ImportError:
    from sem_builder import op_for, run

from warpsim.errors import UnsupportedPTXError


def _f32(x: np.ndarray | list[float]) -> np.ndarray:
    return np.asarray(x, dtype=np.float32).view(np.uint32)


def _ulp32(x: float) -> float:
    return float(np.spacing(np.float32(abs(x)))) if x != 0 else 2.0**-149


def _go(spell: str, x: np.ndarray) -> np.ndarray:
    return run(spell, ["f32"], ["f32"], _f32(x))[0].view(np.float32)


def test_ex2_within_2ulp() -> None:
    x = np.random.default_rng(1).uniform(-126, 127, 2000).astype(np.float32)
    got = _go("ex2.approx.f32", x)
    for xi, g in zip(x, got, strict=True):
        assert abs(float(g) - 2.0 ** float(xi)) <= 2 * _ulp32(2.0 ** float(xi))


def test_lg2_within_bound() -> None:
    rng = np.random.default_rng(2)
    x = np.concatenate([rng.uniform(0.5, 2, 1000), 2.0 ** rng.uniform(-120, 120, 1000)])
    got = _go("lg2.approx.f32", x.astype(np.float32))
    for xi, g in zip(x.astype(np.float32), got, strict=True):
        ref = math.log2(float(xi))
        tol = 2.0**-22.6 if 0.5 <= xi <= 2 else 2.0**-22 * abs(ref)
        assert abs(float(g) - ref) <= tol


@pytest.mark.parametrize("fn,ref", [("sin", math.sin), ("cos", math.cos)])
def test_sin_cos_abs_error(fn: str, ref: object) -> None:
    x = np.random.default_rng(3).uniform(-math.pi, math.pi, 2000).astype(np.float32)
    got = _go(f"{fn}.approx.ftz.f32", x)
    assert np.all(np.abs(got - np.array([ref(float(v)) for v in x])) <= 2.0**-20.9)


def test_tanh_rsqrt_rcp_sqrt_approx() -> None:
    x = 2.0 ** np.random.default_rng(4).uniform(-60, 60, 1000).astype(np.float32)
    for spell, ref in (("rsqrt.approx.f32", lambda v: 1 / math.sqrt(v)),
                       ("rcp.approx.ftz.f32", lambda v: 1 / v),
                       ("sqrt.approx.f32", math.sqrt),
                       ("tanh.approx.f32", math.tanh)):
        got = _go(spell, x)
        for xi, g in zip(x, got, strict=True):
            r = ref(float(xi))
            assert abs(float(g) - r) <= 2 * _ulp32(r), spell
    xd = 2.0 ** np.random.default_rng(5).uniform(-500, 500, 200)
    got = run("rsqrt.approx.f64", ["f64"], ["f64"], xd.view(np.uint64))[0].view(np.float64)
    assert np.allclose(got, 1 / np.sqrt(xd), rtol=2.0**-50, atol=0)
    got = run("rcp.approx.ftz.f64", ["f64"], ["f64"], xd.view(np.uint64))[0].view(np.float64)
    assert np.allclose(got, 1 / xd, rtol=2.0**-50, atol=0)


def test_special_values() -> None:
    inf, nan = math.inf, math.nan
    assert list(_go("ex2.approx.f32", [-inf, inf, 0.0])) == [0.0, inf, 1.0]
    lg = _go("lg2.approx.f32", [0.0, -0.0, -1.0, inf, 1.0])
    assert list(lg[:2]) == [-inf, -inf] and np.isnan(lg[2]) and lg[3] == inf and lg[4] == 0
    assert np.all(np.isnan(_go("sin.approx.f32", [inf, -inf, nan])))
    rs = _go("rsqrt.approx.f32", [0.0, -0.0, -4.0, inf])
    assert rs[0] == inf and rs[1] == -inf and np.isnan(rs[2]) and rs[3] == 0
    assert list(_go("rcp.approx.f32", [0.0, -0.0])) == [inf, -inf]
    nanbits = run("ex2.approx.f32", ["f32"], ["f32"], [0xFFC00001])[0]
    assert int(nanbits[0]) == 0x7FFFFFFF


def test_ftz_flushes_subnormal_inputs_and_outputs() -> None:
    sub = 1e-40
    assert _go("ex2.approx.ftz.f32", [sub])[0] == 1.0
    assert _go("ex2.approx.ftz.f32", [-130.0])[0] == 0.0
    assert _go("ex2.approx.f32", [-130.0])[0] == np.float32(2.0**-130)
    assert _go("lg2.approx.ftz.f32", [sub])[0] == -np.inf
    assert _go("rsqrt.approx.ftz.f32", [-sub])[0] == -np.inf


@pytest.mark.parametrize("spell", ["ex2.f32", "ex2.approx.f64", "sin.approx.f16",
                                   "lg2.approx.rn.f32", "tanh.approx.f64"])
def test_invalid_transcendental_forms_raise(spell: str) -> None:
    t = "f64" if "f64" in spell else ("b16" if "f16" in spell else "f32")
    with pytest.raises(UnsupportedPTXError):
        op_for(spell, [t], [t])
