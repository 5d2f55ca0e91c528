"""Which of a script's options are flags (`--amp` given or not), read from the script's text, never run.

Under `pass_params: options` a boolean reaches the program as `--amp=true`, which jsonargparse (LightningCLI)
and absl read. An argparse `action="store_true"` refuses it ("ignored explicit argument 'true'", exit 2), and
so do click's and typer's boolean flags ("Option '--amp' does not take a value"): a matrix axis `amp: [false,
true]` would fail every cell on the parser's usage error, which is no finding about the program. A flag that the
entry script declares gets its boolean as the parser wants it: true gives `--amp`, false gives the negative
option where the parser has one (`--no-amp`: argparse's BooleanOptionalAction, click's `--amp/--no-amp`, a
typer command's bool parameter) and nothing otherwise, the default of a store_true flag.

Only the entry script's own declarations are read (an `ast` walk, so a parser built in another module is not
seen: its booleans stay `--key=value`), and only a boolean value is spelled as a flag.
"""

from __future__ import annotations

import ast
import functools
import os

# the option's negative form, or "" where false is the option's absence
Flags = dict[str, str]


def script_flags(command: tuple | list, cwd: str) -> Flags:
    """The flags the command's entry script declares, by option string (`--amp`: "--no-amp" or "")."""
    from crashmatrix.matrix.from_command import program_script

    script = program_script(tuple(command), cwd) if command else None
    if not script:
        return {}
    path = os.path.join(cwd, script)
    try:
        stamp = os.stat(path).st_mtime_ns
    except OSError:
        return {}
    return dict(_declared(path, stamp))


@functools.lru_cache(maxsize=32)
def _declared(path: str, _stamp: int) -> tuple[tuple[str, str], ...]:
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            tree = ast.parse(f.read(500_000))
    except (OSError, SyntaxError, ValueError):
        return ()
    found: Flags = {}
    typer = _imports(tree, "typer")  # a click command's annotated bool is no flag unless click's option says so
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            found.update(_argparse_flag(node) or _click_flag(node))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and typer and _is_typer_command(node):
            found.update(_typer_flags(node))
    return tuple(found.items())


def _imports(tree: ast.Module, module: str) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] == module for a in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == module:
            return True
    return False


def _strings(call: ast.Call) -> list[str]:
    return [a.value for a in call.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]


def _keyword(call: ast.Call, name: str) -> ast.expr | None:
    return next((k.value for k in call.keywords if k.arg == name), None)


def _named(node: ast.expr | None) -> str:
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def _argparse_flag(call: ast.Call) -> Flags:
    """`parser.add_argument("--amp", action="store_true")` (store_false too: the flag given or not), and
    `action=argparse.BooleanOptionalAction` (`--amp` / `--no-amp`)."""
    if _named(call.func) != "add_argument":
        return {}
    options = [s for s in _strings(call) if s.startswith("-")]
    action = _keyword(call, "action")
    if isinstance(action, ast.Constant) and action.value in ("store_true", "store_false"):
        return dict.fromkeys(options, "")
    if _named(action) == "BooleanOptionalAction":
        return {o: "--no-" + o[2:] for o in options if o.startswith("--")}
    return {}


def _click_flag(call: ast.Call) -> Flags:
    """`@click.option("--amp/--no-amp")` and `@click.option("--amp", is_flag=True)`."""
    if _named(call.func) != "option":
        return {}
    flags: Flags = {}
    for declared in _strings(call):
        if "/" in declared and declared.startswith("-"):
            on, off = (part.strip() for part in declared.split("/", 1))
            flags[on] = off
    is_flag = _keyword(call, "is_flag")
    if not flags and isinstance(is_flag, ast.Constant) and is_flag.value is True:
        flags = dict.fromkeys((s for s in _strings(call) if s.startswith("-")), "")
    return flags


def _is_typer_command(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return any(_named(d.func if isinstance(d, ast.Call) else d) == "command" for d in function.decorator_list)


def _typer_flags(function: ast.FunctionDef | ast.AsyncFunctionDef) -> Flags:
    """A typer command's `amp: bool = False` parameter is `--amp/--no-amp`."""
    flags: Flags = {}
    for arg in [*function.args.args, *function.args.kwonlyargs]:
        if _named(arg.annotation) == "bool":
            name = "--" + arg.arg.replace("_", "-")
            flags[name] = "--no-" + name[2:]
    return flags
