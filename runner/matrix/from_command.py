"""`crashmatrix run [-a AXIS=V1,V2 ...] [-r N] -- CMD ARGS...`: the matrix a typed command is (issue 49, 3).

Pure: the command and the axes in, the matrix file's contents out (cli.py writes it and runs it as any matrix;
the run directory keeps it, so rerun, --resume, explain, bisect and hunt read it as any run's). The command is
the cell, its arguments verbatim and in their order (no shell: `lr=0.1` stays the program's own argument); it
runs in the folder it was typed in. Axes come in Hydra's sweep grammar (`num_workers=0,2`, `lr=range(1,4)`,
`+trainer.precision=16,32`); an axis of one value is a fixed parameter. A knob axis (start_method,
num_workers, ... : `crashmatrix knobs`) of a Python program is applied from outside (inject), as a matrix
with `inject: true` applies it: the program is run unmodified. torchrun and `python -m torch.distributed.run`
commands are distributed cells, as they are in a matrix's `command`.
"""

from __future__ import annotations

import os
import re

from crashmatrix.errors import BadInput
from crashmatrix.matrix.knob_names import INJECT_KNOBS
from crashmatrix.matrix.program import script_of

_LAUNCHERS = ("torchrun",)
_NAME_CHARS = re.compile(r"[^A-Za-z0-9_-]+")


def command_matrix(command: list[str], axes: list[str], repeats: int | None, cwd: str) -> dict:
    """The matrix file's contents for `command` swept over `axes` (Hydra's sweep grammar, one per -a)."""
    if not command:
        raise BadInput("run --: give the command after -- (crashmatrix run -- python train.py lr=0.1)")
    swept, fixed = _axes(axes)
    knobs = [name for name in (*swept, *fixed) if name in INJECT_KNOBS]
    data: dict = {"name": _name(command), "command": list(command), "cwd": cwd}
    if knobs:
        if not _is_python(command):
            raise BadInput(
                f"run --: {', '.join(knobs)}: a knob is applied from outside only to a Python program "
                f"(python, torchrun); {command[0]} would get it as an argument: name it as the program takes it"
            )
        data["inject"] = True
    if fixed:
        data["params"] = fixed
    data["axes"] = swept
    if repeats is not None:
        if repeats < 1:
            raise BadInput(f"-r: expected a whole number >= 1, got {repeats}")
        data["repeats"] = repeats
    return data


def _axes(given: list[str]) -> tuple[dict, dict]:
    """({axis: [values]}, {param: value}) from `-a key=v1,v2` sweeps (Hydra's grammar), in the order given."""
    from hydra.core.override_parser.overrides_parser import OverridesParser
    from hydra.errors import HydraException

    parser = OverridesParser.create()
    swept: dict = {}
    fixed: dict = {}
    for text in given:
        try:
            (override,) = parser.parse_overrides([text])
        except (HydraException, ValueError) as e:
            raise BadInput(f"-a {text}: not Hydra's sweep grammar (key=v1,v2): {str(e).splitlines()[0]}") from None
        key = override.key_or_group if not override.is_add() else f"+{override.key_or_group}"
        if key in swept or key in fixed:
            raise BadInput(f"-a {text}: {key} is given twice")
        if override.is_sweep_override():
            try:
                values = list(override.sweep_iterator())
            except (HydraException, ValueError, TypeError):  # interval(): no values to list
                raise BadInput(f"-a {text}: a sweep of listed values is needed (a,b or range(0,4))") from None
            if not values:
                raise BadInput(f"-a {text}: an axis with no value")
            swept[key] = values
        else:
            fixed[key] = override.value()
    return swept, fixed


def _is_python(command: list[str]) -> bool:
    program = os.path.basename(command[0])
    return program.startswith("python") or program in _LAUNCHERS or script_of(tuple(command)) is not None


def _name(command: list[str]) -> str:
    """The run's name, from the script (train.py: train) or the program."""
    script = script_of(tuple(command)) or ""
    base = os.path.splitext(os.path.basename(script or command[0]))[0]
    if "-m" in command[:-1] and not script:
        base = command[command.index("-m") + 1].rsplit(".", 1)[-1]
    return _NAME_CHARS.sub("-", base).strip("-") or "command"
