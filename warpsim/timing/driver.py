"""The Python side of the timing model: static tables and state per launch, the trace window
fed by the functional executor's ``trace_sink``, the jitted cycle loop, and statistics.

Follows: ARCHITECTURE.md §1 (the timing pass replays the functional pass's per-warp traces),
§8-§9 (bounded memory: the engine runs inside the sink until it needs CTAs not delivered yet,
so at most about two CTA batches of records are held); STYLE.md §2.4-§2.5 (int64 counters,
export and derived metrics after the run; numba compile time reported separately).
docs/timing-model.md describes the model and its GPGPU-Sim options.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

from warpsim._jit import jit
from warpsim.arch import GPUConfig
from warpsim.arch.sm_kinds import sm_kinds
from warpsim.errors import BarrierDeadlockError, ConfigError, InternalError, LaunchError
from warpsim.stats import (
    C_GPU_SIM_CYCLE,
    C_GPU_SIM_INSN,
    C_GPU_TOT_SIM_CYCLE,
    C_GPU_TOT_SIM_INSN,
    N_COUNTERS,
    derive,
    export,
    export_per_sm,
    make_counts,
)
from warpsim.timing import consts as tc
from warpsim.timing import fields as fl
from warpsim.timing.dispatch import ctas_per_sm
from warpsim.timing.engine import MemPorts, run_engine
from warpsim.timing.fields import (
    F_CTA_ID,
    F_WARP_AT_BAR,
    F_WARP_CTA,
    F_WARP_VALID,
)
from warpsim.timing.l1sector import engine_lines
from warpsim.timing.params import BRANCH_BUBBLE_CYCLES, engine_params
from warpsim.timing.progress import compile_notice
from warpsim.timing.records import pack_records
from warpsim.timing.state import (
    CoreState,
    TraceWindow,
    empty_window,
    make_core_state,
    read_only_view,
)
from warpsim.timing.static import StaticTables, build_static, check_bank_from

__all__ = ["BRANCH_BUBBLE_CYCLES", "MemSystem", "TimingResult", "TimingSimulator",
           "default_memsys", "popcount32"]

_MAX_CYCLES = 1 << 62


class MemSystem(NamedTuple):
    """The memory system behind the LD/ST unit (docs/dev-contracts.md "Timing engine")."""

    make_mem_state: Any
    mem_access: Any
    tick_memsys: Any
    mem_next_event: Any
    mem_pop_completion: Any
    kind_map: np.ndarray
    """``kind_map[MK_*]`` int64: the memory system's ``MEM_*`` kind of each memory kind."""
    flush_counters: Any = None
    """``mem_flush_counters(ms, counters)``: adds counts the memory system buffered (or None)."""
    has_completion: Any = None
    """``mem_has_completion(ms) -> bool``: False when no SM has a completion queued, a cheap
    guard of the per-SM completion poll (None: always poll)."""
    busy: Any = None
    """``mem_busy(ms) -> bool``: False when ``tick_memsys`` would do nothing this cycle (nothing
    in flight, no buffered count), so the engine skips the call (None: always tick)."""
    set_fetch_group: Any = None
    """``mem_set_fetch_group(ms, sm, n_lines)``: the L1 fetch-group seam (``timing/l1group.py``;
    None: a memory system without it ignores the mechanism's ``l1_fetch_group``)."""


