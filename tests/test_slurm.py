"""The same matrix through a real one-node Slurm cluster (slurmctld, slurmd, munged on loopback):
the same outcomes and signals as locally; a job cancelled with scancel mid-run, then --resume."""

import json
import os

import pytest
from conftest import crashmatrix, processes_with, rows_of
from test_executors import SCRIPT, matrix_text, outcomes, start_until_holding
from test_hunt_cli import CRASHY, hunted_cells
from test_hunt_cli import MATRIX as HUNT_MATRIX

pytestmark = pytest.mark.slow  # a real Slurm cluster

EXPECTED = [("0", "pass", ""), ("1", "pass", ""), ("2", "crash", "SIGSEGV"), ("3", "pass", "")]


def test_slurm_gives_the_same_outcomes_and_signals_as_local(slurm_cluster, tmp_path, write):
    script = write("s.py", SCRIPT)
    (tmp_path / "release").write_text("")
    path = write("m.yaml", matrix_text(script, ", array_parallelism: 2, partition: debug"))
    env = {"WORK": str(tmp_path)}
    local = crashmatrix("run", path, "--out", tmp_path / "local", cwd=tmp_path, env=env)
    slurm = crashmatrix("run", path, "--out", tmp_path / "slurm", "--executor", "slurm", cwd=tmp_path, env=env)
    assert local.returncode == 0 and slurm.returncode == 0, slurm.stdout + slurm.stderr
    assert outcomes(tmp_path / "slurm") == outcomes(tmp_path / "local") == EXPECTED
    # The cells ran inside Slurm jobs: their environment says so.
    assert any(name.startswith("env-") for name in os.listdir(tmp_path / "slurm"))
    assert os.listdir(tmp_path / "slurm" / "submitit")


def test_scancel_mid_run_is_an_error_row_and_resume_reruns_it(slurm_cluster, tmp_path, write):
    script = write("s.py", SCRIPT)
    path = write("m.yaml", matrix_text(script, ", partition: debug"))
    proc = start_until_holding(tmp_path, path, "slurm")
    (cell,) = [p for p in processes_with(f"CRASHMATRIX_RUN_DIR={tmp_path / 'run'}") if "i=1" in p]
    with open(f"/proc/{cell.split(':')[0]}/environ", "rb") as f:
        job_env = dict(kv.split(b"=", 1) for kv in f.read().split(b"\0") if b"=" in kv)
    # An array task by its array name, as users and submitit cancel it (its numeric SLURM_JOB_ID
    # alone did not cancel it on Slurm 22.05 here).
    job_id = f"{job_env[b'SLURM_ARRAY_JOB_ID'].decode()}_{job_env[b'SLURM_ARRAY_TASK_ID'].decode()}"
    slurm_cluster.run("scancel", job_id)
    out, err = proc.communicate(timeout=180)
    assert proc.returncode == 0, err
    row = next(r for r in rows_of(tmp_path / "run") if r["i"] == "1")
    assert row["outcome"] == "error" and f"job {job_id} was stopped by SIGTERM" in row["error"], row

    (tmp_path / "release").write_text("")
    resumed = crashmatrix(
        "run", "--resume", tmp_path / "run", "--executor", "slurm", cwd=tmp_path, env={"WORK": str(tmp_path)}
    )
    assert resumed.returncode == 0, resumed.stderr
    assert outcomes(tmp_path / "run") == EXPECTED
    assert processes_with(f"CRASHMATRIX_RUN_DIR={tmp_path / 'run'}") == []


