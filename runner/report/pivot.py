"""`crashmatrix report RUN --by AXIS[,AXIS]`: outcomes pivoted over one or two axes, and each axis value's failure rate.

A grid position gathers every run (all repeats of all cells) with those axis values.
Its text is `pass` when every run passed, else each other outcome with its rate,
most frequent first: `2/4 crash`, `1/4 crash, 1/4 timeout` (a single run: `crash`).
"Failing" means any outcome but pass, skip and error (crashmatrix.outcome.counts_as_failing).

Formats: md and github print the grid and the per-axis table; csv prints the grid
in long (tidy) form for pandas: one row per grid position and (outcome, signal, signature):
`<axis>[,<axis2>],outcome,signal,signature,runs,cells,total_runs,rate` (rate = runs/total_runs).
"""

from __future__ import annotations

import csv
import io
import os
from collections import Counter
from collections.abc import Mapping

from crashmatrix.axis_values import axis_rates, count_failing, grid, value_label
from crashmatrix.cell import cell_and_node
from crashmatrix.errors import BadInput
from crashmatrix.outcome import FailureKind, Outcome, kind_labels
from crashmatrix.rundir.finished_run import FinishedRun
from crashmatrix.text import table

_PASSED = FailureKind(Outcome.PASS.value).label()  # how a pass is labelled: its word alone


def outcome_kinds(rows, labels: Mapping[FailureKind, str] | None = None) -> Counter:
    """The runs counted by their kind (outcome, signal, signature), each shown by its label ("crash SIGSEGV",
    "fail fd_exhaustion"): two crashes by different signals, or two fails by different causes, are two
    findings, however alike their labels begin. labels: kind_labels over the whole table, so that a kind
    reads the same in every square (default: over these rows)."""
    kinds = Counter(FailureKind.from_row(r) for r in rows)
    shown = labels if labels is not None else kind_labels(kinds)
    return Counter({shown[kind]: n for kind, n in kinds.items()})


def rate_text(counts: Counter, total: int) -> str:
    """'pass', 'crash' (one run), '2/4 crash', '1/4 crash, 1/4 timeout'."""
    if total == 0:
        return "—"
    if counts.get(_PASSED, 0) == total:
        return _PASSED
    others = sorted(((o, n) for o, n in counts.items() if o != _PASSED), key=lambda kv: (-kv[1], kv[0]))
    if total == 1:
        return others[0][0]
    return ", ".join(f"{n}/{total} {o}" for o, n in others)


def parse_by(by: str, value_columns: list[str], source: str = "") -> list[str]:
    axes = [a.strip() for a in str(by).split(",") if a.strip()]
    where = f"{source}: " if source else ""
    if not axes or len(axes) > 2:
        raise BadInput(f"--by {by}: expected one or two axes, like --by num_workers or --by num_workers,pin_memory")
    if len(set(axes)) != len(axes):
        raise BadInput(f"--by {by}: the same axis twice")
    for axis in axes:
        if axis not in value_columns:
            raise BadInput(
                f"{where}--by {axis}: no such axis; the run's axes are: {', '.join(value_columns) or '(none)'}"
            )
    return axes


def _positions(orders: dict, axes: list[str]) -> list[tuple]:
    """Every grid position, row by row."""
    if len(axes) == 1:
        return [(value,) for value in orders[axes[0]]]
    return [(row_value, column_value) for row_value in orders[axes[0]] for column_value in orders[axes[1]]]


def _long_csv(orders: dict, groups: dict, axes: list[str]) -> str:
    """The grid in long form: one row per grid position and kind, most runs first."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(axes + ["outcome", "signal", "signature", "runs", "cells", "total_runs", "rate"])
    for position in _positions(orders, axes):
        group = groups.get(position, [])
        kinds = Counter(FailureKind.from_row(r) for r in group)
        for kind, runs in sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0])):
            cells = {cell_and_node(r) for r in group if FailureKind.from_row(r) == kind}
            writer.writerow(
                list(position)
                + [kind.outcome, kind.signal, kind.signature]
                + [runs, len(cells), len(group), f"{runs / len(group):.4g}"]
            )
    return buf.getvalue().rstrip("\n")


def _one_axis_table(orders: dict, groups: dict, axis: str, fmt: str, labels: Mapping[FailureKind, str]) -> str:
    body = []
    for value in orders[axis]:
        group = groups.get((value,), [])
        shown = rate_text(outcome_kinds(group, labels), len(group))
        body.append([value_label(value), shown, len(group), count_failing(group)])
    return table(body, [axis, "outcome", "runs", "failing"], fmt, numparse=False)


def _two_axes_table(orders: dict, groups: dict, axes: list[str], fmt: str, labels: Mapping[FailureKind, str]) -> str:
    row_axis, column_axis = axes
    body = []
    for row_value in orders[row_axis]:
        line = [value_label(row_value)]
        for column_value in orders[column_axis]:
            group = groups.get((row_value, column_value), [])
            line.append(rate_text(outcome_kinds(group, labels), len(group)))
        body.append(line)
    headers = [f"{row_axis} \\ {column_axis}"] + [value_label(v) for v in orders[column_axis]]
    return table(body, headers, fmt, numparse=False)


def pivot_text(run: FinishedRun, by: str, fmt: str = "md") -> str:
    """`report RUN --by AXIS[,AXIS]` in md, github or csv."""
    if fmt not in ("md", "github", "csv"):
        raise BadInput(f"--format {fmt}: expected md, github or csv")
    rows, value_columns, source = list(run.rows), list(run.answer_axes), run.csv_path
    axes = parse_by(by, value_columns, source)
    orders, groups = grid(rows, axes, run.listed)
    if fmt == "csv":
        return _long_csv(orders, groups, axes)

    name = os.path.dirname(source) if os.path.basename(source) == "results.csv" else source
    cells = len({cell_and_node(r) for r in rows})
    lines = [
        f"# crashmatrix report {name} --by {','.join(axes)}",
        "",
        f"{len(rows)} runs of {cells} cells, {count_failing(rows)} failing",
        "",
    ]
    labels = kind_labels(FailureKind.from_row(r) for r in rows)
    if len(axes) == 1:
        lines += [_one_axis_table(orders, groups, axes[0], fmt, labels), ""]
    else:
        lines += [_two_axes_table(orders, groups, axes, fmt, labels), ""]
    headers, rates = axis_rates(rows, value_columns, run.listed)
    lines += ["## Failure rate by axis value", "", table(rates, headers, fmt, numparse=False), ""]
    return "\n".join(lines).rstrip("\n")
