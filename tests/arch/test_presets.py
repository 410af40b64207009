"""Presets against the numbers in the reference docs and spec tables (written here by hand)."""

from __future__ import annotations

import pytest

from warpsim.arch import (
    A100,
    C2050,
    GTX285,
    GTX480,
    GTX480_3X,
    GTX980,
    H100,
    PRESET_SOURCES,
    PRESETS,
    QV100,
    TABLE8,
    BankMapping,
    DramScheduler,
    GPUConfig,
    LatencyOp,
    OtherOps,
    SchedPolicy,
    WriteAllocPolicy,
    get_preset,
)
from warpsim.errors import ConfigError

KB = 1024
MB = 1024 * 1024


def test_preset_table_lists_every_gpu_of_the_architecture():
    assert set(PRESETS) == {"gtx480", "c2050", "gtx285", "table8", "gtx980", "qv100", "a100",
                            "h100"}
    assert set(PRESET_SOURCES) == set(PRESETS)
    for name, cfg in PRESETS.items():
        assert isinstance(cfg, GPUConfig) and cfg.name == name


def test_get_preset_is_case_insensitive():
    assert get_preset("GTX480") is GTX480
    assert get_preset(" qv100 ") is QV100


def test_unknown_preset_lists_valid_names():
    with pytest.raises(ConfigError) as info:
        get_preset("gtx481")
    err = info.value
    assert err.field == "preset" and err.value == "gtx481"
    for name in ("gtx480", "c2050", "qv100", "a100", "h100"):
        assert name in err.message
    assert "did you mean gtx480" in err.message


