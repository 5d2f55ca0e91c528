"""Findings beyond failure, from one finished table: cells much slower than the rest (crashmatrix.answers.slow,
through explain's search) and memory that grows step after step (crashmatrix.answers.growth).

One list for every place that says them (explain, summary.md, report.html, JUnit, resolve), so that each
says both. Each finding has `conditions`, `text()` and `to_json()`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from crashmatrix.answers import explain, growth


def beyond_failure(
    rows: Iterable[Mapping[str, object]], axes: Sequence[str], run_dir: str | None = None, shown: str | None = None
) -> list:
    """Slow conjunctions, then growing ones. run_dir: where the cells' memory samples are; shown: the run
    directory as the user gave it, for advice."""
    rows = list(rows)
    return [*explain.findings(rows, axes, run=shown, run_dir=run_dir), *growth.findings(rows, axes, run_dir)]
