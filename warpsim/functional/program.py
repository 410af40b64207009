"""A loaded PTX module: module variables placed in device memory (``ModuleImage``) and kernels
compiled for the executor (``Program``: per-instruction closures, register file layout, shared,
local and parameter layouts, reconvergence PCs).

Follows: ARCHITECTURE.md §1 and §3; docs/dev-contracts.md "Functional model".
Assumptions:
  [A] ``.global`` and ``.const`` module variables are heap allocations named after the
      variable, zero-filled or initialised; address-valued initialisers (``generic(sym)``)
      hold the symbol's address (a heap address for ``.global``/``.const`` symbols).
  [A] Texture and sampler references (``.texref``/``.samplerref``) occupy no memory; they are
      bound by name through ``launch(textures=...)``.
  [A] Module-scope ``.shared`` variables are laid out first in each CTA's shared window in
      declaration order, then the kernel's own; the ``.extern .shared`` array (dynamic shared
      memory) starts after them at 16-byte alignment.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from warpsim.errors import LaunchError, UnsupportedPTXError
from warpsim.functional.memory import GlobalMemory
from warpsim.ptx.indirect import address_taken, kernels_taken
from warpsim.ptx.ir import Function, Instruction, Module

__all__ = ["ModuleImage", "Program", "SymbolInfo"]

_OPAQUE = frozenset({"texref", "samplerref", "surfref"})


@dataclass(slots=True, frozen=True)
class SymbolInfo:
    """Where a symbol lives: its state space and its address (offset) in that space."""

    space: str
    """``global``, ``const``, ``shared``, ``local``, ``param`` (kernel parameter) or
    ``param_local`` (a function-body ``.param`` variable: per-thread storage)."""
    address: int
    size: int


@dataclass(slots=True)
class Program:
    """One kernel compiled for the functional executor (built by ``loader.load_program``)."""

    name: str
    file: str
    fn: Function
    """The kernel body after inlining."""
    insts: list[Instruction]
    kinds: np.ndarray
    """Per pc: an execution kind of ``loader.Kind`` (int8)."""
    runs: list[Any]
    """Per pc: the closure ``run(batch, group, pred, exec_masks)`` of straight-line kinds."""
    targets: np.ndarray
    """Per pc: branch target (int64; -1 when not a branch)."""
    rpcs: np.ndarray
    """Per pc: reconvergence pc of a guarded branch (int64; -1 otherwise)."""
    guards: list[tuple[int, bool]]
    """Per pc: (guard register id or -1, negated)."""
    reg_dtypes: list[Any]
    """Raw-bit numpy dtype per register id (kernel registers, then pseudo registers)."""
    special_regs: dict[str, int]
    """Special register name -> pseudo register id."""
    cc_reg: int
    """Pseudo register holding the carry flag (np.uint32 0/1)."""
    val_regs: list[tuple[int, ...]]
    """Per pc: registers whose warp values the trace annotates (in destination order)."""
    n_values: np.ndarray
    """Per pc: value entries per trace record (64-bit registers count twice)."""
    symbols: dict[str, SymbolInfo]
    shared_static_bytes: int
    extern_shared: str
    """Name of the dynamic shared array (``""`` when none)."""
    local_bytes: int
    param_bytes: int
    barrier_args: list[tuple[Any, ...]] = field(default_factory=list)
    """Per pc of a barrier: (barrier id operand, thread count operand or None, waits, reduction):
    reduction is None, or for ``bar.red`` (``popc``/``and``/``or``, destination register id,
    predicate operand)."""
    opcodes: list[str] = field(default_factory=list)
    lines: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))
    dynamic_pcs: frozenset[int] = frozenset()
    """Pcs that read ``%clock``-like registers (refreshed before the instruction)."""
    reaches_barrier: np.ndarray = field(default_factory=lambda: np.zeros(0, np.bool_))
    """Per pc: some path from it executes a barrier before exiting (bool)."""
    launch_cache: dict[str, Any] = field(default_factory=dict)
    """Tables the executor derives from the program and reuses across launches (the batch
    layout of the last launch shape, the watchdog's memory-writing pcs, ...)."""

    def opcode_counts(self, pc_warps: np.ndarray, pc_threads: np.ndarray
                      ) -> tuple[dict[str, int], dict[str, int]]:
        """(warp, thread) instruction counts per full opcode from per-pc counts."""
        opc: dict[str, int] = {}
        opt: dict[str, int] = {}
        pwl, ptl, names = pc_warps.tolist(), pc_threads.tolist(), self.opcodes
        for i in np.flatnonzero(pc_warps).tolist():  # executed pcs only
            name = names[i]
            opc[name] = opc.get(name, 0) + pwl[i]
            opt[name] = opt.get(name, 0) + ptl[i]
        return opc, opt


class ModuleImage:
    """A module loaded onto a device: its ``.global``/``.const`` variables live in ``memory``.

    ``program(kernel)`` compiles (once) and returns the kernel's ``Program``;
    ``symbol_address(name)`` gives a module variable's device address."""

    def __init__(self, module: Module, memory: GlobalMemory) -> None:
        self.module = module
        self.memory = memory
        self._addresses: dict[str, int] = {}
        self._programs: dict[str, Program] = {}
        pending: list[tuple[int, str]] = []
        for name, var in module.variables.items():
            if var.space not in ("global", "const") or var.type in _OPAQUE:
                continue
            if var.extern and var.size_bytes == 0:
                continue
            addr = memory.alloc(max(var.size_bytes, 1), align=max(var.align, 8), name=name)
            if var.init is not None:
                memory.write(addr, var.init)
            self._addresses[name] = addr
            pending.extend((addr + off, sym) for off, sym in var.init_symbols)
        self._functions: dict[str, int] = {}
        for name in (*address_taken(module), *kernels_taken(module)):
            # a function pointer (or a kernel's, for device-side launches): a 16-byte slot
            self._functions[name] = memory.alloc(16, align=16, name=f"function {name}")
        for where, sym in pending:
            target = self._addresses.get(sym, self._functions.get(sym))
            if target is None:
                fn = module.functions.get(sym)
                if fn is None:
                    raise UnsupportedPTXError(
                        f"initialiser names {sym!r}, which is not a .global/.const variable",
                        file=module.file)
                target = 0
            memory.write(where, np.array([target], dtype="<u8"))

    def symbol_address(self, name: str) -> int:
        """Device address of the ``.global``/``.const`` module variable ``name``."""
        try:
            return self._addresses[name]
        except KeyError:
            raise LaunchError(name, "no .global or .const variable of that name in the module",
                              hint="variables: " + ", ".join(sorted(self._addresses))) from None

    @property
    def function_addresses(self) -> dict[str, int]:
        """Device address of every function (and kernel) whose address the module takes
        (``ptx/indirect.py``), by name."""
        return dict(self._functions)

    @property
    def addresses(self) -> dict[str, int]:
        """Every module variable's address, by name."""
        return dict(self._addresses)

    def program(self, kernel: str) -> Program:
        """The compiled kernel (by mangled or plain C++ name), compiled on first use."""
        fn = self.module.kernel(kernel)
        prog = self._programs.get(fn.name)
        if prog is None:
            from warpsim.functional.loader import load_program

            prog = load_program(self.module, fn.name, self)
            self._programs[fn.name] = prog
        return prog
