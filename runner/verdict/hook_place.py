"""`where` for Lightning's refusal of what a hook of the program returned: that hook of the program's
LightningModule, as the cell's main process recorded it under inject (incell/hook_place.py). Pure but for
reading the record; never imports torch."""

from __future__ import annotations

import ast
import os
import re

from crashmatrix.incell.hook_place import PREFIX
from crashmatrix.incell.stackdump import dump_dir
from crashmatrix.outcome import Outcome
from crashmatrix.verdict.app_paths import app_root, from_root
from crashmatrix.verdict.classify import Verdict


def _returned_at(path: str, line: int) -> int:
    """The line of the one `return` of the function defined at line (what it returned is what was refused); the
    `def` line where it has none or several, or the file cannot be read."""
    try:
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), filename=path)
    except (OSError, UnicodeDecodeError, SyntaxError, ValueError):
        return line
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.lineno == line:
            returns = [r for r in ast.walk(node) if isinstance(r, ast.Return) and r.value is not None]
            return returns[0].lineno if len(returns) == 1 else line
    return line


def _already_placed(where: str, path: str, hook: str) -> bool:
    """The stack already ends in the hook (Lightning raised while the hook ran: `self.log` in `on_train_end`):
    its own frame is the place, and the `def` line again would name one place twice."""
    return any(frame.startswith(f"{path}:") and frame.endswith(f" in {hook}") for frame in where.split("; "))


_RECORDED = re.compile(r"^(?P<file>.+):(?P<line>\d+) in (?P<func>\S+)$")


def placed(verdict: Verdict, where: str, cell_dir: str, pid: int | None) -> str:
    """`where` ending at the hook the failing exception named, at the line that returned what Lightning refused
    where the hook has one `return` (`lit_app/models.py:25 in training_step`), else its `def`; where the main
    process recorded one; else `where` as it is."""
    if verdict.outcome is not Outcome.FAIL or pid is None:
        return where
    try:
        with open(os.path.join(dump_dir(cell_dir), f"{PREFIX}{pid}.txt"), encoding="utf-8") as f:
            lines = f.read().splitlines()
    except (OSError, UnicodeDecodeError):
        return where
    hooks = []
    for line in lines:
        m = _RECORDED.match(line)
        hook = m["func"].rsplit(".", 1)[-1] if m else ""
        if m and f"`{hook}`" in verdict.error:  # the hook this very error names
            path = from_root(m["file"], app_root(m["file"]))
            if _already_placed(where, path, hook):
                continue
            hooks.append(f"{path}:{_returned_at(m['file'], int(m['line']))} in {hook}")
    return "; ".join([where, *hooks] if where else hooks) if hooks else where
