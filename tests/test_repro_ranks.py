"""The bug report of a distributed job's failure is told from the failing rank, and its repro runs from anywhere.

tests/apps/ddp_train.py with fault=raise:1, 2 gloo ranks on CPU. Run alone, under torchrun and under
torch.multiprocessing.spawn alike: rank 1 raises `ValueError: bad batch on rank 1` at ddp_train.py:46 in
train; rank 0, in its next all_reduce, fails with gloo's `Connection closed by peer [127.0.0.1]:PORT`;
then the launcher reports: torchrun sends rank 0 SIGTERM and raises ChildFailedError from
torch/distributed/launcher/api.py (its "Root Cause" rank 1, exit 1, "To enable traceback see ..."), and
mp.spawn raises ProcessRaisedException from torch/multiprocessing/spawn.py quoting rank 1's traceback under
its _wrap frame. The program's own raise is the failure: no torch file is to blame (issue 37, item 5).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys

import pytest
from conftest import ROOT, crashmatrix, rows_of

pytestmark = pytest.mark.slow  # distributed ranks reproduced

DDP_TRAIN = os.path.join(ROOT, "tests", "apps", "ddp_train.py")
ENV = {"PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")}  # torchrun
LAUNCHERS = {
    # the script by a relative path, as a user writes it beside the matrix
    "torchrun": "command: [torchrun, --nproc_per_node=2, ddp_train.py]\n",
    "spawn": "command: [python, ddp_train.py]\nparams: {launcher: spawn}\n",
}


@pytest.fixture(scope="module")
def resolved(tmp_path_factory):
    """Each launcher's run of rank 1's raise, both at once, then `crashmatrix resolve` of each."""
    base = tmp_path_factory.mktemp("ranks")
    shutil.copy(DDP_TRAIN, base / "ddp_train.py")
    procs = {}
    for name, command in LAUNCHERS.items():
        (base / f"{name}.yaml").write_text(f"name: {name}\n{command}axes:\n  fault: [raise:1]\ntimeout: 120\n")
        env = {**os.environ, **ENV, "PYTHONPATH": ROOT}
        argv = [sys.executable, "-m", "crashmatrix", "run", f"{name}.yaml", "--out", name]
        procs[name] = subprocess.Popen(argv, cwd=base, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    for name, proc in procs.items():
        _out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err.decode()
        done = crashmatrix("resolve", name, cwd=base, env=ENV)
        assert done.returncode == 0, done.stderr
    return base


@pytest.mark.parametrize("launcher", list(LAUNCHERS))
def test_the_rank_that_raised_is_the_verdict_not_the_sigterm_torchrun_sent(resolved, launcher):
    (row,) = rows_of(resolved / launcher)
    assert (row["outcome"], row["signal"], row["rank"]) == ("fail", "", "1"), row
    assert row["error"] == "ValueError: bad batch on rank 1"
    assert row["where"] == "ddp_train.py:46 in train"  # its path from the app's root: the script's folder
    # the same failure on any rank, signed by its place (grouping 2)
    assert row["signature"] == "ValueError: bad batch on rank N in ddp_train.py:train"
    header = list(row)
    assert header[header.index("where") + 1] == "rank"


@pytest.mark.parametrize("launcher", list(LAUNCHERS))
def test_the_issue_is_told_from_the_failing_ranks_own_traceback(resolved, launcher):
    (row,) = rows_of(resolved / launcher)
    assert (row["outcome"], row["rank"], row["error"]) == ("fail", "1", "ValueError: bad batch on rank 1")
    (bundle,) = json.loads((resolved / launcher / "resolution.json").read_text())["repro"]
    issue = (resolved / launcher / bundle["dir"] / "ISSUE.md").read_text()
    assert "PyTorch's tracker" not in issue and "torch's own code" not in issue
    assert issue.splitlines()[2].startswith("The program's to fix: the error was raised at its own line ddp_train.py:")
    telling = issue.split("## Telling lines")[1].split("## Where")[0]
    assert "From rank 1's own traceback (the launcher's report left out):" in telling
    assert 'raise ValueError(f"bad batch on rank {rank}")' in telling
    assert telling.rstrip().endswith("ValueError: bad batch on rank 1\n```")
    for launchers_words in ("ChildFailedError", "ProcessRaisedException", "launcher/api.py", "Connection closed"):
        assert launchers_words not in telling, launchers_words


def test_the_torchrun_repro_runs_from_anywhere_and_says_it_reproduced(resolved, tmp_path):
    (bundle,) = json.loads((resolved / "torchrun" / "resolution.json").read_text())["repro"]
    matrix = resolved / "torchrun" / bundle["dir"] / "matrix.yaml"
    assert f"- {resolved / 'ddp_train.py'}\n" in matrix.read_text()  # torchrun's script argument, absolute
    proc = crashmatrix("run", matrix, "--out", "again", cwd=tmp_path, env=ENV)  # another folder
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1] == (
        "reproduced: 1 of 1 runs failed with fail ValueError: bad batch on rank N in ddp_train.py:train"
    )
    assert re.search(r"^- torchrun$", (resolved / "torchrun" / "matrix.yaml").read_text(), re.M)


def test_a_repro_run_that_fails_another_way_is_not_reproduced():
    from crashmatrix.resolve.reproduced import reproduction_line

    wanted = {"outcome": "fail", "signal": "", "signature": "ValueError: bad batch on rank N"}
    cannot_open = {"outcome": "fail", "signal": "", "signature": "can't open file '<path>'"}
    same = {**wanted, "repeat": 1}
    assert reproduction_line(wanted, [cannot_open, cannot_open]) == (
        "not reproduced: none of 2 runs failed with fail ValueError: bad batch on rank N; "
        "2 failed another way: fail can't open file '<path>'"
    )
    assert reproduction_line(wanted, [same, {"outcome": "pass"}]) == (
        "reproduced: 1 of 2 runs failed with fail ValueError: bad batch on rank N (the others: 1 passed)"
    )
