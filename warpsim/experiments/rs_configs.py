"""Configurations and benchmarks of the Register-Sharing reproduction (Jatala et al.).

The paper's Table 1 GPU (Tesla C2050-like GPGPU-Sim 3.x, spec §7.2-§7.3: the ``c2050``
preset with its Table 1 values pinned), the configurations of spec §7.7 under their printed
labels, the threshold sweep of Tables 4/5 (spec §7.8), and our Set-1-like (register-limited on
C2050, where sharing launches extra blocks) and Set-2-like (not register-limited) benchmarks.
``experiment_jobs`` turns them into the runner's ``Job`` list.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from warpsim.runner.jobs import Job

__all__ = [
    "C2050_OVERRIDES",
    "CONFIGS",
    "FULL",
    "QUICK",
    "RSConfig",
    "SET1_CONFIGS",
    "SET2_CONFIGS",
    "THRESHOLDS",
    "BenchSel",
    "experiment_jobs",
    "threshold_label",
]

GPU = "c2050"
C2050_OVERRIDES: dict[str, Any] = {
    "sm.n_sms": 14, "sm.n_max_ctas": 8, "sm.n_max_threads": 1536, "shmem.size_bytes": 49152,
    "l1d.size_bytes": 16384, "sm.n_registers": 32768, "sm.n_schedulers": 2,
    "sm.sched_policy": "lrr", "sm.n_two_level_active_warps": 6,
}
"""Table 1 (spec §7.2) pinned over the ``c2050`` preset (equal to its values today, so they
change no job id); the rest of spec §7.3 (clocks, DRAM, caches) is the preset's."""


@dataclass(frozen=True, slots=True)
class RSConfig:
    """One evaluated configuration: its printed label, scheduler, extra overrides and the
    ``register_sharing`` parameters (None = unshared)."""

    label: str
    sched: str
    sharing: dict[str, Any] | None = None
    overrides: tuple[tuple[str, Any], ...] = ()

    def job(self, benchmark: str, size: str, gpu: dict[str, Any] | None = None) -> Job:
        """The runner job of this configuration on ``benchmark`` at ``size``; ``gpu`` replaces
        :data:`C2050_OVERRIDES` (the quick run's scaled-down GPU)."""
        over = {**(C2050_OVERRIDES if gpu is None else gpu), "sm.sched_policy": self.sched,
                **dict(self.overrides)}
        mechs = () if self.sharing is None else \
            (("register_sharing", tuple(sorted(self.sharing.items()))),)
        return Job(benchmark=benchmark, size=size, gpu=GPU, overrides=tuple(over.items()),
                   mechanisms=mechs, label=self.label)


_UD = {"unroll_reorder": True, "dwe": True}
CONFIGS: dict[str, RSConfig] = {c.label: c for c in (
    RSConfig("Unshared-LRR", "lrr"),
    RSConfig("Unshared-GTO", "gto"),
    RSConfig("Unshared-two-level", "two_level"),
    RSConfig("Unshared-LRR-Reg#65536", "lrr",
             overrides=(("sm.n_registers", 65536), ("sm.n_max_regs_per_cta", 65536))),
    RSConfig("Shared-LRR-NoOpt", "lrr", {}),
    RSConfig("Shared-LRR-Unrolled", "lrr", {"unroll_reorder": True}),
    RSConfig("Shared-LRR-Unrolled-Dyn", "lrr", dict(_UD)),
    RSConfig("Shared-OWF-Unroll-Dyn", "lrr", {"owf": True, **_UD}),
    RSConfig("Shared-GTO-Unroll-Dyn", "gto", dict(_UD)),
)}
"""Spec §7.7's configurations (threshold t = 0.1, the config default, unless stated)."""

THRESHOLDS = (1.0, 0.9, 0.7, 0.5, 0.3, 0.1)
"""Tables 4/5: 0, 10, 30, 50, 70, 90 % sharing."""


