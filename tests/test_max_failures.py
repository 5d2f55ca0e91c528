"""`run --max-failures N`: no new run once N runs have failed; running ones end; `--resume` completes the run."""

from collections import Counter

import pytest
from conftest import crashmatrix, rows_of

pytestmark = pytest.mark.slow  # real runs stopped early (test_resume_options keeps one live resume quick)

# 32 cells of a tiny plain-Python program (no torch): b=3 dies by SIGSEGV, a=0 b=2 exits 3; 9 failing cells.
MATRIX = """\
name: tiny
command: [python, -c, "import os, sys; b = sys.argv[2]; os.kill(os.getpid(), 11) if b == 'b=3' else sys.exit(3 if b == 'b=2' and sys.argv[1] == 'a=0' else 0)"]
axes:
  a: [0, 1, 2, 3, 4, 5, 6, 7]
  b: [0, 1, 2, 3]
timeout: 60
"""
FAILING = ("fail", "crash")


def _resume_completes(tmp_path, run, status=0):
    resumed = crashmatrix("run", "--resume", run, cwd=tmp_path)
    assert resumed.returncode == status, resumed.stderr
    assert "stopped early" not in resumed.stdout
    counts = Counter((r["cell_id"], r["repeat"]) for r in rows_of(run))
    assert len(counts) == 32 and set(counts.values()) == {1}
    assert sum(r["outcome"] in FAILING for r in rows_of(run)) == 9


def test_max_failures_stops_with_exactly_n_failing_runs_and_resume_completes_it(tmp_path):
    (tmp_path / "m.yaml").write_text(MATRIX)
    run = tmp_path / "run"
    proc = crashmatrix("run", "m.yaml", "--out", run, "--max-failures", "3", "--jobs", "1", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    rows = rows_of(run)
    # In matrix order the third failing run is the 8th run (a=0 b=2, a=0 b=3, a=1 b=3): nothing after it.
    assert [r["outcome"] for r in rows].count("pass") == 5 and len(rows) == 8
    assert sum(r["outcome"] in FAILING for r in rows) == 3
    assert (
        "8 runs of 32 (stopped early after 3 failing runs; `crashmatrix run --resume run` completes it)" in proc.stdout
    )
    assert "stopped early after 3 failing runs" in (run / "summary.md").read_text()
    assert proc.stdout.rstrip().endswith("`crashmatrix run --resume run` completes it")
    _resume_completes(tmp_path, run)


def test_max_failures_with_two_jobs_lets_the_running_cell_end(tmp_path):
    (tmp_path / "m.yaml").write_text(MATRIX)
    run = tmp_path / "run"
    proc = crashmatrix("run", "m.yaml", "--out", run, "--max-failures", "3", "--jobs", "2", "--strict", cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr  # --strict: failing cells ran
    rows = rows_of(run)
    failing = sum(r["outcome"] in FAILING for r in rows)
    # The third failure stops new starts; the one other run in flight then ends normally and may fail too.
    assert 3 <= failing <= 3 + (2 - 1), [(r["a"], r["b"], r["outcome"]) for r in rows]
    assert len(rows) < 32 and "stopped early after" in proc.stdout
    _resume_completes(tmp_path, run, status=1)  # --strict is kept too: failing cells ran


def test_max_failures_not_reached_is_an_ordinary_run(tmp_path):
    (tmp_path / "m.yaml").write_text(MATRIX)
    proc = crashmatrix("run", "m.yaml", "--out", tmp_path / "run", "--max-failures", "10", "axes.a=[0,1]", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert len(rows_of(tmp_path / "run")) == 8 and "stopped early" not in proc.stdout


def test_max_failures_bad_values_exit_2(tmp_path):
    (tmp_path / "m.yaml").write_text(MATRIX)
    for value in ("0", "-1"):
        proc = crashmatrix("run", "m.yaml", "--max-failures", value, cwd=tmp_path)
        assert proc.returncode == 2 and "--max-failures: expected a whole number >= 1" in proc.stderr
    proc = crashmatrix("run", "m.yaml", "--max-failures", "2", "--executor", "submitit-local", cwd=tmp_path)
    assert proc.returncode == 2 and "--max-failures: only with --executor local" in proc.stderr
    assert "Traceback" not in proc.stderr and not (tmp_path / "results").exists()
