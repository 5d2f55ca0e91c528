"""report.html's hedging: what the failing cells have in common (explain's sentences, their counts,
the conjunctions the data fit as well, the next command), the pairwise caveat, and the grid's caption
when a square may be a coincidence of pairwise sampling. summary.md says the same in Markdown.
"""

from __future__ import annotations

import re
from html import escape

from crashmatrix.answers import explain, findings
from crashmatrix.answers.slow import Slow
from crashmatrix.outcome import counts_as_failing, is_pass
from crashmatrix.rundir.finished_run import FinishedRun
from crashmatrix.text import shown_path

PAIRWISE_CAVEAT = (
    "Pairwise covers every pair of values, not every combination: a pattern above may need more axes "
    "than it names. The line <em>axes that matter</em> says what to run next."
)


class Explained:
    """explain's view of one run directory, read once for both the section and the grid's caption."""

    def __init__(self, run: FinishedRun):
        rows, value_columns, run_dir = list(run.rows), list(run.answer_axes), run.directory
        # No matrix.yaml (a bare results.csv): nothing says every combination ran, so hedge.
        self.pairwise = run.strategy != "full"
        self.keyed = run.keyed
        self.failing = any(counts_as_failing(r.get("outcome", "")) for r in rows)
        self.patterns = explain.explain(rows, value_columns) if self.failing else []
        self.lines = (
            explain.render_lines(
                self.patterns,
                value_columns,
                rows,
                full_run=not self.pairwise,
                run=shown_path(run_dir),
                keyed=self.keyed,
                fingerprints=run.node_fingerprints,
            )
            if self.failing
            else []
        )
        self.named = set(explain.axes_that_matter(self.patterns, value_columns))
        self.findings = findings.beyond_failure(rows, value_columns, run_dir, shown=shown_path(run_dir))
        self.slow = [f for f in self.findings if isinstance(f, Slow) and f.sure]  # the grid marks them


def with_code(text: str) -> str:
    """Escape a line and set its `backticked` commands as code, as Markdown shows them."""
    parts = re.split(r"`([^`]*)`", text)
    return "".join(f"<code>{escape(p)}</code>" if i % 2 else escape(p) for i, p in enumerate(parts))


def explain_section(seen: Explained) -> list[str]:
    """The section 'What the failing cells have in common', or nothing when no cell failed."""
    if not seen.failing:
        return []
    items = [f"<li>{with_code(line)}</li>" for line in seen.lines]
    parts = ["<h2>What the failing cells have in common</h2>", "<ul>", *items, "</ul>"]
    if seen.pairwise:
        parts.append(f'<p class="caveat">{PAIRWISE_CAVEAT}</p>')
    return parts


def grid_caption(seen: Explained, grid_axes: list[str], solid: list[str]) -> str:
    """Under the grid of a pairwise run: its squares hold only the cells pairwise chose.

    solid: the squares where every run failed, spelt `axis=value, axis=value: n cells`.
    """
    if not (seen.pairwise and seen.failing):
        return ""
    here = f" (here: {'; '.join(solid)})" if solid else ""
    text = (
        "This run is pairwise: each square holds only the cells pairwise chose, so a square where every "
        f"cell failed{here} may be a coincidence of that sampling, not a cause."
    )
    unnamed = [a for a in grid_axes if a not in seen.named]
    if unnamed:
        names = " and ".join(unnamed)
        verb = "is" if len(unnamed) == 1 else "are"
        text += f" {names} {verb} named by no pattern above: read its squares with that in mind."
    return f'<p class="caveat">{escape(text)}</p>'


def findings_section(seen: Explained) -> list[str]:
    """The section "Findings beyond failure" (explain.findings), after the failure explanations."""
    if not seen.findings:
        return []
    return [
        "<h2>Findings beyond failure</h2>",
        "<ul>",
        *(f"<li>{with_code(f.text())}</li>" for f in seen.findings),
        "</ul>",
    ]


def slow_mark(seen: Explained, group: list[dict]) -> str:
    """A grid square's mark when it holds the passing runs of a slow conjunction: `slow 4.9×`; "" else."""
    for finding in seen.slow:
        if any(is_pass(str(r.get("outcome"))) and finding.holds(r) for r in group):
            return f"slow {finding.ratio:.1f}×"
    return ""


def slow_caption(seen: Explained, grid_axes: list[str]) -> str:
    """Under the grid: what its dashed squares mean, and a slow conjunction the grid's axes cannot show."""
    if not seen.slow:
        return ""
    parts = []
    for f in seen.slow:
        hidden = [a for a, _ in f.conditions if a not in grid_axes]
        tail = f" (and {', '.join(hidden)}, which the grid does not show)" if hidden else ""
        parts.append(f"{f.when()}: {f.ratio:.1f}× the median wall time{tail}")
    return f'<p class="muted">Dashed: the slow cells, {escape("; ".join(parts))}.</p>'
