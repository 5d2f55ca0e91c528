"""Why a slow conjunction is slow, in the program's own terms (issue 50): what its time is made of, measured
in its cells, and the change that removes the cause with what it costs where the run measured it.

The figures are the runs' `metrics.loader` (runner/incell/loader_clock.py): the DataLoader workers each pass
started, their start method, each one's time to its first batch and, for a worker that starts a fresh
interpreter, its imports; the first-batch waits of the passes that started their workers again; the steady
batches' wait for the loader against the program's own work between batches. Two causes are told:

- workers started again and again: `because 6 spawned workers started (2 per pass, 3 passes: not persistent),
  each 7.6 s to its first batch, 4.0 s of it importing torch`; the change: `persistent_workers=true` (workers
  kept: the run's wall time less its restarts' waits, or measured where the run has such cells) and, for
  spawn or forkserver, `start_method=fork` (measured where the run has it);
- a loop that waits for its loader (input-bound) or not (compute-bound), in its steady steps:
  `because the loop waited for its batches 4.1 s of its 4.6 s of steady steps (input-bound: 0.10 s a batch
  waiting, 0.012 s of its own work)`; the change: more loader workers, measured where the run has them, else
  twice as many (2 for none) with the waits shared among them (an estimate `crashmatrix resolve --try` measures).

And one that is no cause: knobs the run's machine ignores (pin_memory without an accelerator, which torch turns
off with a warning and no pinning thread; cuDNN's flags without CUDA), where every run was on the machine
env.json describes: `but pin_memory=true cannot be why: ...`, and resolve does not say to avoid them.

Pure, over rows and the run directory's result.json files.
"""

from __future__ import annotations

import json
import os
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from crashmatrix.cell import spell
from crashmatrix.outcome import Outcome

WORKER_STARTS, INPUT_BOUND, COMPUTE_BOUND, INERT = "worker starts", "input-bound", "compute-bound", "inert knob"
_STARTED = {"spawn": "spawned", "fork": "forked", "forkserver": "forkserver"}
NAMED_IMPORT_SHARE = 0.15  # an import named in the text: at least this share of the worker's imports
INPUT_BOUND_SHARE = 0.5  # the loop waits for its loader over half of its steady steps


@dataclass(frozen=True)
class Remedy:
    """A change that removes the cause: the values to set, and the wall time it would have cost."""

    values: tuple[tuple[str, str], ...]
    duration_s: float | None  # median wall time with it, measured or estimated
    measured: bool  # True: cells of this run that hold it (runs of them); False: estimated from the figures
    runs: int = 0

    def text(self, slow_s: float) -> str:
        change = " and ".join(f"{a}={v}" for a, v in self.values)
        if self.duration_s is None:
            return change
        how = f"measured, {self.runs} run{'s' if self.runs != 1 else ''}" if self.measured else "estimated"
        return f"{change}: {_s(self.duration_s)} against {_s(slow_s)} ({how})"

    def to_json(self) -> dict:
        return {
            "values": dict(self.values),
            "duration_s": None if self.duration_s is None else round(self.duration_s, 3),
            "measured": self.measured,
            "runs": self.runs,
        }


@dataclass(frozen=True)
class Why:
    cause: str  # WORKER_STARTS, INPUT_BOUND, COMPUTE_BOUND
    text: str  # the because-clause
    figures: dict = field(default_factory=dict)
    remedies: tuple[Remedy, ...] = ()

    def to_json(self) -> dict:
        return {
            "cause": self.cause,
            "text": self.text,
            **self.figures,
            "remedies": [r.to_json() for r in self.remedies],
        }


def loader_of(run_dir: str | None, row: Mapping) -> dict | None:
    """A run's `metrics.loader` from its result.json; None where there is none."""
    if not run_dir or not row.get("log_dir"):
        return None
    try:
        with open(os.path.join(run_dir, str(row["log_dir"]), "result.json"), encoding="utf-8") as f:
            loader = (json.load(f).get("metrics") or {}).get("loader")
    except (OSError, ValueError, AttributeError):
        return None
    return loader if isinstance(loader, dict) else None


