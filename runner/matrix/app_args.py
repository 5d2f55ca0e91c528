"""The arguments a command's cell passes to its program: `key=value` in Hydra's grammar (pass_params:
overrides, the default), or `--key=value` options for a program with its own option parser (pass_params:
options: argparse, LightningCLI's jsonargparse, click, typer, fire and absl all take that form), verbatim;
a boolean of a flag the script declares as that flag (`--amp`, `--no-amp` or nothing: option_flags).

A params or axes key reaches the program as written, so every form of Hydra's override grammar
works: `+key` adds a key, `++key` adds or overrides one, `~key` deletes one (written `~key:` with
no value it passes as `~key`; with a value, Hydra deletes only where the value matches), and
`group/sub: option` picks a nested group's option. A group choice (`logger: wandb`) goes before
the keys inside it (`logger.wandb.offline`), and every nested choice (`hydra/launcher`) before the
rest: Hydra applies choices first whatever the order, but a reader of the command line (and any
other parser) needs them there. Everything else keeps the matrix file's order.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from crashmatrix.cell import spell
from crashmatrix.matrix.interpreters import PYTHON_AXIS

if TYPE_CHECKING:
    from crashmatrix.matrix.spec import Matrix


def bare_key(key: str) -> str:
    """The key without Hydra's +, ++ or ~ in front."""
    return key.lstrip("+~")


def is_choice(key: str, value, keys) -> bool:
    """A group choice: a nested group (`hydra/launcher`), or a scalar with other keys inside it."""
    if isinstance(value, (list, tuple, dict)):
        return False
    name = bare_key(key)
    return "/" in name or any(bare_key(k).startswith(name + ".") for k in keys)


def ordered(params: dict) -> dict:
    """The same parameters, group choices first, each part in its given order."""
    keys = list(params)
    first = [k for k in keys if is_choice(k, params[k], keys)]
    return {k: params[k] for k in first + [k for k in keys if k not in first]}


def argument(key: str, value) -> str:
    """One argument: `key=value` in Hydra's spelling; `~key` alone for a deletion without a value."""
    if key.startswith("~") and value is None:
        return key
    return f"{key}={spell(value)}"


def option(key: str, value, flags: Mapping[str, str] | None = None) -> str | None:
    """One option, `--key=value` as a single argument: a value that starts with `-` (`--lr=-1`) stays the
    option's, which `--lr -1` would not be for argparse. A key the file wrote with its dashes keeps them.
    A boolean of a flag the script declares (option_flags): `--key` for true; for false its negative
    (`--no-key`), or None, no argument, where false is the flag's absence."""
    name = key if key.startswith("-") else "--" + key
    if flags and isinstance(value, bool) and name in flags:
        return name if value else flags[name] or None
    return f"{name}={spell(value)}"


def arguments(params: dict, style: str = "overrides", flags: Mapping[str, str] | None = None) -> list[str]:
    """The arguments of a cell's parameters: Hydra's overrides in the order Hydra needs, or options
    (`style` "options") in the matrix file's order, a declared flag's boolean as the flag."""
    if style == "options":
        return [a for a in (option(k, v, flags) for k, v in params.items()) if a is not None]
    return [argument(k, v) for k, v in ordered(params).items()]


def cell_params(matrix: Matrix, values: dict) -> dict:
    """The cell's parameters in the matrix file's order (params and axes sections as the file has them).

    An axis with `keys` gives each of its keys the axis's value, in place of the axis's name. Neither
    env.* axes (environment variables) nor `python` (the interpreter) are the program's parameters.
    """
    cell = {
        name: v
        for k, v in values.items()
        if not k.startswith("env.") and k != PYTHON_AXIS
        for name in matrix.axis_keys.get(k, (k,))
    }
    fixed = {k: v for k, v in matrix.params.items() if k not in cell}
    return {**fixed, **cell} if matrix.params_first else {**cell, **fixed}
