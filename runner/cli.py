"""The command line: parse, validate, call the same functions tests call, print. Nothing else lives here."""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys

from crashmatrix.errors import BadInput
from crashmatrix.rundir import kept_options


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="crashmatrix", description="Find which combination of PyTorch settings crashes your training."
    )
    parser.add_argument("--version", action=_Version)
    verbs = parser.add_subparsers(dest="verb", metavar="VERB")
    verbs.required = True

    _running_verbs(verbs)
    _reading_verbs(verbs)
    _bisect_verb(verbs)
    _hunt_verb(verbs)
    explain = verbs.add_parser("explain", help="what the failing cells of a finished run have in common")
    explain.add_argument("run")
    explain.add_argument("--json", action="store_true")

    resolve = verbs.add_parser(
        "resolve", help="from a finished run: what to run instead, and a bug report per failure (repro/)"
    )
    resolve.add_argument("run", help="a run directory: a run, a rerun, a hunt or a Hydra sweep")
    resolve.add_argument(
        "--try",
        dest="try_changes",
        action="store_true",
        help="run each slow finding's unmeasured change (and the slow cell again) into RUN/tried/, and say the ratio",
    )

    diagnose = verbs.add_parser(
        "diagnose", help="the verdict of a failed job from its log alone: outcome, rank, place, whose fix"
    )
    diagnose.add_argument(
        "logs", nargs="+", metavar="LOG", help="log files (one job's parts: per-rank logs), a --log-dir folder, or -"
    )
    diagnose.add_argument("--json", action="store_true", help="the row, with results.csv's keys")
    diagnose.add_argument(
        "--matrix", metavar="FILE", help="write the matrix that would find the cause (a new file; with --command)"
    )
    diagnose.add_argument("--command", metavar="CMD", help="the failing job's command, for --matrix: 'python train.py'")

    env = verbs.add_parser("env", help="the environment fingerprint of this machine")
    env.add_argument("--json", action="store_true")

    verbs.add_parser("probes", help="the built-in probes and their parameters")
    verbs.add_parser("knobs", help="the knobs crashmatrix applies from outside (inject: true), and their values")

    init = verbs.add_parser("init", help="write a starter matrix from a Hydra app's own config")
    init.add_argument("app", help="the app's Python file, with @hydra.main(config_path=..., config_name=...)")
    init.add_argument(
        "--out", help="the matrix file to write (default: crashmatrix.yaml beside the app); never overwritten"
    )
    init.add_argument(
        "--gpus-per-cell",
        type=int,
        metavar="N",
        help="the GPUs each cell will have (default: what this machine shows, without importing torch); "
        "an app asking for more gets params that run with N",
    )
    _examples(verbs)
    return parser


# Each verb's --help ends with how users call it (tests/test_cli_help.py checks every verb has some).
EXAMPLES = {
    "run": """\
  crashmatrix run matrix/default.yaml --jobs 2
  crashmatrix run -a start_method=fork,spawn -a num_workers=0,2 -- python train.py lr=0.1""",
    "rerun": """\
  crashmatrix rerun results/quickstart --failing repeats=10""",
    "show": """\
  crashmatrix show matrix/default.yaml
  crashmatrix show matrix/dataloader.yaml repeats=3 --format csv""",
    "report": """\
  crashmatrix report results/quickstart --by start_method,num_workers
  crashmatrix report results/quickstart --format junit > junit.xml""",
    "compare": """\
  crashmatrix compare results/wsl2-box results/native-box""",
    "bisect": """\
  crashmatrix bisect results/quickstart
  crashmatrix bisect matrix.yaml --good start_method=spawn --bad start_method=fork num_workers=2""",
    "hunt": """\
  crashmatrix hunt examples/overlapping.yaml --order 4 --jobs 2""",
    "explain": """\
  crashmatrix explain results/quickstart
  crashmatrix explain results/quickstart --json""",
    "resolve": """\
  crashmatrix resolve results/quickstart
  crashmatrix resolve results/slow --try""",
    "diagnose": """\
  crashmatrix diagnose slurm-4242.out
  crashmatrix diagnose torchrun-logs/ --json""",
    "env": """\
  crashmatrix env
  crashmatrix env --json > env.json""",
    "probes": """\
  crashmatrix probes""",
    "knobs": """\
  crashmatrix knobs""",
    "init": """\
  crashmatrix init src/train.py
  crashmatrix init src/train.py --gpus-per-cell 4 --out gpu-matrix.yaml""",
}


