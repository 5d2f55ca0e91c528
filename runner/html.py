"""report.html: one self-contained page of a run (inline CSS, no scripts, no network assets).

The machine's fingerprint, the outcome counts, a grid coloured by outcome (over the
two axes whose failure rate varies most; one axis: a single column), every cell
with its coloured outcome, and the failing cells with their error line and a
relative link to their log directory.
"""

from __future__ import annotations

import os
from collections import Counter, defaultdict
from html import escape

from runner.compare import summarize_cells
from runner.fingerprint import SUMMARY_FIELDS, one_line
from runner.pivot import NOT_COUNTED_FAILING, UNSET, axis_rates, grid, rate_text, value_orders
from runner.report import ORDER, outcome_counts
from runner.store import read_fingerprint, read_rows

COLOURS = {
    "pass": "#2e9e4f", "fail": "#e08a00", "crash": "#d62728", "worker_crash": "#9b1c5a",
    "cuda_error": "#7b3fbf", "oom": "#8c564b", "timeout": "#1f77b4", "nan": "#c9b800",
    "skip": "#a0a0a0", "error": "#333333",
}
OTHER = "#555555"

CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Helvetica,Arial,sans-serif;margin:1.5em 2em;color:#222}
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em}
table{border-collapse:collapse;margin:.4em 0}
th,td{border:1px solid #ccc;padding:.25em .55em;text-align:left;vertical-align:top;font-size:.9em}
th{background:#f4f4f4}
td.o{color:#fff;font-weight:600;white-space:nowrap}
td.none{background:#f2f2f2;color:#999}
code,.mono{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.88em}
.legend span{display:inline-block;padding:.1em .5em;margin:0 .3em .3em 0;color:#fff;border-radius:3px;font-size:.85em}
.err{max-width:60em;word-break:break-word}
.muted{color:#777}
"""


def _colour(outcome: str) -> str:
    return COLOURS.get(outcome, OTHER)


def _dominant(counts: Counter) -> str:
    """The outcome that colours a group: its most frequent failure, else pass/skip."""
    failing = {o: n for o, n in counts.items() if o not in NOT_COUNTED_FAILING}
    pool = failing or counts
    return min(pool, key=lambda o: (-pool[o], ORDER.index(o) if o in ORDER else 99)) if pool else ""


def _td_outcome(text: str, outcome: str, title: str = "") -> str:
    if not outcome:
        return '<td class="none">—</td>'
    tip = f' title="{escape(title)}"' if title else ""
    return f'<td class="o" style="background:{_colour(outcome)}"{tip}>{escape(text)}</td>'


def _table(headers: list[str], body_rows: list[str]) -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    return f"<table><tr>{head}</tr>\n" + "\n".join(body_rows) + "\n</table>"


def grid_axes(rows: list[dict], value_columns: list[str]) -> list[str]:
    """The two axes (or the one) whose values' failure rates vary most; ties keep the matrix order."""
    varying = [a for a in value_columns if len({r.get(a, "") for r in rows}) > 1] or list(value_columns)
    if len(varying) <= 2:
        return varying

    def variance(axis):
        rates = []
        groups = defaultdict(list)
        for r in rows:
            groups[r.get(axis, "")].append(r)
        for group in groups.values():
            rates.append(sum(1 for r in group if r.get("outcome") not in NOT_COUNTED_FAILING) / len(group))
        mean = sum(rates) / len(rates)
        return sum((x - mean) ** 2 for x in rates) / len(rates)

    ranked = sorted(varying, key=lambda a: (-variance(a), value_columns.index(a)))
    return [a for a in value_columns if a in ranked[:2]]


def _grid_html(rows, value_columns, run_dir) -> str:
    axes = grid_axes(rows, value_columns)
    if not axes:
        return ""
    orders, groups = grid(rows, axes, run_dir)
    show = lambda v: v or UNSET  # noqa: E731

    def cell(pos):
        group = groups.get(pos, [])
        counts = Counter(r.get("outcome", "") for r in group)
        ids = sorted({r["cell_id"] for r in group})
        return _td_outcome(rate_text(counts, len(group)), _dominant(counts), " ".join(ids))

    others = [a for a in value_columns if a not in axes]
    note = (f'<p class="muted">Grid axes: {escape(", ".join(axes))} (the axes whose failure rate varies most); '
            f'each square gathers every value of {escape(", ".join(others))}.</p>') if others else ""
    if len(axes) == 1:
        body = [f"<tr><th>{escape(show(v))}</th>{cell((v,))}</tr>" for v in orders[axes[0]]]
        return note + _table([axes[0], "outcome"], body)
    a, b = axes
    body = ["<tr><th>" + escape(show(va)) + "</th>" + "".join(cell((va, vb)) for vb in orders[b]) + "</tr>"
            for va in orders[a]]
    return note + _table([f"{a} \\ {b}"] + [show(v) for v in orders[b]], body)


def render(run_dir: str) -> str:
    rows, value_columns, csv_path = read_rows(run_dir)
    facts = read_fingerprint(run_dir)
    name = os.path.basename(os.path.abspath(run_dir))
    cells = summarize_cells(rows, value_columns)
    orders = value_orders({a: [c.values.get(a, "") for c in cells.values()] for a in value_columns}, run_dir)

    def order_key(cell_id):
        values = cells[cell_id].values
        return tuple(orders[a].index(values.get(a, "")) for a in value_columns), cell_id

    parts = [
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        f"<title>crashmatrix {escape(name)}</title>", f"<style>{CSS}</style></head><body>",
        f"<h1>crashmatrix run {escape(name)}</h1>",
        f"<p>{len(rows)} runs of {len(cells)} cells. Machine: {escape(one_line(facts)) if facts else 'unknown (no env.json)'}</p>",
    ]
    legend = "".join(f'<span style="background:{_colour(o)}">{escape(o)}</span>' for o in ORDER)
    parts.append(f'<p class="legend">{legend}</p>')

    parts.append("<h2>Outcomes</h2>")
    parts.append(_table(["outcome", "runs", "cells"], [
        f"<tr>{_td_outcome(o, o)}<td>{n}</td><td>{c}</td></tr>" for o, n, c in outcome_counts(rows)]))

    if value_columns and rows:
        parts.append("<h2>Grid</h2>")
        parts.append(_grid_html(rows, value_columns, run_dir))
        parts.append("<h2>Failure rate by axis value</h2>")
        parts.append(_table(["axis", "value", "runs", "failing", "rate", "steps/s (median)"], [
            "<tr>" + "".join(f"<td>{escape(str(x))}</td>" for x in line) + "</tr>"
            for line in axis_rates(rows, value_columns, run_dir)]))

    failing = [cid for cid in sorted(cells, key=order_key) if cells[cid].outcome not in NOT_COUNTED_FAILING]
    parts.append(f"<h2>Failing cells ({len(failing)})</h2>")
    if failing:
        body = []
        for cid in failing:
            c = cells[cid]
            label = " ".join(f"{k}={v}" for k, v in c.values.items() if v != "")
            link = f'<a href="{escape(c.log_dir)}/">{escape(c.log_dir)}</a>' if c.log_dir else ""
            body.append(f'<tr><td class="mono">{escape(cid)}</td><td>{escape(label)}</td>'
                        f"{_td_outcome(c.text(), c.outcome)}<td class=\"err mono\">{escape(c.error)}</td><td>{link}</td></tr>")
        parts.append(_table(["cell", "values", "outcome", "error", "logs"], body))
    else:
        parts.append("<p>No failing cells.</p>")

    parts.append("<h2>All cells</h2>")
    body = []
    for cid in sorted(cells, key=order_key):
        c = cells[cid]
        link = f'<a href="{escape(c.log_dir)}/">logs</a>' if c.log_dir else ""
        body.append(f'<tr><td class="mono">{escape(cid)}</td>'
                    + "".join(f"<td>{escape(c.values.get(a, ''))}</td>" for a in value_columns)
                    + f"{_td_outcome(c.text(), c.outcome)}<td>{link}</td></tr>")
    parts.append(_table(["cell"] + value_columns + ["outcome", "logs"], body))

    if facts:
        parts.append("<h2>Fingerprint</h2>")
        fields = [k for k in SUMMARY_FIELDS if k in facts] + [f"env.{k}" for k in sorted(facts.get("env") or {})]
        body = []
        for key in fields:
            value = (facts.get("env") or {}).get(key[4:]) if key.startswith("env.") else facts.get(key)
            body.append(f"<tr><th>{escape(key)}</th><td>{escape(str(value))}</td></tr>")
        parts.append(_table(["field", "value"], body))
    parts.append(f'<p class="muted">From {escape(os.path.basename(csv_path))} in this directory.</p>')
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def write_html(run_dir: str) -> str:
    """Write run_dir/report.html (atomically) and return its path."""
    path = os.path.join(run_dir, "report.html")
    tmp = os.path.join(run_dir, ".report.html.tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(render(run_dir))
    os.replace(tmp, path)
    return path
