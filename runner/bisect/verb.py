"""`crashmatrix bisect`: from a passing configuration to the minimal change that still fails, with real cells.

It maps the matrix to configurations (--good/--bad, or picked from a run's
results) and back. The delta debugging itself is crashmatrix.bisect.delta_debug (pure,
tested with predicates); here each test is a real cell run through the engine,
logged under the bisect's own run directory (results.csv there lists every
configuration it tried).
"""

from __future__ import annotations

import os
import signal
import sys
import time
from collections import defaultdict
from collections.abc import Mapping, Sequence

from crashmatrix.bisect.axis_order import Disorder, Line, ordered_line
from crashmatrix.bisect.cell_run import CellRunner, open_run_dir
from crashmatrix.bisect.delta_debug import bisect
from crashmatrix.bisect.result import BisectInterrupted, BisectResult
from crashmatrix.bisect.text import as_bisect_json, detail_lines
from crashmatrix.cell import Cell, spell
from crashmatrix.errors import BadInput
from crashmatrix.matrix.executor_settings import check_executor
from crashmatrix.matrix.spec import Matrix
from crashmatrix.outcome import FailureKind, is_failure, is_pass, is_run_error, rank_note, ranks_in_order
from crashmatrix.process.interrupts import catching
from crashmatrix.process.stops import StopRegistry
from crashmatrix.rundir.finished_run import FinishedRun
from crashmatrix.rundir.store import RunDir, read_rows
from crashmatrix.rundir.unwritable import RunDirUnwritable
from crashmatrix.text import shown_path


def parse_assignments(items: list[str], matrix: Matrix, flag: str) -> dict:
    """`K=V` arguments -> {axis: the axis's own value}, matched by spelling against the listed values."""
    out = {}
    for item in items or []:
        key, eq, text = item.partition("=")
        if not eq:
            raise BadInput(f"{flag} {item}: expected AXIS=VALUE")
        if key not in matrix.axes:
            raise BadInput(f"{matrix.path}: {flag} {item}: {key!r} is not an axis (axes: {', '.join(matrix.axes)})")
        for value in matrix.axes[key]:
            if spell(value) == text:
                out[key] = value
                break
        else:
            listed = ", ".join(spell(v) for v in matrix.axes[key])
            raise BadInput(f"{matrix.path}: {flag} {item}: {text!r} is not one of axes.{key}'s values [{listed}]")
    return out


def configurations(matrix: Matrix, good_items, bad_items) -> tuple[dict, dict]:
    """An axis that --good/--bad leave out takes its first listed value."""
    first = {axis: values[0] for axis, values in matrix.axes.items()}
    good = {**first, **parse_assignments(good_items, matrix, "--good")}
    bad = {**first, **parse_assignments(bad_items, matrix, "--bad")}
    return good, bad


def _listed(matrix: Matrix) -> dict[str, dict]:
    """Each axis's values by spelling. The matrix (overrides applied) gives the values; a row's value is
    matched by its spelling, as a cell's id is (true is not 1 there)."""
    listed: dict[str, dict] = {a: {} for a in matrix.axes}
    for a, values in matrix.axes.items():
        for v in values:
            listed[a].setdefault(spell(v), v)
    return listed


def usable_rows(run: FinishedRun, matrix: Matrix) -> list[dict]:
    """The run's rows bisect can use, each axis's value the matrix's own: not `error`, and every axis at
    a listed value (cells an include added with values off the axes, or without an axis, cannot be
    bisected here)."""
    listed = _listed(matrix)
    return [
        {**r, **{a: listed[a][spell(r[a])] for a in matrix.axes}}
        for r in run.rows
        if not is_run_error(r["outcome"]) and all(a in r and spell(r[a]) in listed[a] for a in matrix.axes)
    ]


def numeric_line(
    run: FinishedRun, matrix: Matrix, bad: dict, axis: str | None = None
) -> tuple[Line | None, list[Disorder], FailureKind]:
    """The line to narrow where explain's most telling failure follows one numeric axis (its conjunctions
    name that axis alone, and a line steps over three values or more; or `axis`, where the user names
    it), with the numeric axes that looked like a boundary and are not, and the failure."""
    from crashmatrix.answers import explain

    usable = usable_rows(run, matrix)
    patterns = explain.explain(usable, list(matrix.axes))
    target = patterns[0].failure_kind
    named = {a for p in patterns if p.failure_kind == target for a, _ in p.conditions}
    only = [axis] if axis else (sorted(named) if len(named) == 1 else [])
    # the user's --axis is taken at its word; found alone, an order needs three values or more
    line, disorders = ordered_line(usable, matrix.axes, target, prefer=bad, only=only, least=2 if axis else 3)
    return line, disorders, target


