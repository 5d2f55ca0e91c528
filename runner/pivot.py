"""`crashmatrix report RUN --by AXIS[,AXIS]`: outcomes pivoted over one or two axes, and each axis value's failure rate.

A grid position gathers every run (all repeats of all cells) with those axis values.
Its text is `pass` when every run passed, else each other outcome with its rate,
most frequent first: `2/4 crash`, `1/4 crash, 1/4 timeout` (a single run: `crash`).
"Failing" means any outcome but pass and skip.

Formats: md and github print the grid and the per-axis table; csv prints the grid
in long (tidy) form for pandas: one row per grid position and (outcome, signal, signature):
`<axis>[,<axis2>],outcome,signal,signature,runs,cells,total_runs,rate` (rate = runs/total_runs).
"""

from __future__ import annotations

import csv
import io
import os
from collections import Counter, defaultdict

from runner.errors import BadInput
from runner.outcome import NOT_COUNTED_FAILING
from runner.report import failure_kind, kind_text, table
from runner.store import read_matrix_yaml

UNSET = "(unset)"  # an axis with no value in a cell (a column only `include` sets)


def _order_key(value: str):
    if value == "":
        return (2, 0.0, "")
    try:
        return (0, float(value), value)
    except ValueError:
        return (1, 0.0, value)


def _matrix_axes(run_dir: str) -> dict:
    """The axes in the matrix's order; {} for a bare results.csv (natural order then)."""
    axes = read_matrix_yaml(run_dir).get("axes") if run_dir else None
    return axes if isinstance(axes, dict) else {}


def value_orders(values_by_axis: dict, run_dir: str = "") -> dict:
    """Each axis's distinct values: in the matrix file's order where it lists them, the rest in natural order."""
    from runner.cell import spell

    listed = _matrix_axes(run_dir) if run_dir else {}
    out = {}
    for axis, values in values_by_axis.items():
        seen = set(values)
        first = []
        raw = listed.get(axis)
        if isinstance(raw, dict):  # an axis with keys: {values: [...], keys: [...]}
            raw = raw.get("values")
        if isinstance(raw, list):
            first = [v for v in dict.fromkeys(spell(x) for x in raw) if v in seen]
        rest = sorted(seen - set(first), key=_order_key)
        out[axis] = first + rest
    return out


def outcome_kinds(rows) -> Counter:
    """Outcomes with their signal and signature ("crash SIGSEGV killed_by_signal", "fail fd_exhaustion"):
    two crashes by different signals, or two fails by different causes, are two findings."""
    return Counter(kind_text(failure_kind(r), 40) for r in rows)


def rate_text(counts: Counter, total: int) -> str:
    """'pass', 'crash' (one run), '2/4 crash', '1/4 crash, 1/4 timeout'."""
    if total == 0:
        return "—"
    if counts.get("pass", 0) == total:
        return "pass"
    others = sorted(((o, n) for o, n in counts.items() if o != "pass"), key=lambda kv: (-kv[1], kv[0]))
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
            raise BadInput(f"{where}--by {axis}: no such axis; the run's axes are: {', '.join(value_columns) or '(none)'}")
    return axes


def _failing(rows) -> int:
    return sum(1 for r in rows if r.get("outcome") not in NOT_COUNTED_FAILING)


def _pct(k: int, n: int) -> str:
    return f"{100 * k / n:.0f}%" if n else "—"


def median_speed(rows: list[dict]) -> str:
    """Median steps/s of the runs that report it: where spawn's slowdown shows."""
    speeds = sorted(float(r["steps_per_s"]) for r in rows if r.get("steps_per_s") not in (None, ""))
    if not speeds:
        return "—"
    mid = len(speeds) // 2
    return f"{(speeds[mid] if len(speeds) % 2 else (speeds[mid - 1] + speeds[mid]) / 2):.3g}"


def axis_rates(rows: list[dict], value_columns: list[str], run_dir: str = "") -> list[list]:
    """[axis, value, runs, failing, rate, median steps/s] for every value of every axis."""
    orders = value_orders({a: [r.get(a, "") for r in rows] for a in value_columns}, run_dir)
    out = []
    for axis in value_columns:
        groups = defaultdict(list)
        for r in rows:
            groups[r.get(axis, "")].append(r)
        for value in orders[axis]:
            group = groups[value]
            out.append([axis, value or UNSET, len(group), _failing(group), _pct(_failing(group), len(group)),
                        median_speed(group)])
    return out


def grid(rows: list[dict], axes: list[str], run_dir: str = ""):
    """(orders, groups): the axis values in order, and the runs at each grid position (a tuple of values)."""
    orders = value_orders({a: [r.get(a, "") for r in rows] for a in axes}, run_dir)
    groups: dict[tuple, list] = defaultdict(list)
    for r in rows:
        groups[tuple(r.get(a, "") for a in axes)].append(r)
    return orders, groups


def pivot_text(rows: list[dict], value_columns: list[str], by: str, fmt: str = "md", source: str = "") -> str:
    if fmt not in ("md", "github", "csv"):
        raise BadInput(f"--format {fmt}: expected md, github or csv")
    axes = parse_by(by, value_columns, source)
    run_dir = os.path.dirname(os.path.abspath(source)) if source else ""
    orders, groups = grid(rows, axes, run_dir)
    show = lambda v: v or UNSET  # noqa: E731

    if fmt == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(axes + ["outcome", "signal", "signature", "runs", "cells", "total_runs", "rate"])
        positions = [(v,) for v in orders[axes[0]]] if len(axes) == 1 else \
            [(a, b) for a in orders[axes[0]] for b in orders[axes[1]]]
        for pos in positions:
            group = groups.get(pos, [])
            kinds = Counter(failure_kind(r) for r in group)
            for kind, n in sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0])):
                cells = {r["cell_id"] for r in group if failure_kind(r) == kind}
                w.writerow(list(pos) + list(kind) + [n, len(cells), len(group), f"{n / len(group):.4g}"])
        return buf.getvalue().rstrip("\n")

    name = os.path.dirname(source) if os.path.basename(source) == "results.csv" else source
    cells = len({r["cell_id"] for r in rows})
    lines = [f"# crashmatrix report {name} --by {','.join(axes)}", "",
             f"{len(rows)} runs of {cells} cells, {_failing(rows)} failing", ""]
    if len(axes) == 1:
        axis = axes[0]
        body = []
        for v in orders[axis]:
            group = groups.get((v,), [])
            body.append([show(v), rate_text(outcome_kinds(group), len(group)), len(group), _failing(group)])
        lines += [table(body, [axis, "outcome", "runs", "failing"], fmt, numparse=False), ""]
    else:
        a, b = axes
        body = []
        for va in orders[a]:
            line = [show(va)]
            for vb in orders[b]:
                group = groups.get((va, vb), [])
                line.append(rate_text(outcome_kinds(group), len(group)))
            body.append(line)
        lines += [table(body, [f"{a} \\ {b}"] + [show(v) for v in orders[b]], fmt, numparse=False), ""]
    lines += ["## Failure rate by axis value", "",
              table(axis_rates(rows, value_columns, run_dir),
                    ["axis", "value", "runs", "failing", "rate", "steps/s (median)"], fmt, numparse=False), ""]
    return "\n".join(lines).rstrip("\n")
