"""Configuration dataclasses: naming vocabulary, docstrings, validation, round trip, hashing."""

from __future__ import annotations

import ast
import dataclasses
import enum
import inspect
import json
import os
import subprocess
import sys
import typing
from pathlib import Path

import pytest

import warpsim.arch as arch
from warpsim.arch import (
    GTX480,
    PRESETS,
    CacheConfig,
    ClockConfig,
    CollectorSetConfig,
    ConfigBase,
    DRAMConfig,
    GPUConfig,
    L1DConfig,
    PipeConfig,
    RegFileConfig,
    SharedMemConfig,
    SMConfig,
)
from warpsim.errors import ConfigError

ROOT = Path(__file__).resolve().parents[2]

UNIT_SUFFIXES = ("_cycles", "_ns", "_mhz", "_bytes", "_bits", "_pj", "_mw", "_frac",
                 "_entries", "_ways")
"""STYLE.md §2.3 vocabulary: unit suffixes, table sizes (_entries), associativity (_ways)."""


def _config_classes() -> list[type]:
    found = []
    for name in arch.__all__:
        obj = getattr(arch, name)
        if isinstance(obj, type) and issubclass(obj, ConfigBase) and obj is not ConfigBase:
            found.append(obj)
    return found


def _numeric(tp: typing.Any) -> bool:
    if tp in (int, float):
        return True
    if typing.get_origin(tp) is tuple:
        return all(_numeric(a) for a in typing.get_args(tp) if a is not Ellipsis)
    return False


def test_every_config_class_is_frozen_slotted_kw_only():
    for cls in _config_classes():
        params = cls.__dataclass_params__
        assert params.frozen, cls
        assert "__slots__" in cls.__dict__, cls
        assert all(f.kw_only for f in dataclasses.fields(cls)), cls


def test_every_numeric_field_name_carries_a_unit_or_count():
    bad = []
    for cls in _config_classes():
        hints = typing.get_type_hints(cls)
        for f in dataclasses.fields(cls):
            if not _numeric(hints[f.name]):
                continue
            name = f.name
            ok = (name.startswith("n_") or name.endswith(UNIT_SUFFIXES)
                  or f"_{name}" in UNIT_SUFFIXES)
            if not ok:
                bad.append(f"{cls.__name__}.{name}")
    assert not bad, f"numeric fields without a unit suffix or n_ prefix: {bad}"


def test_fields_are_scalars_enums_tuples_or_configs():
    for cls in _config_classes():
        for name, tp in typing.get_type_hints(cls).items():
            if name.startswith("_"):
                continue
            ok = (tp in (int, float, bool, str) or typing.get_origin(tp) is tuple
                  or (isinstance(tp, type) and issubclass(tp, enum.Enum | ConfigBase)))
            assert ok, f"{cls.__name__}.{name}: {tp}"


def test_only_the_name_field_is_a_string():
    # besides the name: the DRAM address mapping, a bit layout in GPGPU-Sim's own syntax
    # (-gpgpu_mem_addr_mapping), parsed and checked when the config is built; not a policy
    strings = {(GPUConfig, "name"), (DRAMConfig, "addr_mapping")}
    for cls in _config_classes():
        for name, tp in typing.get_type_hints(cls).items():
            if tp is str:
                assert (cls, name) in strings


