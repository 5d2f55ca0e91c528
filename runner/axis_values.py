"""Runs grouped by their axis values: each axis's values in order, the runs at each grid position, and each
value's failure rate. The summary, `report --by`, report.html and compare all group runs this way.

Rows are a FinishedRun's (or results.csv's): a value is grouped and shown by its spelling (crashmatrix.cell.spell).
`listed` is each axis's values as the matrix lists them (FinishedRun.listed), {} for none.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping

from crashmatrix.cell import spell
from crashmatrix.outcome import counts_as_failing, is_pass

UNSET = "(unset)"  # an axis with no value in a cell (a column only `include` sets)
# The speed columns are medians over the runs that passed (a run that died early is quick, not
# fast): the wall time (duration_s) ranks the values as a wall clock does, first_batch_s,
# first_batch_total_s and steps_per_s (all counted from each DataLoader pass's start) say where the
# time went. The total is what workers that persist pay: once, on the first pass, which the median hides.
SPEED_HEADERS = ["wall s", "first batch s", "first batches total s", "steps/s"]
AXIS_COUNT_HEADERS = ["axis", "value", "runs", "failing", "rate"]
SPEED_FIELDS = ["duration_s", "first_batch_s", "first_batch_total_s", "steps_per_s"]
# What each speed column measures: said once, under a table or above report.html's chart, for the columns
# it shows.
SPEED_NOTES = [
    "the cell's whole run",
    "from iter(loader) to its first batch (workers' start-up), the median pass",
    "every pass's wait summed (workers that persist start once, on the first pass)",
    "batches over each pass from iter(loader) to its last batch (empty under 8 batches)",
]


def speeds_shown(rows: list[dict]) -> list[int]:
    """The speed columns (indices into SPEED_FIELDS) some passing run has a figure for. The rest would be
    "—" in every row (a program without a DataLoader has wall times only; a run where nothing passed has
    none), and a column that says nothing is left out of every table and chart."""
    return [i for i, field in enumerate(SPEED_FIELDS) if median_of(rows, field) is not None]


def speed_note(shown: list[int]) -> str:
    """The sentence under a table of these speed columns; "" for none."""
    if not shown:
        return ""
    return (
        "Speed: medians over the runs that passed. "
        + "; ".join(f"{SPEED_HEADERS[i]}: {SPEED_NOTES[i]}" for i in shown)
        + "."
    )


def value_label(value: str) -> str:
    """An axis value as a table shows it: UNSET where the cell has none."""
    return value or UNSET


def _natural_order_key(value: str):
    """Numbers by value, then words, then the empty value."""
    if value == "":
        return (2, 0.0, "")
    try:
        return (0, float(value), value)
    except ValueError:
        return (1, 0.0, value)


def value_of(row: Mapping, axis: str) -> str:
    """A row's value of an axis as results.csv spells it ("" where the cell has none)."""
    return spell(row.get(axis, ""))


def varying_axes(rows, value_columns) -> list[str]:
    """The axes with more than one value among these runs: a one-value axis holds in every run, so a row of
    it repeats the whole run's rate, and a bar of it is the whole run's median."""
    return [a for a in value_columns if len({value_of(r, a) for r in rows}) > 1]


def value_orders(values_by_axis: dict, listed: Mapping[str, list]) -> dict:
    """Each axis's distinct spelled values: in the matrix's order where it lists them, the rest in natural order."""
    orders = {}
    for axis, values in values_by_axis.items():
        seen = set(values)
        first = []
        if axis in listed:
            first = [v for v in dict.fromkeys(spell(x) for x in listed[axis]) if v in seen]
        rest = sorted(seen - set(first), key=_natural_order_key)
        orders[axis] = first + rest
    return orders


def count_failing(rows) -> int:
    """How many of these runs count as failing (see crashmatrix.outcome)."""
    return sum(1 for row in rows if counts_as_failing(row.get("outcome")))


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "—"


def median_of(rows: list[dict], column: str) -> float | None:
    """The median of a column over the runs that passed and report it; None where none does."""
    values = sorted(float(r[column]) for r in rows if is_pass(r.get("outcome", "")) and r.get(column) not in (None, ""))
    if not values:
        return None
    middle = len(values) // 2
    return values[middle] if len(values) % 2 else (values[middle - 1] + values[middle]) / 2


def speed_cells(rows: list[dict], shown: list[int]) -> list[str]:
    """The shown speed columns of a group of runs: "—" where no passing run among them reports the figure."""
    return ["—" if (m := median_of(rows, SPEED_FIELDS[i])) is None else f"{m:.3g}" for i in shown]


def axis_rates(rows, value_columns, listed: Mapping[str, list]) -> tuple[list[str], list[list]]:
    """(headers, lines): [axis, value, runs, failing, rate, *speed medians] for every value of every axis;
    the speed columns are those some passing run has a figure for (speeds_shown)."""
    orders = value_orders({a: [value_of(r, a) for r in rows] for a in value_columns}, listed)
    shown = speeds_shown(rows)
    rates = []
    for axis in value_columns:
        groups = defaultdict(list)
        for row in rows:
            groups[value_of(row, axis)].append(row)
        for value in orders[axis]:
            group = groups[value]
            failing = count_failing(group)
            counts = [axis, value_label(value), len(group), failing, _percent(failing, len(group))]
            rates.append(counts + speed_cells(group, shown))
    return AXIS_COUNT_HEADERS + [SPEED_HEADERS[i] for i in shown], rates


def grid(rows, axes: list[str], listed: Mapping[str, list]):
    """(orders, groups): the spelled axis values in order, and the runs at each grid position (a tuple of them)."""
    orders = value_orders({a: [value_of(r, a) for r in rows] for a in axes}, listed)
    groups: dict[tuple, list] = defaultdict(list)
    for row in rows:
        groups[tuple(value_of(row, a) for a in axes)].append(row)
    return orders, groups
