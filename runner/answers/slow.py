"""Slow cells explained: the conjunction of axis values whose passing runs are several times slower than
every other cell's, beyond the noise of repeats, and where their time goes (``crashmatrix explain``'s
findings beyond failure).

Pure, over a finished run's rows (results.csv's fields) and axes, as explain reads them:
- A cell's wall time is the median ``duration_s`` of its runs that passed (a run that died early is quick,
  not fast); a cell with no passing run is unknown, as a masked cell is to explain.
- The cells split at the widest gap between consecutive cell medians that leaves at most half the cells
  above it; those are slow when the gap is at least FACTOR, their median at least MIN_SECONDS above the
  others' and, with repeats, every slow run is slower than every other run and the slowdown
  (the ratio of the medians) exceeds the noise: the largest ratio between one cell's slowest and fastest
  repeat. A busy machine's load scales a run's time, so noise is a ratio, not seconds. With one run a cell
  the noise is unknown: a gap of SURE_ALONE or more is still told (a busy machine's jitter does not
  quadruple a run), a smaller one is told as what this run cannot tell, with the command that can.
- The conjunction is explain's: the slow cells are relabelled failing, the others passing, and explain's
  search (passed in as ``separate``, since explain is where findings are gathered) names the smallest
  conjunctions that hold for slow cells and no fast one; one finding per conjunction.
- Where the time goes, from the speed columns (docs/speed.md): ``first_batch_total_s`` (every DataLoader
  pass's wait for its first batch: workers starting, spawn re-importing the main module, workers that do
  not persist starting again each epoch), the steady steps (the passes' time, steps / steps_per_s, less
  those waits) and the start-up (duration_s less the passes: imports, model building, teardown). The part
  whose median grew most against the other cells' is named.
docs/explain.md says why these rules.
"""

from __future__ import annotations

import shlex
import statistics
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from crashmatrix.answers.slow_why import Why, why
from crashmatrix.cell import spell
from crashmatrix.outcome import Outcome, is_pass, is_run_error

FACTOR = 2.0  # the slowest fast cell's median wall time to the fastest slow cell's, at least
MIN_SECONDS = 1.0  # ... and the slow runs' median this much above the others': no one waits on 0.3 s vs 0.8 s
SURE_ALONE = 4.0  # with one run a cell: the gap below which a difference could be a busy machine's noise
_RESOLUTION_S = 0.001  # results.csv's duration_s: a millisecond
REPEATS_TO_TELL = 3  # what the advice asks for when one run a cell cannot tell

START_UP, FIRST_BATCHES, STEADY = "start-up", "first batches", "steady steps"

Conditions = tuple[tuple[str, str], ...]
Separate = Callable[[list[dict], list[str]], Sequence]  # explain.explain: rows, axes -> its Patterns


@dataclass(frozen=True)
class Slow:
    """One conjunction whose cells are slow: its figures, and the line a person reads (text)."""

    conditions: Conditions  # (axis, spelled value), in the matrix's axis order
    ratio: float  # median wall time of its slow runs over the median of every other cell's passing runs
    median_s: float
    others_median_s: float
    slow_runs: int  # passing runs of the cells it holds for
    runs: int  # every run of the cells it holds for (failing ones too)
    runs_per_cell: int  # the most runs any cell has: 1 means no repeats, so no measured noise
    margin_s: float  # its fastest run less the slowest run of any other cell
    noise: float | None  # the largest ratio of one cell's slowest passing run to its fastest; None: no repeats
    sure: bool  # False: one run a cell and a gap below SURE_ALONE, which could be noise
    where: str = ""  # START_UP, FIRST_BATCHES, STEADY, or "" where the speed columns do not tell
    where_s: float = 0.0  # the median seconds of that part in its slow runs
    steps_per_s: tuple[float, float] | None = None  # (its runs', the others') median rate, where measured
    alternatives: tuple[Conditions, ...] = ()  # conjunctions the data fit as well
    command: str = field(default="", compare=False)  # the rerun that can tell, when not sure
    why: Why | None = field(default=None, compare=False)  # what its time is made of (slow_why.py), where told

    def when(self) -> str:
        return " and ".join(f"{a}={v}" for a, v in self.conditions)

    def text(self) -> str:
        """`slow: 4.9× the median wall time when start_method=spawn and num_workers=2 (4 of 4 runs);
        first batches 26 s of its 44 s`."""
        head = f"{self.ratio:.1f}× the median wall time when {self.when()} ({self.slow_runs} of {self.runs} runs"
        if not self.sure:
            tell = f"; rerun with repeats={REPEATS_TO_TELL}" + (f": `{self.command}`" if self.command else "")
            because = f"; {self.why.text}" if self.why is not None else ""
            return f"slow?: {head}); 1 run a cell: a {self.ratio:.1f}× difference could be noise{tell}{because}"
        if self.noise is None:
            noise = "; 1 run a cell, noise not measured"
        else:
            # two digits, except that 1.04 would read `1×`, which says nothing
            spread = f"{self.noise:.2g}" if self.noise >= 1.05 else f"{self.noise:.2f}"
            noise = f", each slower than every other run; repeats vary by up to {spread}×"
        where = self.where_text()
        text = f"slow: {head}{noise})" + (f"; {where}" if where else "")
        if self.why is not None:
            text += f"; {self.why.text}"
        if self.alternatives:
            text += "; the data fit as well: " + "; ".join(
                " and ".join(f"{a}={v}" for a, v in c) for c in self.alternatives
            )
        return text

    def where_text(self) -> str:
        """Where its time goes: `first batches 26 s of its 44 s`; "" where the speed columns do not tell."""
        if not self.where:
            return ""
        text = f"{self.where} {_s(self.where_s)} of its {_s(self.median_s)}"
        if self.where == STEADY and self.steps_per_s:
            text += f" ({_rate(self.steps_per_s[0])} steps/s against {_rate(self.steps_per_s[1])})"
        return text

    def holds(self, row: Mapping) -> bool:
        """Whether a row's cell is one of this conjunction's."""
        return all(spell(row.get(a, "")) == v for a, v in self.conditions)

    def to_json(self) -> dict:
        data = {
            "finding": "slow",
            "conditions": dict(self.conditions),
            "ratio": round(self.ratio, 2),
            "median_s": round(self.median_s, 3),
            "others_median_s": round(self.others_median_s, 3),
            "slow_runs": self.slow_runs,
            "runs": self.runs,
            "runs_per_cell": self.runs_per_cell,
            "margin_s": round(self.margin_s, 3),
            "noise": None if self.noise is None else round(self.noise, 3),
            "sure": self.sure,
            "where": self.where or None,
            "where_s": round(self.where_s, 3) if self.where else None,
            "steps_per_s": list(self.steps_per_s) if self.steps_per_s else None,
            "text": self.text(),
        }
        if self.alternatives:
            data["alternatives"] = [dict(c) for c in self.alternatives]
        if self.why is not None:
            data["why"] = self.why.to_json()
        return data


