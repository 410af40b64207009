"""WIR on real benchmarks in the timing engine (slow: compiles the engine with WIR's hooks):
the checking mode passes (no reused arithmetic result differs from the functional one, the
reference counts match the structures at the end of each launch), outputs verify, reuse
happens, and a reuse hit saves the work it should (no operand reads, no unit, no write)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.slow


def _run(name, overrides):
    from warpsim.bench import run_benchmark
    from warpsim.runtime import Device

    dev = Device(config="gtx480", overrides=overrides)
    try:
        res = run_benchmark(name, size="tiny", device=dev)
        return res, dict(dev.stats)
    finally:
        dev.close()


@pytest.mark.parametrize("name", ["reduction", "sobel_filter"])
def test_checking_mode_passes_and_hits_skip_the_backend(name):
    res, st = _run(name, ["wir.enabled=true", "wir.check=true"])
    assert res.verified
    assert st["wir_arith_mismatches"] == 0
    assert st["wir_rb_hits"] > 0
    # every renamed instruction either executed or was reused
    assert st["wir_executed_insts"] + st["wir_rb_hits"] == st["wir_renamed_insts"]
    # warp instructions that reached a unit: the base count minus the hits
    _, base = _run(name, [])
    assert base["gpgpu_n_tot_w_icount"] == st["gpgpu_n_tot_w_icount"]
    executed = sum(st[k] for k in st if k.startswith("exec_") and k.endswith("_warp_insts"))
    executed_base = sum(base[k] for k in base
                        if k.startswith("exec_") and k.endswith("_warp_insts"))
    assert executed == executed_base - st["wir_rb_hits"]
