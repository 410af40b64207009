"""The gpgpusim.config reader, fed a GTX480-like file written here from the reference docs and
small snippets in GPGPU-Sim 4.2's option syntax (src/option_parser.cc ``ParseFile``)."""

from __future__ import annotations

import logging
from dataclasses import replace

import pytest

from warpsim.arch import (
    GTX480,
    OPTION_TABLE,
    QV100,
    AllocPolicy,
    DramScheduler,
    GPUConfig,
    ReplacementPolicy,
    SchedPolicy,
    SetIndexFn,
    WriteAllocPolicy,
    WritePolicy,
    field_paths,
    parse_cache_spec,
    read_gpgpusim_config,
)
from warpsim.errors import ConfigError

# Written by hand from reference/gpu-simulators.md §2 (GTX480 table) and
# reference/energy-and-configs.md §4.3; not a copy of GPGPU-Sim's file.
TIMING = ("nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12:nbkgrp=4:"
          "CCDL=3:RTPL=2")
FERMI_TEXT = f"""\
# a Fermi-class GPU, values from the warpsim reference notes
-gpgpu_ptx_force_max_capability 20      # unmapped: compiler option
-gpgpu_n_clusters 15
-gpgpu_n_cores_per_cluster 1
-gpgpu_n_mem 6
-gpgpu_n_sub_partition_per_mchannel 2
-gpgpu_clock_domains 700.0:700.0:700.0:924.0

-gpgpu_shader_registers 32768
-gpgpu_shader_core_pipeline 1536:32
-gpgpu_shader_cta 8
-gpgpu_num_sched_per_core 2
-gpgpu_scheduler gto
-gpgpu_max_insn_issue_per_warp 1
-gpgpu_num_reg_banks 16
-gpgpu_operand_collector_num_units_sp 6
-gpgpu_operand_collector_num_units_sfu 8
-gpgpu_operand_collector_num_in_ports_sfu 1
-gpgpu_operand_collector_num_out_ports_sfu 1
-gpgpu_operand_collector_num_in_ports_sp 2
-gpgpu_operand_collector_num_out_ports_sp 2
-gpgpu_operand_collector_num_units_gen 0
-gpgpu_operand_collector_num_in_ports_gen 0
-gpgpu_operand_collector_num_out_ports_gen 0
-gpgpu_operand_collector_num_units_mem 2
-gpgpu_operand_collector_num_in_ports_mem 1
-gpgpu_operand_collector_num_out_ports_mem 1
-gpgpu_sub_core_model 0
-gpgpu_reg_file_port_throughput 1
-gpgpu_pipeline_widths 2,1,1,2,1,1,2
-gpgpu_num_sp_units 2
-gpgpu_num_sfu_units 1
-ptx_opcode_latency_int 4,13,4,5,145,32
-ptx_opcode_initiation_int 1,2,2,1,8,4
-ptx_opcode_latency_fp 4,13,4,5,39
-ptx_opcode_initiation_fp 1,2,1,1,4
-ptx_opcode_latency_dp 8,19,8,8,330
-ptx_opcode_initiation_dp 8,16,8,8,130

-gpgpu_cache:dl1 N:32:128:4,L:L:m:N:H,A:32:8,8
-gpgpu_cache:il1 4:128:4,L:R:f:N,A:2:32,4
-gpgpu_const_cache:l1 64:64:2,L:R:f:N,A:2:32,4
-gpgpu_tex_cache:l1 4:128:24,L:R:m:N,F:128:4,128:2
-gpgpu_cache:dl2 64:128:8,L:B:m:W:L,A:32:4,4:0,32
-gpgpu_shmem_size 49152
-gpgpu_shmem_num_banks 32
-gpgpu_l1_latency 35
-gpgpu_smem_latency 26
-gmem_skip_L1D 0
-rop_latency 120
-dram_latency 100

-gpgpu_dram_scheduler 1
-gpgpu_frfcfs_dram_sched_queue_size 16
-gpgpu_dram_return_queue_size 116
-gpgpu_n_mem_per_ctrlr 2
-gpgpu_dram_buswidth 4
-gpgpu_dram_burst_length 8
-dram_data_command_freq_ratio 4
-gpgpu_dram_timing_opt "{TIMING}"

-gpgpu_coalesce_arch 20
-network_mode 1
-power_simulation_enabled 1
"""

UNMAPPED = ["-gpgpu_ptx_force_max_capability 20", "-gpgpu_cache:il1 4:128:4,L:R:f:N,A:2:32,4",
            "-gpgpu_coalesce_arch 20", "-power_simulation_enabled 1"]


