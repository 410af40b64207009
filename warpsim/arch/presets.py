"""GPU configuration presets: the papers' baselines and GPGPU-Sim/Accel-Sim tested configs.

Follows: reference/energy-and-configs.md §4 (per-SM limits, chip parameters, gpgpusim.config
values, tags [S]/[P]/[D]); reference/gpu-simulators.md §2 (GTX480 3.2.2 config); the specs'
configuration tables (register-sharing.md Table 1, warped-compression.md Table 2, wir.md
Table II, regless.md Table 1, xiang-simt-efficiency.md Tables 1/4/6).
Assumptions: values no stored source gives are tagged [A] in the docstrings below; DRAM
timing of the HBM presets is [A] (the references give none).
"""

from __future__ import annotations

from dataclasses import replace

from warpsim.arch.config import (
    ClockConfig,
    CollectorSetConfig,
    DRAMConfig,
    GPUConfig,
    L1DConfig,
    L2Config,
    PipeConfig,
    PipelinesConfig,
    RegFileConfig,
    SharedMemConfig,
    SMConfig,
)
from warpsim.arch.policies import (
    BankMapping,
    OtherOps,
    SchedPolicy,
    SetIndexFn,
    WriteAllocPolicy,
    WritePolicy,
)
from warpsim.errors import ConfigError

__all__ = [
    "A100",
    "C2050",
    "GTX285",
    "GTX480",
    "GTX480_3X",
    "GTX980",
    "H100",
    "PRESETS",
    "PRESET_SOURCES",
    "QV100",
    "TABLE8",
    "get_preset",
]

GTX480_3X = GPUConfig(name="gtx480")
"""The GPGPU-Sim 3.2.2 GTX480 configuration (the field defaults; the ``gtx480`` preset before its
memory system became GPGPU-Sim 4.2's): the base of the other Fermi-era presets, whose memory
systems keep its unsectored L2, queue sizes and linear mapping, and of the unit tests whose
memory timelines are worked out by hand for those values."""

SM2_GTX480_MEMORY = ("dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR."
                     "BBBCCCCB.CCSSSSSS")
"""``-gpgpu_mem_addr_mapping`` of GPGPU-Sim 4.2's ``configs/tested-cfgs/SM2_GTX480``."""

GTX480 = replace(
    GTX480_3X,
    l2=replace(GTX480_3X.l2, sector_bytes=32, mshr_entries=256, reply_queue_entries=64,
               dram_queue_entries=64, store_acks=True),
    dram=replace(GTX480_3X.dram, sched_queue_entries=64, addr_mapping=SM2_GTX480_MEMORY,
                 row_bytes=4096),
    icnt=replace(GTX480_3X.icnt, eject_buffer_entries=32, flit_bytes=40),
    pipelines=replace(GTX480_3X.pipelines, other_ops=OtherOps.ALU1, register_stage_cycles=3),
    l1d=replace(GTX480_3X.l1d, mshr_entries=64, latency_queue=True),
)
"""NVIDIA GeForce GTX480 (Fermi GF100, CC 2.0), the papers' Fermi baseline.

Source: GPGPU-Sim 3.2.2 ``configs/GTX480/gpgpusim.config`` as listed in
reference/gpu-simulators.md §2 (15 SMs, 1536 threads, 8 CTAs, 32768 registers, 2 GTO
schedulers, 16 banks, collectors SP 6/SFU 8, L1D 32:128:4 = 16 KB, 48 KB shared memory, L2
12 x 64 KB, 6 GDDR5 channels, 700:700:700:924 MHz) plus the 4.x SM2_GTX480 L1/shared latencies
35/26 (reference/energy-and-configs.md §4.3); matches warped-compression.md Table 2 and
wir.md Table II (except WIR's 32 KB L1D and 8 bank groups, which that spec applies itself).
Memory system since 2026-11-26 (validation/gpgpusim/README.md §7.8): GPGPU-Sim 4.2's
``SM2_GTX480`` one, the simulator the issue-16 reference numbers come from: sectored L2
(``S:64:128:8``, 256 MSHRs), the L1D's 64 MSHRs (``-gpgpu_cache:dl1 ...,S:64:8,8``; README
§7.9), ``-gpgpu_dram_partition_queues 64:64:64:64``, scheduler queue 64,
ejection buffer 32, 40-byte flits, its address mapping (4 KiB rows); the L2 starts cold
(``l2.fill_on_host_copy`` off, README §7.6/§7.8).
Core since 2026-11-26 (README §7.9): GPGPU-Sim 4.2's latency 1 for instructions outside the
latency tables (``pipelines.other_ops`` ``alu1``) and its three pipeline-register stages
between collector and writeback (``pipelines.register_stage_cycles`` 3). The Fermi-era presets
derived from it (c2050, table8, and the L1D of gtx285 and gtx980) keep GTX480_3X's
pipelines and L1D.
Store acknowledgements since 2026-11-26 (``l2.store_acks``, README §7.10): a warp exits only
when the L2 acknowledged its stores, as in GPGPU-Sim; the other presets, GTX480_3X included
(the hand-computed unit tests), keep posted stores, so their reproductions are unchanged.
L1 latency queue since 2026-11-26 (``l1d.latency_queue``, README §7.13): an L1D access waits
35 cycles in GPGPU-Sim 4.x's queue before its tag lookup, and a lookup without a free MSHR
holds the queue's head instead of the LD/ST unit; the other presets keep GTX480_3X's L1D.
"""

