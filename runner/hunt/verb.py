"""`crashmatrix hunt`: from a crash and a matrix of suspects to every failing conjunction, with real cells.

The search itself is crashmatrix.hunt.search (pure, tested with predicates); here each
cell it picks runs for real through the engine (or a submitit executor), batch by
batch, into the hunt's own run directory: results.csv there lists every run, so
report, explain and compare work on it, and --resume rebuilds the evidence from it
(the chooser is a function of the evidence, so the replay picks what the
interrupted hunt would have).
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from crashmatrix.app import preflight
from crashmatrix.cell import Cell, CellRun, cell_and_node, spell
from crashmatrix.engine import fleet
from crashmatrix.errors import BadInput
from crashmatrix.hunt.model import Cell as Values
from crashmatrix.hunt.model import Evidence, Run, Space, run_of_row
from crashmatrix.hunt.search import State, clean_runs_wanted, hunt
from crashmatrix.hunt.text import best_so_far, cause_sentence, closing_line, conditions_dict, hunt_json
from crashmatrix.matrix.executor_settings import check_executor
from crashmatrix.matrix.expand import matches
from crashmatrix.matrix.spec import Matrix
from crashmatrix.outcome import FailureKind, is_run_error
from crashmatrix.process.interrupts import catching
from crashmatrix.rundir import kept_options
from crashmatrix.rundir.store import RunDir, RunResult, read_rows
from crashmatrix.rundir.unwritable import RunDirUnwritable
from crashmatrix.text import shown_path

NAMED_FILE = "hunt-named.json"  # when each cause was named: hunt.json's named_after, kept across --resume
DEFAULT_MAX_RUNS = 200


@dataclass(frozen=True)
class HuntOptions:
    order: int = 3
    confidence: float = 0.95
    max_runs: int = DEFAULT_MAX_RUNS
    jobs: int = 1
    executor: str = "local"
    seed: int = 0
    from_run: str | None = None

    def check(self) -> None:
        if self.order < 1:
            raise BadInput(f"--order: expected a whole number >= 1, got {self.order}")
        if not 0.5 <= self.confidence < 1:
            raise BadInput(f"--confidence: expected a number in [0.5, 1), got {self.confidence}")
        for flag, value in (("--max-runs", self.max_runs), ("--jobs", self.jobs)):
            if value < 1:
                raise BadInput(f"{flag}: expected a whole number >= 1, got {value}")


@dataclass
class HuntOutcome:
    run_dir: str
    state: State
    data: dict
    interrupted: bool


class _Interrupted(Exception):
    pass


class _CannotRun(Exception):
    """Every run of a batch was `error`: crashmatrix cannot start the cells; hunting on would spend the budget."""


def space_of(matrix: Matrix, order: int, nodes: Sequence[str] = ()) -> Space:
    """The matrix's axes as hunt's Space (values spelled as the CSV spells them); excludes on axes only.
    nodes: a fleet's (--each-node), whose node is one more axis, the first (a cause: node=n2 and num_workers=4)."""
    axes = (["node"] if nodes else []) + list(matrix.axes)
    values = ([list(nodes)] if nodes else []) + [
        list(dict.fromkeys(spell(v) for v in matrix.axes[a])) for a in matrix.axes
    ]
    excludes = []
    for entry in matrix.exclude:
        if all(k in matrix.axes for k in entry):
            excludes.append(tuple(sorted((axes.index(k), spell(v)) for k, v in entry.items())))
    return Space(axes, values, min(order, len(axes)), excludes)


def cell_of(matrix: Matrix, space: Space, values: Values) -> Cell:
    """The real cell for hunt's spelled values: the axes' own values, then what include entries add."""
    combo = {}
    for axis, text in zip(space.axes, values):
        if axis == "node":  # where the cell runs (CellRun.node), not one of its values
            continue
        combo[axis] = next(v for v in matrix.axes[axis] if spell(v) == text)
    for entry in matrix.include:
        own = {k: v for k, v in entry.items() if k in matrix.axes}
        if matches(combo, own):
            combo.update({k: v for k, v in entry.items() if k not in matrix.axes})
    return Cell.of(combo)


