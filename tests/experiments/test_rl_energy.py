"""RegLess energy (``experiments/rl_energy.py``) against hand arithmetic on the GPUWattch GTX480
table of the gtx980 preset: 8 granules per 1024-bit bank access, 29.08 / 23.96 pJ per granule
read / write, 3.26 mW per 4 KB bank (64 per SM), 16 SMs, 11 W constant power, and 1126 cycles
at 1126 MHz = 1 us."""

from __future__ import annotations

import math

import pytest

from warpsim.arch import resolve_config
from warpsim.errors import ConfigError
from warpsim.experiments.rl_energy import osu_ratio, regless_energy
from warpsim.mechanisms.registry import energy_mechanisms
from warpsim.power import energy_for_gpu

BASE = {"gpu_sim_cycle": 1126, "regfile_bank_reads": 1000, "regfile_bank_writes": 500}
RL = {**BASE, "rl_preload_mem": 10, "rl_evictions_dirty": 5, "rl_compressor_ops": 20,
      "rl_meta_words": 100, "rl_line_loads": 10, "rl_line_stores": 5}

RF_LEAK = 3.26e-3 * 64 * 16 * 1e-6          # J: every bank of every SM for 1 us
RF_BASE = (8000 * 29.08 + 4000 * 23.96) * 1e-12 + RF_LEAK
RF_RL = ((8000 + 8 * 5) * 29.08 + (4000 + 8 * 10) * 23.96) * 1e-12 + RF_LEAK  # + read-outs, fills
OSU = 0.245 * RF_RL                          # 0.94 x 512 / 2048 + 0.01
COMP = 20 * 4.65e-12 + 6.5e-3 * 16 * 1e-6
META = 100 * 67.0e-12
CONST = 11.0 * 1e-6


def _cfgs(**over):
    ov = ["regless.enabled=true", *(f"regless.{k}={v}" for k, v in over.items())]
    return resolve_config("gtx980"), resolve_config("gtx980", overrides=ov)


def test_register_structures_and_gpu_energy_by_hand():
    base, rl = _cfgs()
    e = regless_energy(BASE, RL, base, rl)
    assert math.isclose(e.rf_base_j, RF_BASE, rel_tol=1e-9)
    assert math.isclose(e.osu_j, OSU, rel_tol=1e-9)
    assert math.isclose(e.compressor_j, COMP, rel_tol=1e-9)
    assert math.isclose(e.meta_j, META, rel_tol=1e-9)
    assert math.isclose(e.rf_energy_saving, 1 - (OSU + COMP + META) / RF_BASE, rel_tol=1e-9)
    assert math.isclose(e.gpu_base_j, CONST + RF_BASE, rel_tol=1e-9)
    assert math.isclose(e.gpu_j, CONST + OSU + COMP + META, rel_tol=1e-9)
    assert math.isclose(e.no_rf_bound, RF_BASE / (CONST + RF_BASE), rel_tol=1e-9)
    assert math.isclose(e.reg_l1_j, (10 * 2935.0 + 5 * 220.0) * 1e-12, rel_tol=1e-9)


def test_energy_fields_change_the_numbers():
    base, rl = _cfgs(osu_energy_ratio=0.5, compressor_pj=0, compressor_leak_mw=0, meta_word_pj=1)
    e = regless_energy(BASE, RL, base, rl)
    assert math.isclose(e.osu_j, 0.5 * RF_RL, rel_tol=1e-9)
    assert e.compressor_j == 0 and math.isclose(e.meta_j, 100e-12)
    assert osu_ratio(resolve_config("gtx980", overrides=["regless.entries_per_sm=128"]).regless) \
        == pytest.approx(0.069, abs=5e-4)
    with pytest.raises(ConfigError):
        resolve_config("gtx980", overrides=["regless.compressor_pj=-1"])


def test_the_energy_model_charges_the_declared_units():
    # the mechanism's ENERGY/STATIC pairs: the "regless" component = compressor + metadata
    _, rl = _cfgs()
    bd = energy_for_gpu(RL, rl)
    assert [m.NAME for m, _ in energy_mechanisms(rl)] == ["regless"]
    assert math.isclose(bd.by_component_j["regless"], COMP + META, rel_tol=1e-9)


def test_rfv_is_the_scaled_file_alone():
    # RFV at 1024 entries: ratio 0.94 / 2 + 0.01 = 0.48 of its register file, no compressor
    # or metadata energy (the paper's "negligible cost for the rename table and metadata")
    base, rl = _cfgs(design="rfv", entries_per_sm=1024)
    e = regless_energy(BASE, BASE, base, rl)
    assert math.isclose(e.osu_j, 0.48 * RF_BASE, rel_tol=1e-9)
    assert e.compressor_j == 0 and e.meta_j == 0
    assert math.isclose(e.gpu_j, CONST + 0.48 * RF_BASE, rel_tol=1e-9)
    with pytest.raises(ConfigError):
        resolve_config("gtx980", overrides=["regless.design=rfh"])


def test_rfh_energy_by_hand():
    # the RFH run = BASE's counters: 1000 operand reads (8000 granules), 500 values (4000);
    # the compiler moved 600 reads and 300 writes off the MRF: 400 MRF reads, 250 MRF writes
    # (50 values both in the ORF and the MRF), 500 ORF and 100 LRF reads, 300 ORF and 50 LRF
    # writes
    from warpsim.experiments.rl_energy import rfh_access_saving, rfh_energy

    acc = {"mrf_reads": 400, "orf_reads": 500, "lrf_reads": 100, "mrf_writes": 250,
           "orf_writes": 300, "lrf_writes": 50, "values": 500}
    base = resolve_config("gtx980")
    e = rfh_energy(BASE, BASE, acc, base, base)
    e_rd, e_wr = 8 * 29.08e-12, 8 * 23.96e-12        # per operand read / value written
    rs = (RF_LEAK + 400 * e_rd + 250 * e_wr + e_rd * (0.1 * 800 + 0.03 * 150))
    assert math.isclose(e.osu_j, rs, rel_tol=1e-9)
    assert math.isclose(e.rf_energy_saving, 1 - rs / RF_BASE, rel_tol=1e-9)
    assert math.isclose(e.gpu_j, CONST + rs, rel_tol=1e-9)
    access = 400 * e_rd + 250 * e_wr + e_rd * (0.1 * 800 + 0.03 * 150)
    assert math.isclose(rfh_access_saving(BASE, acc, base),
                        1 - access / (1000 * e_rd + 500 * e_wr), rel_tol=1e-9)
