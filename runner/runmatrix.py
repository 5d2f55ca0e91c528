"""`crashmatrix run`: expand, prepare the run directory, run every missing cell run, summarise."""

from __future__ import annotations

import os
import socket
import sys
import time
from collections import Counter
from dataclasses import dataclass

from crashmatrix.app import preflight
from crashmatrix.engine import fleet
from crashmatrix.engine.loop import Engine
from crashmatrix.errors import BadInput
from crashmatrix.machine import fingerprint as fp
from crashmatrix.matrix import interpreters
from crashmatrix.matrix.executor_settings import check_executor
from crashmatrix.matrix.expand import cell_runs, columns, expand
from crashmatrix.matrix.spec import Matrix
from crashmatrix.outcome import counts_as_failing
from crashmatrix.process.stops import ExecutorOutcome
from crashmatrix.report.summary import Progress, findings_section, summary_text
from crashmatrix.rerun import SELECTION_FILE, read_selection
from crashmatrix.rundir import kept_options
from crashmatrix.rundir.finished_run import FinishedRun
from crashmatrix.rundir.store import RunDir, read_fingerprint, read_rows
from crashmatrix.text import shown_path

RESULTS_ROOT = "results"


@dataclass
class RunOutcome:
    run_dir: str
    results: list
    expected: int
    interrupted: bool


def common_causes(
    rows: list[dict], value_columns: list[str], matrix: Matrix, run: str | None = None, fingerprints=None
) -> str:
    """What the failing cells share (explain), and after a pairwise run which axes deserve the full product."""
    # `error` says crashmatrix could not run the cell: nothing about its configuration (explain skips it).
    if not any(counts_as_failing(r["outcome"]) for r in rows):
        return ""
    from crashmatrix.answers import explain

    patterns = explain.explain(rows, value_columns)
    lines = ["", "## What the failing cells have in common", ""]
    lines += [
        f"- {line}"
        for line in explain.render_lines(
            patterns,
            value_columns,
            rows,
            full_run=matrix.strategy == "full",
            run=run,
            keyed=set(matrix.axis_keys),
            fingerprints=fingerprints,
        )
    ]
    if patterns and run is not None:  # what to run instead: resolve's note, or the command that writes it
        from crashmatrix.resolve.files import pointer

        lines.append(f"- {pointer(run)}")
    if matrix.strategy == "pairwise":
        lines += [
            "",
            "Pairwise covers every pair of values, not every combination: a pattern above may need "
            "more axes than it names. The line `axes that matter` says what to run next.",
        ]
    return "\n".join(lines) + "\n"


def adopt_node_fingerprint(store: RunDir, controller: dict) -> dict:
    """After a submitted run, env.json describes the node that ran the cells (the commonest host of
    the rows), not the login node; the controller's own stays as env-controller.json."""
    import json
    from collections import Counter

    rows, _cols, _path = read_rows(store.path)
    hosts = Counter(r["host"] for r in rows if r.get("host"))
    for host, _n in hosts.most_common():
        path = os.path.join(store.path, f"env-{host}.json")
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                node = json.load(f)
            if node.get("host") != controller.get("host"):
                store.write_json("env-controller.json", controller)
                store.write_json("env.json", node)
            return node
    return controller


def start_fingerprint(cells, first: dict, with_interpreters: bool) -> fp.Pending:
    """Ask every interpreter of the cells for its facts, in the background (see fingerprint.Pending).

    A resumed run on the same machine asks only what its first session did not get.
    """
    wanted = interpreters.of_cells(cells) if with_interpreters else {}
    if first.get("host") == socket.gethostname():
        known = first.get("interpreters") or {}
        wanted = {k: path for k, path in wanted.items() if k not in known or "fingerprint_error" in known[k]}
    return fp.start(wanted)


def record_fingerprint(store: RunDir, first: dict, facts: dict) -> dict:
    """env.json, completed; a resumed run on another machine records its own beside the first."""
    if not first:
        store.write_json("env.json", facts)
        return facts
    if first.get("host") != facts.get("host"):
        store.write_json(f"env-{facts.get('host')}.json", facts)
        return facts
    if not facts.get("interpreters"):
        return first
    merged = dict(first, interpreters={**(first.get("interpreters") or {}), **facts["interpreters"]})
    if first.get("interpreter", facts["interpreter"]) == facts["interpreter"]:  # the main one was asked again
        merged.update({k: facts[k] for k in fp.LIFTED + ("gpu", "interpreter") if k in facts})
    store.write_json("env.json", merged)
    return merged