def default_memsys() -> MemSystem:
    """The project's memory system (``timing/memsys.py``)."""
    try:
        from warpsim.timing import memconsts as mc
        from warpsim.timing import memsys as m
    except ImportError as exc:  # the memory system is developed separately
        raise InternalError(f"the memory system (warpsim.timing.memsys) is not available: "
                            f"{exc}") from None
    km = np.zeros(tc.N_MEM_KINDS, np.int64)
    km[tc.MK_LD_GLOBAL] = km[tc.MK_LD_GENERIC] = mc.MEM_LD_GLOBAL
    km[tc.MK_ST_GLOBAL] = km[tc.MK_ST_GENERIC] = mc.MEM_ST_GLOBAL
    km[tc.MK_LD_LOCAL] = mc.MEM_LD_LOCAL
    km[tc.MK_ST_LOCAL] = mc.MEM_ST_LOCAL
    km[tc.MK_LD_CONST] = mc.MEM_LD_CONST
    km[tc.MK_LD_TEX] = mc.MEM_LD_TEX
    km[tc.MK_ATOMIC] = km[tc.MK_ATOMIC_GENERIC] = mc.MEM_ATOMIC
    return MemSystem(m.make_mem_state, m.mem_access, m.tick_memsys, m.mem_next_event,
                     m.mem_pop_completion, km, m.mem_flush_counters,
                     getattr(m, "mem_has_completion", None), getattr(m, "mem_busy", None),
                     getattr(m, "mem_set_fetch_group", None))


@dataclass(slots=True)
class TimingResult:
    """Timing statistics of one launch."""

    stats: dict[str, Any]
    """Flat counters (``warpsim.stats`` names) plus derived metrics (``gpu_ipc``, ...)."""
    per_sm: dict[str, list[int]]
    """Per-SM detail of every array counter."""
    cycles: int
    """``gpu_sim_cycle``."""
    wall_s: float
    """Wall time of the timing pass (engine and trace handling), numba compilation excluded."""
    warp_inst_per_s: float
    """Simulated warp instructions per wall second of the timing pass."""
    numba_compile_s: float = 0.0
    """Time spent compiling the cycle loop for this launch (0 when already compiled)."""
    occupancy: dict[str, int] = field(default_factory=dict)
    """CTAs per SM allowed by each resource, and ``ctas_per_sm``."""
    pc_activity: np.ndarray | None = None
    """``int64[n_pc, 2]``: per static instruction, warp instructions and lanes dispatched to an
    execution unit (``timing.fields.F_ACT_*``; the last row is the implicit exit)."""


@jit
def _no_fetch_group(ms, sm, n_lines):  # pragma: no cover - jit
    """``set_fetch_group`` of a memory system without the fetch-group seam: ignored."""
    return None


@jit
def _always(ms):  # pragma: no cover - jit
    """Completion guard of a memory system without ``mem_has_completion``: always poll."""
    return True


def popcount32(x: np.ndarray) -> np.ndarray:
    """Set bits of each uint32 (int32 result)."""
    v = x.astype(np.uint32)
    v = v - ((v >> 1) & 0x55555555)
    v = (v & 0x33333333) + ((v >> 2) & 0x33333333)
    v = (v + (v >> 4)) & 0x0F0F0F0F
    return ((v * np.uint32(0x01010101)) >> 24).astype(np.int32)


@dataclass(slots=True)
class _Chunk:
    first_cta: int
    n_ctas: int
    rec: np.ndarray
    """``rec[r, F_REC_*]`` int64 rows of the chunk's records, per-warp contiguous (LINE0
    chunk-local)."""
    lines: np.ndarray
    mech: np.ndarray | None = None
    """The mechanism's record columns (``Mechanism.record_columns``), or None."""