def test_gtx480_matches_gpgpusim_config_values():
    # reference/gpu-simulators.md §2 (GTX480 table) and energy-and-configs.md §4.3
    g = GTX480
    assert g.sm.n_sms == 15 and g.sm.n_sms_per_cluster == 1
    assert g.sm.n_max_threads == 1536 and g.sm.n_max_warps == 48
    assert g.sm.n_threads_per_warp == 32 and g.sm.warp_size == 32
    assert g.sm.n_max_ctas == 8
    assert g.sm.n_registers == 32768
    assert g.sm.n_schedulers == 2 and g.sm.sched_policy is SchedPolicy.GTO
    assert g.sm.n_max_issue_per_warp == 1
    assert g.regfile.n_banks == 16 and g.regfile.bank_mapping is BankMapping.WARP_SKEWED
    assert g.regfile.n_oc_steps_per_cycle == 1
    assert g.regfile.oc_sp.n_collector_units == 6
    assert (g.regfile.oc_sp.n_in_ports, g.regfile.oc_sp.n_out_ports) == (2, 2)
    assert g.regfile.oc_sfu.n_collector_units == 8
    assert g.regfile.oc_mem.n_collector_units == 2
    assert g.pipelines.fp32.n_units == 2 and g.pipelines.sfu.n_units == 1
    assert g.pipelines.n_ex_wb_slots == 2
    # GPGPU-Sim 4.2 SM2_GTX480: -ptx_opcode_latency_int 4,13,4,5,145,32 (with SHFL)
    assert g.pipelines.int32.op_latency_cycles == (4, 13, 4, 5, 145, 32)
    assert g.pipelines.int32.op_initiation_interval_cycles == (1, 2, 2, 1, 8, 4)
    # no -ptx_opcode_latency_sfu / _initiation_sfu there: GPGPU-Sim 4.2's defaults 8 and 8
    assert (g.pipelines.sfu.latency_cycles, g.pipelines.sfu.initiation_interval_cycles) == (8, 8)
    assert g.pipelines.fp32.op_latency_cycles == (4, 13, 4, 5, 39)
    assert g.pipelines.fp32.op_initiation_interval_cycles == (1, 2, 1, 1, 4)
    assert g.pipelines.fp64.op_latency_cycles == (8, 19, 8, 8, 330)
    assert g.pipelines.fp64.op_initiation_interval_cycles == (8, 16, 8, 8, 130)
    assert g.l1d.size_bytes == 16 * KB and g.l1d.line_bytes == 128 and g.l1d.ways == 4
    # GPGPU-Sim 4.2 SM2_GTX480 -gpgpu_cache:dl1 N:32:128:4,L:L:m:N:H,S:64:8,8 (3.x: 32 MSHRs)
    assert g.l1d.n_sets == 32 and g.l1d.mshr_entries == 64 and g.l1d.n_mshr_max_merge == 8
    assert g.l1d.hit_latency_cycles == 35 and g.shmem.latency_cycles == 26
    assert g.shmem.size_bytes == 48 * KB and g.shmem.n_banks == 32
    assert g.l1i.size_bytes == 2 * KB and g.l1c.size_bytes == 8 * KB
    assert g.l1t.size_bytes == 12 * KB
    assert g.l2.size_bytes == 64 * KB and g.l2.ways == 8 and g.l2.line_bytes == 128
    assert g.dram.n_channels == 6 and g.l2.n_slices_per_channel == 2
    assert g.n_l2_slices == 12 and g.l2_total_bytes == 768 * KB
    assert g.l2.hit_latency_cycles == 120 and g.dram.latency_cycles == 100
    assert (g.clocks.core_mhz, g.clocks.icnt_mhz, g.clocks.l2_mhz, g.clocks.dram_mhz) == \
        (700, 700, 700, 924)
    d = g.dram
    # memory system of GPGPU-Sim 4.2 SM2_GTX480 (validation/gpgpusim/README.md §7.8):
    # -gpgpu_frfcfs_dram_sched_queue_size 64, -gpgpu_dram_partition_queues 64:64:64:64,
    # dl2 S:64:128:8 with A:256:4, ejection buffer 32, flit 40, its address mapping
    assert d.scheduler is DramScheduler.FRFCFS and d.sched_queue_entries == 64
    assert (g.l2.sector_bytes, g.l2.mshr_entries, g.l2.rop_queue_entries,
            g.l2.dram_queue_entries, g.l2.reply_queue_entries) == (32, 256, 64, 64, 64)
    assert (g.icnt.eject_buffer_entries, g.icnt.flit_bytes) == (32, 40)
    assert d.addr_mapping.endswith("0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS")
    assert d.row_bytes == 4096 and not g.l2.fill_on_host_copy
    assert (d.n_banks, d.t_ccd_cycles, d.t_rrd_cycles, d.t_rcd_cycles, d.t_ras_cycles,
            d.t_rp_cycles, d.t_rc_cycles, d.t_cl_cycles, d.t_wl_cycles, d.t_cdlr_cycles,
            d.t_wr_cycles, d.n_bank_groups, d.t_ccdl_cycles, d.t_rtpl_cycles) == \
        (16, 2, 6, 12, 28, 12, 40, 12, 4, 5, 12, 4, 3, 2)
    # 6 ch x 2 x 4 B x 924 MHz x 4 = 177.4 GB/s (energy-and-configs.md §4.2)
    assert g.dram_peak_bytes_per_s == pytest.approx(177.4e9, rel=1e-3)
    # issue-bound peak: 15 x 2 warp instructions per cycle (§5.1)
    assert g.peak_warp_insts_per_cycle == 30


def test_gtx480_latency_lookup_by_op():
    fp = GTX480.pipelines.fp32
    assert fp.latency_of(LatencyOp.MAD) == 5 and fp.latency_of(LatencyOp.DIV) == 39
    assert fp.initiation_of(LatencyOp.MAX) == 2
    assert fp.latency_of(LatencyOp.SHFL) == 4  # not listed: the scalar default


