"""The --energy text table and the stacked-bar plot helper."""

from __future__ import annotations

import pytest

from warpsim.errors import ConfigError
from warpsim.power import (
    GTX480_GPUWATTCH,
    energy,
    format_energy_table,
    plot_energy_breakdown,
)

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _run(reads: int):
    return energy({"regfile_granule_reads": reads, "decode_insts": 100,
                   "exec_int32_warp_insts": 50, "dram_read_bytes": 128},
                  GTX480_GPUWATTCH, cycles=1000, clock_mhz=700.0, n_sms=15,
                  n_rf_banks_per_sm=32, active_sm_cycles=5000)


def test_format_energy_table_lists_components_totals_and_power():
    text = format_energy_table(_run(800))
    assert "register_file" in text and "constant" in text and "total" in text
    assert "average power" in text and " W" in text
    assert "texture_cache" not in text
    assert "texture_cache" in format_energy_table(_run(800), show_zero=True)


def test_plot_writes_a_png_one_bar_per_run(tmp_path):
    out = plot_energy_breakdown([_run(800), _run(400).to_dict()], tmp_path / "e.png",
                                labels=["base", "half RF"])
    data = out.read_bytes()
    assert data.startswith(PNG_MAGIC) and len(data) > 1000


def test_plot_accepts_records_and_normalises_to_a_baseline(tmp_path):
    runs = {"base": {"energy": _run(800).to_dict()}, "mech": {"energy": _run(100)}}
    out = plot_energy_breakdown(runs, tmp_path / "sub" / "n.png", baseline=0,
                                split_static=True, title="relative")
    assert out.read_bytes().startswith(PNG_MAGIC)
    out2 = plot_energy_breakdown(runs, tmp_path / "s.png", normalize=True)
    assert out2.stat().st_size > 1000


def test_plot_rejects_bad_input(tmp_path):
    with pytest.raises(ConfigError):
        plot_energy_breakdown([], tmp_path / "x.png")
    with pytest.raises(ConfigError):
        plot_energy_breakdown([{"no": "energy"}], tmp_path / "x.png")
    with pytest.raises(ConfigError):
        plot_energy_breakdown([_run(1)], tmp_path / "x.png", labels=["a", "b"])
