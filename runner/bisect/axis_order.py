"""Whether a failure follows an ordered numeric axis, read from a finished table (pure).

An axis orders a failure when every value the matrix lists for it is a number (int or float, not a
bool) and, on every line of the table (the cells that hold every other axis at one set of values), the
values that showed the failure all lie on one side of the values whose every run passed: above them
(`fails` at high values: batch size, image size) or below them, the same side on every line. A line
where a passing value lies beyond a failing one says the axis is no boundary (a `Disorder`). Runs that
failed another way say nothing either way, as in explain: one failure can hide another.

`ordered_line` returns the line to narrow: the failing cell's own line where it has both a pass and
the failure, else the line with the most runs that has both. docs/bisect.md says how bisect uses it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from crashmatrix.cell import spell
from crashmatrix.outcome import FailureKind

__all__ = ["Line", "Disorder", "is_numeric_axis", "ordered_line"]


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def is_numeric_axis(values: Sequence[object]) -> bool:
    """Every value a number and at least two of them distinct: an axis a boundary can lie on."""
    return all(_is_number(v) for v in values) and len({float(v) for v in values}) >= 2  # type: ignore[arg-type]


@dataclass(frozen=True)
class Line:
    """The cells of one line: `axis` varies, every other axis is held at `held`.

    passes: the listed value nearest the failure whose every run passed; fails: the listed value
    nearest it that showed the failure. observations: what each listed value of the line did.
    """

    axis: str
    held: dict = field(hash=False)
    passes: int | float = 0
    fails: int | float = 0
    integer: bool = True  # every value the matrix lists is an int: the search runs over integers
    observations: dict = field(default_factory=dict, hash=False, compare=False)

    @property
    def upward(self) -> bool:
        """The failure shows at high values (and above the boundary)."""
        return self.fails > self.passes

    def values(self, value: object, order: Sequence[str]) -> dict:
        """The cell of this line at `value`, its axes in the matrix's order (a command line's order)."""
        return {a: (value if a == self.axis else self.held[a]) for a in order}

    def held_text(self) -> str:
        return " ".join(f"{a}={spell(v)}" for a, v in self.held.items())


@dataclass(frozen=True)
class Disorder:
    """A numeric axis that does not order the failure, and the line that shows it."""

    axis: str
    why: str

    def said(self) -> str:
        return f"{self.axis} is not a boundary: {self.why}"


@dataclass
class _Step:
    """One line's values that passed every run and those that showed the target."""

    held: dict
    passes: list
    fails: list
    observations: dict
    runs: int


def _lines_of(rows: Iterable[Mapping], axes: Sequence[str], axis: str, target: FailureKind) -> list[_Step]:
    """The lines of `axis` in table order, each with its passing and failing values (numbers only)."""
    grouped: dict[tuple, dict] = {}
    kinds: dict[tuple, dict] = defaultdict(lambda: defaultdict(list))
    for row in rows:
        value = row.get(axis)
        if not _is_number(value):
            continue
        key = tuple(spell(row.get(a)) for a in axes if a != axis)
        grouped.setdefault(key, {a: row.get(a) for a in axes if a != axis})
        kinds[key][value].append(FailureKind.from_row(row))
    steps = []
    for key, held in grouped.items():
        by_value = {v: tuple(ks) for v, ks in sorted(kinds[key].items())}
        passes = [v for v, ks in by_value.items() if all(k.is_pass for k in ks)]
        fails = [v for v, ks in by_value.items() if target in ks]
        steps.append(_Step(held, passes, fails, by_value, sum(len(ks) for ks in by_value.values())))
    return steps


def _disorder(axis: str, steps: Sequence[_Step]) -> Disorder | None:
    """None when every line with both a pass and the failure has them on one side, the same on each."""
    sides = set()
    for s in steps:
        if not (s.passes and s.fails):
            continue
        if max(s.passes) < min(s.fails):
            sides.add("up")
        elif min(s.passes) > max(s.fails):
            sides.add("down")
        else:
            beyond = next(p for p in s.passes if p > min(s.fails))
            where = f" ({_held(s.held)})" if s.held else ""
            return Disorder(axis, f"{axis}={spell(min(s.fails))} fails but {axis}={spell(beyond)} passes{where}")
    if len(sides) > 1:
        return Disorder(axis, "the failure shows at high values on one line and at low values on another")
    return None


def _held(held: Mapping) -> str:
    return " ".join(f"{a}={spell(v)}" for a, v in held.items())


def _line(axis: str, s: _Step, integer: bool) -> Line:
    if max(s.passes) < min(s.fails):
        passes, fails = max(s.passes), min(s.fails)
    else:
        passes, fails = min(s.passes), max(s.fails)
    return Line(axis, dict(s.held), passes, fails, integer, dict(s.observations))


def ordered_line(
    rows: Sequence[Mapping],
    axes: Mapping[str, Sequence[object]],
    target: FailureKind,
    prefer: Mapping | None = None,
    only: Sequence[str] | None = None,
    least: int = 3,
) -> tuple[Line | None, list[Disorder]]:
    """The line of the first numeric axis (of `only`, or of all, in the matrix's order) that orders
    `target`, and the numeric axes on which the failure varies without an order. `rows`: a table's
    rows with typed values; `axes`: the matrix's axes and their listed values; `prefer`: the failing
    cell whose line to narrow where it has both a pass and the failure; `least`: the values a line must
    have passed or failed at (two say nothing of an order: kill_rank [-1, 1] names a rank, not a size)."""
    order = list(axes)
    disorders = []
    for axis in only if only is not None else order:
        if not is_numeric_axis(axes[axis]):
            continue
        steps = _lines_of(rows, order, axis, target)
        stepping = [s for s in steps if s.passes and s.fails and len({*s.passes, *s.fails}) >= least]
        if not stepping:
            continue
        disorder = _disorder(axis, steps)
        if disorder is not None:
            disorders.append(disorder)
            continue
        wanted = {a: spell(v) for a, v in (prefer or {}).items() if a != axis}
        mine = [s for s in stepping if {a: spell(v) for a, v in s.held.items()} == wanted]
        integer = all(isinstance(v, int) for v in axes[axis])
        return _line(axis, (mine or sorted(stepping, key=lambda s: -s.runs))[0], integer), disorders
    return None, disorders