C2050 = replace(
    GTX480,
    name="c2050",
    sm=replace(GTX480.sm, n_sms=14, sched_policy=SchedPolicy.LRR),
    pipelines=GTX480_3X.pipelines,
    l1d=GTX480_3X.l1d,
    l2=GTX480_3X.l2,
    dram=replace(GTX480_3X.dram, return_queue_entries=114),
    icnt=GTX480_3X.icnt,
    clocks=ClockConfig(core_mhz=575.0, icnt_mhz=575.0, l2_mhz=575.0, dram_mhz=750.0),
)
"""NVIDIA Tesla C2050 (Fermi, CC 2.0), the Register Sharing baseline.

Source: specs/register-sharing.md §7.2 Table 1 (14 SMs, 8 CTAs, 1536 threads, 48 KB shared,
16 KB L1, 768 KB L2, 32768 registers, LRR, 2 schedulers, FR-FCFS, GDDR5 timing) and §7.3 (stock
``configs/TeslaC2050`` values: clocks 575:575:575:750, return queue 114; the rest as GTX480).
"""

GTX285 = replace(
    GTX480,
    name="gtx285",
    icnt=GTX480_3X.icnt,
    sm=SMConfig(n_sms=30, n_threads_per_warp=32, n_max_threads=1024,
                n_max_ctas=8, n_max_threads_per_cta=512, n_registers=16384,
                n_max_regs_per_cta=16384, n_schedulers=1,
                sched_policy=SchedPolicy.LRR, n_two_level_active_warps=8),
    pipelines=PipelinesConfig(
        int32=PipeConfig(n_units=0, n_id_oc_slots=0, n_oc_ex_slots=0, latency_cycles=8,
                         initiation_interval_cycles=4),
        fp32=PipeConfig(n_units=1, n_id_oc_slots=1, n_oc_ex_slots=1, latency_cycles=8,
                        initiation_interval_cycles=4),
        fp64=PipeConfig(n_units=0, n_id_oc_slots=0, n_oc_ex_slots=0, latency_cycles=32,
                        initiation_interval_cycles=32),
        sfu=PipeConfig(n_units=1, n_id_oc_slots=1, n_oc_ex_slots=1, latency_cycles=20,
                       initiation_interval_cycles=16),
        ldst=PipeConfig(n_units=1, n_id_oc_slots=1, n_oc_ex_slots=1, latency_cycles=1,
                        initiation_interval_cycles=4),
        tensor=GTX480.pipelines.tensor,
        n_ex_wb_slots=1,
    ),
    l1d=replace(GTX480_3X.l1d, size_bytes=49152, line_bytes=64, ways=8, sector_bytes=64,
                set_index=SetIndexFn.LINEAR),
    shmem=SharedMemConfig(size_bytes=16384, cta_limit_bytes=16384, n_banks=16,
                          latency_cycles=GTX480.shmem.latency_cycles),
    l2=replace(GTX480_3X.l2, size_bytes=262144, line_bytes=64, ways=8, sector_bytes=64,
               n_slices_per_channel=1),
    dram=replace(GTX480_3X.dram, n_channels=16, n_transfers_per_clock=2, n_burst_beats=4,
                 n_banks=8, n_bank_groups=1, t_cl_cycles=10, t_rp_cycles=10, t_rcd_cycles=12,
                 t_ras_cycles=28, t_rc_cycles=38, t_ccdl_cycles=2),
    clocks=ClockConfig(core_mhz=1300.0, icnt_mhz=1300.0, l2_mhz=1300.0, dram_mhz=800.0),
)
"""NVIDIA GeForce GTX285 (Tesla GT200, CC 1.3), the uniform-vector baseline.

Source: specs/xiang-simt-efficiency.md Table 1 (30 SMs, 1.3 GHz, 8 SPs per SM so one warp
instruction per 4 cycles, 8 CTAs / 1024 threads, 16384 registers, 16 KB shared, L1 8-way 64 B
48 KB, L2 8-way 64 B 256 KB per channel, 16 channels, GDDR 8 banks 800 MHz tCL 10 tRP 10
tRCD 12, 200 GB/s: 16 x 2 x 4 B x 800 MHz x 2 = 204.8 GB/s [D]); one round-robin scheduler
(§1.2); ALU latency 8 (Table 6 / Fig. 41 fast-clock model); SFU 2 per SM so 16 cycles per warp
(§2 [A]). [A]: 512 threads/CTA (CC 1.3), 16 shared banks, SFU latency 20, DP 32/32, GDDR3
burst 4, tRAS 28 (GTX480),
tRC = tRAS + tRP = 38, register banks and collectors as GTX480; GT200's clusters of 3 SMs
(TPCs) are not modelled (every SM has its own interconnect port). The ILP study's slow-clock
model is ``-o clocks.core_mhz=325 -o pipelines.fp32.initiation_interval_cycles=1``.
"""

