"""One form of --resume for run and hunt: `VERB --resume DIR` and `VERB MATRIX --resume DIR` both go on with the
matrix kept in DIR; a MATRIX (or overrides) that is not the kept one is refused with exit 2, naming what differs,
and DIR is left as it was."""

import json

import pytest
from conftest import crashmatrix, rows_of

pytestmark = pytest.mark.slow  # runs and hunts resumed (test_resume_options keeps one live resume quick)

PROGRAM = """\
import os, signal, sys
args = dict(a.split("=", 1) for a in sys.argv[1:])
if args["a"] == "1" and args["c"] == "2":
    os.kill(os.getpid(), signal.SIGSEGV)
"""
MATRIX = """\
name: forms
command: [python, {script}]
axes:
  a: [0, 1, 2]
  c: [0, 1, 2]
timeout: 60
"""


@pytest.fixture
def matrices(tmp_path, write):
    script = write("prog.py", PROGRAM)
    same = write("m.yaml", MATRIX.format(script="prog.py"))
    other = write("other.yaml", MATRIX.format(script=script).replace("c: [0, 1, 2]", "c: [0, 1, 2, 3]"))
    return same, other


def _refused(proc, *words):
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    for word in words:
        assert word in proc.stderr, proc.stderr


def test_run_takes_both_forms_and_refuses_another_matrix(tmp_path, matrices):
    same, other = matrices
    run = tmp_path / "run"
    # a run stopped early (the crash in cell a=1 c=2): --resume completes it
    first = crashmatrix("run", same, "--max-failures", "1", "--out", run, cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    before = len(rows_of(run))
    assert before < 9
    csv_before = (run / "results.csv").read_text()
    for args, words in (
        ([other], ["other.yaml", "not the matrix kept in", "axes.c"]),
        ([same, "repeats=2"], ["m.yaml", "repeats"]),
        (["timeout=5"], ["timeout"]),  # overrides alone, against the kept matrix
    ):
        _refused(crashmatrix("run", *args, "--resume", run, cwd=tmp_path), *words)
    assert (run / "results.csv").read_text() == csv_before  # a refused resume changes nothing
    # MATRIX given: it is the kept one, so the run goes on
    resumed = crashmatrix("run", same, "--resume", run, cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert f"{before} already done" in resumed.stdout
    assert sorted((r["a"], r["c"]) for r in rows_of(run)) == [(a, c) for a in "012" for c in "012"]
    # and the form without it, on a complete run: nothing to run, accepted
    again = crashmatrix("run", "--resume", run, cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert len(rows_of(run)) == 9


def test_hunt_takes_both_forms_and_refuses_another_matrix(tmp_path, matrices):
    same, other = matrices
    hunt = tmp_path / "h"
    first = crashmatrix("hunt", same, "--max-runs", "3", "--out", hunt, cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    assert len(rows_of(hunt)) == 3
    _refused(
        crashmatrix("hunt", other, "--resume", hunt, cwd=tmp_path), "other.yaml", "not the matrix kept in", "axes.c"
    )
    _refused(crashmatrix("hunt", same, "--resume", hunt, "--order", "2", cwd=tmp_path), "--order")
    assert len(rows_of(hunt)) == 3
    # MATRIX given: the kept one, so the hunt goes on (its budget raised)
    resumed = crashmatrix("hunt", same, "--resume", hunt, "--max-runs", "5", cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert len(rows_of(hunt)) == 5
    # and without it, to the end
    final = crashmatrix("hunt", "--resume", hunt, "--max-runs", "40", cwd=tmp_path)
    assert final.returncode == 0, final.stderr
    data = json.loads((hunt / "hunt.json").read_text())
    assert data["complete"] is True
    assert [c["conditions"] for c in data["causes"]] == [{"a": "1", "c": "2"}]
