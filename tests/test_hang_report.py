"""A hang's bug report is about the hang, not about the program's answer to crashmatrix's kill.

The program, run alone: it prints `waiting for go.flag` to stderr and waits at app.py:19-20 in wait_for_go for a
file nobody writes. Sent SIGTERM, its handler saves its state with PyYAML, which raises `yaml.parser.ParserError:
while parsing a flow sequence` in yaml/parser.py:483; exit 1. Real programs answer a kill so (a checkpoint on
SIGTERM; torch's `DataLoader worker ... killed by signal: Terminated`): that traceback is the kill's, not the hang's.
"""

from __future__ import annotations

import json

import pytest
from conftest import crashmatrix, rows_of

pytestmark = pytest.mark.slow  # a real hang, killed

APP = '''\
"""Waits for a file nobody writes; on SIGTERM it saves its state with PyYAML, which fails."""

import os
import signal
import sys
import time

import yaml


def save_state(_signum, _frame) -> None:
    yaml.safe_load("state: [unclosed")  # a half-written state file: PyYAML raises in its own parser
    sys.exit(0)


def wait_for_go() -> None:
    print("waiting for go.flag", file=sys.stderr, flush=True)
    while not os.path.exists("go.flag"):
        time.sleep(0.1)


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, save_state)
    wait_for_go()
'''


def test_a_hangs_report_reads_what_it_wrote_before_the_kill(tmp_path):
    (tmp_path / "app.py").write_text(APP)
    (tmp_path / "m.yaml").write_text("name: hang\ncommand: [python, app.py]\naxes:\n  x: [1]\ntimeout: 3\n")
    ran = crashmatrix("run", "m.yaml", "--out", "run", cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    (row,) = rows_of(tmp_path / "run")
    assert row["outcome"] == "timeout" and row["where"] in (f"main app.py:{n} in wait_for_go" for n in (19, 20)), row
    cell = tmp_path / "run" / row["log_dir"]
    assert "ParserError" in (cell / "stderr.log").read_text()  # the program did answer the kill so
    assert json.loads((cell / "result.json").read_text())["stderr_at_kill"] == len("waiting for go.flag\n")

    resolved = crashmatrix("resolve", "run", cwd=tmp_path)
    assert resolved.returncode == 0, resolved.stderr
    (bundle,) = json.loads((tmp_path / "run" / "resolution.json").read_text())["repro"]
    issue = (tmp_path / "run" / bundle["dir"] / "ISSUE.md").read_text()
    assert "The program's to look at first: it never went on (its processes were at main app.py:" in issue
    assert "PyYAML" not in issue and "ParserError" not in issue
    assert "From the failing run's stderr before crashmatrix stopped it:\n\n```text\nwaiting for go.flag\n```" in issue
