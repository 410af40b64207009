"""GPGPU-Sim options that warpsim reads and deliberately ignores, each with its reason.

Follows: the option registrations of GPGPU-Sim 4.2 (``gpu-sim.cc`` ``*_config::reg_options``,
``cuda-sim.cc`` ``ptx_opcocde_latency_options``, ``icnt_wrapper.cc`` ``icnt_reg_options``,
``power_interface``); the stock ``configs/tested-cfgs/*/gpgpusim.config`` files set all of
these. ``gpgpusim_config.read_gpgpusim_config`` maps the options of its ``OPTION_TABLE`` to
fields, skips the ones below (listing them in one note), and reports anything else as unknown.
docs/configuration.md "Ignored options" shows this table.
"""

from __future__ import annotations

__all__ = ["IGNORED_OPTIONS", "IGNORED_ICNT_KEYS"]

_FUNCTIONAL = "functional-simulator switch: warpsim always runs PTX with its own executor"
_STATS = "statistics/tracing output of GPGPU-Sim; warpsim's counters are always on"
_POWER = "GPUWattch/AccelWattch input; warpsim's energy model has its own tables (warpsim.power)"
_RUNTIME = "CUDA runtime limit of the functional model; warpsim's runtime has its own limits"
_NO_CDP = ("device-side launches run after their parent with no pending-launch limit (CUDA 12 "
           "has no device-side synchronisation; docs/cuda-runtime.md)")
_CARVEOUT = ("L1D/shared-memory carve-out choice: warpsim uses the configured l1d.size_bytes "
             "and shmem.size_bytes as they are")

