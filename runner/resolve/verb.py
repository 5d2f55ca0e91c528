"""`crashmatrix resolve RUN`: read the run once, decide, and write resolution.json, resolution.md and
repro/<signature>/ into it. Re-running it rewrites those files (they are resolve's own) and nothing else.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shlex
from collections.abc import Sequence

from crashmatrix.answers import explain, growth, slow_why
from crashmatrix.answers.slow import Slow
from crashmatrix.errors import BadInput
from crashmatrix.incell.atomic import write_json_atomic, write_text_atomic
from crashmatrix.resolve import issue, note, repro, tried
from crashmatrix.resolve.apply import how_to_apply
from crashmatrix.resolve.choose import MOST_ALTERNATIVES, choose
from crashmatrix.resolve.configs import WALL, Config, configs_of, speed_untold, time_ratio
from crashmatrix.resolve.defaults import program_defaults
from crashmatrix.resolve.failures import Findings, findings
from crashmatrix.resolve.files import RESOLUTION_JSON, RESOLUTION_MD
from crashmatrix.resolve.machines import machine_causes, on_other_nodes, settings_only
from crashmatrix.resolve.unsure import cannot_tell
from crashmatrix.rundir.finished_run import FinishedRun
from crashmatrix.text import shown_path


def check_run(run: str) -> None:
    """BadInput, naming RUN, when it is not a run directory."""
    if not os.path.isdir(run):
        what = "not a run directory (a file)" if os.path.exists(run) else "no such run directory"
        raise BadInput(f"resolve {run}: {what}")
    if not os.path.exists(os.path.join(run, "results.csv")):
        raise BadInput(f"resolve {run}: not a run directory (no results.csv)")


def resolve_run(given: str, try_changes: bool = False) -> note.Resolved:
    """Decide for run directory `given` (as the user typed it) and write resolve's files into it. try_changes:
    first run the slow findings' unmeasured changes into RUN/tried/ (tried.py), unless it is there already."""
    check_run(given)
    run = FinishedRun.load(given)
    machines = machine_causes(run)
    run = on_other_nodes(run, machines)  # a machine's failure is fixed by the machine: the rest from the others
    rows = list(run.rows)
    configs = configs_of(rows, run.axes)
    found = settings_only(findings(run, rows)) if machines else findings(run, rows)
    defaults = program_defaults(run)
    params = run.matrix.get("params") or {}
    choice = choose(configs, found.failures, defaults, params if isinstance(params, dict) else {})
    unsure = cannot_tell(run, given, found, choice)
    bundles = repro.plan(run, configs, defaults, found.failures, found.confidence)
    applied = how_to_apply(run.matrix, choice.recommended.values) if choice.recommended else None
    avoid = [  # a knob the machine ignores is not to avoid: its cells ran as the others did
        f
        for f in explain.findings(rows, run.answer_axes, run=given, run_dir=run.directory)
        if isinstance(f, Slow) and not (f.why is not None and f.why.cause == slow_why.INERT)
    ]
    measured = _tried(given, run, avoid, try_changes)
    resolved = note.Resolved(
        run, given, configs, found, choice, defaults, unsure, bundles, applied, machines, avoid, measured
    )
    resolved = dataclasses.replace(resolved, bundles=_write_bundles(resolved))
    secrets = repro.secret_values()
    text = repro.scrub(repro.redact(note.markdown(resolved), secrets))
    write_text_atomic(os.path.join(run.directory, RESOLUTION_MD), text, durable=False)
    _write_json(run, json.loads(repro.redact(json.dumps(resolution_json(resolved)), secrets)))
    return resolved


