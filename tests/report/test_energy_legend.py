"""The report's energy figure names every component in its legend, even when the first bar
has no value for one, and names GPUWattch's constant power unambiguously."""

from __future__ import annotations

import math

import pandas as pd

from warpsim.report.figures import plot_energy_breakdown


def test_every_component_is_in_the_legend():
    rows = [
        # the first benchmark's baseline bar has no constant-power value
        {"benchmark": "a", "variant": "base", "status": "ok", "energy_constant_pj": math.nan,
         "energy_register_file_pj": 2.0, "energy_total_pj": 2.0},
        {"benchmark": "a", "variant": "wc", "status": "ok", "energy_constant_pj": 1.0,
         "energy_register_file_pj": 1.0, "energy_total_pj": 2.0},
        {"benchmark": "b", "variant": "base", "status": "ok", "energy_constant_pj": 3.0,
         "energy_register_file_pj": 1.0, "energy_total_pj": 4.0},
        {"benchmark": "b", "variant": "wc", "status": "ok", "energy_constant_pj": 3.0,
         "energy_register_file_pj": 0.5, "energy_total_pj": 3.5},
    ]
    fig = plot_energy_breakdown(pd.DataFrame(rows), "base")
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert sorted(labels) == ["constant power (chip)", "register_file"]
