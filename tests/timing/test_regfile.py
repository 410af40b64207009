"""Register banks and the operand collector: bank mapping, conflicts, GPGPU-Sim 3.2.2 vs 4.x
collector reads. Cycle counts follow test_engine_alu.py's pipeline timing."""

from __future__ import annotations

from timing_helpers import EXIT, Inst, rec, simulate, small_config

from warpsim.timing.consts import BANK_MAP_LINEAR, BANK_MAP_SUB_CORE, BANK_MAP_WARP_SKEWED
from warpsim.timing.regfile import bank_of

X = Inst("exit", kind=EXIT)
GPGPUSIM_4X = {"regfile.collector_single_read_per_cycle": False}


def test_bank_is_register_plus_warp_modulo_banks():
    assert bank_of(3, 0, 0, 16, 2, BANK_MAP_WARP_SKEWED) == 3
    assert bank_of(3, 14, 0, 16, 2, BANK_MAP_WARP_SKEWED) == 1
    assert bank_of(19, 5, 1, 16, 2, BANK_MAP_LINEAR) == 3
    # sub-core: 8 banks per scheduler; scheduler 1 owns banks 8..15
    assert bank_of(3, 6, 1, 16, 2, BANK_MAP_SUB_CORE) == 8 + (3 + 6) % 8


def _chain(reads, n=8):
    insts = [Inst("add", reads=reads, writes=(reads[0],)) for _ in range(n)] + [X]
    return simulate(small_config(**GPGPUSIM_4X), insts, [[rec(i) for i in range(n + 1)]])


def test_two_sources_in_one_bank_cost_an_extra_cycle_with_multi_read_collectors():
    # 4.x: r2 and r3 (banks 2, 3) are read in the same cycle: 7 cycles per link;
    # r2 and r18 (both bank 2) take two cycles: 8 per link, one conflict per instruction
    different = _chain((2, 3))
    same = _chain((2, 18))
    assert different.cycles == 3 + 7 * 8
    assert same.cycles == 3 + 8 * 8
    assert different.stats["regfile_bank_conflict_stalls"] == 0
    assert same.stats["regfile_bank_conflict_stalls"] == 8


def test_collectors_of_two_warps_conflict_on_a_shared_bank():
    # two schedulers issue warp 0 (reads r1 -> bank 1) and warp 1 in cycle 2; both collectors
    # read in cycle 4. Warp 1 reading r0 also hits bank (0 + 1) % 16 = 1: one waits a cycle.
    cfg = small_config(**{"sm.n_schedulers": 2, "sm.n_fetch_per_cycle": 2})

    def run(reg):
        insts = [Inst("add", reads=(1,), writes=(3,), n_imm=1),
                 Inst("add", reads=(reg,), writes=(4,), n_imm=1), X]
        return simulate(cfg, insts, [[rec(0), rec(2)], [rec(1), rec(2)]], wpc=2)

    conflict, free = run(0), run(2)
    assert free.cycles == 10  # dispatch 5, writeback 9
    assert conflict.cycles == 11
    assert free.stats["regfile_bank_conflict_stalls"] == 0
    assert conflict.stats["regfile_bank_conflict_stalls"] == 1


def test_immediates_are_non_register_file_operands():
    insts = [Inst("add", reads=(1,), writes=(1,), n_imm=1), X]
    r = simulate(small_config(), insts, [[rec(0), rec(1)]])
    assert r.stats["regfile_non_rf_operands"] == 1


def test_write_wins_bank_over_read():
    # GTO: warp 0 issues adds writing r1, r2, r3 at 2, 3, 4 (written back at 9, 10, 11); warp 1
    # then issues adds reading r0, which for warp 1 lives in bank 1, like warp 0's r1. Its
    # collector would read in cycle 9 but r1's write takes bank 1: the read waits (and its
    # successor then follows it), 2 conflicts and one cycle more than without the collision.
    cfg = small_config(**{"sm.n_fetch_per_cycle": 2})

    def run(first_dst):
        insts = [Inst("add", reads=(0,), writes=(first_dst + i,), n_imm=1)
                 for i in range(3)] + [X]
        return simulate(cfg, insts, [[rec(0), rec(1), rec(2), rec(3)]] * 2, wpc=2)

    collide, apart = run(1), run(4)
    assert apart.cycles == 16
    assert collide.cycles == 17
    assert collide.stats["regfile_bank_conflict_stalls"] == 2
    assert apart.stats["regfile_bank_conflict_stalls"] == 0