def test_a_job_lost_before_its_cells_ran_on_a_cluster_without_accounting(slurm_cluster, tmp_path, write):
    # A second, small cluster whose sacct is the real one (accounting off): submitit cannot tell that a
    # job ended without a result, squeue can. The job's setup fails before Python starts.
    from slurm_cluster import SlurmCluster

    script = write("s.py", SCRIPT)
    path = write("m.yaml", matrix_text(script, ', partition: debug, queue_check_s: 1, setup: ["exit 1"]'))
    with SlurmCluster(tmp_path / "noacct", sacct_shim=False) as cluster:
        proc = crashmatrix(
            "run",
            path,
            "--out",
            tmp_path / "run",
            "--executor",
            "slurm",
            cwd=tmp_path,
            env={**cluster.env, "WORK": str(tmp_path)},
            timeout=180,
        )
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    got = rows_of(tmp_path / "run")
    assert sorted(r["i"] for r in got) == ["0", "1", "2", "3"]
    for r in got:
        assert r["outcome"] == "error" and "left the queue without a result" in r["error"], r


def test_hunt_through_slurm_names_what_a_local_hunt_names_from_the_same_runs(slurm_cluster, tmp_path, write):
    """hunt submits each batch of --jobs cells as Slurm jobs: the same cells, chosen from the same
    evidence, as a local hunt runs, and the same cause."""
    matrix = write("m.yaml", HUNT_MATRIX.format(script=write("crashy.py", CRASHY)) + "executor: {partition: debug}\n")
    hunts = {}
    for executor in ("local", "slurm"):
        out = tmp_path / executor
        proc = crashmatrix(
            "hunt", matrix, "--executor", executor, "--jobs", "2", "--out", out, cwd=tmp_path, timeout=900
        )
        assert proc.returncode == 0, proc.stdout + proc.stderr
        hunts[executor] = json.loads((out / "hunt.json").read_text())
        assert hunted_cells(out)
    assert os.listdir(tmp_path / "slurm" / "submitit")  # the runs went through submitit's Slurm jobs
    # results.csv lists a batch's runs as they end, which differs between executors; the runs do not
    assert sorted(hunted_cells(tmp_path / "slurm")) == sorted(hunted_cells(tmp_path / "local"))
    (cause,) = hunts["slurm"]["causes"]
    assert cause["conditions"] == {"a": "1", "c": "2"} and (cause["outcome"], cause["signal"]) == ("crash", "SIGSEGV")
    assert hunts["slurm"]["complete"] is True and hunts["slurm"]["runs"] == hunts["local"]["runs"]


def test_a_hydra_sweep_through_slurm_records_the_same_rows_as_locally(slurm_cluster, tmp_path):
    # hydra/launcher=crashmatrix with executor slurm: the jobs run as Slurm array tasks, each still a
    # supervised process of its own, so the crashing job is a SIGSEGV row as it is locally.
    import shutil
    import subprocess
    import sys

    from conftest import ROOT

    app = tmp_path / "app"
    shutil.copytree(os.path.join(ROOT, "tests", "apps", "hydra_sweep"), app)
    sweeps = {}
    for executor in ("local", "slurm"):
        sweeps[executor] = tmp_path / executor
        proc = subprocess.run(
            [sys.executable, "app.py", "-m", "hydra/launcher=crashmatrix", "a=0,1", "c=0,2"]
            + [f"hydra.sweep.dir={sweeps[executor]}", f"hydra.launcher.executor={executor}"]
            + ["+hydra.launcher.slurm.partition=debug", "hydra.launcher.jobs=2"],
            cwd=app,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert proc.returncode == 1, proc.stderr  # one job failed: Hydra's convention for the multirun
        assert "job #3 (a=1 c=2) ended crash SIGSEGV" in proc.stderr, proc.stderr

    def rows(sweep):
        return sorted((r["a"], r["c"], r["outcome"], r["signal"]) for r in rows_of(sweep))

    assert (
        rows(sweeps["slurm"])
        == rows(sweeps["local"])
        == [
            ("0", "0", "pass", ""),
            ("0", "2", "pass", ""),
            ("1", "0", "pass", ""),
            ("1", "2", "crash", "SIGSEGV"),
        ]
    )
    assert os.listdir(sweeps["slurm"] / "submitit")  # the jobs went through Slurm
