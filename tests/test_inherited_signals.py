"""A signal ignored as crashmatrix starts is ignored in every cell, as in the program started the same way, and
env.json says so (machine/fingerprint.py, signals_ignored).

The truth, run alone 2026-11-30: `python -c "import signal; print(signal.getsignal(signal.SIGINT) is
signal.SIG_IGN)"` prints `False` from a foreground shell, and `True` when started with SIGINT ignored (`sh -c 'cmd &'` without job control does that, as the fifty-seventh held-out set's first runs did); a
program that stops itself early with `os.kill(os.getpid(), SIGINT)` then runs on.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys

import pytest
from conftest import ROOT

from crashmatrix.machine.fingerprint import signals_ignored

PROBE = "import signal; print(signal.getsignal(signal.SIGINT) is signal.SIG_IGN)"


def test_nothing_ignored_here_is_said_as_nothing():
    assert signals_ignored() == ""


@pytest.mark.slow  # a real run, its controller started with SIGINT ignored
def test_a_controller_started_with_sigint_ignored_says_so_and_its_cells_inherit_it(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "crashmatrix", "run", "--out", "run", "--", sys.executable, "-c", PROBE],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": ROOT, "PATH": "/usr/bin:/bin"},
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
    )
    assert done.returncode == 0, done.stderr
    env = json.loads((tmp_path / "run" / "env.json").read_text())
    assert env["signals_ignored"] == "SIGINT", env.get("signals_ignored")
    (cell,) = (tmp_path / "run" / "cells").iterdir()
    assert (cell / "stdout.log").read_text().strip() == "True"