def _final_fingerprint(store: RunDir, first: dict, pending: fp.Pending, executor: str, nodes: list[str]) -> dict:
    """env.json at the run's end: this machine's, the node's that ran the cells, or a fleet's every node."""
    facts = record_fingerprint(store, first, pending.finish())
    if nodes:
        facts = fleet.gather(store.path, nodes, facts)
        store.write_json("env.json", facts)
        return facts
    return adopt_node_fingerprint(store, facts) if executor != "local" else facts


def default_out(matrix: Matrix) -> str:
    return os.path.join(RESULTS_ROOT, f"{matrix.name}-{time.strftime('%Y%m%d-%H%M%S')}")


def run_matrix(
    matrix: Matrix,
    *,
    out: str | None = None,
    resume: str | None = None,
    jobs: int = 1,
    stream=None,
    with_torch_fingerprint: bool = True,
    gpus: list[str] | None = None,
    executor: str = "local",
    max_failures: int | None = None,
    selection=None,
    options: dict | None = None,
) -> RunOutcome:
    """Run the matrix's cells (with a rerun's Selection, only its cells) into a run directory. out: a new one
    (default results/<name>-<time>); resume: an existing one, whose missing runs (and `error` rows) run again.
    jobs: cells at a time (per Slurm job with submitit). gpus: CUDA_VISIBLE_DEVICES sets, one per running cell.
    executor: local | submitit-local | slurm. max_failures: no new run starts after that many failing runs.
    options: by flag, kept for --resume. Progress to `stream`, results to the run directory; a growing cell's
    traced rerun (when run here) to its memory_trace/."""
    stream = stream or sys.stdout
    cells, value_columns = _cells_to_run(matrix, selection, resume)
    nodes = fleet.of_matrix(matrix, executor)  # asked of Slurm before anything is written or sent
    preflight.check(matrix, cells)  # before the run directory: a refused override writes nothing
    runs = _fleet_runs(cell_runs(matrix, cells), nodes, selection, resume)
    store, done = _open_run_dir(matrix, out, resume, value_columns, selection, options)
    todo = [r for r in runs if r.key not in done]
    first = read_fingerprint(store.path) if resume else {}
    pending = start_fingerprint(cells, first, with_torch_fingerprint)
    if not first:
        store.write_json("env.json", pending.facts)  # the machine now; the interpreters' answers complete it at the end
    _announce(matrix, cells, runs, done, todo, jobs, executor, store.path, pending.facts, stream)

    collected = Collected(store, Progress(len(todo), jobs, store.value_columns, stream=stream), max_failures)
    try:
        ended = run_todo(
            matrix,
            store,
            todo,
            executor=executor,
            jobs=jobs,
            gpus=gpus,
            on_result=collected,
            stop_starting=collected.enough_failures,
            stream=stream,
            max_failures_per_node=max_failures if nodes else None,
        )
    except Exception:
        pending.stop()  # a run ended by its run directory (a full disk) leaves no child behind
        raise
    if not (completed := ended.completed):
        pending.stop()
    facts = _final_fingerprint(store, first, pending, executor, nodes)
    if completed and executor == "local":
        _trace_growing(matrix, store, stream)
    early = _early_stop_text(collected.failing, store.path, nodes) if ended.stopped_early and completed else ""
    summarise(matrix, store, facts, expected=len(runs), completed=completed, early=early, stream=stream)
    _say_reproduced(matrix, store, stream)
    _closing_line(store.path, completed, ended.interrupted_by, early, stream)
    return RunOutcome(store.path, collected.results, len(runs), not completed)


def _trace_growing(matrix: Matrix, store: RunDir, stream) -> None:
    """Run each growing conjunction's cell once more, traced, so that its finding names what it keeps and the
    line that makes it (crashmatrix.engine.memory_trace); only where the matrix injects."""
    if not matrix.inject:
        return
    from crashmatrix.answers import growth
    from crashmatrix.engine import memory_trace

    run = FinishedRun.load(store.path)
    found = growth.findings(run.rows, run.answer_axes, store.path)
    cells = list(dict.fromkeys(g.cells[0] for g in found if g.measure in growth.TRACED and g.cells))
    if not cells:
        return
    print(
        f"crashmatrix: memory grows in {len(cells)} cell{'s' if len(cells) > 1 else ''}; running "
        f"{'them' if len(cells) > 1 else 'it'} once more with tracemalloc, to tell which line keeps it "
        f"({shown_path(os.path.join(store.path, memory_trace.DIR_NAME))}/)",
        file=stream,
        flush=True,
    )
    memory_trace.trace(matrix, store.path, cells, store.value_columns)