TABLE8 = replace(
    GTX480,
    name="table8",
    icnt=GTX480_3X.icnt,
    sm=replace(GTX480.sm, n_max_threads=1024, n_registers=16384, n_max_regs_per_cta=16384),
    pipelines=replace(
        GTX480_3X.pipelines,
        int32=replace(GTX480.pipelines.int32, initiation_interval_cycles=2),
        fp32=replace(GTX480.pipelines.fp32, initiation_interval_cycles=2,
                     op_initiation_interval_cycles=tuple(
                         max(2, v) for v in GTX480.pipelines.fp32.op_initiation_interval_cycles)),
    ),
    l1d=GTX480_3X.l1d,
    l2=replace(GTX480_3X.l2, size_bytes=131072, line_bytes=64, sector_bytes=64),
    dram=replace(GTX480_3X.dram, n_banks=8, n_bank_groups=1, t_cl_cycles=10, t_rp_cycles=10,
                 t_rcd_cycles=12, t_ras_cycles=28, t_rc_cycles=38, t_ccdl_cycles=2),
    clocks=ClockConfig(core_mhz=1400.0, icnt_mhz=700.0, l2_mhz=700.0, dram_mhz=800.0),
)
"""The coarse-grained L1 fetch study's GPGPU-Sim 3.1.1 GPU (Xiang's dissertation Table 8).

Source: specs/xiang-simt-efficiency.md §4 Table 8 (15 SMs, 1.4 GHz, warp 32, SIMD width 16,
8 CTAs / 1024 threads, 64 KB registers = 16384, 48 KB shared, L1 4-way 128 B 16 KB, L2 8-way
64 B 256 KB per channel, 6 channels, GDDR 8 banks 800 MHz tCL 10 tRP 10 tRCD 12). [A]: SIMD
width 16 as an initiation interval of 2 on the GTX480's two INT/FP32 units; interconnect and L2
at 700 MHz (GPGPU-Sim 3.x GTX480 domains); two L2 slices of 128 KB per channel ("256kb" read
as KB); tRAS 28, tRC 38 as the gtx285 preset; the rest as GTX480. The GDDR5 bus of GTX480 at
800 MHz gives 153.6 GB/s, not the table's 200 GB/s.
"""

