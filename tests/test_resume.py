"""A controller killed with SIGKILL loses at most the runs in flight; Ctrl-C stops everything within 2 s."""

import glob
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter

import pytest
from conftest import ROOT, crashmatrix, processes_with, rows_of

pytestmark = pytest.mark.slow  # runs killed and resumed

# Cells that take a moment each (a real sleep in the child, not in the test), some of them crashing.
MATRIX = """\
name: slow
command: [python, -c, "import os, sys, time; time.sleep(0.4); os.kill(os.getpid(), 11) if sys.argv[1] == 'i=3' else None"]
axes:
  i: [0, 1, 2, 3, 4, 5, 6, 7]
repeats: 2
timeout: 60
"""


def _start(tmp_path, *extra):
    return subprocess.Popen(
        [sys.executable, "-m", "crashmatrix", "run", "slow.yaml", "--out", str(tmp_path / "run"), *extra],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": ROOT},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _wait_for_progress(proc, n: int) -> list[str]:
    """Read the controller's own progress lines until the n-th run has finished."""
    lines = []
    for line in proc.stdout:
        lines.append(line)
        if line.startswith("[") and int(line[1:].split("/")[0]) >= n:
            return lines
    raise AssertionError("the run ended before " + str(n) + " runs: " + "".join(lines))


def test_sigkill_mid_run_then_resume_finds_every_run_exactly_once(tmp_path):
    (tmp_path / "slow.yaml").write_text(MATRIX)
    proc = _start(tmp_path, "--jobs", "2")
    _wait_for_progress(proc, 5)
    proc.kill()
    proc.wait()
    done_before = len(rows_of(tmp_path / "run"))
    assert 5 <= done_before < 16

    resumed = crashmatrix("run", "--resume", tmp_path / "run", cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert f"{done_before} already done" in resumed.stdout
    rows = rows_of(tmp_path / "run")
    counts = Counter((r["cell_id"], r["repeat"]) for r in rows)
    assert len(counts) == 16 and set(counts.values()) == {1}
    assert sorted(r["outcome"] for r in rows if r["i"] == "3") == ["crash", "crash"]
    assert {r["signal"] for r in rows if r["i"] == "3"} == {"SIGSEGV"}
    assert processes_with(f"CRASHMATRIX_RUN_DIR={tmp_path / 'run'}") == []
    # the killed cells' short TMPDIR links (their paths here are too long for a socket) went with their reruns
    assert _links_into(tmp_path / "run") == []


def _links_into(run_dir) -> list[str]:
    """The system temporary folder's `cm-*` links whose target is inside run_dir."""
    found = []
    for entry in glob.glob(os.path.join(tempfile.gettempdir(), "cm-*")):
        try:
            target = os.readlink(entry)
        except OSError:
            continue  # another test's cell removed it meanwhile, or not a link
        if target.startswith(f"{run_dir}{os.sep}"):
            found.append(f"{entry} -> {target}")
    return found


def test_a_result_json_whose_row_was_lost_is_recovered_not_rerun(tmp_path):
    (tmp_path / "slow.yaml").write_text(MATRIX.replace("repeats: 2", "repeats: 1"))
    assert crashmatrix("run", "slow.yaml", "--out", tmp_path / "run", cwd=tmp_path).returncode == 0
    csv_path = tmp_path / "run" / "results.csv"
    lines = csv_path.read_text().splitlines(keepends=True)
    # As if SIGKILL struck between result.json and the row: the last row is gone, and another half-written.
    csv_path.write_text("".join(lines[:-2]) + lines[-2][:15])
    resumed = crashmatrix("run", "--resume", tmp_path / "run", cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert "0 runs" not in resumed.stdout
    rows = rows_of(tmp_path / "run")
    assert len(rows) == 8 and len({r["cell_id"] for r in rows}) == 8
    assert "[1/" not in resumed.stdout  # nothing needed running again


def test_ctrl_c_stops_every_child_keeps_what_finished_and_exits_130(tmp_path):
    (tmp_path / "slow.yaml").write_text(
        MATRIX.replace("time.sleep(0.4)", "time.sleep(0.4 if sys.argv[1] < 'i=2' else 300)")
    )
    proc = _start(tmp_path, "--jobs", "2")
    _wait_for_progress(proc, 2)
    t0 = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=10)
    elapsed = time.monotonic() - t0
    assert proc.returncode == 130
    assert elapsed < 2.0, f"took {elapsed:.2f} s to stop"
    assert "interrupted" in err and "--resume" in err
    assert "of 16 (interrupted" in out  # the summary so far
    assert len(rows_of(tmp_path / "run")) >= 2
    assert processes_with(f"CRASHMATRIX_RUN_DIR={tmp_path / 'run'}") == []