class _Launch:
    """One launch in progress: static tables, state, the trace window."""

    def __init__(self, sim: TimingSimulator, tables: StaticTables, n_ctas: int,
                 cta_threads: int, caps: np.ndarray, regs: int, shmem: int) -> None:
        cfg = sim.cfg
        self.tables = tables
        self.n_ctas = n_ctas
        self.wpc = -(-cta_threads // cfg.sm.n_threads_per_warp)
        self.state: CoreState = make_core_state(cfg, tables, n_ctas, sim.mech_banks())
        self.state.sc[tc.SC_LAST_SM] = cfg.sm.n_sms - 1
        self.state.smv[:, fl.F_SM_CTA_CAP] = caps
        for kind in sm_kinds(cfg):  # a kind's warp slots above its limit are never free
            self.state.warp[kind.sms, kind.cfg.sm.n_max_warps:, F_WARP_CTA] = fl.WARP_SLOT_OFF
        n_per_sm = int(caps.max())
        self.start_cycle = sim.clock
        self.state.sc[tc.SC_CYCLE] = sim.clock
        self.prm = sim.prm.copy()
        self.prm[tc.P_CTAS_PER_SM] = n_per_sm
        self.prm[tc.P_CTA_WARPS] = self.wpc
        self.prm[tc.P_CTA_THREADS] = cta_threads
        self.prm[tc.P_CTA_REGS] = regs
        self.prm[tc.P_CTA_SHMEM] = shmem
        self.prm[tc.P_N_CTAS] = n_ctas
        self.prm[tc.P_LAUNCH_LAT] += sim.clock  # the launch latency counts from the launch
        self.counts = sim.make_counts()
        self.window: TraceWindow = empty_window(max(1, n_ctas * self.wpc))
        self.chunks: list[_Chunk] = []
        self.rec_total = 0
        self.base_chunk = 0
        self.base_rec = 0
        self.chunk_recs: list[int] = []
        self.status = tc.ST_NEED_CTAS
        self.wall = 0.0
        self.mech_state: Any = None
        """The mechanism's per-launch state (``Mechanism.start_launch``)."""
        k = sim.mechanism.n_record_columns if sim.mechanism is not None else 0
        self.mech_cols = np.zeros((0, max(1, k)), np.int64)
        """The mechanism's record columns of the window's records (row = record - base)."""


class TimingSimulator:
    """Cycle-level timing of launches on GPU ``cfg``, fed by functional-executor traces.

    Usage: ``sim.start(program, alloc, n_ctas=..., cta_threads=..., regs_per_thread=...,
    shmem_bytes=...)``, then ``sim.consume(chunk)`` for each ``TraceChunk`` (pass it as the
    executor's ``trace_sink``), then ``sim.finish() -> TimingResult``. ``hooks`` is a
    ``warpsim.mechanisms.hooks.Hooks`` (the runtime passes the no-op set), ``hook_state`` the
    hooks' state; or ``mechanism`` a ``warpsim.mechanisms.base.Mechanism`` whose hooks, hook
    state and per-launch life cycle are used instead (docs/dev-contracts.md "Mechanisms");
    ``memsys`` a ``MemSystem`` (default: ``timing/memsys.py``). Only a ``mechanism`` gets the
    memory port (``Mechanism.uses_memory_port``); bare ``hooks`` are for engine tests. The memory
    system's state persists across launches (warm L2), counters are per launch and cumulative.
    """

    def __init__(self, cfg: GPUConfig, *, hooks: Any = None, hook_state: Any = None,
                 memsys: MemSystem | None = None, skip_idle_cycles: bool = True,
                 max_cycles: int = _MAX_CYCLES, mechanism: Any = None) -> None:
        self.cfg = cfg
        self.mechanism = mechanism
        check_bank_from(cfg, mechanism)
        if hooks is None:
            if mechanism is None:
                raise InternalError("TimingSimulator needs hooks or a mechanism")
            hooks = mechanism.hooks
        self.hooks = hooks
        self._warm_state: Any = None
        self.total_mech: dict[str, Any] = {}
        """The mechanism's statistics summed over finished launches."""
        self.hook_state = hook_state if hook_state is not None else np.zeros(1, np.int64)
        self.memsys = memsys if memsys is not None else default_memsys()
        self.ms = self.memsys.make_mem_state(cfg)
        m = self.memsys
        self._ports = MemPorts(m.mem_access, m.tick_memsys, m.mem_next_event,
                               m.mem_pop_completion,
                               m.has_completion if m.has_completion is not None else _always,
                               m.busy if m.busy is not None else _always,
                               m.set_fetch_group if m.set_fetch_group is not None
                               else _no_fetch_group)
        self.prm = engine_params(cfg, skip_idle_cycles)
        self.prm[tc.P_MECH_MEM] = int(bool(getattr(mechanism, "uses_memory_port", False)))
        self.max_cycles = int(max_cycles)
        kinds = sm_kinds(cfg)
        self.sm_kind = np.zeros(cfg.sm.n_sms, np.int64)
        """Kind (``sm_kinds``) of each SM."""
        for kind in kinds:
            self.sm_kind[kind.sms] = kind.index
        if len(kinds) > 1 and mechanism is not None and not mechanism.heterogeneous_sms:
            raise ConfigError("sm_kinds.n_sms", cfg.sm_kinds.n_sms,
                              f"no SM kinds with the {mechanism.name} mechanism (it assumes "
                              "the sm section's resources on every SM)",
                              hint="run it on a GPU without sm_kinds")
        self.total_counts = self.make_counts()
        self.total_cycles = 0
        self.clock = 0
        """Core clock of the memory system: launches continue where the last one ended, so the
        memory system's pending timings stay meaningful (GPGPU-Sim ``gpu_tot_sim_cycle``)."""
        self._compiled = False
        self._launch: _Launch | None = None
        self.n_launches = 0

    # -- launch lifecycle ------------------------------------------------------------------------
    def start(self, program: Any, alloc: Any, *, n_ctas: int, cta_threads: int,
              regs_per_thread: int, shmem_bytes: int, tables: StaticTables | None = None,
              kernel: str = "", sms: Sequence[int] | None = None) -> None:
        """Begin a launch of ``program`` (``functional.program.Program``) whose registers are
        ``alloc`` (``ptx.regalloc.Allocation`` of ``program.fn``), on the SMs ``sms`` (default:
        every SM; e.g. ``sm_kinds(cfg)[1].sms`` for one kind of a heterogeneous GPU)."""
        self._launch = self.new_launch(program, alloc, n_ctas=n_ctas, cta_threads=cta_threads,
                                       regs_per_thread=regs_per_thread,
                                       shmem_bytes=shmem_bytes, tables=tables, kernel=kernel,
                                       sms=sms)

    def new_launch(self, program: Any, alloc: Any, *, n_ctas: int, cta_threads: int,
                   regs_per_thread: int, shmem_bytes: int, tables: StaticTables | None = None,
                   kernel: str = "", sms: Sequence[int] | None = None,
                   counts: np.ndarray | None = None) -> _Launch:
        """A launch's tables, state and mechanism state, starting at the current clock (what
        ``start`` makes current; ``timing.concurrent`` makes several, sharing ``counts``)."""
        from warpsim.timing.dispatch import occupancy_limits

        extra = self.mechanism.extra_units if self.mechanism is not None else ()
        tables = tables if tables is not None else build_static(program, alloc, self.cfg, extra)
        kernel = kernel or getattr(program, "name", "")
        base, caps = self._sm_caps(kernel, cta_threads, regs_per_thread, shmem_bytes, sms)
        n_per_sm, base_n = int(caps.max()), int(base.max())
        self._compile_s = 0.0 if self._compiled else self._warm(tables)
        lw = _Launch(self, tables, n_ctas, cta_threads, caps, regs_per_thread, shmem_bytes)
        if counts is not None:
            lw.counts = counts
        lw.occupancy = {**occupancy_limits(self.cfg, cta_threads, regs_per_thread, shmem_bytes),
                        "ctas_per_sm": n_per_sm}
        lw.kernel = kernel
        mech = self.mechanism
        if mech is not None:
            lw.mech_state = mech.start_launch(self._launch_info(
                program, alloc, tables, kernel, n_ctas, cta_threads, lw.wpc, regs_per_thread,
                shmem_bytes, n_per_sm, base_n, caps))
            mech.bind_core(lw.mech_state, read_only_view(lw.state))
            if self.mech_counter_names():
                mech.bind_counters(lw.mech_state, lw.counts[:, N_COUNTERS:])
        return lw

    def _launch_info(self, program: Any, alloc: Any, tables: StaticTables, kernel: str,
                     n_ctas: int, cta_threads: int, wpc: int, regs: int, shmem: int,
                     n_per_sm: int, base_n: int, caps: np.ndarray | None = None) -> Any:
        from warpsim.timing.launch_info import LaunchInfo

        n_sms = self.cfg.sm.n_sms
        if caps is None:
            caps = np.full(n_sms, n_per_sm, np.int64)
        return LaunchInfo(cfg=self.cfg, program=program, alloc=alloc, tables=tables,
                          kernel=kernel, n_ctas=n_ctas, cta_threads=cta_threads,
                          warps_per_cta=wpc, regs_per_thread=regs, shmem_bytes=shmem,
                          ctas_per_sm=n_per_sm, baseline_ctas_per_sm=base_n,
                          unit_types=self.unit_types(), sm_ctas=caps.copy(),
                          sm_kind=self.sm_kind.copy())

    def _sm_caps(self, kernel: str, cta_threads: int, regs: int, shmem: int,
                 sms: Sequence[int] | None) -> tuple[np.ndarray, np.ndarray]:
        """CTA slots of each SM without and with the mechanism (-1: not in ``sms``), from
        the occupancy of each SM's kind. ``LaunchError`` when no SM of ``sms`` fits a CTA."""
        n_sms = self.cfg.sm.n_sms
        owned = np.zeros(n_sms, bool)
        if sms is None:
            owned[:] = True
        else:
            picked = [int(x) for x in sms]
            bad = [x for x in picked if not 0 <= x < n_sms]
            if bad or not picked:
                raise LaunchError(kernel or "<kernel>", f"SM set {list(sms)!r} for a GPU with "
                                  f"{n_sms} SMs", hint=f"SM indices 0..{n_sms - 1}")
            owned[picked] = True
        base = np.full(n_sms, -1, np.int64)
        caps = np.full(n_sms, -1, np.int64)
        error: LaunchError | None = None
        mech = self.mechanism
        for kind in sm_kinds(self.cfg):
            mine = [x for x in kind.sms if owned[x]]
            if not mine:
                continue
            try:
                b = ctas_per_sm(kind.cfg, cta_threads, regs, shmem, kernel)
            except LaunchError as err:
                error = error or err
                base[mine] = caps[mine] = 0
                continue
            n = b
            if mech is not None:
                n = int(mech.ctas_per_sm(cta_threads, regs, shmem, b))
                n = max(1, min(n, kind.cfg.sm.n_max_ctas))
            base[mine] = b
            caps[mine] = n
        if caps.max() <= 0 and error is not None:
            raise error
        return base, caps

    def mech_counter_names(self) -> tuple[str, ...]:
        """The mechanism's own per-SM counters (``Mechanism.counter_names``)."""
        return tuple(getattr(self.mechanism, "counter_names", ()) or ())

    def make_counts(self) -> np.ndarray:
        """A zeroed ``counts[sm, counter]`` array: the engine's counters, then the mechanism's
        (columns ``N_COUNTERS + i``; idle-cycle skipping scales them with the rest)."""
        base = make_counts(self.cfg.sm.n_sms)
        k = len(self.mech_counter_names())
        return base if k == 0 else np.ascontiguousarray(
            np.concatenate([base, np.zeros((base.shape[0], k), np.int64)], axis=1))

    def mech_banks(self) -> int:
        """Bank rows the mechanism's operand storage needs (``Mechanism.regfile_banks``)."""
        return int(getattr(self.mechanism, "regfile_banks", 0) or 0)

    def unit_types(self) -> dict[str, int]:
        """Type id of each unit a mechanism adds (``Mechanism.extra_units``) by name."""
        extra = self.mechanism.extra_units if self.mechanism is not None else ()
        return {name: tc.N_UNIT_TYPES + i for i, (name, _) in enumerate(extra)}

    def consume(self, chunk: Any) -> None:
        """Add one ``TraceChunk`` (a CTA batch) and run the engine as far as it allows."""
        lw = self._need_launch()
        t0 = time.perf_counter()
        delivered = self._add_chunk(lw, chunk)
        self._rebuild_window(lw, delivered)
        lw.wall += time.perf_counter() - t0
        self._run(lw)

    def _add_chunk(self, lw: _Launch, chunk: Any) -> int:
        """Append a ``TraceChunk``'s records to the launch; returns the CTAs delivered."""
        rec = pack_records(chunk.order, chunk.offsets, chunk.pc, chunk.mask, chunk.exec_mask,
                           chunk.n_lines, chunk.n_sectors, chunk.bank_conflict,
                           chunk.line_start)
        n_rec = int(rec.shape[0])
        first = int(chunk.warp_cta[0]) if chunk.n_warps else 0
        k = -(-chunk.n_warps // lw.wpc) if chunk.n_warps else 0
        gw = (chunk.warp_cta.astype(np.int64) * lw.wpc + chunk.warp_in_cta)
        off = chunk.offsets.astype(np.int64)
        lw.window.wt[gw, fl.F_WT_BEG] = lw.rec_total + off[:-1]
        lw.window.wt[gw, fl.F_WT_END] = lw.rec_total + off[1:]
        mech = None
        if self.mechanism is not None and self.mechanism.n_record_columns > 0:
            mech = np.asarray(self.mechanism.record_columns(lw.mech_state, chunk), np.int64)
            if mech.shape != (n_rec, self.mechanism.n_record_columns):
                raise InternalError(f"{self.mechanism.name}.record_columns returned shape "
                                    f"{mech.shape}, expected ({n_rec}, "
                                    f"{self.mechanism.n_record_columns})")
        lw.chunks.append(_Chunk(first, k, rec, engine_lines(chunk.lines, chunk.line_sectors),
                                 mech))
        lw.chunk_recs.append(lw.rec_total)
        lw.rec_total += n_rec
        return first + k

    def finish(self) -> TimingResult:
        """Run the launch to completion and return its statistics."""
        lw = self._need_launch()
        lw.state.sc[tc.SC_FINAL] = 1
        if lw.status != tc.ST_DONE:
            self._run(lw)
        if lw.status != tc.ST_DONE:
            self._raise(lw)
        cycles = int(lw.state.sc[tc.SC_CYCLE]) - lw.start_cycle
        self.clock = int(lw.state.sc[tc.SC_CYCLE])
        counts = lw.counts
        if self.memsys.flush_counters is not None:
            self.memsys.flush_counters(self.ms, counts)
        counts[:, C_GPU_SIM_CYCLE] = cycles
        self.total_cycles += cycles
        self.total_counts += counts
        res = self._result(lw, counts, cycles)
        self._launch = None
        self.n_launches += 1
        return res

    def _result(self, lw: _Launch, counts: np.ndarray, cycles: int) -> TimingResult:
        """The launch's statistics from its ``counts`` (cumulative ones from the totals)."""
        counts[:, C_GPU_TOT_SIM_CYCLE] = self.total_cycles
        counts[:, C_GPU_TOT_SIM_INSN] = self.total_counts[:, C_GPU_SIM_INSN]
        self.total_counts[:, C_GPU_TOT_SIM_CYCLE] = self.total_cycles
        self.total_counts[:, C_GPU_TOT_SIM_INSN] = self.total_counts[:, C_GPU_SIM_INSN]
        n = N_COUNTERS
        flat: dict[str, Any] = dict(export(counts[:, :n]))
        flat.update(derive(flat))
        if self.mechanism is not None:
            extra = self.mechanism.finish_launch(lw.mech_state, counts)
            flat.update(extra)
            for name, value in extra.items():
                if isinstance(value, (int, np.integer)):
                    self.total_mech[name] = self.total_mech.get(name, 0) + int(value)
        n_w = flat["gpgpu_n_tot_w_icount"]
        for i, name in enumerate(self.mech_counter_names()):  # scaled over skipped cycles
            value = int(counts[:, n + i].sum())
            flat[name] = value
            self.total_mech[name] = self.total_mech.get(name, 0) + value
        res = TimingResult(stats=flat, per_sm=export_per_sm(counts[:, :n]), cycles=cycles,
                           wall_s=lw.wall, warp_inst_per_s=n_w / lw.wall if lw.wall > 0 else 0.0,
                           numba_compile_s=self._compile_s, occupancy=lw.occupancy,
                           pc_activity=lw.state.pc_act.copy())
        return res

    def cumulative_stats(self) -> dict[str, Any]:
        """Counters summed over every finished launch (``gpu_tot_*`` included)."""
        flat: dict[str, Any] = dict(export(self.total_counts[:, :N_COUNTERS]))
        flat["gpu_sim_cycle"] = self.total_cycles
        flat.update(derive(flat))
        flat.update(self.total_mech)
        return flat

    # -- internals -------------------------------------------------------------------------------
    def _need_launch(self) -> _Launch:
        if self._launch is None:
            raise InternalError("TimingSimulator: no launch in progress (call start first)")
        return self._launch

    def _rebuild_window(self, lw: _Launch, delivered: int) -> None:
        """Drop fully finished chunks at the front; concatenate the rest into the window."""
        done = lw.state.cta_done
        while lw.base_chunk < len(lw.chunks) - 1:
            c = lw.chunks[lw.base_chunk]
            if c is None or bool(done[c.first_cta:c.first_cta + c.n_ctas].all()):
                lw.chunks[lw.base_chunk] = None  # type: ignore[call-overload]
                lw.base_chunk += 1
            else:
                break
        live = [c for c in lw.chunks[lw.base_chunk:] if c is not None]
        if len(live) == 1:  # the chunk's rows as they are (the engine never writes them)
            rec, lines = live[0].rec, live[0].lines
        else:
            rec = np.concatenate([c.rec for c in live])
            lines = np.concatenate([c.lines for c in live])
            r = line = 0
            for c in live:  # LINE0 from chunk-local to window-local
                n = c.rec.shape[0]
                if line:
                    rec[r:r + n, fl.F_REC_LINE0] += line
                r += n
                line += c.lines.size
        if self.mechanism is not None and self.mechanism.n_record_columns > 0:
            lw.mech_cols = np.concatenate([c.mech for c in live])
        lw.window = TraceWindow(base=np.array([lw.chunk_recs[lw.base_chunk]], np.int64),
                                wt=lw.window.wt, rec=rec, lines=lines)
        lw.state.sc[tc.SC_N_DELIVERED] = delivered

    def _hook_state(self, lw: _Launch | None, window: TraceWindow) -> Any:
        """The hooks' state for a call of the cycle loop on ``lw`` (None: the warm-up)."""
        if self.mechanism is None:
            return self.hook_state
        mech_state = lw.mech_state if lw is not None else self._warm_state
        cols = lw.mech_cols if lw is not None else np.zeros(
            (0, max(1, self.mechanism.n_record_columns)), np.int64)
        return self.mechanism.hook_state(mech_state, cols, int(window.base[0]))

    def _call(self, lw: _Launch, state: CoreState, window: TraceWindow, counts: np.ndarray,
              ms: Any, prm: np.ndarray, tables: StaticTables) -> int:
        hs = self._hook_state(lw, window)
        return int(run_engine(state, tables, window, prm, counts, self.memsys.kind_map, ms,
                              self._ports, hs, self.hooks, self.max_cycles))

    def _run(self, lw: _Launch) -> None:
        t0 = time.perf_counter()
        lw.status = self._call(lw, lw.state, lw.window, lw.counts, self.ms, lw.prm, lw.tables)
        lw.wall += time.perf_counter() - t0
        if lw.status in (tc.ST_FAULT, tc.ST_CYCLE_LIMIT):
            self._raise(lw)

    def _warm(self, tables: StaticTables) -> float:
        with compile_notice():
            return self._warm_compile(tables)

    def _warm_compile(self, tables: StaticTables) -> float:
        """Compile the cycle loop (an empty launch with the same types); returns the seconds
        spent compiling (0 when this process had compiled it for these types already)."""
        n_sigs = len(getattr(run_engine, "signatures", ()))
        t0 = time.perf_counter()
        prm = self.prm.copy()
        if self.mechanism is not None:
            self._warm_state = self.mechanism.start_launch(self._launch_info(
                None, None, tables, "<warm-up>", 0, 1, 1, 1, 0, 1, 1))
        state = make_core_state(self.cfg, tables, 0, self.mech_banks())
        if self.mechanism is not None:
            self.mechanism.bind_core(self._warm_state, read_only_view(state))
        state.sc[tc.SC_FINAL] = 1
        window = empty_window(1)
        ms = self.memsys.make_mem_state(self.cfg)
        counts = self.make_counts()
        if self.mechanism is not None and self.mech_counter_names():
            self.mechanism.bind_counters(self._warm_state, counts[:, N_COUNTERS:])
        self._call(None, state, window, counts, ms,  # type: ignore
                   prm, tables)
        self._compiled = True
        if len(getattr(run_engine, "signatures", ())) == n_sigs:
            return 0.0  # already compiled (or numba disabled): nothing to report
        return time.perf_counter() - t0

    def _raise(self, lw: _Launch) -> None:
        st = lw.state
        if lw.status == tc.ST_CYCLE_LIMIT:
            raise InternalError(f"timing of {lw.kernel} stopped at the cycle limit "
                                f"{self.max_cycles}")
        wpc = int(lw.prm[tc.P_CTA_WARPS])
        partial = [(sm, c) for sm in range(st.cta.shape[0]) for c in range(st.cta.shape[1])
                   if st.cta[sm, c, fl.F_CTA_VALID] and st.cta[sm, c, fl.F_CTA_N_PLACED] < wpc]
        if partial:  # only a mechanism's ``warps_to_place`` leaves a CTA partially dispatched
            sm, c = partial[0]
            at_bar = sum(1 for w in range(st.warp.shape[1])
                         if st.warp[sm, w, F_WARP_VALID] and st.warp[sm, w, F_WARP_CTA] == c
                         and st.warp[sm, w, F_WARP_AT_BAR])
            name = self.mechanism.name if self.mechanism is not None else "<hooks>"
            raise LaunchError(lw.kernel, f"timing deadlocked at cycle "
                              f"{int(st.sc[tc.SC_CYCLE])} with the {name} mechanism on: CTA "
                              f"{int(st.cta[sm, c, F_CTA_ID])} on SM {sm} is partially "
                              f"dispatched ({int(st.cta[sm, c, fl.F_CTA_N_PLACED])} of {wpc} "
                              f"warps placed, {at_bar} of them waiting at a barrier for the "
                              "warps not placed) and the mechanism's warps_to_place never "
                              "places the rest",
                              hint="a mechanism that starts a CTA partially must place its "
                                   "remaining warps (free warp slots for them) before the "
                                   "placed ones can all wait at a barrier")
        waiting = [(sm, w) for sm in range(st.warp.shape[0])
                   for w in range(st.warp.shape[1])
                   if st.warp[sm, w, F_WARP_VALID] and st.warp[sm, w, F_WARP_AT_BAR]]
        if waiting:
            sm, w = waiting[0]
            cta = int(st.cta[sm, st.warp[sm, w, F_WARP_CTA], F_CTA_ID])
            raise BarrierDeadlockError(lw.kernel, (cta, 0, 0),
                                       f"timing model: warps wait at a barrier on SM {sm} "
                                       "that the rest of their CTA never reaches")
        if self.mechanism is not None:
            raise LaunchError(lw.kernel, f"timing deadlocked at cycle "
                              f"{int(st.sc[tc.SC_CYCLE])} with the {self.mechanism.name} "
                              "mechanism on: no unit can make progress (its hooks veto or hold "
                              "every remaining warp)",
                              hint="check the mechanism's configuration (docs/mechanisms/); "
                                   "with its defaults this is a warpsim bug: please report it")
        raise InternalError(f"timing of {lw.kernel} deadlocked at cycle "
                            f"{int(st.sc[tc.SC_CYCLE])} (status {lw.status}): no unit can make "
                            "progress; this is a warpsim bug")
