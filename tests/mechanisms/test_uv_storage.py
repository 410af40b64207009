"""The spec's arithmetic examples for uniform vectors (specs/xiang-simt-efficiency.md §1.3,
§1.5, §1.6, §1.8, Table 1), computed from the GTX285 preset: structure sizes, the scalar lane
of the token design, and the Fig. 2 identity on the dissertation's own numbers."""

from __future__ import annotations

import pytest

from warpsim.arch import GTX285, apply_overrides
from warpsim.experiments.uv_analysis import PAPER
from warpsim.mechanisms.uniform_vectors.storage import num_sp, scalar_lane, storage_bits


def test_table1_structure_sizes():
    cfg = apply_overrides(GTX285, ["uniform_vectors.enabled=true"])
    # 64 KB register file = 16K registers = 512 vector registers: a 512-bit token file
    assert storage_bits(cfg) == {"vector_registers": 512, "token_file": 512,
                                 "srf": 128 * 32,            # 4096 bits
                                 "rename_table": 512 * 7,    # 3584 bits
                                 "irb": 8 * (10 + 3 * 32 + 32 + 3 + 8)}  # 1192 bits
    assert storage_bits(cfg)["irb"] == 1192
    rel = apply_overrides(cfg, ["uniform_vectors.reliability=true"])
    assert storage_bits(rel)["irb"] == 1192 + 8  # one parity bit per entry
    small = apply_overrides(cfg, ["uniform_vectors.n_srf_entries=64",
                                  "uniform_vectors.n_irb_entries=16"])
    assert storage_bits(small)["rename_table"] == 512 * 6
    assert storage_bits(small)["irb"] == 16 * (10 + 96 + 32 + 4 + 8)


def test_scalar_lane_and_issue_rate():
    assert num_sp(GTX285) == 8                       # one warp instruction per 4 cycles
    assert GTX285.pipelines.sfu.initiation_interval_cycles == 32 // 2  # 2 SFUs
    assert scalar_lane(32, 8) == 24                  # VRx.24, SP0's lane, the last batch
    assert scalar_lane(32, 16) == 16
    assert scalar_lane(32, 32) == 0
    simd16 = apply_overrides(GTX285, ["pipelines.fp32.initiation_interval_cycles=2"])
    assert scalar_lane(32, num_sp(simd16)) == 16
    with pytest.raises(ValueError):
        scalar_lane(32, 12)


def test_fig2_identity_on_the_papers_numbers():
    # combined = intra + inter / 32 (each inter-warp hit adds 1 to the 31 already counted)
    assert PAPER["intra_redundancy"] + PAPER["inter_redundancy"] / 32 == pytest.approx(
        PAPER["combined_redundancy"], abs=0.0005)     # 18.1 + 8.9/32 = 18.38
    assert PAPER["va_intra"] + PAPER["va_inter"] / 32 == pytest.approx(
        PAPER["va_combined"], abs=0.0005)             # 41.5 + 28.5/32 = 42.39
