"""Preflight: a Hydra app's config composed for every cell's overrides before the first cell runs.

An override the app would refuse (`trainer.precision=16` where the key exists only as a comment)
fails in every cell, each after the app's start-up: on a GPU box, an hour spent on one typo. So
before `run`, `rerun`, `bisect` (and `hunt`: `check`) start a cell of a Hydra app (a program with
`@hydra.main`), one child process (preflight_child.py, run with the cells' interpreter, one per
distinct interpreter) composes the app's config with Hydra's compose API for every distinct set of
the app's own overrides: the command's own arguments, params and axis values, without the knobs
crashmatrix applies itself (inject). A refusal is BadInput naming the matrix file, the key and the
fix. A config that does not compose even without overrides needs the app's own process (a config
stored from Python, a plugin): preflight says so in one line and steps aside. `--no-preflight` or
`preflight: false` in the matrix skip it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass

from crashmatrix.cell import Cell
from crashmatrix.errors import BadInput
from crashmatrix.matrix.app_args import argument, bare_key, ordered
from crashmatrix.matrix.spec import Matrix

CHILD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "preflight_child.py")
TIMEOUT_S = 120
SKIP_FLAG = "--no-preflight"
# Hydra's own options that take a value; the config's name and folder are read from them.
_NAME_FLAGS = ("-cn", "--config-name")
_PATH_FLAGS = ("-cp", "--config-path")


@dataclass(frozen=True)
class HydraApp:
    script: str
    config_dir: str
    config_name: str
    arguments: tuple[str, ...]  # the command's own overrides after the script


@dataclass(frozen=True)
class OverrideSet:
    """One distinct set of the app's overrides, each with where it comes from in the matrix file."""

    python: str
    overrides: tuple[str, ...]
    origins: tuple[str, ...]
    cell: Cell


def hydra_app(matrix: Matrix) -> HydraApp | str | None:
    """The Hydra app a command runs; None when it is no Hydra app; a reason when preflight cannot read it."""
    from crashmatrix.app.hydra_main import find_hydra_main
    from crashmatrix.matrix.program import module_file, script_of

    command = matrix.command or ()
    if not command or matrix.pass_params != "overrides":
        return None
    # where the cells run and what they import from: `python -m pkg.train` is found there, as Python finds it
    paths = tuple(p for p in str((matrix.env or {}).get("PYTHONPATH", "")).split(os.pathsep) if p)
    given = script_of(command, matrix.cwd, paths)
    script = os.path.join(matrix.cwd, given) if given and matrix.cwd and not os.path.isabs(given) else given
    if script is None or not script.endswith(".py") or not os.path.isfile(script):
        return None
    if script == module_file(command, matrix.cwd, paths):  # `python -m pkg.train args`: the arguments follow it
        rest = list(command[command.index("-m") + 2 :])
    else:
        rest = list(command[command.index(given) + 1 :])
    try:
        with open(script, encoding="utf-8", errors="replace") as f:
            if "hydra" not in f.read():
                return None
        main = find_hydra_main(script)
    except BadInput as e:  # said for init: the part after the app's path says what preflight cannot follow
        reason = str(e).split(": ", 1)[-1]
        return None if "no @hydra.main" in reason else f"{os.path.basename(script)}: {reason.split(' for init')[0]}"
    return _with_flags(script, main.config_dir, main.config_name, rest)


def _with_flags(script: str, config_dir: str, config_name: str, rest: list[str]) -> HydraApp | str:
    """The app with the command's -cn/-cp applied; a reason for any other option of Hydra's."""
    overrides = []
    while rest:
        arg = rest.pop(0)
        flag, eq, value = arg.partition("=")
        if flag in _NAME_FLAGS + _PATH_FLAGS:
            value = value if eq else (rest.pop(0) if rest else "")
            if flag in _NAME_FLAGS:
                config_name = value
            else:
                config_dir = os.path.normpath(os.path.join(os.path.dirname(script), value))
        elif arg.startswith("-"):
            return f"the command passes {arg} to the app"
        else:
            overrides.append(arg)
    return HydraApp(script, config_dir, config_name, tuple(overrides))


def override_sets(matrix: Matrix, app: HydraApp, cells: list[Cell]) -> list[OverrideSet]:
    """Every distinct set of the app's own overrides the cells pass, in the cells' order."""
    from crashmatrix.matrix.app_args import cell_params
    from crashmatrix.matrix.interpreters import of_cell
    from crashmatrix.matrix.knob_names import split_injected

    where = _origins(matrix)
    sets: dict[tuple, OverrideSet] = {}
    for cell in cells:
        params = cell_params(matrix, cell.values)
        if matrix.inject:
            params = split_injected(params)[1]
        own = [(argument(k, v), where.get(k, "include")) for k, v in ordered(params).items()]
        overrides = app.arguments + tuple(a for a, _ in own)
        origins = ("command",) * len(app.arguments) + tuple(w for _, w in own)
        python = of_cell(cell.values)
        sets.setdefault((python, overrides), OverrideSet(python, overrides, origins, cell))
    return list(sets.values())


def _origins(matrix: Matrix) -> dict[str, str]:
    """The program's key -> where the matrix file sets it (params.K, axes.K, axes.A.keys)."""
    where = {k: f"params.{k}" for k in matrix.params}
    for axis in matrix.axes:
        for name in matrix.axis_keys.get(axis, (axis,)):
            where[name] = f"axes.{axis}.keys" if axis in matrix.axis_keys else f"axes.{axis}"
    return where


