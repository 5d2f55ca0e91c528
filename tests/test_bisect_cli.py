"""bisect and explain end to end: real programs that segfault only under a combination of settings."""

import json

import pytest
from conftest import crashmatrix, rows_of

# Segfaults only with start_method=fork + num_workers=4 + pin_memory=true; exits 3 (a different failure)
# with start_method=forkserver + wandb=offline.
CRASHY = """\
import os, signal, sys
args = dict(a.split("=", 1) for a in sys.argv[1:])
if args["start_method"] == "fork" and args["pin_memory"] == "true" and args["num_workers"] == "4":
    {crash}
if args["start_method"] == "forkserver" and args["wandb"] == "offline":
    sys.exit(3)
"""
DETERMINISTIC = "os.kill(os.getpid(), signal.SIGSEGV)"
# A flaky crash: each configuration fails on every other run (a counter file per configuration), so the
# test is exact while the bisector sees a failure rate of 1/2.
FLAKY = """path = os.path.join(os.environ["WORK"], "n-" + "-".join(sys.argv[1:]).replace("/", "_"))
    n = int(open(path).read()) if os.path.exists(path) else 0
    open(path, "w").write(str(n + 1))
    if n % 2 == 0:
        os.kill(os.getpid(), signal.SIGSEGV)"""

MATRIX = """\
name: planted
command: [python, {script}]
axes:
  start_method: [spawn, fork, forkserver]
  num_workers: [0, 4]
  pin_memory: [false, true]
  wandb: [disabled, offline]
  precision: ["32", "16-mixed"]
  cudnn.benchmark: [false, true]
  persistent_workers: [false, true]
timeout: 60
"""
ALL_BAD = [
    "start_method=fork",
    "num_workers=4",
    "pin_memory=true",
    "wandb=offline",
    "precision=16-mixed",
    "cudnn.benchmark=true",
    "persistent_workers=true",
]


def planted_matrix(tmp_path, write, crash=DETERMINISTIC):
    script = write("crashy.py", CRASHY.format(crash=crash))
    return write("m.yaml", MATRIX.format(script=script))


