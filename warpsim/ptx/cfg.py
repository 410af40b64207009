"""Control-flow graph of a PTX function: basic blocks, (post-)dominators, reconvergence points.

Follows: GPGPU-Sim ``function_info::find_postdominators`` / ``find_ipostdominators``
(``src/cuda-sim/ptx_ir.cc``), whose immediate post-dominators are the SIMT stack's reconvergence
PCs (reference/gpu-simulators.md, SIMT stack); Cooper, Harvey and Kennedy, "A Simple, Fast
Dominance Algorithm" (2001), run on the reverse CFG for post-dominators; docs/dev-contracts.md.

Assumptions:
  [A] Blocks start at index 0, at every label that a ``bra`` names, and after every ``bra``,
      ``ret``, ``exit`` and ``trap``; ``call`` does not end a block (the callee returns to the
      next instruction).
  [A] Edges: unguarded ``bra`` goes to its target only; guarded ``bra`` to target and
      fall-through; unguarded ``ret``/``exit``/``trap`` to the virtual exit; guarded
      ``ret``/``exit`` to the fall-through and the virtual exit; falling off the last
      instruction, or branching to a label at the very end, reaches the virtual exit.
Deviations:
  Blocks from which the virtual exit cannot be reached (infinite loops) would have no
  post-dominator. GPGPU-Sim leaves them with their initial "all blocks" set; warpsim instead
  adds a virtual edge to the exit from the highest-indexed block of each such region (the
  latch of an infinite loop) until every block reaches the exit, as LLVM's post-dominator
  tree adds extra roots. Reconvergence inside such loops is then exact, and a branch whose
  paths only meet in the loop gets the loop's blocks as IPDOM.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from warpsim.errors import UnsupportedPTXError
from warpsim.ptx.ir import Function, Instruction, OpKind

__all__ = ["EXIT", "CFG", "BasicBlock", "build_cfg", "postorder"]

EXIT = -1
"""Block id of the virtual exit node in ``ipdom`` and ``idom``."""

_EXITING = frozenset({"ret", "exit", "trap"})


@dataclass(slots=True)
class BasicBlock:
    """A maximal straight-line run of instructions ``[start, end)``."""

    id: int
    start: int
    end: int
    """Exclusive."""
    succs: list[int] = field(default_factory=list)
    """Successor block ids in order (branch target first, then fall-through)."""
    preds: list[int] = field(default_factory=list)
    exits: bool = False
    """True when the block has an edge to the virtual exit (``ret``/``exit``/falling off)."""
    virtual_exit: bool = False
    """True when the exit edge was added only because the block cannot reach the exit."""

    @property
    def n_instructions(self) -> int:
        return self.end - self.start


@dataclass(slots=True)
class CFG:
    """Basic blocks plus dominance facts of one function."""

    blocks: list[BasicBlock]
    block_of: np.ndarray
    """``block_of[i]``: id of the block holding instruction ``i`` (int32)."""
    ipdom: list[int]
    """Immediate post-dominator block id per block, ``EXIT`` (-1) for the virtual exit."""
    idom: list[int]
    """Immediate dominator per block (-1 for the entry block and unreachable blocks)."""
    reconvergence_pc: np.ndarray
    """Per instruction (int32): for a guarded ``bra`` the index where its paths reconverge
    (start of the IPDOM block, ``n_instructions`` when only at exit), else -1."""
    back_edges: list[tuple[int, int]]
    """Edges ``(u, v)`` where ``v`` dominates ``u`` (natural-loop back edges)."""
    loop_depth: np.ndarray
    """Per block (int32): number of natural loops containing it."""
    n_instructions: int

    def successors_pc(self, block: int) -> list[int]:
        """Successor start indices of ``block`` (``n_instructions`` for the exit)."""
        b = self.blocks[block]
        out = [self.blocks[s].start for s in b.succs]
        if b.exits:
            out.append(self.n_instructions)
        return out

    def ipdom_pc(self, block: int) -> int:
        """First instruction of ``block``'s IPDOM (``n_instructions`` for the exit)."""
        p = self.ipdom[block]
        return self.n_instructions if p == EXIT else self.blocks[p].start


