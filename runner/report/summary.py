"""Readable tables of a run: progress lines while it runs, the summary after (summary.md and the console)."""

from __future__ import annotations

import sys
from collections import Counter, defaultdict

from crashmatrix.axis_values import axis_rates, speed_note, speeds_shown, value_of, varying_axes
from crashmatrix.cell import cell_and_node
from crashmatrix.engine import side_by_side
from crashmatrix.machine.fingerprint import one_line
from crashmatrix.outcome import ORDER, FailureKind, counts_as_failing, display_rank, is_run_error, with_rank_note
from crashmatrix.rundir.finished_run import FinishedRun
from crashmatrix.text import shorten, table


def _duration_text(seconds: float) -> str:
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"


class Progress:
    """One line per finished run: position, outcome, the cell, counts so far, ETA."""

    def __init__(self, total: int, jobs: int, value_columns: list[str], stream=None):
        self.total, self.jobs, self.columns = total, max(1, jobs), value_columns
        self.done = 0
        self.counts: Counter = Counter()
        self.durations: list[float] = []
        self.stream = stream or sys.stdout
        self.on_terminal = hasattr(self.stream, "isatty") and self.stream.isatty()

    def update(self, result) -> None:
        self.done += 1
        self.counts[result.outcome] += 1
        self.durations.append(result.duration_s)
        left = self.total - self.done
        eta = ""
        if left > 0 and self.durations:
            eta = f" · ETA {_duration_text(sum(self.durations) / len(self.durations) * left / self.jobs)}"
        counts = " ".join(f"{o} {self.counts[o]}" for o in ORDER if self.counts[o])
        label = " ".join(f"{k}={result.row(self.columns)[k]}" for k in self.columns if k in result.values)
        if result.node:  # a fleet's run: which node it ran on
            label += f" node={result.node}"
        # no room for the signature here; a distributed job's failing rank, where one
        what = with_rank_note(FailureKind(result.outcome, result.signal).label(), [result.rank])
        width = len(str(self.total))
        head = f"[{self.done:>{width}}/{self.total}] {what:<20} {result.cell_id} r{result.repeat}"
        tail = f"{result.duration_s:6.1f}s | {counts}{eta}"
        if self.on_terminal:
            # A terminal line must not wrap; a log keeps every value.
            import shutil

            room = max(20, shutil.get_terminal_size().columns - len(head) - len(tail) - 3)
            label = shorten(label, room)
        print(f"{head} {label}  {tail}", file=self.stream, flush=True)


def outcome_counts(rows: list[dict]) -> list[list]:
    runs = Counter(r["outcome"] for r in rows)
    cells: dict[str, set] = defaultdict(set)
    for r in rows:
        cells[r["outcome"]].add(cell_and_node(r))
    return [[outcome, runs[outcome], len(cells[outcome])] for outcome in sorted(runs, key=display_rank)]


def outcome_counts_csv(rows: list[dict]) -> str:
    """`report --format csv` without --by: outcome, runs, cells."""
    import csv
    import io

    buf = io.StringIO()
    writer = csv.writer(buf)  # the csv module's own line ends (\r\n), as the verb always wrote
    writer.writerow(["outcome", "runs", "cells"])
    writer.writerows(outcome_counts(rows))
    return buf.getvalue()


def _by_cell(rows: list[dict]) -> dict[str, list[dict]]:
    by_cell: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        by_cell[cell_and_node(r)].append(r)  # a fleet's cell on each node is a cell of the table
    return by_cell


def _values_label(run: dict, value_columns: list[str]) -> str:
    return " ".join(f"{k}={value_of(run, k)}" for k in value_columns if value_of(run, k) != "")


def failing_cells(rows: list[dict], value_columns: list[str]) -> list[list]:
    """One line per failing cell (a run that counts as failing: not pass, skip or error; the rule of every
    report, summary.md and report.html alike): its values, its commonest kind of failure (as a rate when
    repeated), the error of a run of that kind. Other failing kinds the cell showed are counted in the
    outcome column."""
    out = []
    for runs in _by_cell(rows).values():
        failures = [r for r in runs if counts_as_failing(r["outcome"])]
        if not failures:
            continue
        kinds = Counter(FailureKind.from_row(r) for r in failures)
        kind, times = min(kinds.items(), key=lambda kv: (-kv[1], kv[0]))
        rate = f"{times}/{len(runs)} " if len(runs) > 1 else ""
        more = f" (+{len(kinds) - 1} other kind{'s' if len(kinds) > 2 else ''})" if len(kinds) > 1 else ""
        label = _values_label(runs[0], value_columns)
        first = next(r for r in failures if FailureKind.from_row(r) == kind)
        ranks = [r.get("rank") for r in failures if FailureKind.from_row(r) == kind]  # a distributed job's
        out.append(
            [
                runs[0]["cell_id"],
                label,
                f"{rate}{with_rank_note(kind.outcome, ranks)}{more}",
                kind.signal,
                shorten(kind.signature, 40),
                shorten(first.get("error", "")),
                shorten(first.get("where", "") or "", 120),
                first.get("log_dir", ""),
            ]
        )
    return out


FAILING_HEADERS = ["cell", "values", "outcome", "signal", "signature", "error", "where", "logs"]

NOT_RUN_TITLE = "Cells crashmatrix could not launch"
NOT_RUN_NOTE = (
    "Outcome `error`: crashmatrix could not launch these cells, which says nothing about their configuration,"
    " so they are not failing cells. `--resume` runs them again."
)
NOT_RUN_HEADERS = ["cell", "values", "runs", "error", "logs"]


