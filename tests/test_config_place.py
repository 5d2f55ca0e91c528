"""A Hydra config error is placed at the config file and key the user wrote (issue 52, item 6), not at Hydra's
own `run_and_report` that ends the process.

The truth, from running tests/zoo/app/hydra_app/train.py alone (Hydra 1.3, written without reading
crashmatrix's rules, tests/zoo/truth_reported.yaml): `model=resnet99` exits 1 with `In 'config': Could not find
'model/resnet99'` and the group's options, no traceback (the option asked for by that override, of the group
the defaults list entry at conf/config.yaml:2 names); `model=mlp` exits 1 with `Error in call to target
'models.MLP': TypeError("MLP.__init__() got an unexpected keyword argument 'dropout'")` and `full_key: model`
(the key `dropout` at conf/model/mlp.yaml:5). Under inject both were placed at
`hydra/_internal/utils.py:303 in run_and_report`, Hydra's sys.exit(1).
"""

import os

import pytest
from conftest import ROOT, run_rows

from crashmatrix.verdict.config_place import config_place

APP = os.path.join(ROOT, "tests", "zoo", "app", "hydra_app")
MATRIX = f"""\
name: hydra-config
command: [python, {APP}/train.py]
inject: true
axes:
  model: [resnet99, mlp, h_mlp_mandatory, h_mlp_interp]
timeout: 120
"""


@pytest.mark.slow  # a real Hydra app, two cells
def test_a_config_error_is_placed_at_its_file_and_key(tmp_path, write):
    rows = {r["model"]: r for r in run_rows(write("m.yaml", MATRIX), tmp_path, "--jobs", "2", "--no-preflight")}
    assert len(rows) == 4
    missing, refused = rows["resnet99"], rows["mlp"]
    assert missing["outcome"] == refused["outcome"] == "fail"
    assert missing["where"] == "override model=resnet99; hydra_app/conf/config.yaml:2 in defaults.model"
    assert missing["signature"].endswith(" in hydra_app/conf/config.yaml:defaults.model")
    assert "'model/resnet99'" in missing["signature"]  # the option's own digits are its name
    assert refused["where"] == "hydra_app/conf/model/mlp.yaml:5 in model.dropout"
    assert refused["signature"].endswith(
        "unexpected keyword argument 'dropout'\") in hydra_app/conf/model/mlp.yaml:model.dropout"
    )
    # held-out set 2 (tests/zoo/HELDOUT2.md): OmegaConf's `???` never given, and `${data.width}` that no config
    # has; alone each ends in `Error executing job with overrides: [...]`, a traceback through instantiate, and
    # omegaconf's MissingMandatoryValue (`full_key: model.in_features`) or InterpolationKeyError
    mandatory, interpolation = rows["h_mlp_mandatory"], rows["h_mlp_interp"]
    assert mandatory["where"] == "hydra_app/conf/model/h_mlp_mandatory.yaml:3 in model.in_features", mandatory
    assert interpolation["where"] == "hydra_app/conf/model/h_mlp_interp.yaml:4 in model.hidden", interpolation
    assert "InterpolationKeyError" in interpolation["signature"], interpolation


EXPERIMENTS = f"""\
name: hydra-experiments
command: [python, {APP}/train.py]
inject: {{inject}}
axes:
  experiment: [big, typo]
timeout: 120
"""


# held-out set 4 (tests/zoo/HELDOUT4.md): an experiment config (`# @package _global_`, `- override /model: X`, as
# the lightning-hydra-template lays them out) chose the option, and the place named the group's default; a class
# that raised its own ValueError on a value was placed at a config file. The truth alone (`python
# hydra_app/train.py experiment=...`): `experiment=big` exits 1 with `Error in call to target 'models.Wide':
# ValueError('width 4096 is more than this model supports (1024)')`, raised at models.py:18 from the width
# experiment/big.yaml:7 gives; `experiment=typo` with `Error locating target 'models.MPL'`, the `_target_` of
# conf/model/typo.yaml:1, which experiment/typo.yaml chose.
@pytest.mark.slow  # a real Hydra app, two runs of two cells (no torch: under 5 CPU-s)
@pytest.mark.parametrize(
    "inject, big",
    [
        ("true", "hydra_app/models.py:18 in __init__"),  # the stack Hydra handled, recorded as it exited
        ("false", "hydra_app/conf/experiment/big.yaml:6 in model"),  # the experiment that set the node
    ],
)
def test_an_experiment_configs_choice_is_followed_and_a_classs_own_raise_placed(tmp_path, write, inject, big):
    matrix = write("m.yaml", EXPERIMENTS.format(inject=inject))
    rows = {r["experiment"]: r for r in run_rows(matrix, tmp_path, "--jobs", "2", "--no-preflight")}
    assert {r["outcome"] for r in rows.values()} == {"fail"}
    assert rows["big"]["where"] == big, rows["big"]
    assert rows["typo"]["where"] == "hydra_app/conf/model/typo.yaml:1 in model", rows["typo"]


