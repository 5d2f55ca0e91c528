"""`crashmatrix resolve RUN --try` (issue 50): a slow finding's change that the run never measured, run for real.

The live run and its --try are tests/test_slow.py's (its shared slow_import run, copied): the same rule, at a
fifth of the CPU the Hydra + Lightning template app's slow.yaml cost here (11 processes importing Lightning). What
a change that lost or failed says, and which changes reach the program, are pure tests below; the template app's
slow.yaml, the command docs/how-to/slow-cell.md gives, is checked whole without running a cell.
"""

from __future__ import annotations

import json

from conftest import ROOT, crashmatrix

from crashmatrix.resolve import tried

MATRIX = f"{ROOT}/tests/apps/template_app/slow.yaml"


def test_the_template_apps_slow_matrix_is_whole_from_any_folder(tmp_path):
    # the command its header gives runs from anywhere: its command and folder resolve against the file's own
    shown = crashmatrix("show", MATRIX, "--format", "json", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    cells = json.loads(shown.stdout)
    assert [c["start_method"] for c in cells] == ["fork", "spawn"], cells


# --------------------------------------------------------------------------- pure


def test_a_change_that_lost_or_failed_says_so():
    base = dict(conditions=(("start_method", "spawn"),), values=(("num_workers", "2"),), against_s=10.0, runs=1)
    assert tried.Tried(duration_s=20.0, outcome="pass", **base).text() == (
        "num_workers=2: 20 s against 10 s, 2.0× slower (measured by --try, 1 run each)"
    )
    assert tried.Tried(duration_s=None, outcome="crash", **base).text() == (
        "num_workers=2: tried, and it did not pass (crash)"
    )


def test_a_change_is_tried_only_where_it_reaches_the_program():
    assert tried.reaches({"inject": True}, "persistent_workers")  # a knob applied from outside
    assert tried.reaches({"probe": "train"}, "persistent_workers")  # a probe's parameter
    assert tried.reaches({"axes": {"loader.persistent": [False]}}, "loader.persistent")  # the program's own axis
    assert not tried.reaches({"command": ["python", "train.py"]}, "persistent_workers")  # an unknown key to it