def test_reader_maps_the_hand_written_fermi_values_over_a_volta_base():
    cfg, unmapped = read_gpgpusim_config(FERMI_TEXT, base=QV100, name="fermi")
    assert cfg.name == "fermi"
    assert unmapped == UNMAPPED
    sm = cfg.sm
    assert (sm.n_sms, sm.n_max_threads, sm.n_threads_per_warp, sm.n_max_ctas) == \
        (15, 1536, 32, 8)
    assert sm.n_registers == 32768 and sm.n_schedulers == 2
    assert sm.sched_policy is SchedPolicy.GTO and not sm.sub_core_model
    rf = cfg.regfile
    assert rf.n_banks == 16 and rf.n_oc_steps_per_cycle == 1
    assert (rf.oc_sp.n_collector_units, rf.oc_sp.n_in_ports, rf.oc_sp.n_out_ports) == (6, 2, 2)
    assert rf.oc_sfu.n_collector_units == 8 and rf.oc_gen.n_collector_units == 0
    assert rf.oc_mem.n_collector_units == 2
    p = cfg.pipelines
    assert (p.fp32.n_id_oc_slots, p.sfu.n_id_oc_slots, p.ldst.n_id_oc_slots) == (2, 1, 1)
    assert (p.fp32.n_oc_ex_slots, p.sfu.n_oc_ex_slots) == (2, 1)
    assert p.ldst.n_oc_ex_slots == p.ldst.n_units == QV100.pipelines.ldst.n_units  # refused 1
    assert p.n_ex_wb_slots == 2 and p.fp32.n_units == 2 and p.sfu.n_units == 1
    assert p.int32.op_latency_cycles == (4, 13, 4, 5, 145, 32) and p.int32.latency_cycles == 4
    assert p.int32.op_initiation_interval_cycles == (1, 2, 2, 1, 8, 4)
    assert p.fp32.op_latency_cycles == (4, 13, 4, 5, 39)
    assert p.fp64.op_latency_cycles == (8, 19, 8, 8, 330)
    assert p.fp64.op_initiation_interval_cycles == (8, 16, 8, 8, 130)
    assert cfg.l1d.size_bytes == 16384 and cfg.l1d.n_sets == 32 and cfg.l1d.ways == 4
    assert cfg.l1d.sector_bytes == 128 and cfg.l1d.set_index is SetIndexFn.FERMI_HASH
    assert cfg.l1d.write_policy is WritePolicy.LOCAL_WB_GLOBAL_WT
    assert cfg.l1d.mshr_entries == 32 and cfg.l1d.n_mshr_max_merge == 8
    assert cfg.l1d.hit_latency_cycles == 35 and not cfg.l1d.bypass_global
    assert cfg.l1i == QV100.l1i and cfg.l1c.size_bytes == 8192
    assert cfg.l1t.size_bytes == 12288 and cfg.l1t.ways == 24
    assert cfg.l2.size_bytes == 65536 and cfg.l2.write_policy is WritePolicy.WRITE_BACK
    assert cfg.l2.write_alloc_policy is WriteAllocPolicy.WRITE_ALLOCATE
    assert cfg.l2.hit_latency_cycles == 120 and cfg.l2_total_bytes == 786432
    assert cfg.shmem.size_bytes == 49152 and cfg.shmem.latency_cycles == 26
    d = cfg.dram
    assert d.n_channels == 6 and d.n_chips_per_channel == 2 and d.bus_width_bytes == 4
    assert d.scheduler is DramScheduler.FRFCFS and d.latency_cycles == 100
    assert (d.n_banks, d.t_rcd_cycles, d.t_ras_cycles, d.t_rp_cycles, d.t_rc_cycles,
            d.t_cl_cycles, d.t_wl_cycles, d.n_bank_groups, d.t_rtpl_cycles) == \
        (16, 12, 28, 12, 40, 12, 4, 4, 2)
    assert (cfg.clocks.core_mhz, cfg.clocks.dram_mhz) == (700.0, 924.0)
    assert cfg.dram_peak_bytes_per_s == pytest.approx(177.4e9, rel=1e-3)


def test_reader_on_the_default_base_reproduces_the_gtx480_preset():
    # the hand-written (GPGPU-Sim 3.x) values give the preset but for its memory system, L1D
    # MSHRs and core timing, which are GPGPU-Sim 4.2 SM2_GTX480's (presets.py)
    cfg, _ = read_gpgpusim_config(FERMI_TEXT, name="gtx480")
    assert replace(cfg, l2=GTX480.l2, dram=GTX480.dram, icnt=GTX480.icnt, l1d=GTX480.l1d,
                   pipelines=GTX480.pipelines) == GTX480
    assert cfg.l2.sector_bytes == 128 and GTX480.l2.sector_bytes == 32


