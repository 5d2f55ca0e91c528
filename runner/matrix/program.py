"""The program a matrix runs, found before any cell starts.

A relative path in `command` (the program, the script after `python`, or the script a distributed launcher
runs: `torchrun [options] train.py`, `python -m torch.distributed.run [options] train.py`) is looked up first
in the folder the cells run in (the matrix's `cwd`, else where crashmatrix runs), as a shell would, then
beside the matrix file, so a matrix written next to its app (`crashmatrix init`) runs from anywhere. The path
found is made absolute, so the run directory's copy of the matrix (rerun, --resume, bisect RUN) finds it too.
A program that is nowhere is bad input: exit 2 before any cell, rather than every cell failing the same way.
"""

from __future__ import annotations

import dataclasses
import os
import shutil

from crashmatrix.errors import BadInput
from crashmatrix.matrix.spec import Matrix

# python's own options that take the next argument: the script comes after them.
_PYTHON_OPTIONS_WITH_VALUE = {"-W", "-X", "-Q"}
_PYTHONS = ("python", "python3")


def _script_index(command: tuple) -> int | None:
    """Where the script sits in `python [options] script args`; None for -m, -c or no script."""
    i = 1
    while i < len(command):
        arg = command[i]
        if arg in ("-m", "-c") or arg.startswith(("-m", "-c")) and len(arg) > 2:
            return None
        if arg in _PYTHON_OPTIONS_WITH_VALUE:
            i += 2
            continue
        if arg.startswith("-"):
            i += 1
            continue
        return i
    return None


def module_file(command: tuple, cwd: str = "", paths: tuple = ()) -> str | None:
    """The file of `python -m package.train`, as Python finds it where the cell runs: in its folder (cwd, else
    crashmatrix's), then in the PYTHONPATH folders it is given (paths); else None."""
    if command[0] not in _PYTHONS or "-m" not in command[:-1]:
        return None
    module = command[command.index("-m") + 1].replace(".", os.sep)
    for base in (cwd or os.getcwd(), *paths):
        for candidate in (module + ".py", os.path.join(module, "__main__.py")):
            if os.path.isfile(os.path.join(base, candidate)):
                return os.path.abspath(os.path.join(base, candidate))
    return None


def script_of(command: tuple, cwd: str = "", paths: tuple = ()) -> str | None:
    """The Python file a command runs: the script after `python [options]`, the module of `python -m` (found
    from cwd and paths, as module_file), or the program itself when it is a .py file; None otherwise."""
    if not command:
        return None
    if command[0] in _PYTHONS:
        i = _script_index(command)
        return module_file(command, cwd, paths) if i is None else command[i]
    return command[0] if command[0].endswith(".py") else None


def _found(path: str, cwd: str, matrix_dir: str) -> str | None:
    if os.path.isabs(path):
        return path if os.path.exists(path) else None
    for base in (cwd, matrix_dir):
        candidate = os.path.join(base, path)
        if os.path.exists(candidate):
            return os.path.abspath(candidate)
    return None


def launcher_script_index(command: tuple) -> int | None:
    """Where the training script sits after a distributed launcher (`torchrun [options] train.py`, `python -m
    torch.distributed.run [options] train.py`): its first argument, not an option, that names a .py file;
    None for another command, or a launcher of a module (`-m`/`--module`) or a program (`--no-python`)."""
    if command and os.path.basename(command[0]) == "torchrun":
        start = 1
    elif command and command[0] in _PYTHONS and list(command[1:3]) in _LAUNCHER_MODULES:
        start = 3
    else:
        return None
    for i in range(start, len(command)):
        arg = command[i]
        if arg in ("-m", "--module", "--no-python", "--no_python"):
            return None
        if not arg.startswith("-") and arg.endswith(".py"):
            return i
    return None


_LAUNCHER_MODULES = (["-m", "torch.distributed.run"], ["-m", "torch.distributed.launch"])


def resolve_program(matrix: Matrix, matrix_path: str) -> Matrix:
    """The matrix with its program's path made absolute, and a distributed launcher's script; BadInput when
    either is nowhere."""
    if not matrix.command:
        return matrix
    command = list(matrix.command)
    matrix_dir = os.path.dirname(os.path.abspath(matrix_path))
    launched = launcher_script_index(matrix.command)
    if launched is not None:
        i, key, path = launched, "command", command[launched]
        if command[0] not in _PYTHONS and os.sep not in command[0] and shutil.which(command[0]) is None:
            raise BadInput(f"{matrix_path}: command: program '{command[0]}' is not on PATH")
    elif command[0] in _PYTHONS:
        index = _script_index(matrix.command)
        if index is None:
            return matrix
        i, key, path = index, "command", command[index]
    elif os.sep in command[0]:
        i, key, path = 0, "command", command[0]
    else:
        if shutil.which(command[0]) is None:
            raise BadInput(f"{matrix_path}: command: program '{command[0]}' is not on PATH")
        return matrix
    cwd = matrix.cwd or os.getcwd()  # where the cells run: a relative path is theirs first, as a shell's
    found = _found(path, cwd, matrix_dir)
    if found is None:
        raise BadInput(f"{matrix_path}: {key}: no file '{path}' in {cwd} or beside the matrix file ({matrix_dir})")
    command[i] = found
    return dataclasses.replace(matrix, command=tuple(command))