def _examples(verbs) -> None:
    """Every verb's help ends with its examples, laid out as written (RawDescriptionHelpFormatter)."""
    for name, verb in verbs.choices.items():
        if name in EXAMPLES:
            verb.epilog = "examples:\n" + EXAMPLES[name]
            verb.formatter_class = argparse.RawDescriptionHelpFormatter


class _Version(argparse.Action):
    """`--version`: prints `crashmatrix VERSION` and exits 0. The version is looked up only when asked
    (argparse's own version action takes it when the parser is built, on every command)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help="print the version and exit")

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"crashmatrix {_version()}")
        parser.exit()


def _version() -> str:
    """The version of the code that runs: a source tree's (runner/ beside its pyproject.toml, run with
    PYTHONPATH or through an editable install) is its pyproject's, which the metadata of an install
    made earlier may no longer match; otherwise the installed distribution's."""
    import re

    here = os.path.dirname(os.path.realpath(__file__))
    pyproject = os.path.join(here, "..", "pyproject.toml")
    if os.path.basename(here) == "runner" and os.path.isfile(pyproject):
        with open(pyproject, encoding="utf-8") as f:
            found = re.search(r'^version\s*=\s*"([^"]+)"', f.read(), re.M)
        if found:
            return found.group(1)
    from importlib import metadata

    try:
        return metadata.version("crashmatrix")
    except metadata.PackageNotFoundError:
        return "unknown (not installed, and no source tree's pyproject.toml beside it)"


def _running_verbs(verbs) -> None:
    """run and rerun: they start cells."""
    run = verbs.add_parser("run", help="run every cell of a matrix, each in its own process")
    run.add_argument("matrix", nargs="?", help="the matrix YAML file (optional with --resume)")
    run.add_argument("overrides", nargs="*", help="Hydra overrides: repeats=3 axes.num_workers=[0,4] ~axes.wandb")
    run.add_argument("--out", help="the run directory (default results/<name>-<timestamp>/)")
    run.add_argument(
        "--resume",
        metavar="DIR",
        help="run only what DIR is missing, with the options it started with (given: instead)",
    )
    run.add_argument(
        "-a",
        "--axis",
        action="append",
        default=[],
        metavar="AXIS=V1,V2",
        help="with -- CMD: an axis in Hydra's sweep grammar (start_method=fork,spawn; lr=range(1,4))",
    )
    run.add_argument("-r", "--repeats", type=int, metavar="N", help="with -- CMD: runs of each cell")
    _running_options(run)

    rerun = verbs.add_parser("rerun", help="run the cells of a finished run again into a new run directory")
    rerun.add_argument("run", help="a run directory")
    rerun.add_argument("overrides", nargs="*", help="Hydra overrides of the run's matrix.yaml: repeats=10")
    rerun.add_argument(
        "--failing", action="store_true", help="only the cells with a failing run (not pass, skip or error)"
    )
    rerun.add_argument("--out", help="the new run directory (default beside RUN: <name>-rerun-<timestamp>/)")
    _running_options(rerun)


def _reading_verbs(verbs) -> None:
    """show, report, compare: they read a matrix or finished runs and start nothing."""
    show = verbs.add_parser("show", help="print the expanded cells without running anything")
    show.add_argument("matrix")
    show.add_argument("overrides", nargs="*")
    show.add_argument("--format", choices=["table", "csv", "json"], default="table")

    report = verbs.add_parser("report", help="summary tables of a finished or partial run")
    report.add_argument("run")
    report.add_argument("--by", help="AXIS[,AXIS]: a pivot of outcomes over one or two axes")
    report.add_argument("--format", choices=["md", "github", "csv", "junit"], default="md")

    compare = verbs.add_parser(
        "compare", help="cells whose outcome or speed differs between runs, and the machines' differences"
    )
    compare.add_argument(
        "runs", nargs="+", metavar="RUN", help="two or more run directories or results.csv files (A B [C ...])"
    )
    compare.add_argument("--format", choices=["md", "github", "csv", "json"], default="md")


