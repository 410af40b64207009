"""GPGPU-Sim 4.2's stock ``configs/tested-cfgs`` files load unchanged (copies in
``tests/arch/data/gpgpusim-4.2``, see its README for origin and license).

Oracles: the values written in those files (read by hand, quoted beside each assertion) and
the option table of GPGPU-Sim 4.2 (every option in them is either mapped or has a reason in
``IGNORED_OPTIONS``; none is unknown).
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from warpsim.arch import OPTION_TABLE, SchedPolicy, WriteAllocPolicy, read_gpgpusim_config
from warpsim.arch.gpgpusim_ignored import IGNORED_ICNT_KEYS, IGNORED_OPTIONS

DATA = Path(__file__).parent / "data" / "gpgpusim-4.2"
STOCK = ["SM2_GTX480", "SM7_QV100", "SM7_TITANV", "SM75_RTX2060"]


@pytest.mark.parametrize("name", STOCK)
def test_stock_config_loads_and_every_option_is_mapped_or_ignored_with_a_reason(name, caplog):
    with caplog.at_level(logging.WARNING, logger="warpsim.arch.gpgpusim_config"):
        cfg, unmapped = read_gpgpusim_config(DATA / name / "gpgpusim.config")
    assert cfg.name == name.lower()
    for item in unmapped:
        if item.startswith("-"):
            assert item.split(" ")[0] in IGNORED_OPTIONS, item
        else:
            assert item.split(": ")[1].split(" = ")[0] in IGNORED_ICNT_KEYS, item
    notes = [r.getMessage() for r in caplog.records]
    assert len(notes) == 1 and "unknown" not in notes[0]


def test_every_option_of_the_stock_files_is_known():
    from warpsim.arch.gpgpusim_config import _options

    known = set(OPTION_TABLE) | set(IGNORED_OPTIONS) | {"-network_mode", "-inter_config_file"}
    for name in STOCK:
        text = (DATA / name / "gpgpusim.config").read_text()
        missing = {opt for _, opt, _ in _options(text)} - known
        assert not missing, (name, missing)


def test_gtx480_values_and_its_booksim_file():
    cfg, _ = read_gpgpusim_config(DATA / "SM2_GTX480" / "gpgpusim.config")
    assert cfg.n_sms == 15                                  # -gpgpu_n_clusters 15 x 1
    assert cfg.icnt.flit_bytes == 40                        # config_fermi_islip.icnt flit_size
    assert cfg.sm.sched_policy is SchedPolicy.GTO and cfg.sm.n_schedulers == 2
    d = cfg.dram                                            # the quoted two-line timing string
    assert (d.n_banks, d.t_ccd_cycles, d.t_rc_cycles, d.t_cl_cycles, d.t_wl_cycles,
            d.n_bank_groups, d.t_ccdl_cycles, d.t_rtpl_cycles) == (16, 2, 40, 12, 4, 4, 3, 2)
    assert d.sched_queue_entries == 64 and d.return_queue_entries == 116
    assert d.addr_mapping.startswith("dramid@8;") and d.row_bytes == 4096
    assert cfg.l1d.mshr_entries == 64 and cfg.l1d.hit_latency_cycles == 35   # S:64:8, 35
    assert cfg.l2.size_bytes == 64 * 128 * 8 and cfg.l2.mshr_entries == 256  # A:256:4
    assert cfg.l2.write_alloc_policy is WriteAllocPolicy.LAZY_FETCH_ON_READ  # L
    assert cfg.l2.hit_latency_cycles == 120 and d.latency_cycles == 100
    assert cfg.icnt.eject_buffer_entries == 32     # -gpgpu_n_cluster_ejection_buffer_size 32
    assert (cfg.l2.rop_queue_entries, cfg.l2.reply_queue_entries) == (64, 64)  # 64:64:64:64
    p = cfg.pipelines                                       # 2,0,0,1,1,2,0,0,1,1,2
    assert (p.fp32.n_units, p.sfu.n_units, p.fp64.n_units) == (2, 1, 0)
    assert p.fp32.op_latency_cycles == (4, 13, 4, 5, 39)
    assert p.int32.op_initiation_interval_cycles == (1, 2, 2, 1, 8, 4)
    # no -ptx_opcode_*_sfu in the file: GPGPU-Sim 4.2's defaults 8 / 8, as the gtx480 preset
    assert (p.sfu.latency_cycles, p.sfu.initiation_interval_cycles) == (8, 8)


def test_qv100_titanv_rtx2060_values():
    qv, _ = read_gpgpusim_config(DATA / "SM7_QV100" / "gpgpusim.config")
    assert qv.n_sms == 80 and qv.dram.n_channels == 32 and qv.sm.sub_core_model
    assert (qv.pipelines.sfu.latency_cycles, qv.pipelines.sfu.initiation_interval_cycles) == \
        (100, 8)
    assert qv.pipelines.tensor.latency_cycles == 64         # -ptx_opcode_latency_tesnor 64
    assert qv.kernel_launch_latency_cycles == 5000 and qv.clocks.dram_mhz == 850.0
    tv, _ = read_gpgpusim_config(DATA / "SM7_TITANV" / "gpgpusim.config")
    assert tv.n_sms == 80 and tv.regfile.n_banks == 8       # 40 clusters x 2 cores
    assert tv.clocks.core_mhz == 1200.0 and tv.dram.n_channels == 24
    rtx, _ = read_gpgpusim_config(DATA / "SM75_RTX2060" / "gpgpusim.config")
    assert rtx.n_sms == 30 and rtx.pipelines.sfu.latency_cycles == 21
    assert rtx.dram.t_rc_cycles == 78 and rtx.dram.t_ras_cycles == 55   # RC < RAS + RP
    assert rtx.l1d.hit_latency_cycles == 32 and rtx.shmem.size_bytes == 65536
