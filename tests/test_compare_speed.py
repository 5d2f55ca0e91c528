"""compare sees speed: two real runs of a program whose wall time the run and the cell set (a real sleep in the
child), and the rule's edges on hand-written results.csv files.

Run B makes every spawn cell four times as slow (0.5 s to 2 s: beyond compare's 1 s floor). Cell (fork, 1)
takes the same time in both. Cell (fork, 2) is the noisy one: in A one of its three repeats is slow, so A's
median is 1 s and its range reaches 3 s; B takes 2.2 s each time, more than twice by the median and by more
than the floor, but inside A's spread, so it is not reported.
"""

import csv
import io
import json

import pytest
from conftest import crashmatrix

pytestmark = pytest.mark.slow  # real runs timed and compared

PROGRAM = """\
import os, sys, time
args = dict(a.split("=", 1) for a in sys.argv[1:])
which, repeat = os.environ["WHICH_RUN"], int(os.environ["CRASHMATRIX_REPEAT"])
seconds = 0.5
if which == "B" and args["start_method"] == "spawn":
    seconds = 2.0
if (args["start_method"], args["size"]) == ("fork", "2"):
    seconds = (3.0 if repeat == 0 else 1.0) if which == "A" else 2.2
time.sleep(seconds)
"""
MATRIX = """\
name: speed
command: [python, prog.py]
axes:
  start_method: [fork, spawn]
  size: [1, 2]
repeats: 3
timeout: 60
"""


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("speed")
    (tmp / "prog.py").write_text(PROGRAM)
    (tmp / "m.yaml").write_text(MATRIX)
    for which in ("A", "B"):
        proc = crashmatrix("run", "m.yaml", "--jobs", "4", "--out", tmp / which, cwd=tmp, env={"WHICH_RUN": which})
        assert proc.returncode == 0, proc.stderr
    with open(tmp / "A" / "results.csv", newline="") as f:
        ids = {(r["start_method"], r["size"]): r["cell_id"] for r in csv.DictReader(f)}
    return tmp, ids


def test_json_speed_lists_the_slower_cells_and_not_the_steady_or_the_noisy(runs):
    tmp, ids = runs
    proc = crashmatrix("compare", "A", "B", "--format", "json", cwd=tmp)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["differing"] == []  # every cell passed in both: only the speed moved
    speed = {e["cell_id"]: e for e in data["speed"]}
    assert set(speed) == {ids["spawn", "1"], ids["spawn", "2"]}  # not (fork, 1): the same; not (fork, 2): spread
    for entry in speed.values():
        assert set(entry) >= {"cell_id", "values", "a", "b", "ratio"}
        assert entry["values"]["start_method"] == "spawn"
        assert 0.45 < entry["a"] < 1.2 and 1.95 < entry["b"] < 3.0
        assert entry["ratio"] == pytest.approx(entry["b"] / entry["a"], rel=1e-3) and entry["ratio"] > 1.2
        assert entry["slower"] == "B"
    by_value = [(v["axis"], v["value"], v["slower"], v["cells"]) for v in data["speed_by_value"]]
    assert by_value == [("start_method", "spawn", 2, 2)]  # size=1 and size=2: one of two cells each


def test_markdown_says_which_run_is_slower_by_cell_and_by_axis_value(runs):
    tmp, ids = runs
    for fmt in ("md", "github"):
        proc = crashmatrix("compare", "A", "B", "--format", fmt, cwd=tmp)
        assert proc.returncode == 0, proc.stderr
        out = proc.stdout
        assert "## Speed: 2 of 4 cells that passed in A and B moved (2 slower in B, 0 slower in A)" in out
        section = out.split("## Speed")[1]
        rows = [line for line in section.splitlines() if line.startswith("| ") and ids["spawn", "1"] in line]
        assert rows and rows[0].rstrip(" |").endswith("B")  # the slower column
        assert ids["fork", "2"] not in section and ids["fork", "1"] not in section
        value = next(line for line in section.splitlines() if line.startswith("| start_method"))
        assert "spawn" in value and "2 of 2" in value and value.rstrip(" |").endswith("B")


def test_csv_keeps_the_outcome_rows_contract_and_adds_speed_rows(runs):
    tmp, ids = runs
    proc = crashmatrix("compare", "A", "B", "--format", "csv", cwd=tmp)
    assert proc.returncode == 0, proc.stderr
    reader = csv.DictReader(io.StringIO(proc.stdout))
    rows = list(reader)
    assert reader.fieldnames[:5] == ["cell_id", "start_method", "size", "outcome_a", "outcome_b"]
    assert reader.fieldnames[5] == "differs"
    assert not [r for r in rows if "outcome" in r["differs"]]  # no outcome differs
    speed = {r["cell_id"]: r for r in rows if r["differs"] == "speed"}
    assert set(speed) == {ids["spawn", "1"], ids["spawn", "2"]}
    for row in speed.values():
        assert (row["outcome_a"], row["outcome_b"]) == ("pass", "pass")
        assert float(row["ratio_b"]) == pytest.approx(float(row["duration_b"]) / float(row["duration_a"]), rel=1e-2)
        assert float(row["ratio_b"]) > 1.2


def _results(path, seconds_by_cell):
    """A hand-written results.csv: one passing row per (cell, repeat) with the given durations."""
    path.mkdir()
    with open(path / "results.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(
            ["cell_id", "repeat", "x", "outcome", "signal", "exit_code", "error", "duration_s", "host", "log_dir"]
        )
        for cell_id, seconds in seconds_by_cell.items():
            for i, s in enumerate(seconds):
                outcome = "crash" if s is None else "pass"
                w.writerow([cell_id, i, cell_id, outcome, "", "", "", s or 1.0, "h", f"cells/{cell_id}-r{i}"])
    return str(path)


def test_the_rule_at_its_edges_python_api(tmp_path):
    from crashmatrix.answers.compare import compare_runs

    a = _results(
        tmp_path / "a",
        {
            "over": [10.0],  # one run each: the 20% alone decides
            "under": [10.0],
            "overlap": [10.0, 10.0, 13.0],  # 30% by the median, inside A's spread
            "apart": [10.0, 10.0, 10.5],
            "faster": [10.0, 10.0],
            "jitter": [0.1, 0.1],  # 50% but 0.05 s: start-up jitter
            "loaded": [0.18],  # 2.8x but 0.33 s: a loaded box's start-up (a fresh clone's suite, 5 workers)
            "failed": [10.0, None],  # a run failed: not compared
        },
    )
    b = _results(
        tmp_path / "b",
        {
            "over": [12.1],
            "under": [11.9],
            "overlap": [12.9, 13.0, 13.1],
            "apart": [13.0, 13.0, 13.1],
            "faster": [5.0, 5.0],
            "jitter": [0.15, 0.15],
            "loaded": [0.51],
            "failed": [20.0, 20.0],
        },
    )
    comp = compare_runs([a, b])
    (speed,) = comp.speed
    assert [(c.cell_id, c.slower) for c in speed.changes] == [("apart", "B"), ("faster", "A"), ("over", "B")]
    assert speed.compared == 7