def _s(seconds: float) -> str:
    """Seconds as a person reads them: 44 s, 2.3 s, 0.41 s."""
    return f"{seconds:.0f} s" if seconds >= 10 else f"{seconds:.2g} s"


def _rate(value: float) -> str:
    return f"{value:.0f}" if value >= 10 else f"{value:.2g}"


def _number(row: Mapping, column: str) -> float | None:
    try:
        value = float(row.get(column) or "")
    except (TypeError, ValueError):
        return None
    return value


@dataclass
class _Timed:
    """The run's cells by their spelled values: every run, and the passing runs that have a wall time."""

    runs: dict[tuple[str, ...], list[Mapping]] = field(default_factory=dict)
    passed: dict[tuple[str, ...], list[Mapping]] = field(default_factory=dict)

    def walls(self, key: tuple[str, ...]) -> list[float]:
        return [w for r in self.passed.get(key, []) if (w := _number(r, "duration_s")) is not None]

    def timed(self) -> list[tuple[str, ...]]:
        return [k for k in self.runs if self.walls(k)]


def _timed(rows: Iterable[Mapping], axes: Sequence[str]) -> _Timed:
    cells = _Timed()
    for row in rows:
        if is_run_error(str(row.get("outcome", ""))):
            continue  # crashmatrix could not run it: nothing about the configuration
        key = tuple(spell(row.get(a, "")) for a in axes)
        cells.runs.setdefault(key, []).append(row)
        if is_pass(str(row.get("outcome", ""))):
            cells.passed.setdefault(key, []).append(row)
    return cells


