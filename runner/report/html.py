"""report.html: one self-contained page of a run (inline CSS, no scripts, no network assets).

The machine's fingerprint, the outcome counts, what the failing cells have in common (explain, with
the pairwise caveat; runner/report/html_explain.py), a grid coloured by outcome (over the
two axes whose failure rate varies most; one axis: a single column; the slow cells dashed), time and speed
by axis value as bars (runner/report/chart.py), every cell
with its coloured outcome and wall time, and the failing cells with how long they ran
until they failed, their error line and a relative link to their log directory.
"""

from __future__ import annotations

import os
import statistics
from collections import Counter, defaultdict
from collections.abc import Collection, Mapping
from html import escape

from crashmatrix.answers.compare import summarize_cells
from crashmatrix.axis_values import (
    axis_rates,
    grid,
    speeds_shown,
    value_label,
    value_of,
    value_orders,
    varying_axes,
)
from crashmatrix.cell import cell_and_node
from crashmatrix.engine import side_by_side
from crashmatrix.incell.atomic import write_text_atomic
from crashmatrix.machine.fingerprint import SUMMARY_FIELDS, one_line
from crashmatrix.outcome import ORDER, Outcome, counts_as_failing, display_rank
from crashmatrix.report.chart import speed_chart
from crashmatrix.report.html_explain import (
    Explained,
    explain_section,
    findings_section,
    grid_caption,
    slow_caption,
    slow_mark,
    with_code,
)
from crashmatrix.report.memory_chart import growth_section, startup_section
from crashmatrix.report.pivot import rate_text
from crashmatrix.report.summary import NOT_RUN_HEADERS, NOT_RUN_NOTE, NOT_RUN_TITLE, not_run_cells, outcome_counts
from crashmatrix.rundir.cell_files import OUTPUTS
from crashmatrix.rundir.finished_run import FinishedRun
from crashmatrix.text import shown_path

COLOURS = {
    Outcome.PASS.value: "#2e9e4f",
    Outcome.FAIL.value: "#e08a00",
    Outcome.CRASH.value: "#d62728",
    Outcome.WORKER_CRASH.value: "#9b1c5a",
    Outcome.RANK_CRASH.value: "#f0602a",
    Outcome.CUDA_ERROR.value: "#7b3fbf",
    Outcome.OOM.value: "#8c564b",
    Outcome.TIMEOUT.value: "#1f77b4",
    Outcome.NAN.value: "#c9b800",
    Outcome.SKIP.value: "#a0a0a0",
    Outcome.ERROR.value: "#333333",
}
OTHER = "#555555"

CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Helvetica,Arial,sans-serif;margin:1.5em 2em;color:#222}
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em}
table{border-collapse:collapse;margin:.4em 0}
th,td{border:1px solid #ccc;padding:.25em .55em;text-align:left;vertical-align:top;font-size:.9em}
th{background:#f4f4f4;white-space:nowrap}
td.o{color:#fff;font-weight:600;max-width:22em}
td.none{background:#f2f2f2;color:#999}
code,.mono{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.88em}
.legend span{display:inline-block;padding:.1em .5em;margin:0 .3em .3em 0;color:#fff;border-radius:3px;font-size:.85em}
.err{min-width:22em;max-width:60em;word-break:break-word}
.muted{color:#777}
td.num{text-align:right;white-space:nowrap}
td.values{overflow-wrap:anywhere;min-width:12em}
.caveat{background:#fff6d6;border-left:4px solid #e0a800;padding:.4em .7em;max-width:60em}
.chart h3{font-size:1em;margin:.8em 0 .2em}.chart svg{margin-right:1.2em;vertical-align:top}
td.slow{outline:3px dashed #111;outline-offset:-5px}
.charts{display:flex;flex-wrap:wrap;align-items:flex-start}
figure.chart{margin:0 1.2em 1em 0;max-width:560px}
figure.chart figcaption{font-size:.85em;font-weight:600;margin-bottom:.3em;overflow-wrap:anywhere}
"""


def colour_of(outcome: str) -> str:
    return COLOURS.get(outcome, OTHER)


def _dominant_outcome(counts: Counter) -> str:
    """The outcome that colours a group: its most frequent failure, else pass/skip."""
    failing = {o: n for o, n in counts.items() if counts_as_failing(o)}
    pool = failing or counts
    return min(pool, key=lambda o: (-pool[o], display_rank(o))) if pool else ""


def _td_outcome(text: str, outcome: str, title: str = "", marked: bool = False) -> str:
    if not outcome:
        return '<td class="none">—</td>'
    tip = f' title="{escape(title)}"' if title else ""
    kind = "o slow" if marked else "o"
    return f'<td class="{kind}" style="background:{colour_of(outcome)}"{tip}>{escape(text)}</td>'


def _html_table(headers: list[str], body_rows: list[str]) -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    return f"<table><tr>{head}</tr>\n" + "\n".join(body_rows) + "\n</table>"


def _failure_rate_variance(rows: list[dict], axis: str) -> float:
    """How much the failure rate differs between this axis's values."""
    groups = defaultdict(list)
    for row in rows:
        groups[value_of(row, axis)].append(row)
    rates = [sum(1 for r in group if counts_as_failing(r.get("outcome", ""))) / len(group) for group in groups.values()]
    mean = sum(rates) / len(rates)
    return sum((x - mean) ** 2 for x in rates) / len(rates)


def grid_axes(rows: list[dict], value_columns: list[str], prefer: Collection[str] = ()) -> list[str]:
    """The two axes (or the one) whose values' failure rates vary most; ties go to the axes in prefer (a
    slow conjunction's), then keep the matrix order."""
    varying = varying_axes(rows, value_columns) or list(value_columns)
    if len(varying) <= 2:
        return varying
    ranked = sorted(varying, key=lambda a: (-_failure_rate_variance(rows, a), a not in prefer, value_columns.index(a)))
    return [a for a in value_columns if a in ranked[:2]]


def _solid_squares(axes: list[str], groups: dict) -> list[str]:
    """The grid's squares where every run failed: `a=x, b=y: n cells`."""
    out = []
    for position, group in groups.items():
        if group and all(counts_as_failing(r.get("outcome")) for r in group):
            where = ", ".join(f"{a}={value_label(v)}" for a, v in zip(axes, position))
            n = len({cell_and_node(r) for r in group})
            out.append(f"{where}: {n} cell{'s' if n != 1 else ''}")
    return out


def _grid_html(rows, value_columns, listed: Mapping[str, list], seen: Explained) -> str:
    axes = grid_axes(rows, value_columns, prefer={a for f in seen.slow for a, _ in f.conditions})
    if not axes:
        return ""
    orders, groups = grid(rows, axes, listed)
    caption = grid_caption(seen, axes, _solid_squares(axes, groups)) + slow_caption(seen, axes)

    def square_td(position):
        group = groups.get(position, [])
        counts = Counter(r.get("outcome", "") for r in group)
        cell_ids = sorted({cell_and_node(r) for r in group})
        mark = slow_mark(seen, group)
        text = rate_text(counts, len(group)) + (f" · {mark}" if mark else "")
        return _td_outcome(text, _dominant_outcome(counts), " ".join(cell_ids), marked=bool(mark))

    others = [a for a in value_columns if a not in axes]
    why = (
        "the slow cells' axes: no failure rate varies"
        if seen.slow and not seen.failing
        else "the axes whose failure rate varies most"
    )
    note = (
        (
            f'<p class="muted">Grid axes: {escape(", ".join(axes))} ({why}); '
            f"each square gathers every value of {escape(', '.join(others))}.</p>"
        )
        if others
        else ""
    )
    if len(axes) == 1:
        body = [f"<tr><th>{escape(value_label(v))}</th>{square_td((v,))}</tr>" for v in orders[axes[0]]]
        return note + _html_table([axes[0], "outcome"], body) + caption
    row_axis, column_axis = axes
    body = [
        "<tr><th>"
        + escape(value_label(row_value))
        + "</th>"
        + "".join(square_td((row_value, column_value)) for column_value in orders[column_axis])
        + "</tr>"
        for row_value in orders[row_axis]
    ]
    headers = [f"{row_axis} \\ {column_axis}"] + [value_label(v) for v in orders[column_axis]]
    return note + _html_table(headers, body) + caption


def _head(name: str, runs: int, cells: int, facts: dict) -> list[str]:
    """The page's head, title, one line on the run and its machine, and the colours' legend."""
    machine = escape(one_line(facts)) if facts else "unknown (no env.json)"
    legend = "".join(f'<span style="background:{colour_of(o)}">{escape(o)}</span>' for o in ORDER)
    return [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>crashmatrix {escape(name)}</title>",
        f"<style>{CSS}</style></head><body>",
        f"<h1>crashmatrix run {escape(name)}</h1>",
        f"<p>{runs} runs of {cells} cells. Machine: {machine}</p>",
        f'<p class="legend">{legend}</p>',
    ]


def _axis_sections(
    rows: list[dict], value_columns: list[str], listed: Mapping[str, list], seen: Explained
) -> list[str]:
    """The grid and the failure rate of each axis value."""
    if not (value_columns and rows):
        return []
    varying = varying_axes(rows, value_columns) or list(value_columns)  # as summary.md and the grid
    headers, lines = axis_rates(rows, varying, listed)
    rates = ["<tr>" + "".join(f"<td>{escape(str(x))}</td>" for x in line) + "</tr>" for line in lines]
    return [
        "<h2>Grid</h2>",
        _grid_html(rows, value_columns, listed, seen),
        f"<h2>Failure rate{' and speed' if speeds_shown(rows) else ''} by axis value</h2>",
        _html_table(headers, rates),
        *speed_chart(rows, value_columns, listed),
    ]


def _log_link(log_dir: str, text: str) -> str:
    return f'<a href="{escape(log_dir)}/">{escape(text)}</a>' if log_dir else ""


def _files_links(run_dir: str, log_dir: str, text: str) -> str:
    """The cell's logs, and the outputs its app wrote (Hydra's run directory) where there are some."""
    outputs = os.path.join(log_dir, OUTPUTS) if log_dir else ""
    if not (outputs and os.path.isdir(os.path.join(run_dir, outputs))):
        return _log_link(log_dir, text)
    return f"{_log_link(log_dir, text)} {_log_link(outputs, OUTPUTS)}"


def _seconds(values: list[float]) -> str:
    """A cell's wall time: one run's, or the median of several with their range."""
    if not values:
        return "—"
    if len(values) == 1:
        return f"{values[0]:.3g}"
    return f"{statistics.median(values):.3g} ({min(values):.3g}–{max(values):.3g}, {len(values)} runs)"


def wall_times(rows: list[dict], failing_only: bool) -> dict[str, list[float]]:
    """cell_id -> the duration_s of its runs (only those that failed, with failing_only)."""
    times: dict[str, list[float]] = defaultdict(list)
    for row in rows:
        if failing_only and not counts_as_failing(row.get("outcome", "")):
            continue
        try:
            times[cell_and_node(row)].append(float(row.get("duration_s") or ""))
        except ValueError:
            continue  # a row without a duration (a cell that never started) says nothing of time
    return times


def _failing_section(cells: dict, ordered: list[str], run_dir: str, rows: list[dict]) -> list[str]:
    """The failing cells (summary.md's rule: a run that counts as failing) with their error line, how long
    they ran until they failed, and a link to their logs."""
    failing = [cell_id for cell_id in ordered if any(k.counts_as_failing for k in cells[cell_id].kinds)]
    if not failing:
        return [f"<h2>Failing cells ({len(failing)})</h2>", "<p>No failing cells.</p>"]
    with_where = any(cells[cell_id].where for cell_id in failing)  # a CPU run's table stays as it was
    seconds = wall_times(rows, failing_only=True)
    body = []
    for cell_id in failing:
        cell = cells[cell_id]
        label = " ".join(f"{k}={v}" for k, v in cell.values.items() if v != "")
        where = f'<td class="mono">{escape(cell.where)}</td>' if with_where else ""
        body.append(
            f'<tr><td class="mono">{escape(cell_id)}</td><td class="values">{escape(label)}</td>'
            f'{_td_outcome(cell.describe(), cell.outcome)}<td class="num">{_seconds(seconds[cell_id])}</td>'
            f'<td class="err mono">{escape(cell.error)}</td>'
            f"{where}<td>{_files_links(run_dir, cell.log_dir, cell.log_dir)}</td></tr>"
        )
    headers = ["cell", "values", "outcome", "wall s", "error"] + (["where"] if with_where else []) + ["logs"]
    return [f"<h2>Failing cells ({len(failing)})</h2>", _html_table(headers, body)]


def _not_run_section(rows: list[dict], value_columns: list[str], run_dir: str) -> list[str]:
    """The cells crashmatrix could not launch (outcome error), apart from the failing ones, as summary.md has them."""
    not_run = not_run_cells(rows, value_columns)
    if not not_run:
        return []
    body = [
        f'<tr><td class="mono">{escape(cell_id)}</td><td>{escape(label)}</td><td>{escape(count)}</td>'
        f'<td class="err mono">{escape(error)}</td><td>{_log_link(log_dir, log_dir)}</td></tr>'
        for cell_id, label, count, error, log_dir in not_run
    ]
    return [
        f"<h2>{escape(NOT_RUN_TITLE)} ({len(not_run)})</h2>",
        _html_table(NOT_RUN_HEADERS, body),
        f'<p class="muted">{escape(NOT_RUN_NOTE.replace("`", ""))}</p>',
    ]


def _all_cells_section(
    cells: dict, ordered: list[str], value_columns: list[str], run_dir: str, rows: list[dict]
) -> list[str]:
    """Every cell with its outcome and its wall time (every run of it, whatever its outcome)."""
    seconds = wall_times(rows, failing_only=False)
    body = []
    for cell_id in ordered:
        cell = cells[cell_id]
        body.append(
            f'<tr><td class="mono">{escape(cell_id)}</td>'
            + "".join(f"<td>{escape(cell.values.get(a, ''))}</td>" for a in value_columns)
            + f'{_td_outcome(cell.describe(), cell.outcome)}<td class="num">{_seconds(seconds[cell_id])}</td>'
            + f"<td>{_files_links(run_dir, cell.log_dir, 'logs')}</td></tr>"
        )
    return ["<h2>All cells</h2>", _html_table(["cell"] + value_columns + ["outcome", "wall s", "logs"], body)]


def _fingerprint_section(facts: dict) -> list[str]:
    if not facts:
        return []
    env = facts.get("env") or {}
    fields = [k for k in SUMMARY_FIELDS if k in facts] + [f"env.{k}" for k in sorted(env)]
    body = []
    for key in fields:
        value = env.get(key[4:]) if key.startswith("env.") else facts.get(key)
        body.append(f"<tr><th>{escape(key)}</th><td>{escape(str(value))}</td></tr>")
    return ["<h2>Fingerprint</h2>", _html_table(["field", "value"], body)]


def _resolution_section(run_dir: str, seen: Explained) -> list[str]:
    """The last section: resolution.md where `crashmatrix resolve` has run, else the command that writes it."""
    from crashmatrix.resolve.files import RESOLUTION_MD, pointer, recommended_line

    if os.path.exists(os.path.join(run_dir, RESOLUTION_MD)):
        line = recommended_line(run_dir)
        said = f"{escape(line)}; " if line else ""
        link = f'<a href="{RESOLUTION_MD}">{RESOLUTION_MD}</a>'
        return ["<h2>What to run instead</h2>", f"<p>{said}the whole note, and a bug report per failure: {link}</p>"]
    if not seen.failing:
        return []
    # the line summary.md and explain end with, as they say it
    return ["<h2>What to run instead</h2>", f"<p>{with_code(pointer(shown_path(run_dir)))}</p>"]


def _cells_in_matrix_order(cells: dict, value_columns: list[str], listed: Mapping[str, list]) -> list[str]:
    """Cell ids ordered by their axis values, each axis in the matrix's order."""
    orders = value_orders({a: [c.values.get(a, "") for c in cells.values()] for a in value_columns}, listed)

    def by_axis_values(cell_id):
        values = cells[cell_id].values
        return tuple(orders[a].index(values.get(a, "")) for a in value_columns), cell_id

    return sorted(cells, key=by_axis_values)


def render(run: FinishedRun) -> str:
    """The whole page of the run."""
    rows, value_columns, run_dir, facts = list(run.rows), list(run.answer_axes), run.directory, run.fingerprint
    cells = summarize_cells(rows, value_columns)
    ordered = _cells_in_matrix_order(cells, value_columns, run.listed)
    outcomes = [
        f"<tr>{_td_outcome(o, o)}<td>{runs}</td><td>{in_cells}</td></tr>" for o, runs, in_cells in outcome_counts(rows)
    ]
    parts = _head(os.path.basename(run_dir), len(rows), len(cells), facts)
    parts += ["<h2>Outcomes</h2>", _html_table(["outcome", "runs", "cells"], outcomes)]
    alone = side_by_side.again_alone(run_dir, rows)
    parts += [f"<p>{escape(alone)}</p>"] if alone else []
    seen = Explained(run)
    parts += explain_section(seen)
    parts += findings_section(seen)
    parts += startup_section(run, seen.findings)  # the slow cells' loader passes beside a fast cell's
    parts += growth_section(run)  # the memory of the cells that grow beside a flat one's
    parts += _axis_sections(rows, value_columns, run.listed, seen)
    parts += _failing_section(cells, ordered, run_dir, rows)
    parts += _not_run_section(rows, value_columns, run_dir)
    parts += _all_cells_section(cells, ordered, value_columns, run_dir, rows)
    parts += _fingerprint_section(facts)
    parts += _resolution_section(run_dir, seen)
    parts.append(f'<p class="muted">From {escape(os.path.basename(run.csv_path))} in this directory.</p>')
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def write_html(run: FinishedRun) -> str:
    """Write report.html (atomically) into the run's directory and return its path."""
    path = os.path.join(run.directory, "report.html")
    write_text_atomic(path, render(run), durable=False)
    return path
