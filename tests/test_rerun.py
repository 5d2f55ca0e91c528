"""`rerun RUN [--failing] [OVERRIDE ...]`: the cells of a finished run again, into a new run directory, same ids."""

import csv
import json
import os
import shutil
from collections import Counter

import pytest
from conftest import crashmatrix, rows_of

# b=2 dies by SIGSEGV while the file `flaky` exists in the working directory: delete it and the cell passes.
MATRIX = """\
name: tiny
command: [python, -c, "import os, sys; os.path.exists('flaky') and sys.argv[2] == 'b=2' and os.kill(os.getpid(), 11); sys.exit(3 if sys.argv[1:] == ['a=1', 'b=1'] else 0)"]
axes:
  a: [0, 1, 2]
  b: [0, 1, 2]
timeout: 60
"""


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """One finished run with four failing cells, made once; each test works on its own copy."""
    tmp = tmp_path_factory.mktemp("first")
    (tmp / "m.yaml").write_text(MATRIX)
    (tmp / "flaky").write_text("")
    proc = crashmatrix("run", "m.yaml", "--out", tmp / "run", cwd=tmp)
    assert proc.returncode == 0, proc.stderr
    return tmp / "run"


def _first_run(tmp_path, finished):
    shutil.copytree(finished, tmp_path / "run")
    failing = {r["cell_id"]: (r["a"], r["b"]) for r in rows_of(tmp_path / "run") if r["outcome"] != "pass"}
    assert sorted(failing.values()) == [("0", "2"), ("1", "1"), ("1", "2"), ("2", "2")]
    return failing


@pytest.mark.slow
def test_rerun_failing_runs_exactly_the_failing_cells_with_the_new_repeats_and_compare_joins(tmp_path, finished):
    failing = _first_run(tmp_path, finished)  # the `flaky` file is not in tmp_path: the SIGSEGV cells pass now
    proc = crashmatrix("rerun", "run", "--failing", "repeats=3", "--out", "again", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    counts = Counter((r["cell_id"], r["repeat"]) for r in rows_of(tmp_path / "again"))
    assert set(counts) == {(cid, str(k)) for cid in failing for k in range(3)} and set(counts.values()) == {1}
    assert "repeats: 3" in (tmp_path / "again" / "matrix.yaml").read_text()

    # Same cell ids: compare joins them; the SIGSEGV cells pass now, a=1 b=1 still fails.
    cmp = crashmatrix("compare", "run", "again", "--format", "csv", cwd=tmp_path)
    assert cmp.returncode == 0, cmp.stderr
    changed = {(r["a"], r["b"]): (r["outcome_a"], r["outcome_b"]) for r in csv.DictReader(cmp.stdout.splitlines())}
    assert changed == {("0", "2"): ("crash", "pass"), ("1", "2"): ("crash", "pass"), ("2", "2"): ("crash", "pass")}


@pytest.mark.slow
def test_resume_of_a_stopped_rerun_completes_only_its_cells(tmp_path, finished):
    failing = _first_run(tmp_path, finished)
    (tmp_path / "flaky").write_text("")
    proc = crashmatrix("rerun", "run", "--failing", "--out", "again", "--max-failures", "1", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert len(rows_of(tmp_path / "again")) == 1 and "stopped early after 1 failing runs" in proc.stdout
    assert json.loads((tmp_path / "again" / "rerun.json").read_text())["cell_ids"] == sorted(failing)
    resumed = crashmatrix("run", "--resume", "again", cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert sorted(r["cell_id"] for r in rows_of(tmp_path / "again")) == sorted(failing)


def test_rerun_without_failing_runs_every_cell_into_a_default_directory_beside_the_run(tmp_path, finished):
    _first_run(tmp_path, finished)
    proc = crashmatrix("rerun", "run", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    [new] = [d for d in os.listdir(tmp_path) if d.startswith("tiny-rerun-")]
    assert Counter(r["cell_id"] for r in rows_of(tmp_path / new)) == Counter(
        r["cell_id"] for r in rows_of(tmp_path / "run")
    )


@pytest.mark.slow
def test_rerun_bad_input_and_nothing_to_rerun(tmp_path):
    (tmp_path / "m.yaml").write_text(MATRIX.replace("a: [0, 1, 2]", "a: [0]"))
    assert crashmatrix("run", "m.yaml", "--out", "clean", cwd=tmp_path).returncode == 0
    proc = crashmatrix("rerun", "clean", "--failing", cwd=tmp_path)
    assert proc.returncode == 0 and "clean has no failing runs; nothing to rerun" in proc.stdout
    assert sorted(os.listdir(tmp_path)) == ["clean", "m.yaml"]  # no empty run directory left behind

    for args, message in [
        (("rerun", "nowhere"), "rerun nowhere: no such run directory"),
        (("rerun", "."), "rerun .: not a run directory (no matrix.yaml)"),
        (("rerun", "clean", "repeats=0"), "repeats"),
        (("rerun", "clean", "axes.a=[5]"), "none of the 3 cells to rerun is in the matrix"),
    ]:
        proc = crashmatrix(*args, cwd=tmp_path)
        assert proc.returncode == 2, (args, proc.stdout, proc.stderr)
        assert message in proc.stderr and "Traceback" not in proc.stderr
    assert sorted(os.listdir(tmp_path)) == ["clean", "m.yaml"]