IGNORED_OPTIONS: dict[str, str] = {
    # -- functional simulation and the compiler ---------------------------------------------
    "-gpgpu_ptx_instruction_classification": _FUNCTIONAL,
    "-gpgpu_ptx_sim_mode": _FUNCTIONAL,
    "-gpgpu_ptx_force_max_capability": "PTX/SASS selection of GPGPU-Sim's loader; warpsim "
                                       "runs the PTX it is given",
    "-gpgpu_ptx_convert_to_ptxplus": _FUNCTIONAL,
    "-gpgpu_ptx_save_converted_ptxplus": _FUNCTIONAL,
    "-gpgpu_compute_capability_major": "reported compute capability: warpsim's runtime "
                                       "derives it from the PTX target",
    "-gpgpu_compute_capability_minor": "reported compute capability: warpsim's runtime "
                                       "derives it from the PTX target",
    "-gpgpu_simd_model": "GPGPU-Sim's only SIMD model (1 = post-dominator reconvergence), "
                         "which is warpsim's",
    "-gpgpu_coalesce_arch": "coalescing rules of the compute capability: warpsim always "
                            "coalesces per 128 B line and 32 B sector (Fermi and later)",
    "-gpgpu_stack_size_limit": _RUNTIME,
    "-gpgpu_heap_size_limit": _RUNTIME,
    "-gpgpu_runtime_sync_depth_limit": _NO_CDP,
    "-gpgpu_runtime_pending_launch_count_limit": _NO_CDP,
    "-gpgpu_max_concurrent_kernel": "warpsim runs one kernel at a time (no concurrent "
                                    "kernels)",
    "-gpgpu_ignore_resources_limitation": "warpsim always enforces the sm.* residency limits",
    "-gpgpu_flush_l1_cache": "warpsim always invalidates the L1 caches between kernels",
    "-gpgpu_mem_address_mask": "address-space mask of GPGPU-Sim's allocator; warpsim's heap "
                               "has its own layout",
    # -- statistics, tracing, power ------------------------------------------------------------
    "-gpgpu_memlatency_stat": _STATS,
    "-gpgpu_runtime_stat": _STATS,
    "-enable_ptx_file_line_stats": _STATS,
    "-visualizer_enabled": _STATS,
    "-trace_enabled": _STATS,
    "-trace_components": _STATS,
    "-trace_sampling_core": _STATS,
    "-power_simulation_enabled": _POWER,
    "-gpuwattch_xml_file": _POWER,
    "-accelwattch_xml_file": _POWER,
    "-power_per_cycle_dump": _POWER,
    "-power_trace_enabled": _POWER,
    "-steady_power_levels_enabled": _POWER,
    # -- SM core -------------------------------------------------------------------------------
    "-gpgpu_dual_issue_diff_exec_units": "warpsim's dual issue (sm.n_max_issue_per_warp 2) "
                                         "allows any two ready instructions of a warp",
    "-gpgpu_inst_fetch_throughput": "warpsim fetches sm.n_fetch_per_cycle warps per cycle "
                                    "and decodes sm.n_decode_per_cycle instructions each",
    "-gpgpu_enable_specialized_operand_collector": "warpsim sends every instruction to the "
                                                   "generic collectors whenever "
                                                   "regfile.oc_gen has units",
    "-gpgpu_clock_gated_lanes": "energy-model switch (lane clock gating); warpsim.power "
                                "charges active lanes only",
    "-gpgpu_tensor_core_avail": "tensor instructions run on pipelines.tensor whenever "
                                "it has units",
    "-gpgpu_TB_launch_latency": "no per-CTA launch latency in warpsim (the stock configs "
                                "set 0)",
    "-gpgpu_cache:il1": "no instruction-cache model: fetch always hits (l1i.* must keep its "
                        "defaults)",
    "-gpgpu_perfect_inst_const_cache": "warpsim has no instruction cache (a perfect one) "
                                       "and always models the constant cache l1c.*",
    # -- L1D / shared memory carve-out --------------------------------------------------------
    "-gpgpu_shmem_sizeDefault": _CARVEOUT,
    "-gpgpu_shmem_size_PrefL1": _CARVEOUT,
    "-gpgpu_shmem_size_PrefShared": _CARVEOUT,
    "-gpgpu_cache:dl1PrefL1": _CARVEOUT,
    "-gpgpu_cache:dl1PrefShared": _CARVEOUT,
    "-gpgpu_shmem_option": _CARVEOUT,
    "-gpgpu_adaptive_cache_config": _CARVEOUT,
    "-gpgpu_unified_l1d_size": _CARVEOUT,
    "-gpgpu_l1_cache_write_ratio": "write-ratio hint of the adaptive L1 carve-out",
    "-gpgpu_l1_banks": "no L1D data-array bank conflicts are modelled (l1d.n_banks must be 1)",
    "-gpgpu_shmem_limited_broadcast": "warpsim's bank conflicts count distinct words per bank "
                                      "(unlimited broadcast, the stock value 0)",
    "-gpgpu_shmem_warp_parts": "warpsim computes bank conflicts over the whole warp (the "
                               "stock value 1)",
    "-gpgpu_cache:dl2_texture_only": "the L2 caches every access (the stock value 0)",
    # -- memory partition and DRAM -------------------------------------------------------------
    "-gpgpu_memory_partition_indexing": "channel hashing: warpsim interleaves channels "
                                        "linearly (dram.addr_mapping's dramid@ bit)",
    "-dram_bnk_indexing_policy": "bank hashing: warpsim takes bank bits as they are",
    "-dram_bnkgrp_indexing_policy": "bank groups are the low bank-number bits in warpsim",
    "-dram_dual_bus_interface": "one command/data bus per channel in warpsim",
    "-dram_seperate_write_queue_enable": "reads and writes share dram.sched_queue_entries",
    "-dram_write_queue_size": "reads and writes share dram.sched_queue_entries",
    # -- interconnect --------------------------------------------------------------------------
    "-icnt_in_buffer_limit": "warpsim's crossbar has no input buffers: a packet waits in "
                             "its source queue",
    "-icnt_out_buffer_limit": "warpsim's crossbar has no output buffers: the destination "
                              "queue back-pressures",
    "-icnt_subnets": "warpsim always has a request and a reply network (2, the stock value)",
    "-icnt_arbiter_algo": "warpsim's crossbar arbitrates round robin (the stock value 1)",
    "-icnt_verbose": _STATS,
    "-icnt_grant_cycles": "one grant per input per interconnect cycle in warpsim",
}
"""Option -> why warpsim ignores it (a table in docs/configuration.md shows the same)."""

IGNORED_ICNT_KEYS: dict[str, str] = {
    key: "BookSim router detail: warpsim's crossbar is one stage with icnt.latency_cycles "
         "[A] and no virtual channels"
    for key in ("network_count", "topology", "k", "n", "routing_function", "num_vcs",
                "vc_buf_size", "input_buffer_size", "ejection_buffer_size",
                "boundary_buffer_size", "wait_for_tail_credit", "vc_allocator",
                "sw_allocator", "alloc_iters", "credit_delay", "routing_delay",
                "vc_alloc_delay", "sw_alloc_delay", "input_speedup", "output_speedup",
                "internal_speedup", "subnets", "read_request_subnet", "read_reply_subnet",
                "write_request_subnet", "write_reply_subnet", "read_request_begin_vc",
                "read_request_end_vc", "write_request_begin_vc", "write_request_end_vc",
                "read_reply_begin_vc", "read_reply_end_vc", "write_reply_begin_vc",
                "write_reply_end_vc", "use_map")
}
IGNORED_ICNT_KEYS.update({
    key: "BookSim traffic generator setting, unused under GPGPU-Sim (the file says so)"
    for key in ("traffic", "packet_size", "packet_size_rate", "sim_type", "injection_rate",
                "use_read_write")
})
"""Keys of the BookSim interconnect file (``-inter_config_file``) that warpsim ignores; its
``flit_size`` maps to ``icnt.flit_bytes``."""