GTX980 = replace(
    GTX480,
    name="gtx980",
    icnt=GTX480_3X.icnt,
    sm=SMConfig(n_sms=16, n_max_threads=2048, n_max_ctas=32, n_registers=65536,
                n_max_regs_per_cta=65536, n_schedulers=4,
                sched_policy=SchedPolicy.GTO, n_max_issue_per_warp=2),
    regfile=replace(GTX480.regfile, bank_mapping=BankMapping.SUB_CORE),
    pipelines=PipelinesConfig(
        int32=PipeConfig(n_units=0, n_id_oc_slots=0, n_oc_ex_slots=0, latency_cycles=6,
                         initiation_interval_cycles=1),
        fp32=PipeConfig(n_units=4, n_id_oc_slots=4, n_oc_ex_slots=4, latency_cycles=6,
                        initiation_interval_cycles=1),
        fp64=GTX480.pipelines.fp64,
        sfu=PipeConfig(n_units=4, n_id_oc_slots=4, n_oc_ex_slots=4, latency_cycles=20,
                       initiation_interval_cycles=4),
        ldst=GTX480.pipelines.ldst,
        tensor=GTX480.pipelines.tensor,
        n_ex_wb_slots=4,
    ),
    l1d=replace(GTX480_3X.l1d, size_bytes=49152, ways=6, hit_latency_cycles=28,
                bypass_global=True, set_index=SetIndexFn.LINEAR),
    shmem=SharedMemConfig(size_bytes=98304, cta_limit_bytes=49152, latency_cycles=24),
    l2=replace(GTX480_3X.l2, size_bytes=524288, ways=16, n_slices_per_channel=1),
    dram=replace(GTX480_3X.dram, n_channels=4),
    clocks=ClockConfig(core_mhz=1126.0, icnt_mhz=1126.0, l2_mhz=1126.0, dram_mhz=1750.0),
)
"""NVIDIA GeForce GTX980 (Maxwell GM204, CC 5.2), the RegLess baseline.

Source: specs/regless.md §1.1 Table 1 (16 SMs, 64 warps, 4 GTO schedulers with dual issue,
48 KB L1 with 32 MSHRs and global data bypassed, 2 MB L2 in 4 partitions, 224 GB/s) and §1.3
[A] (1126 MHz, GDDR5 4 x 64-bit at 7 Gb/s: 4 x 8 B x 1750 MHz x 4 = 224 GB/s [D], 96 KB shared,
L1 64 sets x 6 ways x 128 B at 28 cycles, L2 4 x 512 KB 16-way, ALU 6 / SFU ~20 cycles, 16 banks
as 4 per scheduler); CC 5.2 limits from reference/energy-and-configs.md §4.1 (2048 threads,
32 CTAs, 65536 registers, 48 KB per CTA). [A]: collectors, DP and LD/ST as GTX480, shared
latency 24 (TITANX), GDDR5 timing as GTX480.
"""

_VOLTA_RF = RegFileConfig(
    n_banks=16, bank_mapping=BankMapping.SUB_CORE, n_oc_steps_per_cycle=2,
    collector_single_read_per_cycle=False,
    oc_sp=CollectorSetConfig(), oc_sfu=CollectorSetConfig(), oc_mem=CollectorSetConfig(),
    oc_gen=CollectorSetConfig(n_collector_units=8, n_in_ports=8, n_out_ports=8),
)


