"""The whole-GPU configuration: clocks plus the SM and memory-system configs, cross-checked.

Follows: STYLE.md §2.3; ARCHITECTURE.md §2 (``arch/``). ``GPUConfig()`` with no arguments is
the GTX480 baseline of GPGPU-Sim's ``configs/GTX480/gpgpusim.config`` (the Fermi baseline of
WIR, Warped-Compression, WarpMan); ``warpsim.arch.presets`` names it and the other GPUs.
Deviations: the GTX480 L1D/shared-memory latencies are GPGPU-Sim 4.x's (35/26 cycles); 3.x had
no knob (``-o l1d.hit_latency_cycles=1 -o shmem.latency_cycles=1`` gives the 3.x timing).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NoReturn

from warpsim.arch.coarse_fetch import CoarseFetchConfig
from warpsim.arch.core import (
    CollectorSetConfig,
    PipeConfig,
    PipelinesConfig,
    RegFileConfig,
    SMConfig,
)
from warpsim.arch.ilp import ILPConfig
from warpsim.arch.memory import (
    CacheConfig,
    DRAMConfig,
    InterconnectConfig,
    L1CConfig,
    L1DConfig,
    L1IConfig,
    L1TConfig,
    L2Config,
    SharedMemConfig,
)
from warpsim.arch.policies import BankMapping
from warpsim.arch.refused import REFUSED, refused_value
from warpsim.arch.register_sharing import RegisterSharingConfig
from warpsim.arch.regless import RegLessConfig
from warpsim.arch.schema import ConfigBase
from warpsim.arch.sm_kinds import SMKindsConfig, check_sm_kinds
from warpsim.arch.uniform_vectors import UniformVectorsConfig
from warpsim.arch.warped_compression import WarpedCompressionConfig
from warpsim.arch.warpman import WarpManConfig
from warpsim.arch.wir import WIRConfig
from warpsim.errors import ConfigError

__all__ = [
    "CacheConfig",
    "ClockConfig",
    "CollectorSetConfig",
    "DRAMConfig",
    "GPUConfig",
    "InterconnectConfig",
    "L1CConfig",
    "L1DConfig",
    "L1IConfig",
    "L1TConfig",
    "L2Config",
    "PipeConfig",
    "PipelinesConfig",
    "RegFileConfig",
    "RegisterSharingConfig",
    "SMConfig",
    "SMKindsConfig",
    "SharedMemConfig",
    "WarpedCompressionConfig",
]

_CFG = dataclass(frozen=True, slots=True, kw_only=True)


@_CFG
class ClockConfig(ConfigBase):
    """Clock domains in MHz. GTX480: -gpgpu_clock_domains 700.0:700.0:700.0:924.0
    (core:interconnect:L2:DRAM). The core domain is half the 1401 MHz shader clock because
    GPGPU-Sim issues a 32-thread warp per cycle on Fermi's 16-wide SIMD."""

    _PATH = "clocks"

    core_mhz: float = 700.0
    """SM (core) clock: the clock in which gpu_sim_cycle counts."""
    icnt_mhz: float = 700.0
    """Interconnect clock."""
    l2_mhz: float = 700.0
    """L2 / memory-partition clock."""
    dram_mhz: float = 924.0
    """DRAM command clock (GDDR5 at 924 MHz, quad data rate)."""

    def __post_init__(self) -> None:
        self._validate()

    def _check(self) -> None:
        for name in ("core_mhz", "icnt_mhz", "l2_mhz", "dram_mhz"):
            if not _positive(getattr(self, name)):
                self._fail(name, "a clock > 0 MHz")


def _positive(value: float) -> bool:
    """True for a finite value > 0."""
    return value > 0 and value != float("inf")


