"""Issue 32 on a real Hydra app whose sweep names each job's folder `${hydra.job.override_dirname}`
(tests/apps/hydra_subdir: config groups, a SIGBUS at lr=0.2, each job appending a line to a file in its
own folder): jobs that differ only in a knob get folders of their own, a pattern that cannot tell two jobs
apart is refused before any job runs, and one-value overrides are constants: in params, shown once, in no
table or model, so resolve names the SIGBUS with the confidence it has without them."""

import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys

import pytest
import yaml
from conftest import ROOT, crashmatrix, rows_of

pytestmark = pytest.mark.slow  # Hydra sweeps of real jobs

APP = os.path.join(ROOT, "tests", "apps", "hydra_subdir")
SWEPT = ("lr=0.1,0.2", "+crashmatrix.num_workers=0,2")
CONSTANTS = ("model=vit", "trainer.devices=1", "+trainer.limit_train_batches=2", "trainer.max_epochs=choice(3)")


def _multirun(app, sweep, *overrides):
    return subprocess.run(
        [sys.executable, "app.py", "-m", "hydra/launcher=crashmatrix", f"hydra.sweep.dir={sweep}", *overrides],
        cwd=app,
        capture_output=True,
        text=True,
        timeout=240,
    )


@pytest.fixture(scope="module")
def sweeps(tmp_path_factory):
    """The same sweep twice, once beside four constants; each with its resolve's printed lines."""
    root = tmp_path_factory.mktemp("subdir")
    app = root / "app"
    shutil.copytree(APP, app)
    out = {}
    for name, extra in (("plain", ()), ("constants", CONSTANTS)):
        proc = _multirun(app, root / name, *SWEPT, *extra, "hydra.launcher.jobs=2")
        resolved = crashmatrix("resolve", root / name, cwd=root)
        out[name] = (proc, root / name, resolved)
    return out


def _cause_confidence(resolved) -> float:
    (line,) = [line for line in resolved.stdout.splitlines() if line.startswith("cause: crash SIGBUS")]
    assert "when lr=0.2:" in line, line
    return float(re.search(r"confidence (\d\.\d\d)", line).group(1))


def test_jobs_that_differ_only_in_a_knob_each_write_their_own_folder(sweeps):
    proc, sweep, _ = sweeps["plain"]
    assert proc.returncode == 1, proc.stderr  # two jobs crashed: Hydra's exit status, every job ran
    folders = sorted(p.name for p in sweep.iterdir() if (p / ".hydra").is_dir())
    assert folders == [  # the knob in override_dirname, as Hydra shows it; never in the app's config
        "+crashmatrix.num_workers=0,lr=0.1",
        "+crashmatrix.num_workers=0,lr=0.2",
        "+crashmatrix.num_workers=2,lr=0.1",
        "+crashmatrix.num_workers=2,lr=0.2",
    ]
    nums = set()
    for folder in folders:
        written = (sweep / folder / "written.txt").read_text().splitlines()
        assert len(written) == 1, (folder, written)  # one job wrote here, and only one
        job = json.loads(written[0])
        hydra_yaml = yaml.safe_load((sweep / folder / ".hydra" / "hydra.yaml").read_text())["hydra"]
        assert hydra_yaml["job"]["num"] == job["num"] and hydra_yaml["job"]["override_dirname"] == folder
        assert yaml.safe_load((sweep / folder / ".hydra" / "overrides.yaml").read_text()) == [folder.split(",")[1]]
        assert "crashmatrix" not in job["config"]
        nums.add(job["num"])
    assert nums == {0, 1, 2, 3}


