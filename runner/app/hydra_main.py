"""An app's `@hydra.main`: whether a file has one, and the config folder and name it gives.

Read from the source with ast, never run. Its own module because deciding where a cell's files go
(rundir.cell_files: is this a Hydra app?) happens before the first cell starts, and must not load
all of `init` for it.
"""

from __future__ import annotations

import ast
import functools
import os
from dataclasses import dataclass

from crashmatrix.errors import BadInput


@dataclass(frozen=True)
class HydraMain:
    config_dir: str
    config_name: str


def find_hydra_main(app: str) -> HydraMain:
    """config_path and config_name of the app's @hydra.main, read from its source."""
    try:
        found = os.stat(app)
    except FileNotFoundError:
        raise BadInput(f"{app}: no such file") from None
    except OSError as e:
        raise BadInput(f"{app}: cannot read it: {e}") from None
    main = _read_hydra_main(app, found.st_mtime_ns, found.st_size)
    if isinstance(main, str):
        raise BadInput(main)
    return main


# A run places every failing cell of a Hydra app, and diagnose every log it is given, from the scripts of the
# same tracebacks: one parse per version of a file (its time and size) is enough, and so is one for a file that
# has no @hydra.main. Diagnosing the 856 recorded logs of tests/zoo parsed the same scripts 861 times, 6 of its
# 10 CPU-s.
@functools.lru_cache(maxsize=256)
def _read_hydra_main(app: str, _mtime_ns: int, _size: int) -> HydraMain | str:
    """The app's @hydra.main, or why it has none (BadInput's message)."""
    try:
        return _parse_hydra_main(app)
    except BadInput as e:
        return str(e)


def _parse_hydra_main(app: str) -> HydraMain:
    try:
        with open(app, encoding="utf-8") as f:
            tree = ast.parse(f.read(), filename=app)
    except FileNotFoundError:
        raise BadInput(f"{app}: no such file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise BadInput(f"{app}: cannot read it: {e}") from None
    except SyntaxError as e:
        raise BadInput(f"{app}: not Python (line {e.lineno}: {e.msg})") from None
    call = hydra_main_call(tree)
    if call is not None:
        return _main_args(app, call)
    raise BadInput(f"{app}: no @hydra.main(config_path=..., config_name=...) found; init reads a Hydra app's config")


def hydra_main_call(tree: ast.AST) -> ast.Call | None:
    """The `@hydra.main(...)` decorator call of a parsed module, or None: a Hydra app is a file with one."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for deco in node.decorator_list:
                if isinstance(deco, ast.Call) and _is_hydra_main(deco.func):
                    return deco
    return None


def _is_hydra_main(func: ast.expr) -> bool:
    if isinstance(func, ast.Attribute):  # hydra.main
        return func.attr == "main" and isinstance(func.value, ast.Name) and func.value.id == "hydra"
    return isinstance(func, ast.Name) and func.id == "main"  # from hydra import main


def _main_args(app: str, call: ast.Call) -> HydraMain:
    given = dict(zip(("config_path", "config_name"), call.args))
    given.update({k.arg: k.value for k in call.keywords if k.arg in ("config_path", "config_name")})
    found = {}
    for key in ("config_path", "config_name"):
        node = given.get(key)
        if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
            raise BadInput(
                f"{app}: line {call.lineno}: @hydra.main needs {key} as a plain string for init to find the config"
            )
        found[key] = node.value
    path = found["config_path"]
    if path.startswith("pkg://"):
        raise BadInput(f"{app}: line {call.lineno}: config_path {path!r}: a package path; init reads a folder of YAML")
    config_dir = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(app)), path))
    if not os.path.isdir(config_dir):
        raise BadInput(f"{app}: config_path {path!r}: no such folder ({config_dir})")
    return HydraMain(config_dir, found["config_name"])
