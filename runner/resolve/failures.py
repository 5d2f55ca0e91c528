"""The failing conjunctions of a finished run, each with its rate, its confidence and what masked it.

A hunt's run directory answers with its hunt.json (crashmatrix.hunt.text writes it); any other run with
explain's patterns (crashmatrix.answers.explain), each weighed by hunt's model (crashmatrix.hunt.localize) so that a cause
seen once is not told as firmly as one seen in every repeat: its confidence is the posterior of exactly its
conjunction, from the run's own rows. Rates and masking are counted from the rows alike for both: the runs
where the conjunction holds that failed this way, that passed, and that failed another way first (masked:
they say nothing about this failure).
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from crashmatrix.answers import explain
from crashmatrix.cell import spell
from crashmatrix.outcome import FailureKind, ranks_in_order, with_rank_note
from crashmatrix.rundir import kept_options
from crashmatrix.rundir.finished_run import FinishedRun

CONFIDENCE = 0.95  # what a cause must reach to be named (hunt's default; a hunt's own option where it has one)
MODEL_ORDER = 5  # the longest conjunction the model weighs: its work grows with the axes to this power


@dataclass(frozen=True)
class Failure:
    """One failing conjunction: `conditions` {axis: spelled value}; {} every cell; None background noise."""

    kind: FailureKind
    conditions: dict | None
    entry: dict  # explain's or hunt's JSON entry, as resolution.json's `failures` lists it
    failing: int  # runs where the conditions hold that failed this way
    runs: int  # ... and those that passed: the runs that tell about it
    masked: int  # runs there that failed another way first
    masked_by: tuple[tuple[str, int], ...]  # (kind label, runs), commonest first
    confidence: float | None  # None: beyond what the model weighs
    alternatives: tuple[dict, ...] = ()
    ranks: tuple[str, ...] = ()  # a distributed job's ranks whose failure it was, in those runs

    def label(self) -> str:
        """The kind's label with the ranks it struck: `rank_crash SIGSEGV (rank 1)`."""
        return with_rank_note(self.kind.label(), self.ranks)

    @property
    def rate(self) -> float:
        return self.failing / self.runs if self.runs else 0.0

    @property
    def flaky(self) -> bool:
        return self.failing < self.runs

    def holds(self, values: Mapping[str, str]) -> bool:
        """Whether the conjunction (or one the data fit as well) holds for spelled axis values."""
        return _holds(values, self.conditions, self.alternatives)

    def conditions_text(self) -> str:
        """`when a=1 and b=2`; `in every configuration`; `nowhere in particular (background noise)`."""
        if self.conditions is None:
            return "nowhere in particular (background noise)"
        if not self.conditions:
            return "in every configuration (the program itself)"
        return "when " + " and ".join(f"{a}={v}" for a, v in self.conditions.items())


@dataclass(frozen=True)
class Findings:
    source: str  # "hunt" (hunt.json) or "explain"
    failures: tuple[Failure, ...]
    confidence: float  # the confidence a cause must reach
    hunt_complete: bool | None = None  # hunt.json's `complete`; None for explain
    hunt_runs: int = 0

    def unsure(self) -> list[Failure]:
        return [f for f in self.failures if f.conditions is not None and not self.is_sure(f)]

    def is_sure(self, failure: Failure) -> bool:
        return failure.confidence is not None and failure.confidence >= self.confidence


def findings(run: FinishedRun, rows: Sequence[dict]) -> Findings:
    """hunt.json's causes where the run is a hunt's, else explain's patterns weighed by hunt's model."""
    hunt_path = os.path.join(run.directory, "hunt.json")
    if os.path.exists(hunt_path):
        hunt = _read_json(hunt_path)
        if isinstance(hunt, dict) and isinstance(hunt.get("causes"), list):
            return _from_hunt(run, rows, hunt)
    return _from_explain(run, rows)


def _read_json(path: str):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def _from_hunt(run: FinishedRun, rows: Sequence[dict], hunt: dict) -> Findings:
    _verb, options = kept_options.read_any(run.directory)  # the hunt's, by flag
    out = []
    for entry in list(hunt["causes"]) + list(hunt.get("noise") or []):
        kind = FailureKind(entry.get("outcome", ""), entry.get("signal", ""), entry.get("signature", ""))
        conditions = entry.get("conditions") if "conditions" in entry else None
        alternatives = tuple(entry.get("alternatives") or ())
        counted: tuple[int, int, int, tuple[tuple[str, int], ...]]
        if conditions is None:  # noise: its own cell's runs, as hunt counted them
            counted = (int(entry.get("failing") or 0), int(entry.get("runs") or 0), 0, ())
        else:
            counted = count(rows, run.axes, kind, conditions, alternatives)
        ranks = failing_ranks(rows, run.axes, kind, conditions, alternatives)
        out.append(Failure(kind, conditions, entry, *counted, entry.get("confidence"), alternatives, ranks))
    return Findings(
        "hunt",
        tuple(out),
        float(options.get("--confidence") or CONFIDENCE),
        bool(hunt.get("complete")),
        int(hunt.get("runs") or 0),
    )