def _pipe(latency: tuple[int, ...], initiation: tuple[int, ...]) -> PipeConfig:
    """A 4-unit Volta-style pipe (pipeline widths 4) with per-op lists."""
    return PipeConfig(n_units=4, n_id_oc_slots=4, n_oc_ex_slots=4, latency_cycles=latency[0],
                      initiation_interval_cycles=initiation[0], op_latency_cycles=latency,
                      op_initiation_interval_cycles=initiation)


def _unit(latency: int, initiation: int) -> PipeConfig:
    return PipeConfig(n_units=4, n_id_oc_slots=4, n_oc_ex_slots=4, latency_cycles=latency,
                      initiation_interval_cycles=initiation)


_VOLTA = GPUConfig(
    name="qv100",
    sm=SMConfig(n_sms=80, n_max_threads=2048, n_max_ctas=32, n_registers=65536,
                n_max_regs_per_cta=65536, n_schedulers=4,
                sched_policy=SchedPolicy.LRR, sub_core_model=True),
    regfile=_VOLTA_RF,
    pipelines=PipelinesConfig(
        int32=_pipe((4, 13, 4, 5, 145, 21), (2, 2, 2, 2, 8, 4)),
        fp32=_pipe((4, 13, 4, 5, 39), (2, 2, 2, 2, 4)),
        fp64=_pipe((8, 19, 8, 8, 330), (4, 4, 4, 4, 130)),
        sfu=_unit(100, 8),
        ldst=_unit(1, 1),
        tensor=_unit(64, 64),
        n_ex_wb_slots=8,
    ),
    l1d=L1DConfig(size_bytes=32768, line_bytes=128, ways=64,
                  write_policy=WritePolicy.WRITE_THROUGH,
                  write_alloc_policy=WriteAllocPolicy.LAZY_FETCH_ON_READ,
                  set_index=SetIndexFn.LINEAR, mshr_entries=256, n_mshr_max_merge=8,
                  miss_queue_entries=16, hit_latency_cycles=20),
    shmem=SharedMemConfig(size_bytes=98304, cta_limit_bytes=98304, latency_cycles=20),
    l2=L2Config(size_bytes=98304, line_bytes=128, ways=24,
                set_index=SetIndexFn.IPOLY, mshr_entries=192, n_mshr_max_merge=4,
                miss_queue_entries=32, hit_latency_cycles=160, n_slices_per_channel=2),
    dram=DRAMConfig(n_channels=32, n_chips_per_channel=1, bus_width_bytes=16, n_burst_beats=2,
                    n_transfers_per_clock=2, n_banks=16, n_bank_groups=4,
                    sched_queue_entries=64, return_queue_entries=192, latency_cycles=100,
                    t_ccd_cycles=1, t_rrd_cycles=3, t_rcd_cycles=12, t_ras_cycles=28,
                    t_rp_cycles=12, t_rc_cycles=40, t_cl_cycles=12, t_wl_cycles=2,
                    t_cdlr_cycles=3, t_wr_cycles=10, t_ccdl_cycles=2, t_rtpl_cycles=3),
    clocks=ClockConfig(core_mhz=1132.0, icnt_mhz=1132.0, l2_mhz=1132.0, dram_mhz=850.0),
    kernel_launch_latency_cycles=5000,
)
"""The Volta SM of Accel-Sim's SM7_QV100 with the memory system the ``qv100`` preset had
before 2026-11-26 (3.x queue sizes, unsectored L2, linear mapping, cold L2): the base of
``A100`` and ``H100``, whose memory systems keep it. ``QV100`` is the preset."""

SM7_QV100_MEMORY = ("dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR."
                    "RBBBCCCB.CCCSSSSS")
"""``-gpgpu_mem_addr_mapping`` of GPGPU-Sim 4.2's ``configs/tested-cfgs/SM7_QV100``."""

