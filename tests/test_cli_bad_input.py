"""Bad input files give a message naming the file and exit status 2, never a traceback:
a missing ``--gpgpusim-config`` file (``run``, ``occupancy``, a sweep's ``gpgpusim_config``)
and a binary file given to ``warpsim ptx``."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from warpsim.cli import main

_MISSING = "expected a readable GPGPU-Sim option file (No such file or directory)"


def _binary(tmp_path: Path, name: str) -> Path:
    path = tmp_path / name
    shutil.copyfile(sys.executable, path)  # an ELF executable: not UTF-8 text
    return path


def test_run_with_missing_gpgpusim_config(tmp_path, capsys):
    missing = tmp_path / "nowhere" / "gpgpusim.config"
    rc = main(["run", "vector_add", "--size", "tiny", "--gpgpusim-config", str(missing)])
    err = capsys.readouterr().err
    assert rc == 2
    assert err.startswith(f"error: bad configuration value gpgpusim.config = '{missing}': "
                          f"{_MISSING}")
    assert "Traceback" not in err


def test_occupancy_with_missing_gpgpusim_config(tmp_path, capsys):
    missing = tmp_path / "gpgpusim.config"
    rc = main(["occupancy", "--regs", "36", "--threads", "256", "--gpgpusim-config",
               str(missing)])
    err = capsys.readouterr().err
    assert rc == 2
    assert f"'{missing}': {_MISSING}" in err


def test_run_with_binary_gpgpusim_config(tmp_path, capsys):
    binary = _binary(tmp_path, "gpgpusim.config")
    rc = main(["run", "vector_add", "--size", "tiny", "--gpgpusim-config", str(binary)])
    err = capsys.readouterr().err
    assert rc == 2
    assert f"'{binary}': expected a GPGPU-Sim option file (text), not a binary file" in err


def test_sweep_with_missing_gpgpusim_config_writes_nothing(tmp_path, capsys):
    missing = tmp_path / "gone.config"
    spec = tmp_path / "sweep.yaml"
    spec.write_text(f"name: bad\nbenchmarks: [vector_add]\nsizes: [tiny]\nseeds: [0]\n"
                    f"base:\n  gpu: gtx480\n  gpgpusim_config: {missing}\n"
                    f"configs:\n  base: {{}}\nmechanisms: [baseline]\n")
    out = tmp_path / "out"
    rc = main(["sweep", str(spec), "--out", str(out)])
    err = capsys.readouterr().err
    assert rc == 2
    assert f"gpgpusim.config = '{missing}': {_MISSING}" in err
    assert not out.exists()


@pytest.mark.parametrize("name, what", [("kernel.ptx", "PTX"), ("kernel.cu", "CUDA source"),
                                        ("app", "CUDA source")])
def test_ptx_on_a_binary_file(tmp_path, capsys, name, what):
    binary = _binary(tmp_path, name)
    rc = main(["ptx", str(binary), "--no-ptxas"])
    err = capsys.readouterr().err
    assert rc == 2
    assert err.startswith(f"error: {binary} is not a {what} text file (it holds binary data)")
    assert "Traceback" not in err


def test_ctrl_c_stops_quietly(monkeypatch, capsys):
    """Ctrl-C (KeyboardInterrupt) in the middle of a command: the shell's status for SIGINT,
    one line, no traceback."""
    import warpsim.cli as cli

    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "_cmd_run", interrupted)
    rc = main(["run", "vector_add", "--size", "tiny"])
    err = capsys.readouterr().err
    assert rc == 130
    assert err.strip() == "warpsim: interrupted" and "Traceback" not in err
