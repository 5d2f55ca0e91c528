"""`crashmatrix diagnose` on output files real tools wrote (issue 49): a Lightning ddp_spawn run and a Slurm
job, each recorded once into tests/data/diagnose/ (its README says how), and a Slurm job run live where a
one-node cluster can start here (tests/slurm_cluster.py; skipped with its reason otherwise). torchrun's
--log-dir files are run live in tests/test_diagnose.py.

Cost: the recordings none; the live Slurm job two stdlib tasks (the cluster is the session's)."""

import os
import subprocess
import sys
import time

import pytest
from conftest import ROOT, crashmatrix

from crashmatrix.resolve.diagnose import diagnose
from crashmatrix.resolve.log_text import read_logs

pytestmark = pytest.mark.slow  # a live Slurm job beside the recordings

DATA = os.path.join(ROOT, "tests/data/diagnose")


def _found(path):
    return diagnose(read_logs([path]))


def test_a_lightning_ddp_spawn_run_names_rank_1_and_its_training_step():
    found = _found(os.path.join(DATA, "lightning-ddp-spawn.log"))
    row = found.row
    # rank 0's SIGTERM is mp.spawn ending it after rank 1 raised: a consequence
    assert (row["outcome"], row["signal"], row["rank"]) == ("fail", "", "1"), row
    assert row["error"] == "ValueError: bad batch 2 on rank 1"
    assert row["where"] == "pl_spawn.py:14 in training_step"
    assert "The program's to fix: the error was raised at its own line pl_spawn.py:14 in training_step" in found.whose


def test_a_slurm_jobs_output_file_names_the_task_that_died():
    row = _found(os.path.join(DATA, "slurm-two-tasks.out")).row
    assert (row["outcome"], row["signal"], row["rank"]) == ("rank_crash", "SIGSEGV", "1"), row
    assert row["where"] == "tests/apps/two_tasks_segv.py:12 in read_record" or row["where"].endswith(
        "two_tasks_segv.py:12 in read_record"
    )


def test_a_live_slurm_job_diagnosed_from_its_output_file(slurm_cluster, tmp_path):
    app = os.path.join(ROOT, "tests/apps/two_tasks_segv.py")
    script = tmp_path / "job.sh"
    script.write_text(f"#!/bin/bash\nsrun -n 2 {sys.executable} {app}\n")
    out = tmp_path / "slurm-%j.out"
    submitted = subprocess.run(
        ["sbatch", "--parsable", "-n", "2", "-o", str(out), str(script)], capture_output=True, text=True, check=True
    )
    job = submitted.stdout.strip().split(";")[0]
    deadline = time.monotonic() + 90
    while slurm_cluster.job_state(job) in (None, "PENDING", "CONFIGURING", "RUNNING", "COMPLETING"):
        assert time.monotonic() < deadline, slurm_cluster.log_tails()
        time.sleep(0.5)
    written = tmp_path / f"slurm-{job}.out"
    done = crashmatrix("diagnose", str(written), "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert '"outcome": "rank_crash"' in done.stdout and '"rank": "1"' in done.stdout, written.read_text()
