"""Configuration of one streaming multiprocessor: limits, schedulers, register file, pipelines.

Follows: STYLE.md §2.3; GPGPU-Sim 3.x/4.x shader-core options (reference/gpu-simulators.md §2,
reference/energy-and-configs.md §4.3). Defaults are the GTX480 (Fermi) values of GPGPU-Sim's
``configs/GTX480/gpgpusim.config`` that the papers' baselines use.
Assumptions: [A] the load/store pipeline's own latency is 1 cycle (the memory system adds the
rest). The GTX480 SFU takes GPGPU-Sim 4.2's default latency/initiation 8/8 (its config sets
none).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from warpsim.arch.policies import (
    BankFrom,
    BankMapping,
    LatencyOp,
    OccupancyArch,
    OtherOps,
    SchedPolicy,
)
from warpsim.arch.schema import ConfigBase, is_power_of_two

__all__ = [
    "CollectorSetConfig",
    "PipeConfig",
    "PipelinesConfig",
    "RegFileConfig",
    "SMConfig",
]

_CFG = dataclass(frozen=True, slots=True, kw_only=True)


@_CFG
class SMConfig(ConfigBase):
    """Streaming multiprocessors: count, residency limits, warp scheduling and front end."""

    _PATH = "sm"

    n_sms: int = 15
    """SMs on the chip (clusters x cores per cluster). GTX480: -gpgpu_n_clusters 15 x
    -gpgpu_n_cores_per_cluster 1."""
    n_sms_per_cluster: int = 1
    """SMs sharing one interconnect port (-gpgpu_n_cores_per_cluster). GTX480: 1. Not
    modelled: must be 1, every SM has its own port (``warpsim.arch.refused``)."""
    n_threads_per_warp: int = 32
    """Threads per warp (warp size). -gpgpu_shader_core_pipeline 1536:32."""
    n_max_threads: int = 1536
    """Resident threads per SM. -gpgpu_shader_core_pipeline 1536:32 (48 warps)."""
    n_max_ctas: int = 8
    """Resident thread blocks (CTAs) per SM. -gpgpu_shader_cta 8."""
    n_max_threads_per_cta: int = 1024
    """Threads per CTA (CUDA limit for CC >= 2.0; 512 on CC 1.x)."""
    n_registers: int = 32768
    """32-bit registers per SM (register file 128 KB). -gpgpu_shader_registers 32768."""
    n_max_regs_per_cta: int = 32768
    """32-bit registers one CTA may hold (-gpgpu_registers_per_block). GTX480: all of the SM."""
    n_regs_alloc_granule: int = 4
    """Registers per thread are rounded up to a multiple of this for occupancy
    (GPGPU-Sim max_cta: ``(regs + 3) & ~3``; specs/register-sharing.md §2)."""
    occupancy_arch: OccupancyArch = OccupancyArch.DEVICE
    """ptxas target whose report gives a kernel's registers, shared and local memory, hence
    its occupancy: ``device`` (the device's own arch, ``Device.arch``, sm_80) or ``sm_<n>``
    (ptxas 13's targets, sm_75 and newer). -gpgpu_occupancy_sm_number n (GPGPU-Sim 4.2 runs
    ptxas with ``--gpu-name=sm_<n>``)."""
    n_schedulers: int = 2
    """Warp schedulers per SM; warp w belongs to scheduler w % n_schedulers.
    -gpgpu_num_sched_per_core 2."""
    sched_policy: SchedPolicy = SchedPolicy.GTO
    """Warp issue priority. GTX480: -gpgpu_scheduler gto."""
    n_two_level_active_warps: int = 6
    """Active warps per scheduler under ``SchedPolicy.TWO_LEVEL``; GTX480 config's commented
    ``two_level_active:6:0:1``. Ignored by the other policies."""
    n_max_issue_per_warp: int = 1
    """Instructions one scheduler may issue from one warp per cycle (2 = dual issue).
    -gpgpu_max_insn_issue_per_warp 1."""
    ibuffer_entries: int = 2
    """Decoded-instruction buffer entries per warp (GPGPU-Sim IBUFFER_SIZE = 2)."""
    scoreboard_entries: int = 0
    """Pending-write registers tracked per warp; 0 = unbounded (GPGPU-Sim's std::set
    scoreboard). Xiang ch. 4 (multi-entry scoreboard) sweeps 2..32 [A]."""
    n_fetch_per_cycle: int = 1
    """Warps fetched per SM per cycle (GPGPU-Sim fetch: one warp's I-cache line per cycle)."""
    n_decode_per_cycle: int = 2
    """Instructions decoded per fetched warp per cycle (GPGPU-Sim fills both ibuffer slots)."""
    sub_core_model: bool = False
    """Partition warps, collector units and units per scheduler (-gpgpu_sub_core_model 1 from
    Pascal on). GTX480: 0."""

    @property
    def warp_size(self) -> int:
        """Alias of ``n_threads_per_warp``."""
        return self.n_threads_per_warp

    @property
    def n_max_warps(self) -> int:
        """Resident warps per SM (n_max_threads / n_threads_per_warp)."""
        return self.n_max_threads // self.n_threads_per_warp

    @property
    def n_clusters(self) -> int:
        """Interconnect clusters (n_sms / n_sms_per_cluster)."""
        return self.n_sms // self.n_sms_per_cluster

    def __post_init__(self) -> None:
        self._validate()

    def _check(self) -> None:
        for name in ("n_sms", "n_sms_per_cluster", "n_max_threads", "n_max_ctas",
                     "n_max_threads_per_cta", "n_registers", "n_max_regs_per_cta",
                     "n_schedulers", "n_max_issue_per_warp",
                     "ibuffer_entries", "n_fetch_per_cycle", "n_decode_per_cycle",
                     "n_two_level_active_warps"):
            self._at_least(name, 1)
        self._at_least("scoreboard_entries", 0)
        self._pow2("n_threads_per_warp")
        if self.n_threads_per_warp > 64:
            self._fail("n_threads_per_warp", "a power of two <= 64")
        self._pow2("n_regs_alloc_granule")
        if self.n_sms % self.n_sms_per_cluster:
            self._fail("n_sms", f"a multiple of n_sms_per_cluster = {self.n_sms_per_cluster}")
        if self.n_max_threads % self.n_threads_per_warp:
            self._fail("n_max_threads",
                       f"a multiple of n_threads_per_warp = {self.n_threads_per_warp}")
        if self.n_max_threads_per_cta > self.n_max_threads:
            self._fail("n_max_threads_per_cta", f"<= n_max_threads = {self.n_max_threads}")
        if self.n_registers % self.n_threads_per_warp:
            self._fail("n_registers",
                       f"a multiple of n_threads_per_warp = {self.n_threads_per_warp}")
        if self.n_max_warps % self.n_schedulers:
            self._fail("n_schedulers", f"a divisor of the {self.n_max_warps} warps per SM")
        per_sched = self.n_max_warps // self.n_schedulers
        if (self.sched_policy is SchedPolicy.TWO_LEVEL
                and self.n_two_level_active_warps > per_sched):
            self._fail("n_two_level_active_warps", f"<= {per_sched} warps per scheduler")


@_CFG
class CollectorSetConfig(ConfigBase):
    """One set of operand collector units serving one pipeline class (GPGPU-Sim
    ``-gpgpu_operand_collector_num_units_<class>`` and its in/out ports)."""

    n_collector_units: int = 0
    """Collector units in the set (each holds one instruction while its operands arrive)."""
    n_in_ports: int = 0
    """Issue-to-collector ports: instructions the set can accept per cycle."""
    n_out_ports: int = 0
    """Collector-to-pipeline dispatch ports: ready instructions dispatched per cycle."""

    def __post_init__(self) -> None:
        self._validate()

    def _check(self) -> None:
        for name in ("n_collector_units", "n_in_ports", "n_out_ports"):
            self._at_least(name, 0)
        if self.n_collector_units and not (self.n_in_ports and self.n_out_ports):
            self._fail("n_in_ports", ">= 1 in and out port when the set has collector units")


_OC_SETS = ("oc_sp", "oc_dp", "oc_sfu", "oc_int", "oc_mem", "oc_tensor", "oc_gen")


@_CFG
class RegFileConfig(ConfigBase):
    """Banked register file with operand collectors and a bank arbiter (GPGPU-Sim
    ``opndcoll_rfu_t``; reference/gpu-simulators.md §2)."""

    _PATH = "regfile"

    n_banks: int = 16
    """Register-file banks per SM. GTX480 gpgpusim.config: -gpgpu_num_reg_banks 16."""
    bank_mapping: BankMapping = BankMapping.WARP_SKEWED
    """Register-to-bank mapping; GPGPU-Sim always skews by warp id."""
    bank_from: BankFrom = BankFrom.PHYSICAL
    """Register numbers the mapping takes: ``physical`` (the allocator's registers) or
    ``ptx_name`` (the number in the PTX register's name, as GPGPU-Sim 4.2's ``arch_reg``)."""
    bank_width_bits: int = 1024
    """Bits one bank delivers per access: 1024 = a whole warp register (GPGPU-Sim). WIR and
    Warped-Compression model 128-bit banks, 8 per warp register."""
    n_read_ports_per_bank: int = 1
    """Read ports per bank (one read per bank per cycle in GPGPU-Sim)."""
    n_write_ports_per_bank: int = 1
    """Write ports per bank; a write wins the bank over reads in the same cycle."""
    n_oc_steps_per_cycle: int = 1
    """Operand-collector steps (allocate, read, dispatch) per core cycle:
    -gpgpu_reg_file_port_throughput (1 on GTX480; 2 from Kepler on)."""
    collector_single_read_per_cycle: bool = True
    """A collector unit receives at most one operand per cycle (GPGPU-Sim 3.2.2 arbiter);
    False = several banks may feed one unit per cycle (GPGPU-Sim 4.x)."""
    oc_sp: CollectorSetConfig = field(default_factory=lambda: CollectorSetConfig(
        n_collector_units=6, n_in_ports=2, n_out_ports=2))
    """SP collectors. GTX480: -gpgpu_operand_collector_num_units_sp 6, in/out ports 2/2."""
    oc_dp: CollectorSetConfig = field(default_factory=CollectorSetConfig)
    """DP collectors (0 on GTX480: DP instructions use the SFU set)."""
    oc_sfu: CollectorSetConfig = field(default_factory=lambda: CollectorSetConfig(
        n_collector_units=8, n_in_ports=1, n_out_ports=1))
    """SFU collectors. GTX480: -gpgpu_operand_collector_num_units_sfu 8, ports 1/1."""
    oc_int: CollectorSetConfig = field(default_factory=CollectorSetConfig)
    """INT collectors (0 on GTX480: integer instructions use the SP set)."""
    oc_mem: CollectorSetConfig = field(default_factory=lambda: CollectorSetConfig(
        n_collector_units=2, n_in_ports=1, n_out_ports=1))
    """Load/store collectors (GPGPU-Sim default 2, ports 1/1)."""
    oc_tensor: CollectorSetConfig = field(default_factory=CollectorSetConfig)
    """Tensor-core collectors (none before Volta)."""
    oc_gen: CollectorSetConfig = field(default_factory=CollectorSetConfig)
    """Generic collectors shared by all classes (Volta+ configs: gen 8, in 8, out 8)."""

    def __post_init__(self) -> None:
        self._validate()

    def _check(self) -> None:
        for name in ("n_banks", "n_read_ports_per_bank", "n_write_ports_per_bank",
                     "n_oc_steps_per_cycle"):
            self._at_least(name, 1)
        if self.bank_width_bits < 32 or not is_power_of_two(self.bank_width_bits):
            self._fail("bank_width_bits", "a power of two >= 32")
        for name in _OC_SETS:
            oc = getattr(self, name)
            if oc.n_collector_units and not (oc.n_in_ports and oc.n_out_ports):
                self._fail_nested(name, "n_in_ports", ">= 1 when the set has collector units")
        if self.oc_gen.n_collector_units == 0:
            for name in ("oc_sp", "oc_sfu", "oc_mem"):
                if getattr(self, name).n_collector_units < 1:
                    self._fail_nested(name, "n_collector_units",
                                      ">= 1 when oc_gen has no collector units")

    def collector_sets(self) -> dict[str, CollectorSetConfig]:
        """The collector sets by class name (``sp``, ``dp``, ..., ``gen``)."""
        return {name[3:]: getattr(self, name) for name in _OC_SETS}


@_CFG
class PipeConfig(ConfigBase):
    """One execution-pipeline class: units, pipeline-register widths, latency and initiation.

    ``op_latency_cycles`` / ``op_initiation_interval_cycles`` follow GPGPU-Sim's
    ``-ptx_opcode_latency_<class>`` lists in ``LatencyOp`` order (ADD, MAX, MUL, MAD, DIV
    [, SHFL]); ops outside the list (and every op when it is empty) use the scalars.
    """

    n_units: int = 1
    """Units of this class per SM (-gpgpu_num_<class>_units; OC_EX width). 0 = the class
    runs on its fallback unit (int32 -> fp32, fp64 -> sfu, tensor -> fp32) with its own
    latencies, as GPGPU-Sim 4.x does for zero-width units."""
    n_id_oc_slots: int = 1
    """Issue-to-operand-collector pipeline register entries (ID_OC width)."""
    n_oc_ex_slots: int = 1
    """Collector-to-execute pipeline register entries (OC_EX width). A collector dispatches
    straight into a free unit, so this must equal n_units (``warpsim.arch.refused``)."""
    latency_cycles: int = 4
    """Result latency of an op outside ``op_latency_cycles``, in core cycles."""
    initiation_interval_cycles: int = 1
    """Cycles before the unit accepts the next warp instruction (same scope)."""
    op_latency_cycles: tuple[int, ...] = ()
    """Per-op latency in LatencyOp order (5 or 6 values) or empty."""
    op_initiation_interval_cycles: tuple[int, ...] = ()
    """Per-op initiation interval in LatencyOp order (5 or 6 values) or empty."""

    def __post_init__(self) -> None:
        self._validate()

    def _check(self) -> None:
        for name in ("n_units", "n_id_oc_slots", "n_oc_ex_slots"):
            self._at_least(name, 0)
        for name in ("latency_cycles", "initiation_interval_cycles"):
            self._at_least(name, 1)
        for name in ("op_latency_cycles", "op_initiation_interval_cycles"):
            values = getattr(self, name)
            if len(values) not in (0, 5, 6):
                self._fail(name, "empty or 5-6 values (ADD, MAX, MUL, MAD, DIV[, SHFL])")
            if any(v < 1 for v in values):
                self._fail(name, "values >= 1")

    def latency_of(self, op: LatencyOp) -> int:
        """Latency of ``op`` in core cycles."""
        idx = list(LatencyOp).index(op)
        ops = self.op_latency_cycles
        return ops[idx] if idx < len(ops) else self.latency_cycles

    def initiation_of(self, op: LatencyOp) -> int:
        """Initiation interval of ``op`` in core cycles."""
        idx = list(LatencyOp).index(op)
        ops = self.op_initiation_interval_cycles
        return ops[idx] if idx < len(ops) else self.initiation_interval_cycles


_FERMI_INT = PipeConfig(n_units=0, n_id_oc_slots=0, n_oc_ex_slots=0, latency_cycles=4,
                        initiation_interval_cycles=1, op_latency_cycles=(4, 13, 4, 5, 145, 32),
                        op_initiation_interval_cycles=(1, 2, 2, 1, 8, 4))
_FERMI_FP32 = PipeConfig(n_units=2, n_id_oc_slots=2, n_oc_ex_slots=2, latency_cycles=4,
                         initiation_interval_cycles=1, op_latency_cycles=(4, 13, 4, 5, 39),
                         op_initiation_interval_cycles=(1, 2, 1, 1, 4))
_FERMI_FP64 = PipeConfig(n_units=0, n_id_oc_slots=0, n_oc_ex_slots=0, latency_cycles=8,
                         initiation_interval_cycles=8, op_latency_cycles=(8, 19, 8, 8, 330),
                         op_initiation_interval_cycles=(8, 16, 8, 8, 130))
_FERMI_SFU = PipeConfig(n_units=1, n_id_oc_slots=1, n_oc_ex_slots=1, latency_cycles=8,
                        initiation_interval_cycles=8)
_FERMI_LDST = PipeConfig(n_units=1, n_id_oc_slots=1, n_oc_ex_slots=1, latency_cycles=1,
                         initiation_interval_cycles=1)
_NO_TENSOR = PipeConfig(n_units=0, n_id_oc_slots=0, n_oc_ex_slots=0, latency_cycles=64,
                        initiation_interval_cycles=64)


@_CFG
class PipelinesConfig(ConfigBase):
    """Execution pipelines per SM. GTX480: -gpgpu_pipeline_widths 2,1,1,2,1,1,2 (SP, SFU, MEM),
    -gpgpu_num_sp_units 2, -gpgpu_num_sfu_units 1; latencies from -ptx_opcode_latency_*."""

    _PATH = "pipelines"

    int32: PipeConfig = field(default_factory=lambda: _FERMI_INT)
    """Integer ALU. GTX480: no INT unit (runs on SP); -ptx_opcode_latency_int 4,13,4,5,145,32,
    -ptx_opcode_initiation_int 1,2,2,1,8,4 (4.2 SM2_GTX480, with SHFL)."""
    fp32: PipeConfig = field(default_factory=lambda: _FERMI_FP32)
    """Single-precision (SP) pipeline. GTX480: 2 units; latency_fp 4,13,4,5,39,
    initiation_fp 1,2,1,1,4."""
    fp64: PipeConfig = field(default_factory=lambda: _FERMI_FP64)
    """Double precision. GTX480: no DP unit (runs on SFU); latency_dp 8,19,8,8,330,
    initiation_dp 8,16,8,8,130."""
    sfu: PipeConfig = field(default_factory=lambda: _FERMI_SFU)
    """Special-function unit (sqrt, sin, cos, ex2, lg2, rsqrt, rcp; div/rem take their type's
    DIV latency here). GTX480: 1 unit, latency 8 / interval 8: SM2_GTX480 sets no
    -ptx_opcode_latency_sfu / -ptx_opcode_initiation_sfu, so GPGPU-Sim 4.2's defaults apply
    (cuda-sim.cc ``ptx_opcocde_latency_options``: "8", "8")."""
    ldst: PipeConfig = field(default_factory=lambda: _FERMI_LDST)
    """Load/store (MEM) pipeline feeding L1D/shared memory. GTX480: 1 unit; [A] 1 cycle."""
    tensor: PipeConfig = field(default_factory=lambda: _NO_TENSOR)
    """Tensor cores (0 units before Volta; QV100 -ptx_opcode_latency_tensor 64)."""
    n_ex_wb_slots: int = 2
    """Execute-to-writeback pipeline register entries (EX_WB width). GTX480: 2."""
    other_ops: OtherOps = OtherOps.ADD
    """Instructions no latency table lists (logic, shifts, setp, mov, cvt, branches, ...):
    ``add`` (their type's ADD entry) or ``alu1`` (GPGPU-Sim 4.2: latency 1, initiation 1,
    the INT unit where there is one)."""
    register_stage_cycles: int = 0
    """Cycles an instruction of a pipelined unit (SP, SFU, DP, INT, tensor; not LD/ST) spends
    in pipeline registers besides its unit's latency: GPGPU-Sim's OC_EX register, the unit's
    dispatch register and the EX_WB register before writeback, one cycle each (3; shader.cc
    ``execute``, ``pipelined_simd_unit::cycle``, ``writeback``). 0 folds them away (a
    dependent instruction issues ``latency + 3`` cycles after its producer with one source
    operand instead of GPGPU-Sim's ``latency + 6``)."""

    def __post_init__(self) -> None:
        self._validate()

    def _check(self) -> None:
        self._at_least("n_ex_wb_slots", 1)
        self._at_least("register_stage_cycles", 0)
        for name in ("fp32", "sfu", "ldst"):
            if getattr(self, name).n_units < 1:
                self._fail_nested(name, "n_units", ">= 1 (other classes fall back on it)")
        for name in self.classes():
            pipe = getattr(self, name)
            if pipe.n_units and not (pipe.n_id_oc_slots and pipe.n_oc_ex_slots):
                self._fail_nested(name, "n_id_oc_slots", ">= 1 when the class has units")

    @staticmethod
    def classes() -> tuple[str, ...]:
        """Pipeline class names in a fixed order."""
        return ("int32", "fp32", "fp64", "sfu", "ldst", "tensor")
