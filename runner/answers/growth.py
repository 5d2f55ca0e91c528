"""Memory that grows step after step: a finding beyond failure (issue 38), whether the cells failed or not.

A cell's memory was sampled over its steps (runner/incell/memory_sampler.py): results.csv has the
process tree's slope (`rss_growth_mb_per_step`) and torch's allocated CUDA memory's
(`gpu_growth_mb_per_step`); result.json has each process's (`metrics.memory`: the main process's and
the loader workers' apart). A run grows in a measure when its slope is positive and over the run it
adds at least GROWN_MB (a slope times the steps it ran): a leak of 0.1 MB a step over 10 000 steps
counts, a slope of noise over 20 steps does not; and, where its samples are kept, when it still grows
in the later half of its steps at half that slope or more: an allocator's heap that climbs for a hundred
steps and levels off is not growth step after step.

Which values the growing cells share and the flat ones do not is explain's search, over the same cells:
each measure (main process, loader workers, GPU; the tree where result.json is gone) is a kind, its
growing runs the "failing" ones and its flat runs the "passing" ones, so a loop that keeps its outputs
and a dataset that grows in the workers come out as two findings, each naming its values and process.
A growing run that failed (`oom`, or `crash SIGKILL` from the kernel's OOM killer) says so: that is how
its memory got there.
"""

from __future__ import annotations

import json
import os
import statistics
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from crashmatrix.answers import explain
from crashmatrix.answers.kept import Kept, kept_of
from crashmatrix.cell import spell
from crashmatrix.incell.memory_sampler import later_growth
from crashmatrix.outcome import FailureKind, Outcome

GROWN_MB = 50.0  # what a run must add over its steps for its slope to be growth, not noise

# measure -> (what the text names, where its slope is read)
MEASURES = {
    "main": ("main process", "main_growth_mb_per_step"),
    "workers": ("loader workers", "workers_growth_mb_per_step"),
    "tree": ("process tree", "rss_growth_mb_per_step"),
    "gpu": ("torch's allocated CUDA memory", "gpu_growth_mb_per_step"),
}
_KIND = "memory_growth"


@dataclass(frozen=True)
class Growth:
    """Cells whose memory of one measure grows where `conditions` hold, and no flat cell's does."""

    conditions: tuple[tuple[str, str], ...]  # (axis, value), in the matrix's axis order
    measure: str  # a key of MEASURES
    mb_per_step: float  # the median slope of the matched growing runs
    growing: int  # growing cells matched
    matching: int  # cells matched
    ended: tuple[tuple[str, int], ...] = ()  # how matched growing runs failed (`oom`, `crash SIGKILL`), and how many
    runs: int = 0  # matched growing runs
    cells: tuple[str, ...] = field(default=(), compare=False)  # the growing cells' ids, most growing first
    kept: Kept | None = field(default=None, compare=False)  # what it keeps, where its instrumented rerun told

    def text(self) -> str:
        """`memory grows 21 MB a step when cache_preds=true (main process; 2 of 2 cells)`."""
        what = "GPU memory" if self.measure == "gpu" else "memory"
        where = " and ".join(f"{a}={v}" for a, v in self.conditions) if self.conditions else ""
        when = f"when {where}" if where else "in every cell"
        line = (
            f"{what} grows {_mb(self.mb_per_step)} a step {when} "
            f"({MEASURES[self.measure][0]}; {self.growing} of {self.matching} cells)"
        )
        for kind, n in self.ended:  # how memory grew to a failure: an OOM, the kernel's SIGKILL
            line += f"; {n} of {self.runs} runs grew to {kind}"
        if self.kept is not None:
            line += f": {self.kept.text()}"
        return line

    def to_json(self) -> dict:
        return {
            "finding": _KIND,
            "conditions": dict(self.conditions),
            "measure": self.measure,
            "process": MEASURES[self.measure][0],
            "mb_per_step": self.mb_per_step,
            "growing": self.growing,
            "matching": self.matching,
            "ended": dict(self.ended),
            "kept": self.kept.to_json() if self.kept else None,
            "text": self.text(),
        }


def _mb(value: float) -> str:
    if value >= 1024:
        return f"{value / 1024:.1f} GB"
    if value >= 10:
        return f"{value:.0f} MB"
    return f"{value:.1f} MB" if value >= 0.1 else f"{value:.2f} MB"


def _number(value) -> float | None:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if number == number else None  # NaN: pandas' empty field


def _slopes(row: Mapping, cell_memory: Mapping | None) -> dict[str, float]:
    """measure -> slope of one run: the process split from result.json where kept, else the tree's. A
    measure whose memory levelled off (its later half grew at under half its slope) counts as flat."""
    found = {}
    if cell_memory:
        for measure in ("main", "workers"):
            slope = _number(cell_memory.get(MEASURES[measure][1]))
            if slope is not None:
                found[measure] = _unless_levelled(slope, cell_memory, f"{measure}_mb")
    if not found:
        slope = _number(row.get("rss_growth_mb_per_step"))
        if slope is not None:
            found["tree"] = slope
    gpu = _number(row.get("gpu_growth_mb_per_step"))
    if gpu is not None:
        found["gpu"] = _unless_levelled(gpu, cell_memory, "gpu_allocated_mb") if cell_memory else gpu
    return found


