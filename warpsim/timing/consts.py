"""Integer constants of the SM core's timing model: units, op classes, collector sets, memory
kinds, instruction flags, scheduler policies, parameter and scalar slots, status codes.

Follows: STYLE.md §2.4 (only integer constants are shared with jitted code); GPGPU-Sim 3.x
pipeline classes (SP, SFU, DP, INT, MEM, TENSOR; reference/gpu-simulators.md §2).
"""

from __future__ import annotations

__all__ = [
    "BANK_MAP_LINEAR", "BANK_MAP_SUB_CORE", "BANK_MAP_WARP_SKEWED",
    "F_BAR_ARRIVE", "F_BARRIER", "F_BRANCH", "F_EXIT", "F_LONGOP",
    "INT64_MAX", "MECH_TOKEN_BASE", "ISSUE_COMPLETE", "ISSUE_DROP", "ISSUE_EXECUTE", "ISSUE_PARK",
    "MK_ATOMIC", "MK_ATOMIC_GENERIC", "MK_LD_CONST", "MK_LD_GENERIC", "MK_LD_GLOBAL",
    "MK_LD_LOCAL", "MK_LD_TEX", "MK_NONE", "MK_PARAM", "MK_SHARED", "MK_ST_GENERIC",
    "MK_ST_GLOBAL", "MK_ST_LOCAL", "N_MEM_KINDS",
    "N_OC_SETS", "N_OP_CLASSES", "N_PARAMS", "N_SCALARS", "N_UNIT_TYPES",
    "OC_DP", "OC_GEN", "OC_INT", "OC_MEM", "OC_SFU", "OC_SP", "OC_TENSOR",
    "OPC_FP32", "OPC_FP64", "OPC_INT32", "OPC_LDST", "OPC_SFU", "OPC_TENSOR",
    "POL_GTO", "POL_LRR", "POL_OLDEST", "POL_TWO_LEVEL",
    "ST_CYCLE_LIMIT", "ST_DONE", "ST_FAULT", "ST_LAUNCH_DONE", "ST_NEED_CTAS",
    "UNIT_DP", "UNIT_INT", "UNIT_LDST", "UNIT_SFU", "UNIT_SP", "UNIT_TENSOR",
]

INT64_MAX = 9223372036854775807
"""'Never' for cycle fields."""

MECH_TOKEN_BASE = 1 << 40
"""Memory-system tokens at or above this value belong to a mechanism's request (its tag is
``token - MECH_TOKEN_BASE``); below it they are in-flight slots of the core."""

# -- issue outcomes (``on_issue`` / ``poll_parked`` hooks, first element of their result) -----
ISSUE_EXECUTE = 0
"""The instruction reads its operands and executes (the baseline)."""
ISSUE_DROP = 1
"""The mechanism finished it at issue: no scoreboard entry, no unit, no writeback."""
ISSUE_PARK = 2
"""Held after issue (scoreboard reserved) until ``poll_parked`` gives another outcome."""
ISSUE_COMPLETE = 3
"""Completes at the cycle given with it, without operand read, unit or register write: the
scoreboard entry is held until then and the instruction retires (``on_retire``) then."""

# -- execution unit types (one or more instances per SM) --------------------------------------
UNIT_SP = 0
UNIT_SFU = 1
UNIT_DP = 2
UNIT_INT = 3
UNIT_LDST = 4
UNIT_TENSOR = 5
N_UNIT_TYPES = 6

# -- op classes (what an instruction is, for latencies and exec_* counters) -------------------
OPC_INT32 = 0
OPC_FP32 = 1
OPC_FP64 = 2
OPC_SFU = 3
OPC_LDST = 4
OPC_TENSOR = 5
N_OP_CLASSES = 6

# -- operand collector sets (GPGPU-Sim -gpgpu_operand_collector_num_units_<set>) -------------
OC_SP = 0
OC_DP = 1
OC_SFU = 2
OC_INT = 3
OC_MEM = 4
OC_TENSOR = 5
OC_GEN = 6
N_OC_SETS = 7

