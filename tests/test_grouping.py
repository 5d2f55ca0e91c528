"""Signatures by class and place, not by the numbers a message carries (issue 52, item 2; grouping version 2, and 3 since).

A real program (the standard library alone: no torch import to pay) fails four ways, 3 repeats each: a KeyError
whose key is random in every run, a ValueError whose message carries a random count, and two bare `assert`s in
two functions, both printing only `AssertionError`. As Sentry groups an event with a stack trace: one failure
whatever the number, two places two failures.
"""

import csv
import json
import shutil

import pytest
from conftest import crashmatrix, rows_of

from crashmatrix.outcome import GROUPING_VERSION
from crashmatrix.verdict.signature import mask, signature_class, with_place

pytestmark = pytest.mark.slow  # a real run of four failures, 3 repeats each

APP = """\
import random, sys


def lookup(table):
    return table[random.randrange(1000, 9999)]


def count_labels(n):
    raise ValueError(f"sample {n} has {n % 7 + 2} labels, expected 1")


def check_shape(batch):
    assert len(batch) == 3


def check_labels(batch):
    assert all(label >= 0 for label in batch)


mode = sys.argv[1].split("=", 1)[1]
if mode == "key":
    lookup({})
elif mode == "count":
    count_labels(random.randrange(100, 100000))
elif mode == "assert_shape":
    check_shape([1, 2])
else:
    check_labels([1, -1, 2])
"""

MATRIX = """\
name: grouping
command: [python, {app}]
axes:
  mode: [key, count, assert_shape, assert_labels]
repeats: 3
timeout: 60
"""


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("grouping")
    (tmp / "pyproject.toml").write_text("[project]\nname = 'app'\n")  # the app's root: places are from here
    (tmp / "app.py").write_text(APP)
    (tmp / "m.yaml").write_text(MATRIX.format(app=tmp / "app.py"))
    ran = crashmatrix("run", "m.yaml", "--jobs", "2", "--out", tmp / "run", cwd=tmp)
    assert ran.returncode == 0, ran.stderr
    return tmp / "run"


def _signatures(run) -> dict:
    found: dict = {}
    for row in rows_of(run):
        found.setdefault(row["mode"], set()).add(row["signature"])
    return found


def test_a_number_in_the_message_never_splits_a_failure(run):
    errors = {r["error"] for r in rows_of(run) if r["mode"] == "key"}
    assert len(errors) > 1, errors  # the keys did differ from run to run (3 of 9000: alike by chance 1 in 10^4)
    signatures = _signatures(run)
    assert signatures["key"] == {"KeyError: N in app.py:lookup"}
    assert signatures["count"] == {"ValueError: sample N has N labels, expected N in app.py:count_labels"}


def test_two_bare_asserts_in_two_functions_are_two_failures(run):
    rows = rows_of(run)
    assert {r["error"] for r in rows if r["mode"].startswith("assert")} == {"AssertionError"}
    signatures = _signatures(run)
    assert signatures["assert_shape"] == {"AssertionError in app.py:check_shape"}
    assert signatures["assert_labels"] == {"AssertionError in app.py:check_labels"}


def test_the_run_keeps_its_grouping_version(run):
    assert json.loads((run / "env.json").read_text())["grouping_version"] == GROUPING_VERSION == 13


