"""``warpsim locality``: option errors are ConfigErrors (exit 2, no benchmark run); the slow
test runs a tiny benchmark and checks the JSON table and the plot file."""

from __future__ import annotations

import json

import pytest

from warpsim.cli import main


def test_bad_window_list_is_a_config_error(capsys):
    assert main(["locality", "vector_add", "--windows", "1,x"]) == 2
    assert "locality.windows" in capsys.readouterr().err


def test_non_positive_neighbourhood_is_a_config_error(capsys):
    assert main(["locality", "vector_add", "--neighbourhoods", "0,4"]) == 2
    assert "locality.neighbourhoods" in capsys.readouterr().err


@pytest.mark.slow
def test_locality_of_vector_add_json_and_plot(tmp_path, capsys):
    plot = tmp_path / "surface.png"
    assert main(["locality", "vector_add", "--size", "tiny", "--windows", "1,4",
                 "--neighbourhoods", "1,256", "--json", "--plot", str(plot)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["windows"] == [1, 4] and out["neighbourhoods"] == [1, 256]
    # vector_add reads a, b and writes c once: no line is touched twice by the same SM
    assert out["values"][0] == [0.0, 0.0]
    assert out["n_accesses"] > 0 and plot.stat().st_size > 0