def _bisect_verb(verbs) -> None:
    bisect = verbs.add_parser("bisect", help="the minimal change from a passing configuration that still fails")
    bisect.add_argument("target", help="a matrix file (with --good/--bad), or a finished run directory")
    bisect.add_argument("overrides", nargs="*", help="Hydra overrides of the matrix")
    bisect.add_argument("--good", nargs="+", action="extend", default=[], metavar="K=V")
    bisect.add_argument("--bad", nargs="+", action="extend", default=[], metavar="K=V")
    bisect.add_argument(
        "--repeats", type=int, help="clean runs that make a pass believed (default: from the failure rate)"
    )
    bisect.add_argument("--max-runs", type=int, help="stop with the best answer so far after this many runs")
    bisect.add_argument("--jobs", type=int, default=1, help="configurations tested at once")
    bisect.add_argument("--out", help="the bisect's run directory")
    bisect.add_argument(
        "--axis", help="bisect RUN: narrow this numeric axis's boundary, the other axes held at the failing cell's"
    )
    for kind, memory in (("gpu", "GPU memory (peak_gpu_mb)"), ("rss", "RAM (peak_rss_mb)")):
        bisect.add_argument(
            f"--fit-{kind}-mb",
            type=float,
            metavar="MB",
            help=f"bisect RUN on a numeric axis: the largest value whose {memory} fits in MB, from how it scales",
        )
    _sync_option(bisect)


def _hunt_verb(verbs) -> None:
    hunt = verbs.add_parser(
        "hunt", help="with no known good/bad pair: every failing conjunction of up to --order values, in few runs"
    )
    hunt.add_argument("matrix", nargs="?", help="the matrix YAML file (optional with --resume)")
    hunt.add_argument("overrides", nargs="*", help="Hydra overrides of the matrix")
    hunt.add_argument("--order", type=int, help="the longest conjunction suspected (default 3)")
    hunt.add_argument("--confidence", type=float, help="how sure each named cause must be (default 0.95)")
    hunt.add_argument(
        "--max-runs", type=int, help="stop with the best answer so far after this many runs (default 200)"
    )
    hunt.add_argument("--jobs", type=int, help="cells run at once (default 1)")
    hunt.add_argument(
        "--executor", choices=["local", "submitit-local", "slurm"], help="where cells run (default local)"
    )
    hunt.add_argument("--out", help="the hunt's run directory (default results/hunt-<name>-<timestamp>/)")
    hunt.add_argument("--resume", metavar="DIR", help="go on with an interrupted hunt (its options are kept)")
    hunt.add_argument("--from", dest="from_run", metavar="RUN", help="start from a finished run's rows")
    _fleet_options(hunt)
    _sync_option(hunt)


def _running_options(verb: argparse.ArgumentParser) -> None:
    """How cells run: the options run and rerun share."""
    verb.add_argument("--jobs", type=int, help="cells at once on this machine (default 1)")
    verb.add_argument(
        "--executor", choices=["local", "submitit-local", "slurm"], help="where cells run (default local)"
    )
    verb.add_argument("--gpus", help="comma-separated GPU ids: each running cell gets its own via CUDA_VISIBLE_DEVICES")
    verb.add_argument(
        "--gpus-per-cell", type=int, metavar="K", help="GPUs each running cell gets (default 1; with --gpus)"
    )
    verb.add_argument(
        "--max-failures",
        type=int,
        metavar="N",
        help="once N runs have failed, start no new run (running ones end); --resume completes it",
    )
    verb.add_argument("--strict", action="store_true", help="exit 1 when a cell is not pass/skip")
    _fleet_options(verb)
    _sync_option(verb)


def _fleet_options(verb: argparse.ArgumentParser) -> None:
    verb.add_argument(
        "--each-node",
        action="store_true",
        help="a fleet: every cell on every node, the node an axis (--executor slurm)",
    )
    verb.add_argument("--nodelist", metavar="NODES", help="the fleet's nodes in Slurm's spelling, e.g. n[1-32]")


def _sync_option(verb: argparse.ArgumentParser) -> None:
    verb.add_argument(
        "--no-sync-rerun",
        action="store_true",
        help="no second run of a cuda_error cell with CUDA_LAUNCH_BLOCKING=1 (it finds the launching line)",
    )
    verb.add_argument(
        "--no-preflight",
        action="store_true",
        help="do not compose a Hydra app's config for every cell first (for a config only the app can compose)",
    )


def _sync_choice(args, matrix):
    """The matrix with --no-sync-rerun and --no-preflight applied."""
    import dataclasses

    if getattr(args, "no_sync_rerun", False):
        matrix = dataclasses.replace(matrix, sync_rerun=False)
    if getattr(args, "no_preflight", False):
        matrix = dataclasses.replace(matrix, preflight=False)
    return matrix


def _load(path: str, overrides, runs_cells: bool = True):
    """The matrix at `path`, overrides applied; for a verb that runs cells, its program found (exit 2 if not)."""
    from crashmatrix.matrix.program import resolve_program
    from crashmatrix.matrix.spec import load_matrix

    matrix = load_matrix(path, overrides)
    return resolve_program(matrix, path) if runs_cells else matrix


