"""Configuration of the memory system: caches, shared memory, interconnect, L2, DRAM.

Follows: STYLE.md §2.3; GPGPU-Sim cache spec strings and memory-partition options
(reference/gpu-simulators.md §2, reference/energy-and-configs.md §4.3). Defaults are the
GTX480 values (GPGPU-Sim 3.x ``configs/GTX480/gpgpusim.config`` plus the 4.x SM2_GTX480
latencies).
Assumptions: [A] DRAM row size 2 KiB; [A] interconnect traversal latency 4 cycles (BookSim
iSLIP crossbar pipeline; GPGPU-Sim has no single latency knob).
"""

from __future__ import annotations

from dataclasses import dataclass

from warpsim.arch.addr_mapping import parse_addr_mapping
from warpsim.arch.policies import (
    AllocPolicy,
    DramScheduler,
    ReplacementPolicy,
    SetIndexFn,
    WriteAllocPolicy,
    WritePolicy,
)
from warpsim.arch.schema import ConfigBase, is_power_of_two

__all__ = [
    "CacheConfig",
    "DRAMConfig",
    "InterconnectConfig",
    "L1CConfig",
    "L1DConfig",
    "L1IConfig",
    "L1TConfig",
    "L2Config",
    "SharedMemConfig",
]

_CFG = dataclass(frozen=True, slots=True, kw_only=True)


@_CFG
class CacheConfig(ConfigBase):
    """A set-associative cache (GPGPU-Sim spec ``<n_sets>:<line>:<ways>,<repl>:<write>:
    <alloc>:<write_alloc>:<index>,<mshr>:<entries>:<merge>,<miss_queue>``).

    Defaults: the GTX480 L1D ``32:128:4,L:L:m:N:H,A:32:8,8`` (16 KB).
    """

    size_bytes: int = 16384
    """Capacity in bytes (n_sets x line_bytes x ways)."""
    line_bytes: int = 128
    """Line (block) size in bytes."""
    ways: int = 4
    """Associativity."""
    sector_bytes: int = 128
    """Fill/valid granularity (32 for GPGPU-Sim's ``S`` caches): per-sector valid bits and
    fills in the L1D (timing/l1sector.py) and the L2 (timing/sector.py); the L1C and L1T
    must equal line_bytes (lines filled whole; ``warpsim.arch.refused``)."""
    replacement: ReplacementPolicy = ReplacementPolicy.LRU
    """Replacement policy (spec letter L = LRU, F = FIFO)."""
    write_policy: WritePolicy = WritePolicy.LOCAL_WB_GLOBAL_WT
    """Write policy (spec letter R, B, T, E, L)."""
    alloc_policy: AllocPolicy = AllocPolicy.ON_MISS
    """When a missing line is allocated (spec letter m, f, s)."""
    write_alloc_policy: WriteAllocPolicy = WriteAllocPolicy.NO_WRITE_ALLOCATE
    """Write-miss allocation (spec letter N, W, F, L)."""
    set_index: SetIndexFn = SetIndexFn.FERMI_HASH
    """Set-index function (spec letter L, H, P, X). GTX480 4.x config: H."""
    mshr_entries: int = 32
    """Miss-status holding registers (spec ``A:32:8``: 32)."""
    n_mshr_max_merge: int = 8
    """Requests one MSHR can merge (spec ``A:32:8``: 8)."""
    miss_queue_entries: int = 8
    """Miss queue towards the next level (spec field after the MSHRs)."""
    hit_latency_cycles: int = 35
    """Hit latency in core cycles. GTX480 4.x: -gpgpu_l1_latency 35 (3.x: no knob, 1)."""
    n_banks: int = 1
    """Data-array banks (-gpgpu_l1_banks). Not modelled: must be 1 (no data-array bank
    conflicts; ``warpsim.arch.refused``)."""

    @property
    def n_sets(self) -> int:
        """Sets (size_bytes / (line_bytes x ways))."""
        return self.size_bytes // (self.line_bytes * self.ways)

    @property
    def is_sectored(self) -> bool:
        """True when lines are filled in sectors smaller than the line."""
        return self.sector_bytes < self.line_bytes

    def __post_init__(self) -> None:
        self._validate()

    def _check(self) -> None:
        for name in ("size_bytes", "ways", "mshr_entries", "n_mshr_max_merge",
                     "miss_queue_entries", "hit_latency_cycles", "n_banks"):
            self._at_least(name, 1)
        if self.line_bytes < 4 or not is_power_of_two(self.line_bytes):
            self._fail("line_bytes", "a power of two >= 4")
        if not is_power_of_two(self.sector_bytes) or self.sector_bytes > self.line_bytes:
            self._fail("sector_bytes", f"a power of two <= line_bytes = {self.line_bytes}")
        if self.size_bytes % (self.line_bytes * self.ways):
            self._fail("size_bytes", f"a multiple of line_bytes x ways = "
                       f"{self.line_bytes * self.ways}")


