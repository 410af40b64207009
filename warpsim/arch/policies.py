"""Policy enumerations of the GPU configuration: schedulers, caches, DRAM, bank mapping.

Follows: STYLE.md §2.3 (policies are ``enum.Enum`` members; files and the CLI accept the
lower-case value); GPGPU-Sim option letters in reference/gpu-simulators.md §2 (cache spec
strings, ``-gpgpu_scheduler``, ``-gpgpu_dram_scheduler``).
"""

from __future__ import annotations

import enum

__all__ = [
    "AllocPolicy",
    "BankMapping",
    "DramScheduler",
    "LatencyOp",
    "OccupancyArch",
    "OtherOps",
    "ReplacementPolicy",
    "SchedPolicy",
    "SetIndexFn",
    "WriteAllocPolicy",
    "WritePolicy",
]


class SchedPolicy(enum.Enum):
    """Warp-scheduler issue priority (GPGPU-Sim ``-gpgpu_scheduler``)."""

    LRR = "lrr"
    """Loose round robin: start from the warp after the one that issued last."""
    GTO = "gto"
    """Greedy then oldest: keep the last-issued warp, else the oldest (lowest dynamic id)."""
    TWO_LEVEL = "two_level"
    """Two-level active/pending warps (``two_level_active:N:0:1``; Narasiman MICRO'11)."""
    OLDEST = "oldest"
    """Oldest first (GPGPU-Sim ``old``)."""


class ReplacementPolicy(enum.Enum):
    """Cache line replacement (cache spec field 5: ``L`` or ``F``)."""

    LRU = "lru"
    FIFO = "fifo"


class WritePolicy(enum.Enum):
    """Cache write policy (cache spec field 6: ``R``, ``B``, ``T``, ``E``, ``L``)."""

    READ_ONLY = "read_only"
    WRITE_BACK = "write_back"
    WRITE_THROUGH = "write_through"
    WRITE_EVICT = "write_evict"
    LOCAL_WB_GLOBAL_WT = "local_wb_global_wt"
    """Local memory written back, global memory written through (Fermi L1D)."""


class AllocPolicy(enum.Enum):
    """When a missing line gets its cache block (cache spec field 7: ``m``, ``f``, ``s``)."""

    ON_MISS = "on_miss"
    ON_FILL = "on_fill"
    STREAMING = "streaming"


class WriteAllocPolicy(enum.Enum):
    """Allocation on a write miss (cache spec field 8: ``N``, ``W``, ``F``, ``L``)."""

    NO_WRITE_ALLOCATE = "no_write_allocate"
    WRITE_ALLOCATE = "write_allocate"
    FETCH_ON_WRITE = "fetch_on_write"
    LAZY_FETCH_ON_READ = "lazy_fetch_on_read"


class SetIndexFn(enum.Enum):
    """Cache set-index function (cache spec field 9: ``L``, ``H``, ``P``, ``X``)."""

    LINEAR = "linear"
    FERMI_HASH = "fermi_hash"
    IPOLY = "ipoly"
    XOR = "xor"


class DramScheduler(enum.Enum):
    """DRAM request scheduler (GPGPU-Sim ``-gpgpu_dram_scheduler``: 0 FIFO, 1 FR-FCFS)."""

    FIFO = "fifo"
    FRFCFS = "frfcfs"


class BankFrom(enum.Enum):
    """Which register number the bank mapping takes (``regfile.bank_from``)."""

    PHYSICAL = "physical"
    """The allocator's physical 32-bit registers (docs/regalloc.md; 64-bit values use two)."""
    PTX_NAME = "ptx_name"
    """The number in the PTX register's declared name, one per register operand (``%f12`` and
    ``%rd12`` -> 12; GPGPU-Sim 4.2 ``arch_reg_num``, ptx_parser.cc ``add_identifier``)."""


class BankMapping(enum.Enum):
    """Register-to-bank mapping of the banked register file."""

    WARP_SKEWED = "warp_skewed"
    """``bank = (reg + warp_id) % n_banks`` (GPGPU-Sim ``register_bank``, shader.cc)."""
    LINEAR = "linear"
    """``bank = reg % n_banks`` (no warp skew)."""
    SUB_CORE = "sub_core"
    """``bank = (reg + warp_id) % (n_banks / n_schedulers) + sched_id * n_banks / n_schedulers``
    (GPGPU-Sim sub-core model)."""


class LatencyOp(enum.Enum):
    """Operation kinds of GPGPU-Sim's ``-ptx_opcode_latency_*`` lists, in list order."""

    ADD = "add"
    MAX = "max"
    MUL = "mul"
    MAD = "mad"
    DIV = "div"
    SHFL = "shfl"


class OccupancyArch(enum.Enum):
    """ptxas target of a kernel's registers, shared and local memory for occupancy (GPGPU-Sim
    4.2 ``-gpgpu_occupancy_sm_number n``: ptxas ``--gpu-name=sm_<n>``): the device's own arch
    or one of the ``sm_<n>`` ptxas 13 assembles for (it dropped sm_20 to sm_72)."""

    DEVICE = "device"
    """The device's arch (``Device.arch``, sm_80)."""
    SM_75 = "sm_75"
    SM_80 = "sm_80"
    SM_86 = "sm_86"
    SM_87 = "sm_87"
    SM_88 = "sm_88"
    SM_89 = "sm_89"
    SM_90 = "sm_90"
    SM_100 = "sm_100"
    SM_103 = "sm_103"
    SM_110 = "sm_110"
    SM_120 = "sm_120"
    SM_121 = "sm_121"

    @property
    def number(self) -> int | None:
        """``n`` of ``sm_<n>``; None for ``DEVICE``."""
        return None if self is OccupancyArch.DEVICE else int(self.value.removeprefix("sm_"))


class OtherOps(enum.Enum):
    """Timing of the instructions outside the latency tables' operations (logic, shifts,
    ``setp``/``selp``, ``mov``, ``cvt``, bit operations, ``sad``/``dp4a``, branches)."""

    ADD = "add"
    """Their type's ADD latency and initiation, on their type's unit (an f32 ``setp`` on SP)."""
    ALU1 = "alu1"
    """GPGPU-Sim 4.2: latency 1 and initiation 1 (``ptx_instruction::set_opcode_and_latency``
    leaves them ALU_OP / BRANCH_OP), on the INT unit where the SM has one, else SP."""