def test_the_node_file_is_the_option_the_defaults_list_chose(tmp_path):
    # no override named the option: the primary config's defaults list did (`- model: mlp`)
    conf = tmp_path / "conf"
    (conf / "model").mkdir(parents=True)
    (tmp_path / "pyproject.toml").write_text("")
    (conf / "config.yaml").write_text("defaults:\n  - optim: sgd\n  - model: mlp\n  - _self_\n")
    (conf / "model" / "mlp.yaml").write_text("_target_: models.MLP\nwidth: 8\n")
    text = (
        "Error locating target 'models.MLPX', set env var HYDRA_FULL_ERROR=1 to see chained exception.\n"
        "full_key: model\n"
    )
    script = str(tmp_path / "train.py")
    assert config_place(text, script, str(conf), "config") == "conf/model/mlp.yaml:1 in model"
    missing = "In 'config': Could not find 'optim/adamw'\n\nAvailable options in 'optim':\n\tsgd\n"
    assert config_place(missing, script, str(conf), "config", ["optim=adamw"]) == (
        "override optim=adamw; conf/config.yaml:2 in defaults.optim"
    )
    assert config_place("ValueError: bad\n", script, str(conf), "config") == ""


def test_a_group_chosen_twice_is_placed_at_the_entry_that_lacks_override(tmp_path):
    # the forty-seventh held-out set's hy_experiment_no_override (recorded/heldout47/app, run alone: Hydra 1.3's one
    # line, `Multiple values for model. To override a value use 'override model: wide'`): an experiment's
    # defaults list chose model again without `override`, where the primary config had chosen it; the run placed
    # it at Hydra's run_and_report and the script's `<module>` line (its truth took that; the entry is the fix)
    conf = tmp_path / "conf"
    (conf / "experiment").mkdir(parents=True)
    (conf / "model").mkdir()
    (tmp_path / "pyproject.toml").write_text("")
    (conf / "config.yaml").write_text("defaults:\n  - model: mlp\n  - _self_\n")
    (conf / "experiment" / "wide.yaml").write_text("# @package _global_\ndefaults:\n  - /model: wide\n\nepochs: 3\n")
    (conf / "experiment" / "fixed.yaml").write_text("# @package _global_\ndefaults:\n  - override /model: wide\n")
    text = "Multiple values for model. To override a value use 'override model: wide'\n"
    script = str(tmp_path / "train.py")
    assert config_place(text, script, str(conf), "config") == "conf/experiment/wide.yaml:3 in defaults.model"
    (conf / "experiment" / "again.yaml").write_text("defaults:\n  - model: wide\n")  # two that could: neither
    assert config_place(text, script, str(conf), "config") == ""


def test_an_experiment_that_sets_a_nodes_values_is_not_where_its_target_fails_to_resolve(tmp_path):
    # experiment=big chooses model=wide and sets its width; a misspelt `_target_` is still the option file's
    conf = tmp_path / "conf"
    (conf / "model").mkdir(parents=True)
    (conf / "experiment").mkdir()
    (tmp_path / "pyproject.toml").write_text("")
    (conf / "config.yaml").write_text("defaults:\n  - model: mlp\n  - _self_\n  - experiment: null\n")
    (conf / "model" / "mlp.yaml").write_text("_target_: models.MLP\n")
    (conf / "model" / "wide.yaml").write_text("_target_: models.Wde\nwidth: 64\n")
    (conf / "experiment" / "big.yaml").write_text(
        "# @package _global_\ndefaults:\n  - override /model: wide\n\nmodel:\n  width: 4096\n"
    )
    script, overrides = str(tmp_path / "train.py"), "Error executing job with overrides: ['experiment=big']\n"
    locating = overrides + "Error locating target 'models.Wde', set env var HYDRA_FULL_ERROR=1.\nfull_key: model\n"
    assert config_place(locating, script, str(conf), "config") == "conf/model/wide.yaml:1 in model"
    refused = overrides + "Error in call to target 'models.Wide':\nValueError('too wide')\nfull_key: model\n"
    assert config_place(refused, script, str(conf), "config") == "conf/experiment/big.yaml:5 in model"