def _branch_target(fn: Function, inst: Instruction) -> int:
    """Instruction index a ``bra`` jumps to."""
    if not inst.srcs or inst.srcs[0].kind is not OpKind.SYMBOL:
        raise UnsupportedPTXError(f"indirect branch {inst.full_opcode}", file=fn.file,
                                  line=inst.line, kernel=fn.name, source_line=inst.text)
    name = inst.srcs[0].name
    if name not in fn.labels:
        raise UnsupportedPTXError(f"branch to unknown label {name}", file=fn.file,
                                  line=inst.line, kernel=fn.name, source_line=inst.text)
    return fn.labels[name]


def _split(fn: Function) -> tuple[list[int], list[int]]:
    """Leaders (sorted) and, per instruction, its branch target (-2 when not a ``bra``)."""
    n = len(fn.instructions)
    targets = [-2] * n
    leaders = {0} if n else set()
    for i, inst in enumerate(fn.instructions):
        op = inst.opcode
        if op == "bra":
            t = _branch_target(fn, inst)
            targets[i] = t
            if t < n:
                leaders.add(t)
            if i + 1 < n:
                leaders.add(i + 1)
        elif op in _EXITING or op == "brx":
            if op == "brx":
                raise UnsupportedPTXError("indirect branch brx.idx", file=fn.file,
                                          line=inst.line, kernel=fn.name,
                                          source_line=inst.text)
            if i + 1 < n:
                leaders.add(i + 1)
    return sorted(leaders), targets


def _dominators(n: int, root_succs: list[int], succs: list[list[int]],
                preds: list[list[int]]) -> list[int]:
    """Cooper-Harvey-Kennedy immediate dominators of nodes ``0..n-1`` under a virtual root.

    ``root_succs`` are the root's successors; ``preds`` excludes the root (a node whose idom is
    the root gets -1). Unreachable nodes get -2."""
    # iterative DFS postorder from the root
    order: list[int] = []
    seen = [False] * n
    for r in root_succs:
        if seen[r]:
            continue
        seen[r] = True
        stack = [(r, iter(succs[r]))]
        while stack:
            node, it = stack[-1]
            for s in it:
                if not seen[s]:
                    seen[s] = True
                    stack.append((s, iter(succs[s])))
                    break
            else:
                stack.pop()
                order.append(node)
    root = n
    po = [-1] * (n + 1)
    for k, node in enumerate(order):
        po[node] = k
    po[root] = len(order)
    idom = [-2] * (n + 1)
    idom[root] = root
    is_root_succ = [False] * n
    for r in root_succs:
        is_root_succ[r] = True
    rpo = order[::-1]
    changed = True
    while changed:
        changed = False
        for b in rpo:
            new = root if is_root_succ[b] else -2
            for p in preds[b]:
                if idom[p] == -2:
                    continue
                if new == -2:
                    new = p
                    continue
                a, c = p, new
                while a != c:
                    while po[a] < po[c]:
                        a = idom[a]
                    while po[c] < po[a]:
                        c = idom[c]
                new = a
            if idom[b] != new:
                idom[b] = new
                changed = True
    return [(-1 if d == root else d) for d in idom[:n]]


def _reach(starts: list[int], edges: list[list[int]], n: int) -> list[bool]:
    seen = [False] * n
    stack = [s for s in starts]
    for s in starts:
        seen[s] = True
    while stack:
        u = stack.pop()
        for v in edges[u]:
            if not seen[v]:
                seen[v] = True
                stack.append(v)
    return seen


