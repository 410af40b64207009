"""Sweep descriptions: grid expansion, YAML/TOML, stable job ids, errors that name the key."""

from __future__ import annotations

import hashlib
import json

import pytest

from warpsim.arch import resolve_config
from warpsim.errors import ConfigError
from warpsim.runner.jobs import Job
from warpsim.runner.sweep import load_sweep, parse_sweep

SPEC = {
    "name": "grid",
    "benchmarks": ["a", "bb"],
    "sizes": ["tiny"],
    "seeds": [0, 1],
    "base": {"gpu": "gtx480", "overrides": {"sm.n_schedulers": 2}},
    "configs": {"base": {}, "banks32": {"overrides": {"regfile.n_banks": 32}}},
    "grid": {"regfile.n_read_ports_per_bank": [1, 2]},
    "mechanisms": ["baseline", {"fake": {"entries": [4, 8]}}],
}


def _parse(data: dict) -> object:
    return parse_sweep(data, check_benchmarks=False)


@pytest.fixture
def fake_mechanisms(monkeypatch):
    """A mechanism registry of names only (``fake``, ``wir``, ``warped_compression``)."""
    import types

    import warpsim.mechanisms

    fake = {n: types.SimpleNamespace(NAME=n, Config=None)
            for n in ("fake", "wir", "warped_compression")}
    monkeypatch.setattr(warpsim.mechanisms, "REGISTRY", fake)


def test_grid_expands_to_the_cartesian_product(fake_mechanisms):
    jobs = _parse(SPEC).jobs()
    # 2 benchmarks x 1 size x 2 seeds x 2 configs x 2 grid points x (1 baseline + 2 fake)
    assert len(jobs) == 2 * 2 * 2 * 2 * 3
    assert len({j.job_id for j in jobs}) == len(jobs)
    labels = {j.label for j in jobs}
    assert labels == {"base[n_read_ports_per_bank=1]", "base[n_read_ports_per_bank=2]",
                      "banks32[n_read_ports_per_bank=1]", "banks32[n_read_ports_per_bank=2]"}
    banks32 = next(j for j in jobs if j.label.startswith("banks32"))
    assert dict(banks32.overrides) == {"sm.n_schedulers": 2, "regfile.n_banks": 32,
                                       "regfile.n_read_ports_per_bank": banks32.overrides[1][1]}
    mechs = {j.mechanisms for j in jobs}
    assert mechs == {(), (("fake", (("entries", 4),)),), (("fake", (("entries", 8),)),)}


def test_jobs_sharing_a_functional_run_are_adjacent(fake_mechanisms):
    keys = [j.functional_key for j in _parse(SPEC).jobs()]
    firsts = [k for i, k in enumerate(keys) if i == 0 or keys[i - 1] != k]
    assert len(firsts) == len(set(keys)) == 4


def test_job_id_hashes_workload_mechanisms_and_resolved_config_not_the_label():
    job = Job(benchmark="bfs", size="tiny", gpu="gtx480",
              overrides=(("regfile.n_banks", 32), ("sm.n_schedulers", 2)), seed=3, label="x")
    cfg = resolve_config("gtx480", overrides={"regfile.n_banks": 32, "sm.n_schedulers": 2})
    text = json.dumps({"benchmark": "bfs", "config_hash": cfg.config_hash(),
                       "mechanisms": [], "seed": 3, "size": "tiny"},
                      sort_keys=True, separators=(",", ":"))
    assert job.job_id == hashlib.sha256(text.encode()).hexdigest()[:20]
    spelled = Job(benchmark="bfs", gpu="gtx480", seed=3,
                  overrides=(("regfile.n_banks", "32"), ("sm.n_schedulers", 2)))
    assert spelled.job_id == job.job_id  # one configuration, two spellings
    reordered = Job(benchmark="bfs", gpu="gtx480", seed=3, label="other",
                    overrides=(("sm.n_schedulers", 2), ("regfile.n_banks", 32)))
    assert reordered.job_id == job.job_id and reordered == job
    with_mech = Job(benchmark="bfs", gpu="gtx480", seed=3, overrides=job.overrides,
                    mechanisms=(("wir", (("rb_entries", 512),)),))
    assert with_mech.job_id != job.job_id
    assert Job(benchmark="bfs", seed=4).job_id != Job(benchmark="bfs", seed=3).job_id
    assert Job.from_dict(job.to_dict()) == job and Job.from_dict(job.to_dict()).label == "x"