def pick_from_run(run: FinishedRun, matrix: Matrix) -> tuple[dict, dict]:
    """(good, bad), each {axis: the matrix's value}: a failing cell of explain's most telling pattern, and
    the passing cell with the fewest differing axes."""
    from crashmatrix.answers import explain

    path = run.csv_path
    axes = list(matrix.axes)
    listed = _listed(matrix)
    usable = usable_rows(run, matrix)
    by_cell = defaultdict(list)
    for r in usable:
        by_cell[tuple(spell(r[a]) for a in axes)].append(r)
    passing = [k for k, rs in by_cell.items() if all(is_pass(r["outcome"]) for r in rs)]
    if not any(is_failure(r["outcome"]) for r in usable):
        raise BadInput(f"{path}: no failing cell to bisect")
    if not passing:
        raise BadInput(f"{path}: no cell passed in every run; give --good/--bad with a matrix instead")
    # explain groups by outcome + signal + signature and does not let a cell that failed another way
    # (one failure hiding another) pull the choice towards it
    top = explain.explain(usable, axes)[0]

    def shows(r: dict) -> bool:
        return FailureKind.from_row(r) == top.failure_kind

    wanted = dict(top.conditions)
    candidates = [
        k
        for k, rs in by_cell.items()
        if any(shows(r) for r in rs) and all(k[axes.index(a)] == v for a, v in wanted.items())
    ]
    # fewest differing axes; then a cell that showed the failure in every run (a steadier target)
    _, _, bad_key, good_key = min(
        (sum(a != b for a, b in zip(f, p)), not all(shows(r) for r in by_cell[f]), f, p)
        for f in candidates
        for p in passing
    )
    return {a: listed[a][v] for a, v in zip(axes, good_key)}, {a: listed[a][v] for a, v in zip(axes, bad_key)}


def seeds_from_run(run: FinishedRun, matrix: Matrix, good: dict, bad: dict) -> dict[frozenset[str], list[FailureKind]]:
    """The run's rows of every configuration bisect may test (good with some of its changes to bad), keyed by
    the changes each holds, as bisect counts evidence: the bad configuration's failures and the good one's
    passes among them. Only rows of that very cell (its cell_id; an include may have extended a cell with
    the same values) and none crashmatrix could not launch. The caller makes sure matrix is the run's own."""
    changes = [a for a in matrix.axes if spell(good[a]) != spell(bad[a])]
    seeded: dict[frozenset[str], list[FailureKind]] = defaultdict(list)
    for row in run.rows:
        if is_run_error(row["outcome"]) or not all(a in row for a in matrix.axes):
            continue
        spelled = {a: spell(row[a]) for a in matrix.axes}
        if any(spelled[a] not in (spell(good[a]), spell(bad[a])) for a in matrix.axes):
            continue
        config = frozenset(a for a in changes if spelled[a] == spell(bad[a]))
        values = {a: (bad[a] if a in config else good[a]) for a in matrix.axes}
        if Cell.of(values).cell_id == row["cell_id"]:
            seeded[config].append(FailureKind.from_row(row))
    return dict(seeded)


class _CellTest:
    """The test a bisection runs (``run_once``): the good configuration with some changes applied, run for real as a cell."""

    def __init__(self, runner: CellRunner, axes, good: dict, bad: dict):
        self.runner, self.axes, self.good, self.bad = runner, list(axes), good, bad

    def __call__(self, changes: frozenset) -> FailureKind:
        values = {a: (self.bad[a] if a in changes else self.good[a]) for a in self.axes}
        applied = ", ".join(f"{a}={spell(self.bad[a])}" for a in self.axes if a in changes) or "none (good)"
        return self.runner(values, f"changes: {applied}")


