"""warpsim's qv100 preset against GPGPU-Sim 4.2 SM7_QV100 on five small validation programs.

The full table (validation/gpgpusim/README.md §8: ``compare.py --gpgpusim-config SM7_QV100``)
takes minutes; CI checks five kernels that take a few seconds each and cover the compute
pipeline (``int_mix``), the SFU (``sfu_rsqrt``) and the memory system (``transpose_tiled``:
coalesced loads and stores through a shared tile, sectored L2; ``strided_read`` and
``gather_random``: loads that use one 32 B sector of a line, the sectored L1D). They run under
``warpsim exec --config qv100 -o sm.occupancy_arch=sm_75`` (registers from the reference
build's ptxas target, README §7.11) with the engine the gtx480 reference test compiles (same hooks
bundle).

Threshold: the issue-16 band, 0.67x-1.5x per kernel (measured 2026-11-26 with the sectored
L1D and store acknowledgements: int_mix 1.08, sfu_rsqrt 0.95, transpose_tiled 1.01,
strided_read 0.99 (2.07 with whole-line L1D fills), gather_random 1.05 (1.59), README §8.3,
§8.4); warp instructions per launch must equal
GPGPU-Sim's exactly; on the two sector kernels the L1D accesses (one per sector, as
GPGPU-Sim counts them) too.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "validation" / "gpgpusim"))
import compare  # noqa: E402
import vsuite  # noqa: E402

REF = vsuite.load_reference(vsuite.reference_path("SM7_QV100"))
PROGRAMS = ("int_mix", "sfu_rsqrt", "transpose_tiled", "strided_read", "gather_random")
SECTOR_PROGRAMS = ("strided_read", "gather_random")


def test_reference_records_the_stock_sm7_qv100_run():
    meta = REF["meta"]
    assert meta["config"] == "configs/tested-cfgs/SM7_QV100/gpgpusim.config"
    assert meta["config_edits"] == []
    for name in PROGRAMS:
        entry = REF["programs"][name]
        assert entry["verdict"] == "PASS" and entry["exit_status"] == 0
        assert entry["source_sha256"] == vsuite.source_sha256(name), f"regen.py --only {name}"


@pytest.mark.parametrize("program", PROGRAMS)
def test_qv100_within_band_of_gpgpusim(program):
    rows = compare.compare_program(program, REF["programs"][program],
                                   vsuite.WARPSIM_PRESETS["SM7_QV100"],
                                   occupancy_arch=vsuite.OCCUPANCY_ARCH["SM7_QV100"])
    assert rows[0]["warpsim_exit_status"] == 0
    assert len(rows) == len(REF["programs"][program]["launches"])
    for r in rows:
        gs, ws = r["stats"]["warp_insts"]
        assert gs == ws, f"launch {r['launch']}: warp instructions GPGPU-Sim {gs}, warpsim {ws}"
    if program in SECTOR_PROGRAMS:
        for r in rows:
            gs, ws = r["stats"]["l1d_acc"]
            assert gs == ws, f"launch {r['launch']}: L1D accesses GPGPU-Sim {gs}, warpsim {ws}"
    lo, hi = compare.BAND
    for k in compare.per_kernel(rows):
        assert lo <= k["ratio"] <= hi, (
            f"{program}: warpsim {k['warpsim_cycles']} vs GPGPU-Sim {k['gpgpusim_cycles']} "
            f"cycles = {k['ratio']:.2f}x, outside {lo}-{hi}x")