def test_an_experiment_added_with_a_plus_is_followed_to_the_option_it_chose(tmp_path):
    # the twenty-third held-out set's l_optim_no_partial: `+experiment=adamw` (no experiment in the defaults list)
    # overrides model to cnn_adamw, whose optimizer lacks `_partial_`; placed at the default model, cnn, before
    conf = tmp_path / "configs"
    (conf / "model").mkdir(parents=True)
    (conf / "experiment").mkdir()
    (tmp_path / ".project-root").write_text("")
    (conf / "train.yaml").write_text("defaults:\n  - model: cnn\n  - _self_\n")
    (conf / "model" / "cnn.yaml").write_text("optimizer:\n  _target_: torch.optim.SGD\n  _partial_: true\n")
    (conf / "model" / "cnn_adamw.yaml").write_text("optimizer:\n  _target_: torch.optim.AdamW\n  lr: 0.001\n")
    (conf / "experiment" / "adamw.yaml").write_text("# @package _global_\ndefaults:\n  - override /model: cnn_adamw\n")
    said = (
        "Error executing job with overrides: ['+experiment=adamw']\nError in call to target "
        "'torch.optim.adamw.AdamW':\nTypeError(\"AdamW.__init__() missing 1 required positional argument: 'params'\")\n"
        "full_key: model.optimizer\n"
    )
    placed = config_place(said, str(tmp_path / "src" / "train.py"), str(conf), "train", ["+experiment=adamw"])
    assert placed.startswith("configs/model/cnn_adamw.yaml:"), placed


def test_an_option_missing_from_its_group_is_placed_at_the_experiment_that_asked_for_it(tmp_path):
    # the ninth held-out set's t_hydra_searchpath_group: experiment=focal's `override /loss: focal` asks for an
    # option its group lacks; Hydra's message names the primary config, whose own entry (`- loss: ce`) exists
    conf = tmp_path / "conf"
    (conf / "loss").mkdir(parents=True)
    (conf / "experiment").mkdir()
    (tmp_path / "setup.cfg").write_text("")
    (conf / "run.yaml").write_text("defaults:\n  - loss: ce\n  - _self_\n  - experiment: null\n")
    (conf / "loss" / "ce.yaml").write_text("name: ce\n")
    (conf / "experiment" / "focal.yaml").write_text("# @package _global_\ndefaults:\n  - override /loss: focal\n")
    (conf / "experiment" / "plain.yaml").write_text("# @package _global_\nseed: 1\n")
    script = str(tmp_path / "run.py")
    missing = "In 'run': Could not find 'loss/focal'\n\nAvailable options in 'loss':\n\tce\n"
    placed = config_place(missing, script, str(conf), "run", ["experiment=focal"])
    assert placed == "conf/experiment/focal.yaml:3 in defaults.loss"
    # no chosen config asks for it (a nested config's own defaults, a group renamed): the named config's entry
    assert config_place(missing, script, str(conf), "run", ["experiment=plain"]) == "conf/run.yaml:2 in defaults.loss"


N_PROJ = os.path.join(ROOT, "tests", "zoo", "app", "n_proj")
N_RECORDED = os.path.join(ROOT, "tests", "zoo", "recorded", "heldout5", "app", "cells")


def _n_proj_log(overrides: str) -> str:
    """A recorded stderr.log of the fifth held-out set's project, run with these overrides (its truth:
    tests/zoo/truth_heldout5.yaml, written from running it alone)."""
    for cell in sorted(os.listdir(N_RECORDED)):
        with open(os.path.join(N_RECORDED, cell, "stderr.log"), encoding="utf-8") as f:
            text = f.read()
        if f"Error executing job with overrides: ['{overrides}']" in text:
            return text
    raise AssertionError(f"no recorded log of {overrides}")


def test_a_config_name_given_with_its_extension_and_a_global_packages_nested_key():
    # lightning-hydra-template's layout: @hydra.main(config_path="configs", config_name="train.yaml"), an
    # `experiment` group of `# @package _global_` files. The fifth held-out set found both placed at Hydra's
    # run_and_report: train.yaml was looked for as train.yaml.yaml, so no option file was found
    script, conf = os.path.join(N_PROJ, "train.py"), os.path.join(N_PROJ, "configs")
    required = _n_proj_log("experiment=n_hydra_required_arg")  # WideMLP.__init__() missing 'width'
    assert config_place(required, script, conf, "train.yaml", ["experiment=n_hydra_required_arg"]) == (
        "configs/model/wide.yaml:1 in model.width"
    )
    # `${trainer.num_workers}` under data: loader: in an experiment file: the key from the root, not the group's
    interpolation = _n_proj_log("experiment=n_hydra_missing_interp")
    assert config_place(interpolation, script, conf, "train.yaml", ["experiment=n_hydra_missing_interp"]) == (
        "configs/experiment/n_hydra_missing_interp.yaml:5 in data.loader.num_workers"
    )


