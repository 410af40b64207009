"""resolve_config: preset, then gpgpusim.config, then overrides, in that order."""

from __future__ import annotations

import pytest

from warpsim.arch import C2050, GTX480, resolve_config
from warpsim.errors import ConfigError


def test_preset_name_alone():
    assert resolve_config("c2050") is C2050
    assert resolve_config() is GTX480


def test_overrides_apply_after_the_config_file(tmp_path):
    path = tmp_path / "gpgpusim.config"
    path.write_text("-gpgpu_num_reg_banks 8\n-gpgpu_n_clusters 4\n")
    cfg = resolve_config("gtx480", gpgpusim_config=path, overrides=["regfile.n_banks=32"])
    assert cfg.regfile.n_banks == 32 and cfg.sm.n_sms == 4
    assert cfg.sm.n_registers == GTX480.sm.n_registers


def test_a_config_object_is_a_valid_base():
    assert resolve_config(C2050, overrides={"sm.n_sms": 2}).sm.n_sms == 2


def test_unknown_preset_is_a_config_error():
    with pytest.raises(ConfigError) as info:
        resolve_config("fermi")
    assert "gtx480" in info.value.message
