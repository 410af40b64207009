"""The Warped-Compression register-file energy equations (spec §6.4-§6.5, §7) against values
computed by hand from Table 3 (7 pJ access, 9.6 pJ/mm wire at 50 %, 5.8 mW/bank, 23/21 pJ,
0.12/0.08 mW, 1.4 GHz)."""

from __future__ import annotations

import pytest

from warpsim.errors import ConfigError
from warpsim.experiments.wc_energy import (
    RFEnergyParams,
    baseline_rf_energy,
    energy_savings,
    wc_rf_energy,
)

P = RFEnergyParams()


def test_table3_per_event_energies():
    assert P.bank_pj == pytest.approx(16.6)                    # 7 + 9.6
    assert P.replace(wire_activity_frac=1.0).bank_pj == pytest.approx(26.2)   # 7 + 19.2
    assert P.replace(wire_activity_frac=0.0).bank_pj == pytest.approx(7.0)
    assert P.replace(access_scale=2.5).bank_pj == pytest.approx(41.5)
    # one SM, one cycle, no access: 32 banks x 5.8 mW x 0.714 ns = 132.57 pJ (spec §6.4)
    e = baseline_rf_energy({"regfile_bank_reads": 0, "regfile_bank_writes": 0,
                            "gpu_tot_sim_cycle": 1}, P, 1)
    assert e.leakage_pj == pytest.approx(132.5714, rel=1e-5)


def test_spec_access_table():
    """Spec §6.4: a <4,1> read with decompression is 70.8 pJ, a <4,2> write with compression
    106.0 pJ, an uncompressed write with a failed compression 155.8 pJ."""
    def wc(reads, writes, comp, decomp):
        return wc_rf_energy({"wc_bank_reads": reads, "wc_bank_writes": writes,
                             "wc_comp_activations": comp, "wc_decomp_activations": decomp,
                             "gpu_tot_sim_cycle": 0, "wc_bank_cycles": 0}, P, 1)
    assert wc(3, 0, 0, 1).total_pj == pytest.approx(70.8)
    assert wc(0, 5, 1, 0).total_pj == pytest.approx(106.0)
    assert wc(0, 8, 1, 0).total_pj == pytest.approx(155.8)


BASE = {"regfile_bank_reads": 100, "regfile_bank_writes": 50, "gpu_tot_sim_cycle": 1400}
WC = {"wc_bank_reads": 300, "wc_bank_writes": 200, "wc_comp_activations": 50,
      "wc_decomp_activations": 40, "gpu_tot_sim_cycle": 1400, "wc_bank_cycles": 32 * 1400,
      "wc_gated_bank_cycles": 4480, "wc_gated_bank_cycles_resident": 2240, "wc_wakeups": 3}


def test_baseline_and_wc_energy_by_hand():
    base = baseline_rf_energy(BASE, P, 1)
    assert base.dynamic_pj == pytest.approx(8 * 150 * 16.6)            # 19920
    assert base.leakage_pj == pytest.approx(32 * 5.8 * 1000.0)         # 1 us: 185600
    assert base.comp_pj == base.decomp_pj == 0
    wc = wc_rf_energy(WC, P, 1)
    assert wc.dynamic_pj == pytest.approx(500 * 16.6)                  # 8300
    assert wc.comp_pj == pytest.approx(50 * 23.0)
    assert wc.decomp_pj == pytest.approx(40 * 21.0)
    leak = 5.8 * (44800 - 4480) / 1.4 + 0.56 * 1000.0                  # 167040 + 560
    assert wc.leakage_pj == pytest.approx(leak)
    s = energy_savings(base, wc)
    assert s["total"] == pytest.approx(1 - (8300 + 1150 + 840 + 167600) / (19920 + 185600))
    assert s["dynamic"] == pytest.approx(1 - 10290 / 19920)
    assert s["bank_wire"] == pytest.approx(1 - 8300 / 19920)
    assert s["leakage"] == pytest.approx(1 - 167600 / 185600)
    res = wc_rf_energy(WC, P, 1, resident_only=True)
    assert res.leakage_pj == pytest.approx(5.8 * (44800 - 2240) / 1.4 + 560.0)


def test_knobs_scale_the_right_terms():
    wc = wc_rf_energy(WC, P.replace(comp_scale=2.5, gated_leak_frac=0.5, wakeup_pj=10.0), 1)
    assert wc.comp_pj == pytest.approx(50 * 57.5)
    assert wc.decomp_pj == pytest.approx(40 * 52.5)
    assert wc.leakage_pj == pytest.approx(5.8 * (44800 - 0.5 * 4480) / 1.4 + 560.0)
    assert wc.dynamic_pj == pytest.approx(500 * 16.6 + 30.0)
    # two SMs: baseline leakage doubles, accesses do not
    assert baseline_rf_energy(BASE, P, 2).leakage_pj == pytest.approx(2 * 185600)
    # a 700 MHz clock doubles leakage time
    assert baseline_rf_energy(BASE, P.replace(clock_mhz=700.0), 1).leakage_pj == \
        pytest.approx(2 * 185600)


def test_params_from_a_config_section():
    p = RFEnergyParams.from_config({"energy_clock_mhz": 700.0, "comp_pj": 30.0,
                                    "enabled": True, "scheme": "wc"})
    assert (p.clock_mhz, p.comp_pj, p.decomp_pj) == (700.0, 30.0, 21.0)
    with pytest.raises(ConfigError):
        RFEnergyParams(bank_leak_mw=-1.0)
    with pytest.raises(ConfigError):
        RFEnergyParams(clock_mhz=0.0)


def test_missing_counter_is_a_clear_error():
    with pytest.raises(ConfigError, match="regfile_bank_reads"):
        baseline_rf_energy({"gpu_tot_sim_cycle": 5}, P, 1)