def not_run_cells(rows: list[dict], value_columns: list[str]) -> list[list]:
    """One line per cell with a run crashmatrix could not launch (outcome error): its values, how many of its
    runs that was, the first such run's reason and logs."""
    out = []
    for runs in _by_cell(rows).values():
        errors = [r for r in runs if is_run_error(r["outcome"])]
        if errors:
            first = errors[0]
            count = f"{len(errors)}/{len(runs)}" if len(runs) > 1 else "1"
            out.append(
                [
                    runs[0]["cell_id"],
                    _values_label(runs[0], value_columns),
                    count,
                    shorten(first.get("error", ""), 160),
                    first.get("log_dir", ""),
                ]
            )
    return out


def failing_table(rows: list[dict], value_columns: list[str], fmt: str) -> str:
    """The failing cells; the `where` column (the frame that crashed, a CUDA error's launching line) only
    when some failing cell has one, so a plain CPU run's table stays as narrow as it was."""
    failing = failing_cells(rows, value_columns)
    where_at = FAILING_HEADERS.index("where")
    if not any(line[where_at] for line in failing):
        narrow = FAILING_HEADERS[:where_at] + FAILING_HEADERS[where_at + 1 :]
        return table([line[:where_at] + line[where_at + 1 :] for line in failing], narrow, fmt)
    return table(failing, FAILING_HEADERS, fmt)


def interpreter_lines(fingerprint: dict, fmt: str = "md", most: int = 30) -> list[str]:
    """With the `python` axis: each interpreter's Python, torch and key packages, then the installed
    packages that differ between them."""
    found = fingerprint.get("interpreters") or {}
    if len(found) < 2 and all(k == fingerprint.get("python_executable") for k in found):
        return []
    from crashmatrix.machine.pyfacts import key_packages, package_differences

    lines = ["Interpreters (axis `python`):", ""]
    for key, facts in found.items():
        if "fingerprint_error" in facts:
            lines.append(f"- `{key}`: {facts['fingerprint_error']}")
            continue
        packages = facts.get("packages") or {}
        keys = ", ".join(f"{n} {v}" for n, v in key_packages(packages).items()) or "no torch, numpy or wandb"
        count = f"{len(packages)} package{'s' if len(packages) != 1 else ''}"
        lines.append(f"- `{key}`: Python {facts.get('python', '?')}, {keys}; {count} in all")
    lines.append("")
    differing = package_differences([facts.get("packages") for facts in found.values()])
    if differing:
        rows = [[name] + ["—" if v is None else v for v in versions] for name, versions in differing[:most]]
        lines += [
            "Installed packages that differ between them:",
            "",
            table(rows, ["package"] + list(found), fmt, numparse=False),
            "",
        ]
        if len(differing) > most:
            lines += [f"and {len(differing) - most} more (env.json lists every package).", ""]
    return lines


def summary_text(
    run: FinishedRun,
    *,
    title: str,
    fmt: str = "md",
    fingerprint: dict | None = None,
    expected: int | None = None,
    interrupted: bool = False,
    stopped_early: str = "",
) -> str:
    """summary.md, or `report` without --by. fingerprint: the machine's facts, when newer than env.json's."""
    rows, value_columns = list(run.rows), list(run.answer_axes)
    fingerprint = run.fingerprint if fingerprint is None else fingerprint
    lines = [f"# {title}", ""]
    nodes = fingerprint.get("nodes") if fingerprint else None
    if fingerprint:
        # a fleet's controller ran no cell: each node's own line follows
        head = "Controller" if nodes else "Machine"
        lines += [f"{head}: {one_line(fingerprint)}", ""] + interpreter_lines(fingerprint, fmt)
    if nodes:
        lines += [f"Node {node}: {one_line(facts)}" + "  " for node, facts in nodes.items()] + [""]
    state = f"{len(rows)} runs"
    if expected is not None and expected != len(rows):
        state += f" of {expected}" + (
            " (interrupted; `--resume` runs the rest)"
            if interrupted
            else f" ({stopped_early})"
            if stopped_early
            else ""
        )
    lines += [state, ""]
    alone = side_by_side.again_alone(run.directory, rows)
    lines += [alone, ""] if alone else []
    if rows:
        lines += [table(outcome_counts(rows), ["outcome", "runs", "cells"], fmt), ""]
    varying = varying_axes(rows, value_columns)
    if varying and rows:
        headers, by_value = axis_rates(rows, varying, run.listed)
        lines += ["## By axis value", "", table(by_value, headers, fmt), ""]
        note = speed_note(speeds_shown(rows))
        lines += [note, ""] if note else []
    if any(counts_as_failing(r["outcome"]) for r in rows):
        lines += ["## Failing cells", "", failing_table(rows, value_columns, fmt), ""]
    elif rows:
        lines += ["No failing cells.", ""]
    not_run = not_run_cells(rows, value_columns)
    if not_run:
        lines += [f"## {NOT_RUN_TITLE}", "", table(not_run, NOT_RUN_HEADERS, fmt, numparse=False), "", NOT_RUN_NOTE, ""]
    return "\n".join(lines)


def findings_section(run: FinishedRun, shown: str | None = None) -> str:
    """The section "Findings beyond failure" (slow cells, memory that grows: crashmatrix.answers.findings),
    for after the failure explanations; "" where there is none. shown: the run directory as the user gave it,
    for advice."""
    from crashmatrix.answers import findings

    found = findings.beyond_failure(run.rows, run.answer_axes, run.directory, shown=shown)
    if not found:
        return ""
    return "\n".join(["", "## Findings beyond failure", "", *(f"- {f.text()}" for f in found)]) + "\n"
