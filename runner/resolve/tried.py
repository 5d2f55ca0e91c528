"""`crashmatrix resolve RUN --try` (issue 50): the change that removes a slow finding's cause, run for real.

explain's slow findings say why they are slow and which change removes the cause (answers/slow_why.py); a
change the run never measured is only an estimate (`persistent_workers=true: 9 s against 20 s
(estimated)`). `--try` runs it: the slowest cell of each such finding once as it was (the baseline) and once
with each untried change, one after the other, as fresh cells through the engine (bisect's CellRunner), into
RUN/tried/, a run directory of its own (results.csv, the cells' logs, env.json). The ratio is the baseline's
wall time over the change's, both measured in that run: a busy machine slows both alike. resolve reads
RUN/tried/ whenever it is there, so its measurements stay in resolution.json and resolution.md however often
resolve runs again; a second `--try` reads them rather than running anything (remove the folder to measure
again).

A change is tried only where it reaches the program: a knob under `inject`, a probe's parameter, or an axis
the matrix has already.
"""

from __future__ import annotations

import dataclasses
import json
import os
import statistics
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from crashmatrix.answers.slow import Slow
from crashmatrix.cell import Cell, spell
from crashmatrix.errors import BadInput
from crashmatrix.matrix.knob_names import INJECT_KNOBS
from crashmatrix.outcome import is_pass
from crashmatrix.rundir.finished_run import FinishedRun

TRIED_DIR = "tried"  # RUN/tried/: the run --try made
PLAN_JSON = "try.json"  # in it: which cells are which change and its baseline
_OBSERVED: dict = {"persistent_workers": False}  # a baseline's value for a change's axis the run does not have


@dataclass(frozen=True)
class Change:
    """One change to try on one slow finding's slowest cell."""

    conditions: tuple[tuple[str, str], ...]  # the finding's
    baseline: dict  # the slowest cell's values (typed as the matrix lists them), with the changed axes
    values: tuple[tuple[str, str], ...]  # the change: (axis, spelled value)

    def cell(self) -> dict:
        """The changed cell's values, each typed as YAML reads it (as the matrix's own values are)."""
        import yaml

        return {**self.baseline, **{a: yaml.safe_load(v) for a, v in self.values}}


@dataclass(frozen=True)
class Tried:
    """What one change measured against its baseline, in RUN/tried/."""

    conditions: tuple[tuple[str, str], ...]
    values: tuple[tuple[str, str], ...]
    duration_s: float | None  # the change's median wall time over its passing runs; None: none passed
    against_s: float | None  # the baseline's, in the same run
    runs: int
    outcome: str  # the change's first run's outcome (what went wrong where none passed)

    def change(self) -> str:
        return " and ".join(f"{a}={v}" for a, v in self.values)

    def ratio(self) -> float | None:
        if self.duration_s is None or self.against_s is None or self.duration_s <= 0:
            return None
        return self.against_s / self.duration_s

    def text(self) -> str:
        """`persistent_workers=true: 2.3 s against 9.8 s, 4.3× faster (measured by --try, 1 run each)`."""
        ratio = self.ratio()
        if ratio is None:
            return f"{self.change()}: tried, and it did not pass ({self.outcome})"
        how = "faster" if ratio >= 1 else "slower"
        times = ratio if ratio >= 1 else 1 / ratio
        each = f"{self.runs} run{'s' if self.runs != 1 else ''} each"
        return (
            f"{self.change()}: {_s(self.duration_s or 0.0)} against {_s(self.against_s or 0.0)}, "
            f"{times:.1f}× {how} (measured by --try, {each})"
        )

    def to_json(self) -> dict:
        ratio = self.ratio()
        return {
            "conditions": dict(self.conditions),
            "values": dict(self.values),
            "duration_s": None if self.duration_s is None else round(self.duration_s, 3),
            "against_s": None if self.against_s is None else round(self.against_s, 3),
            "ratio": None if ratio is None else round(ratio, 2),
            "runs": self.runs,
            "outcome": self.outcome,
            "dir": TRIED_DIR,
            "text": self.text(),
        }


