"""The WIR reproduction's figures (``wir_figures``) from hand-made summaries (no simulation):
each figure's bars / lines and their heights, read from the Axes before saving, and the PNG
files written next to summary.json."""

from __future__ import annotations

import json
import math

import pytest

from warpsim.experiments import wir_figures as wf
from warpsim.experiments.wir import _with_figures


def _row(speedup: float, sm: float, gpu: float, comps: dict | None = None) -> dict:
    return {"speedup": speedup, "sm_energy_saving": sm, "gpu_energy_saving": gpu,
            "energy_by_component_j": comps or {}}


def _summary(components: bool = False, sweeps: bool = True) -> dict:
    base_a = {"alu": 6.0, "dram": 4.0} if components else {}
    base_b = {"alu": 2.0, "dram": 2.0} if components else {}
    per = {
        "hotspot": {"paper_benchmark": "HS", "repeated_fraction": 0.40,
                    "repeated_gt10_fraction": 0.20, "energy_by_component_j_base": base_a,
                    "R": _row(1.0, 0.0, 0.0), "RLPV": _row(2.0, 0.30, 0.20,
                                                           {"alu": 4.0, "dram": 4.0}),
                    "RPV": _row(1.0, 0.10, 0.05, {"alu": 5.0, "dram": 4.5}),
                    "Affine": {"sm_energy_saving": 0.10}},
        "srad": {"paper_benchmark": "S2", "repeated_fraction": 0.20,
                 "repeated_gt10_fraction": 0.10, "energy_by_component_j_base": base_b,
                 "R": _row(0.8, -0.1, 0.0), "RLPV": _row(0.9, -0.10, -0.05,
                                                         {"alu": 2.0, "dram": 2.2}),
                 "RPV": _row(1.0, 0.0, 0.0, {"alu": 2.0, "dram": 2.0}),
                 "Affine": {"sm_energy_saving": 0.30}},
    }
    s: dict = {"per_benchmark": per}
    if sweeps:
        s["sweeps"] = {
            "vsb_entries": {"0": {"vsb_hit_rate": 0.0}, "64": {"vsb_hit_rate": 0.25},
                            "128": {"vsb_hit_rate": 0.5}},
            "rb_entries": {"32": {"reused_fraction": 0.05}, "256": {"reused_fraction": 0.15}},
            "extra_delay_cycles": {str(d): {"speedup_geomean": 1.1 - 0.05 * d}
                                   for d in (3, 4, 5, 6, 7)},
        }
    return s


def _heights(fig) -> list[float]:
    return [p.get_height() for p in fig.axes[0].patches]


def _close(figs) -> None:
    import matplotlib.pyplot as plt

    for f in figs.values():
        plt.close(f)


def test_bar_figures_have_one_bar_per_design_and_benchmark_plus_average():
    figs = wf.draw_figures(_summary())
    try:
        assert set(figs) == set(wf.FIGURES)
        # Fig. 2: two series x (2 benchmarks + AVG), in %; AVG = (40 + 20) / 2
        assert _heights(figs["fig02_repeated"]) == pytest.approx([40, 20, 30, 20, 10, 15])
        # Fig. 17: R and RLPV are in every benchmark (RL, RLP are not): GM of 2.0 and 0.9
        assert _heights(figs["fig17_speedup"]) == pytest.approx(
            [1.0, 0.8, math.sqrt(0.8), 2.0, 0.9, math.sqrt(1.8)])
        # Fig. 16: Affine, RPV, RLPV (no Affine+RLPV): 1 - saving, arithmetic mean last
        assert _heights(figs["fig16_sm_energy"]) == pytest.approx(
            [0.9, 0.7, 0.8, 0.9, 1.0, 0.95, 0.7, 1.1, 0.9])
        # Fig. 14 without components: Base 1, RPV and RLPV 1 - GPU saving, per benchmark
        assert _heights(figs["fig14_gpu_energy"]) == pytest.approx(
            [1.0, 1.0, 0.95, 1.0, 0.8, 1.05])
        labels = [t.get_text() for t in figs["fig17_speedup"].axes[0].get_xticklabels()]
        assert labels == ["HS", "S2", "GM"]
    finally:
        _close(figs)


def test_gpu_energy_is_stacked_by_component_relative_to_base_total():
    fig = wf.fig14_gpu_energy(_summary(components=True))
    try:
        bars = fig.axes[0].patches   # 3 designs x 2 components x 2 benchmarks
        assert len(bars) == 12
        tops = {}
        for p in bars:
            x = round(p.get_x() + p.get_width() / 2, 6)
            tops[x] = max(tops.get(x, 0.0), p.get_y() + p.get_height())
        # Base 1, RPV 9.5/10 and 4/4, RLPV 8/10 and 4.2/4 (ordered by x)
        assert [tops[x] for x in sorted(tops)] == pytest.approx([1.0, 0.95, 0.8, 1.0, 1.0, 1.05])
    finally:
        import matplotlib.pyplot as plt

        plt.close(fig)


def test_sweeps_are_lines_over_the_swept_size():
    s = _summary()
    figs = {k: wf.FIGURES[k](s) for k in ("fig20_vsb_entries", "fig21_rb_entries",
                                          "fig22_extra_delay")}
    try:
        (vsb,) = figs["fig20_vsb_entries"].axes[0].get_lines()
        assert list(vsb.get_ydata()) == pytest.approx([0.0, 25.0, 50.0])
        (rb,) = figs["fig21_rb_entries"].axes[0].get_lines()
        assert list(rb.get_ydata()) == pytest.approx([5.0, 15.0])
        ax = figs["fig22_extra_delay"].axes[0]
        assert [t.get_text() for t in ax.get_xticklabels()] == ["D3", "D4", "D5", "D6", "D7"]
        line = ax.get_lines()[0]    # then the y = 1 reference
        assert list(line.get_ydata()) == pytest.approx([0.95, 0.9, 0.85, 0.8, 0.75])
    finally:
        _close(figs)


def test_files_written_next_to_summary_and_sweeps_only_when_present(tmp_path):
    res = _with_figures(_summary(sweeps=False), tmp_path)
    names = sorted(p.rsplit("/", 1)[-1] for p in res["figures"])
    assert names == ["fig02_repeated.png", "fig14_gpu_energy.png", "fig16_sm_energy.png",
                     "fig17_speedup.png"]
    for p in res["figures"]:
        assert (tmp_path / "figures" / p.rsplit("/", 1)[-1]).read_bytes()[:4] == b"\x89PNG"
    assert json.loads((tmp_path / "summary.json").read_text())["figures"] == res["figures"]
    full = wf.write_figures(_summary(), tmp_path / "full")
    assert len(full) == 7 and all(p.stat().st_size > 0 for p in full)