@_CFG
class GPUConfig(ConfigBase):
    """A complete GPU: SMs, register file, pipelines, caches, interconnect, L2, DRAM, clocks.

    Examples
    --------
    >>> from warpsim.arch import GTX480, apply_overrides
    >>> cfg = apply_overrides(GTX480, {"regfile.n_banks": 32})
    >>> cfg.regfile.n_banks
    32
    """

    name: str = "custom"
    """Short lower-case name (preset key, or a user label)."""
    sm: SMConfig = field(default_factory=SMConfig)
    """SM count, residency limits, schedulers, front end."""
    sm_kinds: SMKindsConfig = field(default_factory=SMKindsConfig)
    """Heterogeneous SMs: kinds with their own residency resources (none by default)."""
    regfile: RegFileConfig = field(default_factory=RegFileConfig)
    """Banked register file and operand collectors."""
    pipelines: PipelinesConfig = field(default_factory=PipelinesConfig)
    """Execution pipelines (units, widths, latencies)."""
    l1i: L1IConfig = field(default_factory=L1IConfig)
    """Instruction cache per SM."""
    l1d: L1DConfig = field(default_factory=L1DConfig)
    """L1 data cache per SM."""
    l1c: L1CConfig = field(default_factory=L1CConfig)
    """Constant cache per SM."""
    l1t: L1TConfig = field(default_factory=L1TConfig)
    """Texture cache per SM."""
    shmem: SharedMemConfig = field(default_factory=SharedMemConfig)
    """Shared memory per SM."""
    icnt: InterconnectConfig = field(default_factory=InterconnectConfig)
    """SM <-> L2 interconnect."""
    l2: L2Config = field(default_factory=L2Config)
    """One L2 slice; there are dram.n_channels x l2.n_slices_per_channel slices."""
    dram: DRAMConfig = field(default_factory=DRAMConfig)
    """DRAM channels and timing."""
    clocks: ClockConfig = field(default_factory=ClockConfig)
    """Clock domains."""
    kernel_launch_latency_cycles: int = 0
    """Core cycles between a launch and its first CTA (-gpgpu_kernel_launch_latency;
    none in GPGPU-Sim 3.x, 5000 in the Volta/Ampere 4.x configs)."""
    warped_compression: WarpedCompressionConfig = field(
        default_factory=WarpedCompressionConfig)
    """Warped-Compression mechanism (off by default; ``warpsim.mechanisms``)."""
    register_sharing: RegisterSharingConfig = field(default_factory=RegisterSharingConfig)
    """Register-Sharing mechanism (off by default; ``warpsim.mechanisms``)."""
    warpman: WarpManConfig = field(default_factory=WarpManConfig)
    """WarpMan warp-level resource management (off by default; ``warpsim.mechanisms``)."""
    uniform_vectors: UniformVectorsConfig = field(default_factory=UniformVectorsConfig)
    """Uniform vectors: scalar execution, IRB, redundancy (off; ``warpsim.mechanisms``)."""
    wir: WIRConfig = field(default_factory=WIRConfig)
    """WIR warp instruction and register reuse (off by default; ``warpsim.mechanisms``)."""
    ilp: ILPConfig = field(default_factory=ILPConfig)
    """ILP shader core: bypassing, per-SM scoreboard, branch prediction (off by default)."""
    regless: RegLessConfig = field(default_factory=RegLessConfig)
    """RegLess operand staging units instead of a register file (off by default)."""
    coarse_fetch: CoarseFetchConfig = field(default_factory=CoarseFetchConfig)
    """Coarse-grained L1 fetch of aligned line groups, set dueling (off by default)."""

    def __post_init__(self) -> None:
        self._validate()

    def _check(self) -> None:
        if not self.name or self.name != self.name.strip():
            self._fail("name", "a non-empty name without surrounding blanks")
        self._at_least("kernel_launch_latency_cycles", 0)
        sm, rf = self.sm, self.regfile
        per_bank = sm.n_threads_per_warp * rf.n_banks
        if sm.n_registers % per_bank:
            _raise("regfile.n_banks", rf.n_banks,
                      f"a bank count that divides sm.n_registers = {sm.n_registers} into "
                      f"whole warp registers per bank (n_registers % (n_threads_per_warp x "
                      f"n_banks) == 0)")
        if rf.bank_width_bits > 32 * sm.n_threads_per_warp:
            _raise("regfile.bank_width_bits", rf.bank_width_bits,
                      f"<= one warp register = {32 * sm.n_threads_per_warp} bits")
        subcore = rf.bank_mapping is BankMapping.SUB_CORE or sm.sub_core_model
        if subcore and rf.n_banks % sm.n_schedulers:
            _raise("regfile.n_banks", rf.n_banks,
                      f"a multiple of sm.n_schedulers = {sm.n_schedulers} with sub-core "
                      f"banking")
        if sm.sub_core_model and rf.oc_gen.n_collector_units % sm.n_schedulers:
            _raise("regfile.oc_gen.n_collector_units", rf.oc_gen.n_collector_units,
                      f"a multiple of sm.n_schedulers = {sm.n_schedulers} in the sub-core "
                      f"model")
        if self.shmem.cta_limit_bytes > self.shmem.size_bytes:
            _raise("shmem.cta_limit_bytes", self.shmem.cta_limit_bytes,
                      f"<= shmem.size_bytes = {self.shmem.size_bytes}")
        check_sm_kinds(self)
        root = self.to_dict()
        for rule in REFUSED:
            bad = refused_value(rule, root)
            if bad is not None:
                what = f"{rule.expected} = {bad[1]!r}" if rule.expected else repr(bad[1])
                _raise(rule.path, bad[0], f"{what}, the only value warpsim models "
                       f"({rule.reason})")

    # -- derived quantities -----------------------------------------------------------------
    @property
    def n_sms(self) -> int:
        """SMs on the chip."""
        return self.sm.n_sms

    @property
    def n_l2_slices(self) -> int:
        """L2 slices (memory sub-partitions) on the chip."""
        return self.dram.n_channels * self.l2.n_slices_per_channel

    @property
    def l2_total_bytes(self) -> int:
        """Total L2 capacity in bytes."""
        return self.n_l2_slices * self.l2.size_bytes

    @property
    def dram_peak_bytes_per_s(self) -> float:
        """Peak DRAM bandwidth: channels x bytes per command clock x DRAM clock."""
        return self.dram.n_channels * self.dram.channel_bytes_per_clock * \
            self.clocks.dram_mhz * 1e6

    @property
    def peak_warp_insts_per_cycle(self) -> int:
        """Issue-bound peak: SMs x schedulers x instructions per scheduler per cycle."""
        return self.sm.n_sms * self.sm.n_schedulers * self.sm.n_max_issue_per_warp


def _raise(path: str, value: object, expected: str) -> NoReturn:
    """Raise ``ConfigError(path, value, expected)`` (a cross-field rule failed)."""
    raise ConfigError(path, value, expected)
