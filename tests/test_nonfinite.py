"""ISSUE.md quotes the first non-finite value a failing run printed before it failed: where the run went wrong,
epochs before the error that ended it.

The truth, from the thirty-fifth held-out set's ts_std_zero_nan run alone (tests/zoo/truth_heldout35.yaml):
a constant feature standardised by a std of 0 makes every window nan; the program prints `S1 epoch 0 train nan
val nan` and `S1 epoch 1 ...`, never writes its best checkpoint (a nan is never `< best`), and then fails
loading it: `FileNotFoundError: ... S1-best.pt`. The error names a missing file; the run's own first line
with a nan says why it is missing. Before this, its ISSUE.md told the user to write the file.
"""

import os
import shutil

import pytest
from conftest import ROOT, crashmatrix

from crashmatrix.resolve.nonfinite import first_line

RECORDED = os.path.join(ROOT, "tests", "zoo", "recorded", "heldout35", "app")


def test_a_measurement_that_became_non_finite_is_found():
    assert first_line("S1 epoch 0 train nan val nan\nS1 epoch 1 train nan val nan\n", "") == (
        "S1 epoch 0 train nan val nan"
    )
    assert first_line("Epoch 0:  4%|▍ | 4/100 [00:01<00:20, loss=inf]\r", "") == (
        "Epoch 0:  4%|▍ | 4/100 [00:01<00:20, loss=inf]"
    )
    warned = "/app/scale.py:12: RuntimeWarning: invalid value encountered in divide\n  x = (x - m) / s\n"
    assert first_line("", warned) == "/app/scale.py:12: RuntimeWarning: invalid value encountered in divide"


def test_words_code_and_the_failure_itself_are_not_non_finite_values():
    assert first_line("info: 3 finance rows read\nmath.inf is 1 of 3\n", "") == ""
    assert first_line('{"step": 3, "loss": NaN}\n', "") == '{"step": 3, "loss": NaN}'
    # a review's false leads: settings, a log level, a path, a mask, a best-so-far, a name, a sentence
    for said in (
        "config: lr=0.001 max_grad_norm=inf",
        "EarlyStopping(monitor=val_loss, patience=inf)",
        "[12:00:01 INF] epoch 1 loss 0.53",
        "loading shards from /data/nan/shard_3.bin",
        "tensor([[0., -inf, -inf],",
        "epoch 1 best=inf",
        "New best score: 0.512 (prev inf)",
        "Nan Li, 3 runs",
        "NaN checks: 0 found in 100 batches",
        "no nan found after 100 steps",
    ):
        assert first_line(said + "\n", "") == "", said
    assert first_line("epoch 0 loss 0.31\n", "") == ""  # no nan at all
    assert first_line("", "nan\n") == ""  # not read as a measurement
    # a traceback's quoted source line, and what comes after a traceback's head, are the failure's own text
    traceback = (
        'Traceback (most recent call last):\n  File "a.py", line 3\n    x = float("nan") * 3\nValueError: nan 3\n'
    )
    assert first_line("", traceback) == ""
    # CUDA's device assert names nan and inf as quoted words
    said = "TensorCompare.cu:109: Assertion `probability tensor contains either `inf`, `nan` or element < 0` failed."
    assert first_line("", said) == ""


@pytest.mark.slow  # crashmatrix resolve of a recorded run, in its own process
def test_the_bug_report_of_a_missing_checkpoint_quotes_the_nan_loss_before_it(tmp_path):
    run = tmp_path / "app"
    shutil.copytree(RECORDED, run, ignore=shutil.ignore_patterns("repro", "resolution.*"))
    resolved = crashmatrix("resolve", run, cwd=tmp_path)
    assert resolved.returncode == 0, resolved.stderr
    reports = {path.parent.name: path.read_text() for path in (run / "repro").glob("*/ISSUE.md")}
    led = [name for name, text in reports.items() if "it printed a non-finite value" in text]
    assert led == ["FileNotFoundError-Errno-N-No-such-file-or"], led
    report = reports["FileNotFoundError-Errno-N-No-such-file-or"]
    assert "where it may first have gone wrong:\n\n```text\nS1 epoch 0 train nan val nan\n```\n" in report