@_CFG
class L1DConfig(CacheConfig):
    """Per-SM L1 data cache. GTX480: -gpgpu_cache:dl1 N:32:128:4,L:L:m:N:H,A:32:8,8 (16 KB)."""

    _PATH = "l1d"

    bypass_global: bool = False
    """Global loads skip the L1D (-gmem_skip_L1D 1; Maxwell default). GTX480: 0."""
    latency_queue: bool = False
    """GPGPU-Sim 4.x's L1 latency queue: an access waits ``hit_latency_cycles`` in a FIFO of
    that many slots before its tag lookup, and a lookup that finds no MSHR holds the head while
    the LD/ST unit goes on filling the queue (``ldst_unit::l1_latency_queue``,
    ``timing/l1access.py``). False: the tag lookup (and a refused one's retry) happens when the
    LD/ST unit offers the access (GPGPU-Sim 3.x)."""
    unified_l1d_shmem_bytes: int = 0
    """Size of a unified L1D + shared-memory array (-gpgpu_unified_l1d_size, Volta+).
    Not modelled: must be 0 (l1d.size_bytes and shmem.size_bytes are used as given;
    ``warpsim.arch.refused``)."""

    def _check(self) -> None:
        CacheConfig._check(self)
        self._at_least("unified_l1d_shmem_bytes", 0)
        if self.sector_bytes not in (32, self.line_bytes):
            self._fail("sector_bytes", f"32 (sectored, GPGPU-Sim 4.x S caches) or line_bytes = "
                       f"{self.line_bytes} (unsectored)")
        if self.is_sectored and self.line_bytes != 128:
            self._fail("line_bytes", "128 for a sectored L1D (sector_bytes < line_bytes: the "
                       "trace's 128 B lines and their 32 B sectors)")
        if self.is_sectored and self.alloc_policy == AllocPolicy.ON_FILL:
            self._fail("alloc_policy", "on_miss or streaming (allocated on the miss, as the "
                       "unsectored L1D treats it) for a sectored L1D (sector_bytes < line_bytes; "
                       "allocate-on-fill sector caches are not modelled)")


@_CFG
class L1IConfig(CacheConfig):
    """Per-SM instruction cache. GTX480: -gpgpu_cache:il1 4:128:4 (2 KB). Not modelled (fetch
    always hits): every field must keep its default (``warpsim.arch.refused``)."""

    _PATH = "l1i"

    size_bytes: int = 2048
    """4 sets x 128 B x 4 ways = 2 KB (WIR Table II: IS 2 KB)."""
    line_bytes: int = 128
    """128-byte lines."""
    ways: int = 4
    """4-way."""
    sector_bytes: int = 128
    """Unsectored."""
    write_policy: WritePolicy = WritePolicy.READ_ONLY
    """Read-only (spec letter R)."""
    alloc_policy: AllocPolicy = AllocPolicy.ON_FILL
    """Allocated on fill (spec letter f) [A]."""
    set_index: SetIndexFn = SetIndexFn.LINEAR
    """Linear set index [A]."""
    mshr_entries: int = 2
    """MSHRs [A]."""
    n_mshr_max_merge: int = 32
    """Merges per MSHR [A]."""
    miss_queue_entries: int = 4
    """Miss queue [A]."""
    hit_latency_cycles: int = 1
    """Hit latency [A] (the fetch stage's own cycle)."""