def threshold_label(t: float) -> str:
    """Label of Shared-OWF-Unroll-Dyn at threshold ``t`` (t = 0.1 is the main configuration)."""
    return "Shared-OWF-Unroll-Dyn" if t == 0.1 else f"Shared-OWF-Unroll-Dyn@t={t:g}"


for _t in THRESHOLDS[:-1]:
    CONFIGS[threshold_label(_t)] = RSConfig(threshold_label(_t), "lrr",
                                            {"owf": True, **_UD, "threshold_frac": _t})

SET1_CONFIGS = tuple(CONFIGS)
"""Everything runs on the register-limited benchmarks."""
SET2_CONFIGS = ("Unshared-LRR", "Unshared-GTO", "Shared-LRR-Unrolled-Dyn",
                "Shared-GTO-Unroll-Dyn", "Shared-OWF-Unroll-Dyn")
"""Fig. 15's configurations on the non-limited benchmarks."""


@dataclass(frozen=True, slots=True)
class BenchSel:
    """Benchmarks of one run: ``set1``/``set2`` map benchmark -> (size, kernel whose IPC is
    reported: the paper reports per kernel; None = the whole benchmark)."""

    set1: dict[str, tuple[str, str | None]]
    set2: dict[str, tuple[str, str | None]]


# Set-1-like: register-limited on C2050 with extra blocks at t = 0.1 (``warpsim occupancy``)
# and enough blocks at that size to fill the extra slots (14 SMs x M); the paper's app each
# resembles and the blocks per SM in comments. Set-2-like: no kernel gets an extra block at
# any t (thread-, block- or register-tie-limited). Sizes: "small" (seconds per run).
QUICK = BenchSel(
    set1={"hotspot": ("small", "calculate_temp"),          # hotspot: 26 regs x 256, 4 -> 6
          "b_plus_tree": ("small", "find_k"),              # b+tree: 28 x 256, 4 -> 6
          "sobel_filter": ("small", "sobel_shared")},      # 28 x 256, 4 -> 6
    set2={"nn": ("small", None), "vector_add": ("small", None)},
)
FULL = BenchSel(
    set1={**QUICK.set1,
          "srad": ("small", "srad_1"),                     # 23 x 256, 5 -> 6 (backprop/mri-q)
          "stencil": ("small+nx=256,ny=256,iterations=1",  # stencil: 40 x 128, 6 -> 8
                      "block2d_hybrid_coarsen_x"),
          "laplace3d": ("small+nx=128,ny=128,iterations=1", "gpu_laplace3d"),  # 40 x 128
          "hotspot3d": ("small+nx=512,ny=256,iterations=1", "hotspot_opt1"),   # 37 x 256, 3 -> 5
          "ray": ("small", "render"),                      # 35 x 128, 7 -> 8 (LIB-like gain)
          "sgemm": ("small+m=768,n=768", "sgemm_nt")},     # sgemm: 44 x 128, 5 -> 8
    set2={**QUICK.set2, "pathfinder": ("small", None), "backprop": ("small", None),
          "gaussian": ("small", None)},
)
"""Sizes ``"small+key=value,..."`` override parameters of the named size
(``rs_jobs.split_size``) so that one launch has more blocks than 14 SMs x M."""


def experiment_jobs(sel: BenchSel, set1_labels: tuple[str, ...] = SET1_CONFIGS,
                    set2_labels: tuple[str, ...] = SET2_CONFIGS,
                    gpu: dict[str, Any] | None = None) -> list[Job]:
    """Every job of the reproduction: Set-1 x ``set1_labels``, Set-2 x ``set2_labels``,
    grouped by benchmark, on ``gpu`` (overrides of the c2050 preset; default
    :data:`C2050_OVERRIDES`)."""
    jobs = []
    for group, labels in ((sel.set1, set1_labels), (sel.set2, set2_labels)):
        for bench, (size, _kernel) in group.items():
            jobs.extend(CONFIGS[label].job(bench, size, gpu) for label in labels)
    return jobs