def test_c2050_matches_register_sharing_table1():
    c = C2050
    assert c.sm.n_sms == 14 and c.sm.n_max_ctas == 8 and c.sm.n_max_threads == 1536
    assert c.shmem.size_bytes == 48 * KB and c.l1d.size_bytes == 16 * KB
    assert c.l2_total_bytes == 768 * KB and c.sm.n_registers == 32768
    assert c.sm.sched_policy is SchedPolicy.LRR and c.sm.n_schedulers == 2
    assert c.dram.scheduler is DramScheduler.FRFCFS
    d = c.dram
    assert (d.t_rrd_cycles, d.t_wr_cycles, d.t_rcd_cycles, d.t_ras_cycles, d.t_rp_cycles,
            d.t_rc_cycles, d.t_cl_cycles, d.t_cdlr_cycles) == (6, 12, 12, 28, 12, 40, 12, 5)
    assert (c.clocks.core_mhz, c.clocks.dram_mhz) == (575, 750)
    assert c.dram.return_queue_entries == 114


def test_gtx285_matches_xiang_table1():
    g = GTX285
    assert g.sm.n_sms == 30 and g.sm.n_threads_per_warp == 32
    assert g.sm.n_max_ctas == 8 and g.sm.n_max_threads == 1024
    assert g.sm.n_registers == 16 * KB  # 64 KB register file
    assert g.shmem.size_bytes == 16 * KB
    assert g.l1d.ways == 8 and g.l1d.line_bytes == 64 and g.l1d.size_bytes == 48 * KB
    assert g.l2.ways == 8 and g.l2.line_bytes == 64
    assert g.l2.size_bytes * g.l2.n_slices_per_channel == 256 * KB
    assert g.dram.n_channels == 16 and g.dram.n_banks == 8 and g.clocks.dram_mhz == 800
    assert (g.dram.t_cl_cycles, g.dram.t_rp_cycles, g.dram.t_rcd_cycles) == (10, 10, 12)
    assert g.clocks.core_mhz == 1300
    assert g.dram_peak_bytes_per_s == pytest.approx(200e9, rel=0.05)  # "200 GB/s"
    assert g.pipelines.fp32.initiation_interval_cycles == 32 // 8  # NumSP = 8
    assert g.sm.n_schedulers == 1


def test_gtx980_matches_regless_table1():
    g = GTX980
    assert g.sm.n_sms == 16 and g.sm.n_max_warps == 64 and g.sm.n_schedulers == 4
    assert g.sm.sched_policy is SchedPolicy.GTO and g.sm.n_max_issue_per_warp == 2
    assert g.l1d.size_bytes == 48 * KB and g.l1d.mshr_entries == 32 and g.l1d.bypass_global
    assert g.l1d.n_sets == 64 and g.l1d.ways == 6 and g.l1d.hit_latency_cycles == 28
    assert g.l2_total_bytes == 2 * MB and g.dram.n_channels == 4 and g.l2.ways == 16
    assert g.dram_peak_bytes_per_s == pytest.approx(224e9, rel=1e-3)
    assert g.shmem.size_bytes == 96 * KB and g.clocks.core_mhz == 1126
    assert g.sm.n_registers == 65536 and g.regfile.n_banks == 16
    assert g.regfile.bank_mapping is BankMapping.SUB_CORE


def test_qv100_matches_accelsim_config():
    q = QV100
    assert q.sm.n_sms == 80 and q.sm.n_schedulers == 4 and q.sm.sched_policy is SchedPolicy.LRR
    assert q.sm.n_max_threads == 2048 and q.sm.n_max_ctas == 32 and q.sm.n_registers == 65536
    assert q.sm.sub_core_model and q.regfile.n_banks == 16
    assert q.regfile.n_oc_steps_per_cycle == 2 and q.regfile.oc_gen.n_collector_units == 8
    assert q.pipelines.int32.op_latency_cycles == (4, 13, 4, 5, 145, 21)
    assert q.pipelines.sfu.latency_cycles == 100 and q.pipelines.sfu.initiation_interval_cycles == 8
    assert q.pipelines.tensor.latency_cycles == 64 and q.pipelines.tensor.n_units == 4
    # S:4:128:64: sectored, 32 B sectors (timing/l1sector.py)
    assert q.l1d.n_sets == 4 and q.l1d.ways == 64 and q.l1d.sector_bytes == 32
    assert q.l1d.hit_latency_cycles == 20 and q.shmem.latency_cycles == 20
    assert q.shmem.size_bytes == 98304
    assert q.l2.size_bytes == 96 * KB and q.n_l2_slices == 64 and q.l2_total_bytes == 6 * MB
    assert q.l2.hit_latency_cycles == 160
    assert (q.clocks.core_mhz, q.clocks.dram_mhz) == (1132, 850)
    assert q.dram_peak_bytes_per_s == pytest.approx(870.4e9, rel=1e-3)
    assert q.kernel_launch_latency_cycles == 5000
    # GPGPU-Sim 4.2's set_opcode_and_latency: opcodes outside the tables at latency 1
    assert q.pipelines.other_ops is OtherOps.ALU1 and GTX480.pipelines.other_ops is OtherOps.ALU1