@_CFG
class L1CConfig(CacheConfig):
    """Per-SM constant cache. GTX480: -gpgpu_const_cache:l1 64:64:2 (8 KB)."""

    _PATH = "l1c"

    size_bytes: int = 8192
    """64 sets x 64 B x 2 ways = 8 KB (WIR Table II: CS 8 KB)."""
    line_bytes: int = 64
    """64-byte lines."""
    ways: int = 2
    """2-way."""
    sector_bytes: int = 64
    """Unsectored."""
    write_policy: WritePolicy = WritePolicy.READ_ONLY
    """Read-only (spec letter R)."""
    alloc_policy: AllocPolicy = AllocPolicy.ON_FILL
    """Allocated on fill (spec letter f) [A]."""
    set_index: SetIndexFn = SetIndexFn.LINEAR
    """Linear set index [A]."""
    mshr_entries: int = 2
    """MSHRs [A]."""
    n_mshr_max_merge: int = 32
    """Merges per MSHR [A]."""
    miss_queue_entries: int = 4
    """Miss queue [A]."""
    hit_latency_cycles: int = 1
    """Hit latency [A]."""


@_CFG
class L1TConfig(CacheConfig):
    """Per-SM texture cache. GTX480: -gpgpu_tex_cache:l1 4:128:24 (12 KB)."""

    _PATH = "l1t"

    size_bytes: int = 12288
    """4 sets x 128 B x 24 ways = 12 KB (WIR Table II: TS 12 KB)."""
    line_bytes: int = 128
    """128-byte lines."""
    ways: int = 24
    """24-way."""
    sector_bytes: int = 128
    """Unsectored."""
    write_policy: WritePolicy = WritePolicy.READ_ONLY
    """Read-only (spec letter R)."""
    alloc_policy: AllocPolicy = AllocPolicy.ON_MISS
    """Allocated on miss (spec letter m) [A]."""
    set_index: SetIndexFn = SetIndexFn.LINEAR
    """Linear set index [A]."""
    mshr_entries: int = 128
    """Texture fetch FIFO entries (spec F:128:4) [A]."""
    n_mshr_max_merge: int = 4
    """Merges per entry [A]."""
    miss_queue_entries: int = 128
    """Miss queue [A]."""
    hit_latency_cycles: int = 1
    """Hit latency [A]."""


