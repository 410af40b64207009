"""The functional SIMT executor: runs a kernel launch over batches of CTAs, warp groups in
lockstep with IPDOM reconvergence stacks and CTA barriers, and streams per-warp traces.

Follows: ARCHITECTURE.md §3 and §9; GPGPU-Sim's post-dominator SIMT stack (taken path first;
``simt_stack.py``); PTX ISA §9.7.13.1 (``bar.sync``/``barrier.sync``: with no thread count the
barrier waits for all non-exited threads of the CTA; with a count, for that many threads,
counted per warp).
Assumptions:
  [A] Scheduling: among runnable warp groups the one with the lowest PC runs next (it runs
      straight-line code until a branch, a barrier, an exit, or until it reaches a PC where
      other warps wait, which then join it); a group that loops for more than
      ``YIELD_BRANCHES`` taken branches while others wait yields to the next one, so that a
      warp spinning on a flag another warp of the batch sets does not starve it; the group
      given the turn keeps it for as many branches even when it jumps past a waiting lower
      PC (a spinner at a lower PC would otherwise let it run one loop iteration per turn).
      (A flag set by a CTA of a later batch can never be seen: batches run one after another.)
      Every warp executes each instruction for all its active lanes at once, so
      warp-synchronous code behaves as on hardware.
  [A] A barrier completes when every non-finished warp of the CTA waits at it (or the thread
      count is reached), as in GPGPU-Sim (arrival is per warp). Live lanes of a waiting warp
      that did not arrive (a barrier in divergent code) are treated as exited when every path
      from where they wait leads to exit without a barrier (``if (i >= n) return;`` before
      ``__syncthreads()``, PTX: exited threads are not waited for); when a barrier is
      reachable from there they can never arrive in order: ``BarrierDeadlockError``.
  [A] ``%clock``/``%clock64`` read the number of warp-instruction dispatches of the launch so far
      (a loop that only waits for the clock is skipped in bulk: ``clock_loops.py``).
  [A] ``max_steps`` bounds the dynamic warp instructions along any one warp's path.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from warpsim.errors import DeviceTrapError, LaunchError
from warpsim.functional.barriers import BarrierUnit
from warpsim.functional.batch_setup import setup_batch
from warpsim.functional.clock_loops import clock_loops, skip_clock_loop
from warpsim.functional.grid_sync import HINT as GRID_SYNC_HINT
from warpsim.functional.grid_sync import grid_workspace
from warpsim.functional.loader import Kind
from warpsim.functional.oob import OOBLog
from warpsim.functional.program import ModuleImage, Program
from warpsim.functional.simt_stack import Group, SimtStacks, ballot
from warpsim.functional.textures import TextureDesc, TextureFetcher
from warpsim.functional.trace import LaunchTrace, TraceBuilder, TraceChunk
from warpsim.functional.trace_values import ValueRecorder
from warpsim.functional.watchdog import CHECK_BRANCHES, Watchdog

__all__ = ["BATCH_MEMORY_BYTES", "DEFAULT_BATCH_THREADS", "LaunchResult", "StepLimitError",
           "launch"]

DEFAULT_BATCH_THREADS = 65536
"""Threads per CTA batch (ARCHITECTURE.md §9: 16-64 Ki threads). Larger batches amortise the
per-dispatch Python overhead (measured here: 8 Ki 0.5x, 16 Ki 0.7x, 32 Ki 1x, 64 Ki 1.1-1.5x,
128 Ki 1.4-1.8x the 32 Ki rate) at the cost of memory proportional to the batch."""


BATCH_MEMORY_BYTES = 1 << 29
"""Upper bound on a batch's register file plus local memory (fewer CTAs per batch above it)."""
YIELD_BRANCHES = 1024
"""Taken branches after which a group that keeps running yields to the next runnable group."""


class StepLimitError(LaunchError):
    """A warp exceeded ``max_steps`` dynamic instructions (an infinite loop is suspected)."""


