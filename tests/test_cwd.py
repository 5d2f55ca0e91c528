"""Where a command's cells run: the matrix's `cwd`, else where crashmatrix was started; and a repro of a program
that reads files relative to that folder still reproduces from anywhere.

The program, run alone: `python train.py split=val` in its project folder raises `ValueError: invalid literal for
int() with base 10: 'three'` at train.py:10 in main (exit 1), and `split=train` prints `label 3`; started from any
other folder, both end in `FileNotFoundError: ... 'data/labels.txt'`, as many training scripts do.
"""

from __future__ import annotations

import json
import os

import pytest
from conftest import crashmatrix, rows_of

pytestmark = pytest.mark.slow  # real runs from other folders

APP = '''\
"""Reads its labels from data/labels.txt, relative to where it is started, as many training scripts do."""

import os
import sys


def main() -> None:
    split = dict(a.split("=", 1) for a in sys.argv[1:]).get("split", "train")
    with open("data/labels.txt") as f:
        labels = dict(line.strip().split(":") for line in f)
    print("label", int(labels[split]), "in", os.getcwd())


if __name__ == "__main__":
    main()
'''
VALUE_ERROR = "ValueError: invalid literal for int() with base 10: 'three'"


def _project(tmp_path):
    project = tmp_path / "proj"
    (project / "data").mkdir(parents=True)
    (project / "train.py").write_text(APP)
    (project / "data" / "labels.txt").write_text("train:3\nval:three\n")
    (tmp_path / "elsewhere").mkdir()
    return project


def test_a_repro_of_a_program_reading_relative_files_reproduces_from_another_folder(tmp_path):
    project = _project(tmp_path)
    (project / "m.yaml").write_text("name: labels\ncommand: [python, train.py]\naxes:\n  split: [train, val]\n")
    ran = crashmatrix("run", "m.yaml", "--out", "run", cwd=project)
    assert ran.returncode == 0, ran.stderr
    rows = {r["split"]: r for r in rows_of(project / "run")}
    assert rows["train"]["outcome"] == "pass" and rows["val"]["error"] == VALUE_ERROR, rows
    result = json.loads((project / "run" / rows["val"]["log_dir"] / "result.json").read_text())
    assert result["cwd"] == str(project)

    resolved = crashmatrix("resolve", "run", cwd=project)
    assert resolved.returncode == 0, resolved.stderr
    (bundle,) = json.loads((project / "run" / "resolution.json").read_text())["repro"]
    matrix = project / "run" / bundle["dir"] / "matrix.yaml"
    assert f"cwd: {project}\n" in matrix.read_text()
    issue = (project / "run" / bundle["dir"] / "ISSUE.md").read_text()
    assert f"run in `{project}`, the folder the failing run started in." in issue

    again = crashmatrix("run", matrix, "--out", "again", cwd=tmp_path / "elsewhere")
    assert again.returncode == 0, again.stderr
    # its signature: the message, its number masked, and the program's frame (grouping 2)
    signature = VALUE_ERROR.replace("base 10", "base N") + " in train.py:main"
    assert again.stdout.splitlines()[-1] == f"reproduced: 1 of 1 runs failed with fail {signature}", again.stdout


def test_cwd_from_the_matrix_files_folder_runs_the_cells_there_from_anywhere(tmp_path):
    project = _project(tmp_path)
    (project / "matrices").mkdir()
    (project / "matrices" / "m.yaml").write_text(
        "name: labels\ncommand: [python, train.py]\ncwd: ..\naxes:\n  split: [train]\n"
    )
    ran = crashmatrix("run", project / "matrices" / "m.yaml", "--out", "run", cwd=tmp_path / "elsewhere")
    assert ran.returncode == 0, ran.stderr
    (row,) = rows_of(tmp_path / "elsewhere" / "run")
    assert row["outcome"] == "pass", row["error"]
    stdout = (tmp_path / "elsewhere" / "run" / row["log_dir"] / "stdout.log").read_text()
    assert stdout == f"label 3 in {project}\n"
    # the run directory's copy holds the folder itself: --resume and rerun run there from anywhere too
    kept = (tmp_path / "elsewhere" / "run" / "matrix.yaml").read_text()
    assert f"cwd: {project}\n" in kept and f"- {project / 'train.py'}\n" in kept


def test_a_cwd_that_cannot_be_is_one_line_naming_the_file_and_key(tmp_path):
    project = _project(tmp_path)
    cases = {
        "nowhere.yaml": ("command: [python, train.py]\ncwd: no/such/folder\n", "cwd: no such folder: no/such/folder"),
        "probe.yaml": (
            "probe: train\ncwd: .\n",
            "cwd: only a command's cells run where it says (a probe runs in its cell's folder)",
        ),
        "list.yaml": ("command: [python, train.py]\ncwd: [a, b]\n", "cwd: expected a folder, got ['a', 'b']"),
    }
    for name, (text, message) in cases.items():
        (project / name).write_text(f"name: bad\n{text}axes:\n  steps: [2]\n")
        done = crashmatrix("run", name, "--out", "run", cwd=project)
        assert (done.returncode, done.stderr) == (2, f"crashmatrix: {name}: {message}\n"), name
    assert not os.path.exists(project / "run")
