"""Reader for GPGPU-Sim / Accel-Sim ``gpgpusim.config`` option files and the BookSim
interconnect file they name.

Follows: STYLE.md §2.3 (each option maps to fields through a table beside the reader; the
options it ignores are listed with their reason in ``gpgpusim_ignored.py`` and named in one
note, never dropped silently); GPGPU-Sim 4.2 ``src/option_parser.cc`` ``OptionParser::ParseFile``
for the syntax (the whole file is one stream of whitespace-separated tokens after ``#`` comments
are cut, so a value may continue on the next line inside double quotes, which are removed;
an option given twice keeps its last value); option meanings from its ``reg_options`` functions,
reference/gpu-simulators.md §2 and reference/energy-and-configs.md §4.3.
Assumptions: [A] options absent from the file keep the values of ``base`` (GTX480 by default),
not GPGPU-Sim's compiled-in defaults, except that a file setting ``-gpgpu_shader_registers`` or
``-gpgpu_shmem_size`` without the per-block option lets one CTA use all of it (GPGPU-Sim 3.x);
[A] a cache spec's MSHR type letter and the fields after the miss-queue size are not modelled
and are ignored; values of fields warpsim cannot model (``arch.refused``) are replaced by the
value it simulates and named in the note.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from warpsim.arch.addr_mapping import parse_addr_mapping
from warpsim.arch.config import GPUConfig
from warpsim.arch.gpgpusim_ignored import IGNORED_ICNT_KEYS, IGNORED_OPTIONS
from warpsim.arch.overrides import apply_overrides
from warpsim.arch.policies import LatencyOp, OccupancyArch
from warpsim.arch.refused import REFUSED, refused_value
from warpsim.errors import ConfigError

__all__ = ["OPTION_TABLE", "parse_cache_spec", "read_booksim_config", "read_gpgpusim_config"]

_log = logging.getLogger(__name__)

_Handler = Callable[[str, str], dict[str, Any]]

_REPL = {"L": "lru", "F": "fifo"}
_WRITE = {"R": "read_only", "B": "write_back", "T": "write_through", "E": "write_evict",
          "L": "local_wb_global_wt"}
_ALLOC = {"m": "on_miss", "f": "on_fill", "s": "streaming"}
_WALLOC = {"N": "no_write_allocate", "W": "write_allocate", "F": "fetch_on_write",
           "L": "lazy_fetch_on_read"}
_INDEX = {"L": "linear", "H": "fermi_hash", "P": "ipoly", "X": "xor"}
_SECTOR_BYTES = 32


def _int(option: str, text: str) -> int:
    try:
        return int(text.strip(), 0)
    except ValueError:
        raise ConfigError(option, text, "an integer") from None


def _ints(option: str, text: str, sep: str = ",") -> list[int]:
    return [_int(option, t) for t in text.replace(" ", "").split(sep) if t != ""]


def _letter(option: str, table: dict[str, str], letter: str, what: str) -> str:
    if letter not in table:
        raise ConfigError(option, letter, f"a {what} letter ({', '.join(table)})")
    return table[letter]


def parse_cache_spec(option: str, spec: str) -> dict[str, Any]:
    """Cache fields from a spec ``[N|S:]<sets>:<line>:<ways>,<r>:<w>:<a>:<wa>[:<idx>],
    <mshr>:<entries>:<merge>,<miss_queue>...``, keyed by CacheConfig field name."""
    groups = [g.strip() for g in spec.strip().split(",")]
    geo = [t for t in groups[0].split(":") if t]
    sectored = False
    if geo and geo[0].isalpha():
        kind = geo.pop(0)
        if kind not in ("N", "S"):
            raise ConfigError(option, spec, "a cache type N (normal) or S (sectored)")
        sectored = kind == "S"
    if len(geo) != 3:
        raise ConfigError(option, spec, "<sets>:<line bytes>:<ways> before the first comma")
    n_sets, line, ways = (_int(option, t) for t in geo)
    out: dict[str, Any] = {"size_bytes": n_sets * line * ways, "line_bytes": line,
                           "ways": ways,
                           "sector_bytes": min(_SECTOR_BYTES, line) if sectored else line}
    if len(groups) > 1 and groups[1]:
        pol = groups[1].split(":")
        names = (("replacement", _REPL, "replacement"), ("write_policy", _WRITE, "write"),
                 ("alloc_policy", _ALLOC, "allocation"),
                 ("write_alloc_policy", _WALLOC, "write-allocate"),
                 ("set_index", _INDEX, "set-index"))
        for letter, (field, table, what) in zip(pol, names, strict=False):
            out[field] = _letter(option, table, letter, what)
    if len(groups) > 2 and groups[2]:
        mshr = groups[2].split(":")
        if len(mshr) >= 2:
            out["mshr_entries"] = _int(option, mshr[1])
        if len(mshr) >= 3:
            out["n_mshr_max_merge"] = _int(option, mshr[2])
    if len(groups) > 3 and groups[3]:
        out["miss_queue_entries"] = _int(option, groups[3].split(":")[0])
    return out


def _to(path: str, conv: Callable[[str, str], Any] = _int) -> _Handler:
    """Handler that converts the value and assigns one field."""
    return lambda option, text: {path: conv(option, text)}


def _sm_arch(option: str, text: str) -> str:
    """``-gpgpu_occupancy_sm_number n`` as ``sm.occupancy_arch``: ``sm_<n>``, 0 = ``device``."""
    n = _int(option, text)
    return f"sm_{n}" if n else "device"


def _cache(prefix: str) -> _Handler:
    def handle(option: str, text: str) -> dict[str, Any]:
        return {f"{prefix}.{k}": v for k, v in parse_cache_spec(option, text).items()}
    return handle


def _core_pipeline(option: str, text: str) -> dict[str, Any]:
    threads, warp = _ints(option, text, ":")[:2]
    return {"sm.n_max_threads": threads, "sm.n_threads_per_warp": warp}


def _scheduler(option: str, text: str) -> dict[str, Any]:
    name = text.strip().lower()
    if name.startswith("two_level_active"):
        parts = name.split(":")
        out: dict[str, Any] = {"sm.sched_policy": "two_level"}
        if len(parts) > 1:
            out["sm.n_two_level_active_warps"] = _int(option, parts[1])
        return out
    policy = {"lrr": "lrr", "gto": "gto", "old": "oldest"}.get(name)
    if policy is None:
        raise ConfigError(option, text, "lrr, gto, old or two_level_active:N:0:1")
    return {"sm.sched_policy": policy}


def _clock_domains(option: str, text: str) -> dict[str, Any]:
    parts = [float(t) for t in text.strip().split(":") if t]
    if len(parts) != 4:
        raise ConfigError(option, text, "core:interconnect:L2:DRAM clocks in MHz")
    return dict(zip(("clocks.core_mhz", "clocks.icnt_mhz", "clocks.l2_mhz",
                     "clocks.dram_mhz"), parts, strict=True))


_TIMING = {"nbk": "dram.n_banks", "nbkgrp": "dram.n_bank_groups", "CCD": "dram.t_ccd_cycles",
           "RRD": "dram.t_rrd_cycles", "RCD": "dram.t_rcd_cycles", "RAS": "dram.t_ras_cycles",
           "RP": "dram.t_rp_cycles", "RC": "dram.t_rc_cycles", "CL": "dram.t_cl_cycles",
           "WL": "dram.t_wl_cycles", "CDLR": "dram.t_cdlr_cycles", "WR": "dram.t_wr_cycles",
           "CCDL": "dram.t_ccdl_cycles", "RTPL": "dram.t_rtpl_cycles"}
"""``-gpgpu_dram_timing_opt`` keys -> fields."""


_TIMING_ORDER = ("nbk", "CCD", "RRD", "RCD", "RAS", "RP", "RC", "CL", "WL", "CDLR", "WR",
                 "nbkgrp", "CCDL", "RTPL")
"""Key order of the legacy ``-gpgpu_dram_timing_opt`` form without ``=`` (GPGPU-Sim
``memory_config::init``: nbkgrp 1, CCDL 0 and RTPL 0 unless given)."""


def _dram_timing(option: str, text: str) -> dict[str, Any]:
    # GPGPU-Sim splits the named form at '=', ':', ';' and whitespace (ParseString)
    if "=" not in text:
        values = [_int(option, t) for t in re.split(r"[:\s]+", text.strip()) if t]
        named = dict(zip(_TIMING_ORDER, values, strict=False))
        named = {"nbkgrp": 1, "CCDL": 0, "RTPL": 0, **named}
        return {_TIMING[k]: v for k, v in named.items()}
    parts = [t for t in re.split(r"[=:;\s]+", text.strip()) if t]
    if len(parts) % 2:
        raise ConfigError(option, text, "key=value pairs separated by ':'")
    out: dict[str, Any] = {}
    for key, value in zip(parts[::2], parts[1::2], strict=True):
        if key not in _TIMING:
            raise ConfigError(option, f"{key}={value}", f"a timing key ({', '.join(_TIMING)})")
        out[_TIMING[key]] = _int(option, value)
    return out


_WIDTH_LAYOUTS = {
    7: ("fp32.n_id_oc_slots", "sfu.n_id_oc_slots", "ldst.n_id_oc_slots",
        "fp32.n_oc_ex_slots", "sfu.n_oc_ex_slots", "ldst.n_oc_ex_slots", "n_ex_wb_slots"),
    9: ("fp32.n_id_oc_slots", "fp64.n_id_oc_slots", "sfu.n_id_oc_slots", "ldst.n_id_oc_slots",
        "fp32.n_oc_ex_slots", "fp64.n_oc_ex_slots", "sfu.n_oc_ex_slots", "ldst.n_oc_ex_slots",
        "n_ex_wb_slots"),
    11: ("fp32.n_id_oc_slots", "fp64.n_id_oc_slots", "int32.n_id_oc_slots",
         "sfu.n_id_oc_slots", "ldst.n_id_oc_slots", "fp32.n_oc_ex_slots",
         "fp64.n_oc_ex_slots", "int32.n_oc_ex_slots", "sfu.n_oc_ex_slots",
         "ldst.n_oc_ex_slots", "n_ex_wb_slots"),
}
_WIDTH_LAYOUTS[13] = (*_WIDTH_LAYOUTS[11], "tensor.n_id_oc_slots", "tensor.n_oc_ex_slots")
"""``-gpgpu_pipeline_widths`` orders: 3.x (7), 3.x with DP (9), 4.x (11), 4.x + tensor (13)."""


def _pipeline_widths(option: str, text: str) -> dict[str, Any]:
    values = _ints(option, text)
    layout = _WIDTH_LAYOUTS.get(len(values))
    if layout is None:
        raise ConfigError(option, text, "7, 9, 11 or 13 comma-separated widths")
    return {f"pipelines.{name}": v for name, v in zip(layout, values, strict=True)}


def _latency(pipe: str, kind: str) -> _Handler:
    scalar = "latency_cycles" if kind == "latency" else "initiation_interval_cycles"
    table = "op_latency_cycles" if kind == "latency" else "op_initiation_interval_cycles"

    def handle(option: str, text: str) -> dict[str, Any]:
        values = _ints(option, text)
        if not values or len(values) > len(LatencyOp):
            raise ConfigError(option, text, f"1 to {len(LatencyOp)} values (ADD, MAX, MUL, "
                              "MAD, DIV[, SHFL])")
        out: dict[str, Any] = {f"pipelines.{pipe}.{scalar}": values[0]}
        if len(values) > 1:
            out[f"pipelines.{pipe}.{table}"] = tuple(values)
        return out
    return handle


def _addr_mapping(option: str, text: str) -> dict[str, Any]:
    m = parse_addr_mapping(text, option)
    return {"dram.addr_mapping": text.strip(),
            "dram.row_bytes": 1 << bin(m.column_mask).count("1")}


def _partition_queues(option: str, text: str) -> dict[str, Any]:
    """icnt_L2:L2_dram:dram_L2:L2_icnt (GPGPU-Sim memory_sub_partition): the first and last
    bound what warpsim's slice takes from and gives to the interconnect, the second the
    requests waiting for the DRAM behind the L2 miss queue; dram_L2 is
    dram.return_queue_entries' job (not mapped)."""
    values = _ints(option, text, ":")
    if len(values) != 4:
        raise ConfigError(option, text, "icnt_L2:L2_dram:dram_L2:L2_icnt queue sizes")
    return {"l2.rop_queue_entries": values[0], "l2.dram_queue_entries": values[1],
            "l2.reply_queue_entries": values[3]}


