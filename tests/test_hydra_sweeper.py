"""`hydra/sweeper=crashmatrix` on a real Hydra app (tests/apps/hydra_sweep: a segfault planted at a=1 c=2,
a ValueError at a=2): pairwise runs a covering array, hunt names the planted crash exactly."""

import itertools
import json
import shutil
import subprocess
import sys

import pytest
import yaml
from conftest import rows_of
from test_hydra_launcher import APP, _sweep

pytestmark = pytest.mark.slow  # Hydra sweeps of real jobs


def test_pairwise_over_four_axes_of_three_runs_nine_jobs_covering_every_pair(tmp_path):
    proc, sweep = _sweep(
        tmp_path,
        "hydra/sweeper=crashmatrix",
        "hydra.sweeper.strategy=pairwise",
        "a=0,1,2",
        "b=0,1,2",
        "c=0,1,2",
        "d=0,1,2",
        "hydra.launcher.jobs=2",
    )
    assert proc.returncode == 1, proc.stderr  # jobs failed (a=2 raises): Hydra's exit status, every job run
    assert "Traceback" not in proc.stderr
    rows = rows_of(sweep)
    assert len(rows) == 9
    for x, y in itertools.combinations("abcd", 2):
        assert {(r[x], r[y]) for r in rows} == set(itertools.product("012", repeat=2)), (x, y)
    assert yaml.safe_load((sweep / "matrix.yaml").read_text())["strategy"] == "pairwise"


def test_hunt_names_the_planted_two_way_crash_exactly(tmp_path):
    proc, sweep = _sweep(
        tmp_path,
        "hydra/sweeper=crashmatrix",
        "hydra.sweeper.strategy=hunt",
        "hydra.sweeper.order=2",
        "a=0,1",
        "b=0,1,2",
        "c=0,1,2",
        "d=choice(1)",
        "hydra.launcher.jobs=2",
    )
    assert proc.returncode == 0, proc.stderr  # a hunt that finds what fails has done its job
    answer = json.loads((sweep / "hunt.json").read_text())
    assert answer["complete"] is True
    assert [(c["conditions"], c["outcome"], c["signal"]) for c in answer["causes"]] == [
        ({"a": "1", "c": "2"}, "crash", "SIGSEGV")
    ]
    assert answer["runs"] == len(rows_of(sweep)) < 2 * 3 * 3  # fewer jobs than the full product
    # a one-value choice is a constant: no axis of the hunt, in params, every job given it
    assert "hunt over 3 axes" in proc.stdout and "d" not in rows_of(sweep)[0]
    kept = yaml.safe_load((sweep / "matrix.yaml").read_text())
    assert list(kept["axes"]) == ["a", "b", "c"] and kept["params"] == {"d": 1}
    assert "hunt: complete after" in proc.stdout
    assert "crash SIGSEGV when a=1 and c=2" in proc.stdout
    assert "basic launcher" not in proc.stderr  # each job in its own process: no warning


def test_a_hunt_under_hydras_basic_launcher_says_first_that_a_crash_ends_it(tmp_path):
    # Hydra's basic launcher runs each job in the sweep's process: the first segfault ends the sweep (exit
    # 139, as DESIGN.md measured), so the hunt says so before its first job. Here no job crashes.
    app = tmp_path / "app"
    shutil.copytree(APP, app)
    argv = [sys.executable, "app.py", "-m", "hydra/sweeper=crashmatrix", "hydra.sweeper.strategy=hunt", "a=0,2"]
    proc = subprocess.run(
        argv + ["c=0,1", f"hydra.sweep.dir={tmp_path / 'sweep'}"], cwd=app, capture_output=True, text=True, timeout=240
    )
    assert proc.stderr.splitlines()[0] == (
        "crashmatrix: hunt under Hydra's basic launcher runs every job in this one process: the first job that "
        "crashes ends the sweep; add hydra/launcher=crashmatrix to run each job in its own process"
    )


def test_a_strategy_that_does_not_exist_is_one_line(tmp_path):
    proc, _ = _sweep(tmp_path, "hydra/sweeper=crashmatrix", "hydra.sweeper.strategy=pairwize", "a=0,1")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert proc.stderr.splitlines()[0] == (
        "crashmatrix: hydra.sweeper.strategy: 'pairwize' is not one of full, pairwise, hunt"
    )


def test_a_hunt_option_out_of_range_is_one_line(tmp_path):
    proc, _ = _sweep(
        tmp_path, "hydra/sweeper=crashmatrix", "hydra.sweeper.strategy=hunt", "hydra.sweeper.confidence=1.5", "a=0,1"
    )
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert proc.stderr.splitlines()[0] == (
        "crashmatrix: hydra.sweeper.confidence: expected a number in [0.5, 1), got 1.5"
    )


def test_the_sweeper_names_each_swept_column_as_the_launcher_records_it():
    # A knob named like one of the app's own keys gets the column `crashmatrix.<knob>` in results.csv;
    # hunt finds each job's row by these names, so the sweeper's must be the launcher's.
    from crashmatrix.hydra.jobs import parse_jobs
    from crashmatrix.hydra.strategies import axes_of, split

    arguments = ["a=0,1", "num_workers=2,4", "+crashmatrix.num_workers=0,2", "+crashmatrix.start_method=fork,spawn"]
    swept = [axis.column for axis in axes_of(split(arguments, None))]
    (job,) = parse_jobs(
        [["a=0", "num_workers=2", "+crashmatrix.num_workers=0", "+crashmatrix.start_method=fork"]], 0, {}
    )
    assert swept == list(job.values) == ["a", "num_workers", "crashmatrix.num_workers", "start_method"]
