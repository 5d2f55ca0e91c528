"""The third held-out set (truth_heldout3.yaml, HELDOUT3.md): 26 failures written as users report them, without
reading crashmatrix's rules, each with its truth from running it alone. Its runs were recorded once, before any
rule changed (recorded/heldout3/); here every recorded cell's stderr.log is diagnosed again with today's rules,
in this process (`crashmatrix diagnose`'s own function, no torch), and held to the truth's outcome,
`signature_has` and `where`, as test_heldout2.py does for the second set.

Where diagnose does not yet say the truth, the case is a strict xfail whose reason is what it said. A hang's
outcome is left out (the kill at the time limit is the run's).
"""

from __future__ import annotations

import csv
import os
import re

import pytest
import yaml
from diagnose_agreement import diagnosed

HERE = os.path.dirname(os.path.abspath(__file__))
RECORDED = os.path.join(HERE, "recorded", "heldout3")
with open(os.path.join(HERE, "truth_heldout3.yaml")) as _f:
    TRUTH: dict = yaml.safe_load(_f)
RUNS = {
    "single": ["single"],
    "hangs": ["hangs-inject", "hangs-plain"],
    "torchrun": ["torchrun"],
    "torchrun-hang": ["torchrun-hang-inject", "torchrun-hang-plain"],
}
ASPECTS = ("outcome", "signature_has", "where")

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT3.md lists the run's)
UNTRUE = {
    ("k_hang_pipe_full", "where"): "no place: stderr.log holds no stack of the main's wait(); the run read "
    "stacks.txt (its where was the truth)",
    ("k_ddp_collective_unmatched", "where"): "torch/distributed/elastic/multiprocessing/api.py:86 in "
    "_terminate_process_handler (torchrun's SIGTERM handler); the run named each rank's collective and line",
}


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