def _dram_scheduler(option: str, text: str) -> dict[str, Any]:
    value = _int(option, text)
    if value not in (0, 1):
        raise ConfigError(option, text, "0 (FIFO) or 1 (FR-FCFS)")
    return {"dram.scheduler": "fifo" if value == 0 else "frfcfs"}


def _bool(path: str) -> _Handler:
    return lambda option, text: {path: _int(option, text) != 0}


def _oc(cls: str) -> dict[str, _Handler]:
    base = "-gpgpu_operand_collector_num_"
    field = "tensor" if cls == "tensor_core" else cls
    return {f"{base}units_{cls}": _to(f"regfile.oc_{field}.n_collector_units"),
            f"{base}in_ports_{cls}": _to(f"regfile.oc_{field}.n_in_ports"),
            f"{base}out_ports_{cls}": _to(f"regfile.oc_{field}.n_out_ports")}


OPTION_TABLE: dict[str, _Handler] = {
    "-gpgpu_n_clusters": _to("_clusters"),
    "-gpgpu_n_cores_per_cluster": _to("sm.n_sms_per_cluster"),
    "-gpgpu_shader_core_pipeline": _core_pipeline,
    "-gpgpu_shader_cta": _to("sm.n_max_ctas"),
    "-gpgpu_shader_registers": _to("sm.n_registers"),
    "-gpgpu_registers_per_block": _to("sm.n_max_regs_per_cta"),
    "-gpgpu_occupancy_sm_number": _to("sm.occupancy_arch", _sm_arch),
    "-gpgpu_num_sched_per_core": _to("sm.n_schedulers"),
    "-gpgpu_scheduler": _scheduler,
    "-gpgpu_max_insn_issue_per_warp": _to("sm.n_max_issue_per_warp"),
    "-gpgpu_sub_core_model": _bool("sm.sub_core_model"),
    "-gpgpu_num_reg_banks": _to("regfile.n_banks"),
    "-gpgpu_reg_file_port_throughput": _to("regfile.n_oc_steps_per_cycle"),
    **_oc("sp"), **_oc("dp"), **_oc("sfu"), **_oc("int"), **_oc("mem"),
    **_oc("tensor_core"), **_oc("gen"),
    "-gpgpu_pipeline_widths": _pipeline_widths,
    "-gpgpu_num_sp_units": _to("pipelines.fp32.n_units"),
    "-gpgpu_num_dp_units": _to("pipelines.fp64.n_units"),
    "-gpgpu_num_int_units": _to("pipelines.int32.n_units"),
    "-gpgpu_num_sfu_units": _to("pipelines.sfu.n_units"),
    "-gpgpu_num_tensor_core_units": _to("pipelines.tensor.n_units"),
    **{f"-ptx_opcode_{kind}_{cls}": _latency(pipe, kind)
       for cls, pipe in (("int", "int32"), ("fp", "fp32"), ("dp", "fp64"), ("sfu", "sfu"),
                         ("tensor", "tensor"))
       for kind in ("latency", "initiation")},
    # GPGPU-Sim 4.2 registers the tensor latency under this misspelt name (cuda-sim.cc)
    "-ptx_opcode_latency_tesnor": _latency("tensor", "latency"),
    "-gpgpu_cache:dl1": _cache("l1d"),
    "-gpgpu_const_cache:l1": _cache("l1c"),
    "-gpgpu_tex_cache:l1": _cache("l1t"),
    "-gpgpu_cache:dl2": _cache("l2"),
    "-gpgpu_l1_latency": _to("l1d.hit_latency_cycles"),
    "-gpgpu_gmem_skip_L1D": _bool("l1d.bypass_global"),
    "-gmem_skip_L1D": _bool("l1d.bypass_global"),
    "-gpgpu_shmem_size": _to("shmem.size_bytes"),
    "-gpgpu_shmem_per_block": _to("shmem.cta_limit_bytes"),
    "-gpgpu_shmem_num_banks": _to("shmem.n_banks"),
    "-gpgpu_smem_latency": _to("shmem.latency_cycles"),
    "-icnt_flit_size": _to("icnt.flit_bytes"),
    "-gpgpu_n_cluster_ejection_buffer_size": _to("icnt.eject_buffer_entries"),
    "-gpgpu_dram_partition_queues": _partition_queues,
    "-gpgpu_l2_queue_config": _partition_queues,
    "-rop_latency": _to("l2.hit_latency_cycles"),
    "-gpgpu_l2_rop_latency": _to("l2.hit_latency_cycles"),
    "-gpgpu_perf_sim_memcpy": _bool("l2.fill_on_host_copy"),
    "-gpgpu_n_mem": _to("dram.n_channels"),
    "-gpgpu_n_sub_partition_per_mchannel": _to("l2.n_slices_per_channel"),
    "-gpgpu_n_mem_per_ctrlr": _to("dram.n_chips_per_channel"),
    "-gpgpu_dram_buswidth": _to("dram.bus_width_bytes"),
    "-gpgpu_dram_burst_length": _to("dram.n_burst_beats"),
    "-dram_data_command_freq_ratio": _to("dram.n_transfers_per_clock"),
    "-gpgpu_dram_scheduler": _dram_scheduler,
    "-gpgpu_frfcfs_dram_sched_queue_size": _to("dram.sched_queue_entries"),
    "-gpgpu_dram_return_queue_size": _to("dram.return_queue_entries"),
    "-dram_latency": _to("dram.latency_cycles"),
    "-dram_elimnate_rw_turnaround": lambda option, text: {
        "dram.rw_turnaround": _int(option, text) == 0},
    "-gpgpu_dram_timing_opt": _dram_timing,
    "-gpgpu_mem_addr_mapping": _addr_mapping,
    "-gpgpu_clock_domains": _clock_domains,
    "-gpgpu_kernel_launch_latency": _to("kernel_launch_latency_cycles"),
}
"""Option -> handler returning ``{dotted field: value}``; docs/configuration.md lists it.
``_clusters`` is combined with the cores per cluster into ``sm.n_sms``."""


