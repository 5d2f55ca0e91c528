"""How to run a configuration without crashmatrix: the program's own keys as it takes them, the knobs as
what to set in code or in the environment.

Without `inject` every axis reaches the program as `key=value` (Hydra's grammar, as a cell passes it:
crashmatrix.matrix.app_args), or `--key=value` under `pass_params: options`, so every axis is an argument. With `inject`, crashmatrix's knobs were applied from
outside: for the program they are lines of code (the start method, the DataLoader's arguments) or the
environment (WANDB_MODE, a limit). `env.NAME` axes are environment variables; `python` the interpreter.
A Hydra sweep's knobs (`+crashmatrix.num_workers`) are knobs too.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

from crashmatrix.cell import spell
from crashmatrix.matrix.app_args import arguments
from crashmatrix.matrix.interpreters import PYTHON_AXIS
from crashmatrix.matrix.knob_names import APPLIED_AS, APPLIED_AS_IS, INJECT_KNOBS
from crashmatrix.matrix.option_flags import script_flags

SWEEP_KNOB_PREFIX = "crashmatrix."  # the Hydra launcher's knobs: +crashmatrix.<knob>=...


def knob_name(axis: str) -> str | None:
    """The knob an axis sets (a sweep's `+crashmatrix.num_workers` too), or None."""
    name = axis.lstrip("+")
    name = name[len(SWEEP_KNOB_PREFIX) :] if name.startswith(SWEEP_KNOB_PREFIX) else name
    return name if name in INJECT_KNOBS else None


@dataclass(frozen=True)
class Apply:
    arguments: tuple[str, ...]  # the program's own keys: key=value or --key=value, as a cell passed them
    code: tuple[str, ...]  # knobs: what to write in the program
    environment: tuple[str, ...]  # NAME=value, or a limit to set before it starts
    interpreter: str = ""

    def overrides(self) -> list[str]:
        """resolution.json's `overrides`: every line of how to apply it, arguments first."""
        out = list(self.arguments) + list(self.code) + list(self.environment)
        return out + ([f"run with {self.interpreter}"] if self.interpreter else [])

    def to_json(self) -> dict:
        return {
            "arguments": list(self.arguments),
            "code": list(self.code),
            "environment": list(self.environment),
            "interpreter": self.interpreter,
        }


def how_to_apply(matrix: Mapping, values: Mapping) -> Apply:
    """matrix: the run's matrix.yaml as written ({} for a bare results.csv); values: axis -> value."""
    inject = bool(matrix.get("inject"))  # a Hydra sweep's knobs are named so (+crashmatrix.<knob>) either way
    axes = matrix.get("axes") or {}
    own: dict = {}
    code: list[str] = []
    environment: list[str] = []
    interpreter = ""
    for axis, value in values.items():
        if spell(value) == "":  # an axis this configuration does not have (only an include sets it)
            continue
        knob = knob_name(axis)
        if axis == PYTHON_AXIS:
            interpreter = spell(value)
        elif axis.startswith("env."):
            environment.append(f"{axis[4:]}={spell(value)}")
        elif knob and (inject or axis.startswith(("+", SWEEP_KNOB_PREFIX))) and not matrix.get("probe"):
            where, line = _knob_line(knob, value)
            (code if where == "code" else environment).append(line)
        else:
            spec = axes.get(axis)
            for key in spec.get("keys", [axis]) if isinstance(spec, dict) else [axis]:
                own[key] = value
    if matrix.get("pass_params") == "options":  # a flag the script declares as its cells passed it
        flags = script_flags(matrix.get("command") or (), matrix.get("cwd") or os.getcwd())
        passed = arguments(own, "options", flags)
    else:
        passed = arguments(own, "overrides")
    return Apply(tuple(passed), tuple(code), tuple(environment), interpreter)


def _knob_line(knob: str, value) -> tuple[str, str]:
    """("code" or "environment", the line): how the program sets `knob` to `value` itself."""
    text = spell(value)
    python = {"true": "True", "false": "False", "null": "None"}.get(text, text)
    kb = str(int(float(text) * 1024)) if text.replace(".", "", 1).isdigit() else text
    off, as_is = APPLIED_AS_IS.get(knob, (None, None))
    if as_is is not None and text == off:
        return as_is
    where, template = APPLIED_AS[knob]
    return where, template.format(v=python, s=text, kb=kb)