def test_gtx480_core_is_gpgpusim_42s_and_the_fermi_presets_keep_the_3x_core():
    """GPGPU-Sim 4.2 SM2_GTX480 (validation/gpgpusim/README.md §7.9): latency 1 outside the
    latency tables and the OC_EX / dispatch / EX_WB register cycles; c2050 and table8, built
    on gtx480, keep the GPGPU-Sim 3.x core of the papers' reproductions."""
    assert GTX480.pipelines.register_stage_cycles == 3
    assert GTX480_3X.pipelines.register_stage_cycles == 0
    assert GTX480_3X.pipelines.other_ops is OtherOps.ADD
    assert C2050.pipelines == GTX480_3X.pipelines
    assert C2050.l1d == TABLE8.l1d == GTX480_3X.l1d and GTX480_3X.l1d.mshr_entries == 32
    assert TABLE8.pipelines.other_ops is OtherOps.ADD
    assert TABLE8.pipelines.register_stage_cycles == 0


def test_qv100_memory_system_is_the_stock_gpgpusim_42_files():
    """The values of GPGPU-Sim 4.2's configs/tested-cfgs/SM7_QV100/gpgpusim.config, read by
    hand (validation/gpgpusim/README.md §8); a100/h100 keep the old Volta memory system."""
    q = QV100
    # -gpgpu_cache:dl2 S:32:128:24,L:B:m:L:P,A:192:4,32:0,32
    assert (q.l2.sector_bytes, q.l2.mshr_entries, q.l2.n_mshr_max_merge) == (32, 192, 4)
    assert q.l2.write_alloc_policy is WriteAllocPolicy.LAZY_FETCH_ON_READ
    # -gpgpu_dram_partition_queues 64:64:64:64, -gpgpu_frfcfs_dram_sched_queue_size 64
    assert (q.l2.rop_queue_entries, q.l2.dram_queue_entries, q.l2.reply_queue_entries) == \
        (64, 64, 64)
    assert q.dram.sched_queue_entries == 64 and q.dram.return_queue_entries == 192
    assert q.l2.fill_on_host_copy                       # -gpgpu_perf_sim_memcpy 1
    assert q.l1d.mshr_entries == 512 and q.l1d.n_mshr_max_merge == 8   # dl1 A:512:8
    assert q.icnt.eject_buffer_entries == 32 and q.icnt.flit_bytes == 40
    assert q.shmem.cta_limit_bytes == 65536             # -gpgpu_shmem_per_block 65536
    assert q.dram.addr_mapping.endswith("0000RRRR.RRRRRRRR.RBBBCCCB.CCCSSSSS")
    assert (q.l1c.size_bytes, q.l1c.line_bytes, q.l1c.ways) == (128 * 64 * 8, 64, 8)
    assert (q.l1t.size_bytes, q.l1t.line_bytes, q.l1t.ways) == (4 * 128 * 256, 128, 256)
    # one ldst_unit per core in GPGPU-Sim 4.2 (shader_core_ctx::create_exec_pipeline)
    assert (q.pipelines.ldst.n_units, q.pipelines.ldst.n_id_oc_slots) == (1, 4)
    for cfg in (A100, H100):
        assert cfg.l2.sector_bytes == 128 and cfg.l2.reply_queue_entries == 8
        assert not cfg.l2.fill_on_host_copy and cfg.dram.addr_mapping == ""