@_CFG
class L2Config(CacheConfig):
    """One L2 slice (memory sub-partition). GTX480: -gpgpu_cache:dl2 64:128:8,L:B:m:W,A:32:4,4
    per sub-partition; 6 channels x 2 slices = 12 x 64 KB = 768 KB."""

    _PATH = "l2"

    size_bytes: int = 65536
    """Bytes per slice: 64 sets x 128 B x 8 ways = 64 KB."""
    line_bytes: int = 128
    """128-byte lines."""
    ways: int = 8
    """8-way."""
    sector_bytes: int = 128
    """Unsectored (3.x ``N``). 32: sectored (4.x ``S``, timing/sector.py): per-sector valid
    and dirty bits, a miss fetches only its 32 B sector from DRAM, one lookup and one reply
    per sector, write-backs carry the dirty sectors."""
    write_policy: WritePolicy = WritePolicy.WRITE_BACK
    """Write-back (spec letter B)."""
    write_alloc_policy: WriteAllocPolicy = WriteAllocPolicy.WRITE_ALLOCATE
    """Write-allocate (spec letter W)."""
    set_index: SetIndexFn = SetIndexFn.LINEAR
    """Linear set index."""
    mshr_entries: int = 32
    """MSHRs (spec A:32:4)."""
    n_mshr_max_merge: int = 4
    """Merges per MSHR (spec A:32:4)."""
    miss_queue_entries: int = 4
    """Miss queue (spec ,4)."""
    hit_latency_cycles: int = 120
    """Fixed delay from the interconnect to the L2 lookup, in core cycles (GPGPU-Sim
    times its ROP queue with gpu_sim_cycle): -rop_latency 120 (4.x -gpgpu_l2_rop_latency)."""
    n_slices_per_channel: int = 2
    """L2 slices (sub-partitions) per DRAM channel: -gpgpu_n_sub_partition_per_mchannel 2."""
    rop_queue_entries: int = 64
    """Requests a slice accepts from the interconnect and holds through the ROP delay
    (-gpgpu_dram_partition_queues, first value icnt_L2: GPGPU-Sim's interconnect stops at a
    full icnt-to-L2 queue). [A] 64, the 4.2 SM2_GTX480 value."""
    reply_queue_entries: int = 8
    """Replies a slice holds for the interconnect (-gpgpu_dram_partition_queues, last value
    L2_icnt). [A] 8, GPGPU-Sim 3.x's default; the 4.2 SM2_GTX480 config has 64."""
    dram_queue_entries: int = 0
    """Requests a slice holds between its miss queue and the DRAM scheduler
    (-gpgpu_dram_partition_queues, second value L2_dram). Modelled as extra entries of the
    miss queue (one FIFO of ``miss_queue_entries + dram_queue_entries``; a miss is refused
    when it is full). 0: the miss queue feeds the DRAM directly (the default)."""
    fill_on_host_copy: bool = False
    """Host-to-device copies install their lines in the L2 (valid, clean, LRU-replacing), as
    GPGPU-Sim's -gpgpu_perf_sim_memcpy 1 does (``perf_memcpy_to_gpu``): a kernel then finds
    its just-copied inputs in the L2 as far as they fit (timing/l2_warm.py; a sectored L2
    gets the sectors the copy covers)."""
    store_acks: bool = False
    """Every store the L1 sends below answers with a WRITE_ACK from the L2 slice (one 1-flit
    reply per sector looked up, on the reply crossbar like a read reply), and a warp exits,
    and its CTA's resources are freed, only when all its stores are acknowledged (GPGPU-Sim
    ``inc_store_req`` / ``store_ack`` / ``hardware_done``; timing/store_ack.py). False: a
    warp exits once its last store left the LD/ST unit (no ack traffic)."""

    def _check(self) -> None:
        CacheConfig._check(self)
        for name in ("n_slices_per_channel", "rop_queue_entries", "reply_queue_entries"):
            self._at_least(name, 1)
        self._at_least("dram_queue_entries", 0)
        if self.sector_bytes not in (32, self.line_bytes):
            self._fail("sector_bytes", f"32 (sectored, GPGPU-Sim 4.x S caches) or line_bytes = "
                       f"{self.line_bytes} (unsectored)")
        if self.is_sectored and self.alloc_policy != AllocPolicy.ON_MISS:
            self._fail("alloc_policy", "on_miss for a sectored L2 (sector_bytes < line_bytes; "
                       "allocate-on-fill sector caches are not modelled)")


@_CFG
class SharedMemConfig(ConfigBase):
    """Per-SM shared memory (scratchpad)."""

    _PATH = "shmem"

    size_bytes: int = 49152
    """Shared memory per SM. GTX480: -gpgpu_shmem_size 49152 (48 of the 64 KB array)."""
    cta_limit_bytes: int = 49152
    """Shared memory one CTA may use (-gpgpu_shmem_per_block; 48 KB static on all CCs)."""
    n_banks: int = 32
    """Banks (-gpgpu_shmem_num_banks 32): a warp's access takes as many passes as the most
    distinct bank-width words that fall into one bank (GPGPU-Sim ``shmem_bank``)."""
    bank_width_bytes: int = 4
    """Bytes per bank per cycle (4 = one 32-bit word): word = address // bank_width_bytes,
    bank = word % n_banks."""
    latency_cycles: int = 26
    """Access latency in core cycles. GTX480 4.x: -gpgpu_smem_latency 26."""

    def __post_init__(self) -> None:
        self._validate()

    def _check(self) -> None:
        self._at_least("size_bytes", 0)
        self._at_least("cta_limit_bytes", 0)
        self._at_least("latency_cycles", 1)
        self._pow2("n_banks")
        self._pow2("bank_width_bytes")
        if self.cta_limit_bytes > self.size_bytes:
            self._fail("cta_limit_bytes", f"<= size_bytes = {self.size_bytes}")


