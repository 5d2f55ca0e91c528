"""Knobs a user can see, and a knob's typo caught before any cell runs (issue 20, item 2)."""

import json
import sys

import pytest
from conftest import ROOT, crashmatrix, rows_of

# A program that knows nothing of crashmatrix: it writes the arguments it got, one file per run.
APP = """\
import json, os, sys
with open(os.path.join(os.environ["CRASHMATRIX_CELL_DIR"], "argv.json"), "w") as f:
    json.dump(sys.argv[1:], f)
open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "ran"), "a").write("x")
"""

TYPO = """\
name: typo
command: [python, app.py]
inject: true
params:
  lr: 0.1
axes:
  num_worker: [0, 2]
"""


def test_knobs_lists_each_knob_with_its_values_and_what_it_does(tmp_path):
    sys.path.insert(0, ROOT)
    from crashmatrix.matrix.knob_names import INJECT_KNOBS, KNOBS

    # the list says exactly what inject applies: no knob left out, none listed that is not applied
    assert set(KNOBS) == set(INJECT_KNOBS)
    proc = crashmatrix("knobs", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    rows = {line.split()[0]: line for line in proc.stdout.splitlines() if line.strip()}
    for knob in INJECT_KNOBS:
        assert knob in rows, proc.stdout
    assert "fork | spawn | forkserver" in rows["start_method"]
    assert "WANDB_MODE" in rows["wandb"]
    assert "forced on every torch.utils.data.DataLoader" in rows["num_workers"]
    # precision is the program's own (Lightning's), never a knob under inject
    assert "precision" not in rows


def test_a_knob_typo_under_inject_is_refused_before_any_cell(tmp_path):
    (tmp_path / "app.py").write_text(APP)
    (tmp_path / "m.yaml").write_text(TYPO)
    proc = crashmatrix("run", "m.yaml", "--out", tmp_path / "run", cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.startswith("crashmatrix: m.yaml: axes.num_worker: did you mean num_workers?"), proc.stderr
    assert "app_keys: [num_worker]" in proc.stderr and "Traceback" not in proc.stderr
    assert not (tmp_path / "ran").exists() and not (tmp_path / "run").exists()


@pytest.mark.slow
def test_app_keys_forces_a_name_near_a_knob_through_as_the_programs_own(tmp_path):
    (tmp_path / "app.py").write_text(APP)
    (tmp_path / "m.yaml").write_text(TYPO + "app_keys: [num_worker]\n")
    proc = crashmatrix("run", "m.yaml", "--out", tmp_path / "run", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    rows = rows_of(tmp_path / "run")
    assert [r["outcome"] for r in rows] == ["pass", "pass"]
    got = sorted(json.loads((tmp_path / "run" / r["log_dir"] / "argv.json").read_text()) for r in rows)
    assert got == [["lr=0.1", "num_worker=0"], ["lr=0.1", "num_worker=2"]]
    # kept in the run's matrix.yaml, so --resume reloads it
    assert "app_keys:\n- num_worker" in (tmp_path / "run" / "matrix.yaml").read_text()


@pytest.mark.parametrize(
    "extra, message",
    [
        ("app_keys: [num_workers]\n", "app_keys: num_workers is a crashmatrix knob"),
        ("app_keys: num_worker\n", "app_keys: expected a list"),
    ],
)
@pytest.mark.slow
def test_app_keys_cannot_name_a_knob(tmp_path, extra, message):
    (tmp_path / "m.yaml").write_text(TYPO + extra)
    proc = crashmatrix("show", "m.yaml", cwd=tmp_path)
    assert proc.returncode == 2 and message in proc.stderr and "Traceback" not in proc.stderr


def test_typo_check_spares_the_programs_usual_keys():
    sys.path.insert(0, ROOT)
    from crashmatrix.matrix.knob_names import near_knob

    typos = {
        "num_worker": "num_workers",
        "num_wrokers": "num_workers",
        "NUM-WORKERS": "num_workers",
        "pin_memroy": "pin_memory",
        "cudnn_benchmark": "cudnn.benchmark",
        "wand": "wandb",
        "start_methods": "start_method",
        "pyhton": "python",
    }
    for name, knob in typos.items():
        assert near_knob(name) == knob, name
    for own in ("lr", "seed", "steps", "batch_size", "precision", "trainer.precision", "data.num_workers", "workers"):
        assert near_knob(own) is None, own


@pytest.mark.parametrize(
    "override, message",
    [
        ("axes.num_wrokers=[0]", "the matrix has no axes.num_wrokers; did you mean axes.num_workers?"),
        (
            "axes.pin_memroy=[true]",
            "the matrix has no axes.pin_memroy; did you mean the knob pin_memory? (+axes.pin_memory=[true])",
        ),
        (
            "axes.pin_memory=[true]",
            "pin_memory is a knob but not yet in axes; to add it, write +axes.pin_memory=[true]",
        ),
        ("params.lrr=3", "the matrix has no params.lrr; did you mean params.lr?"),
        ("axes.colour=[1]", "the matrix has no axes.colour (axes: num_workers); to add it, write +axes.colour=[1]"),
        ("repeat=3", "repeat: unknown key; did you mean repeats?"),
    ],
)
@pytest.mark.slow
def test_an_override_of_a_missing_key_gets_crashmatrix_advice_not_hydras(tmp_path, override, message):
    (tmp_path / "m.yaml").write_text(TYPO.replace("num_worker:", "num_workers:"))
    proc = crashmatrix("show", "m.yaml", override, cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.strip() == f"crashmatrix: m.yaml: override '{override}': {message}"


@pytest.mark.slow
def test_show_says_which_axes_are_knobs_and_which_the_apps_own(tmp_path):
    (tmp_path / "m.yaml").write_text(
        "name: k\ncommand: [prog]\ninject: true\naxes:\n"
        "  loader_workers: {values: [0, 2], keys: [data.train.num_workers, data.val.num_workers]}\n"
        "  pin_memory: [true]\n  trainer.precision: ['32']\n  env.X: [a]\n"
    )
    out = crashmatrix("show", "m.yaml", cwd=tmp_path).stdout
    assert "knobs (crashmatrix applies them; not passed): pin_memory\n" in out
    assert "the app's own keys (passed as key=value): loader_workers, trainer.precision\n" in out
    assert "environment variables: env.X\n" in out
    off = crashmatrix("show", "m.yaml", "inject=false", cwd=tmp_path).stdout
    assert "passed as key=value (inject: false: the program must apply any knob itself): loader_workers" in off


def test_probes_marks_the_knobs_and_precision_is_not_one(tmp_path):
    out = crashmatrix("probes", cwd=tmp_path).stdout
    assert "    num_workers = 2  (knob)" in out
    lines = [line for line in out.splitlines() if line.strip().startswith("precision = ")]
    assert lines and all("(knob)" not in line for line in lines)
