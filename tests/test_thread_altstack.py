"""A thread's own stack overflow, placed (incell/thread_altstack.py): under inject every thread gets a signal
stack, so faulthandler tells the overflowing thread's frames instead of dying silently (held-out set 2's
h_thread_stack_overflow, tests/zoo/HELDOUT2.md).

The truth, from running tests/apps/thread_overflow.py alone with PYTHONFAULTHANDLER=1 (python 3.11): killed by
SIGSEGV, stderr empty; gdb puts the fault in the thread `walker`, deep in depth() at thread_overflow.py:10."""

import os
import subprocess
import sys

import pytest
from conftest import ROOT, crashmatrix, rows_of

pytestmark = pytest.mark.slow  # real segfaults: the program alone, then a cell (no torch in either)

APP = os.path.join(ROOT, "tests", "apps", "thread_overflow.py")


def test_alone_the_overflowing_thread_dies_without_a_word():
    alone = subprocess.run(
        [sys.executable, APP], env={**os.environ, "PYTHONFAULTHANDLER": "1"}, capture_output=True, text=True
    )
    assert (alone.returncode, alone.stderr) == (-11, "")


def test_under_inject_the_row_places_the_thread_that_overflowed(tmp_path):
    (tmp_path / "m.yaml").write_text(
        f"name: overflow\ncommand: [python, {APP}]\ninject: true\naxes:\n  x: [1]\ntimeout: 60\n"
    )
    ran = crashmatrix("run", "m.yaml", "--out", "run", cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    (row,) = rows_of(tmp_path / "run")
    assert (row["outcome"], row["signal"]) == ("crash", "SIGSEGV"), row
    assert row["where"] == "tests/apps/thread_overflow.py:10 in depth", row
    assert row["signature"].endswith("tests/apps/thread_overflow.py:depth"), row
