"""The sweep progress bar: counts drawn on a terminal, silence elsewhere, an ETA."""

from __future__ import annotations

import io

import pytest

from warpsim.runner.progress import SweepProgress


def test_bar_shows_done_failed_and_running_counts():
    buf = io.StringIO()
    with SweepProgress(5, "demo", enabled=True, stream=buf) as bar:
        bar.update(done=3, failed=1, running=2)
    text = buf.getvalue()
    assert "demo" in text and "3/5" in text
    assert "ok 2" in text and "failed 1" in text and "running 2" in text and "ETA" in text


def test_nothing_is_drawn_when_the_stream_is_not_a_terminal():
    buf = io.StringIO()
    with SweepProgress(5, "demo", stream=buf) as bar:
        bar.update(done=5, failed=0, running=0)
    assert buf.getvalue() == ""


def test_eta_extrapolates_the_mean_rate():
    bar = SweepProgress(10, enabled=False)
    assert bar.eta_s() is None
    bar.started -= 4.0  # 4 s elapsed
    bar.update(done=2, failed=0, running=1)
    assert bar.eta_s() == pytest.approx(16.0, rel=0.01)