class _CellRunner:
    """hunt's run_batch: the cells run for real, recorded, shown; their Runs in the order they ended."""

    def __init__(self, matrix: Matrix, space: Space, store: RunDir, options: HuntOptions, rows: list[dict], stream):
        self.matrix, self.space, self.store, self.options, self.stream = matrix, space, store, options, stream
        self.next_repeat: Counter[str] = Counter()
        for row in rows:
            key = cell_and_node(row)
            self.next_repeat[key] = max(self.next_repeat[key], int(row["repeat"]) + 1)
        self.count = len(rows)

    def __call__(self, batch: list[Values]) -> list[Run]:
        todo = []
        for values in batch:
            cell = cell_of(self.matrix, self.space, values)
            node = values[self.space.axes.index("node")] if "node" in self.space.axes else ""
            key = cell_and_node({"cell_id": cell.cell_id, "node": node})
            todo.append(CellRun(cell, self.next_repeat[key], node))
            self.next_repeat[key] += 1
        results: list[RunResult] = []
        completed = self._run(todo, results.append)
        runs = [run_of_row(r.row(self.store.value_columns), self.space) for r in results]
        if results and all(is_run_error(r.outcome) for r in results):
            raise _CannotRun(results[0].error or results[0].log_dir)
        if not completed:
            raise _Interrupted([r for r in runs if r is not None])
        return [r for r in runs if r is not None]

    def _run(self, todo: list[CellRun], collect) -> bool:
        def keep(result: RunResult) -> None:
            self.store.record(result)
            collect(result)
            self.count += 1
            what = FailureKind(result.outcome, result.signal).label()  # no room for the signature here
            values = {**result.values, "node": result.node}
            label = " ".join(f"{a}={spell(values[a])}" for a in self.space.axes)
            print(f"[{self.count:>3}] {what:<20} {label}  ({result.duration_s:.1f}s)", file=self.stream, flush=True)

        if self.options.executor == "local":
            from crashmatrix.engine.loop import Engine

            engine = Engine(self.matrix, store=self.store, on_result=keep, jobs=self.options.jobs)
            return engine.run(todo).completed
        from crashmatrix.engine.executors import run_submitted

        cluster = "local" if self.options.executor == "submitit-local" else "slurm"
        return run_submitted(
            self.matrix, self.store, todo, cluster=cluster, on_result=keep, jobs_per_cell_job=self.options.jobs
        ).completed


def _seed_rows(from_run: str | None, space: Space) -> list[Run]:
    """--from RUN: the finished run's rows that fit this matrix's axes, as evidence."""
    if not from_run:
        return []
    rows, _cols, path = read_rows(from_run)
    runs = [r for r in (run_of_row(row, space) for row in rows) if r is not None]
    if not runs:
        raise BadInput(f"{path}: --from: no row has a value on every axis of this matrix ({', '.join(space.axes)})")
    return runs


def _open(matrix: Matrix, options: HuntOptions, out: str, resume: bool) -> tuple[RunDir, list[dict]]:
    store = RunDir(out)
    if resume:
        store.reopen(list(matrix.axes))
        rows, _cols, _path = read_rows(store.path)
        return store, rows
    store.create(matrix.to_yaml_dict(), list(matrix.axes))
    kept_options.keep(
        store.path, "hunt", kept_options.hunt_flags({**options.__dict__, "from_run": _absolute(options.from_run)})
    )
    return store, []


def _absolute(path: str | None) -> str | None:
    return os.path.abspath(path) if path else None


def read_options(run_dir: str) -> dict:
    """The options an interrupted hunt was started with, by flag (its run directory's options.json, or an
    older one's hunt-options.json)."""
    made_by, options = kept_options.read_any(run_dir)
    if made_by is not None and made_by != "hunt":
        kept_options.read(run_dir, "hunt")  # refused, naming the verb that made it
    if made_by != "hunt":
        raise BadInput(f"{run_dir}: not a hunt's run directory (no hunt's options in {kept_options.OPTIONS_FILE})")
    return options


class _Announcer:
    """Prints each cause the moment it is named: the answer comes before the proof that nothing else fails.

    `named` maps (kind, conditions) to this hunt's runs when it was named (hunt.json's `named_after`),
    kept in NAMED_FILE so that a resumed hunt neither says a cause again nor moves that moment.
    """

    def __init__(self, space: Space, evidence: Evidence, stream, store: RunDir, seeded: int):
        self.space, self.evidence, self.stream, self.store, self.seeded = space, evidence, stream, store, seeded
        self.named: dict = read_named(store.path, space)

    def __call__(self, state: State) -> None:
        new = False
        for cause in state.causes:
            key = (cause.kind, cause.conditions)
            if key not in self.named:
                self.named[key], new = len(self.evidence.runs) - self.seeded, True
                print(
                    f"found after {len(self.evidence.runs)} runs: {cause_sentence(self.space, cause, self.evidence.runs)}",
                    file=self.stream,
                    flush=True,
                )
        if new:
            self.store.write_json(NAMED_FILE, [_named_entry(self.space, k, n) for k, n in self.named.items()])


def _named_entry(space: Space, key: tuple, runs: int) -> dict:
    kind, conditions = key
    where = None if conditions is None else conditions_dict(space, conditions)
    return {**kind.as_json(), "conditions": where, "named_after": runs}


def read_named(run_dir: str, space: Space) -> dict:
    """What NAMED_FILE of an interrupted hunt holds: (kind, conditions) -> runs; {} where there is none."""
    try:
        with open(os.path.join(run_dir, NAMED_FILE), encoding="utf-8") as f:
            entries = json.load(f)
    except (OSError, ValueError):
        return {}
    named = {}
    for e in entries:
        where = e["conditions"]
        conditions = None if where is None else tuple(sorted((space.axes.index(a), v) for a, v in where.items()))
        named[(FailureKind(e["outcome"], e["signal"], e["signature"]), conditions)] = e["named_after"]
    return named


