"""`crashmatrix run [-a AXIS=V1,V2] [-r N] -- CMD ARGS...` (issue 49, part 3): the command as typed is the cell,
axes in Hydra's sweep grammar; the matrix it ran is kept, and rerun, explain and resolve read the run as any.

Cost: a stdlib app (a pool of one worker): 1 + 8 + 2 cell runs; one torchrun of 2 gloo ranks (about 8 CPU-s in
all)."""

import csv
import json
import os
import shutil

import pytest
import yaml
from conftest import ROOT, crashmatrix

pytestmark = pytest.mark.slow  # real runs of commands, a real torchrun

APP = os.path.join(ROOT, "tests/apps/start_method_app.py")


def _rows(run):
    with open(os.path.join(run, "results.csv"), newline="") as f:
        return list(csv.DictReader(f))


def test_the_command_as_typed_is_one_cell_and_its_matrix_is_kept(tmp_path):
    shutil.copy(APP, tmp_path / "app.py")
    out = crashmatrix("run", "--out", tmp_path / "one", "--", "python", "app.py", "lr=0.1", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    (row,) = _rows(tmp_path / "one")
    assert row["outcome"] == "pass"
    kept = yaml.safe_load(open(tmp_path / "one" / "matrix.yaml"))
    assert kept["command"] == ["python", str(tmp_path / "app.py"), "lr=0.1"]  # verbatim, the script found
    assert kept["cwd"] == str(tmp_path) and kept["inject"] is False and kept["axes"] == {}
    stdout = open(tmp_path / "one" / row["log_dir"] / "stdout.log").read()
    assert "lr 0.1" in stdout
    csv_path = tmp_path / "one" / "results.csv"
    csv_path.write_text(csv_path.read_text().splitlines()[0] + "\n")  # its row lost: --resume runs it again
    resumed = crashmatrix("run", "--resume", tmp_path / "one", cwd=ROOT)
    assert resumed.returncode == 0, resumed.stderr
    assert [r["outcome"] for r in _rows(tmp_path / "one")] == ["pass"]


def test_axes_on_the_command_line_then_rerun_explain_and_resolve(tmp_path):
    shutil.copy(APP, tmp_path / "app.py")
    run = tmp_path / "swept"
    out = crashmatrix(
        "run", "-a", "start_method=fork,spawn", "-a", "mode=ok,boom", "-r", "2", "--jobs", "2", "--out", run,
        "--", "python", "app.py", "lr=0.1", cwd=tmp_path,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    kept = yaml.safe_load(open(run / "matrix.yaml"))
    assert kept["inject"] is True  # a knob axis of a Python program: applied from outside
    assert kept["axes"] == {"start_method": ["fork", "spawn"], "mode": ["ok", "boom"]} and kept["repeats"] == 2
    failing = {(r["start_method"], r["mode"]) for r in _rows(run) if r["outcome"] == "fail"}
    assert failing == {("spawn", "boom")} and len(_rows(run)) == 8
    explained = crashmatrix("explain", run, "--json", cwd=tmp_path)
    assert explained.returncode == 0, explained.stderr
    assert '"start_method": "spawn"' in explained.stdout and '"mode": "boom"' in explained.stdout
    again = crashmatrix("rerun", run, "--failing", "--out", tmp_path / "again", cwd=ROOT)  # from elsewhere
    assert again.returncode == 0, again.stderr
    assert {(r["start_method"], r["mode"], r["outcome"]) for r in _rows(tmp_path / "again")} == {
        ("spawn", "boom", "fail")
    }
    resolved = crashmatrix("resolve", run, cwd=tmp_path)
    assert resolved.returncode == 0, resolved.stderr
    (bundle,) = os.listdir(run / "repro")
    issue = open(run / "repro" / bundle / "ISSUE.md").read()
    assert "ValueError: bad batch with lr=0.1" in issue and "app.py" in issue


@pytest.mark.parametrize(
    "args, said",
    [
        (["--"], "give the command after --"),
        (["-a", "num_workers=0,2", "--", "ls"], "only to a Python program"),
        (["-a", "x=interval(0,1)", "--", "python", "app.py"], "a sweep of listed values"),
        (["-a", "x=[", "--", "python", "app.py"], "Hydra's sweep grammar"),
        (["m.yaml", "--", "python", "app.py"], "not both"),
        (["--", "python", "nothere.py"], "nothere.py"),
        (["-a", "x=1,2"], "go with a command after --"),
    ],
)
def test_bad_command_lines_exit_2_with_one_line(tmp_path, args, said):
    shutil.copy(APP, tmp_path / "app.py")
    out = crashmatrix("run", *args, cwd=tmp_path)
    assert out.returncode == 2 and said in out.stderr, out.stderr
    assert "Traceback" not in out.stderr and "crashmatrix-command-" not in out.stderr


def test_a_torchrun_command_is_a_distributed_cell_and_its_log_dir_diagnoses_alike(tmp_path):
    # one torchrun serves both doors: the cell's row, and `diagnose` of the --log-dir files torchrun wrote
    # (--tee: its console output is prefixed `[default1]:` too, which the rules read as rank labels)
    app = os.path.join(ROOT, "tests/apps/gloo_rank1_raises.py")
    out = crashmatrix(
        "run", "-a", "num_threads=1", "--out", tmp_path / "ddp", "--", "python", "-m", "torch.distributed.run",
        "--nproc_per_node=2", "--log-dir", "logs", "--tee", "3", app, cwd=tmp_path, env={"OMP_NUM_THREADS": "1"},
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    kept = yaml.safe_load(open(tmp_path / "ddp" / "matrix.yaml"))  # a knob of one value: applied to every rank
    assert kept["inject"] is True and kept["params"] == {"num_threads": 1} and kept["axes"] == {}
    told = crashmatrix("explain", tmp_path / "ddp", cwd=tmp_path)
    said = "fail (rank 1) in every cell (1 of 1): the program itself, not a configuration — ValueError: shard 1"
    assert told.returncode == 0 and told.stdout.startswith(said), told.stdout
    (row,) = _rows(tmp_path / "ddp")
    assert (row["outcome"], row["rank"], row["error"]) == ("fail", "1", "ValueError: shard 1 is empty"), row
    assert row["where"].endswith("gloo_rank1_raises.py:10 in load_shard"), row["where"]
    for log in (tmp_path / "logs", tmp_path / "ddp" / row["log_dir"] / "stderr.log"):  # per-rank files; console
        said = crashmatrix("diagnose", log, "--json", cwd=tmp_path)
        assert said.returncode == 0, said.stderr
        got = json.loads(said.stdout)
        assert {k: got[k] for k in ("outcome", "rank", "error", "signature")} == {
            k: row[k] for k in ("outcome", "rank", "error", "signature")
        }, (log, got)
        assert got["where"].endswith("gloo_rank1_raises.py:10 in load_shard"), got["where"]
