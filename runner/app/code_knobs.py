"""Knobs an app writes into its own code, read with ast: DataLoader's (`DataLoader(ds, pin_memory=True)`) and
DistributedDataParallel's (`DistributedDataParallel(model, find_unused_parameters=True)`, or Lightning's
`DDPStrategy(static_graph=True)`, which passes them on to it: `ddp.find_unused_parameters`, ...).

The app is never run or imported. Its files are the app itself, the modules it imports, and the modules
its config names as `_target_` (Hydra instantiates `src.data.DataModule` from `src/data.py`), found as
Python would find them beside the app: in the app's folder or a folder above it, up to the project's
root (the first folder holding `.project-root`, `pyproject.toml`, `setup.py`, `setup.cfg` or `.git`)
and at most three folders up. Only values written as constants count; `pin_memory=cfg.pin` is the
config's, which init reads from the config itself.
"""

from __future__ import annotations

import ast
import os
from dataclasses import dataclass
from typing import Any

from crashmatrix.incell.knobs import DDP_KNOBS, LOADER_KNOBS

ROOT_MARKERS = (".project-root", "pyproject.toml", "setup.py", "setup.cfg", ".git")
MAX_FILES = 300  # an app's own modules; beyond them it is a whole tree, not an app
MAX_UP = 3


@dataclass(frozen=True)
class CodeSetting:
    knob: str  # pin_memory
    value: Any  # True
    where: str  # src/data.py:21, relative to the app's folder's parent


def search_roots(app: str) -> list[str]:
    """The app's folder and the folders above it where its imports may be found."""
    folder = os.path.dirname(os.path.abspath(app))
    roots = [folder]
    for _ in range(MAX_UP):
        if any(os.path.exists(os.path.join(roots[-1], m)) for m in ROOT_MARKERS):
            break
        parent = os.path.dirname(roots[-1])
        if parent == roots[-1]:
            break
        roots.append(parent)
    return roots


def _module_file(name: str, roots: list[str]) -> str | None:
    """The file of a dotted module name under one of the roots, or None (an installed package, not the app's)."""
    parts = name.split(".")
    for root in roots:
        base = os.path.join(root, *parts)
        for path in (base + ".py", os.path.join(base, "__init__.py")):
            if os.path.isfile(path):
                return path
    return None


def _relative_base(path: str, level: int) -> str:
    folder = os.path.dirname(path)
    for _ in range(level - 1):
        folder = os.path.dirname(folder)
    return folder


def _imported(tree: ast.AST, path: str, roots: list[str]) -> list[str]:
    """Files of the app's own modules that this file imports."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [_module_file(a.name, roots) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            search = [_relative_base(path, node.level)] if node.level else roots
            module = node.module or ""
            found.append(_module_file(module, search) if module else None)
            # `from pkg import data` may name a module as well as a name inside pkg
            found += [_module_file(f"{module}.{a.name}".lstrip("."), search) for a in node.names]
    return [f for f in found if f]


# What a call's name says it builds -> {its keyword: the knob it is}.
_CALLS = {
    "DataLoader": {k: k for k in LOADER_KNOBS},
    **{
        name: {k.removeprefix("ddp."): k for k in DDP_KNOBS}
        for name in ("DistributedDataParallel", "DDP", "DDPStrategy")
    },
}


def _called(func: ast.expr) -> str:
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def _settings(tree: ast.AST, where: str) -> list[CodeSetting]:
    """Constant knob values in this file's DataLoader(...) and DistributedDataParallel(...) calls."""
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        knobs = _CALLS.get(_called(node.func), {})
        for kw in node.keywords:
            if kw.arg in knobs and isinstance(kw.value, ast.Constant):
                out.append(CodeSetting(knobs[kw.arg], kw.value.value, f"{where}:{kw.value.lineno}"))
    return out


def _parsed(path: str) -> ast.AST | None:
    try:
        with open(path, encoding="utf-8") as f:
            return ast.parse(f.read(), filename=path)
    except (OSError, UnicodeDecodeError, SyntaxError, ValueError):
        return None  # a file the app cannot import either; its config still speaks


def loader_settings(app: str, targets: list[str]) -> list[CodeSetting]:
    """The knob values written into the DataLoader calls of the app's own code. targets: the `_target_`
    values of its config (dotted paths to a class or function)."""
    roots = search_roots(app)
    todo = [os.path.abspath(app)]
    todo += [f for t in targets if (f := _module_file(t.rpartition(".")[0], roots))]
    seen: set[str] = set()
    found = []
    base = os.path.dirname(roots[0])
    while todo and len(seen) < MAX_FILES:
        path = os.path.realpath(todo.pop(0))
        if path in seen:
            continue
        seen.add(path)
        tree = _parsed(path)
        if tree is None:
            continue
        found += _settings(tree, os.path.relpath(path, base))
        todo += _imported(tree, path, roots)
    return found
