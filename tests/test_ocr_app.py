"""The Hydra + Lightning + wandb app of examples/ocr_app, unmodified, under inject: its planted crash
and failure come out as a user would read them, and the knobs reach its DataLoaders from outside."""

from __future__ import annotations

import csv

from conftest import ROOT, crashmatrix

# The app's own config has no workers anywhere: only the forced num_workers knob gives its loaders
# workers, so a worker_crash proves the knob arrived. Pairwise over three two-valued axes still holds
# every pair: a (2 workers, segv) cell, a (0 workers, size 32) cell and a (0 workers, size 30) cell.
MATRIX = f"""\
name: ocr-app-test
command: [python, {ROOT}/examples/ocr_app/train.py]
inject: true
params:
  stages: [fit]
  trainer.max_steps: 2
axes:
  start_method: [fork]
  num_workers: [0, 2]
  fault.worker_segv: [false, true]
  data.image_size: [32, 30]
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
    with open(run / "results.csv") as f:
        rows = list(csv.DictReader(f))
    assert {expected(r) for r in rows} == {"pass", "fail", "worker_crash"}
    for row in rows:
        log = (run / row["log_dir"] / "stderr.log").read_text(errors="replace")[-3000:]
        assert row["outcome"] == expected(row), (row, log)
        if row["outcome"] == "worker_crash":
            assert row["signal"] == "SIGSEGV" and "DataLoader worker" in row["error"], row
        elif row["outcome"] == "fail":
            assert row["error"].startswith("ValueError: Target size (torch.Size([4, 1, 30, 30])) must be the same"), row
        else:
            assert float(row["steps_per_s"]) > 0 and float(row["peak_rss_mb"]) > 0, row
    explained = crashmatrix("explain", run, cwd=tmp_path)
    assert "worker_crash SIGSEGV when num_workers=2 and fault.worker_segv=true" in explained.stdout, explained.stdout