QV100 = replace(
    _VOLTA,
    pipelines=replace(_VOLTA.pipelines, ldst=PipeConfig(
        n_units=1, n_id_oc_slots=4, n_oc_ex_slots=1, latency_cycles=1,
        initiation_interval_cycles=1), other_ops=OtherOps.ALU1),
    l1d=replace(_VOLTA.l1d, mshr_entries=512, sector_bytes=32),
    l1c=replace(_VOLTA.l1c, size_bytes=65536, ways=8, n_mshr_max_merge=64),
    l1t=replace(_VOLTA.l1t, size_bytes=131072, ways=256, mshr_entries=512, n_mshr_max_merge=8),
    shmem=replace(_VOLTA.shmem, cta_limit_bytes=65536),
    l2=replace(_VOLTA.l2, sector_bytes=32, write_alloc_policy=WriteAllocPolicy.LAZY_FETCH_ON_READ,
               reply_queue_entries=64, dram_queue_entries=64, fill_on_host_copy=True,
               store_acks=True),
    dram=replace(_VOLTA.dram, addr_mapping=SM7_QV100_MEMORY),
    icnt=replace(_VOLTA.icnt, eject_buffer_entries=32, flit_bytes=40),
)
"""NVIDIA Quadro GV100 (Volta, CC 7.0), Accel-Sim's SM7_QV100 (AccelWattch's GPU).

Source: reference/energy-and-configs.md §4.3 [S] (80 SMs, 4 LRR schedulers, sub-core model,
16 banks, port throughput 2, generic collectors 8/8/8, pipeline widths 4, latencies int
4,13,4,5,145,21 / 2,2,2,2,8,4, fp 4,13,4,5,39 / 2,2,2,2,4, dp 8,19,8,8,330 / 4,4,4,4,130,
sfu 100/8, tensor 64/64, L1D S:4:128:64 in a 128 KB unified array at 20 cycles, 96 KB shared
at 20 cycles, L2 S:32:128:24 x 64 slices = 6 MB at 160, 32 HBM2 channels 16 B x BL2 x 2,
1132:1132:1132:850 MHz (870 GB/s [D]), launch latency 5000) and §4.1 (CC 7.0 limits).
One LD/ST unit per SM (GPGPU-Sim 4.2 builds one ``ldst_unit`` per core whatever
``-gpgpu_pipeline_widths`` says; its 4 ID_OC_MEM slots stay; README §8: shared-memory bank
conflicts of all four sub-cores serialise in it). Instructions outside the latency tables take
GPGPU-Sim 4.2's latency 1 on the INT units (``pipelines.other_ops`` ``alu1``; README §8.2:
13.3 -> 12.7 %). Memory system since 2026-11-26
(validation/gpgpusim/README.md §8): the stock GPGPU-Sim 4.2 ``SM7_QV100`` file's, as for gtx480
(§7.8): sectored L2 (``S:32:128:24``, lazy fetch on read,
192 MSHRs), ``-gpgpu_dram_partition_queues 64:64:64:64``, L1D ``A:512:8``, ejection buffer 32,
40-byte flits, its address mapping, the L2 warmed by host copies (``-gpgpu_perf_sim_memcpy
1``), 64 KB shared memory per CTA (``-gpgpu_shmem_per_block``), constant cache
``N:128:64:8`` and texture cache ``N:4:128:256``, store acknowledgements (``l2.store_acks``,
README §7.10: 12.7 -> 13.9 %, GPGPU-Sim's behaviour; the streaming kernels it slows were
already slow). ``warpsim exec --config qv100
--gpgpusim-config .../SM7_QV100/gpgpusim.config`` gives the same configuration.
The L1D is sectored (``l1d.sector_bytes`` 32, ``S:4:128:64``: a miss fetches only its
missing 32 B sectors, timing/l1sector.py; README §8.3).
[A]: the L2 IPOLY set index, HBM2 timing. Not modelled, so left at the values warpsim
simulates (``warpsim.arch.refused``): the L1D's 4 data banks and the unified L1D/shared
array (sizes used as given: GPGPU-Sim 4.2 gives the L1D the 128 KB array minus the kernel's
shared-memory carve-out, ``-gpgpu_adaptive_cache_config``).
"""

