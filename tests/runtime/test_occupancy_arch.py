"""``sm.occupancy_arch``: the ptxas target a kernel's registers (hence its occupancy) come from,
GPGPU-Sim 4.2's ``-gpgpu_occupancy_sm_number`` (validation/gpgpusim/README.md §7.11).

Oracles: the register counts ``ptxas -v`` 13 prints for the kernel below (read off its report by
hand: ``--gpu-name=sm_75`` 64 registers, sm_80 32 — the validation program ``transpose_tiled``,
for which GPGPU-Sim's log says "CTA/core = 2, limited by: regs"), the gtx480 preset's limits
(32,768 registers, 1,536 threads, 8 CTAs, 48 KiB shared memory per SM) with the CTAs per SM
worked out by hand, the values written in GPGPU-Sim's stock config files, and strings.
"""

from __future__ import annotations

import logging
from pathlib import Path

import numpy as np
import pytest

import warpsim
from warpsim.arch import GTX480, OccupancyArch, apply_overrides, read_gpgpusim_config
from warpsim.errors import ConfigError
from warpsim.toolchain import lower_ptx_target

STOCK = Path(__file__).resolve().parents[1] / "arch" / "data" / "gpgpusim-4.2"

TRANSPOSE = r"""
extern "C" __global__ void transpose_tiled(const float *in, float *out, int n) {
  __shared__ float tile[32][33];
  int bx = blockIdx.x * 32, by = blockIdx.y * 32, tx = threadIdx.x, ty = threadIdx.y;
  for (int j = ty; j < 32; j += 8) tile[j][tx] = in[(by + j) * n + bx + tx];
  __syncthreads();
  for (int j = ty; j < 32; j += 8) out[(bx + j) * n + by + tx] = tile[tx][j];
}
"""


@pytest.mark.parametrize("bad", ["sm_70", "sm_20", "sm_81", "75", "compute_75"])
def test_targets_ptxas_cannot_assemble_for_are_refused_naming_the_valid_ones(bad):
    with pytest.raises(ConfigError, match=r"sm\.occupancy_arch.*device.*sm_75.*sm_121"):
        apply_overrides(GTX480, [f"sm.occupancy_arch={bad}"])


def test_device_and_ptxas_targets_are_accepted():
    assert GTX480.sm.occupancy_arch is OccupancyArch.DEVICE
    assert OccupancyArch.DEVICE.number is None
    assert apply_overrides(GTX480, ["sm.occupancy_arch=sm_86"]).sm.occupancy_arch.number == 86


@pytest.mark.parametrize("name, given", [("SM2_GTX480", 20), ("SM7_QV100", 70)])
def test_stock_config_targets_below_sm_75_are_raised_to_it_with_a_note(name, given, caplog):
    # the files say "-gpgpu_occupancy_sm_number 20" (GTX480) and "70" (QV100)
    with caplog.at_level(logging.WARNING, logger="warpsim.arch.gpgpusim_config"):
        cfg, unmapped = read_gpgpusim_config(STOCK / name / "gpgpusim.config")
    assert cfg.sm.occupancy_arch is OccupancyArch.SM_75
    assert not any(u.startswith("-gpgpu_occupancy_sm_number") for u in unmapped)
    note = caplog.records[-1].getMessage()
    assert f"-gpgpu_occupancy_sm_number {given} -> 'sm_75'" in note


def test_config_text_targets_map_directly():
    cfg, _ = read_gpgpusim_config("-gpgpu_occupancy_sm_number 86\n")
    assert cfg.sm.occupancy_arch is OccupancyArch.SM_86
    cfg, _ = read_gpgpusim_config("-gpgpu_occupancy_sm_number 0\n")
    assert cfg.sm.occupancy_arch is OccupancyArch.DEVICE
    with pytest.raises(ConfigError, match="occupancy_arch"):
        read_gpgpusim_config("-gpgpu_occupancy_sm_number 81\n")


def test_lower_ptx_target_only_lowers():
    ptx = ".version 9.0\n.target sm_80\n.address_size 64\n"
    assert lower_ptx_target(ptx, 75) == ".version 9.0\n.target sm_75\n.address_size 64\n"
    assert lower_ptx_target(ptx, 86) == ptx
    assert lower_ptx_target(".target sm_90a\n", 80) == ".target sm_80\n"


def test_launch_runs_with_the_occupancy_of_the_ptxas_target():
    """CTAs of 32 x 8 threads, 4,224 bytes of shared memory (32 x 33 floats) on gtx480:
    threads 1536 / 256 = 6, CTA slots 8, shared 49152 // 4224 = 11, registers
    32768 // (regs x 256): 64 registers (sm_75) -> 2 CTAs, 32 (sm_80) -> 4."""
    n = 64
    host = np.arange(n * n, dtype=np.float32)
    got = {}
    for arch, regs, ctas in (("device", 32, 4), ("sm_75", 64, 2)):
        dev = warpsim.Device(config="gtx480", overrides=[f"sm.occupancy_arch={arch}",
                                                         "sm.n_sms=1"])
        kernel = dev.compile(TRANSPOSE).get_kernel("transpose_tiled")
        assert kernel.get_regs_per_thread() == regs
        assert kernel.get_shared_mem_per_block() == 32 * 33 * 4
        src, dst = dev.to_device(host), dev.device_array(n * n, np.float32)
        kernel[(n // 32, n // 32), (32, 8)](src, dst, np.int32(n))
        launch = dev.last_launch
        assert launch.timing.occupancy["registers"] == ctas
        assert launch.timing.occupancy["ctas_per_sm"] == ctas
        np.testing.assert_array_equal(dst.copy_to_host().reshape(n, n), host.reshape(n, n).T)
        got[arch] = launch.stats
    # same work, fewer CTAs resident on the one SM
    assert got["sm_75"]["gpu_sim_insn"] == got["device"]["gpu_sim_insn"]
    assert got["sm_75"]["gpu_sim_cycle"] > got["device"]["gpu_sim_cycle"]