def _from_explain(run: FinishedRun, rows: Sequence[dict]) -> Findings:
    axes = list(run.axes)
    patterns = explain.explain(rows, axes)
    weigh = _Model(run, rows, patterns)
    out = []
    for p in patterns:
        conditions = dict(p.conditions)
        alternatives = tuple(dict(alt) for alt in p.alternatives)
        counted = count(rows, axes, p.failure_kind, conditions, alternatives)
        out.append(Failure(p.failure_kind, conditions, p.to_json(), *counted, weigh(p), alternatives, p.ranks))
    return Findings("explain", tuple(out), CONFIDENCE)


def count(
    rows: Sequence[Mapping], axes: Sequence[str], kind: FailureKind, conditions: dict | None, alternatives=()
) -> tuple[int, int, int, tuple[tuple[str, int], ...]]:
    """(failing, runs, masked, masked_by) over the runs where the conditions hold (noise: the kind's own cells)."""
    failing = passed = 0
    masked: Counter = Counter()
    for row in rows:
        if not _holds({a: spell(row.get(a, "")) for a in axes}, conditions, alternatives):
            continue
        seen = FailureKind.from_row(row)
        if seen == kind:
            failing += 1
        elif seen.is_pass:
            passed += 1
        elif seen.counts_as_failing:
            masked[seen.label()] += 1
    by = tuple(sorted(masked.items(), key=lambda t: (-t[1], t[0])))
    return failing, failing + passed, sum(masked.values()), by


def failing_ranks(
    rows: Sequence[Mapping], axes: Sequence[str], kind: FailureKind, conditions: dict | None, alternatives=()
) -> tuple[str, ...]:
    """The ranks (results.csv's `rank`) of the runs where the conditions hold that failed this way."""
    return ranks_in_order(
        row.get("rank")
        for row in rows
        if FailureKind.from_row(row) == kind
        and _holds({a: spell(row.get(a, "")) for a in axes}, conditions, alternatives)
    )


class _Model:
    """Hunt's model over the run's rows: the posterior that a pattern's conjunction is its failure's cause."""

    def __init__(self, run: FinishedRun, rows: Sequence[dict], patterns: Sequence[explain.Pattern]):
        from crashmatrix.hunt.model import Evidence, Space, run_of_row

        self.patterns = patterns
        self.axes = list(run.axes)
        listed = run.listed
        values = []
        for a in self.axes:
            seen = [spell(v) for v in listed.get(a, [])] + [spell(r.get(a, "")) for r in rows]
            values.append(list(dict.fromkeys(seen)))
        longest = max((len(p.conditions) for p in patterns), default=1)
        order = max(1, min(len(self.axes), MODEL_ORDER, max(3, longest)))
        self.space = Space(self.axes, values, order=order)
        self.rows = [{**r, **{a: spell(r.get(a, "")) for a in self.axes}} for r in rows]
        runs = (run_of_row(r, self.space) for r in self.rows)
        self.evidence = Evidence(self.space).extend(r for r in runs if r is not None)

    def __call__(self, pattern: explain.Pattern) -> float | None:
        from crashmatrix.hunt.localize import Localization

        cond = self._cond(pattern.conditions)
        if not cond or len(cond) > self.space.order:
            return None if cond else self._everywhere(pattern)
        focus = self._focus(pattern)
        if focus is None:
            return None
        others = tuple(
            self._cond(p.conditions)
            for p in self.patterns
            if p is not pattern and p.failure_kind == pattern.failure_kind
        )
        loc = Localization(self.evidence, pattern.failure_kind, focus, tuple(c for c in others if c))
        return next((s.posterior for s in loc.suspects if s.cond == cond), None)

    def _everywhere(self, pattern: explain.Pattern) -> float | None:
        focus = self._focus(pattern)
        if focus is None:
            return None
        from crashmatrix.hunt.localize import Localization

        loc = Localization(self.evidence, pattern.failure_kind, focus)
        return next((s.posterior for s in loc.suspects if s.cond == ()), None)

    def _cond(self, conditions) -> tuple:
        """A pattern's conditions as hunt's model weighs them: on the axes that vary (a one-value axis's
        value holds in every cell, so it adds nothing to a cause, and the model has no suspect with it)."""
        varying = set(self.space.varying())
        return tuple(sorted((i, v) for i, v in ((self.axes.index(a), v) for a, v in conditions) if i in varying))

    def _focus(self, pattern: explain.Pattern):
        """The cell of the first run of the pattern's kind where its conditions hold."""
        for r in self.rows:
            if FailureKind.from_row(r) == pattern.failure_kind and all(r.get(a) == v for a, v in pattern.conditions):
                return tuple(r[a] for a in self.axes)
        return None


def _holds(values: Mapping[str, str], conditions, alternatives) -> bool:
    """Whether a conjunction, or one the data fit as well, holds for spelled axis values (None: none does)."""
    if conditions is None:
        return False
    return any(all(values.get(a) == v for a, v in c.items()) for c in (conditions, *alternatives))