def _tokens(text: str, where: str) -> list[tuple[int, str]]:
    """(line number, token) as GPGPU-Sim's ``ParseFile``/``ParseStringStream`` see them:
    ``#`` cuts the rest of a line, tokens are whitespace-separated across lines, and a token
    starting with ``"`` runs to the next token ending with ``"`` (joined by one blank, the
    quotes removed)."""
    out: list[tuple[int, str]] = []
    pending: tuple[int, list[str]] | None = None
    for lineno, line in enumerate(text.splitlines(), 1):
        for tok in line.split("#", 1)[0].split():
            if pending is not None:
                pending[1].append(tok)
                if tok.endswith('"'):
                    out.append((pending[0], " ".join(pending[1])[1:-1]))
                    pending = None
            elif tok.startswith('"') and (len(tok) == 1 or not tok.endswith('"')):
                pending = (lineno, [tok])
            else:
                out.append((lineno, tok[1:-1] if tok.startswith('"') else tok))
    if pending is not None:
        raise ConfigError(f"{where} line {pending[0]}", " ".join(pending[1]),
                          'a closing double quote (")')
    return out


def _options(text: str, where: str = "gpgpusim.config") -> list[tuple[int, str, str]]:
    """(line number, option, value) in file order: every option takes the next token."""
    tokens = _tokens(text, where)
    out = []
    for i in range(0, len(tokens), 2):
        lineno, option = tokens[i]
        if not option.startswith("-"):
            raise ConfigError(f"{where} line {lineno}", option,
                              "an option starting with '-' followed by its value")
        if i + 1 >= len(tokens):
            raise ConfigError(f"{where} line {lineno}", option, "a value after the option")
        out.append((lineno, option, tokens[i + 1][1]))
    return out


