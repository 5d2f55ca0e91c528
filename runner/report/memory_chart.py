"""report.html's charts for the findings beyond failure: memory over the steps of a growing cell beside a flat
one, and the start-up timeline of a slow cell beside a fast one (issue 50, item 3), as inline SVG (no script,
no network).

Memory: one chart per growth finding (at most MAX_CHARTS), from the samples result.json keeps
(runner/incell/memory_sampler.py): the grown measure (the main process's RSS, the loader workers' summed RSS,
torch's allocated CUDA memory) of its fastest-growing run, and the same measure of the flat run nearest to it
(the one that differs in the fewest axis values), on one MB scale: growth reads against what staying flat
looks like. The title is the figure's caption, HTML that wraps, never SVG text a long title runs out of.

Start-up: for a slow finding whose runs tell their loader passes (`metrics.loader.timeline`), one row per
pass from its start (the iterator made, the workers started) to its first batch and on to its last, for its
slowest run and for the nearest fast cell's (the fewest axis values apart, then the fastest), on one time scale.
"""

from __future__ import annotations

from html import escape

from crashmatrix.answers import growth
from crashmatrix.answers.slow import Slow
from crashmatrix.answers.slow_why import loader_of
from crashmatrix.cell import spell
from crashmatrix.outcome import Outcome
from crashmatrix.rundir.finished_run import FinishedRun

MAX_CHARTS = 6
W, H, LEFT, BOTTOM, TOP = 560, 180, 64, 24, 10
COLUMN = {"main": "main_mb", "workers": "workers_mb", "tree": "main_mb", "gpu": "gpu_allocated_mb"}
GROWING, FLAT = "#c44e52", "#4c72b0"
START, STEADY = "#dd8452", "#4c72b0"


def _points(steps: list, values: list) -> list[tuple[float, float]]:
    return [(float(x), float(y)) for x, y in zip(steps, values) if isinstance(y, (int, float))]


def line_chart(title: str, series: list[tuple[str, str, list[tuple[float, float]]]]) -> str:
    """A figure: its caption, then one SVG with each (label, colour, points) as a line over the steps, on
    one scale from the least value to the largest (from 0, a few MB a step on a 700 MB process read flat)."""
    series = [s for s in series if s[2]]
    if not series:
        return ""
    last = max(x for _, _, pts in series for x, _ in pts) or 1.0
    top = max(y for _, _, pts in series for _, y in pts)
    low = min(y for _, _, pts in series for _, y in pts)
    low = max(0.0, low - 0.05 * (top - low))
    span = (top - low) or 1.0
    plot_w, plot_h = W - LEFT - 10, H - TOP - BOTTOM

    def xy(x: float, y: float) -> str:
        return f"{LEFT + plot_w * x / last:.1f},{TOP + plot_h * (1 - (y - low) / span):.1f}"

    parts = [
        f'<figure class="chart"><figcaption>{escape(title)}</figcaption>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H + 16 * len(series)}" role="img" '
        f'aria-label="{escape(title)}">',
        f'<line x1="{LEFT}" y1="{TOP + plot_h}" x2="{LEFT + plot_w}" y2="{TOP + plot_h}" stroke="#999"/>',
        f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{TOP + plot_h}" stroke="#999"/>',
        f'<text x="{LEFT - 4}" y="{TOP + 10}" font-size="11" text-anchor="end">{top:.0f} MB</text>',
        f'<text x="{LEFT - 4}" y="{TOP + plot_h}" font-size="11" text-anchor="end">{low:.0f} MB</text>',
        f'<text x="{LEFT + plot_w}" y="{TOP + plot_h + 16}" font-size="11" text-anchor="end">step {last:.0f}</text>',
    ]
    for i, (label, colour, pts) in enumerate(series):
        path = " ".join(xy(x, y) for x, y in pts)
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="1.5" points="{path}"/>')
        parts.append(f'<text x="{LEFT}" y="{H + 12 + 16 * i}" font-size="11" fill="{colour}">{escape(label)}</text>')
    parts.append("</svg></figure>")
    return "".join(parts)


def _values(row, axes: list[str]) -> str:
    return " ".join(f"{a}={spell(row.get(a, ''))}" for a in axes)


def _differ(a, b, axes: list[str]) -> int:
    return sum(spell(a.get(x, "")) != spell(b.get(x, "")) for x in axes)


def _memory_chart(run: FinishedRun, found: growth.Growth, rows: list, axes: list[str]) -> str:
    column = COLUMN[found.measure]
    grown = [r for r in rows if r.get("cell_id") in found.cells]
    flat = [r for r in rows if r.get("cell_id") not in found.cells and not growth.run_growth(r, run.directory)]
    if not grown:
        return ""
    row = next((r for r in grown if r.get("cell_id") == found.cells[0]), grown[0])
    memory = growth.cell_memory(run.directory, row) or {}
    series = [(f"{_values(row, axes)} (grows)", GROWING, _points(memory.get("step") or [], memory.get(column) or []))]
    for other in sorted(flat, key=lambda r: _differ(r, row, axes)):
        theirs = growth.cell_memory(run.directory, other) or {}
        points = _points(theirs.get("step") or [], theirs.get(column) or [])
        if points:
            series.append((f"{_values(other, axes)} (flat)", FLAT, points))
            break
    what = {"main": "main process RSS", "workers": "loader workers' RSS", "tree": "RSS", "gpu": "CUDA allocated"}
    return line_chart(f"{what[found.measure]}: {found.text()}", series)