def _resumed(args):
    """--resume DIR: the matrix kept in DIR; a MATRIX [OVERRIDE ...] given beside it must resolve to that one."""
    from crashmatrix.rundir.kept_matrix import looks_like_override, resumed_matrix

    given, overrides = args.matrix, list(args.overrides)
    if looks_like_override(given):  # `--resume DIR repeats=3`: argparse took the override for the matrix
        given, overrides = None, [given, *overrides]
    return resumed_matrix(args.resume, given, overrides, _load)


# run's options kept in its run directory (rundir/kept_options.py), by flag: the argparse names they fill
_RUN_OPTIONS = {
    "--jobs": "jobs",
    "--executor": "executor",
    "--gpus": "gpus",
    "--gpus-per-cell": "gpus_per_cell",
    "--max-failures": "max_failures",
    "--strict": "strict",
}


def _given(args, flags) -> dict:
    """The options of `flags` given on this command line (a switch not given, False, counts as not given)."""
    return {flag: (getattr(args, name) if getattr(args, name) is not False else None) for flag, name in flags.items()}


def _say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def cmd_run(args) -> int:
    command = getattr(args, "command", None)
    if command is not None:
        return _run_command(args, command)
    if args.axis or args.repeats is not None:
        raise BadInput(
            "run: -a and -r go with a command after -- (crashmatrix run -a num_workers=0,2 -- python train.py)"
        )
    if args.resume:
        matrix = _resumed(args)
        kept = kept_options.read(args.resume, "run")
        for flag, value in kept_options.resumed(kept, _given(args, _RUN_OPTIONS), _say).items():
            if flag in _RUN_OPTIONS:
                setattr(args, _RUN_OPTIONS[flag], value)
        _completing(args, kept)
    elif args.matrix is None:
        raise BadInput("run: give a matrix file (crashmatrix run matrix/default.yaml), or --resume DIR")
    else:
        matrix = _load(args.matrix, args.overrides)
    return _execute(args, matrix, out=args.out, resume=args.resume)


def _completing(args, kept: dict) -> None:
    """A run that stopped early on its kept --max-failures: its --resume completes it (as the early stop
    said), rather than stop again at once; a --max-failures given again stops it anew."""
    from crashmatrix.runmatrix import max_failures_reached

    given = args.max_failures != kept.get("--max-failures")
    if args.max_failures is None or given or not max_failures_reached(args.resume, args.max_failures):
        return
    _say(f"crashmatrix: the run stopped early at its --max-failures {args.max_failures}; this resume completes it")
    args.max_failures = None


def _run_command(args, command: list[str]) -> int:
    """`run [-a ...] -- CMD ARGS...`: the command as typed is the matrix's one cell (matrix/from_command.py),
    written to a file and run as any matrix; the run directory keeps it (matrix.yaml)."""
    import tempfile

    import yaml

    from crashmatrix.matrix.from_command import command_matrix

    if args.matrix is not None or args.resume:
        given = args.matrix or f"--resume {args.resume}"
        raise BadInput(f"run: a matrix file or a command after --, not both ({given}; run --resume DIR alone)")
    data = command_matrix(command, args.axis, args.repeats, os.getcwd())
    if data.get("pass_params") == "options":  # a guess from the command: said, so that a wrong one is seen
        print("crashmatrix: the program parses its own options: its axes pass as --key=value (pass_params: options)")
    with tempfile.TemporaryDirectory(prefix="crashmatrix-command-") as folder:
        path = os.path.join(folder, f"{data['name']}.yaml")
        with open(path, "w", encoding="utf-8") as f:
            yaml.safe_dump(data, f, sort_keys=False)
        try:
            matrix = _load(path, args.overrides)
        except BadInput as e:  # name what the user typed, not a file they never saw
            said = str(e).replace(f" or beside the matrix file ({folder})", "")
            raise BadInput(said.replace(path, "run -- " + " ".join(command[:3]))) from None
        return _execute(args, matrix, out=args.out)


def cmd_rerun(args) -> int:
    from crashmatrix import rerun
    from crashmatrix.rundir.finished_run import FinishedRun

    matrix = _load(rerun.check_run_dir(args.run), args.overrides)
    selection = rerun.select(FinishedRun.load(args.run), failing=args.failing)
    if not selection.cell_ids:
        what = "no failing runs" if args.failing else "no runs"
        print(f"crashmatrix: {args.run} has {what}; nothing to rerun")
        return 0
    return _execute(args, matrix, out=args.out or rerun.default_out(args.run, matrix.name), selection=selection)