def test_unmapped_options_are_logged_as_one_warning(caplog):
    with caplog.at_level(logging.WARNING, logger="warpsim.arch.gpgpusim_config"):
        read_gpgpusim_config(FERMI_TEXT + "-no_such_option 7\n")
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1
    text = warnings[0].getMessage()
    for option in UNMAPPED:
        assert option.split(" ")[0] in text
    assert "unknown to warpsim, not applied: -no_such_option 7" in text


def test_reader_reads_a_file_and_names_the_config_after_its_folder(tmp_path):
    folder = tmp_path / "SM2_Fermi"
    folder.mkdir()
    path = folder / "gpgpusim.config"
    path.write_text(FERMI_TEXT)
    cfg, unmapped = read_gpgpusim_config(str(path))
    assert cfg.name == "sm2_fermi" and unmapped == UNMAPPED
    cfg2, _ = read_gpgpusim_config(path)
    assert cfg2 == cfg


def test_missing_file_is_a_config_error(tmp_path):
    with pytest.raises(ConfigError):
        read_gpgpusim_config(str(tmp_path / "nope.config"))


def test_two_level_scheduler_and_volta_options():
    text = ("-gpgpu_scheduler two_level_active:6:0:1\n"
            "-gpgpu_pipeline_widths 4,4,4,4,4,4,4,4,4,4,8,4,4\n"
            "-ptx_opcode_latency_sfu 100\n-ptx_opcode_initiation_sfu 8\n"
            "-gpgpu_num_tensor_core_units 4\n"
            "-gpgpu_operand_collector_num_units_tensor_core 4\n"
            "-gpgpu_operand_collector_num_in_ports_tensor_core 1\n"
            "-gpgpu_operand_collector_num_out_ports_tensor_core 1\n")
    cfg, unmapped = read_gpgpusim_config(text)
    assert unmapped == []
    assert cfg.sm.sched_policy is SchedPolicy.TWO_LEVEL and cfg.sm.n_two_level_active_warps == 6
    assert cfg.pipelines.tensor.n_id_oc_slots == 4 and cfg.pipelines.int32.n_id_oc_slots == 4
    # OC_EX widths other than the unit count are replaced by it (arch.refused)
    assert cfg.pipelines.int32.n_oc_ex_slots == cfg.pipelines.int32.n_units == 0
    assert cfg.pipelines.tensor.n_oc_ex_slots == 4
    assert cfg.pipelines.n_ex_wb_slots == 8
    assert cfg.pipelines.sfu.latency_cycles == 100
    assert cfg.pipelines.sfu.initiation_interval_cycles == 8
    assert cfg.regfile.oc_tensor.n_collector_units == 4


def test_sectored_cache_spec_with_volta_letters():
    got = parse_cache_spec("-gpgpu_cache:dl1", "S:4:128:64,L:T:m:L:L,A:512:8,16:0,32")
    assert got == {"size_bytes": 32768, "line_bytes": 128, "ways": 64, "sector_bytes": 32,
                   "replacement": "lru", "write_policy": "write_through",
                   "alloc_policy": "on_miss", "write_alloc_policy": "lazy_fetch_on_read",
                   "set_index": "linear", "mshr_entries": 512, "n_mshr_max_merge": 8,
                   "miss_queue_entries": 16}
    assert ReplacementPolicy(got["replacement"]) is ReplacementPolicy.LRU
    assert AllocPolicy(got["alloc_policy"]) is AllocPolicy.ON_MISS


def test_bad_cache_spec_names_the_option():
    with pytest.raises(ConfigError) as info:
        read_gpgpusim_config("-gpgpu_cache:dl1 32:128\n")
    assert info.value.field == "-gpgpu_cache:dl1"
    with pytest.raises(ConfigError) as info:
        read_gpgpusim_config("-gpgpu_cache:dl1 32:128:4,Q:L:m:N\n")
    assert "replacement" in info.value.expected


def test_values_the_config_rejects_name_the_field():
    with pytest.raises(ConfigError) as info:
        read_gpgpusim_config("-gpgpu_num_reg_banks 0\n")
    assert info.value.field == "regfile.n_banks" and info.value.value == 0
    with pytest.raises(ConfigError) as info:
        read_gpgpusim_config('-gpgpu_dram_timing_opt "nbk=16:XYZ=3"\n')
    assert info.value.field == "-gpgpu_dram_timing_opt"
    with pytest.raises(ConfigError) as info:
        read_gpgpusim_config("-gpgpu_pipeline_widths 1,2,3\n")
    assert "7, 9, 11 or 13" in info.value.expected
    with pytest.raises(ConfigError):
        read_gpgpusim_config("gpgpu_n_mem 6\n")