def growth_section(run: FinishedRun) -> list[str]:
    """A chart per growth finding, the growing run beside a flat one (their findings are in the section of
    every finding beyond failure, html_explain.findings_section); [] where no memory grows."""
    rows, axes = list(run.rows), list(run.answer_axes)
    charts = [
        c for g in growth.findings(rows, axes, run.directory)[:MAX_CHARTS] if (c := _memory_chart(run, g, rows, axes))
    ]
    if not charts:
        return []
    return ["<h3>Memory over the steps: growing beside flat</h3>", '<div class="charts">', *charts, "</div>"]


# ------------------------------------------------------------------------------------------ start-up


def timeline_chart(title: str, passes: list, longest: float) -> str:
    """One run's passes as rows: start to first batch (the workers starting), first to last batch."""
    if not passes:
        return ""
    row_h, plot_w = 14, W - LEFT - 10
    height = TOP + row_h * len(passes) + 30

    def x(t: float) -> float:
        return LEFT + plot_w * t / longest

    parts = [
        f'<figure class="chart"><figcaption>{escape(title)}</figcaption>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{height}" role="img" aria-label="{escape(title)}">',
    ]
    for i, (start, first, last, started) in enumerate(passes):
        y = TOP + row_h * i
        parts.append(f'<text x="{LEFT - 4}" y="{y + 10}" font-size="10" text-anchor="end">pass {i + 1}</text>')
        parts.append(
            f'<rect x="{x(start):.1f}" y="{y}" width="{max(1.0, x(start + first) - x(start)):.1f}" height="10" '
            f'fill="{START}"><title>{first:.2f} s to the first batch; {started} workers started</title></rect>'
        )
        parts.append(
            f'<rect x="{x(start + first):.1f}" y="{y}" width="{max(0.5, x(start + last) - x(start + first)):.1f}" '
            f'height="10" fill="{STEADY}"/>'
        )
        if started:  # after the bar, or before it where the bar ends at the right edge
            at, anchor = (x(start + last) + 3, "start") if x(start + last) < W - 30 else (x(start) - 3, "end")
            parts.append(
                f'<text x="{at:.1f}" y="{y + 9}" font-size="9" fill="#333" text-anchor="{anchor}">{started}w</text>'
            )
    base = TOP + row_h * len(passes) + 4
    parts.append(f'<line x1="{LEFT}" y1="{base}" x2="{LEFT + plot_w}" y2="{base}" stroke="#999"/>')
    parts.append(f'<text x="{LEFT}" y="{base + 14}" font-size="10">0 s</text>')
    parts.append(f'<text x="{LEFT + plot_w}" y="{base + 14}" font-size="10" text-anchor="end">{longest:.1f} s</text>')
    parts.append(
        f'<text x="{LEFT + 40}" y="{base + 14}" font-size="10" fill="{START}">to the first batch (workers starting)</text>'
    )
    parts.append(f'<text x="{LEFT + 260}" y="{base + 14}" font-size="10" fill="{STEADY}">first to last batch</text>')
    parts.append("</svg></figure>")
    return "".join(parts)


def _timeline(run: FinishedRun, row) -> list:
    """The run's passes in the order they started (every loader's: train, validation, test interleave)."""
    return sorted(((loader_of(run.directory, row) or {}).get("timeline")) or [])


def _wall(row) -> float:
    try:
        return float(row.get("duration_s") or 0)
    except ValueError:
        return 0.0


def startup_section(run: FinishedRun, found: list) -> list[str]:
    """For each slow finding: its slowest run's passes beside the nearest fast cell's, on one time scale."""
    rows, axes = [r for r in run.rows if r.get("outcome") == Outcome.PASS.value], list(run.answer_axes)
    charts = []
    for slow in [f for f in found if isinstance(f, Slow)][:MAX_CHARTS]:
        mine = sorted((r for r in rows if slow.holds(r) and _timeline(run, r)), key=_wall)
        theirs = sorted((r for r in rows if not slow.holds(r) and _timeline(run, r)), key=_wall)
        if not mine or not theirs:
            continue
        # the fast run nearest the slow one (the fewest axis values apart, one that starts workers as the slow
        # one does, then the fastest): the same loaders under the change that makes them fast (fork for spawn),
        # not a cell with no workers to start
        nearest = min(
            theirs,
            key=lambda r: (_differ(r, mine[-1], axes), not any(p[3] for p in _timeline(run, r)), _wall(r)),
        )
        pair = [(mine[-1], "slow"), (nearest, "fast")]
        lines = {id(r): _timeline(run, r) for r, _ in pair}
        longest = max(p[0] + p[2] for r, _ in pair for p in lines[id(r)]) or 1.0
        for r, kind in pair:
            title = f"{kind}: {_values(r, axes)}, {_wall(r):.1f} s wall"
            charts.append(timeline_chart(title, lines[id(r)], longest))
    if not charts:
        return []
    return ["<h3>Loader passes: the slow cell beside a fast one</h3>", '<div class="charts">', *charts, "</div>"]