def _execute(args, matrix, *, out, resume=None, selection=None) -> int:
    """Check the running options, run, and turn the outcome into run's exit status."""
    from crashmatrix.matrix.executor_settings import check_executor
    from crashmatrix.outcome import is_failure
    from crashmatrix.runmatrix import run_matrix

    for flag, value in (("--jobs", args.jobs), ("--max-failures", args.max_failures)):
        if value is not None and value < 1:
            raise BadInput(f"{flag}: expected a whole number >= 1, got {value}")
    args.executor = args.executor or "local"
    kept = {flag: getattr(args, name) for flag, name in _RUN_OPTIONS.items()}  # as given, for --resume
    gpus = None
    if args.gpus is not None:
        from crashmatrix.process.gpus import gpu_sets

        gpus = gpu_sets(args.gpus, args.gpus_per_cell)
        # A cell per GPU set unless told otherwise; never more cells at once than sets.
        args.jobs = len(gpus) if args.jobs in (None, 1) else min(args.jobs, len(gpus))
    elif args.gpus_per_cell is not None:
        raise BadInput("--gpus-per-cell: goes with --gpus (the ids to share out, e.g. --gpus 0,1,2,3)")
    args.jobs = 1 if args.jobs is None else args.jobs
    if gpus and args.executor != "local":
        raise BadInput("--gpus: only with --executor local (on Slurm, ask for GPUs with executor.gpus_per_task)")
    matrix = _fleet_choice(args, matrix)
    if args.max_failures is not None and args.executor != "local" and not matrix.executor.get("each_node"):
        raise BadInput(
            "--max-failures: only with --executor local, or a fleet's --each-node, where it counts per node"
            " (submitted jobs are queued all at once)"
        )
    check_executor(matrix.executor, args.executor, matrix.path)  # before the run directory, before any job
    outcome = run_matrix(
        _sync_choice(args, matrix),
        out=out,
        resume=resume,
        jobs=args.jobs,
        gpus=gpus,
        executor=args.executor,
        max_failures=args.max_failures,
        selection=selection,
        options=kept,
    )
    if outcome.interrupted:
        return 130
    if args.strict and any(is_failure(r.outcome) for r in outcome.results):
        return 1
    return 0


def _fleet_choice(args, matrix):
    """The matrix with --each-node and --nodelist in its executor section, kept for --resume."""
    import dataclasses

    if not (args.each_node or args.nodelist):
        return matrix
    if args.nodelist and not args.each_node:
        raise BadInput("--nodelist: goes with --each-node (the nodes a fleet runs every cell on)")
    if args.executor != "slurm":
        raise BadInput("--each-node: only with --executor slurm (Slurm's nodelist pins each cell's job to a node)")
    fleet = {"each_node": True, **({"nodelist": args.nodelist} if args.nodelist else {})}
    return dataclasses.replace(matrix, executor={**matrix.executor, **fleet})


def cmd_show(args) -> int:
    from crashmatrix.matrix.show import show_text

    sys.stdout.write(show_text(_load(args.matrix, args.overrides, runs_cells=False), args.format))
    return 0


def cmd_report(args) -> int:
    from crashmatrix.report import summary as report
    from crashmatrix.rundir.finished_run import FinishedRun

    if args.format == "junit" and args.by:
        raise BadInput("report --format junit: one testcase per run; --by does not apply")
    run = FinishedRun.load(args.run)
    if args.format == "junit":
        from crashmatrix.report.junit import junit_xml

        sys.stdout.write(junit_xml(run))
    elif args.by:
        from crashmatrix.report.pivot import pivot_text

        print(pivot_text(run, args.by, fmt=args.format))
    elif args.format == "csv":
        sys.stdout.write(report.outcome_counts_csv(list(run.rows)))
    else:
        print(report.summary_text(run, title=f"crashmatrix report {args.run}", fmt=args.format))
        print(report.findings_section(run, args.run), end="")
    return 0


