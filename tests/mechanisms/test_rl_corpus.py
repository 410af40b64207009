"""RegLess compiler over real nvcc kernels: the staging check holds at every capacity, and
``warpsim regions`` lists what the compiler produced."""

from __future__ import annotations

import json

import pytest

from warpsim.cli import main
from warpsim.mechanisms.regless.annotate import (
    check_staging,
    compile_regions,
    default_region_limits,
)
from warpsim.ptx.inline import inline_calls
from warpsim.ptx.parser import parse_ptx
from warpsim.ptx.regalloc import allocate_registers

KERNELS = ("divergence", "matmul_tiled", "local_array", "reduce_shared", "vector_add")


@pytest.mark.parametrize("name", KERNELS)
def test_every_read_is_staged_and_no_region_exceeds_a_bank(corpus_ptx, name):
    module = parse_ptx(corpus_ptx(name), file=f"{name}.cu")
    for kernel in module.kernels:
        fn = inline_calls(module, module.kernel(kernel))
        alloc = allocate_registers(fn, schedule=False)
        for capacity in (128, 512):
            max_regs, bank = default_region_limits(capacity)
            plan = compile_regions(fn, alloc, max_regs_per_region=max_regs, bank_entries=bank)
            assert check_staging(plan) == [], (kernel, capacity)
            assert all(max(r.need_per_bank) <= bank for r in plan.regions)
            assert all(r.need_total <= max_regs for r in plan.regions if r.n_insns > 1)


def test_regions_command_lists_the_regions(corpus_ptx, tmp_path, capsys):
    path = tmp_path / "vector_add.ptx"
    path.write_text(corpus_ptx("vector_add"))
    assert main(["regions", str(path), "--kernel", "vec_add"]) == 0
    out = capsys.readouterr().out
    heads = [line for line in out.splitlines() if line.startswith("region ")]
    assert heads and heads[0].startswith("region 0  block 0  pc 0-")
    assert "preload" in out and "split: load-use" in out
    assert main(["regions", str(path), "--kernel", "vec_add", "--json", "--capacity", "128"]) == 0
    rec = json.loads(capsys.readouterr().out)["vec_add"]
    assert rec["bank_entries"] == 4 and rec["max_regs_per_region"] == 8
    assert main(["regions", str(path), "--capacity", "100"]) == 2


@pytest.mark.slow
def test_staging_check_holds_over_the_whole_benchmark_suite():
    """Issue 22's checking mode: every benchmark kernel, 128 and 512 entries (minutes: sha1's
    1369-instruction block alone takes about a minute)."""
    from pathlib import Path

    from warpsim.toolchain import compile_cuda

    root = Path(__file__).resolve().parents[2] / "warpsim" / "bench"
    files = sorted(root.glob("*/kernels.cu"))
    assert len(files) > 40
    for path in files:
        module = parse_ptx(compile_cuda(path, arch="sm_80").ptx, file=str(path))
        for kernel in module.kernels:
            fn = inline_calls(module, module.kernel(kernel))
            alloc = allocate_registers(fn, schedule=False)
            for capacity in (128, 512):
                max_regs, bank = default_region_limits(capacity)
                plan = compile_regions(fn, alloc, max_regs_per_region=max_regs,
                                       bank_entries=bank)
                assert check_staging(plan) == [], (path.parent.name, kernel, capacity)