def test_a100_matches_accelsim_config():
    a = A100
    assert a.sm.n_sms == 108 and a.regfile.n_banks == 32
    assert a.n_l2_slices == 160 and a.l2.size_bytes == 256 * KB and a.l2_total_bytes == 40 * MB
    assert a.shmem.size_bytes == 167936 and a.shmem.cta_limit_bytes == 163 * KB
    assert (a.clocks.core_mhz, a.clocks.icnt_mhz, a.clocks.l2_mhz, a.clocks.dram_mhz) == \
        (1410, 1410, 1512, 6048)
    assert a.l1d.hit_latency_cycles == 34 and a.shmem.latency_cycles == 28
    assert a.l2.hit_latency_cycles == 200 and a.dram.latency_cycles == 190
    assert a.pipelines.fp64.op_latency_cycles == (6, 6, 6, 6, 330)
    assert a.pipelines.tensor.latency_cycles == 25


def test_h100_matches_accelsim_config():
    h = H100
    assert h.sm.n_sms == 132 and h.regfile.n_banks == 64
    assert h.n_l2_slices == 80 and h.l2.size_bytes == 640 * KB and h.l2_total_bytes == 50 * MB
    assert h.shmem.size_bytes == 233472 and h.shmem.cta_limit_bytes == 227 * KB
    assert (h.clocks.core_mhz, h.clocks.icnt_mhz) == (1980, 3106)
    assert h.pipelines.tensor.latency_cycles == 24
    assert h.pipelines.fp64.op_initiation_interval_cycles == (2, 2, 2, 2, 130)
    # latencies, the FP32 rate and the fetch width are the real H100's (Accel-Sim: L1D 41,
    # shared 29, L2 237, DRAM 194, fp32 initiation 2, one fetch per SM); the measured numbers
    # are checked in tests/validation/test_h100_preset.py
    assert h.l1d.hit_latency_cycles == 29 and h.shmem.latency_cycles == 21
    assert h.l2.hit_latency_cycles == 132 and h.dram.latency_cycles == 485
    assert h.pipelines.fp32.op_initiation_interval_cycles == (1, 1, 1, 1, 4)
    assert h.sm.n_fetch_per_cycle == 4
    assert h.kernel_launch_latency_cycles == 3000
    # issue-bound peak: 132 x 4 x 1.98 GHz = 1045 G warp-inst/s (energy-and-configs.md §5.1)
    rate = h.peak_warp_insts_per_cycle * h.clocks.core_mhz * 1e6
    assert rate == pytest.approx(1045.4e9, rel=1e-3)


def test_modern_presets_share_cc_limits():
    for cfg in (QV100, A100, H100):
        assert cfg.sm.n_max_warps == 64 and cfg.sm.n_max_ctas == 32


def test_gtx480_matches_wir_table2_and_warped_compression_table2():
    g = GTX480
    # wir.md §4.2 Table II
    assert g.clocks.core_mhz == 700 and g.sm.n_sms == 15 and g.sm.n_schedulers == 2
    assert g.sm.n_registers // g.sm.n_threads_per_warp == 1024  # warp registers
    assert g.sm.n_registers * 4 == 128 * KB and g.sm.n_max_warps == 48
    assert g.sm.n_max_ctas == 8 and g.shmem.size_bytes == 48 * KB
    assert (g.l1t.size_bytes, g.l1c.size_bytes, g.l1i.size_bytes) == (12 * KB, 8 * KB, 2 * KB)
    assert g.dram.n_channels == 6 and g.clocks.dram_mhz == 924
    # warped-compression.md §6.2 Table 2 (clock there is the 1.4 GHz shader clock)
    assert g.sm.sched_policy is SchedPolicy.GTO and g.sm.n_threads_per_warp == 32
    assert g.sm.n_max_threads == 1536
