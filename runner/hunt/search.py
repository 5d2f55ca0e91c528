"""Where a hunt stands, and which cells it runs next: a deterministic function of the evidence.

`assess` reads the evidence: for each kind of failure, in the order seen, each failure
not yet explained by a named cause is localized (crashmatrix.hunt.localize); a suspect with
posterior >= confidence is named, else that failure is the kind's open question. Then
coverage: every conjunction of up to `order` values that no named cause implies must have
run clean (`need`).

`next_cells` answers open questions first (the most informative test of the failing cell:
itself, a change of one or two of its values, or a cell holding a leading suspect and
little else of it), and fills the rest of a batch with covering cells: rows of a covering
array of strength `order`, most needed first, then greedy cells, never a cell holding a
named cause (it would fail and hide the rest). Before any failure, "most needed" is the
chance of failing: the cell most likely to show a cause that has not shown yet. The same evidence and seed give the same cells, so a
resumed hunt picks what the interrupted one would have.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import random
from collections import Counter
from dataclasses import dataclass, field

from crashmatrix.hunt.localize import Localization, Suspect, still_suspect
from crashmatrix.hunt.model import Cell, Cond, Evidence, Kind, contains, sub_conditions

# Before any failure, how often a conjunction must run clean: enough that a cause failing at
# least this often would have shown at the asked confidence (a user hunts a crash they have seen,
# and one that did not show in a first covering pass is likely flaky).
ASSUMED_RATE = 0.5
# A question the matrix cannot settle (no allowed test tells its suspects apart) is named as it stands.
USELESS_BITS = 1e-6
_TRIES = 12  # greedy cells built per pick, beside the covering plan's rows


def clean_runs_needed(rate: float, confidence: float) -> int:
    """Smallest n with (1 - rate) ** n <= 1 - confidence."""
    if rate >= 1.0:
        return 1
    return max(1, math.ceil(math.log(1 - confidence) / math.log(1 - rate) - 1e-9))


@dataclass(frozen=True)
class Cause:
    """A named answer for one kind: conditions (() the program itself, None background noise)."""

    kind: Kind
    conditions: Cond | None
    confidence: float
    rate: float
    failing: int
    runs: int
    alternatives: tuple[Cond, ...] = ()  # suspects the matrix cannot tell from this one


@dataclass
class State:
    causes: list[Cause]
    open: list[Localization]
    need: dict[Cond, int] = field(default_factory=dict)
    confidence: float = 0.0  # the confidence a cause must reach

    @property
    def unsure(self) -> list[Cause]:
        """Causes named as they stand, below the confidence asked: nothing left could tell them apart."""
        return [c for c in self.causes if c.confidence < self.confidence]

    @property
    def complete(self) -> bool:
        """Nothing left to ask and every cause at the confidence asked: DESIGN's `complete`."""
        return not self.open and not self.need and not self.unsure

    @property
    def avoid(self) -> tuple[Cond, ...]:
        return _avoided(self.causes)


def named_cause(loc: Localization, best: Suspect, alternatives: tuple[Cond, ...] = ()) -> Cause:
    ev, kind = loc.evidence, loc.kind
    if best.cond is None:  # noise: the focus cell's own runs
        runs = ev.by_cell[loc.focus]
        failing = sum(1 for k in runs if k == kind)
        return Cause(kind, None, best.posterior, failing / max(1, len(runs)), failing, len(runs))
    failing, clean = ev.fails[kind][best.cond], ev.passes[best.cond]
    return Cause(
        kind, best.cond, best.posterior, failing / max(1, failing + clean), failing, failing + clean, alternatives
    )


def _settle(loc: Localization, confidence: float, allowed_test) -> Cause | None:
    """The named cause of this failure, or None while a test could still change the answer.

    Suspects that no allowed cell tells apart share their confidence: named together, as alternatives.
    Where no test tells anything any more, the best suspect is named as it stands, beside its rivals.
    """
    best = loc.best()
    if best.posterior >= confidence:
        return named_cause(loc, best)
    twins = loc.twins(best)
    together = best.posterior + sum(t.posterior for t in twins)
    alternatives = tuple(t.cond for t in twins if t.cond is not None)
    if together >= confidence:
        return dataclasses.replace(named_cause(loc, best, alternatives), confidence=together)
    if any(bits > USELESS_BITS for bits, _changed, _cell in loc.tests(allowed_test)):
        return None
    rivals = tuple(s.cond for s in loc.rivals(1 - confidence) if s.cond is not None)
    return named_cause(loc, best, tuple(dict.fromkeys(alternatives + rivals)))