def _s(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds >= 10 else f"{seconds:.2g} s"


def reaches(matrix: Mapping, axis: str) -> bool:
    """Whether a cell's value for `axis` reaches the program: an axis the matrix has, or a knob applied from
    outside (inject) or a probe's parameter."""
    if axis in (matrix.get("axes") or {}):
        return True
    return axis in INJECT_KNOBS and bool(matrix.get("inject") or matrix.get("probe"))


def changes(run: FinishedRun, avoid: Sequence[Slow]) -> list[Change]:
    """Each slow finding's changes that the run did not measure and that reach the program."""
    out = []
    for slow in avoid:
        if slow.why is None:
            continue
        untried = [
            r.values
            for r in slow.why.remedies
            if not r.measured and all(reaches(run.matrix, a) and v != "more" for a, v in r.values)
        ]
        cell = _slowest(run, slow)
        if not untried or cell is None:
            continue
        baseline = dict(cell)
        for values in untried:
            for axis, _ in values:
                if axis not in baseline:
                    baseline[axis] = _OBSERVED.get(axis, "")
        out += [Change(slow.conditions, baseline, tuple(values)) for values in untried]
    return out


def _slowest(run: FinishedRun, slow: Slow) -> dict | None:
    """The values of the finding's cell whose passing runs took longest (median), typed as the matrix lists
    them; None where none passed."""
    walls: dict[str, list[float]] = {}
    values: dict[str, dict] = {}
    for row in run.rows:
        if not slow.holds(row) or not is_pass(str(row.get("outcome", ""))) or not row.get("duration_s"):
            continue
        walls.setdefault(row["cell_id"], []).append(float(row["duration_s"]))
        values[row["cell_id"]] = {a: row.get(a, "") for a in run.axes}
    if not walls:
        return None
    return values[max(walls, key=lambda c: statistics.median(walls[c]))]


def read(run_dir: str) -> list[Tried]:
    """What RUN/tried/ measured, per change; [] where --try never ran."""
    path = os.path.join(run_dir, TRIED_DIR)
    if not os.path.exists(os.path.join(path, "results.csv")):
        return []
    try:
        tried = FinishedRun.load(path)
    except BadInput:
        return []
    try:
        with open(os.path.join(path, PLAN_JSON), encoding="utf-8") as f:
            plan = json.load(f)
    except (OSError, ValueError):
        return []
    if not isinstance(plan, list):
        return []
    measured = [_measured(tried.rows, entry) for entry in plan if isinstance(entry, dict)]
    return [t for t in measured if t.runs]  # a change an interrupted --try never reached is still an estimate


def _measured(rows: Sequence[Mapping], entry: Mapping) -> Tried:
    conditions = tuple((str(a), str(v)) for a, v in (entry.get("conditions") or {}).items())
    values = tuple((str(a), str(v)) for a, v in (entry.get("values") or {}).items())
    base, mine = str(entry.get("baseline_cell", "")), str(entry.get("cell", ""))
    walls = {c: [float(r["duration_s"]) for r in rows if r.get("cell_id") == c and _passed(r)] for c in (base, mine)}
    outcomes = [str(r.get("outcome", "")) for r in rows if r.get("cell_id") == mine]
    return Tried(
        conditions=conditions,
        values=values,
        duration_s=statistics.median(walls[mine]) if walls[mine] else None,
        against_s=statistics.median(walls[base]) if walls[base] else None,
        runs=len(outcomes),
        outcome=outcomes[0] if outcomes else "not run",
    )


def _passed(row: Mapping) -> bool:
    return is_pass(str(row.get("outcome", ""))) and bool(row.get("duration_s"))


def run_changes(given: str, run: FinishedRun, planned: Sequence[Change], stream=None) -> None:
    """Run the baselines and the changes into RUN/tried/ as cells of the run's own matrix, one at a time;
    BadInput where there is nothing to try or the matrix cannot run here. Ctrl-C ends the cells, keeps what
    ran, and ends resolve (KeyboardInterrupt)."""
    import signal

    from crashmatrix.bisect.cell_run import CellRunner, open_run_dir
    from crashmatrix.process.interrupts import catching
    from crashmatrix.process.stops import StopRegistry

    stream = stream or sys.stdout
    if not planned:
        raise BadInput(f"resolve {given} --try: nothing to try (no slow finding with a change the run did not measure)")
    matrix = _try_matrix(given, run, planned)
    cells = _ordered(planned)
    store, pending = open_run_dir(matrix, [Cell.of(c) for c in cells], os.path.join(run.directory, TRIED_DIR))
    store.write_json(PLAN_JSON, [_plan_entry(c) for c in planned])
    stops = StopRegistry()
    runner = CellRunner(matrix, store, stream, stops)
    try:
        with catching((signal.SIGINT, signal.SIGTERM), stops.interrupt_or_defer):
            for values in cells:
                runner(values, "tried: " + " ".join(f"{a}={spell(v)}" for a, v in values.items()))
    except KeyboardInterrupt:
        stops.stop_everything()
        pending.stop()
        raise
    store.write_json("env.json", pending.finish())


def _try_matrix(given: str, run: FinishedRun, planned: Sequence[Change]):
    """The run's own matrix, its axes the values the tried cells take, one run a cell."""
    from crashmatrix.matrix.program import resolve_program
    from crashmatrix.matrix.spec import load_matrix

    kept = os.path.join(run.directory, "matrix.yaml")
    if not os.path.exists(kept):
        raise BadInput(f"resolve {given} --try: the run has no matrix.yaml to run its cells from")
    matrix = resolve_program(load_matrix(kept, []), kept)
    axes: dict[str, list] = {a: [] for a in matrix.axes}
    for values in _ordered(planned):
        for axis, value in values.items():
            listed = axes.setdefault(axis, [])
            if value not in listed:
                listed.append(value)
    return dataclasses.replace(matrix, axes=axes, include=(), exclude=(), repeats=1)


def _ordered(planned: Sequence[Change]) -> list[dict]:
    """Each baseline, then its changes; a cell once however many changes share it."""
    out: list[dict] = []
    for change in planned:
        for values in (change.baseline, change.cell()):
            if values not in out:
                out.append(values)
    return out


def _plan_entry(change: Change) -> dict:
    return {
        "conditions": dict(change.conditions),
        "values": {a: spell(v) for a, v in change.values},
        "baseline_cell": Cell.of(change.baseline).cell_id,
        "cell": Cell.of(change.cell()).cell_id,
    }
