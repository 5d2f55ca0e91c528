"""explain end to end: real runs of programs that really crash, read back from results.csv."""

import json
import os

import pytest
from conftest import ROOT, crashmatrix

pytestmark = pytest.mark.slow  # real runs explained (explain's pure tests are test_explain)

OVERLAPPING = os.path.join(ROOT, "examples", "overlapping.yaml")


def without_signature(pattern):
    # The signature column comes from classification (another module); its exact text is not explain's.
    return {k: v for k, v in pattern.items() if k != "signature"}


def test_a_failure_hidden_by_a_crash_and_the_crash_are_each_named_exactly(tmp_path):
    run = crashmatrix("run", OVERLAPPING, "--out", tmp_path / "run", "--jobs", "2", cwd=ROOT)
    assert run.returncode == 0, run.stderr

    proc = crashmatrix("explain", tmp_path / "run", "--json", cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    # the failures' patterns; a slow finding (`finding: slow`) follows the box's load of the moment (a fresh clone's
    # make test beside other work named spawn with no workers slow), not what this run's programs did
    patterns = [p for p in json.loads(proc.stdout) if p.get("finding") != "slow"]
    assert [without_signature(p) for p in patterns] == [
        # 16 cells have persistent_workers=true and wandb=offline; in one of them the SIGSEGV came first
        {
            "conditions": {"persistent_workers": "true", "wandb": "offline"},
            "outcome": "fail",
            "signal": "",
            "failing": 15,
            "matching": 16,
            "masked": 1,
        },
        {
            "conditions": {"start_method": "fork", "num_workers": "4", "pin_memory": "true", "prefetch_factor": "4"},
            "outcome": "crash",
            "signal": "SIGSEGV",
            "failing": 4,
            "matching": 4,
            "masked": 0,
        },
    ]

    text = crashmatrix("explain", tmp_path / "run", cwd=ROOT).stdout
    print(text)  # the report quotes it
    lines = text.splitlines()
    assert lines[0].startswith("fail") and lines[0].endswith(
        "when persistent_workers=true and wandb=offline (15 of 16 matching; 1 masked by crash SIGSEGV)"
    )
    assert lines[1].startswith("crash SIGSEGV") and lines[1].endswith(
        "when start_method=fork and num_workers=4 and pin_memory=true and prefetch_factor=4 (4 of 4 matching)"
    )
    # the run's own summary says the same
    summary = (tmp_path / "run" / "summary.md").read_text()
    assert f"- {lines[0]}" in summary and f"- {lines[1]}" in summary


def test_a_program_failing_in_every_cell_names_no_condition(tmp_path, write):
    script = write(
        "bad_config.py", "import sys\nprint('error: unknown key lr_sheduler', file=sys.stderr)\nsys.exit(2)\n"
    )
    matrix = write(
        "m.yaml",
        f"name: broken\ncommand: [python, {script}]\naxes:\n  start_method: [fork, spawn]\n"
        "  num_workers: [0, 4]\n  pin_memory: [false, true]\n",
    )
    run = crashmatrix("run", matrix, "--out", tmp_path / "run", "--jobs", "2", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    patterns = json.loads(crashmatrix("explain", tmp_path / "run", "--json", cwd=tmp_path).stdout)
    assert [without_signature(p) for p in patterns] == [
        {"conditions": {}, "outcome": "fail", "signal": "", "failing": 8, "matching": 8, "masked": 0}
    ]
    text = crashmatrix("explain", tmp_path / "run", cwd=tmp_path).stdout
    assert text.startswith("fail in every cell (8 of 8): the program itself, not a configuration — ")
    assert "unknown key lr_sheduler" in text and "start_method=" not in text
