"""`crashmatrix compare A B [C ...]`: the cells whose outcome differs between runs, the cells that passed in both
and whose wall time moved (crashmatrix.answers.compare_speed), and the machines' differences.

Runs join on `cell_id` (a hash of the cell's axis values, the same on every machine).

When a cell "differs": each run of a cell (one per repeat) has a kind (crashmatrix.outcome.FailureKind:
outcome, signal, signature), e.g. crash SIGSEGV killed_by_signal, fail fd_exhaustion or
pass. A cell differs between runs
when the SETS of kinds observed in each run are not all equal.
So:
  - pass vs crash SIGSEGV differs; crash SIGSEGV vs crash SIGBUS differs;
  - fail fd_exhaustion vs fail missing_main_guard differs: the same outcome word
    for another cause is another failure (the signature is stable over repeats
    and masks pids and temporary names, so it differs only when the cause does);
    when a run's results.csv predates the signature column, every run is compared
    on (outcome, signal) alone, so an old run can still be compared with a new one;
  - 2/2 crash SIGSEGV vs 1/2 crash SIGSEGV + 1/2 pass differs (a new kind, pass);
  - 1/5 crash SIGSEGV + 4/5 pass vs 3/5 crash SIGSEGV + 2/5 pass does NOT differ:
    the same kinds were seen, only their rates moved (flaky either way). The
    rates are still shown for the cells that differ;
  - the error text and the number of repeats never make a cell differ by themselves.
Cells that are not in every run (another axis value in one matrix, a partial
run) are not compared; they are listed apart ("only in B").

Every run must have the same axes (the same value columns in results.csv);
otherwise the comparison is bad input, naming both files and the axes that differ.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import os
import string
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from crashmatrix.answers import set_apart
from crashmatrix.answers.compare_speed import RULE, compare_speed, csv_cells, csv_columns, speed_lines, timings
from crashmatrix.axis_values import value_of, value_orders
from crashmatrix.cell import cell_and_node, spell
from crashmatrix.errors import BadInput
from crashmatrix.machine import pyfacts
from crashmatrix.machine.fingerprint import SUMMARY_FIELDS
from crashmatrix.outcome import FailureKind, counts_as_failing, is_failure, with_rank_note
from crashmatrix.rundir.finished_run import FinishedRun
from crashmatrix.text import shorten, table
from crashmatrix.verdict.signature import signature_class

FORMATS = ("md", "github", "csv", "json")

# Fingerprint fields, as a user names them.
FIELD_NAMES = {
    "host": "host",
    "os": "OS",
    "kernel": "kernel",
    "wsl2": "WSL2",
    "glibc": "glibc",
    "python": "Python",
    "torch": "torch",
    "cuda_runtime": "CUDA",
    "cudnn": "cuDNN",
    "driver": "driver",
    "gpu": "GPU",
    "gpu_capability": "GPU capability",
    "cuda_arch_list": "torch CUDA archs",
    "arch_missing": "GPU not in build's archs",
    "dxg": "/dev/dxg (WSL2 GPU)",
    "cpu_count": "CPUs",
    "ram_gb": "RAM GB",
    "shm_mb": "shm MB",
    "rlimit_nofile": "nofile",
}


@dataclass
class CellSummary:
    """All the runs (repeats) of one cell in one run directory."""

    cell_id: str
    values: dict
    runs: int
    kinds: Counter[FailureKind]  # -> number of runs
    error: str = ""  # the first failing run's error line
    log_dir: str = ""
    where: str = ""  # that run's `where`: the frame it died in, a CUDA error's launching line
    ranks: tuple[str, ...] = ()  # a distributed job's: the ranks whose failure its failing runs were

    @property
    def kind_set(self) -> frozenset:
        return frozenset(self.kinds)

    @property
    def main(self) -> tuple[FailureKind, int]:
        """The telling kind: the most frequent failing kind if any run failed, else the most frequent one."""
        failing = Counter({k: n for k, n in self.kinds.items() if k.is_failure})
        pool = failing or self.kinds
        return min(pool.items(), key=lambda kv: (-kv[1], kv[0]))

    @property
    def outcome(self) -> str:
        return self.main[0].outcome

    @property
    def signal(self) -> str:
        return self.main[0].signal

    @property
    def signature(self) -> str:
        return self.main[0].signature

    @property
    def rate(self) -> str:
        return f"{self.main[1]}/{self.runs}"

    def describe(self) -> str:
        """'pass', 'fail fd_exhaustion', or with repeats '2/2 crash SIGSEGV', '1/3 crash SIGSEGV, 2/3 pass'."""
        ordered = sorted(self.kinds.items(), key=lambda kv: (not kv[0].is_failure, -kv[1], kv[0]))
        parts: list[str] = []
        for kind, n in ordered:
            word = kind.label(50)
            if kind.is_failure and not parts:  # the ranks beside the first failure named
                word = with_rank_note(word, self.ranks)
            parts.append(f"{n}/{self.runs} {word}" if self.runs > 1 else word)
        return ", ".join(parts)

    def to_json(self) -> dict:
        return {
            "summary": self.describe(),
            "outcome": self.outcome,
            "signal": self.signal,
            "signature": self.signature,
            "rate": self.rate,
            "runs": self.runs,
            "kinds": [{**k.as_json(), "runs": n} for k, n in sorted(self.kinds.items())],
            "error": self.error,
            "log_dir": self.log_dir,
        }


@dataclass
class Run:
    label: str  # A, B, C, ...
    finished: FinishedRun
    cells: dict  # cell_id -> CellSummary

    @property
    def source(self) -> str:  # as given on the command line
        return self.finished.source

    @property
    def csv_path(self) -> str:
        return self.finished.csv_path

    @property
    def value_columns(self) -> list:
        return list(self.finished.answer_axes)

    @property
    def fingerprint(self) -> dict:
        return self.finished.fingerprint

    @property
    def rows(self) -> int:
        return len(self.finished.rows)

    @property
    def hosts(self) -> tuple:  # the host column of results.csv, for a results.csv without env.json
        return tuple(r.get("host", "") for r in self.finished.rows)

    @property
    def has_signature(self) -> bool:  # False: a results.csv from before the signature column
        return bool(self.finished.rows) and "signature" in self.finished.rows[0]

    @property
    def host(self) -> str:
        return self.fingerprint.get("host") or ", ".join(sorted({h for h in self.hosts if h})) or "unknown host"

    @property
    def wsl2(self) -> bool | None:
        return self.fingerprint.get("wsl2") if "wsl2" in self.fingerprint else None

    def describe(self) -> str:
        wsl = {True: "WSL2", False: "not WSL2", None: "WSL2 unknown (no env.json)"}[self.wsl2]
        return f"{self.label} = {self.source} (host {self.host}, {wsl}; {len(self.cells)} cells, {self.rows} runs)"


@dataclass
class Comparison:
    runs: list
    axes: list
    differing: list = field(default_factory=list)  # cell ids present in every run whose kinds differ
    partial: list = field(default_factory=list)  # cell ids missing from at least one run
    same: int = 0  # cells in every run that do not differ
    fingerprint: list = field(default_factory=list)  # (field, [value per run])
    packages: list = field(default_factory=list)  # (interpreter, package, [version per run])
    machines: list = field(default_factory=list)  # MachineGroup per set of runs whose outcomes agree, 3 runs or more
    timed: list = field(default_factory=list)  # per run: cell_id -> Timing of its cells that passed every run
    speed: list = field(default_factory=list)  # per run after the first: SpeedComparison against the first
    constants: list = field(default_factory=list)  # (param, [value per run]) where the runs' params differ
    groupings: list = field(default_factory=list)  # each run's grouping version, where they differ

    @property
    def speed_cells(self) -> list[str]:
        """The cells whose wall time moved (crashmatrix.answers.compare_speed's rule) in some run against the first."""
        return list(dict.fromkeys(c.cell_id for sp in self.speed for c in sp.changes))

    def values_of(self, cell_id: str) -> dict:
        for run in self.runs:
            if cell_id in run.cells:
                return run.cells[cell_id].values
        return {}


@dataclass(frozen=True)
class MachineGroup:
    """Runs (machines) whose outcomes agree in every cell they all ran. An odd group (not the largest) has
    the cells where it differs from the largest and the fingerprint fields that go with the difference."""

    labels: tuple[str, ...]
    odd: bool = False
    cells: int = 0  # cells whose outcome differs from the largest group's
    apart: tuple[set_apart.Apart, ...] = ()

    def line(self, largest: MachineGroup) -> str:
        who = ", ".join(self.labels)
        if not self.odd:
            return f"{who}: the same outcome in every cell" + (" (the largest group)" if self is not largest else "")
        them = ", ".join(largest.labels)
        head = f"{who}: odd one{'s' if len(self.labels) > 1 else ''} out, {self.cells} cell"
        head += f"{'s' if self.cells != 1 else ''} differ from {them}"
        return f"{head}; " + set_apart.sentence(self.labels, self.apart, them)

    def to_json(self) -> dict:
        return {
            "runs": list(self.labels),
            "odd": self.odd,
            "cells": self.cells,
            "apart": [a.to_json() for a in self.apart],
        }


def machine_groups(runs: list[Run], common: list[str]) -> list[MachineGroup]:
    """The runs grouped by their outcomes in the cells every run has, the largest group first (the first
    run's where two are as large); [] for two runs, where neither is the odd one."""
    if len(runs) < 3 or not common:
        return []
    by_outcomes: dict[tuple, list[Run]] = {}
    for run in runs:
        by_outcomes.setdefault(tuple(run.cells[c].kind_set for c in common), []).append(run)
    groups = sorted(by_outcomes.values(), key=lambda g: -len(g))  # stable: the first run's group wins a tie
    largest = groups[0]
    out = [MachineGroup(tuple(r.label for r in largest))]
    for group in groups[1:]:
        others = [r for r in runs if r not in group]
        differ = sum(1 for c in common if group[0].cells[c].kind_set != largest[0].cells[c].kind_set)
        apart = set_apart.set_apart([r.fingerprint for r in group], [r.fingerprint for r in others])
        out.append(MachineGroup(tuple(r.label for r in group), True, differ, tuple(apart)))
    return out


def summarize_cells(
    rows: list[dict], value_columns: list[str], with_signature: bool = True, by_class: bool = False
) -> dict:
    """{cell: its CellSummary}. with_signature=False: kinds without their signature (a results.csv from before the
    column); by_class: kinds whose signature is its class and place (runs of two grouping versions)."""
    by_cell: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        by_cell[cell_and_node(r)].append(r)  # a fleet's cell on each node is a cell of its own
    cells = {}
    for cell_id, runs in by_cell.items():
        runs.sort(key=lambda r: int(r.get("repeat") or 0) if str(r.get("repeat", "")).isdigit() else 0)
        kinds = Counter(_kind_of(r, with_signature, by_class) for r in runs)
        # the error line of a run that tells something about the cell, before one crashmatrix could not launch
        failures = [r for r in runs if counts_as_failing(r.get("outcome", ""))] or [
            r for r in runs if is_failure(r.get("outcome", ""))
        ]
        first = failures[0] if failures else runs[0]
        cells[cell_id] = CellSummary(
            cell_id=cell_id,
            values={k: value_of(runs[0], k) for k in value_columns},
            runs=len(runs),
            kinds=kinds,
            error=(first.get("error") or "") if failures else "",
            log_dir=first.get("log_dir", ""),
            where=(first.get("where") or "") if failures else "",
            ranks=tuple(str(r["rank"]) for r in failures if str(r.get("rank") or "")),
        )
    return cells


def _kind_of(row: dict, with_signature: bool, by_class: bool) -> FailureKind:
    kind = FailureKind.from_row(row, with_signature)
    if not by_class or not kind.signature:
        return kind
    return dataclasses.replace(kind, signature=signature_class(kind.signature, str(row.get("where") or "")))


def grouping_version(run: Run) -> int:
    """The grouping version a run's signatures were made by (env.json's; 1 for a run from before it was kept)."""
    return int((run.fingerprint or {}).get("grouping_version") or 1)


def load_run(source: str, label: str) -> Run:
    source = str(source)
    if not os.path.exists(source):
        raise BadInput(f"{source}: no such run directory or results.csv")
    if os.path.isdir(source) and not os.path.exists(os.path.join(source, "results.csv")):
        raise BadInput(f"{source}: not a run directory (no results.csv)")
    finished = FinishedRun.load(source)
    return Run(label, finished, summarize_cells(list(finished.rows), list(finished.answer_axes)))


def _labels(n: int) -> list[str]:
    letters = string.ascii_uppercase
    return [letters[i] if i < 26 else f"R{i + 1}" for i in range(n)]


def _fingerprint_value(facts: dict, key: str):
    if key.startswith("env."):
        return (facts.get("env") or {}).get(key[4:], "")
    value = facts.get(key, "")
    return "" if value is None else value


def fingerprint_differences(fingerprints: list[dict]) -> list[tuple[str, list]]:
    """(field, [value per run]) for each summary field (and env.* variable) whose value is not the same everywhere."""
    present = [f for f in fingerprints if f]
    if len(present) < 2:
        return []
    keys = list(SUMMARY_FIELDS)
    env_keys = sorted({k for f in present for k in (f.get("env") or {})})
    keys += [f"env.{k}" for k in env_keys]
    out = []
    for key in keys:
        values = [_fingerprint_value(f, key) if f else None for f in fingerprints]
        if len({json.dumps(v, sort_keys=True) for v in values if v is not None}) > 1:
            out.append((key, values))
    return out


def _package_sets(fingerprints: list[dict]) -> list[tuple[str | None, list]]:
    """(interpreter, [its packages per run, None where unknown]) for the interpreters to set side by side.

    The same interpreter (the `python` axis value) in every run is compared with itself; runs that
    share none (one interpreter each, at another path on each machine) compare their first ones.
    """
    maps = [(f.get("interpreters") or None) if f else None for f in fingerprints]
    known = [m for m in maps if m]
    if len(known) < 2:
        return []
    common = [k for k in known[0] if all(k in m for m in known)]
    if common:
        return [(k, [m[k].get("packages") if m else None for m in maps]) for k in common]
    firsts = [f.get("interpreter") if m else None for f, m in zip(fingerprints, maps)]
    name = firsts[0] if len(set(firsts)) == 1 else "the first interpreter of each run"
    return [(name, [m[k].get("packages") if m and k in m else None for m, k in zip(maps, firsts)])]


def package_differences(fingerprints: list[dict]) -> list[tuple[str | None, str, list]]:
    """(interpreter, package, [version per run]) for each installed package not the same everywhere:
    added, removed (None) or at another version; '?' where a run's env.json does not say."""
    out = []
    for interpreter, sets in _package_sets(fingerprints):
        for name, versions in pyfacts.package_differences(sets):
            out.append((interpreter, name, ["?" if p is None else v for p, v in zip(sets, versions)]))
    return out


def constant_differences(matrices: list[dict]) -> list[tuple[str, list]]:
    """(param, [its value in each run, None where absent]) for each fixed parameter on which the runs' kept
    matrices disagree: cell ids join on axis values alone, so two sweeps of model=crnn and model=vit (a
    constant each) join cell by cell, and their difference must be said. Runs without a matrix.yaml are not
    compared."""
    params = [(m.get("params") or {}) if m else None for m in matrices]
    kept = [p for p in params if p is not None]
    if len(kept) < 2:
        return []
    out = []
    for key in dict.fromkeys(k for p in kept for k in p):
        # a param one run lacks differs too; json spells 2 and "2", [0,1] and "[0,1]" apart
        if len({json.dumps(p[key], sort_keys=True, default=str) if key in p else None for p in kept}) > 1:
            out.append((key, [None if p is None else p.get(key) for p in params]))
    return out


def compare_runs(sources: list[str]) -> Comparison:
    """Compare two or more runs (run directories or results.csv files); the first is the reference."""
    if len(sources) < 2:
        raise BadInput("compare: give at least two runs (run directories or results.csv files)")
    runs = [load_run(s, label) for s, label in zip(sources, _labels(len(sources)))]
    first = runs[0]
    for other in runs[1:]:
        if set(other.value_columns) != set(first.value_columns):
            only_first = [c for c in first.value_columns if c not in other.value_columns]
            only_other = [c for c in other.value_columns if c not in first.value_columns]
            raise BadInput(
                f"{other.csv_path}: its axes differ from {first.csv_path}'s"
                f" (only in {first.label}: {only_first or 'none'}; only in {other.label}: {only_other or 'none'});"
                " compare runs of the same matrix axes"
            )
    axes = list(first.value_columns)
    comp = Comparison(runs=runs, axes=axes)
    if not all(r.has_signature for r in runs if r.rows):
        for run in runs:
            run.cells = summarize_cells(list(run.finished.rows), run.value_columns, with_signature=False)
    elif len({grouping_version(r) for r in runs}) > 1:
        # another version's signatures for the same failures: joined on what both versions say alike
        comp.groupings = [grouping_version(r) for r in runs]
        for run in runs:
            run.cells = summarize_cells(list(run.finished.rows), run.value_columns, by_class=True)
    cell_ids = list(dict.fromkeys(c for run in runs for c in run.cells))
    order = _cell_order_key(runs, axes)
    for cell_id in sorted(cell_ids, key=order):
        present = [r for r in runs if cell_id in r.cells]
        if len(present) < len(runs):
            comp.partial.append(cell_id)
        elif len({r.cells[cell_id].kind_set for r in runs}) > 1:
            comp.differing.append(cell_id)
        else:
            comp.same += 1
    comp.machines = machine_groups(runs, [c for c in cell_ids if c not in comp.partial])
    comp.timed = [timings(r.finished.rows) for r in runs]
    comp.speed = [
        compare_speed(comp.timed[0], timed, run.label, axes, comp.values_of, order)
        for run, timed in zip(runs[1:], comp.timed[1:])
    ]
    comp.constants = constant_differences([r.finished.matrix for r in runs])
    comp.fingerprint = fingerprint_differences([r.fingerprint for r in runs])
    comp.packages = package_differences([r.fingerprint for r in runs])
    return comp


def _cell_order_key(runs, axes):
    """A sort key ordering cells by their axis values, each axis in the order of its values in the first run's matrix."""
    # the first run's values and matrix: read once (its order is the one that counted before, too)
    values = {a: [c.values.get(a, "") for c in runs[0].cells.values()] for a in axes}
    orders = value_orders(values, runs[0].finished.listed)

    def key(cell_id):
        values = next(r.cells[cell_id].values for r in runs if cell_id in r.cells)
        return tuple(
            orders[a].index(values.get(a, "")) if values.get(a, "") in orders[a] else 10**6 for a in axes
        ), cell_id

    return key


# --- output -------------------------------------------------------------------


def _fingerprint_shown(value) -> str:
    if value is None:
        return "(no env.json)"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value) if value != "" else "—"


