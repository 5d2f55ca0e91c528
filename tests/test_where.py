"""`where` for a Python exception, through the command line: one run of raising_app's modes.

Each mode's truth (the raising frame and the app's frame that called into it) is written in
tests/apps/raising_app/train.py's docstring, from running it alone; test_exception_place.py holds the same
tracebacks as a table, this is what a user sees in results.csv.
"""

import os

import pytest
from conftest import ROOT, crashmatrix, rows_of

pytestmark = pytest.mark.slow  # a live run of every app's exception, once for the module

APP = os.path.join(ROOT, "tests", "apps", "raising_app", "train.py")
# torch's import is most of a cell's time: two modes import it (embedding's place is in the table test only)
MODES = ["own_raise", "json", "pil", "memory", "torch_alloc", "worker", "chained", "ignored"]


@pytest.fixture(scope="module")
def rows(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("where")
    (tmp / "m.yaml").write_text(
        f"name: raising\ncommand: [python, {APP}]\naxes:\n  mode: [{', '.join(MODES)}]\ntimeout: 60\n"
    )
    proc = crashmatrix("run", "m.yaml", "--out", tmp / "run", "--jobs", "2", cwd=tmp)
    assert proc.returncode == 0, proc.stderr
    return {r["mode"]: r for r in rows_of(tmp / "run")}


@pytest.mark.parametrize(
    "mode, outcome, where",
    [
        ("own_raise", "fail", "app/data/reader.py:18 in check_label"),
        ("json", "fail", "json/decoder.py:353 in raw_decode; app/data/reader.py:7 in parse_label"),
        ("pil", "fail", "PIL/Image.py:3730 in open; app/data/reader.py:13 in open_image"),
        ("memory", "oom", "train.py:36 in allocate"),
        ("torch_alloc", "oom", "empty; train.py:42 in allocate_tensor"),
        ("worker", "fail", "app/data/reader.py:18 in check_label"),
        ("chained", "fail", "app/data/reader.py:27 in load_config"),
        ("ignored", "fail", "app/data/reader.py:18 in check_label"),
    ],
)
def test_every_exception_has_a_place_from_the_apps_root(rows, mode, outcome, where):
    row = rows[mode]
    assert (row["outcome"], row["where"]) == (outcome, where), row