def _tried(given: str, run: FinishedRun, avoid: Sequence[Slow], try_changes: bool) -> list[tried.Tried]:
    """What RUN/tried/ measured; with try_changes and no RUN/tried/ yet, the changes are run first."""
    if try_changes and not os.path.exists(os.path.join(run.directory, tried.TRIED_DIR)):
        tried.run_changes(given, run, tried.changes(run, avoid))
    elif try_changes:
        where = shown_path(os.path.join(run.directory, tried.TRIED_DIR))
        print(f"crashmatrix resolve: {where} holds what --try measured before (remove it to measure again)")
    return tried.read(run.directory)


def output_lines(r: note.Resolved) -> list[str]:
    """What `crashmatrix resolve` prints: the summary, the bug reports, where the files are."""
    where = shown_path(r.run.directory)
    lines = note.summary_lines(r)
    for b in r.bundles:
        lines.append(f"bug report: {os.path.join(where, b.dir)}/ISSUE.md ({b.label()})")
    lines.append(f"resolution: {os.path.join(where, RESOLUTION_MD)}  {os.path.join(where, RESOLUTION_JSON)}")
    return lines


def _write_json(run: FinishedRun, data: dict) -> None:
    write_json_atomic(os.path.join(run.directory, RESOLUTION_JSON), data, durable=False)


def config_json(config: Config, matrix: dict) -> dict:
    """One configuration as resolution.json gives it: values, runs, passed, speeds, and how to apply it."""
    applied = how_to_apply(matrix, config.values)
    rate = config.median("steps_per_s")
    wall = config.median(WALL)
    return {
        "values": {a: v for a, v in config.values.items() if v != ""},
        "runs": config.runs,
        "passed": config.passed,
        "duration_s": None if wall is None else round(wall, 3),
        "steps_per_s": None if rate is None else round(rate, 3),
        "overrides": applied.overrides(),
        "apply": applied.to_json(),
        "cell_id": config.cell_id,
    }


def compared_json(config: Config, r: note.Resolved) -> dict:
    """config_json with its time against the recommended configuration's: `time_ratio` only where speed can be
    told (each side timed twice or more, and beyond noise); else null, and `speed` says why not."""
    out = config_json(config, r.run.matrix)
    rec, metric = r.choice.recommended, r.choice.metric
    if rec is None:
        return out
    ratio = time_ratio(config, rec, metric)
    untold = speed_untold(config, rec, metric) if ratio is not None else "not timed"
    out["time_ratio"] = None if untold else round(ratio or 0.0, 2)
    out["speed"] = (
        "cannot be told yet: fewer than two timed runs a side" if untold == "too few runs" else untold or "told"
    )
    return out


def resolution_json(r: note.Resolved) -> dict:
    matrix, choice = r.run.matrix, r.choice
    safe = choice.safe
    return {
        "recommended": config_json(choice.recommended, matrix) if choice.recommended else None,
        "alternatives": [compared_json(c, r) for c in choice.alternatives[:MOST_ALTERNATIVES]],
        "failures": [_failure_json(f, r.findings) for f in r.findings.failures],
        "findings": [g.to_json() for g in growth.findings(r.run.rows, r.run.answer_axes, r.run.directory)],
        "repro": [_bundle_json(b) for b in r.bundles],
        "metric": choice.metric,
        "safe_mode": None
        if safe is None
        else {
            "values": safe.axes,
            "best": compared_json(safe.best, r) if safe.best else None,
            "runs": safe.runs,
            "failed": safe.failed_runs,
        },
        "fastest_failing": compared_json(choice.fastest_failing, r) if choice.fastest_failing else None,
        "cannot_tell": [u.to_json() for u in r.unsure],
        "defaults": {"values": r.defaults.values, "from": r.defaults.source()},
        "source": r.findings.source,
        "machines": [m.to_json() for m in r.machines],
        "avoid": [s.to_json() for s in r.avoid],
        "tried": [t.to_json() for t in r.tried],
    }


