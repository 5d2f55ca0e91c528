"""What `hunt` knows: the cells it may run, the conjunctions it suspects, and the runs it has seen.

Pure data and counting, no processes. Values are handled as the CSV spells them
(crashmatrix.cell.spell), so evidence read back from a results.csv (--resume, --from)
and evidence gathered live are the same thing.

- A cell is a tuple of spelled values, one per axis, in the matrix's axis order.
- A condition (`Cond`) is a conjunction of axis values: a sorted tuple of
  (axis index, spelled value). The empty tuple holds in every cell: the program itself.
- A kind of failure is a crashmatrix.outcome.FailureKind (outcome + signal + signature).
- A run either passed, failed with a kind, or says nothing (skip, error).
"""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from crashmatrix.outcome import FailureKind

Cell = tuple[str, ...]
Cond = tuple[tuple[int, str], ...]
Kind = FailureKind

__all__ = ["Cell", "Cond", "Kind", "Space", "Run", "Evidence", "contains", "run_of_row"]


def contains(cell: Cell, cond: Cond) -> bool:
    return all(cell[i] == v for i, v in cond)


def sub_conditions(cell: Cell, most: int, least: int = 1) -> Iterable[Cond]:
    """Every conjunction of `least`..`most` of the cell's values."""
    for size in range(least, min(most, len(cell)) + 1):
        for idx in itertools.combinations(range(len(cell)), size):
            yield tuple((i, cell[i]) for i in idx)


@dataclass
class Space:
    """The cells hunt may run: the product of the axes' values less the excluded ones.

    `excludes` are partial cells (GitHub Actions' exclude): a cell holding every pair of one is not run.
    """

    axes: list[str]
    values: list[list[str]]
    order: int = 3
    excludes: list[Cond] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._testable: dict[tuple, bool] = {}
        self._candidates: list[Cond] | None = None
        self._plan: list[Cell] | None = None

    def covering_plan(self, seed: int = 0) -> list[Cell]:
        """A small covering array of strength `order` (crashmatrix.matrix.pairwise): the covering cells hunt prefers.

        A search of its own beats a cell-by-cell greedy by about a fifth (41 against 51 cells for
        3 values on 7 axes); hunt still picks its cells one by one, most needed first.
        """
        if self._plan is None:
            from crashmatrix.matrix.pairwise import covering_array

            excludes = [{self.axes[i]: v for i, v in e} for e in self.excludes]
            rows = covering_array(dict(zip(self.axes, self.values)), strength=self.order, exclude=excludes, seed=seed)
            self._plan = [tuple(row[a] for a in self.axes) for row in rows]
        return self._plan

    def allowed(self, cell: Cell) -> bool:
        return not any(contains(cell, e) for e in self.excludes)

    def varying(self) -> list[int]:
        """The axes with more than one value. A one-value axis is a constant: every cell holds its value,
        so a conjunction with it is the same suspect as the one without it, and would only split that
        suspect's weight among copies of itself."""
        return [i for i, vals in enumerate(self.values) if len(vals) > 1]

    def conditions(self, cell: Cell, least: int = 1) -> list[Cond]:
        """Every conjunction of `least`..order of the cell's values on the axes that vary."""
        varying = self.varying()
        picked = tuple(cell[i] for i in varying)
        return [tuple((varying[j], v) for j, v in cond) for cond in sub_conditions(picked, self.order, least)]

    def candidates(self) -> list[Cond]:
        """Every conjunction of 1..order axis values that some allowed cell holds (computed once)."""
        if self._candidates is None:
            self._candidates = self._enumerate()
        return self._candidates

    def _enumerate(self) -> list[Cond]:
        out = []
        varying = self.varying()
        for size in range(1, min(self.order, len(varying)) + 1):
            for idx in itertools.combinations(varying, size):
                for vals in itertools.product(*(self.values[i] for i in idx)):
                    cond = tuple(zip(idx, vals))
                    if self.complete(cond) is not None:
                        out.append(cond)
        return out

    def complete(self, cond: Cond, avoid: Sequence[Cond] = ()) -> Cell | None:
        """An allowed cell holding `cond` and none of `avoid` (found causes), or None: a depth-first search."""
        fixed = dict(cond)
        forbidden = list(self.excludes) + [a for a in avoid if a]
        if any(all(fixed.get(i) == v for i, v in f) for f in forbidden):
            return None
        partial: list[str | None] = [fixed.get(i) for i in range(len(self.axes))]
        free = [i for i in range(len(self.axes)) if i not in fixed]
        return self._fill(partial, free, forbidden)

    def _fill(self, partial: list[str | None], free: list[int], forbidden: list[Cond]) -> Cell | None:
        if not free:
            return tuple(v for v in partial if v is not None)
        i, rest = free[0], free[1:]
        for v in self.values[i]:
            partial[i] = v
            # a forbidden conjunction all of whose axes are now set, and matched, rules this value out
            if not any(self._hits(partial, f) for f in forbidden):
                found = self._fill(partial, rest, forbidden)
                if found is not None:
                    return found
        partial[i] = None
        return None

    @staticmethod
    def _hits(partial: list[str | None], cond: Cond) -> bool:
        return all(partial[i] == v for i, v in cond)

    def testable(self, cond: Cond, avoid: tuple[Cond, ...]) -> bool:
        """Whether some allowed cell holds `cond` and none of `avoid` (cached: asked for every candidate)."""
        key = (cond, avoid)
        if key not in self._testable:
            self._testable[key] = self.complete(cond, avoid) is not None
        return self._testable[key]


@dataclass(frozen=True)
class Run:
    """One finished run: its cell and its kind of failure (None: it passed)."""

    cell: Cell
    kind: Kind | None
    rank: str = ""  # a distributed job's rank whose failure it was (results.csv's `rank`)


def run_of_row(row: dict, space: Space) -> Run | None:
    """A results.csv row as a Run; None for a row that tells nothing (skip, error, a value off the axes)."""
    cell = tuple(row.get(a, "") for a in space.axes)
    if any(v not in vals for v, vals in zip(cell, space.values)):
        return None
    kind = FailureKind.from_row(row)
    if kind.is_pass:
        return Run(cell, None)
    if kind.counts_as_failing:
        return Run(cell, kind, str(row.get("rank") or ""))
    return None


class Evidence:
    """Every run so far, counted per condition: clean runs, and failures of each kind.

    A run that failed one way says nothing about another kind (one failure can hide another), so it
    is counted only for its own kind: never as a pass.
    """

    def __init__(self, space: Space):
        self.space = space
        self.runs: list[Run] = []
        self.passes: Counter[Cond] = Counter()
        self.fails: dict[Kind, Counter[Cond]] = defaultdict(Counter)
        self.kinds: list[Kind] = []  # in the order first seen
        self.by_cell: dict[Cell, list[Kind | None]] = defaultdict(list)

    def add(self, run: Run) -> None:
        self.runs.append(run)
        self.by_cell[run.cell].append(run.kind)
        conds = self.space.conditions(run.cell, least=0)
        if run.kind is None:
            self.passes.update(conds)
            return
        if run.kind not in self.fails:
            self.kinds.append(run.kind)
        self.fails[run.kind].update(conds)

    def extend(self, runs: Iterable[Run]) -> Evidence:
        for run in runs:
            self.add(run)
        return self

    @property
    def any_failure(self) -> bool:
        return bool(self.kinds)
