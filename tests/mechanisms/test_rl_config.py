"""RegLess configuration: capacities split into shards x 8 banks, the default region limit
(spec A4), and clear errors for impossible values."""

from __future__ import annotations

import pytest

from warpsim.arch import apply_overrides, get_preset
from warpsim.errors import ConfigError
from warpsim.mechanisms.regless.mechanism import RegLess


def _cfg(**over):
    return apply_overrides(get_preset("gtx980"), {"regless.enabled": True, **over})


def test_512_entries_on_four_schedulers_give_16_per_bank_and_32_per_region():
    m = RegLess(_cfg())
    assert (m.bank_entries, m.max_regs) == (16, 32)  # 128 per shard / 8 banks; 128 / 4
    m = RegLess(_cfg(**{"regless.entries_per_sm": 128, "regless.max_regs_per_region": 20}))
    assert (m.bank_entries, m.max_regs) == (4, 20)


def test_capacity_not_a_multiple_of_shards_times_banks_is_refused():
    with pytest.raises(ConfigError, match="multiple of 32"):
        RegLess(_cfg(**{"regless.entries_per_sm": 100}))
    with pytest.raises(ConfigError):
        _cfg(**{"regless.entries_per_sm": 4})
    with pytest.raises(ConfigError):
        _cfg(**{"regless.max_regs_per_region": -1})
