"""One failure, one identity: real cells repeated and real apps (Hydra, Lightning) through the real command line."""

import csv
import os
import sys

from conftest import ROOT, crashmatrix

APPS = os.path.join(ROOT, "tests", "apps")


def rows(run_dir):
    with open(os.path.join(run_dir, "results.csv"), newline="") as f:
        return list(csv.DictReader(f))


def test_fd_exhaustion_repeated_8_times_has_one_outcome_signal_and_signature(tmp_path, write):
    # The dataloader matrix's fd-exhaustion cell (matrix/dataloader.yaml): descriptors run out in the main
    # process, in the workers' feeder threads or in the resource sharer, whichever comes first.
    path = write("fd.yaml", """\
name: fd
probe: dataloader
params: {steps: 40, batch_size: 4, tensor_kb: 256, tensors_per_sample: 4, hold_batches: -1, num_threads: 1,
         start_method: fork, pin_memory: false, sharing_strategy: file_descriptor}
axes:
  rlimit.nofile: [64]
  num_workers: [2]
repeats: 8
timeout: 120
""")
    proc = crashmatrix("run", path, "--out", tmp_path / "run", "--jobs", "2", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    got = rows(tmp_path / "run")
    assert len(got) == 8
    assert {(r["outcome"], r["signal"], r["signature"]) for r in got} == {("fail", "", "fd_exhaustion")}, \
        [(r["outcome"], r["error"]) for r in got]
    for r in got:
        assert "Too many open files" in r["error"] or "ancdata" in r["error"], r["error"]
    header = list(got[0])
    assert header[header.index("log_dir") + 1: header.index("log_dir") + 3] == ["signature", "where"]
    summary = (tmp_path / "run" / "summary.md").read_text()
    assert "fd_exhaustion" in summary


def test_hydra_app_rows_name_the_override_and_the_job_exception_not_the_boilerplate(tmp_path, write):
    app = os.path.join(APPS, "hydra_tiny", "app.py")
    # A cell the include adds with a key the app's config does not have: Hydra refuses the override.
    path = write("hydra.yaml", f"""\
name: hydra
command: [python, {app}]
axes:
  mode: [ok, raise]
include:
  - {{mode: ok-again, start_method: fork}}
timeout: 60
""")
    proc = crashmatrix("run", path, "--out", tmp_path / "run", "--jobs", "2", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    by_mode = {r["mode"]: r for r in rows(tmp_path / "run")}
    assert by_mode["ok"]["outcome"] == "pass"
    assert (by_mode["raise"]["outcome"], by_mode["raise"]["error"]) == \
        ("fail", "ValueError: the job failed on purpose (mode=raise)")
    bad = by_mode["ok-again"]
    assert (bad["outcome"], bad["error"]) == \
        ("fail", "Could not override 'start_method'. Key 'start_method' is not in struct")
    for r in by_mode.values():
        assert "HYDRA_FULL_ERROR" not in r["error"] + r["signature"]
    assert bad["signature"] == bad["error"]  # no pid or path in it: the line itself is the identity


def test_lightning_misconfiguration_is_the_error(tmp_path, write):
    path = write("pl.yaml", f"""\
name: lightning
command: [python, {os.path.join(APPS, 'lightning_misconfig.py')}]
axes:
  devices: [0]
timeout: 120
""")
    proc = crashmatrix("run", path, "--out", tmp_path / "run", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    (r,) = rows(tmp_path / "run")
    assert r["outcome"] == "fail"
    assert r["error"].startswith("lightning_fabric.utilities.exceptions.MisconfigurationException: `Trainer(devices=0)`")
    assert r["signature"] == r["error"]