def cmd_bisect(args) -> int:
    from crashmatrix.bisect import verb as bisect_matrix

    for flag, value in (("--repeats", args.repeats), ("--max-runs", args.max_runs), ("--jobs", args.jobs)):
        if value is not None and value < 1:
            raise BadInput(f"{flag}: expected a whole number >= 1, got {value}")
    fits = _fits(args)
    if os.path.isdir(args.target):
        return _bisect_run(args, fits)
    for flag, given in (("--axis", args.axis), ("--fit-gpu-mb / --fit-rss-mb", fits)):
        if given:
            raise BadInput(f"bisect {args.target}: {flag} goes with bisect RUN (a finished run directory)")
    matrix = _load(args.target, args.overrides)
    if not args.bad:
        raise BadInput(
            f"{args.target}: bisect needs --bad K=V ... (and --good K=V ...; left-out axes take their first value)"
        )
    good, bad = bisect_matrix.configurations(matrix, args.good, args.bad)
    out = args.out or bisect_matrix.default_out("results", matrix.name)
    result, _data, interrupted = bisect_matrix.bisect_matrix(
        _sync_choice(args, matrix), good, bad, out=out, repeats=args.repeats, jobs=args.jobs, max_runs=args.max_runs
    )
    return _bisect_status(interrupted, result.target is None or result.good_fails)


def _bisect_status(interrupted: bool, nothing_failed: bool) -> int:
    if interrupted:
        return 130
    return 1 if nothing_failed else 0


def _fits(args) -> dict[str, float]:
    """--fit-gpu-mb / --fit-rss-mb as {"gpu_mb": MB, "rss_mb": MB}, each a number of MB above 0."""
    fits = {}
    for kind in ("gpu", "rss"):
        value = getattr(args, f"fit_{kind}_mb")
        if value is None:
            continue
        if not 0 < value < float("inf"):
            raise BadInput(f"--fit-{kind}-mb: expected a number of MB above 0, got {value:g}")
        fits[f"{kind}_mb"] = value
    return fits


def _check_numeric_axis(path: str, matrix, axis: str) -> None:
    from crashmatrix.bisect.axis_order import is_numeric_axis
    from crashmatrix.cell import spell

    if axis not in matrix.axes:
        raise BadInput(f"{path}: --axis {axis}: not an axis (axes: {', '.join(matrix.axes)})")
    if not is_numeric_axis(matrix.axes[axis]):
        listed = ", ".join(spell(v) for v in matrix.axes[axis])
        raise BadInput(f"{path}: --axis {axis}: axes.{axis} [{listed}] are not two or more numbers")


def _bisect_run(args, fits: dict[str, float]) -> int:
    """`bisect RUN`: along a numeric axis the failure follows, its boundary; else delta debugging."""
    from crashmatrix.bisect import boundary_run
    from crashmatrix.bisect import verb as bisect_matrix
    from crashmatrix.rundir.finished_run import FinishedRun
    from crashmatrix.rundir.kept_matrix import same_matrix

    if args.good or args.bad:
        raise BadInput(
            f"bisect {args.target}: a run directory picks good and bad itself; --good/--bad go with a matrix file"
        )
    kept = os.path.join(args.target, "matrix.yaml")
    matrix = _load(kept, args.overrides)
    if args.axis is not None:
        _check_numeric_axis(kept, matrix, args.axis)
    run = FinishedRun.load(args.target)
    good, bad = bisect_matrix.pick_from_run(run, matrix)
    out = args.out or bisect_matrix.default_out(args.target, "run")
    # the run's rows are evidence of the same experiment only: overrides that change it start afresh
    same = not args.overrides or same_matrix(matrix, _load(kept, []))
    if not same:
        print(f"crashmatrix bisect: the overrides change {args.target}'s matrix; its rows are not counted")
    line, disorders, target = bisect_matrix.numeric_line(run, matrix, bad, args.axis)
    for disorder in disorders:
        print(f"crashmatrix bisect: {disorder.said()}; delta debugging instead")
    if line is not None:
        rows = boundary_run.line_rows(bisect_matrix.usable_rows(run, matrix), matrix, line) if same else []
        found, _data, interrupted = boundary_run.narrow_line(
            _sync_choice(args, matrix),
            line,
            target,
            out=out,
            repeats=args.repeats,
            jobs=args.jobs,
            max_runs=args.max_runs,
            table_rows=rows,
            fits=fits,
        )
        return _bisect_status(interrupted, found.target is None)
    if args.axis is not None and not disorders:
        print(f"crashmatrix bisect: {target.said()} does not follow {args.axis}; delta debugging instead")
    if fits:
        print("crashmatrix bisect: no numeric axis's boundary to fit memory to; --fit-*-mb not used")
    seeded = bisect_matrix.seeds_from_run(run, matrix, good, bad) if same else None
    result, _data, interrupted = bisect_matrix.bisect_matrix(
        _sync_choice(args, matrix),
        good,
        bad,
        out=out,
        repeats=args.repeats,
        jobs=args.jobs,
        max_runs=args.max_runs,
        seeded=seeded,
        seeded_rows=run.rows if seeded else (),
    )
    return _bisect_status(interrupted, result.target is None or result.good_fails)


