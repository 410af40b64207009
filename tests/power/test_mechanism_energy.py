"""A mechanism adds energy only through its ENERGY pairs and _mw config fields (STYLE §2.2)."""

from __future__ import annotations

import types
from dataclasses import dataclass

import pytest

from warpsim.errors import InternalError
from warpsim.power import GTX480_GPUWATTCH, energy, mechanism_energy


@dataclass(frozen=True, slots=True, kw_only=True)
class _DummyConfig:
    lookup_pj: float = 4.71
    fill_pj: float = 2.93
    table_leak_mw: float = 0.5
    n_units: int = 3


def _dummy(**extra) -> types.SimpleNamespace:
    return types.SimpleNamespace(
        NAME="dummy", PAPER="test", Config=_DummyConfig,
        ENERGY=(("dummy_lookups", "lookup_pj"), ("dummy_fills", "fill_pj")), **extra)


def test_dummy_mechanism_energy_is_counts_times_pj_plus_mw_times_time():
    stats = {"dummy_lookups": 1000, "dummy_fills": 10}
    m = mechanism_energy(_dummy(), _DummyConfig(), stats, 2e-6, n_sms=15)
    assert m.name == "dummy"
    assert m.dynamic_j == pytest.approx((1000 * 4.71 + 10 * 2.93) * 1e-12, rel=1e-12)
    assert m.static_j == pytest.approx(0.5e-3 * 15 * 2e-6, rel=1e-12)


def test_static_pairs_multiply_by_the_unit_count():
    mech = _dummy(STATIC=(("table_leak_mw", "n_units"),))
    m = mechanism_energy(mech, _DummyConfig(), {}, 1e-6, n_sms=2)
    assert m.dynamic_j == 0
    assert m.static_j == pytest.approx(3 * 0.5e-3 * 2 * 1e-6, rel=1e-12)


def test_mechanism_is_its_own_component_in_the_breakdown():
    cfg = _DummyConfig(lookup_pj=10.0)
    bd = energy({"dummy_lookups": 100}, GTX480_GPUWATTCH, cycles=700, clock_mhz=700.0,
                n_sms=1, n_rf_banks_per_sm=32, mechanisms=[(_dummy(), cfg)])
    assert bd.dynamic_by_component_j["dummy"] == pytest.approx(100 * 10e-12, rel=1e-12)
    assert bd.static_by_component_j["dummy"] == pytest.approx(0.5e-3 * 1e-6, rel=1e-12)
    assert bd.to_dict()["by_component"]["dummy"] == pytest.approx(1e-9 + 0.5e-9, rel=1e-12)
    base = energy({"dummy_lookups": 100}, GTX480_GPUWATTCH, cycles=700, clock_mhz=700.0,
                  n_sms=1, n_rf_banks_per_sm=32)
    assert bd.total_j - base.total_j == pytest.approx(1.5e-9, rel=1e-9)


def test_a_sweep_varies_mechanism_energy_through_its_config():
    lo = mechanism_energy(_dummy(), _DummyConfig(lookup_pj=1.0), {"dummy_lookups": 1}, 0)
    hi = mechanism_energy(_dummy(), _DummyConfig(lookup_pj=2.5), {"dummy_lookups": 1}, 0)
    assert hi.dynamic_j == pytest.approx(2.5 * lo.dynamic_j)


def test_energy_field_without_pj_suffix_is_an_internal_error():
    mech = types.SimpleNamespace(NAME="bad", ENERGY=(("x", "n_units"),))
    with pytest.raises(InternalError, match="_pj"):
        mechanism_energy(mech, _DummyConfig(), {}, 0)


def test_mechanism_named_like_a_component_is_rejected():
    mech = types.SimpleNamespace(NAME="register_file", ENERGY=())
    with pytest.raises(InternalError, match="collides"):
        energy({}, GTX480_GPUWATTCH, cycles=1, clock_mhz=700.0, n_sms=1,
               n_rf_banks_per_sm=32, mechanisms=[(mech, _DummyConfig())])
