"""Every GPU configuration field is read by a model, or may hold one value only.

STYLE.md §2.3: a field is never accepted and then ignored. Each leaf field of ``GPUConfig`` is
either in ``READERS`` below (the module that reads it, and the attribute or key it reads there:
the field itself or the derived property that uses it) or in ``warpsim.arch.refused.REFUSED``
(any other value is a ``ConfigError``), never both. Adding a field means adding it here.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from warpsim.arch import GTX480, GPUConfig, apply_overrides, field_paths
from warpsim.arch.refused import REFUSED
from warpsim.errors import ConfigError

ROOT = Path(__file__).resolve().parents[2]
T, F, P = "warpsim/timing/", "warpsim/functional/", "warpsim/power/"
MECH = "warpsim/mechanisms/"

READERS: dict[str, tuple[str, str]] = {
    "name": ("warpsim/cudart/records.py", "name"),
    "kernel_launch_latency_cycles": (T + "params.py", "kernel_launch_latency_cycles"),
    **{f"sm.{f}": (T + "dispatch.py", f) for f in (
        "n_threads_per_warp", "n_max_threads", "n_max_ctas", "n_registers",
        "n_max_regs_per_cta", "n_regs_alloc_granule")},
    "sm.n_max_threads_per_cta": ("warpsim/cudart/attributes.py", "n_max_threads_per_cta"),
    "sm.occupancy_arch": ("warpsim/runtime/module.py", "occupancy_arch"),
    "sm.n_sms": (T + "driver.py", "n_sms"),
    **{f"sm.{f}": (T + "params.py", f) for f in (
        "n_schedulers", "sched_policy", "n_two_level_active_warps",
        "n_max_issue_per_warp", "ibuffer_entries", "scoreboard_entries", "n_fetch_per_cycle",
        "n_decode_per_cycle", "sub_core_model")},
    **{f"regfile.{f}": (T + "params.py", f) for f in (
        "n_banks", "bank_mapping", "n_read_ports_per_bank", "n_write_ports_per_bank",
        "n_oc_steps_per_cycle", "collector_single_read_per_cycle")},
    "regfile.bank_width_bits": (P + "model.py", "bank_width_bits"),
    "regfile.bank_from": (T + "static.py", "bank_from"),
    **{f"regfile.oc_{s}.{f}": (T + "static.py", f)
       for s in ("sp", "dp", "sfu", "int", "mem", "tensor", "gen")
       for f in ("n_collector_units", "n_in_ports", "n_out_ports")},
    **{f"pipelines.{p}.{f}": (T + "static.py", f)
       for p in ("int32", "fp32", "fp64", "sfu", "ldst", "tensor")
       for f in ("n_units", "n_id_oc_slots", "latency_cycles", "initiation_interval_cycles")},
    **{f"pipelines.{p}.op_latency_cycles": (T + "static.py", "latency_of")
       for p in ("int32", "fp32", "fp64")},
    **{f"pipelines.{p}.op_initiation_interval_cycles": (T + "static.py", "initiation_of")
       for p in ("int32", "fp32", "fp64")},
    "pipelines.n_ex_wb_slots": (T + "params.py", "n_ex_wb_slots"),
    "pipelines.other_ops": (T + "static.py", "other_ops"),
    "pipelines.register_stage_cycles": (T + "static.py", "register_stage_cycles"),
    **{f"{c}.{f}": (T + "memstate.py", f)
       for c in ("l1d", "l1c", "l1t", "l2")
       for f in ("line_bytes", "ways", "replacement", "write_policy", "alloc_policy",
                 "write_alloc_policy", "set_index", "mshr_entries", "n_mshr_max_merge",
                 "miss_queue_entries", "hit_latency_cycles")},
    **{f"{c}.size_bytes": (T + "memstate.py", "n_sets") for c in ("l1d", "l1c", "l1t", "l2")},
    "l1d.bypass_global": (T + "memstate.py", "bypass_global"),
    "l1d.latency_queue": (T + "memstate.py", "latency_queue"),
    "l2.n_slices_per_channel": (T + "memstate.py", "n_slices_per_channel"),
    "l2.rop_queue_entries": (T + "memstate.py", "rop_queue_entries"),
    "l2.reply_queue_entries": (T + "memstate.py", "reply_queue_entries"),
    "l2.dram_queue_entries": (T + "memstate.py", "dram_queue_entries"),
    "l2.fill_on_host_copy": ("warpsim/runtime/timed.py", "fill_on_host_copy"),
    "l2.sector_bytes": (T + "memstate.py", "sector_bytes"),
    "l1d.sector_bytes": (T + "memstate.py", "sector_bytes"),
    "l2.store_acks": (T + "state.py", "store_acks"),
    "icnt.eject_buffer_entries": (T + "memstate.py", "eject_buffer_entries"),
    "shmem.size_bytes": (T + "dispatch.py", "size_bytes"),
    "shmem.cta_limit_bytes": (T + "dispatch.py", "cta_limit_bytes"),
    "shmem.n_banks": ("warpsim/runtime/device.py", "n_banks"),
    "shmem.bank_width_bytes": ("warpsim/runtime/device.py", "bank_width_bytes"),
    "shmem.latency_cycles": (T + "params.py", "latency_cycles"),
    "icnt.latency_cycles": (T + "memstate.py", "latency_cycles"),
    "icnt.flit_bytes": (T + "memstate.py", "flit_bytes"),
    **{f"dram.{f}": (T + "memstate.py", f) for f in (
        "n_channels", "n_chips_per_channel", "bus_width_bytes", "n_burst_beats",
        "n_transfers_per_clock", "n_banks", "n_bank_groups", "row_bytes", "addr_mapping",
        "scheduler", "sched_queue_entries", "return_queue_entries", "latency_cycles",
        "t_ccd_cycles", "t_rrd_cycles", "t_rcd_cycles", "t_ras_cycles", "t_rp_cycles",
        "t_rc_cycles", "t_cl_cycles", "t_wl_cycles", "t_cdlr_cycles", "t_wr_cycles",
        "t_ccdl_cycles", "t_rtpl_cycles", "rw_turnaround")},
    **{f"clocks.{f}": (T + "memstate.py", f) for f in ("core_mhz", "icnt_mhz", "l2_mhz",
                                                        "dram_mhz")},
    "warped_compression.enabled": (MECH + "registry.py", "enabled"),
    **{f"warped_compression.{f}": (MECH + "warped_compression/mechanism.py", f) for f in (
        "scheme", "n_compressors", "n_decompressors", "comp_latency_cycles",
        "decomp_latency_cycles", "latency_only_when_compressed", "power_gating",
        "wakeup_latency_cycles", "gate_idle_timeout_cycles")},
    **{f"warped_compression.{f}": ("warpsim/experiments/wc_energy.py", f) for f in (
        "bank_access_pj", "wire_pj_per_mm", "wire_mm", "wire_activity_frac", "bank_leak_mw",
        "comp_pj", "decomp_pj", "comp_leak_mw", "decomp_leak_mw", "gated_leak_frac",
        "wakeup_pj", "energy_clock_mhz")},
    "register_sharing.enabled": (MECH + "registry.py", "enabled"),
    "warpman.enabled": (MECH + "registry.py", "enabled"),
    "ilp.enabled": (MECH + "registry.py", "enabled"),
    **{f"ilp.{f}": (MECH + "ilp/state.py", f) for f in (
        "bypass", "scoreboard_entries", "branch_predictor", "gshare_history_bits", "sm_kinds")},
    "regless.enabled": (MECH + "registry.py", "enabled"),
    **{f"regless.{f}": (MECH + "regless/mechanism.py", f) for f in (
        "entries_per_sm", "max_regs_per_region", "predicated_is_soft", "compressor", "design",
        "compressor_lines")},
    **{f"regless.{f}": ("warpsim/experiments/rl_energy.py", f) for f in (
        "osu_energy_ratio", "compressor_pj", "compressor_leak_mw", "meta_word_pj")},
    **{f"warpman.{f}": (MECH + "warpman/state.py", f) for f in (
        "mode", "n_warp_threshold", "dueling_epoch_cycles", "n_leader_spatial_sm",
        "n_leader_temp_sm")},
    "coarse_fetch.enabled": (MECH + "registry.py", "enabled"),
    **{f"coarse_fetch.{f}": (MECH + "coarse_fetch/state.py", f) for f in (
        "n_group_lines", "dueling", "dueling_epoch_cycles", "n_leader_base_sm",
        "n_leader_coarse_sm", "queue_entries", "filter_entries", "pairing")},
    "uniform_vectors.enabled": (MECH + "registry.py", "enabled"),
    **{f"uniform_vectors.{f}": (MECH + "uniform_vectors/mechanism.py", f) for f in (
        "design", "scalar_issue", "n_irb_entries", "n_srf_entries", "reliability",
        "broadcast_uniform", "srf_release", "srf_rename_stage", "irb_fault_rate",
        "alu_fault_rate")},
    **{f"uniform_vectors.{f}": (MECH + "uniform_vectors/__init__.py", f) for f in (
        "srf_read_pj", "srf_write_pj", "irb_access_pj")},
    "wir.enabled": (MECH + "registry.py", "enabled"),
    **{f"wir.{f}": (MECH + "wir/state.py", f) for f in (
        "rb_entries", "vsb_entries", "verify_cache_entries", "load_reuse", "pending_retry",
        "pending_queue_entries", "extra_delay_cycles", "reuse_hit_latency", "register_policy",
        "release_delay_cycles", "hash_bits", "hash_seed")},
    **{f"wir.{f}": (MECH + "wir/mechanism.py", f) for f in ("n_phys_registers", "check")},
    **{f"wir.{f}": (MECH + "wir/__init__.py", f) for f in (
        "rename_table_pj", "reuse_buffer_pj", "hash_pj", "vsb_pj", "allocator_pj",
        "refcount_pj", "verify_cache_pj")},
    **{f"sm_kinds.{f}": ("warpsim/arch/sm_kinds.py", f) for f in (
        "n_sms", "n_registers", "n_max_threads", "n_max_ctas", "shmem_size_bytes")},
    "register_sharing.threshold_frac": (MECH + "register_sharing/occupancy.py",
                                        "threshold_frac"),
    **{f"register_sharing.{f}": (MECH + "register_sharing/__init__.py", f) for f in (
        "unroll_reorder", "unroll_affects_banks")},
    **{f"register_sharing.{f}": (MECH + "register_sharing/state.py", f) for f in (
        "lock_rule", "owf", "owf_greedy", "dwe", "dwe_window_cycles", "dwe_step_frac",
        "dwe_sticky", "dwe_stall_metric", "n_rng_seed")},
}
"""Field -> (module that reads it, the attribute or key read there)."""


def test_every_field_has_a_reader_or_is_refused_and_never_both():
    paths = field_paths(GPUConfig)
    refused = {r.path for r in REFUSED}
    missing = [p for p in paths if p not in READERS and p not in refused]
    assert not missing, f"fields without a reader or a refusal rule: {missing}"
    assert not set(READERS) & refused
    assert set(READERS) | refused <= set(paths)


@pytest.mark.parametrize("path", sorted(READERS))
def test_the_named_module_reads_the_field(path):
    module, name = READERS[path]
    text = (ROOT / module).read_text()
    assert re.search(rf"\.{name}\b|[\"']{name}[\"']", text), (path, module, name)


OTHER = {"l1i.size_bytes": 4096, "l1i.line_bytes": 256, "l1i.ways": 8, "sm.n_sms_per_cluster": 3,
         **{f"{c}.sector_bytes": 32 for c in ("l1i", "l1d", "l1c", "l1t", "l2")}}
"""A valid value other than the modelled one, where value + 1 would break another rule."""


@pytest.mark.parametrize("rule", REFUSED, ids=lambda r: r.path)
def test_refused_fields_accept_only_the_modelled_value(rule):
    value = GTX480
    for part in rule.path.split("."):
        value = getattr(value, part)
    if rule.path in OTHER:
        other = OTHER[rule.path]
    elif hasattr(value, "value"):   # an enum: any other member
        other = next(m for m in type(value) if m is not value).value
    elif isinstance(value, tuple):
        other = (1, 2, 3, 4, 5)
    else:
        other = value + 1
    with pytest.raises(ConfigError) as info:
        apply_overrides(GTX480, {rule.path: other})
    assert info.value.field == rule.path
    assert "the only value warpsim models" in info.value.expected