def build_cfg(fn: Function) -> CFG:
    """Split ``fn`` into basic blocks and compute dominators, IPDOMs and reconvergence PCs."""
    insts = fn.instructions
    n = len(insts)
    leaders, targets = _split(fn)
    block_of = np.zeros(n, dtype=np.int32)
    blocks: list[BasicBlock] = []
    for k, start in enumerate(leaders):
        end = leaders[k + 1] if k + 1 < len(leaders) else n
        blocks.append(BasicBlock(k, start, end))
        block_of[start:end] = k
    nb = len(blocks)
    for b in blocks:
        last = insts[b.end - 1]
        fall = b.id + 1 if b.end < n else EXIT
        guarded = last.guard >= 0
        outs: list[int] = []
        if last.opcode == "bra":
            t = targets[b.end - 1]
            outs.append(int(block_of[t]) if t < n else EXIT)
            if guarded:
                outs.append(fall)
        elif last.opcode in _EXITING:
            if not (guarded and last.opcode == "trap"):  # a trap ends the launch: lanes
                outs.append(EXIT)  # that trap never need to reconverge (ptx/indirect.py)
            if guarded:
                outs.append(fall)
        else:
            outs.append(fall)
        for s in outs:
            if s == EXIT:
                b.exits = True
            elif s not in b.succs:
                b.succs.append(s)
    for b in blocks:
        for s in b.succs:
            blocks[s].preds.append(b.id)
    succs = [b.succs for b in blocks]
    preds = [b.preds for b in blocks]
    # make every block reach the virtual exit (infinite loops: see Deviations)
    exit_preds = [b.id for b in blocks if b.exits]
    reaches = _reach(exit_preds, preds, nb) if nb else []
    while nb and not all(reaches):
        latch = max(i for i in range(nb) if not reaches[i])
        blocks[latch].exits = True
        blocks[latch].virtual_exit = True
        exit_preds.append(latch)
        reaches = _reach(exit_preds, preds, nb)
    ipdom = _dominators(nb, exit_preds, preds, succs) if nb else []
    idom = _dominators(nb, [0], succs, preds) if nb else []
    idom = [d if d >= 0 else -1 for d in idom]
    recon = np.full(n, -1, dtype=np.int32)
    for b in blocks:
        last = insts[b.end - 1]
        if last.opcode == "bra" and last.guard >= 0:
            p = ipdom[b.id]
            recon[b.end - 1] = n if p == EXIT else blocks[p].start
    back_edges, loop_depth = _loops(blocks, idom)
    return CFG(blocks=blocks, block_of=block_of, ipdom=ipdom, idom=idom,
               reconvergence_pc=recon, back_edges=back_edges, loop_depth=loop_depth,
               n_instructions=n)


def _dominates(idom: list[int], a: int, b: int) -> bool:
    """True when block ``a`` dominates block ``b`` (entry-reachable ``b``)."""
    while b != -1:
        if b == a:
            return True
        b = idom[b]
    return False


def _loops(blocks: list[BasicBlock], idom: list[int]) -> tuple[list[tuple[int, int]],
                                                              np.ndarray]:
    """Back edges ``u -> h`` with ``h`` dominating ``u``, and per-block natural-loop depth."""
    nb = len(blocks)
    depth = np.zeros(nb, dtype=np.int32)
    reachable = _reach([0], [b.succs for b in blocks], nb) if nb else []
    back: list[tuple[int, int]] = []
    for b in blocks:
        if not reachable[b.id]:
            continue
        for s in b.succs:
            if _dominates(idom, s, b.id):
                back.append((b.id, s))
    bodies: dict[int, set[int]] = {}
    for u, h in back:
        body = bodies.setdefault(h, {h})
        stack = [u]
        while stack:
            x = stack.pop()
            if x not in body:
                body.add(x)
                stack.extend(blocks[x].preds)
    for body in bodies.values():
        for x in body:
            depth[x] += 1
    return back, depth


def postorder(cfg: CFG) -> list[int]:
    """Blocks in DFS postorder from the entry, then any unreachable ones (fast convergence for
    a backward problem)."""
    nb = len(cfg.blocks)
    seen = [False] * nb
    order: list[int] = []
    for root in range(nb):
        if seen[root]:
            continue
        seen[root] = True
        stack = [(root, iter(cfg.blocks[root].succs))]
        while stack:
            node, it = stack[-1]
            for s in it:
                if not seen[s]:
                    seen[s] = True
                    stack.append((s, iter(cfg.blocks[s].succs)))
                    break
            else:
                stack.pop()
                order.append(node)
    return order
