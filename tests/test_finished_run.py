"""A finished run read once: typed axis values from matrix.yaml, its axes, env.json; a bare results.csv too."""

import json

import pytest
import yaml

from crashmatrix.cell import spell
from crashmatrix.errors import BadInput
from crashmatrix.rundir.finished_run import FinishedRun
from crashmatrix.rundir.store import csv_columns

AXES = ["num_workers", "pin_memory", "gpus", "seed", "extra"]


def _write_run(path, matrix: dict | None, rows: list[dict], env: dict | None = None):
    path.mkdir()
    if matrix is not None:
        (path / "matrix.yaml").write_text(yaml.safe_dump(matrix, sort_keys=False))
    if env is not None:
        (path / "env.json").write_text(json.dumps(env))
    columns = csv_columns(AXES)
    lines = [",".join(columns)]
    for row in rows:
        lines.append(",".join(f'"{row.get(c, "")}"' for c in columns))
    (path / "results.csv").write_text("\n".join(lines) + "\n")
    return path


MATRIX = {
    "name": "typed",
    "strategy": "full",
    "axes": {
        "num_workers": [0, 4],
        "pin_memory": [False, True],
        "gpus": {"values": [[0, 1], None], "keys": ["a", "b"]},
        "seed": ["1", 1],  # two values spelled alike: the first is the one meant
    },
}
ROWS = [
    {"cell_id": "c1", "repeat": 0, "num_workers": "4", "pin_memory": "true", "gpus": "[0,1]", "seed": "1"},
    {"cell_id": "c2", "repeat": 0, "num_workers": "8", "pin_memory": "false", "gpus": "null", "extra": "x"},
]


def test_axis_values_are_typed_as_the_matrix_lists_them(tmp_path):
    run = FinishedRun.load(str(_write_run(tmp_path / "run", MATRIX, ROWS, env={"host": "h"})))
    first, second = run.rows
    assert (first["num_workers"], first["pin_memory"], first["gpus"], first["seed"]) == (4, True, [0, 1], "1")
    assert first["outcome"] == "" and first["repeat"] == "0"  # the other columns stay as written
    # a value the matrix does not list (an include's), and a column it has no axis for, stay text
    assert (second["num_workers"], second["pin_memory"], second["gpus"], second["extra"]) == ("8", False, None, "x")
    # spelling a typed value gives back results.csv's text
    assert [spell(second[a]) for a in ("num_workers", "pin_memory", "gpus")] == ["8", "false", "null"]
    assert run.axes == tuple(AXES)
    assert run.fingerprint == {"host": "h"}
    assert run.listed["gpus"] == [[0, 1], None] and run.keyed == {"gpus"} and run.strategy == "full"
    assert run.directory == str(tmp_path / "run")


def test_a_bare_results_csv_has_text_values_and_no_matrix(tmp_path):
    folder = _write_run(tmp_path / "bare", None, ROWS)
    run = FinishedRun.load(str(folder / "results.csv"))
    assert run.rows[0]["num_workers"] == "4" and run.matrix == {} and run.fingerprint == {}
    assert run.strategy == "pairwise" and run.listed == {} and run.csv_path == str(folder / "results.csv")


def test_a_folder_without_results_is_bad_input_naming_the_file(tmp_path):
    with pytest.raises(BadInput, match="results.csv"):
        FinishedRun.load(str(tmp_path))
