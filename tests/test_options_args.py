"""A program that parses its own options (argparse, LightningCLI, click...) gets the cell's parameters as
`--key=value` (`pass_params: options`): a matrix file says so, and `crashmatrix run -a ... -- CMD` infers it from
the command's own arguments or, with none typed, from its script.

Run alone first: `python tests/apps/argparse_app.py lr=0.1` is argparse's `error: unrecognized arguments:
lr=0.1`, exit status 2, every cell failing alike for how it was called; `--lr=0.95` raises FloatingPointError
at argparse_app.py:12 in step, exit status 1; `--tag=-x` is the value `-x` (one argument, so argparse does not
take it for an option).

Cost: a stdlib script, 2 + 2 + 1 cell runs and one resolve (no torch)."""

import csv
import json
import os
import shutil

import pytest
import yaml
from conftest import ROOT, crashmatrix

from crashmatrix.errors import BadInput
from crashmatrix.matrix.app_args import arguments
from crashmatrix.matrix.from_command import takes_options
from crashmatrix.matrix.option_flags import script_flags
from crashmatrix.matrix.spec import load_matrix

APP = os.path.join(ROOT, "tests/apps/argparse_app.py")


def _rows(run):
    with open(os.path.join(run, "results.csv"), newline="") as f:
        return {r["lr"]: r for r in csv.DictReader(f)}


def test_options_are_one_argument_each_in_the_files_order():
    params = {"lr": 0.1, "batch-size": 8, "trainer.max_epochs": 2, "tag": "-x", "amp": True, "--seed": 3}
    assert arguments(params, "options") == [
        "--lr=0.1", "--batch-size=8", "--trainer.max_epochs=2", "--tag=-x", "--amp=true", "--seed=3",
    ]  # fmt: skip
    assert arguments({"lr": 0.1}) == ["lr=0.1"]  # Hydra's overrides stay the default


@pytest.mark.parametrize(
    "command, script, expected",
    [
        (["python", "app.py", "--epochs", "2"], "", True),  # typed options
        (["python", "app.py", "lr=0.1"], "", False),  # typed overrides
        (["python", "app.py", "--config", "c.yaml", "lr=0.1"], "", False),  # both: Hydra-like
        (["torchrun", "--nproc_per_node=2", "app.py", "a=1"], "", False),  # the launcher's options are not the app's
        (["torchrun", "--nproc_per_node=2", "app.py", "--a", "1"], "", True),
        (["python", "app.py"], "import argparse\np = argparse.ArgumentParser()\n", True),  # none typed: its script
        (["python", "app.py"], "from lightning.pytorch.cli import LightningCLI\nLightningCLI(Model)\n", True),
        (["python", "app.py"], "p = argparse.ArgumentParser()\n@hydra.main(config_path='c')\ndef f(c): ...\n", False),
        (["python", "app.py"], "print('no parser')\n", False),
        # a Hydra app takes key=value whatever is typed, its own flags included
        (["python", "app.py", "--config-name=exp"], "@hydra.main(config_path='c')\ndef f(c): ...\n", False),
        (["python", "app.py", "-cn", "exp"], "@hydra.main(config_path='c')\ndef f(c): ...\n", False),
        # no script found (a module under torchrun, an interpreter of another name): key=value, as before
        (["torchrun", "--nproc_per_node=2", "-m", "train"], "", False),
        (["python3.11", "-u", "app.py"], "import argparse\nargparse.ArgumentParser()\n", False),
    ],
)
def test_a_typed_command_takes_options_by_its_arguments_else_its_script(tmp_path, command, script, expected):
    (tmp_path / "app.py").write_text(script)
    assert takes_options(command, str(tmp_path)) is expected


def test_an_unknown_way_of_passing_is_bad_input_naming_the_file_and_key(tmp_path):
    path = tmp_path / "m.yaml"
    path.write_text("name: m\ncommand: [python, app.py]\npass_params: flags\naxes: {lr: [0.1]}\n")
    with pytest.raises(BadInput, match=r"m\.yaml: pass_params: expected overrides \| options \| none, got 'flags'"):
        load_matrix(str(path))