# -- memory kind of a static instruction ------------------------------------------------------
MK_NONE = 0
MK_SHARED = 1
MK_LD_GLOBAL = 2
MK_ST_GLOBAL = 3
MK_LD_LOCAL = 4
MK_ST_LOCAL = 5
MK_LD_CONST = 6
MK_LD_TEX = 7
MK_ATOMIC = 8
MK_PARAM = 9
MK_LD_GENERIC = 10
"""Generic-space load: shared when the record has a bank-conflict degree, else global."""
MK_ST_GENERIC = 11
MK_ATOMIC_GENERIC = 12
N_MEM_KINDS = 13

# -- per-pc flags -----------------------------------------------------------------------------
F_BRANCH = 1
F_BARRIER = 2
"""``bar.sync``/``barrier.sync``: the warp waits until its CTA arrives."""
F_BAR_ARRIVE = 4
"""``bar.arrive``: counts as an arrival, does not wait."""
F_EXIT = 8
F_LONGOP = 16
"""Destination written by a long-latency memory load (GPGPU-Sim ``longopregs``)."""

# -- bank mappings (arch.BankMapping) ---------------------------------------------------------
BANK_MAP_WARP_SKEWED = 0
BANK_MAP_LINEAR = 1
BANK_MAP_SUB_CORE = 2

# -- scheduler policies (arch.SchedPolicy) ----------------------------------------------------
POL_LRR = 0
POL_GTO = 1
POL_TWO_LEVEL = 2
POL_OLDEST = 3

# -- status returned by the cycle loop --------------------------------------------------------
ST_DONE = 0
ST_NEED_CTAS = 1
"""The dispatcher needs a CTA whose trace has not been delivered yet."""
ST_FAULT = 2
ST_CYCLE_LIMIT = 3
ST_LAUNCH_DONE = 4
"""``run_group``: a launch of the group finished this cycle (its ``sc[SC_DONE_AT]`` is set)."""

# -- slots of the int64 parameter vector ``prm`` (static per launch) --------------------------
P_N_SCHED = 0
P_POLICY = 1
P_TL_ACTIVE = 2
P_MAX_ISSUE = 3
P_IBUF = 4
P_SB_ENTRIES = 5
P_N_FETCH = 6
P_N_DECODE = 7
P_N_BANKS = 8
P_BANK_MAP = 9
P_RD_PORTS = 10
P_WR_PORTS = 11
P_OC_STEPS = 12
P_SINGLE_READ = 13
P_EX_WB = 14
P_SHMEM_LAT = 15
P_PARAM_LAT = 16
P_LDST_LAT = 17
P_LAUNCH_LAT = 18
P_SKIP_IDLE = 19
P_CTAS_PER_SM = 20
P_CTA_WARPS = 21
P_CTA_THREADS = 22
P_CTA_REGS = 23
P_CTA_SHMEM = 24
P_N_CTAS = 25
P_BRANCH_BUBBLE = 26
P_MAX_WARPS = 27
P_SMEM_PER_SM = 28
P_REGS_PER_SM = 29
P_THREADS_PER_SM = 30
P_TEX_LAT = 31
P_MECH_MEM = 32
"""1 when a mechanism uses the memory port (``mem_request`` is not the no-op): the only cost
of the port in the baseline is reading this flag."""
N_PARAMS = 33

# -- slots of the int64 scalar state ``sc`` (mutable) -----------------------------------------
SC_CYCLE = 0
SC_NEXT_CTA = 1
SC_N_DELIVERED = 2
SC_FINAL = 3
SC_DEFERRED = 4
SC_AGE = 5
SC_TL_SEQ = 6
SC_LAST_SM = 7
SC_CTAS_DONE = 8
SC_FAULT = 9
SC_FAULT_SM = 10
SC_FAULT_WARP = 11
SC_FAULT_PC = 12
SC_PROGRESS = 13
SC_N_PARTIAL = 14
SC_DONE_AT = 15
"""``run_group``: the cycle after the launch's last CTA completed (0 while it runs)."""
N_SCALARS = 16

__all__ += [name for name in dir() if name.startswith(("P_", "SC_"))]
