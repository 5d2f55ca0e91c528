"""From existing results, the smallest conjunctions of axis values that hold for
each kind of failure and for no passing cell (``crashmatrix explain``).

Pure: rows are a FinishedRun's (or dicts as read from results.csv): axis columns,
``outcome``, ``signal``, ``signature`` and ``error`` where present, other columns
ignored, one per cell run; a value counts by its spelling (crashmatrix.cell.spell).
``error`` rows (crashmatrix could not run the cell) are left out.
A kind is a crashmatrix.outcome.FailureKind. ``explain`` returns Patterns: for one
kind, conditions that hold for some of its failing cells and for no passing cell,
minimal, chosen by a greedy cover so two causes come out as two patterns; most
failing cells first, then fewer masked, then fewer conditions. The search stays
within ``work_budget`` steps. How it decides (flaky and masked cells, a program
failing everywhere, the pruning, the fallback): docs/explain.md.
"""

from __future__ import annotations

import heapq
import os
import shlex
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from crashmatrix.answers import set_apart
from crashmatrix.cell import spell
from crashmatrix.outcome import FailureKind, kind_labels, ranks_in_order, with_rank_note
from crashmatrix.text import shorten
from crashmatrix.verdict.remedies import remedy

__all__ = [
    "Pattern",
    "SearchStats",
    "explain",
    "axes_that_matter",
    "render_lines",
    "advice_line",
    "findings",
    "findings_lines",
    "WORK_BUDGET",
]

WORK_BUDGET = 100_000  # steps of search, all kinds together, before falling back (docs/explain.md)

CellKey = tuple[str, ...]  # axis values in axes order
Conjunction = tuple[tuple[int, str], ...]  # (axis index, value), axis indices increasing


@dataclass(frozen=True)
class Pattern:
    conditions: tuple[tuple[str, str], ...]  # (axis, value), in the matrix's axis order
    outcome: str
    signal: str
    failing: int  # failing cells of this kind matched
    matching: int  # all cells matched
    signature: str = ""
    masked: int = 0  # matched cells that failed only other ways
    flaky: int = 0  # of the failing ones, cells that also passed in some repeat
    masked_by: tuple[tuple[str, int], ...] = ()  # (kind label, cells), commonest first
    error: str = ""  # an error line of this kind, for the program-wide sentence
    # Other conjunctions of the same size that hold for exactly the same failing cells and no passing
    # cell: the data cannot tell them from `conditions`, so the user is told (pairwise runs often).
    alternatives: tuple[tuple[tuple[str, str], ...], ...] = ()
    ranks: tuple[str, ...] = ()  # a distributed job's ranks that failed this way in the matched cells
    # Runs (a cell's repeats) of this kind and all runs, for the program-wide sentence: one cell whose repeats
    # failed two ways shows each kind "in every cell", which alone would hide that each came in some runs only.
    runs: tuple[int, int] = (0, 0)

    @property
    def failure_kind(self) -> FailureKind:
        return FailureKind(self.outcome, self.signal, self.signature)

    def to_json(self) -> dict:
        data = {
            "conditions": dict(self.conditions),
            "outcome": self.outcome,
            "signal": self.signal,
            "signature": self.signature,
            "failing": self.failing,
            "matching": self.matching,
            "masked": self.masked,
        }
        if self.alternatives:  # beyond the contract's keys, only where the data leave a choice
            data["alternatives"] = [dict(alt) for alt in self.alternatives]
        if self.ranks:  # likewise, only for a distributed job's failures
            data["ranks"] = [int(r) if r.isdigit() else r for r in self.ranks]
        if fix := remedy(self.signature, self.signal):  # likewise, only where the failure's class says what fixes it
            data["fix"] = fix
        return data

    def _label(self, with_signature: bool = True, label: str | None = None) -> str:
        kind = self.failure_kind if with_signature else FailureKind(self.outcome, self.signal)
        return with_rank_note(label or kind.label(), self.ranks)

    def describe(self, label: str | None = None) -> str:
        """label: the kind's, where it must be set apart from another pattern's (render_lines)."""
        if not self.conditions:
            return self._describe_program()
        conds = " and ".join(f"{a}={v}" for a, v in self.conditions)
        text = f"{self._label(label=label)} when {conds} ({self.failing} of {self.matching} matching{self._unknown()})"
        if self.alternatives:
            others = "; ".join(" and ".join(f"{a}={v}" for a, v in alt) for alt in self.alternatives)
            text += f"; the data fit as well: {others}"
        return text

    def _describe_program(self) -> str:
        what = self._label(with_signature=False)  # the signature is the tail, whole
        if self.failing == self.matching:
            head = f"{what} in every cell ({self.failing} of {self.matching}{self._unknown()}{self._some_runs()})"
        else:
            head = f"{what} in {self.failing} of {self.matching} cells and no cell passed ({self._unknown()[2:]})"
        tail = shorten(self.error or self.signature, 120)
        return f"{head}: the program itself, not a configuration" + (f" — {tail}" if tail else "")

    def _some_runs(self) -> str:
        """'; in 1 of 3 runs' where the kind came in only some of the runs; empty where in all of them."""
        shown, runs = self.runs
        return f"; in {shown} of {runs} runs" if 0 < shown < runs else ""

    def _unknown(self) -> str:
        """'; 2 masked by fail ValueError; 1 skipped; 1 of them flaky' (empty when nothing to say)."""
        parts = []
        if self.masked:
            by = ", ".join(f"{n} {label}" if len(self.masked_by) > 1 else label for label, n in self.masked_by)
            parts.append(f"{self.masked} masked by {by}")
        skipped = self.matching - self.failing - self.masked
        if skipped:
            parts.append(f"{skipped} skipped")
        if self.flaky:
            parts.append(f"{self.flaky} of them flaky")
        return "".join(f"; {p}" for p in parts)


