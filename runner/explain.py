"""From existing results, the smallest conjunctions of axis values that separate
failing cells from passing ones (``crashmatrix explain``).

Pure: rows are dicts as read from results.csv (axis columns, ``outcome``,
``signal``; other columns ignored), one per cell run.

How it decides:

- A *cell* is one combination of axis values; its repeats are pooled.
- A *failure kind* is outcome word + signal, for any outcome other than pass and
  skip. A cell belongs to every kind it showed in any repeat.
- A *passing cell* (one that vetoes a pattern) passed in every repeat (skipped
  repeats aside). A flaky cell, one that failed in one repeat and passed in
  another, counts as failing for its kinds and never vetoes: one failure proves
  the settings can fail, while a pass proves nothing about a flaky crash.
- For each kind, a pattern is a conjunction of axis values, size 1, then 2, then 3
  (``max_conditions``), that holds for at least one failing cell of that kind and
  for no passing cell. Only the smallest are kept (a pattern whose conditions
  contain another valid pattern's conditions says nothing new), then a greedy set
  cover picks patterns until every failing cell that can be explained is, so two
  independent causes come out as two patterns and one interaction as one pattern
  with two conditions. Ties go to fewer conditions, then to the matrix's axis
  order.
- ``failing``: failing cells of that kind the pattern matches; ``matching``: all
  cells it matches (passing ones excepted by construction, so the difference is
  cells that were skipped or failed some other way).
- Output order: most failing cells first, then fewer conditions.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Dict, Iterable, List, Mapping, Optional, Sequence, Set, Tuple

from runner.outcome import NOT_FAILURES

__all__ = [
    "Pattern",
    "explain",
    "unexplained",
    "axes_that_matter",
    "render_lines",
    "advice_line",
    "MAX_CONDITIONS",
]

MAX_CONDITIONS = 3

Kind = Tuple[str, str]  # (outcome, signal)
CellKey = Tuple[str, ...]  # axis values in axes order


@dataclass(frozen=True)
class Pattern:
    conditions: Tuple[Tuple[str, str], ...]  # (axis, value), in the matrix's axis order
    outcome: str
    signal: str
    failing: int  # failing cells of this kind matched
    matching: int  # all cells matched
    flaky: int = 0  # of the failing ones, cells that also passed in some repeat

    @property
    def kind(self) -> str:
        return f"{self.outcome} {self.signal}".strip()

    def to_json(self) -> dict:
        return {
            "conditions": dict(self.conditions),
            "outcome": self.outcome,
            "signal": self.signal,
            "failing": self.failing,
            "matching": self.matching,
        }

    def describe(self) -> str:
        conds = " and ".join(f"{a}={v}" for a, v in self.conditions)
        cells = f"{self.failing} failing of {self.matching} matching cell" + (
            "" if self.matching == 1 else "s"
        )
        if self.flaky:
            cells += f", {self.flaky} of them flaky"
        return f"{self.kind} when {conds} ({cells})"


@dataclass
class _Cell:
    key: CellKey
    kinds: Set[Kind]
    passed: bool


def _cells(rows: Iterable[Mapping[str, object]], axes: Sequence[str]) -> Dict[CellKey, _Cell]:
    cells: Dict[CellKey, _Cell] = {}
    for row in rows:
        missing = [a for a in axes if a not in row]
        if missing or "outcome" not in row:
            raise ValueError(
                f"results row lacks column(s) {', '.join(missing or ['outcome'])}: {dict(row)}"
            )
        key = tuple(_text(row[a]) for a in axes)
        cell = cells.setdefault(key, _Cell(key, set(), False))
        outcome = _text(row["outcome"])
        if outcome == "pass":
            cell.passed = True
        elif outcome not in NOT_FAILURES:
            cell.kinds.add((outcome, _text(row.get("signal", ""))))
    return cells


def _text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value != value:  # pandas' NaN for an empty CSV field
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _matches(key: CellKey, conditions: "Conjunction") -> bool:
    return all(key[i] == v for i, v in conditions)


def explain(
    rows: Iterable[Mapping[str, object]],
    axes: Sequence[str],
    max_conditions: int = MAX_CONDITIONS,
) -> List[Pattern]:
    """Patterns of axis values that hold for failing cells and no passing cell,
    most telling first (see the module's docstring)."""
    axes = list(axes)
    cells = _cells(rows, axes)
    kinds = sorted({k for c in cells.values() for k in c.kinds})
    found: List[Tuple[Tuple[int, ...], Pattern]] = []
    for kind in kinds:
        failing = [c for c in cells.values() if kind in c.kinds]
        # Every cell that never showed this kind vetoes: one that passed, and one that failed some
        # other way (a SIGABRT cell says nothing for a SIGSEGV pattern). Only-skipped cells say nothing.
        vetoes = [c.key for c in cells.values() if kind not in c.kinds and (c.passed or c.kinds)]
        for cond, counts in _explain_kind(failing, vetoes, cells, len(axes), max_conditions):
            pattern = Pattern(
                conditions=tuple((axes[i], v) for i, v in cond),
                outcome=kind[0],
                signal=kind[1],
                failing=counts[0],
                matching=counts[1],
                flaky=counts[2],
            )
            found.append((tuple(i for i, _ in cond), pattern))
    found.sort(key=lambda t: (-t[1].failing, len(t[0]), t[0], t[1].outcome, t[1].signal))
    return [p for _, p in found]


Conjunction = Tuple[Tuple[int, str], ...]  # (axis index, value)


def _explain_kind(
    failing: List[_Cell],
    passing: List[CellKey],
    cells: Mapping[CellKey, _Cell],
    n_axes: int,
    max_conditions: int,
) -> List[Tuple[Conjunction, Tuple[int, int, int]]]:
    # every valid conjunction, smallest first; a larger one containing a valid
    # smaller one is dropped (it can only match fewer failing cells)
    valid: List[Conjunction] = []
    for size in range(1, min(max_conditions, n_axes) + 1):
        for idx in itertools.combinations(range(n_axes), size):
            seen = set()
            for cell in failing:
                cond = tuple((i, cell.key[i]) for i in idx)
                if cond in seen:
                    continue
                seen.add(cond)
                if any(set(v).issubset(cond) for v in valid):
                    continue
                if any(_matches(p, cond) for p in passing):
                    continue
                valid.append(cond)
    covers = {
        cond: frozenset(c.key for c in failing if _matches(c.key, cond)) for cond in valid
    }
    # greedy set cover; ties go to fewer conditions, then to earlier axes and the
    # order values first appeared
    order = {cond: i for i, cond in enumerate(valid)}
    uncovered = set(c.key for c in failing)
    chosen = []
    while uncovered:
        best = max(
            valid,
            key=lambda cond: (len(covers[cond] & uncovered), -len(cond), -order[cond]),
            default=None,
        )
        if best is None or not covers[best] & uncovered:
            break
        chosen.append(best)
        uncovered -= covers[best]
    out = []
    for cond in chosen:
        matching = sum(1 for key in cells if _matches(key, cond))
        flaky = sum(1 for key in covers[cond] if cells[key].passed)
        out.append((cond, (len(covers[cond]), matching, flaky)))
    return out


def unexplained(
    rows: Iterable[Mapping[str, object]], axes: Sequence[str], patterns: Sequence[Pattern]
) -> Dict[str, int]:
    """Failing cells per kind that no pattern matches (they need more conditions
    than the limit, or a passing cell differs from them in too many axes)."""
    axes = list(axes)
    cells = _cells(rows, axes)
    out: Dict[str, int] = {}
    for cell in cells.values():
        for outcome, signal in sorted(cell.kinds):
            hit = any(
                p.outcome == outcome
                and p.signal == signal
                and all(cell.key[axes.index(a)] == v for a, v in p.conditions)
                for p in patterns
            )
            if not hit:
                kind = f"{outcome} {signal}".strip()
                out[kind] = out.get(kind, 0) + 1
    return out


def axes_that_matter(patterns: Sequence[Pattern], axes: Sequence[str]) -> List[str]:
    """The axes named by any pattern, in the matrix's order."""
    named = {a for p in patterns for a, _ in p.conditions}
    return [a for a in axes if a in named]


def advice_line(
    patterns: Sequence[Pattern], axes: Sequence[str], rows: Optional[Iterable[Mapping[str, object]]] = None,
    full_run: bool = False,
) -> Optional[str]:
    """After a pairwise run: which axes deserve the full product next.

    The other axes are held at the values of a failing cell of the first
    pattern, never dropped: an axis the pattern does not name may still be
    needed for the failure (pairwise saw too few cells to tell).
    """
    matter = axes_that_matter(patterns, axes)
    if not matter:
        return None
    rest = [a for a in axes if a not in matter]
    line = f"axes that matter: {', '.join(matter)}"
    if full_run:  # every combination was run already: what is left is the minimal change
        return line + "; for the minimal change: crashmatrix bisect RUN"
    if not rest:
        return line
    held = None
    if rows is not None and patterns:
        top = patterns[0]
        for row in rows:
            if str(row.get("outcome")) == top.outcome and str(row.get("signal", "")) == top.signal and all(
                str(row.get(a, "")) == v for a, v in top.conditions
            ):
                held = row
                break
    fixed = ""
    if held is not None:
        fixed = " ".join(f"axes.{a}=[{held.get(a, '')}]" for a in rest if str(held.get(a, "")) != "")
    if fixed:
        line += (f"; every combination of them, the other axes held at a failing cell's values: "
                 f"strategy=full {fixed}; or the minimal change: crashmatrix bisect RUN")
    else:
        line += "; for the minimal change: crashmatrix bisect RUN"
    return line


def render_lines(
    patterns: Sequence[Pattern],
    axes: Optional[Sequence[str]] = None,
    rows: Optional[Iterable[Mapping[str, object]]] = None,
    max_conditions: int = MAX_CONDITIONS,
    full_run: bool = False,
) -> List[str]:
    """Human lines: one per pattern, then what is left unexplained and, given the
    axes, which axes matter."""
    rows = list(rows) if rows is not None else None
    lines = [p.describe() for p in patterns]
    if rows is not None and axes is not None:
        left = unexplained(rows, axes, patterns)
        any_failure = bool(left) or bool(patterns)
        if not any_failure:
            return ["no failing cells"]
        for kind, n in left.items():
            lines.append(
                f"{kind}: {n} failing cell{'s' if n != 1 else ''} not separated from the "
                f"passing ones by up to {max_conditions} axis values"
            )
    elif not patterns:
        lines.append("no pattern: no failing cells, or none separable from the passing ones")
    if axes is not None:
        advice = advice_line(patterns, axes, rows, full_run=full_run)
        if advice:
            lines.append(advice)
    return lines
