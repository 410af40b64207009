"""The registry of warpsim's own benchmark suite: every benchmark, by name.

Follows: ARCHITECTURE.md §2 (`bench/`); reference/ptx-and-benchmarks.md §3 (registers per
thread, threads per block) and §5 (launch structure) of the published benchmarks resembled.
An explicit tuple, no import-time discovery (STYLE.md §2.2).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from warpsim.bench import (
    aes,
    b_plus_tree,
    backprop,
    bfs,
    bfs_queue,
    binomial_options,
    black_scholes,
    cfd,
    convolution_separable,
    cp,
    cutcp,
    dct8x8,
    dwt2d,
    dxtc,
    fast_walsh_transform,
    fdtd3d,
    fft,
    gaussian,
    heartwall,
    histo,
    histogram,
    hotspot,
    hotspot3d,
    hybridsort,
    kmeans,
    laplace3d,
    lava_md,
    lbm,
    leukocyte,
    lud,
    matrix_mul,
    matvec,
    md5,
    mersenne_twister,
    monte_carlo,
    monte_carlo_options,
    mri_q,
    mummer,
    myocyte,
    neural_net,
    nn,
    nqueens,
    nw,
    particlefilter,
    pathfinder,
    radix_sort,
    ray,
    reduction,
    sad,
    scalar_prod,
    scan,
    sgemm,
    sha1,
    sobel_filter,
    sorting_networks,
    spmv,
    srad,
    srad_v1,
    stencil,
    stencil_naive,
    streamcluster,
    tpacf,
    transpose,
    vector_add,
)
from warpsim.bench.spec import SIZES, Benchmark

__all__ = ["BENCHMARKS", "SIZES", "Benchmark", "kernel_resources"]

BENCHMARKS: dict[str, Benchmark] = {m.BENCHMARK.name: m.BENCHMARK for m in (
    # CUDA SDK
    vector_add, matrix_mul, transpose, reduction, scan, histogram, black_scholes,
    binomial_options, scalar_prod, convolution_separable, fast_walsh_transform,
    sorting_networks, radix_sort, dct8x8, sobel_filter, fdtd3d, mersenne_twister,
    monte_carlo_options, dxtc, fft, matvec,
    # Rodinia
    bfs, hotspot, hotspot3d, pathfinder, nw, srad, srad_v1, backprop, gaussian, lud, kmeans,
    nn, streamcluster, lava_md, b_plus_tree, cfd, heartwall, mummer, dwt2d, particlefilter,
    leukocyte, hybridsort, myocyte,
    # Parboil
    sgemm, mri_q, stencil, stencil_naive, spmv, cutcp, lbm, sad, tpacf, bfs_queue, histo,
    # ISPASS-2009
    monte_carlo, aes, nqueens, ray, cp, laplace3d, md5, sha1, neural_net,
)}
"""Every benchmark of the suite, keyed by name (SDK-like, Rodinia, Parboil, ISPASS-2009)."""


@cache
def kernel_resources(name: str, arch: str = "sm_80") -> dict[str, Any]:
    """ptxas resource usage of each kernel of benchmark ``name`` (compiled and cached once)."""
    from warpsim.toolchain import compile_cuda, resource_usage

    bench = BENCHMARKS[name]
    return dict(resource_usage(compile_cuda(bench.source, arch=arch), arch=arch))
