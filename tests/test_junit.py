"""`report RUN --format junit`: JUnit XML a CI system reads, one testcase per run of a real run."""

import os
import sys
import xml.etree.ElementTree as ET

import pytest
from conftest import crashmatrix

pytestmark = pytest.mark.slow  # real runs (report's live cell is test_report's)

# A real program: pass, death by SIGSEGV, exit 3 with markup and a terminal escape in its error line, a skip
# reported through CRASHMATRIX_REPORT. The skip run of repeat 0 deletes the program, so every run of
# repeat 1 cannot launch: real `error` rows.
TOOL = """\
import json, os, sys
mode = sys.argv[1].split("=", 1)[1]
if mode == "segv":
    os.kill(os.getpid(), 11)
if mode == "exit3":
    print("ValueError: bad <value> & \\x1b[31mred\\x1b[0m", file=sys.stderr)
    sys.exit(3)
if mode == "skip":
    with open(os.environ["CRASHMATRIX_REPORT"], "w") as f:
        json.dump({"status": "skip", "reason": "no bf16 here"}, f)
    os.remove(__file__)
"""
MATRIX = """\
name: ci
command: [./tool]
axes:
  mode: [pass, segv, exit3, skip]
repeats: 2
"""


def test_junit_has_one_testcase_per_run_and_names_the_signal(tmp_path):
    (tmp_path / "tool").write_text(f"#!{sys.executable}\n" + TOOL)
    os.chmod(tmp_path / "tool", 0o755)
    (tmp_path / "m.yaml").write_text(MATRIX)
    assert crashmatrix("run", "m.yaml", "--out", "run", cwd=tmp_path).returncode == 0
    proc = crashmatrix("report", "run", "--format", "junit", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr

    root = ET.fromstring(proc.stdout.encode())  # bytes: the text carries its XML declaration
    assert root.tag == "testsuites"
    [suite] = root.findall("testsuite")
    cases = suite.findall("testcase")
    assert len(cases) == 8 and {c.get("classname") for c in cases} == {"ci"}
    by_name = {c.get("name").split(" ", 1)[1]: c for c in cases}  # "<cell_id> r<k> mode=..." without the id
    assert set(by_name) == {f"r{k} mode={m}" for k in (0, 1) for m in ("pass", "segv", "exit3", "skip")}

    assert list(by_name["r0 mode=pass"]) == []
    segv = by_name["r0 mode=segv"].find("failure")
    assert (
        segv.get("message") == "crash SIGSEGV: Fatal Python error: Segmentation fault" and segv.get("type") == "crash"
    )
    exit3 = by_name["r0 mode=exit3"].find("failure")
    assert exit3.get("message") == "fail: ValueError: bad <value> & red"  # no escape codes, no control characters
    assert by_name["r0 mode=skip"].find("skipped").get("message") == "no bf16 here"
    error = by_name["r1 mode=pass"].find("error")
    assert error.get("message").startswith(f"error: cannot launch {tmp_path / 'tool'}")  # found before the run

    for element in (root, suite):
        counts = {k: element.get(k) for k in ("tests", "failures", "errors", "skipped")}
        assert counts == {"tests": "8", "failures": "2", "errors": "4", "skipped": "1"}
    assert abs(float(suite.get("time")) - sum(float(c.get("time")) for c in cases)) < 0.01
    assert float(by_name["r0 mode=segv"].get("time")) > 0


def test_junit_with_by_is_bad_input(tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    (run / "results.csv").write_text("cell_id,repeat,mode,outcome,signal,exit_code,error,duration_s,host,log_dir\n")
    proc = crashmatrix("report", run, "--format", "junit", "--by", "mode", cwd=tmp_path)
    assert proc.returncode == 2 and "--by does not apply" in proc.stderr
    empty = crashmatrix("report", run, "--format", "junit", cwd=tmp_path)
    assert empty.returncode == 0 and ET.fromstring(empty.stdout.encode()).find("testsuite").get("tests") == "0"