# held-out set 6 (tests/zoo/HELDOUT6.md, p_hydra_type_mismatch): a value a structured config's schema refuses
# fails as Hydra composes, before the app runs: `In 'scenario/more_cores': ValidationError raised while composing
# config:`, `Value 'auto' of type 'str' could not be converted to Integer`, `full_key: data.num_workers`, and no
# traceback (run alone below: exit 1). The row placed it at Hydra's run_and_report.
SCHEMA_APP = {
    "src/app/train.py": """\
from dataclasses import dataclass, field

import hydra
from hydra.core.config_store import ConfigStore


@dataclass
class Data:
    batch_size: int = 16
    num_workers: int = 0


@dataclass
class Config:
    data: Data = field(default_factory=Data)


ConfigStore.instance().store(name="schema", node=Config)


@hydra.main(version_base="1.3", config_path="../../configs", config_name="config")
def main(cfg):
    print(cfg.data.num_workers)


if __name__ == "__main__":
    main()
""",
    "configs/config.yaml": "defaults:\n  - schema\n  - data: small\n  - optional scenario: null\n  - _self_\n",
    "configs/data/small.yaml": "# a small batch\nbatch_size: 4\n",
    "configs/data/huge.yaml": "batch_size: lots\n",
    "configs/scenario/more_cores.yaml": "# @package _global_\n# more cores: let the loader decide\ndata:\n  num_workers: auto\n",
    ".project-root": "",
}


@pytest.mark.slow  # a real Hydra app (no torch), two cells
def test_a_value_the_schema_refuses_is_placed_at_the_config_line_that_gave_it(tmp_path, write):
    import subprocess
    import sys

    for name, text in SCHEMA_APP.items():
        os.makedirs(os.path.dirname(tmp_path / "app" / name), exist_ok=True)
        (tmp_path / "app" / name).write_text(text)
    script = str(tmp_path / "app" / "src" / "app" / "train.py")
    alone = subprocess.run([sys.executable, script, "scenario=more_cores"], capture_output=True, text=True)
    assert alone.returncode == 1 and "full_key: data.num_workers" in alone.stderr, alone.stderr
    assert alone.stderr.startswith("In 'scenario/more_cores': ValidationError raised while composing config:")
    matrix = f"name: schema\ncommand: [python, {script}]\ninject: true\naxes:\n  data: [huge]\n"
    matrix += "include:\n  - {data: small, scenario: more_cores}\n"
    rows = run_rows(write("m.yaml", matrix), tmp_path, "--jobs", "2", "--no-preflight")
    places = {r["data"]: r["where"] for r in rows}
    assert places == {
        "small": "configs/scenario/more_cores.yaml:4 in data.num_workers",  # a `_global_` config's nested key
        "huge": "configs/data/huge.yaml:1 in data.batch_size",  # a group's option: its keys are the group's
    }, rows
    # the same app run as a module from its source folder (`cwd:`), as held-out set 7's q_proj runs: found there
    as_module = f"name: m\ncommand: [python, -m, app.train]\ncwd: {tmp_path / 'app' / 'src'}\ninject: true\n"
    as_module += "axes:\n  scenario: [more_cores]\n"
    (tmp_path / "module").mkdir()
    (row,) = run_rows(write("module.yaml", as_module), tmp_path / "module", "--no-preflight")
    assert row["where"] == "configs/scenario/more_cores.yaml:4 in data.num_workers", row


def test_diagnose_of_hydras_short_error_finds_the_app_it_runs_in(tmp_path):
    # held-out set 6's p_hydra_type_mismatch, its recorded log: Hydra's short error names no file, no script and no
    # config folder. Run in the app's folder (a user's project root), diagnose finds the app whose configs hold the
    # config the message names; in another project's folder it says it cannot tell the line.
    from conftest import crashmatrix

    log = os.path.join(ROOT, "tests", "zoo", "recorded", "heldout6", "app", "cells", "6abf757dfa-r0", "stderr.log")
    here = crashmatrix("diagnose", log, cwd=os.path.join(ROOT, "tests", "zoo", "app", "p_proj"))
    assert "  where:     configs/scenario/p_hydra_type_mismatch.yaml:4 in data.num_workers\n" in here.stdout, (
        here.stdout
    )
    elsewhere = crashmatrix("diagnose", log, cwd=os.path.join(ROOT, "examples", "ocr_app"))  # a Hydra app, not this one
    assert "  where:" not in elsewhere.stdout and "run diagnose in the app's folder" in elsewhere.stdout, (
        elsewhere.stdout
    )