@dataclass
class SearchStats:
    """Work done, for tests and benchmarks that hold the search to a budget."""

    examined: int = 0  # conjunctions looked at, all kinds together
    fallbacks: int = 0  # kinds whose search ran out of budget


@dataclass
class _Cells:
    """Every cell of the run as bit positions: per (axis, value) and per kind, a bitmask of cells."""

    keys: list[CellKey] = field(default_factory=list)
    has: dict[tuple[int, str], int] = field(default_factory=dict)  # (axis, value) -> cells with it
    kinds: dict[FailureKind, int] = field(default_factory=dict)  # kind -> cells that showed it
    passed: int = 0  # cells that passed in some repeat
    failed: int = 0  # cells that showed any kind
    errors: dict[FailureKind, str] = field(default_factory=dict)  # kind -> its first error line
    runs: int = 0  # rows (a cell's repeats) that ran
    kind_runs: dict[FailureKind, int] = field(default_factory=dict)  # kind -> rows that showed it
    ranks: dict[tuple[FailureKind, int], set[str]] = field(default_factory=dict)  # (kind, cell) -> failing ranks

    @property
    def everything(self) -> int:
        return (1 << len(self.keys)) - 1


def _cells(rows: Iterable[Mapping[str, object]], axes: Sequence[str]) -> _Cells:
    cells = _Cells()
    index: dict[CellKey, int] = {}
    for row in rows:
        missing = [a for a in axes if a not in row]
        if missing or "outcome" not in row:
            raise ValueError(f"results row lacks column(s) {', '.join(missing or ['outcome'])}: {dict(row)}")
        kind = FailureKind.from_row(row)
        if kind.is_run_error:  # crashmatrix could not run it: nothing about the configuration
            continue
        key = tuple(spell(row[a]) for a in axes)
        if key not in index:
            index[key] = len(cells.keys)
            cells.keys.append(key)
            for i, v in enumerate(key):
                cells.has[(i, v)] = cells.has.get((i, v), 0) | 1 << index[key]
        bit = 1 << index[key]
        cells.runs += kind.is_pass or kind.is_failure
        if kind.is_pass:
            cells.passed |= bit
        elif kind.is_failure:
            cells.kinds[kind] = cells.kinds.get(kind, 0) | bit
            cells.failed |= bit
            cells.kind_runs[kind] = cells.kind_runs.get(kind, 0) + 1
            cells.errors.setdefault(kind, str(row.get("error") or ""))
            if str(row.get("rank") or ""):
                cells.ranks.setdefault((kind, index[key]), set()).add(str(row["rank"]))
    return cells


def _count(mask: int) -> int:
    return bin(mask).count("1")