def test_every_field_has_an_attribute_docstring():
    missing = []
    for path in sorted((ROOT / "warpsim" / "arch").glob("*.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if not isinstance(node, ast.ClassDef):
                continue
            body = node.body
            for i, stmt in enumerate(body):
                if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                    nxt = body[i + 1] if i + 1 < len(body) else None
                    doc = (isinstance(nxt, ast.Expr) and isinstance(nxt.value, ast.Constant)
                           and isinstance(nxt.value.value, str) and nxt.value.value.strip())
                    if not doc:
                        missing.append(f"{path.name}:{node.name}.{stmt.target.id}")
    assert not missing, missing


def test_every_config_class_has_a_docstring_and_constructs_with_defaults():
    for cls in _config_classes():
        assert inspect.getdoc(cls), cls
        cls()  # every field has a default and the defaults validate


def test_default_gpu_config_is_hashable_and_equal_by_value():
    a, b = GPUConfig(), GPUConfig()
    assert a == b and hash(a) == hash(b)
    assert len({a, b, GTX480}) == 2
    # GTX480 differs by name, its GPGPU-Sim 4.2 memory system, L1D MSHRs and core pipelines
    assert dataclasses.replace(GTX480, name="custom", l2=a.l2, dram=a.dram, icnt=a.icnt,
                               pipelines=a.pipelines, l1d=a.l1d) == a


def test_configs_are_immutable():
    with pytest.raises(dataclasses.FrozenInstanceError):
        GTX480.sm.n_sms = 3  # type: ignore[misc]


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_preset_round_trips_through_dict_and_json(name):
    cfg = PRESETS[name]
    data = cfg.to_dict()
    again = GPUConfig.from_dict(json.loads(json.dumps(data)))
    assert again == cfg
    assert again.config_hash() == cfg.config_hash()
    assert again.to_dict() == data


def test_from_dict_takes_defaults_for_absent_keys():
    cfg = GPUConfig.from_dict({"name": "x", "sm": {"n_sms": 4}})
    assert cfg.sm.n_sms == 4
    assert cfg.regfile == RegFileConfig()


def test_config_hash_changes_with_any_field():
    base = GTX480.config_hash()
    assert len(base) == 64 and int(base, 16) >= 0
    changed = dataclasses.replace(GTX480, dram=dataclasses.replace(GTX480.dram, t_cl_cycles=13))
    assert changed.config_hash() != base
    assert dataclasses.replace(GTX480, name="other").config_hash() != base


def test_int_and_float_clock_give_the_same_hash():
    a = dataclasses.replace(GTX480, clocks=ClockConfig(core_mhz=700))
    assert a == GTX480 and a.config_hash() == GTX480.config_hash()


def _hashes_in_subprocess(seed: str) -> dict[str, str]:
    code = ("import json; from warpsim.arch import PRESETS; "
            "print(json.dumps({k: v.config_hash() for k, v in PRESETS.items()}))")
    env = dict(os.environ, PYTHONHASHSEED=seed)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT, env=env)
    return json.loads(out.stdout)


def test_config_hash_is_identical_across_processes():
    first = _hashes_in_subprocess("1")
    second = _hashes_in_subprocess("12345")
    assert first == second
    assert set(first) == set(PRESETS)
    assert len(set(first.values())) == len(first)  # presets are distinct


# -- validation ------------------------------------------------------------------------------

def _error(fn, *args, **kwargs) -> ConfigError:
    with pytest.raises(ConfigError) as info:
        fn(*args, **kwargs)
    return info.value


def test_bad_bank_count_names_dotted_path_and_value():
    err = _error(RegFileConfig, n_banks=0)
    assert err.field == "regfile.n_banks" and err.value == 0
    assert "regfile.n_banks = 0" in err.message and ">= 1" in err.message


def test_warp_size_must_be_a_power_of_two():
    err = _error(SMConfig, n_threads_per_warp=24, n_max_threads=48)
    assert err.field == "sm.n_threads_per_warp" and err.value == 24
    assert "power of two" in err.expected


def test_wrong_type_is_rejected_not_coerced():
    err = _error(SMConfig, n_sms="15")
    assert err.field == "sm.n_sms" and err.value == "15" and "int" in err.expected
    err = _error(SMConfig, sub_core_model=1)
    assert err.field == "sm.sub_core_model"
    assert _error(SMConfig, n_sms=True).field == "sm.n_sms"


def test_policy_must_be_an_enum_member():
    err = _error(SMConfig, sched_policy="gto")
    assert err.field == "sm.sched_policy"


def test_cache_geometry_must_divide():
    err = _error(L1DConfig, size_bytes=16384, ways=3)
    assert err.field == "l1d.size_bytes" and err.value == 16384
    assert "384" in err.expected  # line_bytes x ways = 128 x 3
    assert _error(L1DConfig, line_bytes=96).field == "l1d.line_bytes"
    assert _error(L1DConfig, sector_bytes=256).field == "l1d.sector_bytes"


def test_shared_cta_limit_cannot_exceed_size():
    err = _error(SharedMemConfig, size_bytes=16384, cta_limit_bytes=49152)
    assert err.field == "shmem.cta_limit_bytes" and err.value == 49152


def test_dram_trc_below_tras_plus_trp_is_accepted():
    # GPGPU-Sim 4.2 checks no such rule; its SM75_RTX2060 sets RC 78 < RAS 55 + RP 24
    assert DRAMConfig(t_rc_cycles=30).t_rc_cycles == 30


def test_dram_bank_groups_divide_banks():
    assert _error(DRAMConfig, n_banks=16, n_bank_groups=3).field == "dram.n_bank_groups"


def test_clock_must_be_positive():
    err = _error(ClockConfig, core_mhz=0.0)
    assert err.field == "clocks.core_mhz" and err.value == 0.0


def test_shared_class_errors_are_relative_until_placed():
    err = _error(PipeConfig, latency_cycles=0)
    assert err.field == "latency_cycles"
    err = _error(GPUConfig.from_dict, {"pipelines": {"sfu": {"latency_cycles": 0}}})
    assert err.field == "pipelines.sfu.latency_cycles" and err.value == 0
    err = _error(GPUConfig.from_dict,
                 {"regfile": {"oc_sp": {"n_collector_units": 2, "n_in_ports": 0}}})
    assert err.field == "regfile.oc_sp.n_in_ports"


def test_collector_set_needs_ports():
    assert _error(CollectorSetConfig, n_collector_units=4).field == "n_in_ports"


def test_specialised_collectors_required_without_generic_ones():
    empty = CollectorSetConfig()
    err = _error(RegFileConfig, oc_sfu=empty)
    assert err.field == "regfile.oc_sfu.n_collector_units" and err.value == 0
    gen = CollectorSetConfig(n_collector_units=8, n_in_ports=8, n_out_ports=8)
    RegFileConfig(oc_sp=empty, oc_sfu=empty, oc_mem=empty, oc_gen=gen)  # valid


def test_registers_must_split_evenly_over_banks():
    err = _error(dataclasses.replace, GTX480, regfile=RegFileConfig(n_banks=3))
    assert err.field == "regfile.n_banks" and err.value == 3
    assert "sm.n_registers" in err.expected


def test_sub_core_banks_must_split_over_schedulers():
    sm = dataclasses.replace(GTX480.sm, n_schedulers=4, sub_core_model=True)
    err = _error(dataclasses.replace, GTX480, sm=sm, regfile=RegFileConfig(n_banks=2))
    assert err.field == "regfile.n_banks"


def test_two_level_active_warps_bounded_by_warps_per_scheduler():
    err = _error(SMConfig, sched_policy=arch.SchedPolicy.TWO_LEVEL,
                 n_two_level_active_warps=25)
    assert err.field == "sm.n_two_level_active_warps" and "24" in err.expected


def test_fallback_pipes_need_units():
    pipes = dataclasses.replace(GTX480.pipelines.sfu, n_units=0)
    err = _error(dataclasses.replace, GTX480.pipelines, sfu=pipes)
    assert err.field == "pipelines.sfu.n_units"


def test_unknown_key_in_from_dict_suggests_close_match():
    err = _error(GPUConfig.from_dict, {"regfile": {"nbanks": 8}})
    assert err.field == "regfile.nbanks"
    assert "n_banks" in err.message and "did you mean" in err.message


def test_latency_list_length_checked():
    err = _error(PipeConfig, op_latency_cycles=(1, 2, 3))
    assert err.field == "op_latency_cycles"


def test_cache_derived_properties():
    c = CacheConfig(size_bytes=32768, line_bytes=128, ways=64, sector_bytes=32)
    assert c.n_sets == 4 and c.is_sectored
    assert not CacheConfig().is_sectored


def test_docs_list_every_field_option_and_preset():
    text = (ROOT / "docs" / "configuration.md").read_text()
    missing = [p for p in arch.field_paths(GPUConfig) if f"`{p}`" not in text]
    missing += [o for o in arch.OPTION_TABLE if f"`{o}`" not in text]
    missing += [n for n in PRESETS if f"`{n}`" not in text]
    assert not missing, f"docs/configuration.md lacks: {missing}"


def test_field_name_checker_for_mechanism_configs_agrees():
    from warpsim.arch.schema import field_name_problems

    for cls in _config_classes():
        assert field_name_problems(cls) == []

    @dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
    class Bad(ConfigBase):
        banks: int = 4
        """no unit"""
        rb_entries: int = 256
        """fine"""

    assert field_name_problems(Bad) == ["Bad.banks"]
