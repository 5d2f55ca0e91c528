"""A parent of spawned ranks that fails on its own after they ended is no rank: its row names none.

Run alone: tests/apps/spawn_state_lost.py spawns 2 gloo ranks (torch.multiprocessing.spawn), each all-reduces
once, sets `self.best` in its own copy of the trainer and exits 0; then the parent, which is no rank, prints
`trainer.best` and fails: `AttributeError: 'Trainer' object has no attribute 'best'` at spawn_state_lost.py:33 in
main, exit status 1 (Lightning-AI/pytorch-lightning#10896 is this with ddp_spawn). Nothing labels the parent's
traceback, and under inject the recorder saw both ranks end: the rank column said 1, sending a reader to a log
with no error in it. The contrast: tests/apps/ddp_train.py launcher=spawn fault=raise:1, where rank 1 raises
`ValueError: bad batch on rank 1` and spawn's ProcessRaisedException in the parent quotes it: rank 1 is right.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest
from conftest import ROOT, crashmatrix, rows_of

pytestmark = pytest.mark.slow  # spawned gloo ranks, under inject

APPS = os.path.join(ROOT, "tests", "apps")
MATRICES = {
    "parent": "command: [python, spawn_state_lost.py]\n",
    "rank": "command: [python, ddp_train.py]\nparams: {launcher: spawn, fault: 'raise:1'}\n",
}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Both programs at once under inject, then `crashmatrix resolve` of the parent's run."""
    base = tmp_path_factory.mktemp("spawn")
    for app in ("spawn_state_lost.py", "ddp_train.py"):
        shutil.copy(os.path.join(APPS, app), base / app)
    procs = {}
    for name, command in MATRICES.items():
        (base / f"{name}.yaml").write_text(f"name: {name}\n{command}inject: true\ntimeout: 120\n")
        argv = [sys.executable, "-m", "crashmatrix", "run", f"{name}.yaml", "--out", name]
        env = {**os.environ, "PYTHONPATH": ROOT}
        procs[name] = subprocess.Popen(argv, cwd=base, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    for proc in procs.values():
        _out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err.decode()
    done = crashmatrix("resolve", "parent", cwd=base)
    assert done.returncode == 0, done.stderr
    return base


def test_the_parents_own_failure_names_no_rank(runs):
    (row,) = rows_of(runs / "parent")
    assert row["error"] == "AttributeError: 'Trainer' object has no attribute 'best'"
    assert row["where"] == "spawn_state_lost.py:33 in main"
    assert row["rank"] == ""


def test_a_rank_that_raised_under_spawn_is_still_that_rank(runs):
    (row,) = rows_of(runs / "rank")
    assert row["error"] == "ValueError: bad batch on rank 1"
    assert row["rank"] == "1"


def test_the_bug_report_of_a_matrix_without_axes_names_its_one_configuration(runs):
    (issue,) = (runs / "parent" / "repro").glob("*/ISSUE.md")
    text = issue.read_text()
    assert "- The one configuration failed so in 1 of 1 runs." in text
    assert "rank" not in text.split("## To reproduce")[0]
