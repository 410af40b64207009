"""Hand-written kernels for the RegLess compiler tests: ``%rN`` is physical register ``N``."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np

from warpsim.mechanisms.regless.annotate import RegionPlan, plan_for_view
from warpsim.mechanisms.regless.kernel_view import kernel_view
from warpsim.ptx.regalloc import Allocation

_spec = importlib.util.spec_from_file_location(
    "_ptx_asm_cfg_rl", Path(__file__).resolve().parents[1] / "ptx" / "test_cfg.py")
_mod = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_mod)
asm = _mod.asm


def identity_allocation(fn) -> Allocation:
    """``%rN`` -> R N (one 32-bit register), predicates in the predicate file."""
    n = len(fn.regs)
    phys = np.full(n, -1, np.int32)
    width = np.zeros(n, np.int8)
    pred = np.full(n, -1, np.int32)
    n_preds = 0
    for r in fn.regs:
        if r.name.startswith("%p"):
            pred[r.id] = n_preds
            n_preds += 1
        else:
            phys[r.id] = int(r.name[2:])
            width[r.id] = 1
    return Allocation(phys=phys, width=width, pred_phys=pred, remat=np.zeros(n, np.bool_),
                      n_regs=int(phys.max()) + 1, n_preds=n_preds)


def plan(src: str, *, max_regs: int = 32, bank: int = 16, **kw) -> RegionPlan:
    fn = asm(src)
    return plan_for_view(kernel_view(fn, identity_allocation(fn)), max_regs_per_region=max_regs,
                         bank_entries=bank, **kw)


def spans(p: RegionPlan) -> list[tuple[int, int]]:
    return [(r.start, r.end) for r in p.regions]
