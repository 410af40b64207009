"""warpsim's cycles against GPGPU-Sim 4.2 (SM2_GTX480) on the validation set (issue 16).

The programs of ``validation/gpgpusim/kernels`` were run under GPGPU-Sim 4.2.0 with its stock
``SM2_GTX480`` configuration; the numbers per kernel launch are stored in
``validation/gpgpusim/reference/sm2_gtx480.json`` (``regen.py``; see that folder's README). Here
every program is built (cached in the session's warpsim cache folder), run under ``warpsim exec
--config gtx480 -o sm.occupancy_arch=sm_75`` (the reference build's ptxas target for registers,
README §7.11) in the test process (the timing engine compiles once per process; under
pytest-xdist the per-program tests spread over the workers, which share each program's rows
through a session folder, so no program runs twice) and compared with the stored cycles.

Thresholds (issue 16, "Done when"): every kernel's cycle ratio warpsim / GPGPU-Sim within
0.67x-1.5x (cycles summed over a program's launches of one kernel), and the mean absolute error
over kernels at most 15 % (11.3 % with the L2 set index of GPGPU-Sim, README §7.5). The
kernels outside the band today are listed in ``OUT_OF_BAND`` with the ratio measured when the
list was written and the suspected cause, and are
``xfail(strict=True, raises=OutOfBand)``: only the band check is excused (a functional mismatch
still fails), and a kernel that gets inside the band fails its test until it is removed from
the list; the mean-error test is marked the same way while ``MEAN_ERROR_XFAIL`` says why.

Independent of the timing model, the functional counts must agree exactly: warp instructions
per launch equal GPGPU-Sim's (its totals are differences of its cumulative counters).
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "validation" / "gpgpusim"))
import compare  # noqa: E402
import vsuite  # noqa: E402

REF = vsuite.load_reference()
PROGRAMS = sorted(REF["programs"])

# program -> (ratio warpsim / GPGPU-Sim measured when listed, suspected cause). Update it when
# a calibration step moves a kernel into the band (its strict xfail then fails).
# Details and the statistics behind the causes: validation/gpgpusim/README.md §5-6.
# Empty since README §7.13: matvec_row (0.65: its warps' A loads took the L1D's MSHRs in an
# uneven order and hit 40-50 % of A's lines) runs at 0.87 with GPGPU-Sim 4.x's L1 latency queue
# (``l1d.latency_queue``).
OUT_OF_BAND: dict[str, tuple[float, str]] = {}

# Why the mean absolute error is above 15 % today (None once it is not).
MEAN_ERROR_XFAIL: str | None = None

# Launches whose warp-instruction count legitimately depends on timing: program -> reason.
TIMING_DEPENDENT_INSTS = {
    "bfs_levels": "threads that find an unvisited neighbour race to mark it; how many of them "
                  "still see it unvisited depends on the timing (benign: same levels)",
}


_RUNS: dict[str, list[dict]] = {}
_WAIT_S = 1200.0
"""How long a worker waits for a program another worker is running before running it too."""


@pytest.fixture(scope="session")
def shared_runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder the pytest-xdist workers of this session share (each worker's base temp is a
    sibling in one session folder): each program's rows are computed once, by whichever
    worker claims it first, and read by the others."""
    base = tmp_path_factory.getbasetemp()
    root = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    folder = root / "gpgpusim-runs"
    folder.mkdir(exist_ok=True)
    return folder


def run(name: str, shared: Path) -> list[dict]:
    """Program ``name`` built (cached) and run under warpsim once per test session:
    compare.compare_program's rows. The timing engine compiles once per process (~25 s)."""
    if name in _RUNS:
        return _RUNS[name]
    done, failed = shared / f"{name}.json", shared / f"{name}.failed"
    try:
        os.close(os.open(shared / f"{name}.claim", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        mine = True
    except FileExistsError:  # another worker runs it: wait for its rows (or its failure)
        mine = False
        deadline = time.monotonic() + _WAIT_S
        while not (done.exists() or failed.exists()) and time.monotonic() < deadline:
            time.sleep(0.5)
    if done.exists():
        rows = json.loads(done.read_text())
    else:
        try:
            rows = compare.compare_program(name, REF["programs"][name], vsuite.WARPSIM_CONFIG,
                                           occupancy_arch=vsuite.OCCUPANCY_ARCH["SM2_GTX480"])
        except BaseException:
            failed.touch()  # waiting workers run it themselves and report the same failure
            raise
        if mine:
            part = done.with_suffix(".part")
            part.write_text(json.dumps(rows))
            part.replace(done)
    _RUNS[name] = rows
    return rows


class OutOfBand(AssertionError):
    """A kernel's cycle ratio is outside the band (the only failure OUT_OF_BAND excuses)."""


def test_reference_covers_the_current_sources():
    assert PROGRAMS == vsuite.programs(), "regen.py --only NAME for new or removed programs"
    stale = [n for n in PROGRAMS if REF["programs"][n]["source_sha256"] != vsuite.source_sha256(n)]
    assert not stale, f"sources changed since the reference was recorded: regen.py --only {stale}"
    failed = [n for n in PROGRAMS if REF["programs"][n]["verdict"] != "PASS"]
    assert not failed, f"these programs did not pass their own check under GPGPU-Sim: {failed}"
    assert len(PROGRAMS) >= 25
    assert set(OUT_OF_BAND) <= set(PROGRAMS)


def _params():
    for name in PROGRAMS:
        if name in OUT_OF_BAND:
            ratio, cause = OUT_OF_BAND[name]
            yield pytest.param(name, marks=pytest.mark.xfail(
                strict=True, raises=OutOfBand, reason=f"{ratio:.2f}x GPGPU-Sim: {cause}"))
        else:
            yield name


@pytest.mark.parametrize("program", list(_params()))
def test_program_matches_gpgpusim(program, shared_runs):
    """The program passes its own check on warpsim, launches the same kernels, executes the
    same warp instructions per launch (exact), and each kernel's cycles are within the band
    (only that last check is excused for the kernels of OUT_OF_BAND)."""
    rows = run(program, shared_runs)
    assert rows[0]["warpsim_exit_status"] == 0, f"{program} failed its own check on warpsim"
    assert len(rows) == len(REF["programs"][program]["launches"]), "number of launches"
    for r in rows:
        assert "kernel_mismatch" not in r, r["kernel_mismatch"]
        gs, ws = r["stats"]["warp_insts"]
        if program not in TIMING_DEPENDENT_INSTS:
            assert gs == ws, f"launch {r['launch']}: warp instructions GPGPU-Sim {gs}, warpsim {ws}"
    lo, hi = compare.BAND
    for k in compare.per_kernel(rows):
        if k["ratio"] is None or not lo <= k["ratio"] <= hi:
            raise OutOfBand(f"{program}/{k['kernel']}: warpsim {k['warpsim_cycles']} vs "
                            f"GPGPU-Sim {k['gpgpusim_cycles']} cycles = {k['ratio']:.2f}x, "
                            f"outside {lo}-{hi}x")


@pytest.mark.xfail(MEAN_ERROR_XFAIL is not None, strict=True, reason=str(MEAN_ERROR_XFAIL))
def test_mean_absolute_cycle_error(shared_runs):
    rows = [r for name in PROGRAMS for r in run(name, shared_runs)]  # every worker's runs
    err = compare.summary(rows)["mean_abs_error_kernels"]
    assert err <= compare.MEAN_ERROR_MAX, f"mean absolute cycle error {err:.1%} > 15 %"
