"""The statistics registry: every counter declared once, integer ids for numba, export, metrics.

Follows: STYLE.md §2.5 (one registry; ``Counter(name, unit, scope, doc)``; GPGPU-Sim names where
they exist, else ``<structure>_<event>[_<qualifier>]``; the engine counts into int64 slots
``counters[sm, C_<NAME>]``; derived metrics are formulas computed after the run; export is a
flat ``name -> value`` map with per-SM detail alongside; undeclared names are an error).
GPGPU-Sim meanings: reference/gpu-simulators.md §2 "Outputs", reference/energy-and-configs.md
§5.2 (``gpu_sim_insn`` counts thread instructions, i.e. active lanes).

The engine's array has one row per SM and one column per baseline counter, in ``BASELINE``
order; the ``C_<NAME>`` constants below are those columns (a test checks they match). Memory-side
events (L2, DRAM, interconnect) are counted in the row of the SM that caused them. A counter with
``combine="max"`` (the cycle counts) is exported as the maximum over SMs, the others as sums.
Mechanism counters live in the mechanisms' own state and are passed to ``export`` by name.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

import numpy as np

from warpsim.errors import InternalError

__all__ = [
    "BASELINE",
    "DERIVED",
    "REGISTRY",
    "SCOPES",
    "UNITS",
    "Counter",
    "CounterRegistry",
    "Derived",
    "derive",
    "export",
    "export_per_sm",
    "make_counts",
    "N_COUNTERS",
]

UNITS = frozenset({"count", "cycle", "byte", "pj"})
"""Counter units (STYLE.md §2.5)."""

SCOPES = frozenset({"gpu", "sm", "scheduler", "warp", "bank", "collector", "pipe", "cache",
                    "l2", "icnt", "dram"})
"""Where a counted event happens."""


@dataclass(frozen=True, slots=True)
class Counter:
    """One declared counter: ``Counter(name, unit, scope, doc)``."""

    name: str
    """Unique snake_case name (GPGPU-Sim's where one exists, case kept)."""
    unit: str
    """One of ``UNITS``."""
    scope: str
    """One of ``SCOPES``."""
    doc: str
    """Meaning: what one increment is."""
    combine: str = "sum"
    """How per-SM rows combine at export: ``"sum"`` or ``"max"``."""

    def __post_init__(self) -> None:
        if not self.name.isidentifier():
            raise InternalError(f"counter name {self.name!r} is not an identifier")
        if self.unit not in UNITS:
            raise InternalError(f"counter {self.name}: unit {self.unit!r} not in {sorted(UNITS)}")
        if self.scope not in SCOPES:
            raise InternalError(
                f"counter {self.name}: scope {self.scope!r} not in {sorted(SCOPES)}")
        if self.combine not in ("sum", "max"):
            raise InternalError(f"counter {self.name}: combine must be 'sum' or 'max'")
        if not self.doc.strip():
            raise InternalError(f"counter {self.name} has no doc")


def _c(name: str, unit: str, scope: str, doc: str, combine: str = "sum") -> Counter:
    return Counter(name, unit, scope, doc, combine)


BASELINE: tuple[Counter, ...] = (
    # -- GPU totals (GPGPU-Sim names) ----------------------------------------------------------
    _c("gpu_sim_cycle", "cycle", "gpu", "core cycles of this kernel launch", "max"),
    _c("gpu_sim_insn", "count", "gpu", "thread instructions (active lanes) of this launch"),
    _c("gpgpu_n_tot_w_icount", "count", "gpu", "warp instructions issued in this launch"),
    _c("gpu_tot_sim_cycle", "cycle", "gpu", "core cycles over all launches of the run", "max"),
    _c("gpu_tot_sim_insn", "count", "gpu", "thread instructions over all launches"),
    # -- SM activity and occupancy -------------------------------------------------------------
    _c("sm_active_cycles", "cycle", "sm", "cycles with at least one resident CTA"),
    _c("sm_idle_cycles", "cycle", "sm", "cycles of the launch with no resident CTA"),
    _c("sm_active_warp_cycles", "cycle", "sm", "sum over cycles of resident warps"),
    _c("sm_ctas_launched", "count", "sm", "CTAs dispatched to the SM"),
    _c("sm_warps_launched", "count", "sm", "warps dispatched to the SM"),
    _c("sm_barrier_waits", "count", "warp", "warp arrivals at a CTA barrier"),
    # -- front end, scheduler, scoreboard ------------------------------------------------------
    _c("l1i_fetches", "count", "sm", "instruction fetches (one warp's I-cache line)"),
    _c("decode_insts", "count", "sm", "warp instructions decoded into the I-buffer"),
    _c("sched_active_cycles", "cycle", "scheduler", "scheduler-cycles examined (n_schedulers "
       "per active cycle)"),
    _c("sched_warp_insts_issued", "count", "scheduler", "warp instructions issued"),
    _c("sched_dual_issues", "count", "scheduler", "cycles a scheduler issued 2 instructions"),
    _c("sched_idle_cycles", "cycle", "scheduler", "scheduler-cycles with no valid "
       "instruction in any of its warps' I-buffers (GPGPU-Sim W0_Idle)"),
    _c("sched_scoreboard_stall_cycles", "cycle", "scheduler", "scheduler-cycles whose "
       "candidates all waited on the scoreboard (GPGPU-Sim W0_Scoreboard)"),
    _c("sched_pipe_stall_cycles", "cycle", "scheduler", "scheduler-cycles with a ready warp "
       "but a full ID_OC register or busy unit"),
    _c("sched_barrier_stall_cycles", "cycle", "scheduler", "scheduler-cycles whose warps "
       "all waited at a barrier"),
    _c("sched_ibuffer_empty_cycles", "cycle", "scheduler", "scheduler-cycles whose warps "
       "all had empty I-buffers (fetch or control hazard)"),
    _c("scoreboard_reservations", "count", "warp", "destination registers reserved at issue"),
    _c("simt_branches", "count", "warp", "branch warp instructions executed"),
    _c("simt_divergent_branches", "count", "warp", "branches whose active lanes split"),
    # -- register file and operand collectors --------------------------------------------------
    _c("regfile_bank_reads", "count", "bank", "bank read accesses (one warp register each)"),
    _c("regfile_bank_writes", "count", "bank", "bank write accesses (one warp register each)"),
    _c("regfile_bank_conflict_stalls", "cycle", "bank", "read requests that waited a cycle "
       "because their bank was busy"),
    _c("regfile_write_conflict_stalls", "cycle", "bank", "writebacks retried because the "
       "bank was taken"),
    _c("regfile_non_rf_operands", "count", "sm", "source operands not read from the "
       "register file (immediates, constants; GPGPU-Sim incnon_rf_operands)"),
    _c("opcoll_alloc_stalls", "cycle", "collector", "issued instructions that found no free "
       "collector unit in their set"),
    _c("opcoll_dispatch_stalls", "cycle", "collector", "ready collector units blocked by a "
       "full OC_EX register"),
    # -- execution pipelines ---------------------------------------------------------------------
    _c("exec_int32_warp_insts", "count", "pipe", "warp instructions on the INT pipeline"),
    _c("exec_fp32_warp_insts", "count", "pipe", "warp instructions on the SP pipeline"),
    _c("exec_fp64_warp_insts", "count", "pipe", "warp instructions on the DP pipeline"),
    _c("exec_sfu_warp_insts", "count", "pipe", "warp instructions on the SFU"),
    _c("exec_ldst_warp_insts", "count", "pipe", "warp instructions on the LD/ST pipeline"),
    _c("exec_tensor_warp_insts", "count", "pipe", "warp instructions on the tensor cores"),
    _c("exec_int32_thread_insts", "count", "pipe", "active lanes of INT instructions"),
    _c("exec_fp32_thread_insts", "count", "pipe", "active lanes of SP instructions"),
    _c("exec_fp64_thread_insts", "count", "pipe", "active lanes of DP instructions"),
    _c("exec_sfu_thread_insts", "count", "pipe", "active lanes of SFU instructions"),
    _c("exec_tensor_thread_insts", "count", "pipe", "active lanes of tensor instructions"),
    _c("writeback_warp_insts", "count", "sm", "warp instructions written back"),
    # -- memory instructions (GPGPU-Sim names; thread instructions) ----------------------------
    _c("gpgpu_n_load_insn", "count", "sm", "load thread instructions (global and local)"),
    _c("gpgpu_n_store_insn", "count", "sm", "store thread instructions (global and local)"),
    _c("gpgpu_n_shmem_insn", "count", "sm", "shared-memory thread instructions"),
    _c("gpgpu_n_tex_insn", "count", "sm", "texture thread instructions"),
    _c("gpgpu_n_const_insn", "count", "sm", "constant-memory thread instructions"),
    _c("gpgpu_n_param_insn", "count", "sm", "kernel-parameter thread instructions"),
    _c("gpgpu_n_mem_read_global", "count", "sm", "global read requests after coalescing"),
    _c("gpgpu_n_mem_write_global", "count", "sm", "global write requests after coalescing"),
    _c("gpgpu_n_mem_read_local", "count", "sm", "local read requests after coalescing"),
    _c("gpgpu_n_mem_write_local", "count", "sm", "local write requests after coalescing"),
    _c("gpgpu_n_stall_shd_mem", "cycle", "sm", "cycles the LD/ST stage could not accept"),
    _c("gpgpu_n_shmem_bkconflict", "count", "sm", "extra shared-memory cycles from bank "
       "conflicts"),
    _c("gpgpu_n_cache_bkconflict", "count", "sm", "extra L1D cycles from bank conflicts"),
    _c("shmem_warp_accesses", "count", "sm", "shared-memory warp accesses (before conflicts)"),
    _c("mem_loads_completed", "count", "sm", "global/local load warp requests completed"),
    _c("mem_load_latency_cycles", "cycle", "sm", "sum of issue-to-writeback latency of "
       "completed loads"),
    # -- caches (GPGPU-Sim names) ----------------------------------------------------------------
    _c("L1I_total_cache_accesses", "count", "cache", "instruction-cache accesses"),
    _c("L1I_total_cache_misses", "count", "cache", "instruction-cache misses"),
    _c("L1D_total_cache_accesses", "count", "cache", "L1 data-cache accesses"),
    _c("L1D_total_cache_misses", "count", "cache", "L1 data-cache misses"),
    _c("L1D_total_cache_pending_hits", "count", "cache", "L1D hits on a line still in flight"),
    _c("L1D_total_cache_reservation_fails", "count", "cache", "L1D accesses refused (no MSHR, "
       "line or miss-queue entry)"),
    _c("L1D_total_cache_writes", "count", "cache", "L1D write accesses"),
    _c("L1C_total_cache_accesses", "count", "cache", "constant-cache accesses"),
    _c("L1C_total_cache_misses", "count", "cache", "constant-cache misses"),
    _c("L1T_total_cache_accesses", "count", "cache", "texture-cache accesses"),
    _c("L1T_total_cache_misses", "count", "cache", "texture-cache misses"),
    _c("L2_total_cache_accesses", "count", "l2", "L2 accesses"),
    _c("L2_total_cache_misses", "count", "l2", "L2 misses"),
    _c("L2_total_cache_pending_hits", "count", "l2", "L2 hits on a line still in flight"),
    _c("L2_total_cache_reservation_fails", "count", "l2", "L2 accesses refused"),
    _c("L2_total_cache_writes", "count", "l2", "L2 write accesses"),
    # -- interconnect and DRAM -------------------------------------------------------------------
    _c("icnt_flits_to_mem", "count", "icnt", "flits sent SM -> L2"),
    _c("icnt_flits_to_sm", "count", "icnt", "flits sent L2 -> SM"),
    _c("icnt_stall_cycles", "cycle", "icnt", "cycles an SM could not inject (full buffer)"),
    _c("dram_reads", "count", "dram", "DRAM read bursts (GPGPU-Sim 'total dram reads')"),
    _c("dram_writes", "count", "dram", "DRAM write bursts (GPGPU-Sim 'total dram writes')"),
    _c("dram_read_bytes", "byte", "dram", "bytes read from DRAM"),
    _c("dram_write_bytes", "byte", "dram", "bytes written to DRAM"),
    _c("dram_activates", "count", "dram", "row activations"),
    _c("dram_precharges", "count", "dram", "row precharges"),
    _c("dram_row_hits", "count", "dram", "column accesses to an already open row"),
    _c("dram_busy_cycles", "cycle", "dram", "DRAM cycles with the data bus transferring"),
    # -- mechanism seams (``on_issue`` outcomes; 0 with every mechanism off) -------------------
    _c("issue_completed_insts", "count", "sm", "issued warp instructions a mechanism completed "
       "without a unit (ISSUE_COMPLETE, e.g. a reuse hit)"),
    _c("issue_parked_insts", "count", "sm", "issued warp instructions a mechanism parked "
       "(ISSUE_PARK)"),
    _c("mech_mem_lines", "count", "sm", "lines a mechanism sent through the SM's memory port "
       "(mem_request)"),
    _c("mech_mem_refusals", "count", "sm", "mechanism lines the memory system refused (retried "
       "later)"),
    # -- the L1 fetch-group seam (``l1_fetch_group``; 0 with every mechanism off) --------------
    _c("l1d_group_lines", "count", "cache", "absent neighbour lines an L1D global-load miss "
       "fetched with it (same lookup, same request)"),
    _c("l1d_group_lines_dropped", "count", "cache", "absent neighbour lines not fetched (no "
       "MSHR, way or miss-queue entry left after the demand miss)"),
    _c("l1d_group_requests", "count", "cache", "L1D read requests carrying more than one line "
       "(paired requests)"),
    _c("l1d_group_splits", "count", "cache", "extra L1D read requests because a group's lines "
       "map to different L2 slices"),
    # -- store acknowledgements (``l2.store_acks``; 0 when off) ---------------------------------
    _c("store_acks", "count", "icnt", "store acknowledgements (WRITE_ACK replies, one per "
       "sector written) the L2 slices sent to the SMs"),
    _c("store_ack_wait_cycles", "cycle", "sm", "cycles warps were done but for their store "
       "acknowledgements (summed at exit)"),
)
"""The baseline counters, in column order of the engine's counts array."""


@dataclass(frozen=True, slots=True)
class Derived:
    """A metric computed after the run: ``scale * sum(numerator) / sum(denominator)``."""

    name: str
    numerator: tuple[str, ...]
    denominator: tuple[str, ...]
    doc: str
    scale: float = 1.0

    @property
    def formula(self) -> str:
        """Human-readable formula."""
        num = " + ".join(self.numerator)
        den = " + ".join(self.denominator)
        lead = f"{self.scale:g} * " if self.scale != 1.0 else ""
        return f"{self.name} = {lead}({num}) / ({den})"


DERIVED: tuple[Derived, ...] = (
    Derived("gpu_ipc", ("gpu_sim_insn",), ("gpu_sim_cycle",),
            "thread instructions per core cycle (GPGPU-Sim gpu_ipc)"),
    Derived("gpu_tot_ipc", ("gpu_tot_sim_insn",), ("gpu_tot_sim_cycle",),
            "thread instructions per cycle over the run (GPGPU-Sim gpu_tot_ipc)"),
    Derived("gpu_warp_ipc", ("gpgpu_n_tot_w_icount",), ("gpu_sim_cycle",),
            "warp instructions per core cycle"),
    Derived("L1D_total_cache_miss_rate", ("L1D_total_cache_misses",),
            ("L1D_total_cache_accesses",), "L1D misses per access"),
    Derived("L1I_total_cache_miss_rate", ("L1I_total_cache_misses",),
            ("L1I_total_cache_accesses",), "instruction-cache misses per access"),
    Derived("L1C_total_cache_miss_rate", ("L1C_total_cache_misses",),
            ("L1C_total_cache_accesses",), "constant-cache misses per access"),
    Derived("L1T_total_cache_miss_rate", ("L1T_total_cache_misses",),
            ("L1T_total_cache_accesses",), "texture-cache misses per access"),
    Derived("L2_total_cache_miss_rate", ("L2_total_cache_misses",),
            ("L2_total_cache_accesses",), "L2 misses per access"),
    Derived("dram_row_hit_frac", ("dram_row_hits",), ("dram_reads", "dram_writes"),
            "DRAM accesses that found their row open"),
    Derived("regfile_bank_conflict_frac", ("regfile_bank_conflict_stalls",),
            ("regfile_bank_reads",), "bank-conflict stall cycles per bank read"),
    Derived("sched_issue_frac", ("sched_warp_insts_issued",), ("sched_active_cycles",),
            "issued instructions per scheduler-cycle"),
    Derived("sm_avg_active_warps", ("sm_active_warp_cycles",), ("sm_active_cycles",),
            "average resident warps per active SM cycle"),
    Derived("mem_avg_load_latency_cycles", ("mem_load_latency_cycles",),
            ("mem_loads_completed",), "average load latency in core cycles"),
    Derived("simt_divergence_frac", ("simt_divergent_branches",), ("simt_branches",),
            "branches that diverged"),
)
"""Derived metrics (ratios) of the baseline counters."""


class CounterRegistry:
    """Ordered set of declared counters: the array-backed baseline plus named extras."""

    __slots__ = ("_counters", "_index", "n_array")

    def __init__(self, array_counters: Iterable[Counter],
                 extra_counters: Iterable[Counter] = ()) -> None:
        self._counters: list[Counter] = []
        self._index: dict[str, int] = {}
        for c in array_counters:
            self._add(c)
        self.n_array = len(self._counters)
        """Counters held in the engine's counts array (ids 0 .. n_array-1)."""
        for c in extra_counters:
            self._add(c)

    def _add(self, counter: Counter) -> None:
        if counter.name in self._index:
            raise InternalError(f"counter {counter.name} declared twice")
        self._index[counter.name] = len(self._counters)
        self._counters.append(counter)

    def with_counters(self, counters: Iterable[Counter]) -> CounterRegistry:
        """A new registry with ``counters`` (e.g. a mechanism's ``COUNTERS``) added as extras."""
        return CounterRegistry(self._counters[:self.n_array],
                               [*self._counters[self.n_array:], *counters])

    def index(self, name: str) -> int:
        """Id of ``name`` (its column when ``< n_array``)."""
        try:
            return self._index[name]
        except KeyError:
            raise InternalError(_undeclared(name, self._index)) from None

    def __getitem__(self, name: str) -> Counter:
        return self._counters[self.index(name)]

    def __contains__(self, name: object) -> bool:
        return name in self._index

    def __len__(self) -> int:
        return len(self._counters)

    def __iter__(self) -> Iterator[Counter]:
        return iter(self._counters)

    @property
    def names(self) -> tuple[str, ...]:
        """All counter names in id order."""
        return tuple(c.name for c in self._counters)


def _undeclared(name: str, known: Iterable[str]) -> str:
    import difflib

    close = difflib.get_close_matches(name, list(known), n=3)
    hint = f"\n  hint: did you mean {' or '.join(close)}?" if close else \
        "\n  hint: declare it in warpsim/stats.py or in the mechanism's COUNTERS"
    return f"undeclared counter {name!r}{hint}"


REGISTRY = CounterRegistry(BASELINE)
"""The baseline registry (array-backed counters only)."""


def make_counts(n_sms: int, registry: CounterRegistry = REGISTRY) -> np.ndarray:
    """A zeroed ``counts[sm, counter]`` int64 array for the engine."""
    return np.zeros((n_sms, registry.n_array), dtype=np.int64)


def _check_counts(counts: np.ndarray, registry: CounterRegistry) -> None:
    if counts.ndim != 2 or counts.shape[1] != registry.n_array:
        raise InternalError(f"counts array has shape {counts.shape}, expected "
                            f"(n_sms, {registry.n_array})")
    if counts.dtype != np.int64:
        raise InternalError(f"counts array has dtype {counts.dtype}, expected int64")


def export(counts: np.ndarray, extra: Mapping[str, int] | None = None,
           registry: CounterRegistry = REGISTRY) -> dict[str, int]:
    """Flat ``name -> value`` of every declared counter, zeros included.

    Parameters
    ----------
    counts
        ``counts[sm, counter]`` int64, columns in registry order.
    extra
        Values of counters kept outside the array (mechanism counters), by name; each must be
        declared in ``registry``; declared extras that are absent export as 0.

    Raises
    ------
    InternalError
        For an undeclared name in ``extra`` or a counts array of the wrong shape or dtype.
    """
    _check_counts(counts, registry)
    out: dict[str, int] = {}
    if counts.shape[0]:
        sums = counts.sum(axis=0)
        maxs = counts.max(axis=0)
    else:
        sums = maxs = np.zeros(registry.n_array, dtype=np.int64)
    for i, c in enumerate(registry):
        if i >= registry.n_array:
            out[c.name] = 0
            continue
        out[c.name] = int(maxs[i] if c.combine == "max" else sums[i])
    for name, value in (extra or {}).items():
        idx = registry.index(name)
        if idx < registry.n_array:
            raise InternalError(f"counter {name!r} is array-backed; pass it in counts")
        out[name] = int(value)
    return out


def export_per_sm(counts: np.ndarray,
                  registry: CounterRegistry = REGISTRY) -> dict[str, list[int]]:
    """Per-SM detail: ``name -> [value of SM 0, SM 1, ...]`` for every array counter."""
    _check_counts(counts, registry)
    return {c.name: [int(v) for v in counts[:, i]]
            for i, c in enumerate(registry) if i < registry.n_array}


def derive(flat: Mapping[str, int],
           metrics: Iterable[Derived] = DERIVED) -> dict[str, float]:
    """Evaluate derived metrics over an exported flat map; 0/0 gives NaN."""
    out: dict[str, float] = {}
    for m in metrics:
        for name in (*m.numerator, *m.denominator):
            if name not in flat:
                raise InternalError(_undeclared(name, flat))
        num = sum(flat[n] for n in m.numerator)
        den = sum(flat[n] for n in m.denominator)
        out[m.name] = m.scale * num / den if den else float("nan")
    return out


# -- counter ids for jitted code (column of counts[sm, :]); a test checks them against BASELINE
C_GPU_SIM_CYCLE = 0
C_GPU_SIM_INSN = 1
C_GPGPU_N_TOT_W_ICOUNT = 2
C_GPU_TOT_SIM_CYCLE = 3
C_GPU_TOT_SIM_INSN = 4
C_SM_ACTIVE_CYCLES = 5
C_SM_IDLE_CYCLES = 6
C_SM_ACTIVE_WARP_CYCLES = 7
C_SM_CTAS_LAUNCHED = 8
C_SM_WARPS_LAUNCHED = 9
C_SM_BARRIER_WAITS = 10
C_L1I_FETCHES = 11
C_DECODE_INSTS = 12
C_SCHED_ACTIVE_CYCLES = 13
C_SCHED_WARP_INSTS_ISSUED = 14
C_SCHED_DUAL_ISSUES = 15
C_SCHED_IDLE_CYCLES = 16
C_SCHED_SCOREBOARD_STALL_CYCLES = 17
C_SCHED_PIPE_STALL_CYCLES = 18
C_SCHED_BARRIER_STALL_CYCLES = 19
C_SCHED_IBUFFER_EMPTY_CYCLES = 20
C_SCOREBOARD_RESERVATIONS = 21
C_SIMT_BRANCHES = 22
C_SIMT_DIVERGENT_BRANCHES = 23
C_REGFILE_BANK_READS = 24
C_REGFILE_BANK_WRITES = 25
C_REGFILE_BANK_CONFLICT_STALLS = 26
C_REGFILE_WRITE_CONFLICT_STALLS = 27
C_REGFILE_NON_RF_OPERANDS = 28
C_OPCOLL_ALLOC_STALLS = 29
C_OPCOLL_DISPATCH_STALLS = 30
C_EXEC_INT32_WARP_INSTS = 31
C_EXEC_FP32_WARP_INSTS = 32
C_EXEC_FP64_WARP_INSTS = 33
C_EXEC_SFU_WARP_INSTS = 34
C_EXEC_LDST_WARP_INSTS = 35
C_EXEC_TENSOR_WARP_INSTS = 36
C_EXEC_INT32_THREAD_INSTS = 37
C_EXEC_FP32_THREAD_INSTS = 38
C_EXEC_FP64_THREAD_INSTS = 39
C_EXEC_SFU_THREAD_INSTS = 40
C_EXEC_TENSOR_THREAD_INSTS = 41
C_WRITEBACK_WARP_INSTS = 42
C_GPGPU_N_LOAD_INSN = 43
C_GPGPU_N_STORE_INSN = 44
C_GPGPU_N_SHMEM_INSN = 45
C_GPGPU_N_TEX_INSN = 46
C_GPGPU_N_CONST_INSN = 47
C_GPGPU_N_PARAM_INSN = 48
C_GPGPU_N_MEM_READ_GLOBAL = 49
C_GPGPU_N_MEM_WRITE_GLOBAL = 50
C_GPGPU_N_MEM_READ_LOCAL = 51
C_GPGPU_N_MEM_WRITE_LOCAL = 52
C_GPGPU_N_STALL_SHD_MEM = 53
C_GPGPU_N_SHMEM_BKCONFLICT = 54
C_GPGPU_N_CACHE_BKCONFLICT = 55
C_SHMEM_WARP_ACCESSES = 56
C_MEM_LOADS_COMPLETED = 57
C_MEM_LOAD_LATENCY_CYCLES = 58
C_L1I_TOTAL_CACHE_ACCESSES = 59
C_L1I_TOTAL_CACHE_MISSES = 60
C_L1D_TOTAL_CACHE_ACCESSES = 61
C_L1D_TOTAL_CACHE_MISSES = 62
C_L1D_TOTAL_CACHE_PENDING_HITS = 63
C_L1D_TOTAL_CACHE_RESERVATION_FAILS = 64
C_L1D_TOTAL_CACHE_WRITES = 65
C_L1C_TOTAL_CACHE_ACCESSES = 66
C_L1C_TOTAL_CACHE_MISSES = 67
C_L1T_TOTAL_CACHE_ACCESSES = 68
C_L1T_TOTAL_CACHE_MISSES = 69
C_L2_TOTAL_CACHE_ACCESSES = 70
C_L2_TOTAL_CACHE_MISSES = 71
C_L2_TOTAL_CACHE_PENDING_HITS = 72
C_L2_TOTAL_CACHE_RESERVATION_FAILS = 73
C_L2_TOTAL_CACHE_WRITES = 74
C_ICNT_FLITS_TO_MEM = 75
C_ICNT_FLITS_TO_SM = 76
C_ICNT_STALL_CYCLES = 77
C_DRAM_READS = 78
C_DRAM_WRITES = 79
C_DRAM_READ_BYTES = 80
C_DRAM_WRITE_BYTES = 81
C_DRAM_ACTIVATES = 82
C_DRAM_PRECHARGES = 83
C_DRAM_ROW_HITS = 84
C_DRAM_BUSY_CYCLES = 85
C_ISSUE_COMPLETED_INSTS = 86
C_ISSUE_PARKED_INSTS = 87
C_MECH_MEM_LINES = 88
C_MECH_MEM_REFUSALS = 89
C_L1D_GROUP_LINES = 90
C_L1D_GROUP_LINES_DROPPED = 91
C_L1D_GROUP_REQUESTS = 92
C_L1D_GROUP_SPLITS = 93
C_STORE_ACKS = 94
C_STORE_ACK_WAIT_CYCLES = 95
N_COUNTERS = 96
"""Columns of the counts array (len(BASELINE))."""

__all__ += [  # the counter ids
    "C_GPU_SIM_CYCLE", "C_GPU_SIM_INSN", "C_GPGPU_N_TOT_W_ICOUNT", "C_GPU_TOT_SIM_CYCLE",
    "C_GPU_TOT_SIM_INSN", "C_SM_ACTIVE_CYCLES", "C_SM_IDLE_CYCLES", "C_SM_ACTIVE_WARP_CYCLES",
    "C_SM_CTAS_LAUNCHED", "C_SM_WARPS_LAUNCHED", "C_SM_BARRIER_WAITS", "C_L1I_FETCHES",
    "C_DECODE_INSTS", "C_SCHED_ACTIVE_CYCLES", "C_SCHED_WARP_INSTS_ISSUED", "C_SCHED_DUAL_ISSUES",
    "C_SCHED_IDLE_CYCLES", "C_SCHED_SCOREBOARD_STALL_CYCLES", "C_SCHED_PIPE_STALL_CYCLES",
    "C_SCHED_BARRIER_STALL_CYCLES", "C_SCHED_IBUFFER_EMPTY_CYCLES", "C_SCOREBOARD_RESERVATIONS",
    "C_SIMT_BRANCHES", "C_SIMT_DIVERGENT_BRANCHES", "C_REGFILE_BANK_READS",
    "C_REGFILE_BANK_WRITES", "C_REGFILE_BANK_CONFLICT_STALLS", "C_REGFILE_WRITE_CONFLICT_STALLS",
    "C_REGFILE_NON_RF_OPERANDS", "C_OPCOLL_ALLOC_STALLS", "C_OPCOLL_DISPATCH_STALLS",
    "C_EXEC_INT32_WARP_INSTS", "C_EXEC_FP32_WARP_INSTS", "C_EXEC_FP64_WARP_INSTS",
    "C_EXEC_SFU_WARP_INSTS", "C_EXEC_LDST_WARP_INSTS", "C_EXEC_TENSOR_WARP_INSTS",
    "C_EXEC_INT32_THREAD_INSTS", "C_EXEC_FP32_THREAD_INSTS", "C_EXEC_FP64_THREAD_INSTS",
    "C_EXEC_SFU_THREAD_INSTS", "C_EXEC_TENSOR_THREAD_INSTS", "C_WRITEBACK_WARP_INSTS",
    "C_GPGPU_N_LOAD_INSN", "C_GPGPU_N_STORE_INSN", "C_GPGPU_N_SHMEM_INSN", "C_GPGPU_N_TEX_INSN",
    "C_GPGPU_N_CONST_INSN", "C_GPGPU_N_PARAM_INSN", "C_GPGPU_N_MEM_READ_GLOBAL",
    "C_GPGPU_N_MEM_WRITE_GLOBAL", "C_GPGPU_N_MEM_READ_LOCAL", "C_GPGPU_N_MEM_WRITE_LOCAL",
    "C_GPGPU_N_STALL_SHD_MEM", "C_GPGPU_N_SHMEM_BKCONFLICT", "C_GPGPU_N_CACHE_BKCONFLICT",
    "C_SHMEM_WARP_ACCESSES", "C_MEM_LOADS_COMPLETED", "C_MEM_LOAD_LATENCY_CYCLES",
    "C_L1I_TOTAL_CACHE_ACCESSES", "C_L1I_TOTAL_CACHE_MISSES", "C_L1D_TOTAL_CACHE_ACCESSES",
    "C_L1D_TOTAL_CACHE_MISSES", "C_L1D_TOTAL_CACHE_PENDING_HITS",
    "C_L1D_TOTAL_CACHE_RESERVATION_FAILS", "C_L1D_TOTAL_CACHE_WRITES",
    "C_L1C_TOTAL_CACHE_ACCESSES", "C_L1C_TOTAL_CACHE_MISSES", "C_L1T_TOTAL_CACHE_ACCESSES",
    "C_L1T_TOTAL_CACHE_MISSES", "C_L2_TOTAL_CACHE_ACCESSES", "C_L2_TOTAL_CACHE_MISSES",
    "C_L2_TOTAL_CACHE_PENDING_HITS", "C_L2_TOTAL_CACHE_RESERVATION_FAILS",
    "C_L2_TOTAL_CACHE_WRITES", "C_ICNT_FLITS_TO_MEM", "C_ICNT_FLITS_TO_SM", "C_ICNT_STALL_CYCLES",
    "C_DRAM_READS", "C_DRAM_WRITES", "C_DRAM_READ_BYTES", "C_DRAM_WRITE_BYTES", "C_DRAM_ACTIVATES",
    "C_DRAM_PRECHARGES", "C_DRAM_ROW_HITS", "C_DRAM_BUSY_CYCLES",
    "C_ISSUE_COMPLETED_INSTS", "C_ISSUE_PARKED_INSTS", "C_MECH_MEM_LINES",
    "C_MECH_MEM_REFUSALS", "C_L1D_GROUP_LINES", "C_L1D_GROUP_LINES_DROPPED",
    "C_L1D_GROUP_REQUESTS", "C_L1D_GROUP_SPLITS", "C_STORE_ACKS", "C_STORE_ACK_WAIT_CYCLES",
]