def _failure_json(f, findings: Findings) -> dict:
    """explain's or hunt's entry as it is, with what resolve counted beside it under `resolve`."""
    return {
        **f.entry,
        "resolve": {
            "failing_runs": f.failing,
            "runs": f.runs,
            "rate": round(f.rate, 4),
            "masked_runs": f.masked,
            "confidence": None if f.confidence is None else round(f.confidence, 4),
            "named": findings.is_sure(f),
        },
    }


def _bundle_json(b: repro.Bundle) -> dict:
    return {
        **b.kind.as_json(),
        "dir": b.dir,
        "cell_id": b.config.cell_id,
        "values": {a: v for a, v in b.config.values.items() if v != ""},
        "rate": round(b.rate, 4),
        "failing_runs": b.failing,
        "runs": b.runs,
        "repeats": b.repeats,
        "matrix": f"{b.dir}/matrix.yaml" if b.matrix_written else None,
    }


def _write_bundles(r: note.Resolved) -> list[repro.Bundle]:
    """Each bundle's files; collect_env.txt once per interpreter, however many bundles share it."""
    run = r.run
    command = repro.absolute_command(run)
    collected: dict[str, str] = {}
    written = []
    for bundle in r.bundles:
        directory = os.path.join(run.directory, bundle.dir)
        files: dict[str, str] = {}
        data = repro.repro_matrix(run, bundle, command)
        if data is not None:
            files["matrix.yaml"] = _matrix_text(r, bundle, data, directory)
        stacks = repro.stacks_of(run, bundle.row)
        if stacks:
            files["stacks.txt"] = stacks
        if bundle.interpreter not in collected:
            collected[bundle.interpreter] = repro.collect_env(bundle.interpreter)
        files["collect_env.txt"] = collected[bundle.interpreter]
        bundle = dataclasses.replace(bundle, matrix_written=data is not None, has_stacks=bool(stacks))
        told = issue.Told(
            failures=[f for f in r.findings.failures if f.kind == bundle.kind],
            findings=r.findings,
            passing=_nearest_passing(r.configs, bundle.config),
            apply=how_to_apply(run.matrix, {**_knob_params(run.matrix), **bundle.config.values}),
            matrix_path=os.path.join(os.path.abspath(directory), "matrix.yaml") if data is not None else "",
            has_stacks=bool(stacks),
        )
        files["ISSUE.md"] = issue.issue_text(run, bundle, told)
        repro.write_bundle(directory, files)
        written.append(bundle)
    return written


def _knob_params(matrix: dict) -> dict:
    """The matrix's fixed params that are knobs: under inject they reach the program from outside too."""
    from crashmatrix.resolve.apply import knob_name

    params = matrix.get("params") or {}
    if not matrix.get("inject") or not isinstance(params, dict):
        return {}
    return {k: v for k, v in params.items() if knob_name(k)}


def _matrix_text(r: note.Resolved, bundle: repro.Bundle, data: dict, directory: str) -> str:
    import yaml

    run = r.run
    path = os.path.join(os.path.abspath(directory), "matrix.yaml")
    head = (
        f"# {bundle.kind.label()}: the configuration of cell {bundle.config.cell_id} of {run.directory}.\n"
        f"# The failure came in {bundle.failing} of {bundle.runs} runs ({bundle.rate:.0%}); {bundle.repeats} "
        f"repeat(s) show it at least once with probability {r.findings.confidence:.2f}, the rate's uncertainty "
        "counted. Runs from anywhere:\n"
        f"#   crashmatrix run {shlex.quote(path)}\n"
    )
    return head + yaml.safe_dump(data, sort_keys=False, allow_unicode=True)


def _nearest_passing(configs: Sequence[Config], failing: Config, most: int = 3) -> list[Config]:
    """The configurations that passed every run and differ from `failing` in the fewest values."""
    clean = [c for c in configs if c.clean]

    def differences(c: Config) -> int:
        return sum(1 for a, v in failing.spelled.items() if c.spelled.get(a) != v)

    fewest = min((differences(c) for c in clean), default=0)
    return [c for c in clean if differences(c) == fewest][:most]