def test_every_table_target_is_a_real_field():
    valid = set(field_paths(GPUConfig))
    samples = {"-gpgpu_cache:dl1": "N:32:128:4,L:L:m:N:H,A:32:8,8",
               "-gpgpu_const_cache:l1": "64:64:2,L:R:f:N,A:2:32,4",
               "-gpgpu_tex_cache:l1": "4:128:24,L:R:m:N,F:128:4,128:2",
               "-gpgpu_cache:dl2": "64:128:8,L:B:m:W:L,A:32:4,4",
               "-gpgpu_shader_core_pipeline": "1536:32", "-gpgpu_scheduler": "gto",
               "-gpgpu_clock_domains": "1:2:3:4", "-gpgpu_pipeline_widths": "1,1,1,1,1,1,1",
               "-gpgpu_dram_timing_opt": "nbk=16:CL=12",
               "-gpgpu_mem_addr_mapping": "dramid@8;RRRRBBBBCCCCCCCCSSSS",
               "-gpgpu_dram_partition_queues": "8:8:8:8", "-gpgpu_l2_queue_config": "8:8:8:8"}
    for option, handler in OPTION_TABLE.items():
        for path in handler(option, samples.get(option, "1")):
            assert path in valid or path == "_clusters", (option, path)


# -- GPGPU-Sim 4.2 option syntax (src/option_parser.cc ParseFile / ParseStringStream) ----------

def test_quoted_value_continues_on_the_next_line_and_comments_are_cut():
    # as the stock SM2_GTX480 file: the timing string breaks after "RC=40:" inside quotes
    text = ('-gpgpu_dram_timing_opt "nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:  # cut\n'
            '                        CL=11:WL=4:CDLR=5:WR=12:nbkgrp=4:CCDL=3:RTPL=2"\n'
            "-dram_data_command_freq_ratio 4  # GDDR5 is QDR\n")
    cfg, unmapped = read_gpgpusim_config(text)
    assert unmapped == []
    d = cfg.dram
    assert (d.t_rc_cycles, d.t_cl_cycles, d.t_rtpl_cycles, d.n_transfers_per_clock) == \
        (40, 11, 2, 4)


def test_tokens_not_lines_carry_the_options():
    # the whole file is one token stream: a value on the next line, two options on one line
    cfg, _ = read_gpgpusim_config("-gpgpu_n_mem\n 3 -gpgpu_shader_cta 4\n")
    assert cfg.dram.n_channels == 3 and cfg.sm.n_max_ctas == 4


def test_an_option_given_twice_keeps_its_last_value():
    cfg, _ = read_gpgpusim_config("-gpgpu_shader_cta 4\n-gpgpu_shader_cta 6\n")
    assert cfg.sm.n_max_ctas == 6


def test_unclosed_quote_and_missing_value_name_the_line():
    with pytest.raises(ConfigError) as info:
        read_gpgpusim_config('-gpgpu_n_mem 6\n-gpgpu_dram_timing_opt "nbk=16:\n')
    assert "line 2" in info.value.field
    with pytest.raises(ConfigError) as info:
        read_gpgpusim_config("-gpgpu_n_mem 6\n-gpgpu_shader_cta\n")
    assert "line 2" in info.value.field and "value" in info.value.expected


def test_legacy_ordered_dram_timing_disables_bank_groups():
    # GPGPU-Sim memory_config::init: no '=' -> nbk:CCD:RRD:RCD:RAS:RP:RC:CL:WL:CDLR:WR
    cfg, _ = read_gpgpusim_config("-gpgpu_dram_timing_opt 8:2:6:12:28:12:40:10:4:5:12\n")
    d = cfg.dram
    assert (d.n_banks, d.t_ccd_cycles, d.t_ras_cycles, d.t_cl_cycles, d.t_wr_cycles) == \
        (8, 2, 28, 10, 12)
    assert (d.n_bank_groups, d.t_ccdl_cycles, d.t_rtpl_cycles) == (1, 0, 0)


def test_eliminated_rw_turnaround_switches_the_turnaround_off():
    # GPGPU-Sim memory_config::init: -dram_elimnate_rw_turnaround 1 -> tRTW = tWTR = 0
    assert read_gpgpusim_config("-dram_elimnate_rw_turnaround 0\n")[0].dram.rw_turnaround
    cfg, _ = read_gpgpusim_config("-dram_elimnate_rw_turnaround 1\n")
    assert cfg.dram.rw_turnaround is False


