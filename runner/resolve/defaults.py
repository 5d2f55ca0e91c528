"""The program's own values of a run's axes: what "nearest the program's defaults" is measured from.

The matrix's first value of each axis, as its author listed it first; for a Hydra app, the value its
composed config gives a key, where it has one (composed with no overrides, in a child process that imports
Hydra: crashmatrix.app.init_matrix.compose). The knobs crashmatrix applies from outside have no value in the app's
config: their first listed value stands.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from crashmatrix.cell import spell
from crashmatrix.errors import BadInput
from crashmatrix.matrix.knob_names import INJECT_KNOBS
from crashmatrix.rundir.finished_run import FinishedRun

COMPOSE_TIMEOUT_S = 60


@dataclass(frozen=True)
class Defaults:
    values: dict  # axis -> spelled value
    composed: tuple[str, ...]  # the axes whose value came from the app's composed config
    app: str = ""  # the Hydra app's script, where one was composed

    def distance(self, spelled: dict) -> int:
        """How many axes a configuration sets to another value than the program's own."""
        return sum(1 for a, v in self.values.items() if spelled.get(a) != v)

    def source(self) -> str:
        if self.composed:
            return f"the app's composed config for {', '.join(self.composed)}, the matrix's first values for the rest"
        return "the matrix's first values"


def program_defaults(run: FinishedRun) -> Defaults:
    values: dict = {}
    listed = run.listed
    for axis in run.axes:
        if listed.get(axis):
            values[axis] = spell(listed[axis][0])
        else:  # an axis only an include sets, or a bare results.csv: the first value seen
            values[axis] = next((spell(r.get(axis, "")) for r in run.rows if spell(r.get(axis, "")) != ""), "")
    app, own = _composed(run)
    composed = []
    for axis, value in own.items():
        if axis in values and value is not None:
            values[axis] = value
            composed.append(axis)
    return Defaults(values, tuple(composed), app)


def _composed(run: FinishedRun) -> tuple[str, dict]:
    """(the app's script, axis -> its spelled value in the app's own config) for a Hydra app; ("", {}) else."""
    from crashmatrix.app import init_matrix, preflight
    from crashmatrix.app.hydra_main import HydraMain
    from crashmatrix.matrix.app_args import bare_key
    from crashmatrix.matrix.interpreters import PYTHON_AXIS, resolve
    from crashmatrix.matrix.spec import load_matrix

    path = os.path.join(run.directory, "matrix.yaml")
    if not run.matrix.get("command") or not os.path.exists(path):
        return "", {}
    try:
        matrix = load_matrix(path)
        app = preflight.hydra_app(matrix)
        if not isinstance(app, preflight.HydraApp):
            return "", {}
        python = _interpreter(run, PYTHON_AXIS, resolve)
        main = HydraMain(app.config_dir, app.config_name)
        config, choices = init_matrix.compose(app.script, main, python, timeout=COMPOSE_TIMEOUT_S)
    except BadInput:  # the config needs the app's own process: the matrix's first values stand
        return "", {}
    flat = init_matrix.flatten(config)
    out = {}
    for axis in run.axes:
        if axis.startswith("env.") or axis == PYTHON_AXIS or (matrix.inject and axis in INJECT_KNOBS):
            continue
        found = {_own_value(bare_key(k), flat, choices) for k in matrix.axis_keys.get(axis, (axis,))}
        if len(found) == 1:
            out[axis] = found.pop()
    return app.script, out


def _own_value(key: str, flat: dict, choices: dict) -> str | None:
    if key in choices:  # a config group: the option it takes (null: none)
        return spell(choices[key])
    return spell(flat[key]) if key in flat else None


def _interpreter(run: FinishedRun, axis: str, resolve) -> str:
    import sys

    first = run.listed.get(axis)
    return (resolve(first[0]) or sys.executable) if first else sys.executable
