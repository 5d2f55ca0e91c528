"""report.html's speed chart: time and speed by axis value, as inline SVG (no script, no network).

One row of bar panels per axis whose values differ: the median wall time of a cell, the
median wait for a DataLoader pass's first batch, every pass's wait summed, and the median steps/s
(runner/axis_values.py's speed medians, over the runs that passed). A spawn slowdown shows as a long
wall bar whose first-batch bars are long too, and a short steps/s bar; where the workers persist,
only the total's bar is long (they start once, on the first pass). A bar's label is its values
shortened to what tells them apart (runner/report/short_labels.py: `…/data-base`, `…/data-bad`); the
whole value is its tooltip.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from html import escape

from crashmatrix.axis_values import (
    SPEED_FIELDS,
    SPEED_HEADERS,
    median_of,
    speed_note,
    speeds_shown,
    value_label,
    value_of,
    value_orders,
    varying_axes,
)
from crashmatrix.report.short_labels import tell_apart, widths_for

BAR_W, NUMBER_W, ROW_H, TOP = 170, 56, 22, 22
MAX_CELLS = 40  # the per-cell block: beyond this many cells its bars would be too many to read
LABEL_CHARS = 40  # a bar's label; longer values are shortened to what tells them apart (short_labels)
CELL_LABEL_CHARS = 56  # a cell's label, its values joined; ...
CELL_PART_CHARS = 12  # ... each value of which keeps this much however many axes share it
CELL_JOIN = " · "
PANEL_COLOURS = ["#4c72b0", "#dd8452", "#c44e52", "#55a868"]  # wall, first batch, first batches total, steps/s


def _panel(title: str, labels: list[tuple[str, str]], values: list[float | None], colour: str) -> str:
    """One horizontal bar chart: a bar per (label, full label), scaled to the largest, its number beside it."""
    label_w = 16 + 7 * max((len(short) for short, _ in labels), default=4)
    width, height = label_w + BAR_W + NUMBER_W, TOP + ROW_H * len(labels) + 4
    top = max((v for v in values if v is not None), default=0.0)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img" '
        f'aria-label="{escape(title)}">',
        f'<text x="{label_w}" y="14" font-size="12" font-weight="600">{escape(title)}</text>',
    ]
    for i, ((label, full), value) in enumerate(zip(labels, values)):
        y = TOP + i * ROW_H
        parts.append(
            f'<text x="{label_w - 6}" y="{y + 14}" font-size="12" text-anchor="end">{escape(label)}'
            f"<title>{escape(full)}</title></text>"
        )
        if value is None:
            parts.append(f'<text x="{label_w + 4}" y="{y + 14}" font-size="12" fill="#999">—</text>')
            continue
        bar = BAR_W * value / top if top > 0 else 0.0
        parts.append(
            f'<rect x="{label_w}" y="{y + 3}" width="{bar:.1f}" height="{ROW_H - 6}" fill="{colour}">'
            f"<title>{escape(full)}: {value:.3g}</title></rect>"
        )
        parts.append(f'<text x="{label_w + bar + 4:.1f}" y="{y + 14}" font-size="12">{value:.3g}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _block(title: str, groups: dict, keys: list, labels: list[tuple[str, str]], shown: list[int]) -> str:
    """The shown panels (indices into SPEED_FIELDS) for these groups of runs; "" when no passing run among
    them reports a figure."""
    medians = {i: [median_of(groups[k], SPEED_FIELDS[i]) for k in keys] for i in shown}
    if not any(m is not None for column in medians.values() for m in column):
        return ""
    panels = "".join(_panel(SPEED_HEADERS[i], labels, medians[i], PANEL_COLOURS[i]) for i in shown)
    return f'<div class="chart"><h3>{escape(title)}</h3>{panels}</div>'


def _by_cell(rows: list[dict], axes: list[str], orders: dict, shown: list[int]) -> str:
    """One bar per cell (the varying axes' values), in the matrix's order: where a combination stands out."""
    groups: dict = defaultdict(list)
    for row in rows:
        groups[tuple(value_of(row, a) for a in axes)].append(row)
    if len(axes) < 2 or len(groups) > MAX_CELLS:
        return ""
    keys = sorted(groups, key=lambda k: [orders[a].index(v) for a, v in zip(axes, k)])
    spelled = [[value_label(v) for v in orders[a]] for a in axes]
    widths = widths_for([max(map(len, s)) for s in spelled], CELL_LABEL_CHARS, len(CELL_JOIN))
    widths = [max(w, CELL_PART_CHARS) for w in widths]
    short = [dict(zip(orders[a], tell_apart(s, w))) for a, s, w in zip(axes, spelled, widths)]
    labels = [
        (CELL_JOIN.join(short[i][v] for i, v in enumerate(k)), CELL_JOIN.join(value_label(v) for v in k)) for k in keys
    ]
    return _block("each cell: " + CELL_JOIN.join(axes), groups, keys, labels, shown)


def speed_chart(rows: list[dict], value_columns: list[str], listed: Mapping[str, list]) -> list[str]:
    """The chart section of report.html; [] when no passing run reports a speed figure. A panel no passing
    run has a figure for is left out: a program without a DataLoader has wall times only, and four panels
    of which three are all "—" say nothing. listed: each axis's values in the matrix's order
    (FinishedRun.listed)."""
    shown = speeds_shown(rows)
    axes = varying_axes(rows, value_columns)
    orders = value_orders({a: [value_of(r, a) for r in rows] for a in axes}, listed)
    blocks = []
    for axis in axes:
        groups: dict = defaultdict(list)
        for row in rows:
            groups[value_of(row, axis)].append(row)
        spelled = [value_label(v) for v in orders[axis]]
        labels = list(zip(tell_apart(spelled, LABEL_CHARS), spelled))
        blocks.append(_block(axis, groups, orders[axis], labels, shown))
    blocks.append(_by_cell(rows, axes, orders, shown))
    blocks = [b for b in blocks if b]
    if not blocks:
        return []
    return [
        "<h2>Time and speed by axis value and by cell</h2>",
        f'<p class="muted">{escape(speed_note(shown), quote=False)}</p>',
        *blocks,
    ]