def cmd_hunt(args) -> int:
    from crashmatrix.hunt import verb as hunt

    options = hunt.HuntOptions(
        order=3 if args.order is None else args.order,
        confidence=0.95 if args.confidence is None else args.confidence,
        max_runs=args.max_runs or hunt.DEFAULT_MAX_RUNS,
        jobs=1 if args.jobs is None else args.jobs,
        executor=args.executor or "local",
        from_run=args.from_run,
    )
    if args.resume:
        given = [
            flag
            for flag, value in (("--order", args.order), ("--confidence", args.confidence), ("--from", args.from_run))
            if value is not None
        ]
        if given:
            raise BadInput(
                f"hunt --resume {args.resume}: {', '.join(given)}: the hunt's options are kept;"
                " of them only --max-runs, --jobs and --executor may change"
            )
        saved = hunt.read_options(args.resume)
        matrix = _resumed(args)
        changed = {"--max-runs": args.max_runs, "--jobs": args.jobs, "--executor": args.executor}
        now = kept_options.resumed(saved, changed, _say)
        options = dataclasses.replace(
            options,
            order=saved["--order"],
            confidence=saved["--confidence"],
            seed=saved["seed"],
            from_run=saved["--from"],
            max_runs=now["--max-runs"],
            jobs=now["--jobs"],
            executor=now.get("--executor") or "local",
        )
        out = args.resume
    else:
        if not args.matrix:
            raise BadInput("hunt: give a matrix file (crashmatrix hunt matrix.yaml), or --resume DIR")
        options.check()  # before the matrix: --order 0 is refused whatever the file holds
        matrix = _load(args.matrix, args.overrides)
        options = dataclasses.replace(options, seed=matrix.seed)
        out = args.out or hunt.default_out(matrix.name)
    args.executor = options.executor  # the kept one, on --resume
    matrix = _fleet_choice(args, _sync_choice(args, matrix))
    outcome = hunt.run_hunt(matrix, options, out=out, resume=bool(args.resume))
    return 130 if outcome.interrupted else 0


def cmd_explain(args) -> int:
    from crashmatrix.answers import explain, findings, set_apart
    from crashmatrix.rundir.finished_run import FinishedRun

    run = FinishedRun.load(args.run)
    rows, axes = list(run.rows), list(run.answer_axes)
    patterns = explain.explain(rows, axes)
    found = findings.beyond_failure(rows, axes, run.directory, shown=args.run)  # after the failures, in both forms
    if args.json:
        entries = [p.to_json() for p in patterns]
        for entry, p in zip(entries, patterns):  # a fleet: what sets the named node apart (beyond the contract)
            apart = set_apart.node_apart(p.conditions, run.node_fingerprints, run.nodes) if run.nodes else None
            if apart is not None:
                entry["nodes_apart"] = [a.to_json() for a in apart]
        print(json.dumps(entries + [f.to_json() for f in found], indent=1))
        return 0
    # a hunt (its verb's or a hunt sweep's: hunt.json) ran the cells it chose, not every combination
    full_run = run.strategy == "full" and not os.path.exists(os.path.join(run.directory, "hunt.json"))
    lines = explain.render_lines(
        patterns, axes, rows, full_run=full_run, run=args.run, keyed=run.keyed, fingerprints=run.node_fingerprints
    )
    for line in lines + explain.findings_lines(found):  # the closing pointer stays the last line
        print(line)
    if patterns and os.path.isdir(args.run):
        from crashmatrix.resolve.files import pointer

        print(pointer(args.run))
    return 0


def cmd_resolve(args) -> int:
    from crashmatrix.resolve.verb import output_lines, resolve_run

    resolved = resolve_run(args.run, try_changes=args.try_changes)
    for line in output_lines(resolved):
        print(line)
    if os.path.exists(os.path.join(args.run, "report.html")):  # its last section links resolution.md now
        from crashmatrix.report.html import write_html

        write_html(resolved.run)  # the run resolve read: it writes files beside the rows, never the rows
    return 0


