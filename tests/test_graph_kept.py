"""Which line keeps the memory when no Python reference does (issue 50, item 2): a loop that sums its loss
tensors (`total = total + loss`) keeps every step's autograd graph, and with it the activations the forward
saved for backward. The census names the activations and the line that made them, and the tensor whose graph
holds them, with the fix.

End to end on tests/apps/sums_losses.py (its truth, measured alone, in its docstring: 1.00 MiB a step with
keep_graph=true, flat without), one run of its two cells and the instrumented rerun of the growing one,
shared by the asserts; the rule that names the holder is a pure test on a planted census.
"""

from __future__ import annotations

import json
import re

import pytest
from conftest import ROOT, crashmatrix

from crashmatrix.answers import kept

MATRIX = f"""\
name: sums-losses
command: [python, {ROOT}/tests/apps/sums_losses.py]
inject: true
params:
  steps: 70
env: {{MALLOC_MMAP_THRESHOLD_: "131072"}}
axes:
  keep_graph: [false, true]
timeout: 300
"""
APP = "tests/apps/sums_losses.py"


@pytest.fixture(scope="module")
def explained(tmp_path_factory):
    where = tmp_path_factory.mktemp("graph")
    (where / "m.yaml").write_text(MATRIX)
    done = crashmatrix("run", "m.yaml", "--out", "run", "--jobs", "2", cwd=where, timeout=600)
    assert done.returncode == 0, done.stderr
    told = crashmatrix("explain", "run", cwd=where)
    as_json = crashmatrix("explain", "run", "--json", cwd=where)
    assert told.returncode == as_json.returncode == 0, told.stderr + as_json.stderr
    return told.stdout, json.loads(as_json.stdout)


@pytest.mark.slow  # three processes importing torch: the two cells and the traced rerun
def test_the_graph_that_keeps_the_activations_is_named_with_its_line_and_the_fix(explained):
    told, _ = explained
    lines = told.splitlines()
    found = lines[lines.index("Findings beyond failure:") + 1 :]
    assert len(found) == 1, found  # keep_graph=false grows nothing
    said = re.fullmatch(
        r"memory grows (\S+) MB a step when keep_graph=true \(main process; 1 of 1 cells\): float32 \[4, 65536\] "
        rf"tensors kept, created at {APP}:42 in main \((\d+) alive at step (\d+), in an instrumented rerun\); the "
        rf"autograd graph of the float32 \[\] tensor made at {APP}:44 in main saves them for backward, and it "
        r"holds every step's graph: keep its `\.item\(\)`, or a `\.detach\(\)`ed copy, instead",
        found[0],
    )
    assert said, found[0]
    assert 0.8 <= float(said[1]) <= 1.2 and int(said[2]) >= int(said[3]) - 2  # one kept a step


@pytest.mark.slow
def test_json_says_which_tensor_holds_the_graph(explained):
    _, entries = explained
    (finding,) = [e for e in entries if e.get("finding") == "memory_growth"]
    assert finding["kept"]["place"] == f"{APP}:42 in main"
    assert finding["kept"]["held_by"] == f"float32 [] tensor made at {APP}:44 in main"


def _census(graph_mb: tuple[float, float]) -> dict:
    app = f"{ROOT}/{APP}"
    return {
        "first_step": 10,
        "step": 80,
        "unit": "step",
        "tensors": [
            {"dtype": "float32", "shape": [4, 65536], "count": [9, 79], "mb": [9.0, 79.0], "frames": [[app, 42]]}
        ],
        "objects": [],
        "graphs": [
            {"dtype": "float32", "shape": [], "nodes": [76, 636], "saved_mb": list(graph_mb), "frames": [[app, 44]]}
        ],
    }


def test_a_graph_is_named_only_where_it_saved_at_least_half_of_what_grew():
    assert kept.from_census(_census((9.3, 79.6))).held_by == f"float32 [] tensor made at {APP}:44 in main"
    assert kept.from_census(_census((9.3, 20.0))).held_by == ""  # a graph beside the growth, not its holder
