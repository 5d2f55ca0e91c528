"""report.html's "Findings beyond failure" for memory: growth's lines, and a chart of memory over the steps
for each cell whose memory grows, as inline SVG (no script, no network).

One small line chart per growing run (at most MAX_CHARTS), from the samples its result.json keeps
(runner/incell/memory_sampler.py): the main process's RSS, the loader workers' summed RSS, and torch's
allocated CUDA memory where the cell used a GPU, each a line over the steps, on one MB scale.
"""

from __future__ import annotations

from html import escape

from crashmatrix.answers import growth
from crashmatrix.cell import spell
from crashmatrix.rundir.finished_run import FinishedRun

MAX_CHARTS = 6
W, H, LEFT, BOTTOM, TOP = 420, 170, 56, 24, 22
LINES = (  # sample column, legend, colour
    ("main_mb", "main process RSS", "#4c72b0"),
    ("workers_mb", "loader workers' RSS", "#dd8452"),
    ("gpu_allocated_mb", "CUDA allocated", "#c44e52"),
)


def _points(steps: list, values: list) -> list[tuple[float, float]]:
    return [(float(x), float(y)) for x, y in zip(steps, values) if isinstance(y, (int, float))]


def line_chart(title: str, memory: dict) -> str:
    """One SVG: each of LINES that has samples, over the steps, scaled to the largest value."""
    steps = memory.get("step") or []
    series = [(label, colour, _points(steps, memory.get(key) or [])) for key, label, colour in LINES]
    series = [s for s in series if s[2]]
    if not series or not steps:
        return ""
    last = max(float(s) for s in steps) or 1.0
    top = max(y for _, _, pts in series for _, y in pts) or 1.0
    plot_w, plot_h = W - LEFT - 10, H - TOP - BOTTOM

    def xy(x: float, y: float) -> str:
        return f"{LEFT + plot_w * x / last:.1f},{TOP + plot_h * (1 - y / top):.1f}"

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H + 16 * len(series)}" role="img" '
        f'aria-label="{escape(title)}">',
        f'<text x="{LEFT}" y="14" font-size="12" font-weight="600">{escape(title)}</text>',
        f'<line x1="{LEFT}" y1="{TOP + plot_h}" x2="{LEFT + plot_w}" y2="{TOP + plot_h}" stroke="#999"/>',
        f'<text x="{LEFT - 4}" y="{TOP + 10}" font-size="11" text-anchor="end">{top:.0f} MB</text>',
        f'<text x="{LEFT - 4}" y="{TOP + plot_h}" font-size="11" text-anchor="end">0</text>',
        f'<text x="{LEFT + plot_w}" y="{TOP + plot_h + 16}" font-size="11" text-anchor="end">step {last:.0f}</text>',
    ]
    for i, (label, colour, pts) in enumerate(series):
        path = " ".join(xy(x, y) for x, y in pts)
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="1.5" points="{path}"/>')
        parts.append(f'<text x="{LEFT}" y="{H + 12 + 16 * i}" font-size="11" fill="{colour}">{escape(label)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def growth_section(run: FinishedRun) -> list[str]:
    """The charts of memory over the steps of the growing runs (their findings are in the section of every
    finding beyond failure, html_explain.findings_section); [] where no memory grows."""
    rows, axes = list(run.rows), list(run.answer_axes)
    charts: list[str] = []
    for row in rows:
        grew = growth.run_growth(row, run.directory)
        memory = growth.cell_memory(run.directory, row) if grew else None
        if memory and len(charts) < MAX_CHARTS:
            values = " ".join(f"{a}={spell(row.get(a, ''))}" for a in axes)
            chart = line_chart(f"{row['cell_id']} r{row['repeat']} {values}: {grew}", memory)
            charts += [chart] if chart else []
    if not charts:
        return []
    return ["<h3>Memory over the steps of the growing cells</h3>", '<div class="charts">', *charts, "</div>"]
