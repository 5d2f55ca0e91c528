"""hunt end to end: a real program that segfaults when a=1 and c=2, found from nothing but the matrix."""

import json
import os
import signal
import subprocess
import sys

import pytest
from conftest import ROOT, crashmatrix, rows_of

CRASHY = """\
import os, signal, sys, time
args = dict(a.split("=", 1) for a in sys.argv[1:])
time.sleep(float(os.environ.get("CELL_SECONDS", "0")))
if args["a"] == "1" and args["c"] == "2":
    os.kill(os.getpid(), signal.SIGSEGV)
"""
MATRIX = """\
name: planted
command: [python, {script}]
axes:
  a: [0, 1, 2]
  b: [0, 1]
  c: [0, 1, 2]
timeout: 60
"""
SENTENCE = "crash SIGSEGV when a=1 and c=2: fails 100% of runs there"


def planted(write):
    return write("m.yaml", MATRIX.format(script=write("crashy.py", CRASHY)))


def hunted_cells(run_dir):
    return [(r["cell_id"], r["repeat"], r["a"], r["b"], r["c"], r["outcome"]) for r in rows_of(run_dir)]


@pytest.mark.slow
def test_hunt_names_the_whole_conjunction_from_nothing(tmp_path, write):
    proc = crashmatrix("hunt", planted(write), "--jobs", "2", "--out", tmp_path / "h", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    data = json.loads((tmp_path / "h" / "hunt.json").read_text())
    (cause,) = data["causes"]
    assert cause["conditions"] == {"a": "1", "c": "2"}
    assert (cause["outcome"], cause["signal"], cause["rate"]) == ("crash", "SIGSEGV", 1.0)
    assert cause["confidence"] >= 0.95
    assert data["complete"] is True and data["order"] == 3
    rows = rows_of(tmp_path / "h")
    assert data["runs"] == len(rows) <= 18 + 3  # the 18 cells at most, and a few repeats
    assert {r["outcome"] for r in rows if r["a"] == "1" and r["c"] == "2"} == {"crash"}
    assert {r["outcome"] for r in rows if not (r["a"] == "1" and r["c"] == "2")} == {"pass"}
    assert SENTENCE in proc.stdout and "hunt: complete after" in proc.stdout
    # when the answer came, as printed then: the runs after it showed that nothing else fails
    assert f"found after {cause['named_after']} runs: {SENTENCE}" in proc.stdout
    assert cause["named_after"] <= data["runs"]
    # report and explain read the hunt's run directory as any other run
    explained = crashmatrix("explain", tmp_path / "h", "--json", cwd=tmp_path)
    assert json.loads(explained.stdout)[0]["conditions"] == {"a": "1", "c": "2"}


@pytest.mark.slow
def test_ctrl_c_then_resume_runs_what_the_hunt_would_have_run(tmp_path, write):
    matrix = planted(write)
    whole = crashmatrix("hunt", matrix, "--out", tmp_path / "whole", cwd=tmp_path)
    assert whole.returncode == 0, whole.stderr

    env = dict(os.environ, PYTHONPATH=ROOT, CELL_SECONDS="0.2")
    cut = tmp_path / "cut"
    controller = subprocess.Popen(
        [sys.executable, "-m", "crashmatrix", "hunt", matrix, "--out", cut],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    # Ctrl-C once the controller has reported 10 lines of runs: the 11th is under way
    seen = 0
    for line in controller.stdout:
        seen += line.startswith("[")
        if seen == 10:
            controller.send_signal(signal.SIGINT)
            break
    out, err = controller.communicate(timeout=60)
    assert controller.returncode == 130, err
    assert "crashmatrix hunt --resume" in out
    assert 10 <= len(rows_of(cut)) < len(rows_of(tmp_path / "whole"))

    resumed = crashmatrix("hunt", "--resume", cut, cwd=tmp_path, env={"CELL_SECONDS": "0"})
    assert resumed.returncode == 0, resumed.stderr
    # the same runs in the same order: none repeated, none lost
    assert hunted_cells(cut) == hunted_cells(tmp_path / "whole")
    assert (
        json.loads((cut / "hunt.json").read_text())["causes"]
        == json.loads((tmp_path / "whole" / "hunt.json").read_text())["causes"]
    )


@pytest.mark.slow
def test_from_a_finished_run_needs_no_new_run_when_it_already_tells(tmp_path, write):
    matrix = planted(write)
    assert crashmatrix("run", matrix, "--out", tmp_path / "full", cwd=tmp_path).returncode == 0
    proc = crashmatrix("hunt", matrix, "--from", tmp_path / "full", "--out", tmp_path / "h", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    data = json.loads((tmp_path / "h" / "hunt.json").read_text())
    assert [c["conditions"] for c in data["causes"]] == [{"a": "1", "c": "2"}]
    assert data["runs"] <= 2  # the 18 cells ran once each; at most a repeat to be sure
    assert data["causes"][0]["named_after"] <= data["runs"]  # this hunt's runs, not the finished run's rows


@pytest.mark.slow
def test_bad_input_exits_2_with_one_line(tmp_path, write):
    matrix = planted(write)
    for args, words in (
        (["--order", "0"], "--order"),
        (["axes.nope=[1]"], "axes.nope"),
        (["--confidence", "1.5"], "--confidence"),
        (["--from", tmp_path / "missing"], "missing"),
    ):
        proc = crashmatrix("hunt", matrix, *args, "--out", tmp_path / "x", cwd=tmp_path)
        assert proc.returncode == 2, (args, proc.stderr)
        assert words in proc.stderr and "Traceback" not in proc.stderr
        assert len(proc.stderr.strip().splitlines()) <= 2
    proc = crashmatrix("hunt", "--resume", tmp_path, cwd=tmp_path)
    assert proc.returncode == 2 and "not a hunt's run directory" in proc.stderr


def test_the_budget_ends_a_hunt_with_its_best_so_far_said_plainly(tmp_path, write):
    proc = crashmatrix("hunt", planted(write), "--max-runs", "5", "--out", tmp_path / "h", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    data = json.loads((tmp_path / "h" / "hunt.json").read_text())
    assert (data["runs"], data["complete"]) == (5, False)
    assert len(rows_of(tmp_path / "h")) == 5
    # nothing failed in 5 runs: the hunt says so, and what a complete one would still have run
    assert "hunt: partial after 5 runs (--max-runs): no failure yet;" in proc.stdout
    assert "values not yet run clean 5 times" in proc.stdout


@pytest.mark.slow
def test_a_program_that_always_fails_is_named_as_the_program(tmp_path, write):
    script = write("broken.py", "raise SystemExit('config error: unknown key lr_sheduler')\n")
    matrix = write("b.yaml", MATRIX.format(script=script))
    proc = crashmatrix("hunt", matrix, "--out", tmp_path / "h", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    (cause,) = json.loads((tmp_path / "h" / "hunt.json").read_text())["causes"]
    assert cause["conditions"] == {} and cause["outcome"] == "fail"
    assert "in every cell (the program itself, not a configuration)" in proc.stdout
    assert len(rows_of(tmp_path / "h")) <= 10
