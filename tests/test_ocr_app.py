"""The Hydra + Lightning + wandb app of examples/ocr_app, unmodified, under inject: its planted crash
and failure come out as a user would read them, and the knobs reach its DataLoaders from outside.

The matrix of five cells turns the app's wandb logger off with its own key (`logger.enabled: false`, as a
user turns it off): no cell of it reaches validation, where the app logs its images, and what it asserts is
the loaders' and the loss's. The app with its wandb logger on (offline) runs live in the installed-wheel test
below (a worker's segfault with wandb's service running) and in test_init.py's written matrix (two passing
cells, fork with and without workers). wandb's start in each cell (its import and its service process) cost
about 2 CPU-s of the 7.4 a cell took alone, of a suite bound by its 2 cores' CPU."""

from __future__ import annotations

import re

import pytest
from conftest import ROOT, crashmatrix, rows_of

pytestmark = pytest.mark.slow  # the Hydra + Lightning app

# The app's own config has no workers anywhere: only the forced num_workers knob gives its loaders
# workers, so a worker_crash proves the knob arrived. Pairwise over three two-valued axes holds every
# pair in 4 cells, but there the crash shows only where size 30 also fails, so `data.image_size=30`
# alone would separate it from the passes: the included cell (crash at size 32) is the evidence that
# names the crash's own pair, as a user would add it.
MATRIX = f"""\
name: ocr-app-test
command: [python, {ROOT}/examples/ocr_app/train.py]
inject: true
params:
  stages: [fit]
  trainer.max_steps: 2
  logger.enabled: false  # wandb's own cells are the installed wheel's below and test_init.py's
axes:
  start_method: [fork]
  num_workers: [0, 2]
  fault.worker_segv: [false, true]
  data.image_size: [32, 30]
include:
  - {{start_method: fork, num_workers: 2, fault.worker_segv: true, data.image_size: 32}}
strategy: pairwise
timeout: 300
"""


def expected(row) -> str:
    if row["num_workers"] == "2" and row["fault.worker_segv"] == "true":
        return "worker_crash"
    return "fail" if row["data.image_size"] == "30" else "pass"


def test_planted_crash_and_failure_under_forced_workers(tmp_path):
    matrix, run = tmp_path / "m.yaml", tmp_path / "run"
    matrix.write_text(MATRIX)
    done = crashmatrix("run", matrix, "--jobs", "2", "--out", run, cwd=tmp_path, timeout=900)
    assert done.returncode == 0, done.stderr
    rows = rows_of(run)
    assert {expected(r) for r in rows} == {"pass", "fail", "worker_crash"}
    for row in rows:
        log = (run / row["log_dir"] / "stderr.log").read_text(errors="replace")[-3000:]
        assert row["outcome"] == expected(row), (row, log)
        if row["outcome"] == "worker_crash":
            # PyTorch words it one of two ways, by a race: the main process's SIGCHLD handler raises
            # "DataLoader worker (pid N) is killed by signal", or its queue poll first finds the worker
            # gone ("exited unexpectedly"), and then the worker's own line is the one naming the signal.
            # the class word, then (signature.with_place) the app's frame where the worker died, if shown
            assert row["signal"] == "SIGSEGV" and row["signature"].split(" in ")[0] == "worker_signal", row
            assert re.search(
                r"DataLoader worker \(pid \d+\) is killed by signal: Segmentation fault"
                r"|Unexpected segmentation fault encountered in worker",
                row["error"],
            ), row
        elif row["outcome"] == "fail":
            assert row["error"].startswith("ValueError: Target size (torch.Size([4, 1, 30, 30])) must be the same"), row
        else:
            assert float(row["first_batch_s"]) > 0 and float(row["peak_rss_mb"]) > 0, row
    explained = crashmatrix("explain", run, cwd=tmp_path)
    assert (
        "worker_crash SIGSEGV worker_signal when num_workers=2 and fault.worker_segv=true (2 of 2 matching)"
        in explained.stdout
    ), explained.stdout
    assert (
        "fail ValueError: Target size" in explained.stdout
        and "when data.image_size=30 (1 of 2 matching; 1 masked by worker_crash SIGSEGV worker_signal)"
        in explained.stdout
    ), explained.stdout


def test_installed_wheel_inits_and_runs_the_app_from_outside_the_repository(tmp_path):
    """As a user with crashmatrix pip-installed (not editable): init on their app, then run it."""
    import os
    import shutil
    import subprocess

    from installed import install_wheel

    install_wheel(tmp_path)
    work = tmp_path / "project"
    shutil.copytree(
        os.path.join(ROOT, "examples", "ocr_app"),
        work,
        ignore=shutil.ignore_patterns("matrix.yaml", "*.md", "outputs", "__pycache__"),
    )
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    tool = str(tmp_path / "venv" / "bin" / "crashmatrix")

    def cli(*args):
        return subprocess.run(
            [tool, *map(str, args)], cwd=work, env=env, capture_output=True, text=True, timeout=600, check=False
        )

    made = cli("init", "train.py")
    assert made.returncode == 0 and (work / "crashmatrix.yaml").exists(), made.stderr
    one_value = [
        f"axes.{k}=[{v}]"
        for k, v in (
            ("start_method", "forkserver"),
            ("pin_memory", "false"),
            ("wandb", "offline"),
            ("log_images", "true"),
            ("all_persistent_workers.values", "false"),
            ("trainer.precision", "'32'"),
            ("trainer.benchmark", "false"),
            ("trainer.deterministic", "false"),
            ("logger.enabled", "true"),
            ("logger.mode", "offline"),
        )
    ]
    ran = cli(
        "run",
        "crashmatrix.yaml",
        *one_value,
        "+axes.fault.worker_segv=[true]",
        # one cell: its twin without workers passes in test_planted_crash_and_failure_under_forced_workers
        "axes.num_workers=[2]",
        "strategy=full",
        "+params.stages=[fit]",
        "--jobs",
        "2",
        "--out",
        "run",
    )
    assert ran.returncode == 0, ran.stderr
    outcomes = {r["num_workers"]: (r["outcome"], r["signal"]) for r in rows_of(work / "run")}
    # The planted segfault needs a worker; only the forced knob gives the app's loaders one.
    assert outcomes == {"2": ("worker_crash", "SIGSEGV")}, outcomes