def test_rc_below_ras_plus_rp_is_accepted_as_gpgpusim_does():
    # SM75_RTX2060: RAS=55, RP=24, RC=78
    cfg, _ = read_gpgpusim_config("-gpgpu_dram_timing_opt nbk=16:RCD=24:RAS=55:RP=24:RC=78\n")
    assert cfg.dram.t_rc_cycles == 78


def test_booksim_file_next_to_the_config_sets_the_flit_size(tmp_path, caplog):
    (tmp_path / "net.icnt").write_text("// a crossbar\nflit_size = 64;\nnum_vcs = 1;\n"
                                       "topology = fly; // comment\nmystery = 3;\n")
    cfg_file = tmp_path / "gpgpusim.config"
    cfg_file.write_text("-network_mode 1\n-inter_config_file net.icnt\n-icnt_flit_size 40\n")
    with caplog.at_level(logging.WARNING, logger="warpsim.arch.gpgpusim_config"):
        cfg, unmapped = read_gpgpusim_config(cfg_file)
    assert cfg.icnt.flit_bytes == 64      # BookSim mode: the file's flit_size wins
    assert "net.icnt: num_vcs = 1" in unmapped and "net.icnt: mystery = 3" in unmapped
    assert "net.icnt: mystery = 3" in caplog.records[-1].getMessage()


def test_local_crossbar_mode_uses_icnt_flit_size_and_skips_the_file(tmp_path):
    cfg_file = tmp_path / "gpgpusim.config"
    cfg_file.write_text("-network_mode 2\n-inter_config_file absent.icnt\n-icnt_flit_size 40\n")
    cfg, unmapped = read_gpgpusim_config(cfg_file)
    assert cfg.icnt.flit_bytes == 40 and "-inter_config_file absent.icnt" in unmapped


def test_missing_booksim_file_names_the_option(tmp_path):
    cfg_file = tmp_path / "gpgpusim.config"
    cfg_file.write_text("-inter_config_file absent.icnt\n")
    with pytest.raises(ConfigError) as info:
        read_gpgpusim_config(cfg_file)
    assert info.value.field == "-inter_config_file" and "absent.icnt" in str(info.value.value)


def test_values_warpsim_cannot_model_are_replaced_and_named(caplog):
    with caplog.at_level(logging.WARNING, logger="warpsim.arch.gpgpusim_config"):
        cfg, unmapped = read_gpgpusim_config("-gpgpu_cache:dl2 S:64:128:8,L:B:m:L:L,A:256:4,4\n"
                                             "-gpgpu_n_cores_per_cluster 2\n")
    assert unmapped == []
    assert cfg.l2.sector_bytes == 32 and cfg.l2.mshr_entries == 256   # sectored L2: modelled
    assert cfg.sm.n_sms == 30 and cfg.sm.n_sms_per_cluster == 1   # 15 clusters x 2 SMs
    text = caplog.records[-1].getMessage()
    assert "l2.sector_bytes" not in text and "sm.n_sms_per_cluster = 2" in text


def test_ignored_options_have_reasons_and_are_not_mapped():
    from warpsim.arch.gpgpusim_ignored import IGNORED_OPTIONS

    assert not set(IGNORED_OPTIONS) & set(OPTION_TABLE)
    assert all(len(reason) > 20 for reason in IGNORED_OPTIONS.values())


def test_address_mapping_sets_the_row_size():
    text = ("-gpgpu_mem_addr_mapping dramid@8;00000000.00000000.00000000.00000000.0000RRRR."
            "RRRRRRRR.BBBCCCCB.CCSSSSSS\n")
    cfg, _ = read_gpgpusim_config(text)
    assert cfg.dram.addr_mapping.startswith("dramid@8;")
    assert cfg.dram.row_bytes == 4096     # 6 S + 6 C bits


def test_partition_queues_bound_the_slice_and_the_ejection_buffer_sizes():
    # icnt_L2:L2_dram:dram_L2:L2_icnt -> what a slice takes from / gives to the interconnect
    cfg, unmapped = read_gpgpusim_config("-gpgpu_dram_partition_queues 16:32:48:24\n"
                                         "-gpgpu_n_cluster_ejection_buffer_size 12\n")
    assert unmapped == []
    assert (cfg.l2.rop_queue_entries, cfg.l2.dram_queue_entries,
            cfg.l2.reply_queue_entries) == (16, 32, 24)
    assert cfg.icnt.eject_buffer_entries == 12
    with pytest.raises(ConfigError) as info:
        read_gpgpusim_config("-gpgpu_dram_partition_queues 8:8:8\n")
    assert info.value.field == "-gpgpu_dram_partition_queues"