def _first_error(comp: Comparison, cell_id: str) -> str:
    for run in comp.runs:
        cell = run.cells.get(cell_id)
        if cell and cell.error:
            return f"{run.label}: {shorten(cell.error)}"
    return ""


def _constants_lines(comp: Comparison, fmt: str) -> list[str]:
    if not comp.constants:
        return []
    rows = [[key] + ["—" if v is None else spell(v) for v in values] for key, values in comp.constants]
    return [
        "## The runs' fixed params differ: each cell below compares these too",
        "",
        table(rows, ["param"] + [r.label for r in comp.runs], fmt, numparse=False),
        "",
    ]


def _grouping_lines(comp: Comparison) -> list[str]:
    """What compare says where the runs' signatures were grouped by different versions."""
    if not comp.groupings:
        return []
    versions = ", ".join(f"{r.label}: {v}" for r, v in zip(comp.runs, comp.groupings))
    return [
        f"Signatures were grouped by different versions ({versions}): failures are joined by their class and "
        "the program's frame (`KeyError in app/data.py:lookup`), not by signature.",
        "",
    ]


def to_markdown(comp: Comparison, fmt: str = "md") -> str:
    labels = [r.label for r in comp.runs]
    lines = ["# crashmatrix compare", ""]
    lines += [r.describe() + "  " for r in comp.runs] + [""]
    lines += _constants_lines(comp, fmt)  # said first: every cell below joins configurations that differ so
    lines += _grouping_lines(comp)
    both = "every run" if len(comp.runs) > 2 else "both runs"
    common = len(comp.differing) + comp.same
    if comp.differing:
        lines += [f"## {len(comp.differing)} of {common} cells in {both} differ", ""]
        rows = []
        for cell_id in comp.differing:
            values = comp.values_of(cell_id)
            rows.append(
                [cell_id]
                + [values.get(a, "") for a in comp.axes]
                + [r.cells[cell_id].describe() for r in comp.runs]
                + [_first_error(comp, cell_id)]
            )
        lines += [table(rows, ["cell"] + comp.axes + labels + ["error"], fmt, numparse=False), ""]
    else:
        lines += [f"No cell differs: the {common} cells in {both} have the same outcomes.", ""]
    if len(comp.machines) > 1:
        lines += ["## Machines whose outcomes agree", ""]
        lines += [f"- {group.line(comp.machines[0])}" for group in comp.machines] + [""]
    lines += speed_lines(comp.speed, comp.axes, fmt)
    if comp.partial:
        groups: dict[tuple, list] = defaultdict(list)
        for cell_id in comp.partial:
            groups[tuple(r.label for r in comp.runs if cell_id in r.cells)].append(cell_id)
        for present, cell_ids in groups.items():
            lines += [f"## Only in {', '.join(present)} ({len(cell_ids)} cell{'s' if len(cell_ids) != 1 else ''})", ""]
            rows = []
            for cell_id in cell_ids:
                values = comp.values_of(cell_id)
                rows.append(
                    [cell_id]
                    + [values.get(a, "") for a in comp.axes]
                    + [r.cells[cell_id].describe() if cell_id in r.cells else "—" for r in comp.runs]
                )
            lines += [table(rows, ["cell"] + comp.axes + labels, fmt, numparse=False), ""]
    if comp.fingerprint:
        lines += ["## Fingerprint differences", ""]
        rows = [[FIELD_NAMES.get(k, k)] + [_fingerprint_shown(v) for v in values] for k, values in comp.fingerprint]
        lines += [table(rows, ["field"] + labels, fmt, numparse=False), ""]
    elif sum(1 for r in comp.runs if r.fingerprint) >= 2:
        lines += [
            "Fingerprints: no difference in " + ", ".join(FIELD_NAMES.get(k, k) for k in SUMMARY_FIELDS) + ".",
            "",
        ]
    if comp.packages:
        lines += ["## Installed packages that differ", ""]
        rows = [
            [interpreter, name] + ["—" if v is None else v for v in versions]
            for interpreter, name, versions in comp.packages
        ]
        lines += [table(rows, ["interpreter", "package"] + labels, fmt, numparse=False), ""]
    lines += _no_fingerprint_lines(comp)
    return "\n".join(lines).rstrip() + "\n"


