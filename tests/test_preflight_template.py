"""Preflight and Hydra's grammar on the template app (tests/apps/template_app), laid out as the public
Hydra + Lightning templates are: `precision` only as a comment, `logger: null` with csv and wandb."""

import glob
import os
import time

import pytest
from conftest import ROOT, crashmatrix, rows_of

pytestmark = pytest.mark.slow  # Lightning's template app composed and run

TEMPLATE = os.path.join(ROOT, "tests", "apps", "template_app")


def test_precision_without_plus_ends_the_template_run_before_any_cell(tmp_path):
    start = time.monotonic()
    proc = crashmatrix(
        "run",
        os.path.join(TEMPLATE, "crash.yaml"),
        "+params.trainer.precision=16",
        "--out",
        tmp_path / "run",
        cwd=tmp_path,
    )
    assert time.monotonic() - start < 20
    assert proc.returncode == 2
    assert (
        "params.trainer.precision: the app's config has no trainer.precision (with trainer=default); "
        "to add it, write +trainer.precision" in proc.stderr.splitlines()[0]
    )
    assert not (tmp_path / "run").exists()


def test_a_logger_choice_and_a_key_inside_it_run_and_pass(tmp_path):
    matrix = tmp_path / "m.yaml"
    matrix.write_text(
        f"command: [python, {os.path.join(TEMPLATE, 'src', 'train.py')}]\ninject: true\n"
        "params:\n  logger: csv\n  logger.csv.name: mine\n  +trainer.precision: 32\n  trainer.max_epochs: 1\n"
        "axes:\n  num_workers: [0]\n"
    )
    proc = crashmatrix("run", matrix, "--out", tmp_path / "run", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    (row,) = rows_of(tmp_path / "run")
    assert row["outcome"] == "pass", row["error"]
    # the CSV logger the choice picked wrote under the name the key inside it gave
    assert glob.glob(
        str(tmp_path / "run" / row["log_dir"] / "**" / "mine" / "version_0" / "metrics.csv"), recursive=True
    )