def assess(evidence: Evidence, confidence: float) -> State:
    """Named causes, open questions and coverage need, from the evidence alone."""
    causes: list[Cause] = []
    open_: list[Localization] = []
    for kind in evidence.kinds:
        noise_cells: set[Cell] = set()
        for run in evidence.runs:
            if run.kind != kind or run.cell in noise_cells:
                continue
            if any(c.kind == kind and c.conditions is not None and contains(run.cell, c.conditions) for c in causes):
                continue
            explained = tuple(c.conditions for c in causes if c.kind == kind and c.conditions is not None)
            loc = Localization(evidence, kind, run.cell, explained)
            cause = _settle(loc, confidence, _admissible(evidence.space, _avoided(causes)))
            if cause is None:
                open_.append(loc)
                break
            causes.append(cause)
            if cause.conditions is None:
                noise_cells.add(run.cell)
    state = State(causes, open_, confidence=confidence)
    state.need = coverage_need(evidence, state.avoid, confidence)
    return state


def clean_runs_wanted(evidence: Evidence, confidence: float) -> int:
    """Once anything failed, one clean run clears a conjunction; before, enough to catch a flaky cause."""
    return 1 if evidence.any_failure else clean_runs_needed(ASSUMED_RATE, confidence)


def coverage_need(evidence: Evidence, avoid: tuple[Cond, ...], confidence: float) -> dict[Cond, int]:
    """Clean runs each conjunction still needs; none for one a named cause implies or no allowed cell can show."""
    space = evidence.space
    wanted = clean_runs_wanted(evidence, confidence)
    need = {}
    for cond in space.candidates():
        missing = wanted - evidence.passes[cond]
        if missing <= 0 or any(set(a) <= set(cond) for a in avoid):
            continue
        if space.testable(cond, avoid):
            need[cond] = missing
    return need


def _avoided(causes: list[Cause]) -> tuple[Cond, ...]:
    return tuple(c.conditions for c in causes if c.conditions is not None)


def _admissible(space, avoid: tuple[Cond, ...]):
    """Cells hunt may run: allowed, and holding no named cause (it would fail and hide the rest)."""

    def admissible(cell: Cell) -> bool:
        return space.allowed(cell) and not any(contains(cell, a) for a in avoid)

    return admissible


def next_cells(evidence: Evidence, state: State, jobs: int, seed: int = 0) -> list[Cell]:
    """Up to `jobs` cells to run next: tests of open questions first, then covering cells."""
    space = evidence.space
    avoid = state.avoid
    batch: list[Cell] = []
    for loc in state.open:
        ranked = sorted(loc.tests(_admissible(space, avoid)), key=lambda t: (-t[0], t[1]))
        batch += [cell for bits, _changed, cell in ranked if bits > USELESS_BITS][: jobs - len(batch)]
        if len(batch) >= jobs:
            return batch
    need: dict[Cond, float] = dict(state.need)
    rng = random.Random(f"{seed}-{len(evidence.runs)}")
    while len(batch) < jobs and need:
        cell = _covering_cell(space, _worth(evidence, need, batch), avoid, rng, seed, _plan_first(evidence, need))
        if cell is None:
            break
        batch.append(cell)
        for cond in sub_conditions(cell, space.order):
            if cond in need:
                need[cond] -= 1
                if need[cond] <= 0:
                    del need[cond]
    return batch


def _worth(evidence: Evidence, need: dict[Cond, float], batch: list[Cell]) -> dict[Cond, float]:
    """What running each needed conjunction once more is worth.

    Once anything failed: the runs it still needs (a covering array's rows cover them fastest). Before:
    the chance it is a cause that has not shown yet (localize.still_suspect of its clean runs, the
    batch's picks counted as clean), so the next cell is the one most likely to fail: the least-tested
    conjunctions first, and a first failure sooner than a covering array's rows repeated.
    """
    if evidence.any_failure:
        return need
    picked: Counter[Cond] = Counter()
    for cell in batch:
        picked.update(sub_conditions(cell, evidence.space.order))
    return {c: still_suspect(evidence.passes[c] + picked[c]) for c in need}


