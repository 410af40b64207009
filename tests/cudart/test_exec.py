"""Unmodified CUDA programs (tests/cudart/programs) run under ``warpsim exec``.

Each program checks its own results and prints them; the expected output beside it
(``<name>.expected``) was written by hand from the program's arithmetic (an oracle independent
of warpsim).
"""

from __future__ import annotations

import json
import os
import subprocess

import pytest
from cudart_programs import PROGRAMS, exec_env, warpsim_exec

PROGRAM_NAMES = ("memory", "symbols", "textures", "pipeline", "managed", "printf",
                 "attributes", "graphs", "grid_sync", "surfaces", "host_register", "pools",
                 "textures3d", "mma", "mipmap", "graph_memory", "graph_update")


@pytest.mark.parametrize("name", PROGRAM_NAMES)
def test_program_prints_its_reference_output(build, name):
    exe = build(name)
    proc = warpsim_exec("--", str(exe))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout == (PROGRAMS / f"{name}.expected").read_text(), proc.stderr


def test_per_thread_default_stream_entry_points(build):
    """--default-stream per-thread makes nvcc call the _ptsz / _ptds entry points."""
    proc = warpsim_exec("--", str(build("pipeline", "--default-stream", "per-thread")))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout == (PROGRAMS / "pipeline.expected").read_text()


def test_unknown_attribute_is_named_on_stderr(build):
    proc = warpsim_exec("--", str(build("attributes")))
    assert ("warpsim: cudaDeviceGetAttribute: 9999 is not a cudaDeviceAttr (the CUDA 12/13 "
            "runtime numbers them 1 to 160)") in proc.stderr


def test_timed_gpu_reports_its_preset_in_properties(build, capfd):
    """GTX480's published figures (15 SMs at 700 MHz, 1536 threads, 32 Ki registers, 48 KiB
    shared memory, 8 blocks per SM, 768 KiB L2, 384-bit bus); compute capability stays 8.0."""
    from warpsim.cudart.cli import run_program

    status = run_program([str(build("attributes"))], config="gtx480")
    out = capfd.readouterr().out
    assert status == 0, out
    lines = dict(line.split(" ", 1) for line in out.splitlines() if line.count(" ") == 1)
    assert {k: lines[k] for k in (
        "clockRate", "multiProcessorCount", "major", "maxThreadsPerMultiProcessor",
        "maxBlocksPerMultiProcessor", "regsPerBlock", "regsPerMultiprocessor",
        "sharedMemPerBlock", "sharedMemPerMultiprocessor", "l2CacheSize",
        "memoryBusWidth")} == {
        "clockRate": "700000", "multiProcessorCount": "15", "major": "8",
        "maxThreadsPerMultiProcessor": "1536", "maxBlocksPerMultiProcessor": "8",
        "regsPerBlock": "32768", "regsPerMultiprocessor": "32768",
        "sharedMemPerBlock": "49152", "sharedMemPerMultiprocessor": "49152",
        "l2CacheSize": "786432", "memoryBusWidth": "384"}
    assert "properties agreeing with their attribute: 110 of 110" in out


def test_unsupported_call_fails_with_a_message_naming_it(build):
    proc = warpsim_exec("--", str(build("unsupported")))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout == (PROGRAMS / "unsupported.expected").read_text()
    assert "warpsim: cudaGraphAddChildGraphNode is not supported" in proc.stderr


def test_conditional_graph_nodes_and_an_unsupported_node_type(build):
    """IF/ELSE, WHILE (default reassigned per launch), SWITCH in a captured graph, set by the
    device-side cudaGraphSetConditional; expected values computed by hand in the .expected."""
    proc = warpsim_exec("--", str(build("graph_conditional")))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout == (PROGRAMS / "graph_conditional.expected").read_text(), proc.stderr
    assert ("warpsim: cudaGraphAddNode: node type cudaGraphNodeTypeWaitEvent (6) is not "
            "supported") in proc.stderr