A100 = replace(
    _VOLTA,
    name="a100",
    sm=replace(_VOLTA.sm, n_sms=108),
    regfile=replace(_VOLTA_RF, n_banks=32),
    pipelines=replace(
        _VOLTA.pipelines,
        int32=_pipe((4, 4, 4, 4, 21), (2, 2, 2, 2, 2)),
        fp32=_pipe((4, 4, 4, 4, 39), (2, 2, 2, 2, 4)),
        fp64=_pipe((6, 6, 6, 6, 330), (4, 4, 4, 4, 130)),
        sfu=_unit(23, 8),
        tensor=_unit(25, 16),
    ),
    l1d=replace(_VOLTA.l1d, hit_latency_cycles=34),
    shmem=SharedMemConfig(size_bytes=167936, cta_limit_bytes=166912, latency_cycles=28),
    l2=replace(_VOLTA.l2, size_bytes=262144, ways=16, hit_latency_cycles=200,
               n_slices_per_channel=4),
    dram=replace(_VOLTA.dram, n_channels=40, latency_cycles=190),
    clocks=ClockConfig(core_mhz=1410.0, icnt_mhz=1410.0, l2_mhz=1512.0, dram_mhz=6048.0),
)
"""NVIDIA A100 SXM4 (Ampere GA100, CC 8.0), Accel-Sim's SM80_A100.

Source: reference/energy-and-configs.md §4.3 [S] (108 SMs, 32 banks, latencies int
4,4,4,4,21 / 2,2,2,2,2, fp 4,4,4,4,39 / 2,2,2,2,4, dp 6,6,6,6,330 / 4,4,4,4,130, sfu 23/8,
tensor 25/16, L1D in a 192 KB unified array at 34 cycles, 164 KB shared at 28, L2 S:128:128:16
x 160 slices = 40 MB at 200, 40 x 4 sub-partitions, dram latency 190, clocks
1410:1410:1512:6048) and §4.1 (163 KB per CTA). Note: with the config's 6048 MHz DRAM clock
the HBM2 16 B x 2 formula gives 7.7 TB/s, not the real 1555 GB/s; ``-o clocks.dram_mhz=1215``
gives the real bandwidth. [A]: as QV100.
"""