def _plan_first(evidence: Evidence, need: dict[Cond, float]) -> bool:
    """Whether the covering plan's rows go before greedy cells: until every conjunction ran clean once.

    The plan covers every conjunction in the fewest cells, which is what a deterministic fault (found
    in the first pass) and the hunt's whole length want; after the first clean pass with nothing
    failing, the cause is flaky, and cells built for the least-tested conjunctions find it sooner
    than the plan's rows repeated.
    """
    return evidence.any_failure or any(evidence.passes[c] == 0 for c in need)


def _covering_cell(
    space, need: dict[Cond, float], avoid: tuple[Cond, ...], rng: random.Random, seed: int, plan_first: bool = True
) -> Cell | None:
    """The covering plan's row that most needed runs; once none helps, the best of a few greedy cells.

    Without `plan_first`, the plan's rows and the greedy cells compete from the start.
    """
    plan = [c for c in space.covering_plan(seed) if not any(contains(c, a) for a in avoid)]
    if not plan_first:
        plan += [g for g in (_greedy_cell(space, need, avoid, rng) for _ in range(_TRIES)) if g]
    best = _most_needed(space, need, plan)
    if best is None:
        best = _most_needed(
            space, need, [g for g in (_greedy_cell(space, need, avoid, rng) for _ in range(_TRIES)) if g]
        )
    if best is None:  # the greedy walk kept running into excluded cells: a plain search finds one
        top = max(need.values())
        best = space.complete(next(c for c, n in need.items() if n == top), avoid)
    return best


def _most_needed(space, need: dict[Cond, float], cells: list[Cell]) -> Cell | None:
    best, best_score = None, 0.0
    for cell in cells:
        score = sum(need.get(c, 0) for c in sub_conditions(cell, space.order))
        if score > best_score:
            best, best_score = cell, score
    return best


def _greedy_cell(space, need: dict[Cond, float], avoid: tuple[Cond, ...], rng: random.Random) -> Cell | None:
    top = max(need.values())
    start = rng.choice([c for c, n in need.items() if n == top])
    partial: list[str | None] = [None] * len(space.axes)
    for i, v in start:
        partial[i] = v
    forbidden = [f for f in list(space.excludes) + list(avoid) if f]
    free = [i for i in range(len(space.axes)) if partial[i] is None]
    rng.shuffle(free)
    for i in free:
        assigned = [j for j in range(len(space.axes)) if partial[j] is not None]
        scored = []
        for v in rng.sample(space.values[i], len(space.values[i])):
            partial[i] = v
            if any(all(partial[j] == w for j, w in f) for f in forbidden):
                continue
            scored.append((_gain(space, need, partial, assigned, i, v), v))
        if not scored:
            return None
        partial[i] = max(scored, key=lambda t: t[0])[1]
    return tuple(v for v in partial if v is not None)


def _gain(space, need: dict[Cond, float], partial, assigned: list[int], i: int, v: str) -> float:
    """Runs still needed by the conjunctions that setting axis i to v completes."""
    total = 0.0
    for size in range(0, space.order):
        for others in itertools.combinations(assigned, size):
            cond = tuple(sorted([(j, partial[j]) for j in others] + [(i, v)]))
            total += need.get(cond, 0)
    return total


def hunt(
    evidence: Evidence,
    run_batch,
    *,
    confidence: float,
    jobs: int,
    max_runs: int,
    seed: int = 0,
    spent: int = 0,
    on_state=None,
) -> State:
    """Choose, run, repeat until complete or `max_runs` cells were asked for (`spent` already were).

    run_batch(cells) returns the Runs that tell something (a run crashmatrix could not start tells
    nothing, yet counts against the budget). on_state(state) sees each assessment.
    """
    while True:
        state = assess(evidence, confidence)
        if on_state is not None:
            on_state(state)
        left = max_runs - spent
        if state.complete or left <= 0:
            return state
        cells = next_cells(evidence, state, min(jobs, left), seed)
        if not cells:
            return state
        spent += len(cells)
        evidence.extend(run_batch(cells))