def _say_reproduced(matrix: Matrix, store: RunDir, stream) -> None:
    """A repro matrix (resolve's repro/<signature>/): whether its failure came back, or only another."""
    if matrix.reproduces:
        from crashmatrix.resolve.reproduced import reproduction_line

        print(reproduction_line(matrix.reproduces, FinishedRun.load(store.path).rows), file=stream, flush=True)


def _cells_to_run(matrix: Matrix, selection, resume: str | None) -> tuple[list, list[str]]:
    """(the cells, the CSV's value columns); a rerun (its Selection, or its resumed directory) runs only its cells."""
    cells = expand(matrix)
    if not cells:
        raise BadInput(f"{matrix.path}: the matrix has no cells left (exclude removes them all)")
    value_columns = columns(matrix, cells)  # of the whole matrix: a rerun's CSV has the original's columns
    only = selection.cell_ids if selection else read_selection(resume) if resume else None
    if only is not None:
        only = frozenset(c.partition("@")[0] for c in only)  # a fleet's rerun names cells with their node
        cells = [c for c in cells if c.cell_id in only]
        if len(cells) < len(only):
            # Overrides that change an axis change the ids: those cells are not the run's any more.
            print(
                f"crashmatrix: {len(only) - len(cells)} of the {len(only)} cells to rerun are not in the matrix "
                "after the overrides (an axis override changes cell ids)",
                file=sys.stderr,
                flush=True,
            )
        if not cells:
            raise BadInput(
                f"{matrix.path}: none of the {len(only)} cells to rerun is in the matrix after the overrides"
            )
    return cells, value_columns


def _fleet_runs(runs: list, nodes: list[str], selection, resume: str | None) -> list:
    """Each run once on every node of a fleet; a fleet's rerun only on the nodes it names (cell_id@node)."""
    if not nodes:
        return runs
    runs = fleet.on_every_node(runs, nodes)
    if resume:
        fleet.clear_stops(resume, nodes)
    only = selection.cell_ids if selection else read_selection(resume) if resume else None
    if not only or not any("@" in c for c in only):
        return runs
    return [r for r in runs if f"{r.cell.cell_id}@{r.node}" in only]


def _open_run_dir(
    matrix: Matrix, out: str | None, resume: str | None, value_columns: list[str], selection, options: dict | None
) -> tuple[RunDir, set]:
    """(the run directory, the runs it already has): reopened for --resume, else created with the matrix
    and the options it starts with, both kept for --resume."""
    if resume:
        store = RunDir(resume)
        return store, store.reopen(value_columns)
    store = RunDir(out or default_out(matrix))
    store.create(matrix.to_yaml_dict(), value_columns)
    if options is not None:
        kept_options.keep(store.path, "run", options)
    if selection:
        store.write_json(SELECTION_FILE, selection.to_json())
    return store, set()


def run_todo(
    matrix: Matrix,
    store: RunDir,
    todo: list,
    *,
    executor: str,
    jobs: int,
    gpus,
    on_result,
    stop_starting,
    stream,
    build=None,
    max_failures_per_node: int | None = None,
) -> ExecutorOutcome:
    """How running `todo` here (executor local) or through submitit ended. build: what starts a run
    (the engine's own by default; the Hydra launcher's jobs). max_failures_per_node: a fleet's
    --max-failures, which its nodes' jobs apply (crashmatrix.engine.fleet.stop)."""
    check_executor(matrix.executor, executor, matrix.path)
    if executor == "local":
        return Engine(
            matrix,
            store=store,
            on_result=on_result,
            jobs=jobs,
            gpus=gpus,
            stop_starting=stop_starting,
            build=build,
        ).run(todo)
    from crashmatrix.engine.executors import run_submitted

    print(
        f"crashmatrix: submitting to {executor} (job logs under {shown_path(store.path)}/submitit/)",
        file=stream,
        flush=True,
    )
    return run_submitted(
        matrix,
        store,
        todo,
        cluster="local" if executor == "submitit-local" else "slurm",
        on_result=on_result,
        jobs_per_cell_job=jobs,
        build=build,
        max_failures=max_failures_per_node,
    )