def test_a_subdir_that_cannot_tell_two_jobs_apart_is_refused_before_any_job_runs(tmp_path):
    shutil.copytree(APP, tmp_path / "app")
    proc = _multirun(tmp_path / "app", tmp_path / "sweep", "hydra.sweep.subdir=${model.name}", *SWEPT)
    assert proc.returncode != 0 and "Traceback" not in proc.stderr
    assert proc.stderr.splitlines()[0].startswith(
        "crashmatrix: hydra.sweep.subdir '${model.name}' gives job #0 (+crashmatrix.num_workers=0 lr=0.1) and "
        "job #1 (+crashmatrix.num_workers=2 lr=0.1) one folder, 'crnn'; no job of this batch ran"
    ), proc.stderr
    assert not (tmp_path / "sweep" / "crnn").exists() and not (tmp_path / "sweep" / "results.csv").exists()


def test_one_value_overrides_are_constants_shown_once_and_in_no_model(sweeps, tmp_path):
    proc, sweep, resolved = sweeps["constants"]
    assert proc.returncode == 1, proc.stderr
    kept = yaml.safe_load((sweep / "matrix.yaml").read_text())
    assert list(kept["axes"]) == ["lr", "num_workers"]
    assert kept["params"] == {
        "model": "vit",
        "trainer.devices": 1,
        "+trainer.limit_train_batches": 2,
        "trainer.max_epochs": 3,
    }
    rows = rows_of(sweep)
    assert len(rows) == 4 and not {"model", "trainer.devices", "trainer.limit_train_batches"} & set(rows[0])
    # shown once, before the jobs; the progress lines show the two axes only
    assert proc.stdout.count("model=vit") == 1, proc.stdout
    progress = [line for line in proc.stdout.splitlines() if line.startswith("[")]
    assert len(progress) == 4 and all("trainer" not in line and "model" not in line for line in progress)
    summary = (sweep / "summary.md").read_text()
    assert "trainer.devices" not in summary and "| model" not in summary
    assert "trainer.devices" not in (sweep / "report.html").read_text()
    explained = crashmatrix("explain", sweep, cwd=tmp_path)
    assert explained.stdout.splitlines()[0] == "crash SIGBUS when lr=0.2 (2 of 2 matching)", explained.stdout
    assert "model" not in explained.stdout and "trainer" not in explained.stdout
    # the app still got every constant
    for folder in (p for p in sweep.iterdir() if (p / "written.txt").exists()):
        config = json.loads((folder / "written.txt").read_text())["config"]
        assert config["model"]["name"] == "vit" and config["trainer"]["limit_train_batches"] == 2