def each_value(matrix: Matrix, base: dict | None = None) -> list[Cell]:
    """A cell for every value of every axis, the other axes at `base` (default: their first values).

    What a verb that never runs the whole product (hunt) checks: every value the app may get, with
    a choice's keys checked against each option, without composing thousands of sets.
    """
    base = dict(base) if base is not None else {axis: values[0] for axis, values in matrix.axes.items()}
    cells = [Cell.of(base)] + [Cell.of({**base, axis: v}) for axis, values in matrix.axes.items() for v in values]
    return list({cell.cell_id: cell for cell in cells}.values())


def check(matrix: Matrix, cells: list[Cell], stream=None) -> None:
    """BadInput when the app would refuse an override of one of `cells`; nothing for a non-Hydra program.

    The one function every verb that starts cells calls first (hunt: `check(matrix, each_value(matrix))`).
    """
    stream = stream if stream is not None else sys.stderr
    if not matrix.preflight:
        return
    app = hydra_app(matrix)
    if app is None:
        return
    if isinstance(app, str):
        print(f"crashmatrix: preflight skipped: {app} ({SKIP_FLAG} silences this)", file=stream)
        return
    sets = override_sets(matrix, app, cells)
    for python in dict.fromkeys(s.python for s in sets):
        mine = [s for s in sets if s.python == python]
        answer = _ask(python, app, [list(s.overrides) for s in mine])
        if answer.get("status") == "refused":
            raise BadInput(refusal(matrix, app, mine[answer["set"]], answer))
        if answer.get("status") != "ok":
            reason = answer.get("reason") or "no answer"
            print(
                f"crashmatrix: preflight skipped: {os.path.basename(app.script)}'s config does not compose "
                f"outside the app ({reason}); {SKIP_FLAG} silences this",
                file=stream,
            )
            return


def _ask(python: str, app: HydraApp, sets: list[list[str]]) -> dict:
    """The child's answer; a child that fails or prints no answer is a skip with its reason."""
    request = {"config_dir": app.config_dir, "config_name": app.config_name, "sets": sets}
    try:
        done = subprocess.run(
            [python, CHILD],
            input=json.dumps(request),
            capture_output=True,
            text=True,
            timeout=TIMEOUT_S,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return {"status": "skip", "reason": f"composing took more than {TIMEOUT_S} s"}
    except OSError as e:
        return {"status": "skip", "reason": f"{python}: {e.strerror}"}
    lines = done.stdout.strip().splitlines()
    try:
        answer = json.loads(lines[-1]) if lines else None
    except ValueError:
        answer = None
    if not isinstance(answer, dict):
        tail = [ln for ln in done.stderr.splitlines() if ln.strip()]
        return {"status": "skip", "reason": tail[-1] if tail else f"exit status {done.returncode}"}
    return answer


def refusal(matrix: Matrix, app: HydraApp, refused: OverrideSet, answer: dict) -> str:
    """One or two lines: the matrix file, the key, what to write instead; then the cell and the way out."""
    j = answer["override"]
    override, where = refused.overrides[j], refused.origins[j]
    origin = f"{matrix.path}: {where}" if where != "command" else f"{matrix.path}: command: {override}"
    fix = _fix(answer["kind"], override, answer.get("options") or [], answer.get("message", ""), matrix)
    config = os.path.join(app.config_dir, app.config_name)
    config += "" if config.endswith(".yaml") else ".yaml"
    relative = os.path.relpath(config)
    config = config if relative.startswith("..") else relative
    label = refused.cell.label()
    cell = f"in the cell {label}; " if matrix.axes and label else ""
    return f"{origin}: {fix}\n  {cell}checked against {config}; no cell ran ({SKIP_FLAG} skips the check)"


def _fix(kind: str, override: str, options: list[str], message: str, matrix: Matrix) -> str:
    """What is wrong with `override`, and what to write instead."""
    key = bare_key(override.split("=", 1)[0])
    listed = ", ".join(options)
    if kind.startswith("missing_key"):
        choice = kind.partition(":")[2]
        return _missing_key(key, f" (with {choice})" if choice else "", matrix, options[0] if options else None)
    if kind.startswith("group_unchosen:"):
        group = kind.split(":", 1)[1]
        return (
            f"{key} is inside the config group {group}, which has no choice here; choose one first ({group}: {listed})"
        )
    if kind == "no_option":
        return f"{override}: no such option; options: {listed}" if options else f"{override}: no such config group"
    if kind == "not_in_defaults":
        return f"{key} is not in the app's defaults list; to add it, write +{key}"
    if kind == "group_null":
        return f"{key} is a config group (options: {listed}); to drop it, write ~{key}"
    if kind == "exists":
        return f"the app's config already has {key}; write {key} (or ++{key} to add or override)"
    if kind == "no_delete":
        return f"the app's config has no {key} to delete"
    return f"Hydra refuses {override}: {message}"


def _missing_key(key: str, choice: str, matrix: Matrix, near: str | None = None) -> str:
    """A key the app's config lacks (with the group choice whose config lacks it): a knob's near miss, a
    knob passed without inject, a near miss of the app's own key (`near`), or a key to add. A key
    app_keys lists is the app's own, never a typo."""
    from crashmatrix.matrix.knob_names import INJECT_KNOBS, near_knob

    if key in matrix.app_keys:
        return f"the app's config has no {key}{choice} (app_keys lists it); to add it, write +{key}"
    if key in INJECT_KNOBS and not matrix.inject:
        return (
            f"the app's config has no {key}{choice}; it is a knob: with inject: true crashmatrix applies it "
            "and passes nothing"
        )
    knob = near_knob(key) if "." not in key else None
    if knob:
        return f"the app's config has no {key}{choice}; did you mean the knob {knob}?"
    if near:
        return f"the app's config has no {key}{choice}; did you mean {near}? (a new key: +{key})"
    return f"the app's config has no {key}{choice}; to add it, write +{key}"