def read_booksim_config(path: Path) -> tuple[dict[str, Any], list[str], list[str]]:
    """Fields from a BookSim interconnect file (``key = value;``, ``//`` comments), the keys
    it ignores (``gpgpusim_ignored.IGNORED_ICNT_KEYS``) and the keys unknown to warpsim, as
    ``"key = value"`` strings."""
    text = _read_file(path, "-inter_config_file")
    text = re.sub(r"//[^\n]*", "", text)
    fields: dict[str, Any] = {}
    ignored: list[str] = []
    unknown: list[str] = []
    for item in text.split(";"):
        key, sep, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not key:
            continue
        if not sep:
            raise ConfigError(f"-inter_config_file {path.name}", item.strip(),
                              "key = value; statements")
        if key == "flit_size":
            fields["icnt.flit_bytes"] = _int(f"{path.name}: flit_size", value)
        elif key in IGNORED_ICNT_KEYS:
            ignored.append(f"{key} = {value}")
        else:
            unknown.append(f"{key} = {value}")
    return fields, ignored, unknown


def read_gpgpusim_config(source: str | Path, base: GPUConfig | None = None,
                         *, name: str | None = None) -> tuple[GPUConfig, list[str]]:
    """Read a ``gpgpusim.config`` file (path) or its text into a ``GPUConfig``.

    ``-network_mode 1`` (GPGPU-Sim's default) with ``-inter_config_file F`` reads the BookSim
    file ``F`` (next to the config file, or relative to the working directory for text): its
    ``flit_size`` sets ``icnt.flit_bytes``; ``-network_mode 2`` uses ``-icnt_flit_size``.

    Parameters
    ----------
    source
        A path to the file, or the file's text (anything containing a newline or not naming
        an existing file is taken as text).
    base
        Configuration whose values fill the fields the file does not set (GTX480 default).
    name
        ``GPUConfig.name`` of the result (default: the file's stem, or ``base.name``).

    Returns
    -------
    (GPUConfig, list[str])
        The configuration and the options that were not applied (ignored with a reason in
        ``IGNORED_OPTIONS``, or unknown), as ``"-option value"`` strings in file order. One
        warning names them, and any value replaced because warpsim cannot model it.

    Raises
    ------
    ConfigError
        For a malformed value (naming the option) or a value the configuration rejects
        (naming the dotted field).
    """
    text, stem, folder = _read(source)
    cfg = base if base is not None else GPUConfig(name="gtx480")
    assigned: dict[str, Any] = {}
    origin: dict[str, str] = {}
    ignored: list[str] = []
    unknown: list[str] = []
    mode, icnt_file = 1, None
    for _lineno, option, value in _options(text):
        if option == "-network_mode":
            mode = _int(option, value)
            if mode not in (1, 2):
                raise ConfigError(option, value, "1 (BookSim, -inter_config_file) or 2 "
                                  "(local crossbar)")
            continue
        if option == "-inter_config_file":
            icnt_file = value
            continue
        handler = OPTION_TABLE.get(option)
        if handler is None:
            (ignored if option in IGNORED_OPTIONS else unknown).append(f"{option} {value}")
            continue
        for path, v in handler(option, value).items():
            assigned[path] = v
            origin[path] = f"{option} {value}"
    if mode == 1 and icnt_file is not None:
        fields, icnt_ignored, icnt_unknown = read_booksim_config(folder / icnt_file)
        assigned.update(fields)
        origin.update({p: f"{icnt_file}: flit_size" for p in fields})
        ignored += [f"{icnt_file}: {k}" for k in icnt_ignored]
        unknown += [f"{icnt_file}: {k}" for k in icnt_unknown]
    elif icnt_file is not None:
        ignored.append(f"-inter_config_file {icnt_file}")
    _derive(cfg, assigned)
    assigned["name"] = name or stem or cfg.name
    replaced = _replace_refused(cfg, assigned, origin) + _clamp_ptxas_target(assigned)
    result = apply_overrides(cfg, assigned)
    _note(stem or "(text)", ignored, replaced, unknown)
    return result, ignored + unknown