@pytest.mark.slow
def test_a_matrix_of_options_runs_the_argparse_script_and_resolve_says_them(tmp_path):
    shutil.copy(APP, tmp_path / "app.py")
    (tmp_path / "m.yaml").write_text(
        "name: opts\ncommand: [python, app.py]\npass_params: options\n"
        "params: {epochs: 2, tag: -neg}\naxes: {lr: [0.1, 0.95], batch-size: [8]}\n"
    )
    out = crashmatrix("run", "m.yaml", "--jobs", "2", "--out", tmp_path / "run", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    rows = _rows(tmp_path / "run")
    assert rows["0.1"]["outcome"] == "pass", rows
    failed = rows["0.95"]
    assert (failed["outcome"], failed["where"]) == ("fail", "app.py:12 in step"), failed
    assert failed["error"].startswith("FloatingPointError: loss diverged"), failed
    stdout = open(tmp_path / "run" / rows["0.1"]["log_dir"] / "stdout.log").read()
    assert "epoch 1 lr 0.1 batch 8 tag '-neg'" in stdout, stdout
    resolved = crashmatrix("resolve", tmp_path / "run", cwd=tmp_path)
    assert resolved.returncode == 0, resolved.stderr
    recommended = json.load(open(tmp_path / "run" / "resolution.json"))["recommended"]
    assert recommended["overrides"] == ["--lr=0.1", "--batch-size=8"], recommended
    (bundle,) = os.listdir(tmp_path / "run" / "repro")
    issue = open(tmp_path / "run" / "repro" / bundle / "ISSUE.md").read()
    assert "app.py --epochs=2 --tag=-neg --lr=0.95 --batch-size=8" in issue, issue


@pytest.mark.slow
@pytest.mark.parametrize("typed", [["--epochs", "2"], []], ids=["options-typed", "none-typed"])
def test_a_typed_command_of_an_option_parsing_script_gets_its_axes_as_options(tmp_path, typed):
    shutil.copy(APP, tmp_path / "app.py")
    run = tmp_path / "typed"
    out = crashmatrix(
        "run", "-a", "lr=0.1,0.95", "--jobs", "2", "--out", run, "--", "python", "app.py", *typed, cwd=tmp_path
    )
    assert out.returncode == 0, out.stderr
    assert yaml.safe_load(open(run / "matrix.yaml"))["pass_params"] == "options"
    assert {lr: r["outcome"] for lr, r in _rows(run).items()} == {"0.1": "pass", "0.95": "fail"}


def test_a_log_of_an_option_parsers_refusal_is_a_failure_whose_fix_is_the_command_line(tmp_path):
    # what argparse_app.py printed alone for `lr=0.1` (exit status 2), as a job's log
    log = tmp_path / "job.err"
    log.write_text(
        "usage: argparse_app.py [-h] [--lr LR] [--batch-size BATCH_SIZE]\n"
        "                       [--epochs EPOCHS] [--tag TAG]\n"
        "argparse_app.py: error: unrecognized arguments: lr=0.1\n"
    )
    said = crashmatrix("diagnose", log, "--json", cwd=tmp_path)
    assert said.returncode == 0, said.stderr
    got = json.loads(said.stdout)
    assert (got["outcome"], got["error"]) == ("fail", "argparse_app.py: error: unrecognized arguments: lr=0.1"), got
    assert "option parser refused its command line" in got["whose"] and "pass_params: options" in got["whose"], got


@pytest.mark.parametrize(
    "axes, said",
    [
        ("{+lr: [0.1]}", r"axes\.\+lr: a Hydra override's \+key; pass_params: options passes --key=value"),
        ("{tag: [null, a]}", r"axes\.tag: null is no option value"),
    ],
)
def test_what_no_option_parser_reads_is_bad_input_under_options(tmp_path, axes, said):
    path = tmp_path / "m.yaml"
    path.write_text(f"name: m\ncommand: [python, app.py]\npass_params: options\naxes: {axes}\n")
    with pytest.raises(BadInput, match=said):
        load_matrix(str(path))


FLAGS_APP = os.path.join(ROOT, "tests/apps/flags_app.py")
CLICK_APP = os.path.join(ROOT, "tests/apps/click_flags_app.py")


def test_the_flags_a_script_declares_are_read_from_its_text():
    """Run alone: flags_app.py `--amp=true` is argparse's "argument --amp: ignored explicit argument 'true'" and
    `--compile=false` the same, exit status 2; `--no-shuffle --no-compile` parses shuffle=False compile=False.
    click_flags_app.py `--pin=true` is click's "Option '--pin' does not take a value.", exit status 2."""
    assert script_flags(["python", FLAGS_APP], ROOT) == {"--amp": "", "--no-shuffle": "", "--compile": "--no-compile"}
    assert script_flags(["python", CLICK_APP], ROOT) == {"--pin": "--no-pin", "--verbose": ""}
    assert script_flags(["python", APP], ROOT) == {}  # no flag: every option takes a value
    assert script_flags(["python", "gone.py"], ROOT) == {}
    flags = script_flags(["python", FLAGS_APP], ROOT)
    params = {"lr": 0.1, "amp": False, "compile": False, "no-shuffle": True, "tag": True}
    assert arguments(params, "options", flags) == ["--lr=0.1", "--no-compile", "--no-shuffle", "--tag=true"]
    assert arguments({"amp": True, "compile": "false"}, "options", flags) == ["--amp", "--compile=false"]


@pytest.mark.slow
def test_booleans_reach_flags_as_the_parser_takes_them_and_resolve_says_so(tmp_path):
    run = tmp_path / "typed"
    out = crashmatrix(
        "run", "-a", "amp=true,false", "-a", "compile=true,false", "--out", run, "--", "python", FLAGS_APP,
        "--lr", "0.2", cwd=tmp_path,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    with open(run / "results.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    parsed = {open(run / r["log_dir"] / "stdout.log").read().strip() for r in rows if r["outcome"] == "pass"}
    assert parsed == {
        f"parsed lr=0.2 amp={amp} shuffle=True compile={compile}" for amp in (True, False) for compile in (True, False)
    }, rows
    (tmp_path / "m.yaml").write_text(
        f"name: clicked\ncommand: [python, {CLICK_APP}]\npass_params: options\naxes: {{pin: [true, false]}}\n"
        "params: {verbose: true, epochs: 2}\n"
    )
    out = crashmatrix("run", "m.yaml", "--out", tmp_path / "clicked", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    with open(tmp_path / "clicked" / "results.csv", newline="") as f:
        logs = [open(tmp_path / "clicked" / r["log_dir"] / "stdout.log").read() for r in csv.DictReader(f)]
    assert sorted(logs) == ["parsed pin=False verbose=True epochs=2\n", "parsed pin=True verbose=True epochs=2\n"]
    resolved = crashmatrix("resolve", tmp_path / "clicked", cwd=tmp_path)
    assert resolved.returncode == 0, resolved.stderr
    recommended = json.load(open(tmp_path / "clicked" / "resolution.json"))["recommended"]
    assert recommended["overrides"] in (["--pin"], ["--no-pin"]), recommended