def _no_fingerprint_lines(comp: Comparison) -> list[str]:
    missing = [r.label for r in comp.runs if not r.fingerprint]
    return [f"No env.json for {', '.join(missing)}: fingerprints not compared there.", ""] if missing else []


def to_csv(comp: Comparison) -> str:
    """cell_id, one column per axis, outcome_a, outcome_b, ..., then differs, signal_*, signature_*, rate_*,
    summary_*, error_*, duration_* (each run's median wall time where every run of the cell passed) and
    ratio_* (each later run's against the first).

    One row per cell that is in every run and differs (see the module doc), `differs` = outcome; then one
    per cell whose wall time moved (crashmatrix.answers.compare_speed), `differs` = speed ("outcome speed" where both).
    The contract's rows are those with outcome in `differs`; cells missing from a run are not rows here
    (they have no outcome to compare), see md or json.
    """
    labels = [r.label for r in comp.runs]
    suffixes = [label.lower() for label in labels]
    header = ["cell_id"] + comp.axes + [f"outcome_{s}" for s in suffixes] + ["differs"]
    for extra in ("signal", "signature", "rate", "summary", "error"):
        header += [f"{extra}_{s}" for s in suffixes]
    header += csv_columns(labels)
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(header)
    moved = set(comp.speed_cells)
    rows = [(c, "outcome speed" if c in moved else "outcome") for c in comp.differing]
    rows += [(c, "speed") for c in comp.speed_cells if c not in comp.differing]
    for cell_id, differs in rows:
        cells = [r.cells[cell_id] for r in comp.runs]
        values = comp.values_of(cell_id)
        writer.writerow(
            [cell_id]
            + [values.get(a, "") for a in comp.axes]
            + [c.outcome for c in cells]
            + [differs]
            + [c.signal for c in cells]
            + [c.signature for c in cells]
            + [c.rate for c in cells]
            + [c.describe() for c in cells]
            + [c.error for c in cells]
            + csv_cells(cell_id, comp.timed)
        )
    return buf.getvalue()