def _unless_levelled(slope: float, memory: Mapping, column: str) -> float:
    try:
        later = later_growth(list(memory["step"]), list(memory[column]))
    except (KeyError, TypeError, ValueError):
        return slope
    return 0.0 if later is not None and slope > 0 and later < slope / 2 else slope


def grows(slope: float, steps: float | None) -> bool:
    """Growth, not noise: positive, and at least GROWN_MB over the steps it ran (a slope alone where the
    steps are unknown, as in a run that died: GROWN_MB in ten steps)."""
    return slope > 0 and slope * (steps if steps else 10) >= GROWN_MB


def cell_memory(run_dir: str | None, row: Mapping) -> dict | None:
    """The run's `metrics.memory` from its result.json; None where there is none."""
    if not run_dir or not row.get("log_dir"):
        return None
    try:
        with open(os.path.join(run_dir, str(row["log_dir"]), "result.json"), encoding="utf-8") as f:
            memory = (json.load(f).get("metrics") or {}).get("memory")
    except (OSError, ValueError, AttributeError):
        return None
    return memory if isinstance(memory, dict) else None


def _last_step(memory: Mapping | None) -> float | None:
    steps = (memory or {}).get("step") or []
    return _number(steps[-1]) if steps else None


def findings(rows: Iterable[Mapping], axes: Sequence[str], run_dir: str | None = None) -> list[Growth]:
    """The conjunctions of values whose cells' memory grows, one measure at a time; run_dir: where each
    row's result.json tells the main process from the loader workers."""
    rows, axes = list(rows), list(axes)
    judged: list[dict] = []  # explain's rows, one per run and measure
    seen: dict[tuple[str, tuple], list[tuple[float, str, str]]] = {}  # (measure, key) -> [(slope, failure, cell)]
    for row in rows:
        memory = cell_memory(run_dir, row)
        steps = _number(row.get("steps")) or _last_step(memory)
        key = tuple(spell(row.get(a, "")) for a in axes)
        for measure, slope in _slopes(row, memory).items():
            growing = grows(slope, steps)
            values = {a: row.get(a, "") for a in axes}
            outcome = (
                {"outcome": Outcome.FAIL.value, "signature": f"{_KIND}:{measure}"}
                if growing
                else {"outcome": Outcome.PASS.value}
            )
            judged.append({**values, **outcome})
            if growing:
                seen.setdefault((measure, key), []).append((slope, _failure(row), str(row.get("cell_id", ""))))
    if not seen:
        return []
    found = [_growth(p, axes, seen, run_dir) for p in explain.explain(judged, axes) if p.signature.startswith(_KIND)]
    return sorted(found, key=lambda g: (-g.growing, list(MEASURES).index(g.measure), len(g.conditions)))


def _failure(row: Mapping) -> str:
    """`oom`, `crash SIGKILL`: how a run failed; "" for one that did not."""
    kind = FailureKind.from_row(row, with_signature=False)
    return kind.label() if kind.is_failure else ""


TRACED = ("main", "tree", "workers")  # the measures whose memory the instrumented rerun's censuses see


def _growth(pattern: explain.Pattern, axes: list[str], seen: dict, run_dir: str | None) -> Growth:
    measure = pattern.signature.split(":", 1)[1]
    wanted = dict(pattern.conditions)
    runs = [
        run
        for (m, key), found in seen.items()
        if m == measure and all(key[axes.index(a)] == v for a, v in wanted.items())
        for run in found
    ]
    # a passing run first (a run that died may not reach a census), the fastest growing of them first
    cells = tuple(dict.fromkeys(cell for _, _, cell in sorted(runs, key=lambda r: (r[1] == "", r[0]), reverse=True)))
    return Growth(
        conditions=pattern.conditions,
        measure=measure,
        mb_per_step=round(statistics.median(slope for slope, _, _ in runs), 2) if runs else 0.0,
        growing=pattern.failing,
        matching=pattern.matching,
        ended=tuple(Counter(kind for _, kind, _ in runs if kind).most_common()),
        runs=len(runs),
        cells=cells,
        kept=kept_of(run_dir, cells, workers=measure == "workers") if measure in TRACED else None,
    )


def finding_lines(rows: Iterable[Mapping], axes: Sequence[str], run_dir: str | None = None) -> list[str]:
    """The lines a person reads under "Findings beyond failure"; [] where nothing grows."""
    return [g.text() for g in findings(rows, axes, run_dir)]


def run_growth(row: Mapping, run_dir: str | None = None) -> str:
    """How one run's memory grew, where it grew (`main process 1.0 MB a step`), for JUnit's property; ""."""
    memory = cell_memory(run_dir, row)
    steps = _number(row.get("steps")) or _last_step(memory)
    grown = [
        f"{MEASURES[m][0]} {_mb(slope)} a step" for m, slope in _slopes(row, memory).items() if grows(slope, steps)
    ]
    return "; ".join(grown)