def _derive(cfg: GPUConfig, assigned: dict[str, Any]) -> None:
    """Fields that follow from several options (SM count, GPGPU-Sim 3.x per-CTA limits) or
    from GPGPU-Sim itself (store acknowledgements)."""
    clusters = assigned.pop("_clusters", None)
    per_cluster = assigned.get("sm.n_sms_per_cluster", cfg.sm.n_sms_per_cluster)
    if clusters is not None:
        assigned["sm.n_sms"] = clusters * per_cluster
    elif "sm.n_sms_per_cluster" in assigned:
        assigned["sm.n_sms"] = cfg.sm.n_clusters * per_cluster
    # GPGPU-Sim 3.x has no per-CTA limits: one CTA may use the whole SM's resources.
    if "sm.n_registers" in assigned and "sm.n_max_regs_per_cta" not in assigned:
        assigned["sm.n_max_regs_per_cta"] = assigned["sm.n_registers"]
    if "shmem.size_bytes" in assigned and "shmem.cta_limit_bytes" not in assigned:
        assigned["shmem.cta_limit_bytes"] = assigned["shmem.size_bytes"]
    # GPGPU-Sim acknowledges every store (no option turns it off; timing/store_ack.py).
    assigned["l2.store_acks"] = True


def _clamp_ptxas_target(assigned: dict[str, Any]) -> list[str]:
    """``-gpgpu_occupancy_sm_number`` below the oldest target ptxas 13 assembles for is raised
    to it, as our GPGPU-Sim 4.2 build does (validation/gpgpusim/README.md §1: its ptx_loader.cc
    passes ``max(75, n)``); returns the note."""
    arch = assigned.get("sm.occupancy_arch", "device")
    low = OccupancyArch.SM_75
    if arch == "device" or int(arch.removeprefix("sm_")) >= low.number:  # type: ignore[operator]
        return []
    assigned["sm.occupancy_arch"] = low.value
    return [f"sm.occupancy_arch = {arch!r} from -gpgpu_occupancy_sm_number "
            f"{arch.removeprefix('sm_')} -> {low.value!r} (ptxas 13 assembles for "
            f"{low.value} and newer only)"]