H100 = replace(
    A100,
    name="h100",
    sm=replace(A100.sm, n_sms=132, n_fetch_per_cycle=4),
    regfile=replace(_VOLTA_RF, n_banks=64),
    pipelines=replace(
        A100.pipelines,
        int32=_pipe((2, 2, 2, 2, 21, 24), (2, 2, 2, 2, 2, 4)),
        fp32=_pipe((2, 2, 2, 2, 39), (1, 1, 1, 1, 4)),
        fp64=_pipe((6, 6, 6, 6, 330), (2, 2, 2, 2, 130)),
        sfu=_unit(15, 8),
        tensor=_unit(24, 8),
    ),
    l1d=replace(A100.l1d, hit_latency_cycles=29),
    shmem=SharedMemConfig(size_bytes=233472, cta_limit_bytes=232448, latency_cycles=21),
    l2=replace(A100.l2, size_bytes=655360, ways=20, hit_latency_cycles=132,
               n_slices_per_channel=2),
    dram=replace(A100.dram, bus_width_bytes=8, n_burst_beats=4, latency_cycles=485),
    clocks=ClockConfig(core_mhz=1980.0, icnt_mhz=3106.0, l2_mhz=3106.0, dram_mhz=3106.0),
    kernel_launch_latency_cycles=3000,
)
"""NVIDIA H100 SXM5 (Hopper GH100, CC 9.0): Accel-Sim's newest stored SM90_H100, with its
latencies and issue rates calibrated against clock64 microbenchmarks of a real H100.

Source: reference/energy-and-configs.md §4.3 [S] (132 SMs, 64 banks, dp initiation
2,2,2,2,130, sfu initiation 8, tensor 24/8, L1D in a 256 KB unified array, 228 KB shared,
L2 S:256:128:20 x 80 slices = 50 MB, 40 x 2 sub-partitions, HBM3 8 B x BL4 x 2, clocks
1980:3106:3106:3106, launch latency 3000) and §4.1 (227 KB per CTA).
Measured (validation/results/h100/timing.json, H100 80GB HBM3 at 1980 MHz, 2026-11-26;
validation/README.md "The h100 preset against the H100";
tests/validation/test_h100_preset.py): warpsim's dependent-issue latency is the configured
latency + 2 (operand collection and writeback), so the configured ALU latencies are the H100's
minus 2 (H100 -> configured; Accel-Sim's value in brackets): FADD/FMUL/FFMA/FMNMX, IMAD and
IADD3 4 -> 2 (4), DADD/DFMA 8 -> 6 (8), MUFU 17 -> 15 (23), SHFL 26 -> 24 (int32 default 4)
with 1 warp instruction per cycle per SM (initiation 4 on each of the 4 units). Issue rates:
FP32 128 lanes per cycle (initiation 1; Accel-Sim's 2 is the A100's 64), and one fetch per
sub-partition per cycle (``sm.n_fetch_per_cycle`` 4; with GPGPU-Sim's 1, fetch caps an SM at
~1.3 warp instructions per cycle where the H100 issues 4). Load-to-use of a pointer chase:
L1 hit 32 cycles (``l1d.hit_latency_cycles`` 41 -> 29), shared 23 (29 -> 21), L2 hit after an
L1 miss 173 (``l2.hit_latency_cycles`` 237 -> 132), DRAM (random lines in 64 MiB) 683
(``dram.latency_cycles`` 194 -> 485). Not reproducible by the preset (warpsim's op classes):
POPC, FRND and IMAD.HI (17, 17, 9 cycles on the H100; 4 here), ``.cg`` loads.
[A]: as QV100; the formula gives 2.0 TB/s against the real 3.35 TB/s.
"""

PRESETS: dict[str, GPUConfig] = {
    cfg.name: cfg for cfg in (GTX480, C2050, GTX285, TABLE8, GTX980, QV100, A100, H100)
}
"""Presets by lower-case name."""

PRESET_SOURCES: dict[str, str] = {
    "gtx480": "GPGPU-Sim 3.2.2 configs/GTX480/gpgpusim.config (reference/gpu-simulators.md "
              "§2; energy-and-configs.md §4.3); warped-compression.md Table 2; wir.md Table II",
    "c2050": "register-sharing.md §7.2 Table 1 and §7.3 (GPGPU-Sim configs/TeslaC2050)",
    "gtx285": "xiang-simt-efficiency.md Table 1 (uniform vectors) and Table 6 (ILP)",
    "table8": "xiang-simt-efficiency.md §4 Table 8 (the coarse-grained L1 fetch study)",
    "gtx980": "regless.md §1.1 Table 1 and §1.3; energy-and-configs.md §4.1 (CC 5.2)",
    "qv100": "Accel-Sim SM7_QV100 gpgpusim.config (energy-and-configs.md §4.3)",
    "a100": "Accel-Sim SM80_A100 gpgpusim.config (energy-and-configs.md §4.3)",
    "h100": "Accel-Sim SM90_H100 gpgpusim.config, newest stored (energy-and-configs.md §4.3); "
            "latencies calibrated on a real H100 (validation/results/h100/timing.json)",
}
"""Source of each preset, by name (docs/configuration.md lists them)."""


def get_preset(name: str) -> GPUConfig:
    """The preset called ``name`` (case-insensitive).

    Raises
    ------
    ConfigError
        For an unknown name; the message lists the valid names.
    """
    key = name.strip().lower()
    if key not in PRESETS:
        from warpsim.arch.schema import suggest

        raise ConfigError("preset", name, f"one of {', '.join(PRESETS)}",
                          hint=suggest(key, PRESETS))
    return PRESETS[key]