def cmd_diagnose(args) -> int:
    from crashmatrix.resolve.diagnose import diagnose, printed
    from crashmatrix.resolve.log_text import read_logs

    if args.command is not None and not args.matrix:
        raise BadInput("--command: goes with --matrix FILE (the matrix to write)")
    found = diagnose(read_logs(args.logs))
    proposal = None
    if args.matrix and found.found:
        from crashmatrix.resolve.propose import write_proposal

        proposal = write_proposal(args.matrix, found.row, args.command, os.getcwd())
    if args.json:
        said = {"found": found.found, "whose": found.whose, "fix": found.fix, "cannot_tell": found.cannot_tell}
        if proposal:
            said["matrix"] = args.matrix
        print(json.dumps({**found.row, **said}, indent=2))
        return 0
    print(printed(found))
    if proposal:
        print(f"wrote {args.matrix}: sweeps {', '.join(a.split('=', 1)[0] for a in proposal[1])}")
        print(f"run:  crashmatrix run {args.matrix}")
    elif args.matrix:
        print("no matrix written: no failure found to look for")
    return 0


def cmd_env(args) -> int:
    from crashmatrix.machine import fingerprint

    facts = fingerprint.collect()
    if args.json:
        print(json.dumps(facts, indent=1))
    else:
        for line in fingerprint.listing(facts):
            print(line)
    return 0


def cmd_probes(args) -> int:
    from crashmatrix import probes
    from crashmatrix.matrix.knob_names import INJECT_KNOBS

    print("(knob): crashmatrix applies it, also to your own program under inject: true (crashmatrix knobs);")
    print("the other parameters, precision among them, only a probe understands.\n")
    for name in probes.names():
        probe = probes.load(name)
        print(f"{name}: {getattr(probe, 'DESCRIPTION', '')}")
        for key, default in probe.PARAMS.items():
            print(f"    {key} = {default!r}" + ("  (knob)" if key in INJECT_KNOBS else ""))
    return 0


def cmd_knobs(args) -> int:
    from crashmatrix.matrix.knob_names import knobs_text

    sys.stdout.write(knobs_text())
    return 0


def cmd_compare(args) -> int:
    from crashmatrix.answers.compare import compare_text

    sys.stdout.write(compare_text(args.runs, fmt=args.format))
    return 0


def cmd_init(args) -> int:
    from crashmatrix.app.init_matrix import init_matrix

    given = args.gpus_per_cell
    if given is not None and given < 0:
        raise BadInput(f"--gpus-per-cell: expected a whole number >= 0, got {given}")

    def gpus() -> tuple[int, str]:
        if given is not None:
            return (
                given,
                f"--gpus-per-cell gives a cell {'no GPU' if given == 0 else f'{given} GPU' + 's' * (given > 1)}",
            )
        from crashmatrix.machine.gpus_here import gpus_here

        here = gpus_here(sys.executable)
        return here.count, here.said()

    written = init_matrix(args.app, args.out, gpus=gpus)
    for note in written.notes:
        print(f"crashmatrix init: {note}", file=sys.stderr)
    pairwise = f" (pairwise; {written.full} in full)" if written.cells < written.full else ""
    print(f"wrote {written.path}: {written.axes} axes, {written.cells} cells{pairwise}")
    print(f"look: crashmatrix show {written.path}")
    print(f"run:  crashmatrix run {written.path} --jobs 2")
    return 0


COMMANDS = {
    "run": cmd_run,
    "rerun": cmd_rerun,
    "show": cmd_show,
    "report": cmd_report,
    "compare": cmd_compare,
    "bisect": cmd_bisect,
    "hunt": cmd_hunt,
    "explain": cmd_explain,
    "resolve": cmd_resolve,
    "diagnose": cmd_diagnose,
    "env": cmd_env,
    "probes": cmd_probes,
    "knobs": cmd_knobs,
    "init": cmd_init,
}


def _parse(argv):
    """Overrides may also follow the options (`rerun RUN --failing repeats=3`), which argparse alone refuses."""
    parser = _parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    command = None
    if argv[:1] == ["run"] and "--" in argv:  # `run [options] -- CMD ARGS...`: the command, verbatim
        at = argv.index("--")
        argv, command = argv[:at], argv[at + 1 :]
    args, extra = parser.parse_known_args(argv)
    if command is not None:
        args.command = command
    if extra:
        if not hasattr(args, "overrides") or any(a.startswith("-") for a in extra):
            parser.error(f"unrecognized arguments: {' '.join(extra)}")
        args.overrides = list(args.overrides) + extra
    return args


def main(argv=None) -> int:
    args = _parse(argv)
    try:
        return COMMANDS[args.verb](args)
    except BadInput as e:
        print(f"crashmatrix: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("crashmatrix: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