def to_json(comp: Comparison) -> dict:
    def cell_entry(cell_id):
        return {
            "cell_id": cell_id,
            "values": comp.values_of(cell_id),
            "runs": {r.label: r.cells[cell_id].to_json() for r in comp.runs if cell_id in r.cells},
        }

    return {
        "runs": [
            {
                "label": r.label,
                "source": r.source,
                "results": r.csv_path,
                "host": r.host,
                "wsl2": r.wsl2,
                "cells": len(r.cells),
                "runs": r.rows,
            }
            for r in comp.runs
        ],
        "axes": comp.axes,
        "differs_when": "the set of (outcome, signal, signature) kinds seen over a cell's repeats is not the same"
        " in every run (signature left out when a run's results.csv has none; its class and the program's frame"
        " in its place when the runs' grouping versions differ)",
        "grouping_versions": {r.label: grouping_version(r) for r in comp.runs},
        "differing": [cell_entry(c) for c in comp.differing],
        "only_in_some": [
            dict(cell_entry(c), present_in=[r.label for r in comp.runs if c in r.cells]) for c in comp.partial
        ],
        "same": comp.same,
        "machines": [g.to_json() for g in comp.machines],
        "constants": [
            {"param": k, "values": {r.label: v for r, v in zip(comp.runs, values)}} for k, values in comp.constants
        ],
        "speed": [c.to_json() for sp in comp.speed for c in sp.changes],
        "speed_by_value": [v.to_json(sp.run) for sp in comp.speed for v in sp.by_value],
        "speed_when": RULE,
        "fingerprint": [
            {"field": k, "name": FIELD_NAMES.get(k, k), "values": {r.label: v for r, v in zip(comp.runs, values)}}
            for k, values in comp.fingerprint
        ],
        "packages": [
            {"interpreter": interpreter, "package": name, "versions": {r.label: v for r, v in zip(comp.runs, versions)}}
            for interpreter, name, versions in comp.packages
        ],
    }


def compare_text(sources: list[str], fmt: str = "md") -> str:
    if fmt not in FORMATS:
        raise BadInput(f"--format {fmt}: expected one of {', '.join(FORMATS)}")
    comp = compare_runs(sources)
    if fmt == "csv":
        return to_csv(comp)
    if fmt == "json":
        return json.dumps(to_json(comp), indent=1) + "\n"
    return to_markdown(comp, fmt)