@_CFG
class InterconnectConfig(ConfigBase):
    """SM <-> L2 interconnect: one request and one reply network. GTX480: BookSim
    ``config_fermi_islip.icnt``, a one-stage 27-port crossbar (15 SMs + 12 L2 slices)."""

    _PATH = "icnt"

    latency_cycles: int = 4
    """Unloaded traversal latency in interconnect cycles [A]."""
    flit_bytes: int = 32
    """Flit size = bytes per port per interconnect cycle (GPGPU-Sim 3.2.2: 32; 4.x: 40)."""
    n_vcs: int = 1
    """Virtual channels per port. Not modelled: must be 1 (``warpsim.arch.refused``)."""
    n_input_speedup: int = 1
    """Flits an input port sends per interconnect cycle. Not modelled beyond 1: must be 1
    (``warpsim.arch.refused``)."""
    n_subnets: int = 2
    """Separate networks (request and reply). Must be 2 (``warpsim.arch.refused``)."""
    eject_buffer_entries: int = 8
    """Reply packets an SM's ejection buffer holds (-gpgpu_n_cluster_ejection_buffer_size:
    GPGPU-Sim's default 8; its 4.2 stock configs set 32). [A] 8."""

    def __post_init__(self) -> None:
        self._validate()

    def _check(self) -> None:
        for name in ("latency_cycles", "flit_bytes", "n_vcs", "n_input_speedup", "n_subnets",
                     "eject_buffer_entries"):
            self._at_least(name, 1)


