"""``warpsim regions FILE --kernel K``: a kernel's RegLess regions with their headers (bank
need, preloads, invalidations, metadata words) and the erase/evict flags of each instruction,
the way ``warpsim ptx`` lists a kernel.

Follows: specs/regless.md §3.8-§3.9 (the worked example's layout); issue 22.
"""

from __future__ import annotations

import argparse
import json

from warpsim.mechanisms.regless.annotate import (
    RegionPlan,
    check_staging,
    compile_regions,
    default_region_limits,
)
from warpsim.mechanisms.regless.lifetimes import ERASE

__all__ = ["add_subcommand", "format_regions", "plan_summary"]


def _regs(regs) -> str:
    return " ".join(f"R{r}" for r in regs) or "-"


def plan_summary(plan: RegionPlan) -> dict:
    """Static region statistics of one kernel (Table 2's instructions column, Fig. 19)."""
    regs = plan.regions
    n = max(1, len(regs))
    reasons: dict[str, int] = {}
    for r in regs:
        if r.split_reason:
            reasons[r.split_reason] = reasons.get(r.split_reason, 0) + 1
    return {"regions": len(regs), "instructions": plan.view.n,
            "mean_insns": round(plan.mean_insns(), 3),
            "mean_inputs": round(sum(len(r.inputs) for r in regs) / n, 3),
            "mean_need": round(sum(r.need_total for r in regs) / n, 3),
            "meta_words": plan.n_meta_words, "soft_defs_divergent": plan.live.n_soft_divergent,
            "soft_defs_guarded": plan.live.n_soft_guarded, "split_reasons": reasons,
            "max_regs_per_region": plan.max_regs_per_region,
            "bank_entries": plan.bank_entries}


def format_regions(name: str, plan: RegionPlan) -> str:
    """The listing: one header line per region, then its instructions with last-use flags."""
    s = plan_summary(plan)
    lines = [f"// kernel {name} (R = physical registers; flags at region-local last uses)",
             f"// {name}: {s['regions']} regions, {s['mean_insns']:g} instructions per "
             f"region, {s['meta_words']} metadata words (at most {plan.max_regs_per_region} "
             f"registers per region, {plan.bank_entries} per bank)"]
    v, ann = plan.view, plan.ann
    for reg in plan.regions:
        pre = " ".join(f"R{r}" + ("(inv)" if r in reg.invalidating else "")
                       for r in reg.inputs) or "-"
        why = f", split: {reg.split_reason}" if reg.split_reason else ""
        lines.append(f"region {reg.id}  block {reg.block}  pc {reg.start}-{reg.end}  "
                     f"({reg.n_insns} insns{why})  need {reg.need_total} "
                     f"banks [{' '.join(map(str, reg.need_per_bank))}]  meta {reg.meta_words}")
        lines.append(f"    preload {pre}  invalidate {_regs(reg.header_invalidations)}  "
                     f"out {_regs(reg.outputs)}  interior {_regs(reg.interior)}")
        for i in range(reg.start, reg.end + 1):
            flags = [f"R{r}:{'erase' if k == ERASE else 'evict'}"
                     for r, k in list(ann.src[i].items()) + list(ann.dst[i].items())]
            text = " ".join(v.text[i].split())
            phys = f"{_regs(v.writes[i])} <- {_regs(v.reads[i])}"
            tail = f"  ; {' '.join(flags)}" if flags else ""
            lines.append(f"  {i:5d}  {text[:44]:<44}  {phys:<22}{tail}".rstrip())
    return "\n".join(lines)


def _load_module(path: str, arch: str):
    """Parse a .ptx file, or compile a .cu file to PTX first (as ``warpsim ptx`` does)."""
    from pathlib import Path

    from warpsim.errors import WarpsimError
    from warpsim.ptx.parser import parse_ptx

    p = Path(path)
    if not p.is_file():
        raise WarpsimError(f"no such file: {path}")
    if p.suffix == ".ptx":
        try:
            text = p.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError) as exc:
            raise WarpsimError(f"cannot read {path} as PTX text: {exc}") from None
    else:
        from warpsim.toolchain import compile_cuda

        text = compile_cuda(p, arch=arch).ptx
    return parse_ptx(text, file=str(p))


def _cmd_regions(args: argparse.Namespace) -> int:
    from warpsim.errors import WarpsimError
    from warpsim.ptx.inline import inline_calls
    from warpsim.ptx.regalloc import allocate_registers

    if args.capacity < 32 or args.capacity % 32:
        raise WarpsimError(f"--capacity {args.capacity}: a positive multiple of 32 entries "
                           "per SM (4 shards x 8 banks)")
    max_regs, bank = default_region_limits(args.capacity)
    if args.max_regs is not None:
        if args.max_regs < 1:
            raise WarpsimError(f"--max-regs {args.max_regs}: at least 1")
        max_regs = args.max_regs
    module = _load_module(args.file, args.arch)
    names = [args.kernel] if args.kernel else list(module.kernels)
    out = {}
    for name in names:
        fn = inline_calls(module, module.kernel(name))
        alloc = allocate_registers(fn, schedule=False)  # PTX order, as the timing replays
        plan = compile_regions(fn, alloc, max_regs_per_region=max_regs, bank_entries=bank)
        problems = check_staging(plan)
        if problems:
            raise WarpsimError(f"{name}: staging check failed: " + "; ".join(problems[:5]))
        if args.json:
            out[fn.name] = plan_summary(plan)
        else:
            print(format_regions(fn.name, plan))
            print()
    if args.json:
        print(json.dumps(out, indent=2))
    return 0


def add_subcommand(sub: argparse._SubParsersAction) -> None:
    """Register ``warpsim regions``."""
    p = sub.add_parser("regions", help="list a kernel's RegLess regions: bank need, preloads, "
                                       "invalidations, erase/evict flags (issue 22)")
    p.add_argument("file", help="a .cu or .ptx file")
    p.add_argument("--kernel", help="kernel name (mangled or C++ name); default: all")
    p.add_argument("--arch", default="sm_80", help="target architecture (default sm_80)")
    p.add_argument("--capacity", type=int, default=512,
                   help="OSU entries per SM (default 512; bank size = capacity / 32)")
    p.add_argument("--max-regs", type=int, default=None,
                   help="registers per region (default capacity / 16)")
    p.add_argument("--json", action="store_true", help="per-kernel region statistics as JSON")
    p.set_defaults(func=_cmd_regions)