@dataclass(slots=True)
class LaunchResult:
    """What one functional launch did."""

    kernel: str
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    thread_instructions: int
    """Active lanes summed over all dynamic warp instructions (GPGPU-Sim ``gpu_sim_insn``)."""
    warp_instructions: int
    """Dynamic warp instructions (GPGPU-Sim ``gpgpu_n_tot_w_icount``)."""
    opcode_counts: dict[str, int]
    """Dynamic warp instructions per full opcode."""
    opcode_thread_counts: dict[str, int]
    pc_warp_counts: np.ndarray
    pc_thread_counts: np.ndarray
    n_batches: int
    wall_s: float
    trace: LaunchTrace | None = None
    stats: dict[str, int] = field(default_factory=dict)
    printf_output: str = ""
    """Text of the kernel's device ``printf`` calls (``functional/printf.py``), in order."""
    children: list[Any] = field(default_factory=list)
    """Grids launched from device code (``device_launch.ChildLaunch``), in launch order."""

    @property
    def thread_instructions_per_s(self) -> float:
        return self.thread_instructions / self.wall_s if self.wall_s > 0 else 0.0


def _dim3(v: Any, what: str, kernel: str) -> tuple[int, int, int]:
    t = (v,) if isinstance(v, (int, np.integer)) else tuple(v)
    if not 1 <= len(t) <= 3 or any(not isinstance(x, (int, np.integer)) or x < 1 for x in t):
        raise LaunchError(kernel, f"{what} {v!r} must be 1 to 3 positive integers",
                          hint=f"e.g. {what}=(128, 1, 1)")
    t = tuple(int(x) for x in t) + (1,) * (3 - len(t))
    return t  # type: ignore[return-value]