@_CFG
class DRAMConfig(ConfigBase):
    """DRAM channels (memory controllers) with GDDR/HBM timing, counted in DRAM command-clock
    cycles. GTX480: 6 channels, 2 x 32-bit GDDR5 chips per channel, Hynix H5GQ1H24AFR timing
    ``nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12:nbkgrp=4:CCDL=3:
    RTPL=2``."""

    _PATH = "dram"

    n_channels: int = 6
    """Memory controllers / channels: -gpgpu_n_mem 6."""
    n_chips_per_channel: int = 2
    """DRAM chips per channel: -gpgpu_n_mem_per_ctrlr 2."""
    bus_width_bytes: int = 4
    """Data bus width per chip: -gpgpu_dram_buswidth 4."""
    n_burst_beats: int = 8
    """Burst length: -gpgpu_dram_burst_length 8."""
    n_transfers_per_clock: int = 4
    """Data transfers per command clock: -dram_data_command_freq_ratio 4 (GDDR5 QDR)."""
    n_banks: int = 16
    """Banks per chip (timing nbk=16)."""
    n_bank_groups: int = 4
    """Bank groups (timing nbkgrp=4)."""
    row_bytes: int = 2048
    """Row (page) size per bank in bytes [A]; with ``addr_mapping`` it must equal the bytes
    its column and burst bits span."""
    addr_mapping: str = ""
    """GPGPU-Sim -gpgpu_mem_addr_mapping (``dramid@8;...RRRR.BBBCCCCB.CCSSSSSS``, parsed by
    ``arch.addr_mapping``): channel every 2**K bytes, bank and row bits of the address inside
    the channel, L2 slice from the bank's low bits. "" = linear: 256 B channel interleave,
    bank ``(local // row_bytes) % n_banks``, slice from the line bits (docs/memory-model.md)."""
    scheduler: DramScheduler = DramScheduler.FRFCFS
    """Request scheduler: -gpgpu_dram_scheduler 1 (FR-FCFS)."""
    sched_queue_entries: int = 16
    """FR-FCFS scheduling queue: -gpgpu_frfcfs_dram_sched_queue_size 16."""
    return_queue_entries: int = 116
    """Return queue: -gpgpu_dram_return_queue_size 116."""
    latency_cycles: int = 100
    """Fixed latency added to every DRAM access, in core cycles: -dram_latency 100."""
    t_ccd_cycles: int = 2
    """Column-to-column delay (CCD)."""
    t_rrd_cycles: int = 6
    """Activate-to-activate delay, different banks (RRD)."""
    t_rcd_cycles: int = 12
    """Activate-to-column delay (RCD)."""
    t_ras_cycles: int = 28
    """Activate-to-precharge minimum (RAS)."""
    t_rp_cycles: int = 12
    """Precharge period (RP)."""
    t_rc_cycles: int = 40
    """Activate-to-activate, same bank (RC). Not checked against t_ras + t_rp: GPGPU-Sim
    accepts RC = 78 < RAS + RP = 79 (SM75_RTX2060), and a bank waits for both."""
    t_cl_cycles: int = 12
    """CAS (read) latency (CL)."""
    t_wl_cycles: int = 4
    """Write latency (WL)."""
    t_cdlr_cycles: int = 5
    """Write-to-read turnaround (CDLR)."""
    t_wr_cycles: int = 12
    """Write recovery (WR)."""
    t_ccdl_cycles: int = 3
    """Column-to-column delay within a bank group (CCDL)."""
    t_rtpl_cycles: int = 2
    """Read-to-precharge delay (RTPL)."""
    rw_turnaround: bool = True
    """Bus turnaround between reads and writes: a write column command waits tRTW = tCL +
    burst + 2 - tWL after the last read's, a read tWTR = tWL + burst + tCDLR after the last
    write's (GPGPU-Sim 4.2; ``False`` = -dram_elimnate_rw_turnaround 1: both 0)."""

    @property
    def channel_bytes_per_clock(self) -> int:
        """Bytes one channel moves per command clock at peak."""
        return self.n_chips_per_channel * self.bus_width_bytes * self.n_transfers_per_clock

    def __post_init__(self) -> None:
        self._validate()

    def _check(self) -> None:
        for name in ("n_channels", "n_chips_per_channel", "bus_width_bytes", "n_burst_beats",
                     "n_transfers_per_clock", "n_banks", "n_bank_groups",
                     "sched_queue_entries", "return_queue_entries"):
            self._at_least(name, 1)
        self._at_least("latency_cycles", 0)
        self._pow2("row_bytes")
        for name in ("t_ccd_cycles", "t_rrd_cycles", "t_rcd_cycles", "t_ras_cycles",
                     "t_rp_cycles", "t_rc_cycles", "t_cl_cycles", "t_wl_cycles",
                     "t_cdlr_cycles", "t_wr_cycles", "t_ccdl_cycles", "t_rtpl_cycles"):
            self._at_least(name, 0)
        if self.n_banks % self.n_bank_groups:
            self._fail("n_bank_groups", f"a divisor of n_banks = {self.n_banks}")
        if self.addr_mapping:
            m = parse_addr_mapping(self.addr_mapping)
            n_bank_bits = bin(m.bank_mask).count("1")
            if 1 << n_bank_bits != self.n_banks:
                self._fail("addr_mapping", f"{self.n_banks.bit_length() - 1} bank bits B for "
                           f"n_banks = {self.n_banks} (it has {n_bank_bits})")
            if 1 << bin(m.column_mask).count("1") != self.row_bytes:
                self._fail("row_bytes", f"the {1 << bin(m.column_mask).count('1')} bytes the "
                           "column and burst bits (C, S) of addr_mapping span")
        if self.t_ras_cycles < self.t_rcd_cycles:
            self._fail("t_ras_cycles", f">= t_rcd_cycles = {self.t_rcd_cycles}")
