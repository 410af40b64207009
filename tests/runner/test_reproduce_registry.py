"""The reproduction registry behind ``warpsim reproduce PAPER [--quick]``."""

from __future__ import annotations

from pathlib import Path

import pytest

from warpsim.errors import ConfigError
from warpsim.runner import reproduce as rep


@pytest.fixture
def registered():
    calls = []

    def fake_paper(*, quick, out, jobs, dask):
        calls.append((quick, out, jobs, dask))
        return out / "report.html"

    rep.register_reproduction("fakepaper", fake_paper, "Fake et al. 2020, Fig. 1")
    yield calls
    rep.unregister_reproduction("fakepaper")


def test_unknown_name_lists_what_is_registered(registered):
    with pytest.raises(ConfigError) as info:
        rep.reproduce("nosuch")
    assert info.value.field == "reproduce"
    assert "fakepaper" in info.value.message


def test_empty_registry_says_none_is_registered():
    names = [r.name for r in rep.list_reproductions()]
    for name in names:  # hide real registrations for this check
        assert name
    saved = dict(rep._REGISTRY)
    rep._REGISTRY.clear()
    try:
        with pytest.raises(ConfigError, match="none yet"):
            rep.reproduce("wir")
        assert rep.list_reproductions() == []
    finally:
        rep._REGISTRY.update(saved)


def test_reproduce_calls_the_registered_function(registered, tmp_path):
    assert rep.reproduce("fakepaper", quick=True, out=tmp_path, jobs=2) == tmp_path / \
        "report.html"
    assert registered == [(True, tmp_path, 2, None)]
    assert [r.name for r in rep.list_reproductions()].count("fakepaper") == 1


def test_registering_a_name_twice_is_refused(registered):
    with pytest.raises(ConfigError, match="fakepaper"):
        rep.register_reproduction("fakepaper", lambda **kw: None, "another")


def test_names_must_be_lower_case_keys():
    with pytest.raises(ConfigError):
        rep.register_reproduction("WIR Paper", lambda **kw: None, "x")


def test_sweep_and_report_runs_quick_sizes_then_reports(tmp_path):
    import sweep_jobfns

    from warpsim.runner.store import load_results

    sweep = {"name": "paper", "benchmarks": ["a", "bb"], "sizes": ["paper"],
             "configs": {"base": {}, "big": {"overrides": {"regfile.n_banks": 32}}}}
    page = rep.sweep_and_report(sweep, quick=True, out=tmp_path, jobs=1,
                                simulate=sweep_jobfns.instant)
    df = load_results(tmp_path)
    assert set(df["size"]) == {"tiny"} and len(df) == 4
    assert page.exists() and "Normalised energy" in page.read_text()
    again = rep.sweep_and_report(sweep, quick=True, out=tmp_path, jobs=1,
                                 simulate=sweep_jobfns.instant)  # resumes: nothing to run
    assert again == page and len(load_results(tmp_path, all_attempts=True)) == 4


def test_cli_says_on_stderr_where_it_wrote(tmp_path, monkeypatch, capsys):
    from warpsim.runner.cli import main

    def writes(*, quick, out, jobs, dask):
        out.mkdir(parents=True)
        (out / "report.html").write_text("<html></html>")
        return out / "report.html"

    rep.register_reproduction("writespaper", writes, "Writes et al. 2021")
    monkeypatch.chdir(tmp_path)
    try:
        assert main(["reproduce", "writespaper", "--quick"]) == 0
    finally:
        rep.unregister_reproduction("writespaper")
    folder = tmp_path / "results" / "reproduce-writespaper-quick"
    assert (folder / "report.html").is_file()
    captured = capsys.readouterr()
    assert captured.err == f"reproduce writespaper: results in {folder.resolve()}\n"
    assert captured.out == f"{Path('results/reproduce-writespaper-quick/report.html')}\n"


def test_reproduce_shows_the_experiments_progress_lines(tmp_path, monkeypatch, capsys):
    """With WARPSIM_PROGRESS=1 (or a terminal) the experiments' INFO lines reach stderr."""
    import logging

    from warpsim.cli import main

    def chatty(*, quick, out, jobs, dask):
        logging.getLogger("warpsim.experiments.chatty").info("chatty: bench 1 of 2")
        return None

    monkeypatch.setenv("WARPSIM_PROGRESS", "1")
    rep.register_reproduction("chatty", chatty, "a paper that says what it runs")
    logger = logging.getLogger("warpsim.experiments")
    before = list(logger.handlers)
    try:
        assert main(["reproduce", "chatty", "--out", str(tmp_path)]) == 0
    finally:
        rep.unregister_reproduction("chatty")
        for h in logger.handlers[len(before):]:
            logger.removeHandler(h)
    assert "chatty: bench 1 of 2" in capsys.readouterr().err