def _s(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds >= 10 else f"{seconds:.2g} s"


def _median(values: list) -> float | None:
    values = [v for v in values if isinstance(v, (int, float))]
    return statistics.median(values) if values else None


def _wall(row: Mapping) -> float | None:
    try:
        return float(row.get("duration_s") or "")
    except (TypeError, ValueError):
        return None


def why(
    where: str,
    slow_runs: Sequence[Mapping],
    fast_runs: Sequence[Mapping],
    rows: Sequence[Mapping],
    axes: Sequence[str],
    conditions: tuple[tuple[str, str], ...],
    run_dir: str | None,
) -> Why | None:
    """The because-clause of a slow conjunction's finding; None where its runs' figures do not tell.
    where: the part of the wall time that grew most (crashmatrix.answers.slow)."""
    idle = inert_knobs(conditions, slow_runs, run_dir)
    if idle and len(idle) == len(conditions):
        return _inert(idle)
    mine = _slowest_cell([(r, f) for r in slow_runs if (f := loader_of(run_dir, r))])
    if not mine:
        return None
    started = _median([f.get("workers_started") for _, f in mine])
    if where in ("first batches", "start-up") and started:
        return _worker_starts(mine, rows, axes, conditions)
    if where == "steady steps":
        theirs = [f for r in fast_runs if (f := loader_of(run_dir, r))]
        return _steady(mine, theirs, rows, axes, conditions)
    return None


def machine_of(run_dir: str | None) -> dict:
    """The run's env.json (the controller's machine); {} where there is none."""
    try:
        with open(os.path.join(run_dir or "", "env.json"), encoding="utf-8") as f:
            found = json.load(f)
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def inert_reason(axis: str, machine: Mapping) -> str:
    """Why a knob cannot change a run on this machine, whatever its value; "" where it can, or where the
    machine's fingerprint does not say (no torch fact, a GPU)."""
    if not machine.get("torch") or machine.get("cuda_available") is not False:
        return ""
    if axis == "pin_memory":  # torch's DataLoader: `pin_memory and torch.accelerator.is_available()`
        return (
            "torch finds no accelerator here, so it turns pin_memory off (with a warning) and starts no pinning thread"
        )
    if axis.startswith("cudnn."):
        return "cuDNN runs only on a CUDA device, and this machine has none"
    return ""


def inert_knobs(conditions, runs: Sequence[Mapping], run_dir: str | None) -> list[tuple[str, str, str]]:
    """(axis, value, why) of each condition that cannot change these runs: knobs their machine ignores.
    Only where every run was on the machine env.json describes (a fleet's or a cluster's nodes differ)."""
    machine = machine_of(run_dir)
    if not machine or any(str(r.get("host") or machine.get("host")) != str(machine.get("host")) for r in runs):
        return []
    return [(a, v, why) for a, v in conditions if (why := inert_reason(a, machine))]


def _inert(idle: list[tuple[str, str, str]]) -> Why:
    """A slow conjunction of knobs the machine ignores: its cells ran the same program as the others, so
    their time is not the knobs' doing."""
    named = " and ".join(f"{a}={v}" for a, v, _ in idle)
    reasons = "; ".join(dict.fromkeys(why for _, _, why in idle))
    text = (
        f"but {named} cannot be why: {reasons}. These cells ran as the others did; their time is something "
        "else's (a machine busy with other work, caches cold for the first cells) or noise"
    )
    return Why(INERT, text, {"inert": [a for a, _, _ in idle]})


def _slowest_cell(runs: list) -> list:
    """The runs of the slowest cell among them: cells of one conjunction can differ in what makes them slow
    (workers kept alive or not), and a median over both describes neither."""
    cells: dict[str, list] = {}
    for row, figures in runs:
        cells.setdefault(str(row.get("cell_id", "")), []).append((row, figures))
    if not cells:
        return []
    return max(cells.values(), key=lambda c: _median([_wall(r) for r, _ in c]) or 0.0)


def _worker_starts(mine, rows, axes, conditions) -> Why:
    figures = [f for _, f in mine]
    started = round(_median([f.get("workers_started") for f in figures]) or 0)
    passes = round(_median([f.get("starting_passes") for f in figures]) or 0)
    loaders = round(_median([f.get("starting_loaders") or 1 for f in figures]) or 1)
    methods = sorted({m for f in figures for m in f.get("methods") or []})
    persistent = any(f.get("persistent") for f in figures)
    each = _median([f.get("worker_first_batch_s") for f in figures])
    imports = _median([f.get("worker_import_s") for f in figures])
    names: dict[str, list[float]] = {}
    for f in figures:
        for name, s in (f.get("worker_imports") or {}).items():
            names.setdefault(name, []).append(float(s))
    ranked = sorted(((statistics.median(v), k) for k, v in names.items() if "(" not in k), reverse=True)
    named = [k for s, k in ranked if imports and s >= NAMED_IMPORT_SHARE * imports][:3]
    within = {k.split(" ", 1)[0]: statistics.median(v) for k, v in names.items() if k.endswith("(within)")}
    method = "/".join(_STARTED.get(m, m) for m in methods) if methods else "loader"
    per_pass = started / passes if passes else started
    text = f"because {started} {method} workers started"
    of = f" of {loaders} loaders" if loaders > 1 else ""
    if persistent:  # once per loader: train, validation and test loaders each start their own
        text += (
            f" ({started / max(1, loaders):.0f} per loader, {loaders} loader{'s' if loaders > 1 else ''}: persistent)"
        )
    elif passes > 1:
        text += f" ({per_pass:.0f} per pass, {passes} passes{of}: not persistent)"
    if each is not None:
        text += f", each {_s(each)} to its first batch"
        if imports:
            what = " and ".join(named) if named else "its libraries"
            text += f", {_s(imports)} of it importing {what}"
            inner = [f"{k} {_s(v)}" for k, v in within.items() if k not in named and v >= NAMED_IMPORT_SHARE * imports]
            if inner:
                text += f" ({', '.join(inner)} of that)"
    slow_s = _median([_wall(r) for r, _ in mine]) or 0.0
    remedies = []
    if not persistent and passes > loaders:
        kept_s = _median([w - float(f.get("restart_s") or 0.0) for r, f in mine if (w := _wall(r)) is not None])
        remedies.append(_measured(rows, axes, conditions, "persistent_workers", "true", kept_s))
    if any(m in ("spawn", "forkserver") for m in methods):
        remedies.append(_measured(rows, axes, conditions, "start_method", "fork", None))
    data = {
        "workers_started": started,
        "starting_passes": passes,
        "starting_loaders": loaders,
        "methods": methods,
        "persistent": persistent,
        "worker_first_batch_s": each,
        "worker_import_s": imports,
        "imports_named": named,
        "slow_s": slow_s,
    }
    return Why(WORKER_STARTS, text, data, tuple(r for r in remedies if r is not None))


def _steady(mine, theirs, rows, axes, conditions) -> Why | None:
    figures = [f for _, f in mine]
    wait = _median([f.get("wait_s") for f in figures])
    work = _median([f.get("compute_s") for f in figures])
    batches = _median([f.get("steady_batches") for f in figures])
    if wait is None or work is None or not batches or wait + work <= 0:
        return None
    slow_s = _median([_wall(r) for r, _ in mine]) or 0.0
    a_wait, a_work = wait / batches, work / batches
    data = {"wait_s": wait, "compute_s": work, "steady_batches": batches, "slow_s": slow_s}
    if wait / (wait + work) >= INPUT_BOUND_SHARE:
        text = (
            f"because the loop waited for its batches {_s(wait)} of its {_s(wait + work)} of steady steps "
            f"({INPUT_BOUND}: {_s(a_wait)} a batch waiting for the loader, {_s(a_work)} of its own work)"
        )
        workers = _median([f.get("num_workers") for f in figures])
        remedies = _more_workers(rows, axes, conditions, _kept_waits(slow_s, wait, workers))
        return Why(INPUT_BOUND, text, data, remedies)
    others = [f.get("compute_s", 0) / f["steady_batches"] for f in theirs if f.get("steady_batches")]
    text = (
        f"because its own work between batches took {_s(work)} of its {_s(wait + work)} of steady steps "
        f"({COMPUTE_BOUND}: {_s(a_work)} a batch"
        + (f" against {_s(statistics.median(others))} in the other cells" if others else "")
        + ")"
    )
    return Why(COMPUTE_BOUND, text, data)


def _matching(rows, axes, conditions, axis, value) -> list[Mapping]:
    """Passing runs of this run where the conjunction holds but `axis` is `value`."""
    wanted = {a: v for a, v in conditions if a != axis}
    return [
        r
        for r in rows
        if str(r.get("outcome")) == Outcome.PASS.value
        and spell(r.get(axis, "")) == value
        and all(spell(r.get(a, "")) == v for a, v in wanted.items())
    ]


def _measured(rows, axes, conditions, axis, value, estimate) -> Remedy | None:
    """The change `axis=value`: measured where the run holds such passing cells (the conjunction's other
    values kept), else the estimate; None where neither."""
    if axis in axes:
        walls = [w for r in _matching(rows, axes, conditions, axis, value) if (w := _wall(r)) is not None]
        if walls:
            return Remedy(((axis, value),), statistics.median(walls), True, len(walls))
    if estimate is None:
        return None
    return Remedy(((axis, value),), estimate, False)


def _kept_waits(slow_s: float, wait: float, workers: float | None) -> tuple[str, float] | None:
    """(num_workers, estimated wall time) for an input-bound loop: twice the workers (2 for none) share the
    reads, so the waits shrink by as many times (their start-up and a machine's cores not counted); None
    where the run does not say how many workers it had."""
    if workers is None:
        return None
    more = max(2, 2 * round(workers))
    return str(more), slow_s - wait + wait * max(1, round(workers)) / more


def _more_workers(rows, axes, conditions, estimate: tuple[str, float] | None) -> tuple[Remedy, ...]:
    """The fastest num_workers value above the conjunction's that the run measured; else the estimate."""
    out = []
    if "num_workers" in axes:
        have = dict(conditions).get("num_workers")
        values = sorted({spell(r.get("num_workers", "")) for r in rows}, key=lambda v: (len(v), v))
        for value in values:
            if value == have or (have is not None and _number(value) <= _number(have)):
                continue
            remedy = _measured(rows, axes, conditions, "num_workers", value, None)
            if remedy is not None:
                out.append(remedy)
    if out:
        return tuple(sorted(out, key=lambda r: r.duration_s or 0.0)[:1])
    if estimate is None:
        return (Remedy((("num_workers", "more"),), None, False),)
    return (Remedy((("num_workers", estimate[0]),), estimate[1], False),)


def _number(value: str) -> float:
    try:
        return float(value)
    except ValueError:
        return -1.0