def test_diagnose_of_hydras_one_line_error_places_it_and_says_whose_fix(tmp_path):
    # held-out set 47's hy_experiment_no_override, its recorded log: run alone, Hydra printed only
    # `Multiple values for model. To override a value use 'override model: wide'` and its HYDRA_FULL_ERROR hint (no
    # headline, no traceback; exit 1): conf/experiment/wide.yaml chooses `- /model: wide` without `override` where
    # config.yaml already chose mlp. diagnose found no failure in it; the line before Hydra's hint is the error.
    from conftest import crashmatrix

    cells = os.path.join(ROOT, "tests", "zoo", "recorded", "heldout47", "app", "cells")
    log = os.path.join(cells, "0f2a2c1dca-r0", "stderr.log")
    here = crashmatrix("diagnose", log, cwd=os.path.join(ROOT, "tests", "zoo", "app", "hy_proj"))
    assert here.stdout.startswith("fail\n  error:     Multiple values for model. To override a value use"), here.stdout
    assert "  where:     conf/experiment/wide.yaml:3 in defaults.model\n" in here.stdout, here.stdout
    assert (
        "  whose:     The app's configuration to fix, not a library's: Hydra refused what "
        "conf/experiment/wide.yaml:3 in defaults.model says" in here.stdout
    ), here.stdout
    # Hydra's hint after a job's traceback: the traceback's own exception is the error, not the line before the hint
    text = (
        "Error executing job with overrides: []\nTraceback (most recent call last):\n"
        '  File "/app/train.py", line 9, in main\n    raise ValueError("bad lr")\nValueError: bad lr\n\n'
        "Set the environment variable HYDRA_FULL_ERROR=1 for a complete stack trace.\n"
    )
    (tmp_path / "job.log").write_text(text)
    job = crashmatrix("diagnose", tmp_path / "job.log", cwd=tmp_path)
    assert "  error:     ValueError: bad lr\n" in job.stdout, job.stdout


def test_a_missing_value_of_another_file_is_not_placed_in_the_apps_config(tmp_path):
    # a review's program, run alone: a Hydra app reads its own data file with OmegaConf.load, whose `num_classes:
    # ???` raises MissingMandatoryValue (`full_key: num_classes`); the app's config sets `model.num_classes: 10`.
    # The `???` is the data file's: it was placed at the config's line that has a value
    conf = tmp_path / "conf"
    conf.mkdir()
    (tmp_path / "pyproject.toml").write_text("")
    (conf / "config.yaml").write_text("case: none\nnum_classes: 10\n")
    text = (
        "omegaconf.errors.MissingMandatoryValue: Missing mandatory value: num_classes\n"
        "    full_key: num_classes\n    object_type=dict\n"
    )
    script = str(tmp_path / "train.py")
    assert config_place(text, script, str(conf), "config") == ""
    (conf / "config.yaml").write_text("case: none\nnum_classes: ???  # given per run\n")  # the app's own `???`
    assert config_place(text, script, str(conf), "config") == "conf/config.yaml:2 in num_classes"


def test_a_refused_override_is_the_commands_to_fix_not_the_config_file_it_was_read_against():
    # a review's Hydra app run with `+experiment=nonexist` (Hydra 1.3 alone: `Could not find 'experiment/nonexist'`):
    # the run placed it `override +experiment=nonexist; conf/config.yaml:1 in defaults.experiment`, and ISSUE.md
    # said Hydra refused what that config line says, a line that holds no experiment
    from crashmatrix.resolve.issue import whose_fix

    kind = type("Kind", (), {"outcome": "fail", "signal": "", "signature": "In 'config': Could not find"})
    where = "override +experiment=nonexist; conf/config.yaml:1 in defaults.experiment"
    said, _ = whose_fix(kind, "In 'config': Could not find 'experiment/nonexist'\n", where, "", {})
    assert said == (
        "The command's override to fix, not a library's: Hydra refused `+experiment=nonexist`, against "
        "conf/config.yaml:1 in defaults.experiment (the message says why).\n"
    )
