"""Every command crashmatrix suggests pastes as printed: explain's and the run summary's `axes that matter`
advice names the real run directory, and an axis written as {values, keys} is set through `.values`.
Each suggestion is run for real, as printed, from the directory the user is in."""

import re
import shlex

import pytest
from conftest import crashmatrix

pytestmark = pytest.mark.slow  # real runs

SCRIPT = """\
import os, signal, sys
args = dict(a.split("=", 1) for a in sys.argv[1:])
if args["a"] == "1" and args["b"] == "1":
    os.kill(os.getpid(), signal.SIGSEGV)
"""
MATRIX = """\
name: paste
command: [python, crash.py]
strategy: pairwise
axes:
  a: [0, 1]
  b: [0, 1]
  c: [x, y, z]
  d: [u, v, w]
  workers:
    values: [0, 2]
    keys: [loader.train.num_workers, loader.val.num_workers]
"""


def _suggestions(text: str) -> list[str]:
    return re.findall(r"`(crashmatrix [^`]+)`", text)


def test_each_suggested_command_runs_as_printed(tmp_path, write):
    write("crash.py", SCRIPT)
    write("m.yaml", MATRIX)
    ran = crashmatrix("run", "m.yaml", "--out", "results/paste", cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    explained = crashmatrix("explain", "results/paste", cwd=tmp_path)
    assert explained.returncode == 0, explained.stderr
    suggested = _suggestions(explained.stdout)
    assert "crashmatrix bisect results/paste" in suggested, explained.stdout
    full = [s for s in suggested if s.startswith("crashmatrix run ")]
    assert full and "'axes.workers.values=[" in full[0], explained.stdout
    # the run's own summary.md gives the same advice
    assert set(_suggestions((tmp_path / "results/paste/summary.md").read_text())) == set(suggested)
    for command in suggested:
        proc = crashmatrix(*shlex.split(command)[1:], cwd=tmp_path)
        assert proc.returncode == 0, (command, proc.stdout, proc.stderr)
        assert "crash SIGSEGV" in proc.stdout, (command, proc.stdout)


def test_setting_a_keyed_axis_without_values_says_how(tmp_path, write):
    write("crash.py", SCRIPT)
    write("m.yaml", MATRIX)
    proc = crashmatrix("show", "m.yaml", "axes.workers=[0]", cwd=tmp_path)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.strip() == (
        "crashmatrix: m.yaml: override 'axes.workers=[0]': axis workers is written as {values, keys}; "
        "set its values with 'axes.workers.values=[0]'"
    )
