"""The second held-out set (truth_heldout2.yaml, HELDOUT2.md): 28 failures written as users report them, without
reading crashmatrix's rules, each with its truth from running it alone. Its runs were recorded once, before any
rule changed (recorded/heldout2/); here every recorded cell's stderr.log is diagnosed again with today's rules,
in this process (`crashmatrix diagnose`'s own function, no torch, about 5 CPU-s for the 93 cells), and held to
the truth's outcome, `signature_has` and `where`.

Where diagnose does not yet say the truth, the case is a strict xfail whose reason is what it said: the test
records today's state and fails (XPASS) once a rule gives the truth. What only a run can know is left out,
as tests/diagnose_agreement.py leaves it out: a hang's outcome (the kill at the time limit is the run's).
"""

from __future__ import annotations

import csv
import os
import re

import pytest
import yaml
from diagnose_agreement import diagnosed

HERE = os.path.dirname(os.path.abspath(__file__))
RECORDED = os.path.join(HERE, "recorded", "heldout2")
with open(os.path.join(HERE, "truth_heldout2.yaml")) as _f:
    TRUTH: dict = yaml.safe_load(_f)
RUNS = {
    "single": ["single"],
    "hangs": ["hangs-inject", "hangs-plain"],
    "hydra": ["hydra"],
    "lightning": ["lightning"],
    "torchrun": ["torchrun"],
}
ASPECTS = ("outcome", "signature_has", "where")

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT2.md lists the run's)
UNTRUE = {
    ("h_thread_stack_overflow", "outcome"): "no failure: the log is empty (faulthandler cannot run on the "
    "overflowed thread's stack); the run said crash SIGSEGV from the exit status alone",
    ("h_thread_stack_overflow", "signature_has"): "no signature (the run's: killed_by_signal, with no place)",
    ("h_thread_stack_overflow", "where"): "no place; the truth is zoo/modes/h_thread_stack_overflow.py:9 in depth",
    ("h_hang_worker_blocks", "where"): "no place: stderr.log is empty, the blocked worker's open() is only in "
    "stacks.txt, which the run read (its where was the truth)",
    ("h_hydra_interp_missing", "where"): "hydra/_internal/instantiate/_instantiate2.py:293 in _instantiate_impl; "
    "hydra_app/train.py:12 in build_model (neither omegaconf's frame nor conf/model/h_mlp_interp.yaml)",
}
# h_pl_log_on_train_end: diagnose gives the truth, the run's row named the hook twice (HELDOUT2.md, untrue there)


def _cells(mode: str) -> list[str]:
    """The recorded cell folders of a mode, every repeat of every run that holds it."""
    truth = TRUTH[mode]
    want = truth.get("cell") or {"mode": mode}
    found = []
    for run in RUNS[truth["run"]]:
        with open(os.path.join(RECORDED, run, "results.csv"), newline="") as f:
            for row in csv.DictReader(f):
                if all(row.get(k) == str(v) for k, v in want.items()):
                    found.append(os.path.join(RECORDED, run, row["log_dir"]))
    return found


@pytest.fixture(scope="module")
def told() -> dict:
    """{mode: [the row diagnose gives each of its recorded cells' stderr.log]}."""
    return {mode: [diagnosed(cell) for cell in _cells(mode)] for mode in TRUTH}


def _alternatives(value) -> list:
    return [v for v in (value if isinstance(value, list) else [value]) if v]


def _place(pattern: str) -> re.Pattern:
    return re.compile(".*".join(re.escape(part) for part in pattern.split("*")), re.S)


def _cases() -> list:
    cases = []
    for mode, truth in TRUTH.items():
        for aspect in ASPECTS:
            if aspect == "outcome" and truth["outcome"] == "timeout":
                continue  # the kill at the time limit is the run's alone
            if aspect == "signature_has" and not _alternatives(truth["signature_has"]):
                continue  # not scored (a hang's)
            reason = UNTRUE.get((mode, aspect))
            marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
            cases.append(pytest.param(mode, aspect, marks=marks, id=f"{mode}-{aspect}"))
    return cases


def test_every_mode_has_its_recorded_cells():
    assert len(TRUTH) >= 26
    for mode in TRUTH:
        assert len(_cells(mode)) == 3 * len(RUNS[TRUTH[mode]["run"]]), mode


@pytest.mark.parametrize("mode,aspect", _cases())
def test_diagnose_of_the_recorded_logs_gives_the_truth(told, mode, aspect):
    truth, rows = TRUTH[mode], told[mode]
    if aspect == "outcome":
        said = {(r.get("outcome"), r.get("signal") or "") for r in rows}
        assert said == {(truth["outcome"], truth.get("signal") or "")}
    elif aspect == "signature_has":
        wanted = [h.lower() for h in _alternatives(truth["signature_has"])]
        for row in rows:
            assert any(h in (row.get("signature") or "").lower() for h in wanted), row.get("signature")
    else:
        places = [_place(p) for p in _alternatives(truth["where"])]
        for row in rows:
            assert any(p.fullmatch(row.get("where") or "") for p in places), row.get("where")
