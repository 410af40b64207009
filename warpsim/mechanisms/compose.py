"""Several mechanisms in one run: their hooks combined by the rules of ``hooks.COMBINE``, their
per-launch life cycles run side by side.

Follows: STYLE.md §2.2 (mechanisms as plugins; off means the baseline bit for bit); issue
"Engine seams" (composition of mechanisms, e.g. WIR with an affine register file, the ILP
chapter's bypass + scoreboard). Each mechanism keeps its own hook state: the combined hooks
receive the tuple of the states and pass each mechanism its own element, so a mechanism's hooks
are the same functions alone or combined. A hook only the no-op implements stays the no-op, so
an unused hook point costs nothing.
Rules (in the order the mechanisms are listed; ``hooks.COMBINE``):
  chain: each gets the previous one's result in place of the baseline value (``cta_fit``'s
    ``fits``, ``warps_to_place``'s ``n``, ``issue_priority``'s key,
    ``operand_bank``/``dest_bank``'s bank (a -1 stops the chain), ``unit_choice``'s pair);
    and/or/all/sum/min: as named (``release_warp_slot``, "or": every mechanism is asked, the
    slot is freed when any says so); ``on_operand_read``: 1 plus each
    one's accesses beyond 1; ``fetch_word``: asked in order until one says True (the
    others are not asked, so only that one counts the word); ``on_issue``: asked in order
    until one does not say EXECUTE;
    ``poll_parked``: held while any mechanism holds it, else the first non-EXECUTE answer;
    ``extra_operand`` / ``writeback_read_bank``: the first register / bank that is not -1;
    memory port: the first mechanism with a request sends it, and its callbacks reach that
    mechanism alone. Python life cycle:
    ``compile_pass`` and ``ctas_per_sm`` chain, record columns are concatenated, statistics
    merged (names are prefixed per mechanism, a clash is an error).
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np

from warpsim._bundle import function_key
from warpsim._jit import jit_uncached
from warpsim.errors import ConfigError, InternalError
from warpsim.mechanisms import hooks as hk
from warpsim.mechanisms.base import Mechanism
from warpsim.timing.consts import INT64_MAX, ISSUE_EXECUTE, ISSUE_PARK, MK_NONE

__all__ = ["TAG_SPAN", "CompositeMechanism", "combine_hooks"]

TAG_SPAN = 1 << 32
"""Memory-port tags of combined mechanisms: mechanism ``i``'s tag ``t`` travels as
``i * TAG_SPAN + t`` (each mechanism sees its own tags)."""

_ARGS: dict[str, tuple[str, ...]] = {
    "cta_fit": ("sm", "cta", "fits"),
    "warps_to_place": ("sm", "cta", "cta_slot", "placed", "n_warps", "free_warps", "n"),
    "on_warp_launch": ("sm", "warp", "cta_slot", "pos", "cycle"),
    "on_warp_exit": ("sm", "warp", "cycle"),
    "release_warp_slot": ("sm", "warp", "cycle"),
    "on_cta_release": ("sm", "cta_slot", "cycle"),
    "fetch_word": ("sm", "warp", "rec", "cycle"),
    "issue_priority": ("sm", "warp", "key"),
    "can_issue": ("sm", "warp", "pc", "cycle"),
    "on_issue": ("sm", "warp", "pc", "rec", "cycle"),
    "poll_parked": ("sm", "warp", "rec", "cycle"),
    "extra_operand": ("sm", "warp", "rec"),
    "operand_bank": ("sm", "warp", "rec", "reg", "bank"),
    "on_operand_read": ("sm", "warp", "reg", "bank", "cycle"),
    "unit_choice": ("sm", "warp", "rec", "unit_type", "ii"),
    "result_delay": ("sm", "warp", "rec", "cycle"),
    "can_writeback": ("sm", "warp", "pc", "rec", "cycle"),
    "dest_bank": ("sm", "warp", "rec", "reg", "bank"),
    "writeback_read_bank": ("sm", "warp", "rec", "reg"),
    "on_writeback": ("sm", "warp", "pc", "rec", "cycle"),
    "on_retire": ("sm", "warp", "pc", "rec", "cycle"),
    "on_cycle_end": ("counters", "cycle"),
    "mem_request": ("sm", "cycle"),
    "on_mem_sent": ("sm", "tag", "accepted", "cycle"),
    "on_mem_complete": ("sm", "tag", "cycle"),
    "l1_fetch_group": ("sm", "cycle"),
}
"""Arguments after ``hs`` of every hook point (``hooks.py`` signatures)."""

_CHAIN_VALUE = {"cta_fit": "fits", "warps_to_place": "n", "issue_priority": "key",
                "operand_bank": "bank", "dest_bank": "bank"}


def _body(name: str, impls: list[tuple[int, str]]) -> list[str]:
    """Source lines of the combined hook ``name`` over ``(state index, function name)``."""
    args = _ARGS[name]
    rule = hk.COMBINE[name]

    def call(i: int, f: str, over: dict[str, str] | None = None) -> str:
        a = [over.get(x, x) if over else x for x in args]
        return f"{f}(hs[{i}], {', '.join(a)})"

    out: list[str] = []
    if name == "unit_choice":
        for i, f in impls:
            out.append(f"    unit_type, ii = {call(i, f)}")
        out.append("    return unit_type, ii")
    elif rule == "chain":
        v = _CHAIN_VALUE[name]
        for i, f in impls:
            out.append(f"    {v} = {call(i, f)}")
            if name in ("operand_bank", "dest_bank"):
                out.append(f"    if {v} < 0:\n        return {v}")
        out.append(f"    return {v}")
    elif rule == "all":
        out += [f"    {call(i, f)}" for i, f in impls] + ["    return None"]
    elif rule == "and":
        out += [f"    if not {call(i, f)}:\n        return False" for i, f in impls]
        out.append("    return True")
    elif rule == "or":  # every one is asked (each may keep its own account), any True wins
        out.append("    r = False")
        out += [f"    if {call(i, f)}:\n        r = True" for i, f in impls]
        out.append("    return r")
    elif rule == "until":  # asked in order; the first True stops (only it took the slot)
        out += [f"    if {call(i, f)}:\n        return True" for i, f in impls]
        out.append("    return False")
    elif rule == "sum":
        out.append("    s = 0")
        out += [f"    s += {call(i, f)}" for i, f in impls] + ["    return s"]
    elif rule == "extra":
        out.append("    n = 1")
        out += [f"    n += {call(i, f)} - 1" for i, f in impls] + ["    return n"]
    elif rule == "max":
        out.append("    m = 1")
        out += [f"    m = max(m, {call(i, f)})" for i, f in impls] + ["    return m"]
    elif rule == "min":
        out.append("    m = INT64_MAX")
        out += [f"    m = min(m, {call(i, f)})" for i, f in impls] + ["    return m"]
    elif name == "on_issue":
        for i, f in impls:
            out.append(f"    o, t = {call(i, f)}\n    if o != ISSUE_EXECUTE:\n        return o, t")
        out.append("    return ISSUE_EXECUTE, np.int64(0)")
    elif name == "poll_parked":
        out.append("    ro = ISSUE_EXECUTE\n    rt = np.int64(0)\n    held = False")
        for i, f in impls:
            out.append(f"    o, t = {call(i, f)}\n    if o == ISSUE_PARK:\n        held = True\n"
                       "    elif ro == ISSUE_EXECUTE:\n        ro = o\n        rt = t")
        out.append("    if held:\n        return ISSUE_PARK, np.int64(0)\n    return ro, rt")
    elif name == "mem_request":
        for i, f in impls:
            out.append(f"    k, a, n, t = {call(i, f)}\n    if k != MK_NONE:\n"
                       f"        return k, a, n, t + {i} * TAG_SPAN")
        out.append("    return MK_NONE, np.int64(0), np.int64(0), np.int64(0)")
    elif name in ("on_mem_sent", "on_mem_complete"):
        for i, f in impls:
            out.append(f"    if tag // TAG_SPAN == {i}:\n"
                       f"        {call(i, f, {'tag': 'tag % TAG_SPAN'})}")
        out.append("    return None")
    elif name in ("extra_operand", "writeback_read_bank"):
        for i, f in impls:
            out.append(f"    r = {call(i, f)}\n    if r >= 0:\n        return r")
        out.append("    return -1")
    else:  # pragma: no cover - every COMBINE rule is handled above
        raise InternalError(f"no combination rule for hook {name}")
    return out


def combine_hooks(hook_sets: list[hk.Hooks]) -> hk.Hooks:
    """One ``Hooks`` bundle over the tuple of the mechanisms' states (``hs[i]`` is mechanism
    ``i``'s), following ``hooks.COMBINE``. The same hook functions give the same combined
    functions (cached), so the cycle loop compiled for one combination serves every run of it
    in the process."""
    return _combined(tuple(tuple(h) for h in hook_sets))


@cache
def _combined(hook_sets: tuple[tuple[Any, ...], ...]) -> hk.Hooks:
    hook_sets = tuple(hk.Hooks(*h) for h in hook_sets)
    combined = {}
    for name in hk.Hooks._fields:
        impls = [(i, getattr(h, name)) for i, h in enumerate(hook_sets)
                 if not hk.is_noop(name, getattr(h, name))]
        if not impls:
            combined[name] = getattr(hk.noop_hooks(), name)
            continue
        ns: dict[str, Any] = {"np": np, "INT64_MAX": INT64_MAX, "ISSUE_EXECUTE": ISSUE_EXECUTE,
                              "ISSUE_PARK": ISSUE_PARK, "MK_NONE": MK_NONE,
                              "TAG_SPAN": TAG_SPAN}
        names = []
        for i, fn in impls:
            ns[f"_f{i}"] = fn
            names.append((i, f"_f{i}"))
        src = "\n".join([f"def {name}(hs, {', '.join(_ARGS[name])}):", *_body(name, names)])
        exec(compile(src, f"<combined {name}>", "exec"), ns)
        ns[name].__warpsim_key__ = f"combined {name}(" + ", ".join(
            f"{i}:{function_key(fn)}" for i, fn in impls) + ")"
        combined[name] = jit_uncached(ns[name])
    return hk.Hooks(**combined)


class CompositeMechanism(Mechanism):
    """Several mechanisms run together (``registry.mechanism_for`` builds it)."""

    def __init__(self, cfg: Any, parts: list[Mechanism]) -> None:
        super().__init__(cfg)
        self.parts = list(parts)
        self.name = "+".join(m.name for m in self.parts)
        self.n_record_columns = sum(m.n_record_columns for m in self.parts)
        self.hooks = combine_hooks([m.hooks for m in self.parts])
        self.extra_units = tuple(u for m in self.parts for u in m.extra_units)
        self.regfile_banks = max(m.regfile_banks for m in self.parts)
        self.heterogeneous_sms = all(m.heterogeneous_sms for m in self.parts)
        self.counter_names = tuple(c for m in self.parts for c in m.counter_names)
        if len(set(self.counter_names)) < len(self.counter_names):
            raise ConfigError("mechanisms", self.name,
                              "mechanisms whose counters have distinct names "
                              f"({', '.join(self.counter_names)})")

    def compile_pass(self, program: Any, alloc: Any) -> Any:
        for m in self.parts:
            alloc = m.compile_pass(program, alloc)
        return alloc

    def ctas_per_sm(self, cta_threads: int, regs_per_thread: int, shmem_bytes: int,
                    baseline: int) -> int:
        n = baseline
        for m in self.parts:
            n = int(m.ctas_per_sm(cta_threads, regs_per_thread, shmem_bytes, n))
        return n

    def start_launch(self, info: Any) -> list[Any]:
        return [m.start_launch(info) for m in self.parts]

    def bind_core(self, launch_state: Any, core: Any) -> None:
        for m, s in zip(self.parts, launch_state, strict=True):
            m.bind_core(s, core)

    def bind_counters(self, launch_state: Any, counters: np.ndarray) -> None:
        a = 0
        for m, s in zip(self.parts, launch_state, strict=True):
            k = len(m.counter_names)
            if k:
                m.bind_counters(s, counters[:, a:a + k])
            a += k

    def record_columns(self, launch_state: Any, chunk: Any) -> np.ndarray | None:
        cols = [np.asarray(m.record_columns(s, chunk), np.int64)
                for m, s in zip(self.parts, launch_state, strict=True) if m.n_record_columns]
        return np.concatenate(cols, axis=1) if cols else None

    def hook_state(self, launch_state: Any, rec_cols: np.ndarray, rec_base: int) -> Any:
        out, a = [], 0
        for m, s in zip(self.parts, launch_state, strict=True):
            k = m.n_record_columns
            cols = (rec_cols[:, a:a + k] if k else np.zeros((rec_cols.shape[0], 1), np.int64))
            out.append(m.hook_state(s, np.ascontiguousarray(cols), rec_base))
            a += k
        return tuple(out)

    def finish_launch(self, launch_state: Any, counts: np.ndarray) -> dict[str, int | float]:
        out: dict[str, int | float] = {}
        for m, s in zip(self.parts, launch_state, strict=True):
            part = m.finish_launch(s, counts)
            clash = sorted(set(part) & set(out))
            if clash:
                raise ConfigError("mechanisms", self.name,
                                  f"mechanisms whose statistics have distinct names "
                                  f"({m.name} repeats {', '.join(clash[:3])})")
            out.update(part)
        return out
