"""Hydra's whole override grammar in params and axes reaches a real Hydra app, verbatim and in order.

The app (tests/apps/hydra_groups) picks its trainer and logger from config groups and prints the
config it composed and the arguments it got; each test asserts on those lines.
"""

import json
import os

import pytest
from conftest import ROOT, crashmatrix, rows_of

from crashmatrix.matrix.app_args import arguments

APP = os.path.join(ROOT, "tests", "apps", "hydra_groups", "app.py")


def _matrix(tmp_path, body: str):
    path = tmp_path / "m.yaml"
    path.write_text(f"name: grammar\ncommand: [python, {APP}]\n{body}")
    return path


def _printed(run_dir) -> dict:
    """cell's trainer value -> (argv, config) that cell's app printed."""
    out = {}
    for row in rows_of(run_dir):
        with open(os.path.join(run_dir, row["log_dir"], "stdout.log")) as f:
            lines = dict(line.split(": ", 1) for line in f.read().splitlines() if ": " in line)
        out[row.get("trainer", "")] = (json.loads(lines["argv"]), json.loads(lines["config"]))
    return out


@pytest.mark.slow
def test_every_form_of_the_grammar_reaches_the_app(tmp_path):
    matrix = _matrix(
        tmp_path,
        """params:
  logger.wandb.offline: true
  logger: wandb
  +trainer.precision: 16
  ++trainer.devices: 2
  ~seed:
  hydra/job_logging: disabled
axes:
  trainer: [default, gpu]
  +experiment: [fast]
""",
    )
    proc = crashmatrix("run", matrix, "--out", tmp_path / "run", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert {r["outcome"] for r in rows_of(tmp_path / "run")} == {"pass"}
    printed = _printed(tmp_path / "run")
    argv, config = printed["gpu"]
    # group choices first (the logger's before the key inside it), then the file's order; crashmatrix's
    # own arguments (the cell's hydra.run.dir) come after the matrix's
    assert argv[:8] == [
        "logger=wandb",
        "hydra/job_logging=disabled",
        "trainer=gpu",
        "logger.wandb.offline=true",
        "+trainer.precision=16",
        "++trainer.devices=2",
        "~seed",
        "+experiment=fast",
    ]
    assert config["logger"] == {"wandb": {"offline": True, "project": "groups"}}
    assert config["trainer"] == {"accelerator": "gpu", "devices": 2, "max_epochs": 1, "precision": 16}
    assert "seed" not in config and config["tags"] == ["fast"]
    assert printed["default"][1]["trainer"]["accelerator"] == "cpu"


@pytest.mark.slow
def test_an_axis_of_group_choices_with_a_key_inside_each(tmp_path):
    matrix = _matrix(tmp_path, "axes:\n  logger: [wandb]\n  logger.wandb.offline: [false, true]\n")
    proc = crashmatrix("run", matrix, "--out", tmp_path / "run", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    rows = rows_of(tmp_path / "run")
    assert sorted(r["logger.wandb.offline"] for r in rows) == ["false", "true"]
    assert {r["outcome"] for r in rows} == {"pass"}


def test_a_key_inside_a_choice_given_twice_is_bad_input(tmp_path):
    matrix = _matrix(
        tmp_path, "params:\n  logger: wandb\n  logger.wandb.offline: true\n  logger.wandb: {offline: false}\n"
    )
    proc = crashmatrix("show", matrix, cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.strip() == f"crashmatrix: {matrix}: params.logger.wandb: given twice (dotted and nested)"


def test_choices_go_first_and_the_rest_keeps_its_order():
    params = {"seed": 1, "logger.wandb.offline": True, "logger": "wandb", "hydra/launcher": "basic", "~tags": None}
    assert arguments(params) == ["logger=wandb", "hydra/launcher=basic", "seed=1", "logger.wandb.offline=true", "~tags"]
    # a value that is a list is never a choice; a plain file keeps its order
    assert arguments({"b": 1, "a": [1, 2]}) == ["b=1", "a=[1,2]"]


def test_command_line_overrides_reach_a_key_inside_a_choice(tmp_path):
    from crashmatrix.matrix.spec import load_matrix

    matrix = _matrix(tmp_path, "params: {logger: wandb, logger.wandb.offline: true}\naxes: {trainer: [default]}\n")
    changed = load_matrix(matrix, ["params.logger.wandb.offline=false", "+params.logger.wandb.project=x"])
    assert changed.params == {"logger": "wandb", "logger.wandb.offline": False, "logger.wandb.project": "x"}
    assert load_matrix(matrix, ["~params.logger.wandb.offline"]).params == {"logger": "wandb"}
    assert load_matrix(matrix, ["params.logger=csv"]).params == {"logger": "csv", "logger.wandb.offline": True}


@pytest.mark.slow
def test_a_params_key_written_with_plus_is_overridden_by_the_apps_name_for_it(tmp_path):
    # issue 32: `+trainer.precision` adds a key the app's config lacks; the command line names it as the
    # app does (Hydra's grammar takes no + inside a key), and the hint for a near miss says that form.
    from crashmatrix.errors import BadInput
    from crashmatrix.matrix.spec import load_matrix

    matrix = _matrix(tmp_path, "params:\n  +trainer.precision: 16\naxes:\n  trainer: [default]\n")
    proc = crashmatrix("run", matrix, "params.trainer.precision=32", "--out", tmp_path / "run", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    argv, config = _printed(tmp_path / "run")["default"]
    assert "+trainer.precision=32" in argv and config["trainer"]["precision"] == 32
    assert load_matrix(matrix, ["params.+trainer.precision=8"]).params == {"+trainer.precision": 8}
    try:
        load_matrix(matrix, ["params.trainer.precison=32"])
        raise AssertionError("a near miss was taken")
    except BadInput as e:
        assert str(e).endswith("did you mean params.trainer.precision?"), e
    # Hydra's own refusal names the keys as the matrix writes them, never the spelling Hydra was shown
    try:
        load_matrix(matrix, ["+params.trainer.precision=32"])
        raise AssertionError("adding a key the matrix has was taken")
    except BadInput as e:
        assert "__" not in str(e) and "'params.+trainer.precision=32'" in str(e), e
        assert "['+params.trainer.precision=32']" in str(e), e  # the override as the user wrote it


def test_a_plus_key_is_overridden_beside_a_plain_key_of_the_same_first_word(tmp_path):
    # issue 37: `trainer.devices` (the app has it) beside `+trainer.limit_train_batches` (it does not): the
    # override of the second was refused, its message listing the very key it called missing.
    from crashmatrix.errors import BadInput
    from crashmatrix.matrix.spec import load_matrix

    matrix = _matrix(tmp_path, "params:\n  trainer.devices: 1\n  +trainer.limit_train_batches: 4\naxes:\n  a: [0]\n")
    both = ["params.trainer.limit_train_batches=2", "params.trainer.devices=3"]
    assert load_matrix(matrix, both).params == {"trainer.devices": 3, "+trainer.limit_train_batches": 2}
    nested = _matrix(
        tmp_path, "params:\n  trainer: {devices: 1}\n  +trainer: {limit_train_batches: 4}\naxes:\n  a: [0]\n"
    )
    assert load_matrix(nested, both[:1]).params == {"trainer.devices": 1, "+trainer.limit_train_batches": 2}
    try:  # a key in neither is still refused, and the keys listed are the ones the matrix has
        load_matrix(matrix, ["params.trainer.max_epochs=1"])
        raise AssertionError("a key the matrix lacks was taken")
    except BadInput as e:
        assert "(params: trainer.devices, trainer.limit_train_batches)" in str(e), e