def run_hunt(matrix: Matrix, options: HuntOptions, *, out: str, resume: bool = False, stream=None) -> HuntOutcome:
    """Hunt into run directory `out` (a new one, or with resume the interrupted hunt's); prints as it goes."""
    from crashmatrix.machine import fingerprint
    from crashmatrix.matrix import interpreters

    stream = stream or sys.stdout
    options.check()
    check_executor(matrix.executor, options.executor, matrix.path)
    nodes = fleet.of_matrix(matrix, options.executor)
    space = space_of(matrix, options.order, nodes)
    seeded = _seed_rows(options.from_run, space)
    if not resume:  # before the run directory: a refused override writes nothing
        preflight.check(matrix, preflight.each_value(matrix))
    store, rows = _open(matrix, options, out, resume)
    evidence = Evidence(space).extend(seeded)
    evidence.extend(r for r in (run_of_row(row, space) for row in rows) if r is not None)
    pending = fingerprint.start(interpreters.of_cells([cell_of(matrix, space, tuple(v[0] for v in space.values))]))
    if not resume:
        store.write_json("env.json", pending.facts)
    _announce(space, options, store, len(rows), len(seeded), stream)
    runner = _CellRunner(matrix, space, store, options, rows, stream)
    announcer = _Announcer(space, evidence, stream, store, len(seeded))
    # SIGTERM (`timeout`, a scheduler) between batches ends the hunt as Ctrl-C does: answer so far written
    try:
        with catching((signal.SIGTERM,), _stop):
            state, stopped = _search(evidence, runner, options, len(rows), announcer)
    except RunDirUnwritable as e:  # a full disk: every row written so far is kept, and --resume goes on
        pending.stop()
        raise RunDirUnwritable(e.path, e.error, kept_options.resume_command("hunt", store.path)) from None
    if stopped == "interrupted":
        pending.stop()
        closing = f"hunt: interrupted after {runner.count} runs; go on with: {kept_options.resume_command('hunt', store.path)}"
    else:
        if not resume:
            facts = pending.finish()
            store.write_json("env.json", fleet.gather(store.path, nodes, facts) if nodes else facts)
        wanted = clean_runs_wanted(evidence, options.confidence)
        closing = stopped or closing_line(space, state, runner.count, options.confidence, wanted, len(seeded))
    answer = hunt_json(space, state, runner.count, announcer.named, evidence.runs)
    _finish(space, store, state, answer, closing, stream, evidence.runs)
    return HuntOutcome(store.path, state, answer, stopped == "interrupted")


def _stop(name: str) -> None:
    raise KeyboardInterrupt(name)


def _search(
    evidence: Evidence, runner: _CellRunner, options: HuntOptions, spent: int, announcer: _Announcer
) -> tuple[State, str]:
    """(where the hunt stands, why it stopped early: "" when it did not, "interrupted", or what went wrong)."""
    from crashmatrix.hunt.search import assess

    try:
        state = hunt(
            evidence,
            runner,
            confidence=options.confidence,
            jobs=options.jobs,
            max_runs=options.max_runs,
            seed=options.seed,
            spent=spent,
            on_state=announcer,
        )
        return state, ""
    except _Interrupted as e:
        evidence.extend(e.args[0])  # what ended before the stop is evidence too
        stopped = "interrupted"
    except KeyboardInterrupt:
        stopped = "interrupted"
    except _CannotRun as e:
        stopped = f"hunt: stopped: crashmatrix could not run the cells ({e.args[0]})"
    return assess(evidence, options.confidence), stopped


def _announce(space: Space, options: HuntOptions, store: RunDir, done: int, seeded: int, stream) -> None:
    print(
        f"crashmatrix hunt: {len(space.axes)} axes, {len(space.candidates())} conjunctions of up to "
        f"{space.order} values; confidence {options.confidence}; at most {options.max_runs} runs"
        + (f", {done} already done" if done else "")
        + (f"; {seeded} rows from {options.from_run}" if seeded else "")
        + f"; into {shown_path(store.path)}",
        file=stream,
        flush=True,
    )


def _finish(space: Space, store: RunDir, state: State, answer: dict, closing: str, stream, runs: list[Run]) -> None:
    """hunt.json (`answer`), summary.md, and the answer on `stream`."""
    store.write_json("hunt.json", answer)
    lines = [cause_sentence(space, c, runs) for c in best_so_far(state)] or ["no failure seen"]
    summary = "# crashmatrix hunt\n\n" + "\n".join(f"- {line}" for line in lines) + f"\n\n{closing}\n"
    store.write_text("summary.md", summary)
    print("", file=stream)
    for line in lines:
        print(line, file=stream)
    print(closing, file=stream)
    print(f"hunt.json: {shown_path(os.path.join(store.path, 'hunt.json'))}", file=stream, flush=True)


def default_out(name: str) -> str:
    return os.path.join("results", f"hunt-{name}-{time.strftime('%Y%m%d-%H%M%S')}")
