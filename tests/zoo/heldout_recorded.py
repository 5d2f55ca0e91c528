"""A held-out set's recorded runs judged again from their logs (test_heldout2.py, test_heldout3.py): each
recorded cell's stderr.log is diagnosed with today's rules, in this process (`crashmatrix diagnose`'s own
function, no torch) run in the app's folder as a user runs it there, and held to the truth's outcome, `signature_has` and `where`. Where diagnose does not yet
say the truth, the case is a strict xfail whose reason is what it said, so a rule that comes to give the truth
fails it (XPASS). A hang is diagnosed with the stacks.txt its run saved beside its stderr.log, as a user's
`crashmatrix diagnose` of the cell reads it."""

from __future__ import annotations

import contextlib
import csv
import functools
import os
import re

import pytest
import yaml
from conftest import ROOT
from diagnose_agreement import _checkout_paths, diagnosed

HERE = os.path.dirname(os.path.abspath(__file__))
ASPECTS = ("outcome", "signature_has", "where")


def _alternatives(value) -> list:
    return [v for v in (value if isinstance(value, list) else [value]) if v]


def _place(pattern: str) -> re.Pattern:
    return re.compile(".*".join(re.escape(part) for part in pattern.split("*")), re.S)


@functools.cache
def _run_matrix(run: str) -> dict:
    """A recorded run's matrix.yaml, read once for all its cells."""
    with open(os.path.join(run, "matrix.yaml")) as f:
        return yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


class HeldOut:
    """name: the set (`heldout2`: truth_heldout2.yaml, recorded/heldout2/); runs: each truth's `run` to the
    recorded run folders that hold it; untrue: (mode, aspect) to what diagnose says instead of the truth."""

    def __init__(self, name: str, runs: dict[str, list[str]], untrue: dict[tuple[str, str], str]):
        self.recorded = os.path.join(HERE, "recorded", name)
        with open(os.path.join(HERE, f"truth_{name}.yaml")) as f:
            # libyaml's parser where PyYAML has it: every worker reads all the sets' truths as it collects
            self.truth: dict = yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
        self.runs, self.untrue = runs, untrue

    def cells(self, mode: str) -> list[str]:
        """The recorded cell folders of a mode, every repeat of every run that holds it."""
        truth = self.truth[mode]
        want = truth.get("cell") or {"mode": mode}
        found = []
        for run in self.runs[truth["run"]]:
            with open(os.path.join(self.recorded, run, "results.csv"), newline="") as f:
                for row in csv.DictReader(f):
                    if all(row.get(k) == str(v) for k, v in want.items()):
                        found.append(os.path.join(self.recorded, run, row["log_dir"]))
        return found

    def told(self) -> dict:
        """{mode: [the row diagnose gives each of its recorded cells' stderr.log]}, diagnosed in the folder a user
        would run it in: the project's (the run's `cwd`, else its script's folder)."""
        return {mode: [diagnosed(cell, self.project(cell)) for cell in self.cells(mode)] for mode in self.truth}

    def whose(self, cell: str, packages: dict):
        """Whose bug resolve finds a recorded cell's death by signal to be (resolve/culprit.py), from its stderr.log
        read in its project's folder with this checkout's paths."""
        from crashmatrix.resolve.culprit import culprit

        with open(os.path.join(cell, "stderr.log"), encoding="utf-8", errors="replace") as f:
            stderr = _checkout_paths(f.read())
        with contextlib.chdir(self.project(cell)):
            return culprit(stderr, "", packages, by_signal=True)

    def project(self, cell: str) -> str:
        """The folder of the app a recorded cell ran, in this checkout."""
        matrix = _run_matrix(os.path.dirname(os.path.dirname(cell)))
        script = next((a for a in matrix["command"] if str(a).endswith(".py")), "")
        folder = matrix.get("cwd") or os.path.dirname(script) or HERE
        at = folder.find("/tests/zoo/app")
        return os.path.join(ROOT, folder[at + 1 :]) if at != -1 else HERE

    def cases(self) -> list:
        cases = []
        for mode, truth in self.truth.items():
            for aspect in ASPECTS:
                if aspect == "signature_has" and not _alternatives(truth["signature_has"]):
                    continue  # not scored (a hang's)
                reason = self.untrue.get((mode, aspect))
                marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
                cases.append(pytest.param(mode, aspect, marks=marks, id=f"{mode}-{aspect}"))
        return cases

    def tests(self, modes_at_least: int) -> tuple:
        """What every set's test module runs, bound there under these names: `told, test_every_mode_has_its_recorded_cells,
        test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(modes_at_least=18)` (a module fixture,
        then the tests, one case per mode and aspect)."""

        @pytest.fixture(scope="module")
        def told() -> dict:
            return self.told()

        def test_every_mode_has_its_recorded_cells():
            self.check_recorded(modes_at_least)

        @pytest.mark.parametrize("mode,aspect", self.cases())
        def test_diagnose_of_the_recorded_logs_gives_the_truth(told, mode, aspect):
            self.check(told[mode], mode, aspect)

        return told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth

    def check_recorded(self, modes_at_least: int) -> None:
        assert len(self.truth) >= modes_at_least
        for mode in self.truth:
            assert len(self.cells(mode)) == 3 * len(self.runs[self.truth[mode]["run"]]), mode

    def check(self, rows: list[dict], mode: str, aspect: str) -> None:
        truth = self.truth[mode]
        if aspect == "outcome":
            said = {(r.get("outcome"), r.get("signal") or "") for r in rows}
            assert said == {(truth["outcome"], truth.get("signal") or "")}
        elif aspect == "signature_has":
            wanted = [h.lower() for h in _alternatives(truth["signature_has"])]
            for row in rows:
                assert any(h in (row.get("signature") or "").lower() for h in wanted), row.get("signature")
        else:
            # an empty `where` (a pass truth, truth_heldout16.yaml), or "" among the alternatives (a usage error that
            # no frame printed, truth_heldout20.yaml), takes no place at all
            where = truth["where"]
            places = [_place(p) for p in (where if isinstance(where, list) else [where or ""])]
            for row in rows:
                assert any(p.fullmatch(row.get("where") or "") for p in places), row.get("where")
