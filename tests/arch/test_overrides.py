"""Dotted overrides: parsing of strings, sizes, enums and tuples; errors with suggestions."""

from __future__ import annotations

import pytest

from warpsim.arch import (
    GTX480,
    GPUConfig,
    SchedPolicy,
    apply_overrides,
    config_diff,
    field_paths,
    flatten,
    parse_override,
    parse_value,
)
from warpsim.errors import ConfigError


def test_mapping_overrides_replace_fields_and_leave_the_original():
    cfg = apply_overrides(GTX480, {"sm.n_schedulers": 4, "l1d.size_bytes": "32KiB"})
    assert cfg.sm.n_schedulers == 4 and cfg.l1d.size_bytes == 32768
    assert GTX480.sm.n_schedulers == 2 and GTX480.l1d.size_bytes == 16384
    assert cfg.regfile == GTX480.regfile
    assert cfg.config_hash() != GTX480.config_hash()


def test_string_overrides_as_from_the_cli():
    cfg = apply_overrides(GTX480, ["sm.n_schedulers=4", "regfile.n_banks = 32",
                                   "sm.sched_policy=lrr", "l1d.bypass_global=true",
                                   "clocks.core_mhz=1400", "l2.size_bytes=128KB"])
    assert cfg.sm.n_schedulers == 4 and cfg.regfile.n_banks == 32
    assert cfg.sm.sched_policy is SchedPolicy.LRR
    assert cfg.l1d.bypass_global is True
    assert cfg.clocks.core_mhz == 1400.0
    assert cfg.l2.size_bytes == 131072


def test_a_single_string_is_one_override():
    assert apply_overrides(GTX480, "sm.n_sms=4").sm.n_sms == 4


def test_no_overrides_returns_the_same_object():
    assert apply_overrides(GTX480, {}) is GTX480


@pytest.mark.parametrize(("text", "expected"), [
    ("4", 4), ("0x10", 16), ("1_000", 1000), ("32KiB", 32768), ("32KB", 32768),
    ("32k", 32768), ("2MiB", 2097152), ("1GiB", 1 << 30), ("1.5KiB", 1536),
])
def test_integer_and_size_parsing(text, expected):
    assert parse_value(text, int, "x") == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("true", True), ("False", False), ("1", True), ("0", False), ("yes", True), ("off", False),
])
def test_bool_parsing(text, expected):
    assert parse_value(text, bool, "x") is expected


def test_enum_accepts_value_and_name_case_insensitive():
    assert parse_value("gto", SchedPolicy, "p") is SchedPolicy.GTO
    assert parse_value("TWO_LEVEL", SchedPolicy, "p") is SchedPolicy.TWO_LEVEL


def test_tuple_parsing_for_latency_lists():
    cfg = apply_overrides(GTX480, ["pipelines.int32.op_latency_cycles=4,4,4,4,21"])
    assert cfg.pipelines.int32.op_latency_cycles == (4, 4, 4, 4, 21)
    cfg = apply_overrides(GTX480, {"pipelines.int32.op_latency_cycles": (2, 2, 2, 2, 2)})
    assert cfg.pipelines.int32.op_latency_cycles == (2, 2, 2, 2, 2)


def test_parse_override_splits_on_first_equals():
    assert parse_override("sm.n_sms=15") == ("sm.n_sms", "15")
    assert parse_override(" a.b = c=d ") == ("a.b", "c=d")
    with pytest.raises(ConfigError) as info:
        parse_override("sm.n_sms")
    assert "path.to.field=value" in info.value.message


def test_unknown_field_lists_valid_fields_and_suggests():
    with pytest.raises(ConfigError) as info:
        apply_overrides(GTX480, ["sm.schedulers=4"])
    err = info.value
    assert err.field == "sm.schedulers" and err.value == "4"
    assert "n_schedulers" in err.expected and "n_max_ctas" in err.expected
    assert "did you mean n_schedulers" in err.message


def test_unknown_group_suggests_at_the_top_level():
    with pytest.raises(ConfigError) as info:
        apply_overrides(GTX480, {"regfle.n_banks": 8})
    assert "did you mean regfile" in info.value.message
    assert "sm" in info.value.expected


def test_path_through_a_value_is_rejected():
    with pytest.raises(ConfigError) as info:
        apply_overrides(GTX480, {"sm.n_sms.x": 1})
    assert info.value.field == "sm.n_sms.x"


def test_group_cannot_be_set_from_a_string():
    with pytest.raises(ConfigError) as info:
        apply_overrides(GTX480, ["regfile=16"])
    assert "n_banks" in info.value.message


def test_bad_values_name_the_dotted_field():
    with pytest.raises(ConfigError) as info:
        apply_overrides(GTX480, ["regfile.n_banks=many"])
    assert info.value.field == "regfile.n_banks"
    with pytest.raises(ConfigError) as info:
        apply_overrides(GTX480, ["sm.sched_policy=fifo"])
    assert info.value.field == "sm.sched_policy" and "gto" in info.value.expected
    with pytest.raises(ConfigError) as info:
        apply_overrides(GTX480, ["l1d.bypass_global=maybe"])
    assert info.value.field == "l1d.bypass_global"


def test_invalid_result_reports_the_rule_with_the_path():
    with pytest.raises(ConfigError) as info:
        apply_overrides(GTX480, {"pipelines.fp32.latency_cycles": 0})
    assert info.value.field == "pipelines.fp32.latency_cycles" and info.value.value == 0
    with pytest.raises(ConfigError) as info:
        apply_overrides(GTX480, {"l1d.ways": 5})
    assert info.value.field == "l1d.size_bytes"


def test_python_values_are_type_checked_not_coerced():
    with pytest.raises(ConfigError) as info:
        apply_overrides(GTX480, {"sm.n_sms": 4.0})
    assert info.value.field == "sm.n_sms"


def test_field_paths_cover_nested_groups():
    paths = field_paths(GPUConfig)
    assert "regfile.oc_sp.n_collector_units" in paths
    assert "pipelines.fp64.op_latency_cycles" in paths
    assert "dram.t_rc_cycles" in paths and "name" in paths
    assert len(paths) == len(set(paths))
    for path in paths:  # every listed path is settable to its current value
        node = GTX480
        for part in path.split("."):
            node = getattr(node, part)
        assert apply_overrides(GTX480, {path: node}) == GTX480


def test_flatten_lists_every_leaf_path_in_field_order():
    flat = flatten(GTX480)
    assert list(flat) == field_paths(GPUConfig)
    assert flat["sm.sched_policy"] == "gto" and flat["regfile.n_banks"] == 16
    assert flat["pipelines.fp32.op_latency_cycles"] == (4, 13, 4, 5, 39)


def test_config_diff_names_exactly_the_changed_fields():
    other = apply_overrides(GTX480, ["regfile.n_banks=32", "sm.sched_policy=lrr"])
    assert config_diff(GTX480, other) == {"regfile.n_banks": (16, 32),
                                          "sm.sched_policy": ("gto", "lrr")}
    assert config_diff(GTX480, GTX480) == {}