def test_yaml_and_toml_files_give_the_same_jobs(tmp_path):
    yaml_file = tmp_path / "s.yaml"
    yaml_file.write_text(
        "name: files\nbenchmarks: [a, b]\nseeds: [0, 2]\n"
        "configs:\n  base: {}\n  wide: {overrides: {sm.n_schedulers: 4}}\n")
    toml_file = tmp_path / "s.toml"
    toml_file.write_text(
        'name = "files"\nbenchmarks = ["a", "b"]\nseeds = [0, 2]\n'
        '[configs.base]\n[configs.wide.overrides]\n"sm.n_schedulers" = 4\n')
    a = load_sweep(yaml_file, check_benchmarks=False).jobs()
    b = load_sweep(toml_file, check_benchmarks=False).jobs()
    assert [j.job_id for j in a] == [j.job_id for j in b]
    assert len(a) == 8 and {j.label for j in a} == {"base", "wide"}


def test_unknown_top_level_key_names_it_with_a_suggestion():
    with pytest.raises(ConfigError) as info:
        _parse({"benchmark": ["a"]})
    assert info.value.field == "benchmark"
    assert "did you mean 'benchmarks'" in info.value.message


def test_bad_override_names_the_config_and_field():
    data = {"benchmarks": ["a"], "configs": {"odd": {"overrides": {"regfile.n_bankz": 3}}}}
    with pytest.raises(ConfigError) as info:
        _parse(data)
    assert info.value.field.startswith("configs.odd")
    assert "n_bankz" in info.value.field


def test_unknown_preset_names_the_key():
    with pytest.raises(ConfigError) as info:
        _parse({"benchmarks": ["a"], "base": {"gpu": "gtx9999"}})
    assert info.value.field.startswith("configs.base")
    assert "gtx9999" in info.value.message


@pytest.mark.parametrize("data, field", [
    ({"benchmarks": ["a"], "grid": {"regfile.n_banks": 16}}, "grid.regfile.n_banks"),
    ({"benchmarks": ["a"], "seeds": ["x"]}, "seeds"),
    ({"benchmarks": ["a"], "sizes": ["huge"]}, "sizes[0]"),
    ({"benchmarks": []}, "benchmarks"),
    ({"benchmarks": ["a"], "mechanisms": [3]}, "mechanisms[0]"),
    ({"benchmarks": ["a"], "configs": {"x": {"gpu": "gtx480", "colour": 1}}},
     "configs.x.colour"),
])
def test_malformed_values_name_their_key(data, field):
    with pytest.raises(ConfigError) as info:
        _parse(data)
    assert info.value.field == field


def test_identical_configurations_are_rejected():
    data = {"benchmarks": ["a"], "configs": {"one": {}, "two": {"gpu": "gtx480"}}}
    with pytest.raises(ConfigError, match="differ"):
        _parse(data).jobs()


def test_unknown_benchmark_is_rejected_against_the_suite():
    import warpsim.bench as bench

    with pytest.raises(ConfigError) as info:
        parse_sweep({"benchmarks": [next(iter(bench.BENCHMARKS)), "no_such_benchmark"]})
    assert info.value.field == "benchmarks[1]"


def test_missing_file_is_a_config_error(tmp_path):
    with pytest.raises(ConfigError, match="sweep file"):
        load_sweep(tmp_path / "absent.yaml")


def test_example_sweep_file_parses():
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "examples" / "sweep-quick.yaml"
    spec = load_sweep(path, check_benchmarks=False)
    assert spec.sizes == ("tiny",) and len(spec.configs) == 2 and len(spec.benchmarks) >= 2


def test_mechanism_names_and_fields_are_checked_against_the_registry(monkeypatch):
    import dataclasses
    import types

    import warpsim.mechanisms

    @dataclasses.dataclass(frozen=True)
    class Config:
        rb_entries: int = 256

    fake = {"wir": types.SimpleNamespace(NAME="wir", Config=Config)}
    monkeypatch.setattr(warpsim.mechanisms, "REGISTRY", fake, raising=False)
    ok = _parse({"benchmarks": ["a"], "mechanisms": ["baseline", {"wir": {"rb_entries": [8]}}]})
    assert len(ok.jobs()) == 2
    with pytest.raises(ConfigError) as info:
        _parse({"benchmarks": ["a"], "mechanisms": ["wir", "regless"]})
    assert info.value.field == "mechanisms[1]" and "wir" in info.value.message
    with pytest.raises(ConfigError) as info:
        _parse({"benchmarks": ["a"], "mechanisms": [{"wir": {"rb_entriez": 8}}]})
    assert info.value.field == "mechanisms[0].wir.rb_entriez"
    assert "rb_entries" in info.value.message


def test_the_example_in_docs_runner_md_is_a_valid_sweep(fake_mechanisms):
    import re
    from pathlib import Path

    import yaml

    doc = (Path(__file__).resolve().parents[2] / "docs" / "runner.md").read_text()
    block = re.search(r"```yaml\n(.*?)```", doc, re.S).group(1)
    spec = _parse(yaml.safe_load(block))
    # 3 benchmarks x (3 configs x 2 grid points) x (1 + 1 + 1 + 2 + 1 mechanism sets)
    assert len(spec.jobs()) == 3 * 6 * 6