def _as_version_1(run, to):
    """The run as crashmatrix wrote it before grouping 2: each signature its error line (v1 masked no plain
    number and signed no exception by its place), env.json without a grouping version."""
    shutil.copytree(run, to)
    rows = rows_of(to)
    for row in rows:
        row["signature"] = row["error"]
    with open(to / "results.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    facts = json.loads((to / "env.json").read_text())
    del facts["grouping_version"]
    (to / "env.json").write_text(json.dumps(facts))


def test_compare_joins_one_failure_across_two_grouping_versions(run, tmp_path):
    _as_version_1(run, tmp_path / "old")
    told = crashmatrix("compare", tmp_path / "old", run, "--format", "json", cwd=tmp_path)
    assert told.returncode == 0, told.stderr
    result = json.loads(told.stdout)
    assert result["grouping_versions"] == {"A": 1, "B": GROUPING_VERSION}
    assert result["differing"] == [] and result["same"] == 4  # every cell joined: its failure is the same one
    text = crashmatrix("compare", tmp_path / "old", run, cwd=tmp_path).stdout
    assert f"Signatures were grouped by different versions (A: 1, B: {GROUPING_VERSION})" in text
    assert "No cell differs: the 4 cells in both runs have the same outcomes." in text


def test_compare_of_two_versions_still_tells_two_failures_apart(run, tmp_path):
    # the old run's check_labels failed elsewhere: another place is another failure, whatever the version
    _as_version_1(run, tmp_path / "old")
    rows = rows_of(tmp_path / "old")
    for row in rows:
        if row["mode"] == "assert_labels":
            row["where"] = row["where"].replace("in check_labels", "in check_shape")
    with open(tmp_path / "old" / "results.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    result = json.loads(crashmatrix("compare", tmp_path / "old", run, "--format", "json", cwd=tmp_path).stdout)
    assert [c["values"]["mode"] for c in result["differing"]] == ["assert_labels"], result["differing"]


def test_masks_and_places_by_rule():
    assert mask("IndexError: index 1462 is out of bounds for dimension 0 with size 1000") == (
        "IndexError: index N is out of bounds for dimension N with size N"
    )
    assert mask("KeyError: 'img_3934.jpg'") == "KeyError: 'img_N.jpg'"
    # a name's own digits stay: an op, a layer, a device kind
    assert mask("RuntimeError: Function 'SqrtBackward0' returned nan values in conv2d") == (
        "RuntimeError: Function 'SqrtBackward0' returned nan values in conv2d"
    )
    assert mask("exit status 3") == "exit status 3"  # a program's own status is its choice, not a varying number
    # ... a rank's too, which its launcher reports (a review's: argparse's 2, sys.exit(3) and 4 were one signature)
    assert mask("rank 1 exited with exit code 3") == "rank N exited with exit code 3"
    assert mask("ProcessExitedException: process 1 terminated with exit code 2") == (
        "ProcessExitedException: process N terminated with exit code 2"
    )
    where = "torch/nn/functional.py:3462 in cross_entropy; app/train.py:12 in step"
    assert with_place("IndexError: Target N is out of bounds.", where, by_message=True) == (
        "IndexError: Target N is out of bounds. in app/train.py:step"
    )
    assert with_place("shm_full", where) == "shm_full"  # a known cause is signed by its evidence
    assert with_place("fd_exhaustion", where) == "fd_exhaustion in app/train.py:step"  # ... running out, by place too
    assert signature_class("KeyError: 3934", "app/data.py:7 in lookup") == "KeyError in app/data.py:lookup"
    assert signature_class("KeyError: N in app/data.py:lookup", "app/data.py:9 in lookup") == (
        "KeyError in app/data.py:lookup"
    )
    # a worker's bus error, signed by torch's guess of a small /dev/shm up to version 11, joins its version 12 form
    where = "libtorch_cpu.so (+0x78c0840); app/data.py:30 in __getitem__"
    assert signature_class("worker_bus_error_shm", where) == signature_class(
        "worker_signal in app/data.py:__getitem__", where
    )


def test_a_random_id_never_splits_a_failure():
    # the fifty-second held-out set's lg_wandb_log_after_finish, recorded: wandb names its run by a random id, another
    # in each repeat; one failure became three signatures, three bundles and a "flaky" report
    said = "wandb.errors.errors.UsageError: Run ({}) is finished. The call to `log` will be ignored."
    assert {mask(said.format(run)) for run in ("z5ubo932", "xt76hz1r", "yn9wv4br")} == {said.format("…id…")}
    # names that carry digits stay: a model, a dtype, an op, a CUDA build
    assert mask("resnet50 float32 conv2d bf16 sha256 cu121 float8_e4m3fn") == (
        "resnet50 float32 conv2d bf16 sha256 cu121 float8_e4m3fn"
    )
