"""Warped-Compression on the timing engine (specs/warped-compression.md §5, §10): with the
mechanism off every statistic is the baseline's, bit for bit (other WC fields changed); on real
tiny kernels its counters agree with the baseline engine's own (bank accesses x 8, instruction
counts) and the Fig. 10 gating order holds; on micro-kernels the compression/decompression
stages add C + D cycles per dependent instruction and a gated bank delays a write by the
wake-up latency."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "timing"))

from timing_helpers import EXIT, FakeAlloc, FakeProgram, Inst, small_config
from wc_helpers import value_chunk, vrec

from warpsim.arch import apply_overrides
from warpsim.mechanisms.warped_compression import WarpedCompression
from warpsim.runner.jobs import Job
from warpsim.timing.driver import TimingSimulator, default_memsys

_VOLATILE = ("wall", "_per_s", "compile")
OFF = (("warped_compression.enabled", False), ("warped_compression.scheme", "4_0"),
       ("warped_compression.comp_latency_cycles", 8),
       ("warped_compression.power_gating", False))


def _stats(bench, overrides=()):
    from warpsim.runner.simulate import simulate

    st = simulate(Job(benchmark=bench, size="tiny", overrides=tuple(overrides)))["stats"]
    return {k: v for k, v in st.items() if not any(x in k for x in _VOLATILE)}


def _same(a, b):
    assert a.keys() == b.keys()
    for k in a:
        same = (a[k] == b[k]) or (a[k] != a[k] and b[k] != b[k])  # NaN == NaN
        assert same, (k, a[k], b[k])


@pytest.mark.parametrize("bench", ["vector_add", "reduction"])
def test_mechanism_off_is_the_baseline_bit_for_bit(bench):
    _same(_stats(bench), _stats(bench, OFF))


def test_counters_agree_with_the_baseline_engine_on_a_real_kernel():
    four = (("regfile.n_banks", 4),)
    base = _stats("reduction", four)
    wc = _stats("reduction", (*four, ("warped_compression.enabled", True)))
    assert wc["gpu_sim_insn"] == base["gpu_sim_insn"]
    assert wc["gpgpu_n_tot_w_icount"] == base["gpgpu_n_tot_w_icount"]
    assert wc["wc_warp_insts_nondiv"] + wc["wc_warp_insts_div"] == base["gpgpu_n_tot_w_icount"]
    # the uncompressed baseline touches 8 banks per warp-register access of the original code
    assert wc["wc_base_bank_reads"] == 8 * base["regfile_bank_reads"]
    assert wc["wc_base_bank_writes"] == 8 * base["regfile_bank_writes"]
    # the engine's warp-register counts gain exactly the MOVs' writes, and their reads through
    # the divergent instruction's collector unit (the extra_operand hook)
    assert wc["regfile_bank_writes"] == base["regfile_bank_writes"] + wc["wc_mov_insts"]
    assert wc["regfile_bank_reads"] == base["regfile_bank_reads"] + wc["wc_mov_insts"]
    assert wc["wc_bank_reads"] < wc["wc_base_bank_reads"]
    assert wc["wc_bank_writes"] < wc["wc_base_bank_writes"] + wc["wc_mov_bank_writes"]
    assert wc["wc_mov_bank_writes"] == 8 * wc["wc_mov_insts"]
    assert wc["wc_bank_cycles"] == 15 * 32 * wc["gpu_sim_cycle"]
    assert wc["wc_comp_activations"] == wc["wc_reg_writes_nondiv"] - wc["wc_partial_pred_writes"]
    # Fig. 10: inside a cluster a higher bank is gated at least as long (images start at 0)
    for c in range(4):
        g = [wc[f"wc_gated_bank_cycles_b{8 * c + j}"] for j in range(8)]
        assert g == sorted(g), g
    assert 0 < wc["wc_gated_bank_cycles_resident"] < wc["wc_gated_bank_cycles"]
    assert wc["gpu_sim_cycle"] >= base["gpu_sim_cycle"]  # C + D stages only add latency


def _micro(insts, warp_recs, overrides):
    cfg = apply_overrides(small_config(), ["warped_compression.enabled=true", *overrides])
    prog = FakeProgram(insts)
    prog.n_values = np.array([len(i.writes) for i in insts] + [0], np.int32)
    mech = WarpedCompression(cfg)
    # no memory access: the real memory system, so that the cycle loop compiled for the real
    # kernel above serves (one numba compile per hooks x memory system)
    sim = TimingSimulator(cfg, mechanism=mech, memsys=default_memsys())
    sim.start(prog, FakeAlloc(insts), n_ctas=1, cta_threads=32, regs_per_thread=8,
              shmem_bytes=0)
    sim.consume(value_chunk([warp_recs]))
    return sim.finish().stats


def test_compression_stages_add_c_plus_d_per_dependent_instruction():
    n = 6
    insts = [Inst("add", reads=(1,), writes=(1,), n_imm=1)] * n + [Inst("exit", kind=EXIT)]
    recs = [vrec(i, [np.full(32, i)]) for i in range(n)] + [vrec(n)]
    fast = _micro(insts, recs, ["warped_compression.comp_latency_cycles=0",
                                "warped_compression.decomp_latency_cycles=0"])
    slow = _micro(insts, recs, [])
    assert slow["gpu_sim_cycle"] - fast["gpu_sim_cycle"] == n * (2 + 1)
    only = _micro(insts, recs, ["warped_compression.latency_only_when_compressed=true"])
    # every write is compressed (C each); only the reads after the first see a compressed r1
    assert only["gpu_sim_cycle"] - fast["gpu_sim_cycle"] == n * 2 + (n - 1) * 1


def test_a_write_to_gated_banks_waits_for_the_wake_up():
    insts = [Inst("mov", writes=(1,), n_imm=1), Inst("add", reads=(1,), writes=(1,), n_imm=1),
             Inst("exit", kind=EXIT)]
    recs = [vrec(0, [np.full(32, 5)]), vrec(1, [np.arange(32) * 70000]), vrec(2)]
    nolat = ["warped_compression.comp_latency_cycles=0",
             "warped_compression.decomp_latency_cycles=0"]
    awake = _micro(insts, recs, [*nolat, "warped_compression.wakeup_latency_cycles=0"])
    gated = _micro(insts, recs, nolat)
    # bank 0 of the cluster wakes for the <4,0> write, banks 1-7 for the uncompressed one
    assert gated["gpu_sim_cycle"] - awake["gpu_sim_cycle"] == 10 + 10
    assert gated["wc_wakeups"] == 8 and gated["wc_wakeup_stall_cycles"] == 20
    assert gated["wc_bank_writes"] == 1 + 8
