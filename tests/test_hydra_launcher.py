"""`hydra/launcher=crashmatrix` on a real Hydra app (tests/apps/hydra_sweep): each job in its own process,
a crash ends only its job, the sweep directory is a run directory that `crashmatrix explain` reads, and
knobs given as `+crashmatrix.<knob>=...` reach the job's process but never the app's config."""

import json
import os
import shutil
import subprocess
import sys

import pytest
import yaml
from conftest import ROOT, crashmatrix, rows_of

pytestmark = pytest.mark.slow  # Hydra sweeps of real jobs (Lightning's template among them)

APP = os.path.join(ROOT, "tests", "apps", "hydra_sweep")


def _sweep(tmp_path, *overrides, timeout=240):
    """`python app.py -m hydra/launcher=crashmatrix OVERRIDES` from a copy of the app; (process, sweep dir)."""
    app = tmp_path / "app"
    if not app.exists():
        shutil.copytree(APP, app)
    sweep = tmp_path / "sweep"
    proc = subprocess.run(
        [sys.executable, "app.py", "-m", "hydra/launcher=crashmatrix", f"hydra.sweep.dir={sweep}", *overrides],
        cwd=app,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    return proc, sweep


def _job_outputs(sweep) -> dict:
    """Each job's printed JSON, by Hydra's job number (the sweep's subdirectory)."""
    rows = {r["log_dir"]: r for r in rows_of(sweep)}
    out = {}
    for log_dir in rows:
        with open(os.path.join(sweep, log_dir, "job.json")) as f:
            num = json.load(f)["job_num"]
        with open(os.path.join(sweep, log_dir, "stdout.log")) as f:
            lines = [line for line in f if line.startswith("{")]
        out[num] = json.loads(lines[-1]) if lines else None
    return out


def test_a_segfaulting_job_ends_only_itself_and_explain_names_its_values(tmp_path):
    proc, sweep = _sweep(tmp_path, "a=0,1", "c=0,2", "hydra.launcher.jobs=2")
    # Hydra's convention: a failed job fails the multirun (exit status 1), after every job has run
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    assert "job #3 (a=1 c=2) ended crash SIGSEGV" in proc.stderr
    assert "1 of the sweep's 4 jobs failed, every one ran" in proc.stderr
    rows = rows_of(sweep)
    assert sorted((r["a"], r["c"], r["outcome"], r["signal"]) for r in rows) == [
        ("0", "0", "pass", ""),
        ("0", "2", "pass", ""),
        ("1", "0", "pass", ""),
        ("1", "2", "crash", "SIGSEGV"),
    ]
    for num in range(4):  # each job's Hydra output where Hydra puts it, the crashed one's too
        assert (sweep / str(num) / ".hydra" / "overrides.yaml").exists()
    for name in ("summary.md", "report.html", "env.json", "matrix.yaml", "multirun.yaml"):
        assert (sweep / name).exists(), name
    explained = crashmatrix("explain", sweep, cwd=tmp_path)
    assert explained.returncode == 0, explained.stderr
    assert explained.stdout.splitlines()[0].startswith("crash SIGSEGV when a=1 and c=2"), explained.stdout


def test_a_key_the_sweep_adds_with_plus_reruns_as_the_sweep_wrote_it(tmp_path):
    # `+extra` is a key the app's config lacks: the sweep directory's matrix must pass it with its `+`,
    # or a rerun, bisect or repro of the sweep fails on Hydra's "Key 'extra' is not in struct".
    proc, sweep = _sweep(tmp_path, "a=1", "c=0,2", "+extra=5", "hydra.launcher.jobs=2")
    assert proc.returncode == 1, proc.stderr
    rerun = crashmatrix("rerun", sweep, "--failing", "--out", tmp_path / "again", cwd=tmp_path)
    assert rerun.returncode == 0, rerun.stderr
    # a and +extra have one value: constants, in the kept matrix's params as the sweep wrote them
    assert [(r["c"], r["outcome"], r["signal"]) for r in rows_of(tmp_path / "again")] == [("2", "crash", "SIGSEGV")]
    import yaml

    assert yaml.safe_load((sweep / "matrix.yaml").read_text())["params"] == {"a": 1, "+extra": 5}


def test_knobs_reach_each_jobs_process_and_never_the_apps_config(tmp_path):
    proc, sweep = _sweep(
        tmp_path,
        "loader=true",
        "+crashmatrix.start_method=fork,spawn",
        "+crashmatrix.num_workers=2",
        "+crashmatrix.ddp.static_graph=true",  # a DDP knob, as the others (the app builds no DDP)
        "+hydra.launcher.knobs.rlimit.nofile=300",
        "hydra.launcher.jobs=2",
    )
    assert proc.returncode == 0, proc.stderr
    rows = rows_of(sweep)
    assert sorted((r["start_method"], r["outcome"]) for r in rows) == [("fork", "pass"), ("spawn", "pass")]
    # The DataLoader ran with 2 workers (its passes counted), spawned ones finding the app's own Dataset.
    assert all(r["steps"] == "8" and float(r["first_batch_s"]) > 0 for r in rows), rows
    outputs = _job_outputs(sweep)
    assert {o["start_method"] for o in outputs.values()} == {"fork", "spawn"}
    for num, output in outputs.items():
        assert "crashmatrix" not in output["config"]
        overrides = (sweep / str(num) / ".hydra" / "overrides.yaml").read_text()
        assert "crashmatrix" not in overrides and "loader=" in overrides
    import yaml

    kept = yaml.safe_load((sweep / "matrix.yaml").read_text())
    # one-value overrides (a knob's too) are constants: params, shown once, no axis
    assert kept["params"] == {"loader": True, "num_workers": 2, "ddp.static_graph": True, "rlimit.nofile": 300}
    assert kept["inject"] is True
    assert list(kept["axes"]) == ["start_method"]


def test_a_misspelt_knob_is_one_line_naming_the_knob(tmp_path):
    proc, sweep = _sweep(tmp_path, "+crashmatrix.pin_memroy=true,false")
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    first = proc.stderr.splitlines()[0]
    assert first.startswith("crashmatrix: +crashmatrix.pin_memroy: did you mean pin_memory?"), proc.stderr
    assert not (sweep / "results.csv").exists()


def test_a_ddp_knob_value_ddp_refuses_is_one_line(tmp_path):
    proc, sweep = _sweep(tmp_path, "+crashmatrix.ddp.bucket_cap_mb=abc")
    assert proc.returncode == 1  # Hydra's exit status for a launcher's error
    assert proc.stderr.splitlines()[0] == (
        "crashmatrix: +crashmatrix.ddp.bucket_cap_mb: not a positive number of MB: 'abc'"
        " (ddp.bucket_cap_mb takes a number (MB))"
    ), proc.stderr
    assert "Traceback" not in proc.stderr and not (sweep / "results.csv").exists()


def test_an_unknown_executor_is_one_line(tmp_path):
    proc, _sweep_dir = _sweep(tmp_path, "a=0,1", "hydra.launcher.executor=slurmm")
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    assert proc.stderr.splitlines()[0] == (
        "crashmatrix: hydra.launcher.executor: 'slurmm' is not one of local, submitit-local, slurm"
    )


def test_ranks_as_slurm_tasks_are_refused_in_one_line(tmp_path):
    proc, sweep = _sweep(tmp_path, "a=0,1", "hydra.launcher.executor=slurm", "+hydra.launcher.slurm.tasks_per_node=2")
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    assert proc.stderr.splitlines()[0].startswith(
        "crashmatrix: hydra.launcher.slurm.tasks_per_node: a job's ranks as Slurm tasks are not offered here"
    ), proc.stderr
    assert not (sweep / "results.csv").exists()


def test_through_submitit_local_a_crash_is_still_its_signal(tmp_path):
    # submitit alone reports a segfaulting job as a bare failure; under crashmatrix's supervisor on the node
    # the job's row still says SIGSEGV.
    proc, sweep = _sweep(tmp_path, "a=0,1", "c=2", "hydra.launcher.executor=submitit-local")
    assert proc.returncode == 1, proc.stderr
    assert "crash SIGSEGV" in proc.stderr and "Traceback" not in proc.stderr
    assert sorted((r["a"], r["outcome"], r["signal"]) for r in rows_of(sweep)) == [
        ("0", "pass", ""),
        ("1", "crash", "SIGSEGV"),
    ]
    assert (sweep / "submitit").is_dir()


TEMPLATE = os.path.join(ROOT, "tests", "apps", "template_app")


def test_the_template_lightning_app_sweeps_unmodified_with_knobs(tmp_path):
    # Laid out like the public Hydra + Lightning templates: config groups, a root marker, a timestamped
    # sweep directory of its own (logs/train/multiruns/<time>), Lightning's Trainer and CSV logger. One job
    # (each imports Lightning): a knob swept over values under this launcher is the hydra_sweep app's, above.
    app = tmp_path / "template_app"
    shutil.copytree(TEMPLATE, app)
    proc = subprocess.run(
        [sys.executable, "src/train.py", "-m", "hydra/launcher=crashmatrix", "hydra.launcher.jobs=2"]
        + ["logger=csv", "+crashmatrix.start_method=fork", "+crashmatrix.num_workers=2"],
        cwd=app,
        capture_output=True,
        text=True,
        timeout=400,
    )
    assert proc.returncode == 0, proc.stderr
    (sweep,) = (app / "logs" / "train" / "multiruns").iterdir()
    (row,) = rows_of(sweep)
    assert (row["outcome"], row["error"]) == ("pass", ""), row
    assert "logger" not in row and "num_workers" not in row  # one value each: constants, in the kept params
    with open(sweep / "matrix.yaml") as f:
        assert yaml.safe_load(f)["params"]["num_workers"] == 2
    # the knob reached the DataLoader the app built (its config says 0 workers: the memory of 2 was sampled);
    # the app's config never saw it
    assert int(row["steps"]) > 0
    with open(sweep / row["log_dir"] / "result.json") as f:
        workers_mb = json.load(f)["metrics"]["memory"]["workers_mb"]
    # (none at a pass's end, once every batch was sent to the workers: incell/memory_sampler.py)
    assert any(workers_mb) and all(mb is None or mb > 0 for mb in workers_mb), workers_mb
    assert (sweep / "0" / ".hydra" / "config.yaml").is_file()
    assert "crashmatrix" not in (sweep / "0" / ".hydra" / "overrides.yaml").read_text()
    report = crashmatrix("report", sweep, cwd=tmp_path)
    assert report.returncode == 0 and "pass" in report.stdout, report.stderr