def explain(
    rows: Iterable[Mapping[str, object]],
    axes: Sequence[str],
    work_budget: int = WORK_BUDGET,
    stats: SearchStats | None = None,
) -> list[Pattern]:
    """Patterns of axis values that hold for failing cells of one kind and no
    passing cell, most telling first (docs/explain.md says how)."""
    axes = list(axes)
    cells = _cells(rows, axes)
    stats = stats if stats is not None else SearchStats()
    program_kind = _program_kind(cells)
    found: list[Pattern] = []
    budget = max(1000, work_budget // max(1, len(cells.kinds)))  # a kind's share: one cannot starve the rest
    for kind in sorted(cells.kinds):
        failing = cells.kinds[kind]
        if cells.passed:
            against = cells.passed & ~failing
        elif kind == program_kind:  # no cell passed anywhere: the commonest kind is the program's
            against = 0
        else:  # ... and the rest (all of them, when none is commonest) are set apart from the cells without them
            against = cells.everything & ~failing
        for cond, alternatives in _cover(
            _minimal(cells, len(axes), failing, against, budget, stats), cells, kind, against
        ):
            found.append(_pattern(cells, axes, kind, cond, against, alternatives))
    found.sort(
        key=lambda p: (
            -p.failing,
            p.masked,
            len(p.conditions),
            [axes.index(a) for a, _ in p.conditions],
            p.outcome,
            p.signal,
            p.signature,
        )
    )
    return found


def _program_kind(cells: _Cells) -> FailureKind | None:
    """The commonest kind when no cell passed at all; None when one did, nothing failed, or two kinds are
    equally common (then neither is the program's: each is told by where the other is not)."""
    if cells.passed or not cells.kinds:
        return None
    counts = sorted((_count(mask) for mask in cells.kinds.values()), reverse=True)
    if len(counts) > 1 and counts[0] == counts[1]:
        return None
    return max(sorted(cells.kinds), key=lambda k: _count(cells.kinds[k]))


def _mask(cells: _Cells, cond: Conjunction) -> int:
    mask = cells.everything
    for item in cond:
        mask &= cells.has[item]
    return mask


def _minimal(
    cells: _Cells, n_axes: int, failing: int, against: int, budget: int, stats: SearchStats
) -> list[Conjunction]:
    """The minimal conjunctions that hold for a failing cell and no cell of `against`, smallest first,
    less those the cover could never choose (see _Shorter)."""
    if not against:
        return [()]
    values = [sorted({key[i] for key in cells.keys}) for i in range(n_axes)]
    level: dict[Conjunction, int] = {(): cells.everything}  # invalid ones of this size, with their cells
    found: list[Conjunction] = []
    shorter = _Shorter()
    spent = 0
    while level:
        bigger: dict[Conjunction, int] = {}
        for cond, mask in level.items():
            spent += 1 + shorter.cost(mask & failing)
            if shorter.covers(mask & failing):
                continue
            for i in range(cond[-1][0] + 1 if cond else 0, n_axes):
                for v in values[i]:
                    spent += 1
                    cells_now = mask & cells.has[(i, v)]
                    if not cells_now & failing:
                        continue
                    cand = cond + ((i, v),)
                    if len(cand) > 1 and not all(cand[:j] + cand[j + 1 :] in level for j in range(len(cand) - 1)):
                        continue  # a smaller conjunction inside it is valid already: not minimal
                    if cells_now & against:
                        bigger[cand] = cells_now
                    elif not shorter.covers(cells_now & failing):
                        found.append(cand)
                        shorter.add_later(cells_now & failing)
            if spent > budget:
                stats.examined += spent
                stats.fallbacks += 1
                return found + _shrunk_rest(cells, n_axes, failing, against, found)
        shorter.next_level()
        level = bigger
    stats.examined += spent
    return found


class _Shorter:
    """The failing cells of each valid conjunction found at an earlier level, indexed by cell.

    A branch whose reachable failing cells one of them covers is not extended, and a valid conjunction
    whose cells one of them covers is dropped: it would cover no more and be longer, so the greedy
    cover never picks it. Any cover holding a set of cells holds its lowest one: only those are read."""

    def __init__(self):
        self.by_cell: dict[int, list[int]] = {}
        self.pending: list[int] = []

    def _lowest(self, reach: int) -> list[int]:
        return self.by_cell.get((reach & -reach).bit_length() - 1, []) if reach else []

    def cost(self, reach: int) -> int:
        return len(self._lowest(reach))

    def covers(self, reach: int) -> bool:
        return any(not reach & ~cover for cover in self._lowest(reach))

    def add_later(self, cover: int) -> None:
        self.pending.append(cover)

    def next_level(self) -> None:
        for cover in self.pending:
            bits = cover
            while bits:
                low = bits & -bits
                self.by_cell.setdefault(low.bit_length() - 1, []).append(cover)
                bits ^= low
        self.pending = []


def _shrunk_rest(cells: _Cells, n_axes: int, failing: int, against: int, found: list[Conjunction]) -> list[Conjunction]:
    """For failing cells no conjunction found so far covers: the cell's own values, one condition
    dropped at a time while no cell of `against` matches (validity only grows with conditions, so what
    is left is minimal)."""
    uncovered = failing
    for cond in found:
        uncovered &= ~_mask(cells, cond)
    out: list[Conjunction] = []
    for index, key in enumerate(cells.keys):
        if not uncovered >> index & 1:
            continue
        cond = tuple(enumerate(key))
        for item in tuple(cond):
            smaller = tuple(c for c in cond if c != item)
            if not _mask(cells, smaller) & against:
                cond = smaller
        out.append(cond)
        uncovered &= ~_mask(cells, cond)
    return out


def _cover(
    candidates: list[Conjunction], cells: _Cells, kind: FailureKind, against: int
) -> list[tuple[Conjunction, list[Conjunction]]]:
    """Greedy set cover of the kind's failing cells: most uncovered failing cells first, then fewer
    conditions, fewer masked cells, earlier axes and values. Lazy: a candidate's gain only shrinks, so
    one popped with its gain still current is the best. Each choice comes with the candidates of its
    size that hold for exactly its failing cells: the data fit them as well."""
    failing = cells.kinds[kind]
    masked = cells.failed & ~failing & ~cells.passed & ~against
    heap: list[tuple] = []
    for n, cond in enumerate(candidates):
        mask = _mask(cells, cond)
        heapq.heappush(heap, (-_count(mask & failing), len(cond), _count(mask & masked), n, mask))
    uncovered, chosen = failing, []
    while uncovered and heap:
        gain, size, n_masked, n, mask = heapq.heappop(heap)
        now = _count(mask & uncovered)
        if not now:
            continue
        if now != -gain:
            heapq.heappush(heap, (-now, size, n_masked, n, mask))
            continue
        same = [
            c
            for c in candidates
            if c != candidates[n] and len(c) == size and _mask(cells, c) & failing == mask & failing
        ]
        chosen.append((candidates[n], same))
        uncovered &= ~mask
    return chosen


def _pattern(
    cells: _Cells,
    axes: list[str],
    kind: FailureKind,
    cond: Conjunction,
    against: int,
    alternatives: Sequence[Conjunction] = (),
) -> Pattern:
    mask = _mask(cells, cond)
    failing = cells.kinds[kind]
    masked = mask & cells.failed & ~failing & ~cells.passed & ~against
    by = {}
    for other, other_mask in cells.kinds.items():
        if other != kind and other_mask & masked:
            by[other.label()] = _count(other_mask & masked)
    return Pattern(
        conditions=tuple((axes[i], v) for i, v in cond),
        outcome=kind.outcome,
        signal=kind.signal,
        signature=kind.signature,
        failing=_count(mask & failing),
        matching=_count(mask),
        masked=_count(masked),
        flaky=_count(mask & failing & cells.passed),
        masked_by=tuple(sorted(by.items(), key=lambda t: (-t[1], t[0]))),
        error=cells.errors.get(kind, ""),
        alternatives=tuple(tuple((axes[i], v) for i, v in alt) for alt in alternatives),
        ranks=_ranks(cells, kind, mask & failing),
        runs=(cells.kind_runs[kind], cells.runs) if not cond else (0, 0),
    )


def _ranks(cells: _Cells, kind: FailureKind, mask: int) -> tuple[str, ...]:
    """The ranks that failed this way in the cells of mask, in rank order."""
    return ranks_in_order(
        r for (k, cell), ranks in cells.ranks.items() if k == kind and mask >> cell & 1 for r in ranks
    )


def axes_that_matter(patterns: Sequence[Pattern], axes: Sequence[str]) -> list[str]:
    """The axes named by any pattern or by a conjunction the data fit as well, in the matrix's order."""
    named = {a for p in patterns for conds in (p.conditions,) + p.alternatives for a, _ in conds}
    return [a for a in axes if a in named]


def advice_line(
    patterns: Sequence[Pattern],
    axes: Sequence[str],
    rows: Iterable[Mapping[str, object]] | None = None,
    full_run: bool = False,
    run: str | None = None,
    keyed: Collection[str] = (),
) -> str | None:
    """After a pairwise run: which axes deserve the full product next.

    The other axes are held at the values of a failing cell of the first
    pattern, never dropped: an axis the pattern does not name may still be
    needed for the failure (pairwise saw too few cells to tell). Each command
    is in backticks and pastes as printed: ``run`` is the run directory (its
    matrix.yaml is the matrix), ``keyed`` the axes written as
    ``{values, keys}``, whose values an override sets through ``.values``.
    """
    matter = axes_that_matter(patterns, axes)
    if not matter:
        return None
    where = run if run is not None else "RUN"
    bisect = f"`crashmatrix bisect {shlex.quote(where)}`"
    rest = [a for a in axes if a not in matter]
    line = f"axes that matter: {', '.join(matter)}"
    if full_run:  # every combination was run already: what is left is the minimal change
        return line + f"; for the minimal change: {bisect}"
    held = _failing_row(patterns, rows) if rows is not None else None
    fixed = []
    if held is not None:
        for a in rest:
            value = spell(held.get(a, ""))
            if value != "":
                key = f"axes.{a}.values" if a in keyed else f"axes.{a}"
                fixed.append(shlex.quote(f"{key}=[{value}]"))
    if rest and not fixed:
        return line + f"; for the minimal change: {bisect}"
    full = f"crashmatrix run {shlex.quote(os.path.join(where, 'matrix.yaml'))} strategy=full"
    held_text = ", the other axes held at a failing cell's values" if fixed else ""
    return (
        f"{line}; every combination of them{held_text}: `{' '.join([full, *fixed])}`; or the minimal change: {bisect}"
    )


def _failing_row(patterns: Sequence[Pattern], rows: Iterable[Mapping[str, object]]) -> Mapping | None:
    """A row of the first pattern with conditions: its kind, matching them."""
    top = next((p for p in patterns if p.conditions), None)
    if top is None:
        return None
    for row in rows:
        if FailureKind.from_row(row) == top.failure_kind and all(spell(row.get(a, "")) == v for a, v in top.conditions):
            return row
    return None


def render_lines(
    patterns: Sequence[Pattern],
    axes: Sequence[str] | None = None,
    rows: Iterable[Mapping[str, object]] | None = None,
    full_run: bool = False,
    run: str | None = None,
    keyed: Collection[str] = (),
    fingerprints: Mapping[str, Mapping] | None = None,
) -> list[str]:
    """Human lines: one per pattern and, given the axes, which axes matter (see advice_line). fingerprints:
    a fleet's env.json per node; after a pattern that names a node, what sets that node apart."""
    rows = list(rows) if rows is not None else None
    if not patterns:
        return ["no failing cells"]
    lines = []
    nodes = list(dict.fromkeys(str(r["node"]) for r in rows or () if r.get("node")))
    labels = _labels_set_apart(patterns)
    for p in patterns:
        lines.append(p.describe(labels.get(p.failure_kind)))
        fix = remedy(p.signature, p.signal)
        if fix:
            lines.append(f"  what fixes it: {fix}")
        apart = set_apart.node_sentence(p.conditions, fingerprints, nodes) if fingerprints else ""
        if apart:
            lines.append(apart)
    if axes is not None:
        # A fleet's node is no setting of the program: a failure that needs one is the machine's, which no
        # run or bisect of the settings here reproduces (they run on this machine).
        of_settings = [p for p in patterns if "node" not in dict(p.conditions)]
        advice = advice_line(of_settings, axes, rows, full_run=full_run, run=run, keyed=keyed)
        if advice:
            lines.append(advice)
    return lines


def _labels_set_apart(patterns: Sequence[Pattern]) -> dict[FailureKind, str]:
    """Labels for the kinds whose own labels cut alike (two signatures alike for their first 60 characters): each
    its start and the part that tells it apart (crashmatrix.outcome.kind_labels)."""
    own = {p.failure_kind: p.failure_kind.label() for p in patterns}
    alike = Counter(own.values())
    clashing = [kind for kind, label in own.items() if alike[label] > 1]
    return kind_labels(clashing, width=90) if clashing else {}


def findings(
    rows: Iterable[Mapping[str, object]], axes: Sequence[str], run: str | None = None, run_dir: str | None = None
) -> list:
    """Findings beyond failure, from the same table: slow cells (crashmatrix.answers.slow). Each has
    `conditions`, `text()` and `to_json()`. run: the run directory as the user gave it, for advice; run_dir:
    where its cells' files are, for why they are slow."""
    from crashmatrix.answers import slow

    rows = list(rows)
    return [*slow.find_slow(rows, axes, explain, run=run, run_dir=run_dir)]


def findings_lines(found: Sequence) -> list[str]:
    """The section "Findings beyond failure" after the failure explanations; none when nothing was found."""
    return ["Findings beyond failure:", *(f.text() for f in found)] if found else []