def summarise(
    matrix: Matrix, store: RunDir, facts: dict, *, expected: int, completed: bool, early: str, stream
) -> None:
    """summary.md and report.html in the run directory; the summary on `stream` too (the Hydra launcher's too)."""
    run = FinishedRun.load(store.path)
    text = summary_text(
        run,
        title=f"crashmatrix run {matrix.name}",
        fingerprint=facts,
        expected=expected,
        interrupted=not completed,
        stopped_early=early,
    )
    text += common_causes(
        list(run.rows), list(run.answer_axes), matrix, run=shown_path(store.path), fingerprints=run.node_fingerprints
    )
    text += findings_section(run, shown_path(store.path))
    store.write_text("summary.md", text + "\n")
    closing = f"results: {shown_path(store.csv_path)}  summary: {shown_path(os.path.join(store.path, 'summary.md'))}"
    try:  # the HTML report must never break a run
        from crashmatrix.report.html import write_html

        write_html(run)
        store.write_text("summary.md", text + "\nReport: [report.html](report.html)\n")
        closing += f"  report: {shown_path(os.path.join(store.path, 'report.html'))}"
    except Exception as e:  # noqa: BLE001
        print(f"crashmatrix: warning: report.html not written ({type(e).__name__}: {e})", file=sys.stderr, flush=True)
    print("", file=stream)
    print(text, file=stream, flush=True)
    print(closing, file=stream, flush=True)


class Collected:
    """Each finished run: recorded, shown, counted for --max-failures (the Hydra launcher's too)."""

    def __init__(self, store: RunDir, progress: Progress, max_failures: int | None):
        self.store, self.progress, self.max_failures = store, progress, max_failures
        self.results: list = []
        self.failing = 0  # this invocation's failing runs: a resume starts counting afresh

    def __call__(self, result) -> None:
        self.store.record(result)
        self.results.append(result)
        self.failing += counts_as_failing(result.outcome)
        self.progress.update(result)

    def enough_failures(self) -> bool:
        return self.max_failures is not None and self.failing >= self.max_failures


def _announce(matrix: Matrix, cells, runs, done, todo, jobs: int, executor: str, path: str, facts: dict, stream):
    nodes = list(dict.fromkeys(r.node for r in runs if r.node))
    """The two lines before the first cell: what runs, how, where; and the machine."""
    print(
        f"crashmatrix: {matrix.name}: {len(cells)} cells x {matrix.repeats} repeats"
        + (f" x {len(nodes)} nodes ({', '.join(nodes)})" if nodes else "")
        + f" = {len(runs)} runs"
        + (f", {len(done)} already done" if done else "")
        + (f"; {min(jobs, max(1, len(todo)))} at a time" if executor == "local" else f"; through {executor}")
        + f"; into {shown_path(path)}",
        file=stream,
        flush=True,
    )
    print(f"crashmatrix: machine: {fp.one_line(facts)}", file=stream, flush=True)


def max_failures_reached(run_dir: str, max_failures: int) -> bool:
    """Whether the run in run_dir stopped early on max_failures (its failing rows, on any one node of a fleet,
    reached it): a --resume then completes the run, as the early stop said, rather than stop at once."""
    rows, _columns, _path = read_rows(run_dir)
    failing = Counter(r.get("node") or "" for r in rows if counts_as_failing(r.get("outcome") or ""))
    return any(n >= max_failures for n in failing.values())


def _early_stop_text(failing: int, path: str, nodes: list[str]) -> str:
    stopped = [n for n in nodes if fleet.stopped(path, n)]
    where = f" on {', '.join(stopped)} (--max-failures counts per node)" if stopped else ""
    resume = f"`{kept_options.resume_command('run', path)}`"  # its executor and options are kept
    return f"stopped early{where} after {failing} failing runs; {resume} completes it"


def _closing_line(path: str, completed: bool, interrupted_by, early: str, stream) -> None:
    if not completed:
        print(
            f"crashmatrix: interrupted ({interrupted_by}); resume with: {kept_options.resume_command('run', path)}",
            file=sys.stderr,
            flush=True,
        )
    elif early:
        print(f"crashmatrix: {early}", file=stream, flush=True)
