"""`crashmatrix run [-a AXIS=V1,V2 ...] [-r N] -- CMD ARGS...`: the matrix a typed command is (issue 49, 3).

Pure: the command and the axes in, the matrix file's contents out (cli.py writes it and runs it as any matrix;
the run directory keeps it, so rerun, --resume, explain, bisect and hunt read it as any run's). The command is
the cell, its arguments verbatim and in their order (no shell: `lr=0.1` stays the program's own argument); it
runs in the folder it was typed in. Axes come in Hydra's sweep grammar (`num_workers=0,2`, `lr=range(1,4)`,
`+trainer.precision=16,32`); an axis of one value is a fixed parameter. A knob axis (start_method,
num_workers, ... : `crashmatrix knobs`) of a Python program is applied from outside (inject), as a matrix
with `inject: true` applies it: the program is run unmodified. torchrun and `python -m torch.distributed.run`
commands are distributed cells, as they are in a matrix's `command`. The other axes reach the program as it
takes its own arguments: `--key=value` (pass_params: options) where the typed command gives options
(`python train.py --epochs 2`), or, with no argument typed, where its script builds an option parser
(argparse, LightningCLI, click, typer, fire, absl) and is no Hydra app; `key=value` otherwise.
"""

from __future__ import annotations

import os
import re

from crashmatrix.errors import BadInput
from crashmatrix.matrix.knob_names import INJECT_KNOBS
from crashmatrix.matrix.program import launcher_script_index, script_of

_LAUNCHERS = ("torchrun",)
_NAME_CHARS = re.compile(r"[^A-Za-z0-9_-]+")


def command_matrix(command: list[str], axes: list[str], repeats: int | None, cwd: str) -> dict:
    """The matrix file's contents for `command` swept over `axes` (Hydra's sweep grammar, one per -a)."""
    if not command:
        raise BadInput("run --: give the command after -- (crashmatrix run -- python train.py lr=0.1)")
    swept, fixed = _axes(axes)
    knobs = [name for name in (*swept, *fixed) if name in INJECT_KNOBS]
    data: dict = {"name": _name(command), "command": list(command), "cwd": cwd}
    if (swept or fixed) and takes_options(command, cwd):
        data["pass_params"] = "options"
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


# What a script that parses its own options calls; a Hydra app (hydra.main) takes key=value whatever else it does.
_OPTION_PARSERS = re.compile(r"\bArgumentParser\(|\bLightningCLI\(|@click\.|\btyper\.|\bfire\.Fire\(|\bflags\.DEFINE_")
_HYDRA_APP = re.compile(r"\bhydra\.main\(|^\s*@main\(|\bcompose\(", re.M)


def takes_options(command: list[str], cwd: str) -> bool:
    """Whether the program takes `--key=value` options: never a Hydra app (its script's text), else by the options
    typed after its script (Hydra's own flags aside; a `KEY=value` among them is an override), else by whether its
    script builds an option parser. A program whose script is not found takes `key=value`, as before."""
    script, typed = _program_arguments(tuple(command), cwd)
    if not script:
        return False
    try:
        with open(os.path.join(cwd, script), encoding="utf-8", errors="replace") as f:
            text = f.read(200_000)
    except OSError:
        text = ""
    if _HYDRA_APP.search(text):
        return False
    typed = _without_hydra_flags(typed)
    if typed:
        return any(a.startswith("-") for a in typed) and not any("=" in a and not a.startswith("-") for a in typed)
    return bool(_OPTION_PARSERS.search(text))


# Hydra's own flags (and the value after those that take one): typed to a Hydra app, never the app's options
_HYDRA_FLAGS = {
    "--config-name": 1,
    "-cn": 1,
    "--config-path": 1,
    "-cp": 1,
    "--config-dir": 1,
    "-cd": 1,
    "--multirun": 0,
    "-m": 0,
    "--cfg": 1,
    "-c": 1,
    "--info": 0,
    "--run": 0,
    "-r": 0,
}


def _without_hydra_flags(typed: list[str]) -> list[str]:
    kept, skip = [], 0
    for arg in typed:
        if skip:
            skip -= 1
            continue
        name = arg.split("=", 1)[0]
        if name in _HYDRA_FLAGS:
            skip = 0 if "=" in arg else _HYDRA_FLAGS[name]
            continue
        kept.append(arg)
    return kept


def program_script(command: tuple, cwd: str) -> str | None:
    """The Python file a command's program is (its script, a `-m` module's file, a launcher's script), or None."""
    return _program_arguments(command, cwd)[0]


def _program_arguments(command: tuple, cwd: str) -> tuple[str | None, list[str]]:
    """(the script, the arguments typed after it) of `python [opts] script ...`, `python -m mod ...` and a
    launcher's `torchrun [opts] train.py ...`; (None, []) where no script is found (`torchrun -m pkg`, another
    interpreter's name, a program of its own): nothing then says it takes options."""
    at = launcher_script_index(command)
    if at is None and command[0] in ("python", "python3") and "-m" in command[:-1]:
        module = script_of(command, cwd)
        return module, [a for a in command[command.index("-m") + 2 :] if a != "--"] if module else []
    if at is None:
        script = script_of(command, cwd)
        if script is None or script not in command:
            return None, []
        at = command.index(script)
    return command[at], [a for a in command[at + 1 :] if a != "--"]


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