@pytest.mark.parametrize("name", ["memory", "printf"])
def test_library_path_alone_starts_the_simulator(build, name):
    """GPGPU-Sim style: LD_LIBRARY_PATH set by hand, no `warpsim exec` (the spawned server
    shares the program's stdout: device printf text must still come only from the library)."""
    from warpsim.cudart.build import shim_dir

    env = exec_env()
    env["LD_LIBRARY_PATH"] = f"{shim_dir()}:{env.get('LD_LIBRARY_PATH', '')}"
    proc = subprocess.run([str(build(name))], capture_output=True, text=True, env=env,
                          timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout == (PROGRAMS / f"{name}.expected").read_text()


def test_timed_run_writes_one_record_per_launch(build, tmp_path, capfd):
    """In this process, so that the timing engine's compilation is shared with other tests."""
    from warpsim.cudart.cli import run_program

    stats = tmp_path / "stats.jsonl"
    status = run_program([str(build("symbols"))], config="gtx480", stats=str(stats),
                         per_kernel=True)
    captured = capfd.readouterr()
    out = captured.out
    assert status == 0, out
    assert out == (PROGRAMS / "symbols.expected").read_text()
    records = [json.loads(line) for line in stats.read_text().splitlines()]
    assert [r["kernel"] for r in records] == ["_Z4polyPKfPfi", "_Z10bump_tablef",
                                              "_Z10bump_tablef"]
    first = records[0]
    assert first["config"] == "gtx480" and first["verified"] is True
    assert first["grid"] == [4, 1, 1] and first["block"] == [64, 1, 1]
    # 256 threads run the 8-term polynomial: every thread instruction is counted
    assert first["stats"]["gpu_sim_cycle"] > 0
    assert first["stats"]["gpgpu_n_tot_w_icount"] * 32 >= first["stats"]["gpu_sim_insn"] > 0
    assert first["energy"]
    assert set(first) >= {"benchmark", "config", "overrides", "stats", "ctas_per_sm",
                          "wall_s", "per_launch"}
    # the per-kernel table on stderr sums the launches' records: bump_tablef ran twice
    table = captured.err.split("warpsim: per kernel\n")[1].splitlines()
    assert table[0].split() == ["kernel", "launches", "cycles", "thread", "insts", "IPC"]
    for row, name in zip(table[1:3], ("_Z4polyPKfPfi", "_Z10bump_tablef"), strict=True):
        mine = [r["stats"] for r in records if r["kernel"] == name]
        cycles = sum(m["gpu_sim_cycle"] for m in mine)
        insn = sum(m["gpu_sim_insn"] for m in mine)
        assert row.split() == [name, str(len(mine)), str(cycles), str(insn),
                               f"{insn / cycles:.2f}"]


def test_exec_takes_a_gpgpusim_config_with_its_booksim_file(build, tmp_path, capfd):
    """The stock GPGPU-Sim 4.2 SM2_GTX480 file (and config_fermi_islip.icnt beside it) times
    the run; its values (15 SMs x 1, 700 MHz core clock) reach the program's properties."""
    import shutil
    from pathlib import Path

    from warpsim.cudart.cli import run_program

    stock = Path(__file__).parents[1] / "arch" / "data" / "gpgpusim-4.2" / "SM2_GTX480"
    folder = tmp_path / "SM2_GTX480"
    shutil.copytree(stock, folder)
    stats = tmp_path / "stats.jsonl"
    status = run_program([str(build("symbols"))], stats=str(stats),
                         gpgpusim_config=str(folder / "gpgpusim.config"))
    captured = capfd.readouterr()
    assert status == 0, captured.out
    assert captured.out == (PROGRAMS / "symbols.expected").read_text()
    assert "cycles on sm2_gtx480" in captured.err
    first = json.loads(stats.read_text().splitlines()[0])
    assert first["config"] == "sm2_gtx480"
    assert first["gpgpusim_config"] == str(folder / "gpgpusim.config")
    assert first["stats"]["gpu_sim_cycle"] > 0


def test_exec_with_a_missing_gpgpusim_config_names_it(tmp_path):
    proc = warpsim_exec("--gpgpusim-config", str(tmp_path / "absent.config"), "--", "true")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "absent.config" in proc.stderr and "readable GPGPU-Sim option file" in proc.stderr


def test_statically_linked_program_is_refused_with_the_fix(tmp_path):
    src = tmp_path / "static.c"
    src.write_text('const char *s = "__cudaRegisterFatBinary";\n'
                   'int main(void) { return s[0] == 0; }\n')
    exe = tmp_path / "static"
    if subprocess.run(["gcc", "-o", str(exe), str(src)]).returncode != 0:
        pytest.skip("gcc cannot build a test program")
    proc = warpsim_exec("--", str(exe))
    assert proc.returncode == 2
    assert "links the CUDA runtime statically" in proc.stderr
    assert "-cudart shared" in proc.stderr


def test_missing_program_is_an_error():
    proc = warpsim_exec("--", os.path.join("no", "such", "program"))
    assert proc.returncode == 2 and "no such program" in proc.stderr


def test_launch_timeout_stops_a_long_kernel_and_the_program_sees_it(build):
    """A counting loop never repeats its state (no SpinError); --launch-timeout stops it."""
    proc = warpsim_exec("--launch-timeout", "1.5", "--", str(build("endless")))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert proc.stdout == "launch: failed\n"
    assert "count" in proc.stderr and "1.5" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.parametrize("value", ["abc", "0", "-3", "inf"])
def test_launch_timeout_must_be_a_positive_number(value):
    proc = warpsim_exec("--launch-timeout", value, "--", "true")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert f"launch timeout {value!r} is not a positive number of seconds" in proc.stderr


def test_failed_device_assert_is_a_sticky_cuda_error_with_the_driver_lines(build):
    proc = warpsim_exec("--", str(build("asserts")))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout == (PROGRAMS / "asserts.expected").read_text()
    for block, thread in ((0, 7), (1, 8)):
        assert (f"block: [{block},0,0], thread: [{thread},0,0] Assertion `x[i] > 0` failed."
                in proc.stderr), proc.stderr


def test_oob_report_lets_a_read_before_the_array_proceed_and_lists_it_at_exit(build):
    exe = str(build("oob_read"))
    strict = warpsim_exec("--", exe)
    assert strict.returncode == 1 and strict.stdout == "failed: cudaErrorIllegalAddress\n"
    proc = warpsim_exec("--oob", "report", "--", exe)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout == "y[1]=1 y[31]=61\n"  # x[i] + x[i-1] = 2i - 1
    assert "WARNING: 1 out-of-bounds global access(es)" in proc.stderr
    assert "_Z8left_sumPKiPii (1)" in proc.stderr and "thread (0, 0, 0)" in proc.stderr


def test_relocatable_device_code_build_runs(build):
    """-rdc=true links device code into SASS only; the unit's PTX kept in the executable's
    __nv_relfatbin runs instead (the same output as the whole-program build)."""
    proc = warpsim_exec("--", str(build("memory", "-rdc=true")))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == (PROGRAMS / "memory.expected").read_text(), proc.stderr


def test_dynamic_parallelism_program(build, tmp_path):
    # built with -rdc=true: nvlink's image is SASS only; the unit's PTX comes from the
    # executable's __nv_relfatbin (cudart/fatbin.relocatable_ptx)
    import json

    exe = build("dynamic_parallelism", "-rdc=true")
    stats = tmp_path / "dp.jsonl"
    proc = warpsim_exec("--config", "gtx480", "--stats", str(stats), "--", str(exe))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout == (PROGRAMS / "dynamic_parallelism.expected").read_text(), proc.stderr
    recs = [json.loads(line) for line in stats.read_text().splitlines()]
    # parent + 4 fills; square_then x3 (2 from the device); copy_back + its fill
    assert [r["launched_by"] for r in recs].count("device") == 7 and len(recs) == 10
    assert all(r["stats"]["gpu_sim_cycle"] > 0 for r in recs)