def _replace_refused(cfg: GPUConfig, assigned: dict[str, Any],
                     origin: dict[str, str]) -> list[str]:
    """Give every field of ``arch.refused`` the value warpsim simulates; returns a note per
    value from the file that this replaced."""
    root = cfg.to_dict()
    for path, value in assigned.items():
        node = root
        *groups, leaf = path.split(".")
        for g in groups:
            node = node.get(g, {}) if isinstance(node, dict) else {}
        if isinstance(node, dict) and leaf in node:
            node[leaf] = value
    out = []
    for rule in REFUSED:
        bad = refused_value(rule, root)
        if bad is None:
            continue
        assigned[rule.path] = bad[1]
        if rule.path in origin:
            out.append(f"{rule.path} = {bad[0]!r} from {origin[rule.path]} -> {bad[1]!r} "
                       f"({rule.reason})")
    return out


def _note(where: str, ignored: list[str], replaced: list[str], unknown: list[str]) -> None:
    """Log one warning naming everything of the file that warpsim did not apply as given."""
    parts = []
    if ignored:
        names = [o.split(" ")[0] for o in ignored if o.startswith("-")]
        files = sorted({o.split(":")[0] for o in ignored if not o.startswith("-")})
        names += [f"{f} (every key but flit_size)" for f in files]
        parts.append(f"{len(ignored)} option(s) not modelled, ignored (reasons: "
                     f"docs/configuration.md, 'Ignored options'): " + ", ".join(names))
    if replaced:
        parts.append("values warpsim cannot model, replaced: " + "; ".join(replaced))
    if unknown:
        parts.append(f"{len(unknown)} option(s) unknown to warpsim, not applied: "
                     + "; ".join(unknown))
    if parts:
        _log.warning("gpgpusim.config %s: %s", where, " | ".join(parts))


def _read(source: str | Path) -> tuple[str, str, Path]:
    """(text, config name from the path, folder that relative file names refer to)."""
    if isinstance(source, Path):
        return _read_file(source), _stem(source), source.parent
    if "\n" not in source and source.strip() and not source.lstrip().startswith("-"):
        path = Path(source)
        if path.is_file():
            return _read_file(path), _stem(path), path.parent
        raise ConfigError("gpgpusim.config", source, "an existing file or the config text")
    return source, "", Path.cwd()


def _read_file(path: Path, what: str = "gpgpusim.config") -> str:
    """The text of a GPGPU-Sim file; ``ConfigError`` naming it when it cannot be read."""
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(what, str(path),
                          f"a readable GPGPU-Sim option file ({exc.strerror or exc})",
                          hint="check the file's path") from None
    except UnicodeDecodeError:
        raise ConfigError(what, str(path),
                          "a GPGPU-Sim option file (text), not a binary file") from None


def _stem(path: Path) -> str:
    stem = path.parent.name if path.stem == "gpgpusim" else path.stem
    return stem.strip().lower() or "custom"