def test_deterministic_three_of_seven_in_eight_runs(tmp_path, write):
    path = planted_matrix(tmp_path, write)
    proc = crashmatrix(
        "bisect",
        path,
        "--good",
        "start_method=spawn",
        "--bad",
        *ALL_BAD,
        "--repeats",
        "1",
        "--out",
        tmp_path / "b",
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    data = json.loads((tmp_path / "b" / "bisect.json").read_text())
    assert data["minimal"] == {"start_method": "fork", "num_workers": "4", "pin_memory": "true"}
    assert (data["outcome"], data["signal"], data["runs"]) == ("crash", "SIGSEGV", 8)
    assert data["good"]["wandb"] == "disabled" and data["bad"]["wandb"] == "offline"
    assert "crash SIGSEGV needs start_method=fork + num_workers=4 + pin_memory=true" in proc.stdout
    # every configuration tried is a real cell with its own logs, listed in the bisect's results.csv
    assert len(rows_of(tmp_path / "b")) == 8


@pytest.mark.slow
def test_a_flaky_crash_is_still_found_exactly_and_the_numbers_are_said(tmp_path, write):
    path = planted_matrix(tmp_path, write, crash=FLAKY)
    proc = crashmatrix(
        "bisect", path, "--bad", *ALL_BAD, "--out", tmp_path / "b", cwd=tmp_path, env={"WORK": str(tmp_path)}
    )
    assert proc.returncode == 0, proc.stderr
    data = json.loads((tmp_path / "b" / "bisect.json").read_text())
    assert data["minimal"] == {"start_method": "fork", "num_workers": "4", "pin_memory": "true"}
    assert data["confirmed"] is True
    assert data["failure_rate"]["failures"] < data["failure_rate"]["runs"]
    assert "clean runs needed to believe a pass" in proc.stdout and "failure rate" in proc.stdout


@pytest.mark.slow
def test_a_different_failure_is_reported_not_accepted(tmp_path, write):
    path = planted_matrix(tmp_path, write)
    # bad: forkserver + offline exits 3; the target is that `fail`, and the SIGSEGV never enters.
    proc = crashmatrix(
        "bisect",
        path,
        "--bad",
        "start_method=forkserver",
        "wandb=offline",
        "num_workers=4",
        "--repeats",
        "1",
        "--out",
        tmp_path / "b",
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    data = json.loads((tmp_path / "b" / "bisect.json").read_text())
    assert data["minimal"] == {"start_method": "forkserver", "wandb": "offline"}
    assert data["outcome"] == "fail"


@pytest.mark.slow
def test_bad_configuration_that_passes_exits_1(tmp_path, write):
    path = planted_matrix(tmp_path, write)
    proc = crashmatrix(
        "bisect", path, "--bad", "wandb=offline", "--repeats", "2", "--out", tmp_path / "b", cwd=tmp_path
    )
    assert proc.returncode == 1
    assert "did not fail" in proc.stdout
    assert json.loads((tmp_path / "b" / "bisect.json").read_text())["outcome"] is None


@pytest.mark.slow
def test_bisect_a_finished_run_and_explain_it(tmp_path, write):
    path = planted_matrix(tmp_path, write)
    small = ['axes.precision=["32"]', "axes.cudnn.benchmark=[false]", "axes.persistent_workers=[false]"]
    run = crashmatrix("run", path, *small, "--out", tmp_path / "run", "--jobs", "2", cwd=tmp_path)
    assert run.returncode == 0, run.stderr

    explained = crashmatrix("explain", tmp_path / "run", "--json", cwd=tmp_path)
    assert explained.returncode == 0, explained.stderr
    patterns = [p for p in json.loads(explained.stdout) if "finding" not in p]  # findings beyond failure follow
    got = {(json.dumps(p["conditions"], sort_keys=True), p["outcome"], p["failing"]) for p in patterns}
    assert all(p["masked"] == 0 and p["matching"] == p["failing"] for p in patterns)  # the two never overlap
    # Two independent causes, each its own pattern, with the exact cells they cover.
    assert (
        json.dumps({"num_workers": "4", "pin_memory": "true", "start_method": "fork"}, sort_keys=True),
        "crash",
        2,
    ) in got
    assert (json.dumps({"start_method": "forkserver", "wandb": "offline"}, sort_keys=True), "fail", 4) in got
    human = crashmatrix("explain", tmp_path / "run", cwd=tmp_path).stdout
    assert "start_method=fork" in human and "pin_memory=true" in human

    proc = crashmatrix("bisect", tmp_path / "run", "--repeats", "1", "--out", tmp_path / "b", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    data = json.loads((tmp_path / "b" / "bisect.json").read_text())
    # explain's most telling pattern is the exit 3 (4 cells, against the crash's 2): bad is one of its cells,
    # good the passing cell one axis away, so the minimal change is one of the pattern's two conditions.
    assert (data["outcome"], data["signal"]) == ("fail", "")
    assert (data["bad"]["start_method"], data["bad"]["wandb"]) == ("forkserver", "offline")
    assert data["minimal"] in ({"start_method": "forkserver"}, {"wandb": "offline"})


@pytest.mark.slow
def test_bisect_bad_input(tmp_path, write):
    path = planted_matrix(tmp_path, write)
    for args, fragment in (
        (["--bad", "colour=red"], "'colour' is not an axis"),
        (["--bad", "num_workers=3"], "'3' is not one of axes.num_workers's values [0, 4]"),
        (["--bad", "num_workers"], "expected AXIS=VALUE"),
        ([], "needs --bad"),
        (["--good", "wandb=offline", "--bad", "wandb=offline"], "same configuration"),
    ):
        proc = crashmatrix("bisect", path, *args, cwd=tmp_path)
        assert proc.returncode == 2, (args, proc.stderr)
        assert fragment in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.slow
def test_max_runs_ends_with_the_best_answer_so_far_marked_partial(tmp_path, write):
    path = planted_matrix(tmp_path, write)
    proc = crashmatrix(
        "bisect", path, "--bad", *ALL_BAD, "--repeats", "1", "--max-runs", "4", "--out", tmp_path / "b", cwd=tmp_path
    )
    assert proc.returncode == 0, proc.stderr
    data = json.loads((tmp_path / "b" / "bisect.json").read_text())
    assert data["partial"] is True and data["stop_reason"] == "max_runs" and data["runs"] == 4
    # the best so far still fails the same way and holds every real culprit
    assert {"start_method", "num_workers", "pin_memory"} <= set(data["minimal"])
    assert "partial (run budget spent)" in proc.stdout


@pytest.mark.slow
def test_a_budget_spent_while_estimating_says_what_the_bad_configuration_did(tmp_path, write):
    # The default mode first runs the bad configuration 8 times to learn its failure rate; 5 runs end
    # that stage. The crash was seen 5 of 5 times: saying "did not fail" would be false.
    path = planted_matrix(tmp_path, write)
    proc = crashmatrix("bisect", path, "--bad", *ALL_BAD, "--max-runs", "5", "--out", tmp_path / "b", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert (
        "partial (run budget spent): the bad configuration failed 5 of 5 (crash SIGSEGV); "
        "the budget ended before any change was tried (5 runs)"
    ) in proc.stdout
    assert "did not fail" not in proc.stdout
    data = json.loads((tmp_path / "b" / "bisect.json").read_text())
    assert data["partial"] is True and data["outcome"] == "crash" and data["failure_rate"] == {"failures": 5, "runs": 5}


@pytest.mark.parametrize("stop", ["SIGINT", "SIGTERM"])  # Ctrl-C; `timeout` or a scheduler's stop
@pytest.mark.slow
def test_a_stopped_bisect_writes_the_best_answer_so_far(tmp_path, write, stop):
    import os
    import signal
    import subprocess
    import sys

    from conftest import ROOT, processes_with

    script = write("crashy.py", "import time\ntime.sleep(0.3)\n" + CRASHY.format(crash=DETERMINISTIC))
    path = write("m.yaml", MATRIX.format(script=script))
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "crashmatrix",
            "bisect",
            path,
            "--bad",
            *ALL_BAD,
            "--repeats",
            "1",
            "--out",
            str(tmp_path / "b"),
        ],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": ROOT},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    for line in proc.stdout:  # the bisect's own progress: interrupt after the third run
        if line.startswith("[  3]"):
            break
    proc.send_signal(getattr(signal, stop))
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    data = json.loads((tmp_path / "b" / "bisect.json").read_text())
    assert data["partial"] is True and data["stop_reason"] == "interrupted"
    assert "Traceback" not in err
    assert processes_with(f"CRASHMATRIX_RUN_DIR={tmp_path / 'b'}") == []


@pytest.mark.slow
def test_a_stop_ends_the_cells_of_every_worker_thread(tmp_path, write):
    """--jobs 2: cells run in the bisect's worker threads while the stop arrives in the main one; it must
    end them (one StopRegistry for the whole bisect), not wait for them."""
    import os
    import signal
    import subprocess
    import sys
    import time

    from conftest import ROOT, lines_from, processes_with

    # Every configuration but the bad one says it started (its pid into a FIFO) and then runs for a minute:
    # the bisect's first run (bad, a crash) ends, and the next two, one per worker thread, hold both threads.
    # Which cells are slow is the program's to say, not the test's timing: a mark the test set once it read
    # the first result let a starved test set it after the bisect's last cell had started (it never stopped).
    started = tmp_path / "started"
    os.mkfifo(started)
    reader = os.open(started, os.O_RDONLY | os.O_NONBLOCK)
    ours = os.open(started, os.O_WRONLY | os.O_NONBLOCK)  # a writer that stays: no end of file between cells
    slow = (
        f"import os, sys, time\nif sorted(sys.argv[1:]) != {sorted(ALL_BAD)!r}:\n"
        f"    fd = os.open({str(started)!r}, os.O_WRONLY)\n    os.write(fd, b'%d\\n' % os.getpid())\n"
        "    os.close(fd)\n    time.sleep(60)\n"
    )
    script = write("crashy.py", slow + CRASHY.format(crash=DETERMINISTIC))
    path = write("m.yaml", MATRIX.format(script=script))
    proc = subprocess.Popen(
        [sys.executable, "-m", "crashmatrix", "bisect", path, "--bad", *ALL_BAD]
        + ["--repeats", "1", "--jobs", "2", "--out", str(tmp_path / "b")],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": ROOT},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        slow_cells = lines_from(reader, 2, within=60)  # both worker threads' cells are running
    finally:
        os.close(reader)
        os.close(ours)
    assert len(slow_cells) == 2, f"slow cells started: {slow_cells}"
    stopped_at = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    try:
        out, err = proc.communicate(timeout=50)
    finally:
        proc.kill()  # ended already, unless the test fails here
    assert proc.returncode == 130, err
    assert time.monotonic() - stopped_at < 20, "the bisect waited for its worker threads' cells"
    data = json.loads((tmp_path / "b" / "bisect.json").read_text())
    assert data["partial"] is True and data["stop_reason"] == "interrupted"
    assert "Traceback" not in err
    assert processes_with(f"CRASHMATRIX_RUN_DIR={tmp_path / 'b'}") == []


@pytest.mark.slow
def test_bisect_run_counts_the_runs_rows_as_evidence_and_runs_less(tmp_path, write):
    """Issue 26: from a run where the bad configuration failed 8 of 8, bisect RUN ran it 8 more times before
    its first step. Its rows are evidence of the failure rate (and the good configuration's passes)."""
    path = planted_matrix(tmp_path, write)
    small = ["axes.start_method=[fork]", "axes.wandb=[disabled]", 'axes.precision=["32"]']
    small += ["axes.cudnn.benchmark=[false]", "axes.persistent_workers=[false]", "repeats=8"]
    run = crashmatrix("run", path, *small, "--out", tmp_path / "run", "--jobs", "2", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    bad_rows = [r for r in rows_of(tmp_path / "run") if (r["num_workers"], r["pin_memory"]) == ("4", "true")]
    assert [r["outcome"] for r in bad_rows] == ["crash"] * 8

    proc = crashmatrix("bisect", tmp_path / "run", "--out", tmp_path / "b", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    data = json.loads((tmp_path / "b" / "bisect.json").read_text())
    assert (data["bad"]["num_workers"], data["bad"]["pin_memory"]) == ("4", "true")
    assert data["failure_rate"] == {"failures": 8, "runs": 8}  # the run's 8, none run again
    assert data["counted_from_run"] == 16  # the bad cell's 8 crashes and the good cell's 8 passes
    assert data["runs"] == len(rows_of(tmp_path / "b")) <= 2  # the confirmation of the answer, no estimate
    assert "counting 16 runs of the finished run as evidence (the bad configuration failed 8 of 8" in proc.stdout

    # An override that changes the matrix: another experiment, so the rows are not counted and the bad
    # configuration is measured afresh: 8 runs more before the first step.
    fresh = crashmatrix("bisect", tmp_path / "run", "timeout=59", "--out", tmp_path / "b2", cwd=tmp_path)
    assert fresh.returncode == 0, fresh.stderr
    again = json.loads((tmp_path / "b2" / "bisect.json").read_text())
    assert again["minimal"] == data["minimal"] and again["counted_from_run"] == 0
    assert again["runs"] >= data["runs"] + 8
    assert "its rows are not counted" in fresh.stdout