def launch(image: ModuleImage, kernel: str, *, grid: Any, block: Any, params: bytes,
           dynamic_shared_bytes: int = 0, textures: Mapping[Any, TextureDesc] | None = None,
           trace: bool = True, max_steps: int | None = None,
           batch_threads: int = DEFAULT_BATCH_THREADS,
           trace_sink: Callable[[TraceChunk], None] | None = None,
           shmem_banks: int = 32, shmem_bank_width_bytes: int = 4,
           launch_timeout_s: float | None = None, oob_log: OOBLog | None = None,
           cooperative: bool = False, launch_depth: int = 0) -> LaunchResult:
    """Run kernel ``kernel`` of ``image`` functionally over the whole grid.

    ``params`` is the packed parameter buffer (little-endian, the PTX ``.param`` layout);
    ``textures`` maps texture handles (ints) or ``.texref`` names to descriptors; with
    ``trace`` the result carries a ``LaunchTrace`` (chunks are handed to ``trace_sink`` instead
    of being kept when it is given). Shared-memory bank conflicts in the trace count
    ``shmem_banks`` banks of ``shmem_bank_width_bytes`` (the timed GPU's ``shmem.n_banks`` and
    ``shmem.bank_width_bytes``). A launch that repeats its state forever raises ``SpinError``,
    one running longer than ``launch_timeout_s`` wall seconds ``LaunchTimeoutError``
    (``functional/watchdog.py``). With ``oob_log`` a global access outside every allocation
    but inside the heap proceeds and is recorded there (``functional/oob.py``). A
    ``cooperative`` launch is one batch with a grid-sync workspace (``grid_sync.py``). Raises
    ``MemoryAccessError``, ``BarrierDeadlockError``, ``StepLimitError`` or ``LaunchError``.
    Grids the threads launch (dynamic parallelism, nested ``launch_depth`` deep) are returned
    in ``children`` for the caller to run."""
    t0 = time.perf_counter()
    prog = image.program(kernel)
    g3 = _dim3(grid, "grid", prog.name)
    b3 = _dim3(block, "block", prog.name)
    raw = bytes(params)
    if len(raw) < prog.param_bytes:
        raise LaunchError(prog.name, f"parameter buffer has {len(raw)} bytes, the kernel "
                          f"needs {prog.param_bytes}", hint="pack every kernel parameter")
    pbuf = np.zeros(max(8, -(-len(raw) // 8) * 8), np.uint8)
    pbuf[:len(raw)] = np.frombuffer(raw, np.uint8)
    if dynamic_shared_bytes < 0:
        raise LaunchError(prog.name, "dynamic shared memory size is negative")
    cta_threads = b3[0] * b3[1] * b3[2]
    n_ctas = g3[0] * g3[1] * g3[2]
    padded = -(-cta_threads // 32) * 32
    per_batch = max(1, int(batch_threads) // padded)
    # keep the batch's registers and local memory under BATCH_MEMORY_BYTES
    reg_bytes = prog.launch_cache.get("reg_bytes")
    if reg_bytes is None:
        reg_bytes = sum(np.dtype(d).itemsize for d in prog.reg_dtypes)
        prog.launch_cache["reg_bytes"] = reg_bytes
    per_thread = prog.local_bytes + reg_bytes
    per_batch = max(1, min(per_batch, BATCH_MEMORY_BYTES // max(1, per_thread * padded)))
    n_pc = len(prog.kinds)
    run = _Launch(image, prog, g3, b3, pbuf, int(dynamic_shared_bytes), textures or {},
                  max_steps)
    if launch_timeout_s is not None:
        run.watchdog = Watchdog(prog, launch_timeout_s)
    run.reg_bytes = reg_bytes
    run.oob_log = oob_log
    run.launch_depth = launch_depth
    run.shmem_banks = int(shmem_banks)
    run.shmem_bank_width_bytes = int(shmem_bank_width_bytes)
    per_batch = n_ctas if cooperative else per_batch
    ltrace = LaunchTrace(prog.name, prog.opcodes, prog.lines, prog.n_values) if trace else None
    first = 0
    batch = 0
    with grid_workspace(image.memory, cooperative) as run.grid_workspace:
        while first < n_ctas:
            k = min(per_batch, n_ctas - first)
            chunk = run.run_batch(first, k, batch, trace)
            if chunk is not None and ltrace is not None:
                if trace_sink is not None:
                    trace_sink(chunk)
                else:
                    ltrace.chunks.append(chunk)
            first += k
            batch += 1
    pw = np.array(run.pc_warps[:n_pc - 1], np.int64)
    pt = np.array(run.pc_threads[:n_pc - 1], np.int64)
    opc, opt = prog.opcode_counts(pw, pt)
    return LaunchResult(
        kernel=prog.name, grid=g3, block=b3, thread_instructions=int(pt.sum()),
        warp_instructions=int(pw.sum()), opcode_counts=opc, opcode_thread_counts=opt,
        pc_warp_counts=pw, pc_thread_counts=pt, n_batches=batch,
        wall_s=time.perf_counter() - t0, trace=ltrace,
        stats={"gpu_sim_insn": int(pt.sum()), "gpgpu_n_tot_w_icount": int(pw.sum())},
        printf_output=b"".join(run.printf_chunks).decode("utf-8", "replace"),
        children=run.children)


class _Launch(BarrierUnit):
    """State of one launch; ``run_batch`` runs one batch of CTAs to completion."""

    def __init__(self, image: ModuleImage, prog: Program, grid: tuple[int, int, int],
                 block: tuple[int, int, int], params: np.ndarray, dyn_shared: int,
                 textures: Mapping[Any, TextureDesc], max_steps: int | None) -> None:
        self.prog = prog
        self.memory = image.memory
        self.grid_workspace = 0
        self.grid = grid
        self.block = block
        self.params = params
        self.textures = textures
        self._fetchers: dict[Any, TextureFetcher] = {}
        self.max_steps = max_steps
        self.shmem_banks = 32
        self.shmem_bank_width_bytes = 4
        self.cta_size = block[0] * block[1] * block[2]
        self.wpc = -(-self.cta_size // 32)
        self.cta_threads = self.wpc * 32
        dyn_base = -(-prog.shared_static_bytes // 16) * 16 if prog.extern_shared else \
            prog.shared_static_bytes
        self.dyn_shared = dyn_shared
        self.shared_bytes = max(dyn_base + dyn_shared, prog.shared_static_bytes)
        self.local_bytes = prog.local_bytes
        self.pc_warps = [0] * len(prog.kinds)
        self.pc_threads = [0] * len(prog.kinds)
        """Warp and thread instructions per pc (Python ints: one update per dispatch)."""
        self.clock = 0
        self.cur_pc = 0
        self.tracer: TraceBuilder | None = None
        self.value_rec: ValueRecorder | None = None
        self.reg_bytes = 0
        """Register file bytes per thread (set by ``launch``)."""
        self.layouts: dict[str, Any] = {}
        """The batch layout of this launch when too large for ``Program.launch_cache``."""
        self.printf_chunks: list[bytes] = []
        self.children: list[Any] = []
        """Grids this launch's threads launched (``functional/device_launch.py``)."""
        self.cdp_buffers: dict[int, Any] = {}
        self.launch_depth = 0
        self.oob_log: OOBLog | None = None
        self.watchdog = Watchdog(prog, None)
        self.n_branches = 0
        self.n_values: list[int] = prog.n_values.tolist()
        """Value entries per pc (Python ints, read per traced dispatch)."""
        self.turn = 0
        """Branches the group that was given the turn by a yield may still take before the
        lowest-PC-first rule applies to it again."""
        self.clock_loop_declined: Any = None
        """(group, loop) that ``clock_loops.skip_clock_loop`` declined (too many distinct
        lanes): not examined again."""

    # ---- helpers used by the instruction closures ------------------------------------
    def thread_coords(self, t: int) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
        """(thread index, block index) of batch thread ``t``."""
        slot, lin = divmod(int(t), self.cta_threads)
        bx, by, _ = self.block
        gx, gy, _ = self.grid
        c = self.first_cta + slot
        return ((lin % bx, (lin // bx) % by, lin // (bx * by)),
                (c % gx, (c // gx) % gy, c // (gx * gy)))

    def texture(self, key: Any, inst: Any) -> TextureFetcher:
        f = self._fetchers.get(key)
        if f is None:
            desc = self.textures.get(key)
            if desc is None:
                what = f"{key:#x}" if isinstance(key, int) else repr(key)
                raise LaunchError(self.prog.name, f"texture {what} used at line {inst.line} is "
                                  "not bound", hint="pass textures={handle: TextureDesc(...)}")
            f = TextureFetcher(desc, self.memory)
            self._fetchers[key] = f
        return f

    # ---- batch setup -----------------------------------------------------------------
    def _setup(self, first: int, k: int) -> None:
        setup_batch(self, first, k)

    # ---- the dispatch loop -----------------------------------------------------------
    def run_batch(self, first: int, k: int, batch: int, trace: bool) -> TraceChunk | None:
        self._setup(first, k)
        prog = self.prog
        n_warps = self.n_warps
        self.tracer = TraceBuilder(prog.n_values) if trace else None
        self.value_rec = ValueRecorder(self.tracer) if self.tracer is not None else None
        self.stacks = SimtStacks(n_warps, self.exist)
        self.groups: dict[int, Group] = {}
        self.heap: list[int] = []
        self.bar_wait = np.zeros(n_warps, np.bool_)
        self.bar_id = np.zeros(n_warps, np.int64)
        self.bar_mask = np.zeros(n_warps, np.uint32)
        self.bar_pc = np.zeros(n_warps, np.int64)
        self.cta_live = np.full(k, self.wpc, np.int64)
        self.cta_count = np.zeros((k, 16), np.int64)
        self.cta_need = np.zeros((k, 16), np.int64)
        self.cta_red_true = np.zeros((k, 16), np.int64)
        self.cta_red_n = np.zeros((k, 16), np.int64)
        ws = np.arange(n_warps, dtype=np.int64)
        self._add(Group(0, ws, self.exist.copy(), np.full(n_warps, -1), 0))
        with np.errstate(all="ignore"):  # lanes compute IEEE results silently (closures rely on it)
            self._loop()
        if self.bar_wait.any():
            self._deadlock(int(np.flatnonzero(self.bar_wait)[0]) // self.wpc)
        if self.tracer is None:
            return None
        wc = first + np.arange(n_warps, dtype=np.int64) // self.wpc
        wi = (np.arange(n_warps) % self.wpc).astype(np.int32)
        self.value_rec.flush()  # type: ignore[union-attr]
        chunk = self.tracer.finish(batch, wc, wi)
        self.tracer = None
        return chunk

    def _loop(self) -> None:
        prog = self.prog
        kinds, runs, guards = prog.kinds, prog.runs, prog.guards
        groups, heap = self.groups, self.heap
        dynamic = prog.dynamic_pcs
        max_steps = self.max_steps
        pcw, pct = self.pc_warps, self.pc_threads
        live, n_warps = self.live, self.n_warps
        straight, branch, exit_, barrier = (int(Kind.STRAIGHT), int(Kind.BRANCH),
                                            int(Kind.EXIT), int(Kind.BARRIER))
        kinds = kinds.tolist()
        spins = clock_loops(prog)
        while heap:
            pc = heapq.heappop(heap)
            g = groups.pop(pc)
            run_len = 0
            while True:
                if g.sel is None:
                    g.prepare(live, n_warps)
                kind = kinds[pc]
                if kind == straight:
                    g.nexec += 1
                    if max_steps is not None and g.steps0 + g.nexec > max_steps:
                        self._step_limit(g, pc)
                    self.cur_pc = pc
                    self.clock += 1
                    pcw[pc] += g.nw
                    pct[pc] += g.n_act
                    gr, neg = guards[pc]
                    pred = exm = None
                    if gr >= 0:
                        p = self.regs[gr] if g.allb else self.regs[gr][g.sel]
                        pred = ~p if neg else p
                        exm = ballot(g, pred)
                    if pc in dynamic:
                        self._refresh_clock()
                    runs[pc](self, g, pred, exm)
                    if self.tracer is not None:
                        self._trace(pc, g, exm)
                    pc += 1
                    if pc in g.rpcset:
                        self.stacks.set_top_pc(g.ws, pc)
                        self._dissolve(g.ws, g.steps0 + g.nexec)
                        break
                    other = groups.get(pc)
                    g.pc = pc
                    if other is not None:
                        groups[pc] = self._merge(other, g)
                        break
                    continue
                self.cur_pc = pc
                if kind == branch:
                    if self._branch(g, pc):
                        if (pc in spins and g.pc == spins[pc].t and not heap
                                and self.tracer is None and max_steps is None):
                            skip_clock_loop(self, g, spins[pc])  # clock_loops.py
                        pc = g.pc
                        run_len += 1
                        if run_len > YIELD_BRANCHES and heap:
                            # fairness: a group looping for long lets the next one run, so
                            # that a warp spinning on another warp's flag cannot starve it
                            nxt = heapq.heappop(heap)
                            other = groups.pop(nxt)
                            self._add(g)
                            g, pc, run_len = other, nxt, 0
                            # the group given the turn keeps it for as many branches, even
                            # past waiting lower PCs (else a spinner at a lower PC starves it)
                            self.turn = YIELD_BRANCHES
                        continue
                elif kind == exit_:
                    self._exit(g, pc)
                elif kind == barrier:
                    self._barrier(g, pc)
                else:
                    inst = prog.insts[pc]
                    raise DeviceTrapError(prog.name, f"trap executed at line {inst.line}: "
                                      f"{inst.text.strip()}", hint=GRID_SYNC_HINT if (
                                          "%envreg1" in prog.special_regs) else "")
                break

    def _count(self, g: Group, pc: int) -> None:
        g.nexec += 1
        if self.max_steps is not None and g.steps0 + g.nexec > self.max_steps:
            self._step_limit(g, pc)
        self.clock += 1
        self.pc_warps[pc] += g.nw
        self.pc_threads[pc] += g.n_act

    def _refresh_clock(self) -> None:
        for name, rid in self.prog.special_regs.items():
            if name.startswith("%clock") or name.startswith("%globaltimer"):
                v = self.clock if name != "%clock_hi" else self.clock >> 32
                dt = self.prog.reg_dtypes[rid]
                self.regs[rid] = np.full(self.n_threads, v & (np.iinfo(dt).max), dtype=dt)

    # ---- groups ----------------------------------------------------------------------
    def _add(self, g: Group) -> None:
        other = self.groups.get(g.pc)
        if other is None:
            self.groups[g.pc] = g
            heapq.heappush(self.heap, g.pc)
        else:
            self.groups[g.pc] = self._merge(other, g)

    @staticmethod
    def _merge(a: Group, b: Group) -> Group:
        ws = np.concatenate([a.ws, b.ws])
        masks = np.concatenate([a.masks, b.masks])
        order = np.argsort(ws, kind="stable")
        g = Group(a.pc, ws[order], masks[order], np.zeros(0, np.int64),
                  max(a.steps0 + a.nexec, b.steps0 + b.nexec))
        g.rpcset = a.rpcset | b.rpcset
        return g

    def _goto(self, g: Group, npc: int) -> bool:
        """Move the whole group to ``npc``; True when it can keep running right away."""
        if npc in g.rpcset:
            self.stacks.set_top_pc(g.ws, npc)
            self._dissolve(g.ws, g.steps0 + g.nexec)
            return False
        g.pc = npc
        if self.turn > 0:
            self.turn -= 1
        if npc in self.groups or (self.heap and self.heap[0] < npc and self.turn <= 0):
            self._add(g)
            return False
        return True

    def _dissolve(self, ws: np.ndarray, steps: int) -> None:
        """Re-form groups for ``ws`` from their stacks (after pops, pushes or exits)."""
        st = self.stacks
        st.settle(ws)
        d = st.depth[ws]
        fin = d == 0
        if fin.any():
            self._finish(ws[fin])
            ws = ws[~fin]
        if ws.size == 0:
            return
        pcs, rpcs, masks = st.tops(ws)
        if (pcs == pcs[0]).all():
            self._add(Group(int(pcs[0]), ws, masks, rpcs, steps))
            return
        order = np.argsort(pcs, kind="stable")
        sp = pcs[order]
        bounds = [0, *(np.flatnonzero(sp[1:] != sp[:-1]) + 1).tolist(), sp.size]
        for i in range(len(bounds) - 1):
            a, b = bounds[i], bounds[i + 1]
            o = order[a:b]
            self._add(Group(int(sp[a]), ws[o], masks[o], rpcs[o], steps))

    # ---- control instructions --------------------------------------------------------
    def _branch(self, g: Group, pc: int) -> bool:
        """Execute a branch; True when ``g`` moved as a whole and may keep running."""
        self._count(g, pc)
        self.n_branches += 1
        if self.n_branches % CHECK_BRANCHES == 0:
            self.watchdog.check(self, g, pc)
        prog = self.prog
        target = int(prog.targets[pc])
        gr, neg = prog.guards[pc]
        if self.tracer is not None:
            self.tracer.record(pc, g.ws, g.masks, g.masks)
        if gr < 0:
            return self._goto(g, target)
        p = self.regs[gr] if g.allb else self.regs[gr][g.sel]
        if g.nw == 1 and g.full:  # a lone warp: its 32 lanes' bits as one int
            m = int(g.masks[0])
            bits = int(np.packbits(p, bitorder="little").view("<u4")[0])
            tb = (~bits if neg else bits) & m
            if tb == m:
                return self._goto(g, target)
            if tb == 0:
                return self._goto(g, pc + 1)
            t = np.array([tb], np.uint32)
        else:
            t = ballot(g, ~p if neg else p)
        if (t == g.masks).all():
            return self._goto(g, target)
        if not t.any():
            return self._goto(g, pc + 1)
        st = self.stacks
        ws, masks = g.ws, g.masks
        taken = t == masks
        none = t == 0
        div = ~(taken | none)
        st.set_top_pc(ws[taken], target)
        st.set_top_pc(ws[none], pc + 1)
        if div.any():
            rpc = int(prog.rpcs[pc])
            wd = ws[div]
            st.set_top_pc(wd, rpc)
            if pc + 1 != rpc:
                st.push(wd, pc + 1, rpc, masks[div] & ~t[div])
            if target != rpc:
                st.push(wd, target, rpc, t[div])
        self._dissolve(ws, g.steps0 + g.nexec)
        return False

    def _exit(self, g: Group, pc: int) -> None:
        n_inst = len(self.prog.insts)
        ex = g.masks
        if pc < n_inst:
            self._count(g, pc)
            gr, neg = self.prog.guards[pc]
            if gr >= 0:
                p = self.regs[gr] if g.allb else self.regs[gr][g.sel]
                ex = ballot(g, ~p if neg else p)
            if self.tracer is not None:
                self.tracer.record(pc, g.ws, g.masks, ex)
        ws = g.ws
        self.live[ws] &= ~ex
        st = self.stacks
        st.clear_lanes(ws, ex)
        st.set_top_pc(ws, pc + 1)
        self._dissolve(ws, g.steps0 + g.nexec)

    def _finish(self, ws: np.ndarray) -> None:
        slots = ws // self.wpc
        self.cta_live -= np.bincount(slots, minlength=self.cta_live.size)
        if self.bar_wait.any():
            self._release(np.unique(slots))

    # ---- errors ----------------------------------------------------------------------
    def _step_limit(self, g: Group, pc: int) -> None:
        inst = self.prog.insts[min(pc, len(self.prog.insts) - 1)]
        _, cta = self.thread_coords(int(g.ws[0]) * 32)
        raise StepLimitError(
            self.prog.name,
            f"a warp exceeded max_steps={self.max_steps} dynamic instructions (infinite loop "
            f"suspected) at line {inst.line} ({inst.text.strip()}) in block {cta}",
            hint="raise max_steps if the kernel really runs this long")

    # ---- trace -----------------------------------------------------------------------
    def _trace(self, pc: int, g: Group, exm: Any) -> None:
        tr = self.tracer
        ex = g.masks if exm is None else exm
        tr.record(pc, g.ws, g.masks, ex)  # type: ignore[union-attr]
        vr = self.prog.val_regs[pc]
        if not vr:
            return
        exist = g.exist
        if exist is None:
            exist = g.exist = (self.exist[g.wsl.start // 32:g.wsl.stop // 32] if g.contig
                               else self.exist[g.ws])
        self.value_rec.record(self.regs, vr, self.n_values[pc], g, exist, ex)  # type: ignore