def _split(cells: _Timed) -> tuple[set, set, float] | None:
    """(slow cells, other timed cells, the gap between them): the widest gap between consecutive cell
    medians with at most half the cells above it, the fewer slow cells where two gaps tie; None under two
    timed cells. More than half above a gap is one fast configuration, which resolve recommends, not slow
    ones to avoid."""
    medians = sorted((statistics.median(cells.walls(k)), k) for k in cells.timed())
    n = len(medians)
    if n < 2:
        return None
    gaps = [(medians[i][0] / max(medians[i - 1][0], 1e-9), i) for i in range(1, n) if n - i <= n // 2]
    gap, at = max(gaps)
    return {k for _, k in medians[at:]}, {k for _, k in medians[:at]}, gap


def find_slow(
    rows: Iterable[Mapping],
    axes: Sequence[str],
    separate: Separate,
    run: str | None = None,
    run_dir: str | None = None,
) -> list[Slow]:
    """The slow conjunctions of a finished run, most slow runs first; [] where no cell stands out.
    separate: explain.explain. run: the run directory as the user gave it, for the rerun command; run_dir:
    where its cells' result.json are, for why (slow_why.py)."""
    rows, axes = list(rows), list(axes)
    cells = _timed(rows, axes)
    split = _split(cells)
    if split is None or split[2] < FACTOR:
        return []
    slow, fast, gap = split
    slow_walls = [w for k in slow for w in cells.walls(k)]
    fast_walls = [w for k in fast for w in cells.walls(k)]
    per_cell = max(len(v) for v in cells.runs.values())
    spreads = [max(w) / max(min(w), 1e-9) for k in cells.timed() if len(w := cells.walls(k)) > 1]
    noise = max(spreads) if spreads else None
    if statistics.median(slow_walls) - statistics.median(fast_walls) < MIN_SECONDS:
        return []
    # a table's wall time can read 0.000 (duration_s has a millisecond's resolution): no division by it
    fast_median = max(statistics.median(fast_walls), _RESOLUTION_S)
    slowdown = statistics.median(slow_walls) / fast_median
    if noise is not None and (min(slow_walls) <= max(fast_walls) or slowdown <= noise):
        return []  # the repeats say the difference is within the noise
    sure = noise is not None or gap >= SURE_ALONE
    command = _rerun(run) if not sure else ""
    relabelled = [_relabel(axes, k, slow, fast) for k in cells.runs]
    found = []
    for pattern in separate(relabelled, axes):
        matched = [k for k in slow if all(k[axes.index(a)] == v for a, v in pattern.conditions)]
        walls = [w for k in matched for w in cells.walls(k)]
        if not walls:
            continue
        figures = _where(_runs(cells, matched), _runs(cells, fast))
        because = why(
            figures.get("where", ""), _runs(cells, matched), _runs(cells, fast), rows, axes, pattern.conditions, run_dir
        )
        found.append(
            Slow(
                conditions=tuple(pattern.conditions),
                ratio=statistics.median(walls) / fast_median,
                median_s=statistics.median(walls),
                others_median_s=statistics.median(fast_walls),
                slow_runs=len(walls),
                runs=sum(len(v) for k, v in cells.runs.items() if _holds(axes, k, pattern.conditions)),
                runs_per_cell=per_cell,
                margin_s=min(walls) - max(fast_walls),
                noise=noise,
                sure=sure,
                alternatives=tuple(tuple(c) for c in pattern.alternatives),
                command=command,
                why=because,
                **figures,
            )
        )
    return found


def _holds(axes: list[str], key: tuple[str, ...], conditions: Conditions) -> bool:
    return all(key[axes.index(a)] == v for a, v in conditions)


def _runs(cells: _Timed, keys: Iterable[tuple[str, ...]]) -> list[Mapping]:
    return [r for k in keys for r in cells.passed.get(k, []) if _number(r, "duration_s") is not None]


def _relabel(axes: list[str], key: tuple[str, ...], slow: set, fast: set) -> dict:
    """A cell as explain reads it: slow as a failure of its own kind, fast as a pass, untimed as unknown."""
    outcome = Outcome.FAIL if key in slow else Outcome.PASS if key in fast else Outcome.SKIP
    return {**dict(zip(axes, key)), "outcome": outcome.value, "signature": "slow" if key in slow else ""}


def _rerun(run: str | None) -> str:
    where = shlex.quote(run) if run is not None else "RUN"
    return f"crashmatrix rerun {where} repeats={REPEATS_TO_TELL}"


def _parts(row: Mapping) -> dict[str, float]:
    """A run's wall time split: start-up, first batches, steady steps (those its speed columns tell)."""
    wall = _number(row, "duration_s") or 0.0
    first = _number(row, "first_batch_total_s")
    steps, rate = _number(row, "steps"), _number(row, "steps_per_s")
    passes = steps / rate if steps and rate else None
    out = {}
    if first is not None:
        out[FIRST_BATCHES] = first
    if passes is not None:
        out[START_UP] = max(0.0, wall - passes)
        if first is not None:
            out[STEADY] = max(0.0, passes - first)
    return out


def _where(slow_runs: list[Mapping], fast_runs: list[Mapping]) -> dict:
    """The part of the wall time that grew most against the other cells' (median over runs), its seconds,
    and the two steps/s medians where both sides measured them; {} where the speed columns do not tell."""
    out: dict = {}
    slow_rates = [r for row in slow_runs if (r := _number(row, "steps_per_s"))]
    fast_rates = [r for row in fast_runs if (r := _number(row, "steps_per_s"))]
    if slow_rates and fast_rates:
        out["steps_per_s"] = (round(statistics.median(slow_rates), 3), round(statistics.median(fast_rates), 3))
    grown = {}
    for part in (START_UP, FIRST_BATCHES, STEADY):
        mine = [p[part] for p in map(_parts, slow_runs) if part in p]
        theirs = [p[part] for p in map(_parts, fast_runs) if part in p]
        if mine and theirs:
            grown[part] = (statistics.median(mine) - statistics.median(theirs), statistics.median(mine))
    if grown:
        part = max(grown, key=lambda p: grown[p][0])
        if grown[part][0] > 0:
            out.update(where=part, where_s=grown[part][1])
    return out
