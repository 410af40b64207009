"""``warpsim exec --stats`` on a program that faults: the records of the launches that ran, and
of the fault, are on disk as each launch completes (programs/fault.cu).

fault.cu scales 128 floats with ``scale<<<2, 64>>>`` (4 full warps, no divergence), checks them
on the host, then launches ``overrun<<<1, 32>>>``, which stores far past its allocation.
"""

from __future__ import annotations

import json
import subprocess
import sys

from cudart_programs import exec_env

EARLIER = '{"earlier": "run"}\n'


def _records(path):
    lines = path.read_text().splitlines(keepends=True)
    assert lines[0] == EARLIER  # what the file held before is kept
    return [json.loads(line) for line in lines[1:]]


def _check_scale(rec):
    assert rec["kernel"] == "_Z5scalePfi" and rec["status"] == "ok"
    assert rec["error_message"] is None and rec["launch_index"] == 0
    assert rec["grid"] == [2, 1, 1] and rec["block"] == [64, 1, 1]
    insn, warp_insn = rec["stats"]["gpu_sim_insn"], rec["stats"]["gpgpu_n_tot_w_icount"]
    assert warp_insn > 0 and warp_insn % 4 == 0 and insn == 32 * warp_insn


def test_faulting_program_keeps_its_records_and_records_the_fault(build, tmp_path):
    stats = tmp_path / "fault.jsonl"
    stats.write_text(EARLIER)
    proc = subprocess.run([sys.executable, "-m", "warpsim.cli", "exec", "--stats", str(stats),
                           "--", str(build("fault"))], capture_output=True, text=True,
                          env=exec_env(), timeout=300)
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout == ("scaled: ok\nFAIL cudaDeviceSynchronize(): an illegal memory access "
                           "was encountered\n")
    assert f"2 record(s) in {stats}" in proc.stderr and "Traceback" not in proc.stderr
    first, fault = _records(stats)
    _check_scale(first)
    assert fault["kernel"] == "_Z7overrunPfi" and fault["status"] == "fault"
    assert fault["launch_index"] == 1 and fault["grid"] == [1, 1, 1]
    assert "out-of-bounds access in global memory" in fault["error_message"]
    assert "_Z7overrunPfi" in fault["error_message"] and fault["stats"] == {}
    assert {r["exit_status"] for r in (first, fault)} == {1}
    assert {r["verified"] for r in (first, fault)} == {False}


def test_each_record_is_on_disk_when_its_launch_completes(build, tmp_path):
    stats = tmp_path / "live.jsonl"
    stats.write_text(EARLIER)
    proc = subprocess.Popen([sys.executable, "-m", "warpsim.cli", "exec", "--stats", str(stats),
                             "--", str(build("fault")), "wait"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=exec_env())
    try:
        assert proc.stdout.readline() == "scaled: ok\n"  # the program now waits on stdin
        (first,) = _records(stats)
        _check_scale(first)
        assert first["exit_status"] is None and first["verified"] is None  # not exited yet
        out, err = proc.communicate("go\n", timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 1, err
    assert out == "FAIL cudaDeviceSynchronize(): an illegal memory access was encountered\n"
    first, fault = _records(stats)
    assert fault["status"] == "fault" and first["exit_status"] == fault["exit_status"] == 1
