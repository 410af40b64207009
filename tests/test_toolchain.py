"""Tests of warpsim.toolchain: CUDA -> PTX with NVRTC / nvcc, ptxas resource usage, the cache.

Expected values come from the kernels' source (entry names, declared shared and local arrays,
parameter sizes counted by hand), from hand-written ptxas reports, and from the CUDA rule that
on sm_70+ kernel parameters start at byte 0x160 of constant bank 0.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from warpsim import toolchain
from warpsim.errors import CompileError, ConfigError
from warpsim.toolchain import CompiledPTX, compile_cuda, resource_usage, toolchain_info

KERNELS_DIR = Path(__file__).parent / "kernels"
CORPUS = sorted(p.stem for p in KERNELS_DIR.glob("*.cu"))
HAVE_COMPILER = toolchain_info()["backend"] is not None
HAVE_NVCC = toolchain._find_nvcc() is not None
needs_compiler = pytest.mark.skipif(not HAVE_COMPILER, reason="no CUDA compiler installed")
needs_nvcc = pytest.mark.skipif(not HAVE_NVCC, reason="no nvcc installed")

EXPECTED_ENTRIES = {
    "accumulate_loop": {"row_sums", "grid_stride_saxpy", "prefix_count"},
    "atomics": {"histogram256", "global_atomics", "cas_float_max", "atomic_add_wide",
                "claim_slots", "shared_atomics"},
    "bit_ops": {"bit_counts", "bit_perms", "bit_fields"},
    "const_globals": {"poly_const", "table_lookup", "set_scale"},
    "conversions": {"float_to_int", "int_to_float", "saturate_and_narrow"},
    "divergence": {"parity_branch", "nested_branch", "collatz_steps", "first_match",
                   "switch_op"},
    "double_math": {"double_ops", "double_exp_log", "newton_rsqrt"},
    "dynamic_shared": {"reverse_dynamic"},
    "float_math": {"fast_math", "exact_math"},
    "grid3d": {"stencil2d", "volume_index", "block_coords"},
    "int64_math": {"wide_mul", "u64_ops", "s64_ops", "add128_asm", "add128_int128"},
    "local_array": {"local_histogram", "local_sort8"},
    "matmul_tiled": {"matmul_tiled"},
    "narrow_types": {"rgb_to_gray", "add_sat_s16", "signed_bytes", "pack_char4"},
    "reduce_shared": {"reduce_sum", "reduce_max_int"},
    "sgemm_regblock": {"sgemm_4x4", "poly_chain"},
    "struct_param": {"affine_struct", "struct_and_scalars"},
    "templated": {"_Z4axpyIfEvT_PKS0_PS0_i", "_Z4axpyIdEvT_PKS0_PS0_i",
                  "_Z4axpyIiEvT_PKS0_PS0_i", "_Z10sum_windowILi4EEvPKfPfi", "_Z9scale_cppPffi"},
    "texture": {"tex1d_gather", "tex2d_sample"},
    "vector_add": {"vec_add", "vec_add_int"},
    "warp_reduce": {"warp_sum_shfl", "warp_vote", "warp_redux", "warp_allreduce_bcast",
                    "block_sum_atomic"},
}

VEC_ADD = """extern "C" __global__ void vec_add(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
"""


def _entries(ptx: str) -> set[str]:
    return set(re.findall(r"\.entry\s+([\w$]+)", ptx))


def _check_ptx(ptx: str, name: str) -> None:
    assert re.search(r"^\.version 9\.\d+$", ptx, re.M), "PTX ISA 9.x expected"
    assert re.search(r"^\.target sm_80$", ptx, re.M)
    assert _entries(ptx) == EXPECTED_ENTRIES[name]


# --------------------------------------------------------------------------- the corpus


def test_corpus_is_complete_and_documented() -> None:
    assert len(CORPUS) >= 16
    assert set(CORPUS) == set(EXPECTED_ENTRIES)
    for name in CORPUS:
        text = (KERNELS_DIR / f"{name}.cu").read_text()
        assert text.startswith(f"// {name}.cu: "), name
        header = text[: text.index("\n\n")]
        for entry in EXPECTED_ENTRIES[name]:
            assert entry in header, f"{name}.cu header does not document {entry}"


@needs_compiler
@pytest.mark.parametrize("name", CORPUS)
def test_corpus_compiles_with_default_backend(name: str, corpus_ptx: Callable[[str], str]) -> None:
    _check_ptx(corpus_ptx(name), name)
    again = compile_cuda(KERNELS_DIR / f"{name}.cu")  # cache hit: same text, and its log
    assert "warning" not in again.log.lower()


@needs_nvcc
@pytest.mark.parametrize("name", CORPUS)
def test_corpus_compiles_with_nvcc(name: str) -> None:
    result = compile_cuda(KERNELS_DIR / f"{name}.cu", backend="nvcc")
    assert result.backend == "nvcc"
    assert "warning" not in result.log.lower()
    _check_ptx(result.ptx, name)


@needs_compiler
def test_compiled_ptx_records_how_it_was_made(tmp_path: Path) -> None:
    from_text = compile_cuda(VEC_ADD)
    assert isinstance(from_text, CompiledPTX)
    assert from_text.source_file is None and from_text.arch == "sm_80"
    assert from_text.backend in ("nvrtc", "nvcc")
    path = tmp_path / "va.cu"
    path.write_text(VEC_ADD)
    from_path = compile_cuda(path)
    assert from_path.source_file == str(path)
    assert _entries(from_path.ptx) == {"vec_add"}
    assert compile_cuda(str(path)).ptx == from_path.ptx


# --------------------------------------------------------------------------- resources


def test_vector_add_is_a_tiny_kernel(corpus_resources: Callable) -> None:
    res = corpus_resources("vector_add")["vec_add"]
    assert 4 <= res.registers < 16
    assert (res.shared_bytes, res.local_bytes, res.barriers) == (0, 0, 0)


def test_static_shared_bytes_are_exactly_the_declared_arrays(corpus_resources: Callable) -> None:
    assert corpus_resources("dynamic_shared")["reverse_dynamic"].shared_bytes == 128 * 4
    assert corpus_resources("matmul_tiled")["matmul_tiled"].shared_bytes == 2 * 16 * 16 * 4
    assert corpus_resources("reduce_shared")["reduce_sum"].shared_bytes == 256 * 4
    assert corpus_resources("atomics")["histogram256"].shared_bytes == 256 * 4
    assert corpus_resources("sgemm_regblock")["sgemm_4x4"].shared_bytes == 2 * 8 * 64 * 4


def test_dynamically_indexed_arrays_live_in_local_memory(corpus_resources: Callable) -> None:
    res = corpus_resources("local_array")
    assert res["local_histogram"].local_bytes >= 64 * 4
    assert res["local_sort8"].local_bytes >= 8 * 4


def test_barrier_use_follows_syncthreads(corpus_resources: Callable) -> None:
    assert corpus_resources("matmul_tiled")["matmul_tiled"].barriers == 1
    assert corpus_resources("dynamic_shared")["reverse_dynamic"].barriers == 1
    assert corpus_resources("vector_add")["vec_add"].barriers == 0


def test_register_heavy_kernel_uses_many_registers(corpus_resources: Callable) -> None:
    heavy = corpus_resources("sgemm_regblock")["sgemm_4x4"]
    assert 40 <= heavy.registers <= 64
    assert heavy.registers > corpus_resources("vector_add")["vec_add"].registers
    assert heavy.spill_store_bytes == heavy.spill_load_bytes == 0


@pytest.mark.parametrize(("name", "kernel", "param_bytes"), [
    ("vector_add", "vec_add", 3 * 8 + 4),
    ("const_globals", "set_scale", 4),
    ("struct_param", "affine_struct", 64),
    ("struct_param", "struct_and_scalars", 4 + 16 + 4 + 8 + 8),  # int, Affine, pad, double, ptr
    ("texture", "tex1d_gather", 8 + 8 + 8 + 4),
])
def test_cmem0_holds_the_kernel_parameters(corpus_resources: Callable, name: str, kernel: str,
                                           param_bytes: int) -> None:
    assert corpus_resources(name)[kernel].const_bytes == 0x160 + param_bytes


@needs_compiler
def test_func_entries_are_reported_only_on_request(corpus_ptx: Callable) -> None:
    ptx = corpus_ptx("double_math")
    funcs = set(re.findall(r"^\.func\s+(?:\([^)]*\)\s*)?([\w$]+)", ptx, re.M))
    assert funcs, "pow() should make the compiler emit a .func"
    kernels_only = resource_usage(ptx)
    everything = resource_usage(ptx, include_functions=True)
    assert set(kernels_only) == EXPECTED_ENTRIES["double_math"]
    assert set(everything) == EXPECTED_ENTRIES["double_math"] | funcs
    assert not any(everything[f].is_entry for f in funcs)


def test_ptxas_report_parsing_new_and_old_formats() -> None:
    report = """ptxas info    : 4 bytes gmem, 64 bytes cmem[3]
ptxas info    : Compiling entry function 'kern' for 'sm_80'
ptxas info    : Function properties for kern
    256 bytes stack frame, 8 bytes spill stores, 12 bytes spill loads
ptxas info    : Used 40 registers, used 1 barriers, 272 bytes cumulative stack size, 512 bytes smem, 364 bytes cmem[0], 176 bytes cmem[2]
ptxas info    : Function properties for helper
    16 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Compiling entry function '_Z3oldPi' for 'sm_20'
ptxas info    : Used 10 registers, 40 bytes lmem, 48+16 bytes smem, 40 bytes cmem[0]
"""  # noqa: E501
    got = toolchain._parse_ptxas(report, {"kern", "_Z3oldPi"})
    kern = got["kern"]
    assert (kern.registers, kern.barriers, kern.shared_bytes, kern.const_bytes) == (40, 1, 512, 364)
    assert (kern.local_bytes, kern.spill_store_bytes, kern.spill_load_bytes) == (272, 8, 12)
    old = got["_Z3oldPi"]
    assert (old.registers, old.local_bytes, old.shared_bytes, old.const_bytes) == (10, 40, 64, 40)
    helper = got["helper"]
    assert not helper.is_entry and helper.local_bytes == 16 and helper.registers == 0


def test_ptxas_of_the_producing_release_is_tried_first(monkeypatch: pytest.MonkeyPatch) -> None:
    versions = {"/a/ptxas": (12, 4, 1), "/b/ptxas": (13, 0, 88), "/c/ptxas": (13, 5, 37),
                "/d/ptxas": (13, 2, 0)}
    monkeypatch.setattr(toolchain, "_find_ptxas", lambda: [Path(p) for p in versions])
    monkeypatch.setattr(toolchain, "_tool_version", lambda p: versions[p])
    order = [str(p) for p, _ in toolchain._ptxas_order("// Cuda compilation tools, release 13.0")]
    assert order == ["/b/ptxas", "/d/ptxas", "/c/ptxas", "/a/ptxas"]
    order = [str(p) for p, _ in toolchain._ptxas_order(".version 9.0")]  # unknown producer
    assert order[0] == "/c/ptxas"


def test_too_old_ptxas_falls_back_to_the_next(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WARPSIM_NO_CACHE", "1")
    monkeypatch.setattr(toolchain, "_find_ptxas", lambda: [Path("/old"), Path("/new")])
    monkeypatch.setattr(toolchain, "_tool_version",
                        lambda p: {"/old": (13, 5, 0), "/new": (13, 6, 0)}[p])
    report = ("ptxas info    : Compiling entry function 'k' for 'sm_80'\n"
              "ptxas info    : Used 7 registers, 356 bytes cmem[0]\n")

    def fake_run(ptxas: Path, ptx: str, arch: str) -> tuple[int, str]:
        if str(ptxas) == "/old":
            return 255, "ptxas fatal   : Unsupported .version 9.6; current version is '9.5'"
        return 0, report

    monkeypatch.setattr(toolchain, "_run_ptxas", fake_run)
    ptx = "// Cuda compilation tools, release 13.5\n.version 9.6\n.visible .entry k()\n"
    assert resource_usage(ptx)["k"].registers == 7


# --------------------------------------------------------------------------- cache


@needs_compiler
def test_cache_hit_does_not_invoke_the_compiler(monkeypatch: pytest.MonkeyPatch,
                                                tmp_path: Path) -> None:
    monkeypatch.setenv("WARPSIM_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("WARPSIM_NO_CACHE", raising=False)
    source = VEC_ADD + "// cache test\n"
    first = compile_cuda(source)
    usage = resource_usage(first.ptx)

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("compiler invoked on a cache hit")

    for fn in ("_compile_nvrtc", "_compile_nvcc", "_run_ptxas"):
        monkeypatch.setattr(toolchain, fn, refuse)
    second = compile_cuda(source)
    assert second == first
    assert resource_usage(first.ptx) == usage
    stored = list(tmp_path.rglob("*"))
    assert any(p.suffix == ".json" for p in stored)
    assert not any(p.name.endswith(".tmp") for p in stored)
    monkeypatch.setenv("WARPSIM_NO_CACHE", "1")
    with pytest.raises(AssertionError, match="cache hit"):
        compile_cuda(source)


@needs_compiler
def test_cache_key_follows_included_headers(monkeypatch: pytest.MonkeyPatch,
                                            tmp_path: Path) -> None:
    monkeypatch.setenv("WARPSIM_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("WARPSIM_NO_CACHE", raising=False)
    (tmp_path / "scale.h").write_text("#define SCALE 3.0f\n")
    kernel = tmp_path / "scaled.cu"
    kernel.write_text('#include "scale.h"\n'
                      'extern "C" __global__ void k(float* x) { x[threadIdx.x] *= SCALE; }\n')
    first = compile_cuda(kernel).ptx
    (tmp_path / "scale.h").write_text("#define SCALE 5.0f\n")
    second = compile_cuda(kernel).ptx
    assert first != second
    assert "0f40A00000" in second  # 5.0f


# --------------------------------------------------------------------------- errors


BROKEN = """extern "C" __global__ void broken(int* out)
{
    int i = threadIdx.x;
    out[i] = i + undeclared_value;
}
"""


@pytest.mark.parametrize("backend", [
    pytest.param("nvrtc", marks=pytest.mark.skipif(toolchain._find_nvrtc() is None,
                                                   reason="no NVRTC")),
    pytest.param("nvcc", marks=needs_nvcc),
])
def test_syntax_error_names_the_file_and_line(backend: str, tmp_path: Path) -> None:
    path = tmp_path / "broken_kernel.cu"
    path.write_text(BROKEN)
    with pytest.raises(CompileError) as info:
        compile_cuda(path, backend=backend)
    err = info.value
    assert err.file == str(path)
    assert err.line == 4
    assert "undeclared_value" in str(err)
    assert f"{path}:4" in str(err)
    assert f"{path}(4)" in err.log


@needs_compiler
def test_error_in_text_source_uses_the_given_name() -> None:
    with pytest.raises(CompileError) as info:
        compile_cuda(BROKEN, name="my_kernel.cu")
    assert (info.value.file, info.value.line) == ("my_kernel.cu", 4)


def test_missing_compiler_names_the_pip_package(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("WARPSIM_CUDA_BACKEND", raising=False)
    monkeypatch.setattr(toolchain, "_find_nvrtc", lambda: None)
    monkeypatch.setattr(toolchain, "_find_nvcc", lambda: None)
    with pytest.raises(CompileError, match="pip install nvidia-cuda-nvrtc"):
        compile_cuda(VEC_ADD)
    with pytest.raises(CompileError, match="pip install nvidia-cuda-nvcc"):
        compile_cuda(VEC_ADD, backend="nvcc")
    with pytest.raises(CompileError, match="pip install nvidia-cuda-nvrtc"):
        compile_cuda(VEC_ADD, backend="nvrtc")
    assert toolchain_info()["backend"] is None


def test_missing_ptxas_names_the_pip_package(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(toolchain, "_find_ptxas", lambda: [])
    with pytest.raises(CompileError, match="pip install nvidia-cuda-nvcc"):
        resource_usage(".version 9.0\n.target sm_80\n")


@pytest.mark.parametrize("arch", ["sm80", "80", "sm_8", "gfx90a", "sm_80x"])
def test_malformed_arch_is_a_config_error(arch: str) -> None:
    with pytest.raises(ConfigError) as info:
        compile_cuda(VEC_ADD, arch=arch)
    assert info.value.field == "arch" and info.value.value == arch


@needs_compiler
def test_unsupported_arch_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="sm_80"):
        compile_cuda(VEC_ADD, arch="sm_81")


def test_unknown_backend_is_a_config_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WARPSIM_CUDA_BACKEND", "clang")
    with pytest.raises(ConfigError, match="WARPSIM_CUDA_BACKEND"):
        compile_cuda(VEC_ADD)


def test_missing_source_file_is_a_compile_error(tmp_path: Path) -> None:
    with pytest.raises(CompileError, match="cannot read"):
        compile_cuda(tmp_path / "nope.cu")


@needs_compiler
def test_toolchain_info_reports_backend_and_tools() -> None:
    info = toolchain_info()
    assert info["backend"] in ("nvrtc", "nvcc")
    assert "cache_dir" in info and "backend_setting" in info
    if info["nvrtc"] is not None:
        assert re.fullmatch(r"\d+\.\d+", info["nvrtc"]["version"])
        assert "sm_80" in info["nvrtc"]["archs"]
    assert all(re.match(r"\d+\.\d+", p["version"]) for p in info["ptxas"])