def bisect_matrix(
    matrix: Matrix,
    good: dict,
    bad: dict,
    *,
    out: str,
    repeats=None,
    jobs: int = 1,
    max_runs=None,
    stream=None,
    seeded: dict[frozenset[str], list[FailureKind]] | None = None,
    seeded_rows: Sequence[Mapping] = (),
) -> tuple[BisectResult, dict, bool]:
    """Returns (result, bisect.json contents, interrupted). seeded: a finished run's rows (seeds_from_run),
    seeded_rows the rows themselves (a distributed job's ranks)."""
    stream = stream or sys.stdout
    check_executor(matrix.executor, "local", matrix.path)  # bisect runs its cells here
    changes = [a for a in matrix.axes if spell(good[a]) != spell(bad[a])]
    if not changes:
        raise BadInput(f"{matrix.path}: --good and --bad are the same configuration; nothing to bisect")
    # The configurations bisect may test are every mix of good and bad; these cover each value it sets.
    singles = [Cell.of({**good, a: bad[a]}) for a in changes]
    # As `run` does: the interpreters are asked while the cells run, and env.json is completed at the end.
    store, pending = open_run_dir(matrix, [Cell.of(good), Cell.of(bad), *singles], out)
    print(
        f"crashmatrix bisect: {len(changes)} axes differ between good and bad: "
        + ", ".join(f"{a}: {spell(good[a])} -> {spell(bad[a])}" for a in changes),
        file=stream,
        flush=True,
    )
    if seeded:
        _say_seeded(seeded, frozenset(changes), stream)
    stops = StopRegistry()
    cell_test = _CellTest(CellRunner(matrix, store, stream, stops), matrix.axes, good, bad)
    interrupted = False
    try:
        # Ctrl-C, `timeout` or a scheduler's stop: the best answer so far is kept
        with catching((signal.SIGINT, signal.SIGTERM), stops.interrupt_or_defer):
            result = bisect(changes, cell_test, repeats=repeats, max_runs=max_runs, jobs=jobs, seeded=seeded)
    except BisectInterrupted as e:
        stops.stop_everything()
        pending.stop()
        result, interrupted = e.result, True
    except RunDirUnwritable as e:  # a full disk: no cell of another thread runs on; bisect has no --resume
        stops.stop_everything()
        pending.stop()
        raise RunDirUnwritable(e.path, e.error, "run the bisect again with a new --out") from None
    store.write_json("env.json", pending.finish())
    spelled = [{a: spell(v) for a, v in values.items()} for values in (good, bad)]
    data, lines = _with_ranks(store, seeded_rows, result, as_bisect_json(result, *spelled))
    store.write_json("bisect.json", data)
    text = "\n".join([""] + [line for line in lines if line])
    store.write_text("summary.md", f"# crashmatrix bisect {matrix.name}\n{text}\n")
    print(text, file=stream, flush=True)
    print(f"bisect.json: {shown_path(os.path.join(store.path, 'bisect.json'))}", file=stream, flush=True)
    return result, data, interrupted


def _with_ranks(store: RunDir, seeded_rows, result: BisectResult, data: dict) -> tuple[dict, list[str]]:
    """bisect.json and the answer's lines, with the rank a distributed job's failure struck where any (its
    runs' `rank`, and the seeding run's, beside the contract's keys)."""
    lines = detail_lines(result, data["bad"])
    if result.target is None:
        return data, lines
    rows = [*read_rows(store.path)[0], *seeded_rows]
    ranks = ranks_in_order(r.get("rank") for r in rows if FailureKind.from_row(r) == result.target)
    if ranks:
        data["ranks"] = [int(r) if r.isdigit() else r for r in ranks]
        lines.append(f"the failure was {rank_note(ranks)[1:-1]}'s")
    return data, lines


def _say_seeded(seeded: dict[frozenset[str], list[FailureKind]], bad: frozenset[str], stream) -> None:
    total = sum(len(kinds) for kinds in seeded.values())
    of_bad = seeded.get(bad, [])
    failed = sum(1 for k in of_bad if k.is_failure)
    print(
        f"crashmatrix bisect: counting {total} runs of the finished run as evidence"
        f" (the bad configuration failed {failed} of {len(of_bad)} there)",
        file=stream,
        flush=True,
    )


def default_out(base: str, name: str) -> str:
    return os.path.join(base, f"bisect-{name}-{time.strftime('%Y%m%d-%H%M%S')}")