def test_resolve_names_the_cause_with_the_same_confidence_with_or_without_constants(sweeps, tmp_path):
    plain = _cause_confidence(sweeps["plain"][2])
    assert plain >= 0.95
    assert _cause_confidence(sweeps["constants"][2]) == plain
    # One-value axes written in a matrix (not a sweep's constants): hunt's model weighs no conjunction
    # with them, so the cause's confidence is the same again.
    matrix = tmp_path / "m.yaml"
    matrix.write_text(
        f"name: one_value_axes\ncommand: [python, {os.path.join(APP, 'app.py')}]\ninject: true\n"
        "axes:\n  lr: [0.1, 0.2]\n  num_workers: [0, 2]\n  model: [vit]\n  trainer.devices: [1]\n"
        "  +trainer.limit_train_batches: [2]\n"
    )
    run = crashmatrix("run", matrix, "--jobs", "2", "--out", tmp_path / "run", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert _cause_confidence(crashmatrix("resolve", tmp_path / "run", cwd=tmp_path)) == plain
    # and report.html's by-axis table has no row for them, as summary.md has none
    html = (tmp_path / "run" / "report.html").read_text()
    rates = html.split("<h2>Failure rate and speed by axis value</h2>")[1].split("</table>")[0]
    assert re.findall(r"<tr><td>([^<]*)</td>", rates) == ["lr", "lr", "num_workers", "num_workers"], rates


def test_a_sweeps_repro_runs_from_elsewhere_with_its_constants_and_knobs(sweeps, tmp_path):
    # The repro's matrix.yaml of a sweep with constants (one added with +) and a swept knob: run from
    # another folder it dies as the job did, the app getting every constant and never the knob.
    _proc, sweep, _resolved = sweeps["constants"]
    with open(sweep / "resolution.json") as f:
        (bundle,) = json.load(f)["repro"]
    again = crashmatrix("run", sweep / bundle["matrix"], "--out", tmp_path / "again", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    (row,) = rows_of(tmp_path / "again")
    assert (row["outcome"], row["signal"], row["lr"]) == ("crash", "SIGBUS", "0.2"), row
    (written,) = [p for p in (tmp_path / "again").rglob("written.txt")]
    config = json.loads(written.read_text())["config"]
    assert config["model"]["name"] == "vit" and config["trainer"] == {
        "devices": 1,
        "max_epochs": 3,
        "limit_train_batches": 2,
    }
    assert "crashmatrix" not in config


def test_a_job_that_repeats_another_gets_that_folder_with_r1(tmp_path):
    # Hunt runs a flaky cell again with the same overrides; override_dirname alone would be the same.
    shutil.copytree(APP, tmp_path / "app")
    proc = _multirun(tmp_path / "app", tmp_path / "sweep", "lr=0.1,0.1")
    assert proc.returncode == 0, proc.stderr
    assert [(r["repeat"], r["outcome"]) for r in rows_of(tmp_path / "sweep")] == [("0", "pass"), ("1", "pass")]
    for folder, num in (("lr=0.1", 0), ("lr=0.1-r1", 1)):
        (written,) = (tmp_path / "sweep" / folder / "written.txt").read_text().splitlines()
        assert json.loads(written)["num"] == num
    # The same sweep directory given again: the earlier sweep is set aside whole, its jobs' folders and
    # resolve's files with it, so the new job writes a folder of its own and no resolution.md of the
    # earlier run is left beside the new one.
    assert crashmatrix("resolve", tmp_path / "sweep", cwd=tmp_path).returncode == 0
    again = _multirun(tmp_path / "app", tmp_path / "sweep", "lr=0.3")
    assert again.returncode == 0, again.stderr
    (earlier,) = [p for p in (tmp_path / "sweep").iterdir() if p.name.startswith("crashmatrix-earlier-")]
    assert {"lr=0.1", "lr=0.1-r1", "resolution.md", "results.csv"} <= {p.name for p in earlier.iterdir()}
    assert not (tmp_path / "sweep" / "resolution.md").exists() and not (tmp_path / "sweep" / "lr=0.1").exists()
    (written,) = (tmp_path / "sweep" / "lr=0.3" / "written.txt").read_text().splitlines()
    assert json.loads(written)["config"]["lr"] == 0.3


def test_issue_md_gives_a_package_apps_own_command_which_reproduces(tmp_path):
    # The app run as `python -m pkg.train`, importing its package relatively: ISSUE.md's command without
    # crashmatrix is that module's, with the job's overrides, and it dies so when run from the app's root.
    package = tmp_path / "pkg"
    shutil.copytree(os.path.join(APP, "conf"), package / "conf")
    (package / "__init__.py").write_text("")
    (package / "settings.py").write_text("SIGNAL = 'SIGBUS'\n")
    app = open(os.path.join(APP, "app.py")).read().replace("import hydra\n", "import hydra\n\nfrom . import settings\n")
    (package / "train.py").write_text(app)
    sweep = tmp_path / "sweep"
    proc = subprocess.run(
        [sys.executable, "-m", "pkg.train", "-m", "hydra/launcher=crashmatrix", f"hydra.sweep.dir={sweep}", "lr=0.2"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "ended crash SIGBUS" in proc.stderr, proc.stderr
    assert crashmatrix("resolve", sweep, cwd=tmp_path).returncode == 0
    (issue,) = sweep.glob("repro/*/ISSUE.md")
    command = issue.read_text().split("Without it, the program's own command:\n\n```\n")[1].split("\n")[0]
    assert shlex.split(command)[1:] == ["-m", "pkg.train", "lr=0.2"], command
    alone = subprocess.run(shlex.split(command), cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert alone.returncode == -signal.SIGBUS, alone.stderr
