"""Cells through submitit: the same signal-exact outcomes as locally; a cancelled job's runs become `error`
rows with the reason, and --resume runs them again. The real Slurm cluster versions are in test_slurm.py."""

import os
import signal
import subprocess
import sys
import time

import pytest
from conftest import ROOT, crashmatrix, processes_with, rows_of

pytestmark = pytest.mark.slow  # submitit jobs

SCRIPT = """\
import os, signal, sys, time
i = int(sys.argv[1].split("=")[1])
if i == 1 and not os.path.exists(os.path.join(os.environ["WORK"], "release")):
    open(os.path.join(os.environ["WORK"], "holding"), "w").close()
    time.sleep(300)
if i == 2:
    os.kill(os.getpid(), signal.SIGSEGV)
"""


def matrix_text(script, executor_extra=""):
    return f"""\
name: exe
command: [python, {script}]
axes:
  i: [0, 1, 2, 3]
timeout: 120
executor: {{cells_per_job: 2, poll_s: 0.2{executor_extra}}}
"""


def outcomes(path):
    return sorted((r["i"], r["outcome"], r["signal"]) for r in rows_of(path))


def start_until_holding(tmp_path, path, executor):
    """Start the controller and return once cell i=1 says it is running (it then holds until released)."""
    env = {**os.environ, "PYTHONPATH": ROOT, "WORK": str(tmp_path)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "crashmatrix", "run", path, "--out", str(tmp_path / "run"), "--executor", executor],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 120
    while not (tmp_path / "holding").exists():  # the cell's own word; nothing else to wait on
        assert time.monotonic() < deadline and proc.poll() is None, proc.communicate()
        time.sleep(0.05)
    return proc


def test_submitit_local_gives_the_same_outcomes_as_local(tmp_path, write):
    script = write("s.py", SCRIPT)
    (tmp_path / "release").write_text("")
    path = write("m.yaml", matrix_text(script))
    env = {"WORK": str(tmp_path)}
    local = crashmatrix("run", path, "--out", tmp_path / "local", cwd=tmp_path, env=env)
    sub = crashmatrix("run", path, "--out", tmp_path / "sub", "--executor", "submitit-local", cwd=tmp_path, env=env)
    assert local.returncode == 0 and sub.returncode == 0, sub.stderr
    assert (
        outcomes(tmp_path / "sub")
        == outcomes(tmp_path / "local")
        == [("0", "pass", ""), ("1", "pass", ""), ("2", "crash", "SIGSEGV"), ("3", "pass", "")]
    )


def _parent(pid):
    with open(f"/proc/{pid}/stat") as f:
        return int(f.read().rsplit(")", 1)[1].split()[1])


def test_a_cancelled_job_is_an_error_row_and_resume_reruns_it(tmp_path, write):
    script = write("s.py", SCRIPT)
    path = write("m.yaml", matrix_text(script))
    proc = start_until_holding(tmp_path, path, "submitit-local")
    (cell,) = [p for p in processes_with(f"CRASHMATRIX_RUN_DIR={tmp_path / 'run'}") if "i=1" in p]
    job_pid = _parent(int(cell.split(":")[0]))
    os.kill(job_pid, signal.SIGINT)  # what submitit's LocalJob.cancel() sends
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    row = next(r for r in rows_of(tmp_path / "run") if r["i"] == "1")
    assert row["outcome"] == "error"
    assert "was stopped by SIGINT" in row["error"] and "--resume" in row["error"]

    (tmp_path / "release").write_text("")
    resumed = crashmatrix(
        "run", "--resume", tmp_path / "run", "--executor", "submitit-local", cwd=tmp_path, env={"WORK": str(tmp_path)}
    )
    assert resumed.returncode == 0, resumed.stderr
    assert outcomes(tmp_path / "run") == [
        ("0", "pass", ""),
        ("1", "pass", ""),
        ("2", "crash", "SIGSEGV"),
        ("3", "pass", ""),
    ]
    assert processes_with(f"CRASHMATRIX_RUN_DIR={tmp_path / 'run'}") == []


def test_ctrl_c_cancels_the_outstanding_jobs(tmp_path, write):
    script = write("s.py", SCRIPT)
    path = write("m.yaml", matrix_text(script))
    proc = start_until_holding(tmp_path, path, "submitit-local")
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "interrupted" in err and "--resume" in err
    # job.cancel() reached the job, whose supervisor stopped its cell: nothing of the run is left
    deadline = time.monotonic() + 30
    while processes_with(f"CRASHMATRIX_RUN_DIR={tmp_path / 'run'}") and time.monotonic() < deadline:
        time.sleep(0.1)
    assert processes_with(f"CRASHMATRIX_RUN_DIR={tmp_path / 'run'}") == []
    assert not any(r["i"] == "1" for r in rows_of(tmp_path / "run"))  # in flight: not recorded
