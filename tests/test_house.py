"""The house rules, checked on the source itself: no import cycle among the project's modules
(imports inside functions count), imports one way between the controller's layers (issue 29), no
function over 60 lines and no class over 200 in runner/ and probes/, and in-cell code that imports
only the standard library and itself. A change that breaks one fails here, naming the place."""

import ast
import functools
import os
import re
import sys
import tokenize

import pytest
from conftest import ROOT

# folder in the repository -> the dotted name it installs as (pyproject's package-dir)
PACKAGES = {"runner": "crashmatrix", "probes": "crashmatrix.probes"}
MAX_FUNCTION_LINES = 60
MAX_CLASS_LINES = 200


def _modules() -> dict[str, str]:
    """Dotted module name -> path, for every .py file under the project's packages."""
    found = {}
    for folder_name, package in PACKAGES.items():
        top = os.path.join(ROOT, folder_name)
        for folder, _dirs, files in os.walk(top):
            for name in files:
                if not name.endswith(".py"):
                    continue
                path = os.path.join(folder, name)
                dotted = package + "." + os.path.relpath(path, top)[:-3].replace(os.sep, ".")
                found[dotted.removesuffix(".__init__")] = path
    return found


def _imports(path: str, module: str, known: set) -> set:
    """The project modules this file imports, anywhere in it (function bodies included)."""
    tree = ast.parse(open(path, encoding="utf-8").read(), path)
    package = module if path.endswith("__init__.py") else module.rpartition(".")[0]
    out = set()
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            names = [base] + [f"{base}.{a.name}" for a in node.names]
        for name in names:
            # `from crashmatrix import engine` imports crashmatrix.engine.loop; `import a.x.y` imports a.x.y
            while name and name not in known:
                name = name.rpartition(".")[0]
            if name and name != module:
                out.add(name)
    return out


def _cycles(graph: dict) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index, low, on_stack, stack, result, counter = {}, {}, set(), [], [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                result.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return result


def test_no_import_cycle_among_the_projects_modules():
    modules = _modules()
    known = set(modules)
    graph = {m: _imports(p, m, known) for m, p in modules.items()}
    # a package's __init__ importing its own submodules is not a cycle worth breaking
    for m in graph:
        graph[m] = {d for d in graph[m] if not (m.startswith(d + ".") and d in PACKAGES.values())}
    assert _cycles(graph) == []


def _too_long(path: str) -> list[str]:
    tree = ast.parse(open(path, encoding="utf-8").read(), path)
    rel = os.path.relpath(path, ROOT)
    found = []
    for node in ast.walk(tree):
        span = getattr(node, "end_lineno", 0) - getattr(node, "lineno", 0) + 1
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and span > MAX_FUNCTION_LINES:
            found.append(f"{rel}:{node.lineno} def {node.name}: {span} lines")
        elif isinstance(node, ast.ClassDef) and span > MAX_CLASS_LINES:
            found.append(f"{rel}:{node.lineno} class {node.name}: {span} lines")
    return found


def test_no_function_over_60_lines_and_no_class_over_200():
    assert [f for path in sorted(_modules().values()) for f in _too_long(path)] == []


# ------------------------------------------------------------------ one way between the layers

# The controller's layers, lowest first (docs/house.md draws them). A module may import its own
# layer and the ones below; a subpackage is a layer, a top-level module is named one by one.
LAYERS = [
    ["incell"],
    ["errors", "text", "plain_text", "cell", "outcome", "redaction", "axis_values"],
    ["matrix"],
    ["app"],
    ["machine"],
    ["rundir"],
    ["process"],
    ["verdict"],
    ["engine"],
    ["answers"],
    ["bisect"],
    ["hunt"],
    ["resolve"],
    ["report"],
    ["runmatrix", "rerun"],
    ["hydra"],
    ["cli", "__main__", "child", "probes"],
]


def _layer(module: str) -> int:
    """The layer of a module of crashmatrix, by its first name below the package."""
    first = module.removeprefix("crashmatrix").lstrip(".").split(".")[0]
    if not first:
        return len(LAYERS)  # the package's own __init__: above everything, imports nothing of ours
    for i, names in enumerate(LAYERS):
        if first in names:
            return i
    raise AssertionError(f"{module} is in no layer of LAYERS: add it (docs/house.md) before it lands")


def _upward_imports(graph: dict) -> list[str]:
    return sorted(
        f"{m} (layer {_layer(m)}) imports {d} (layer {_layer(d)})"
        for m, deps in graph.items()
        if not m.startswith("crashmatrix.probes")
        for d in deps
        if d != "crashmatrix" and not d.startswith("crashmatrix.probes") and _layer(d) > _layer(m)
    )


def test_imports_go_one_way_between_the_controllers_layers():
    modules = _modules()
    known = set(modules)
    graph = {m: _imports(p, m, known) for m, p in modules.items()}
    assert len([m for m in modules if m.count(".") >= 2]) >= 50  # the subpackages are there
    assert _upward_imports(graph) == []


def test_every_module_has_a_layer_and_at_most_15_stay_at_the_top():
    found = _modules()
    modules = [m for m in found if not m.startswith(("crashmatrix.probes", "crashmatrix.incell"))]
    for m in modules:
        _layer(m)
    top = [m for m in modules if m.count(".") == 1 and not found[m].endswith("__init__.py")]
    assert len(top) <= 15, top


@pytest.mark.parametrize(
    "module, planted",
    [
        ("crashmatrix.matrix.spec", "crashmatrix.engine.loop"),  # a function-level import counts as well
        ("crashmatrix.verdict.classify", "crashmatrix.report.summary"),
        ("crashmatrix.cell", "crashmatrix.matrix.spec"),
    ],
)
def test_the_layer_rule_sees_a_planted_upward_import(module, planted):
    modules = _modules()
    graph = {m: _imports(p, m, set(modules)) for m, p in modules.items()}
    graph[module] = graph[module] | {planted}
    assert _upward_imports(graph) == [f"{module} (layer {_layer(module)}) imports {planted} (layer {_layer(planted)})"]


# ------------------------------------------------------------------ the in-cell boundary

INCELL = os.path.join(ROOT, "runner", "incell")


def _foreign_imports(source: str, path: str) -> list[str]:
    """The imports of an in-cell file that break the rule, function bodies included: anything but the
    standard library and incell/ itself (relatively), and torch at module level (loading an in-cell
    module must not import it; a function may, once the program has)."""
    tree = ast.parse(source, path)
    in_functions = {
        id(n)
        for fn in ast.walk(tree)
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
        for n in ast.walk(fn)
        if n is not fn
    }
    folder = os.path.relpath(os.path.dirname(path), INCELL)
    depth = 0 if folder == "." else len(folder.split(os.sep))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level:
            # `from . import x` from incell/, `from .. import x` from incell/inject/: a sibling; higher leaves incell/
            names = [] if node.level - 1 <= depth else ["." * node.level + (node.module or "")]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""]
        else:
            continue
        for name in names:
            top = name.split(".")[0]
            if top in sys.stdlib_module_names or top == "__future__":
                continue
            if top == "torch" and id(node) in in_functions:
                continue
            found.append(f"{os.path.relpath(path, ROOT)}:{node.lineno} imports {name}")
    return found


def _incell_files() -> list[str]:
    return sorted(
        os.path.join(folder, name) for folder, _d, files in os.walk(INCELL) for name in files if name.endswith(".py")
    )


def test_in_cell_code_imports_only_the_standard_library_and_itself():
    # It runs inside the user's program (inject/sitecustomize.py): a module of the controller there would
    # drag in its libraries (yaml, hydra, tabulate), and could meet the user's own package of that name.
    assert len(_incell_files()) >= 8
    assert [f for path in _incell_files() for f in _foreign_imports(open(path, encoding="utf-8").read(), path)] == []


@pytest.mark.parametrize(
    "planted",
    [
        "import yaml\n",
        "def f():\n    from crashmatrix import engine\n",
        "def f():\n    from .. import engine\n",
        "import torch\n",
        "class C:\n    import torch\n",
    ],
)
def test_the_in_cell_rule_sees_a_planted_import(planted):
    allowed = "import os\nfrom . import atomic\ndef g():\n    import torch.multiprocessing\n"
    where = os.path.join(INCELL, "planted.py")
    assert _foreign_imports(allowed, where) == []
    assert _foreign_imports(allowed + planted, where)


# ------------------------------------------------------------------ names in prose name real modules

# Where prose names the project's code: the folders and root files a reader opens. Python files count
# by their comments and strings only (their code is checked by importing it).
PROSE_FOLDERS = ["runner", "probes", "hydra_plugins", "docs", "tests", "scripts", "bench", "examples"]
PROSE_ROOT_FILES = ["README.md", "Makefile", "pyproject.toml"]
# `crashmatrix.launch.run_env` or `runner.hunt_text`: a module, then optionally a name in it
DOTTED = re.compile(r"(?<![\w./+-])(?:crashmatrix|runner)(?:\.\w+)+(?![\w-])")
# `runner/hunt/text.py`, `probes/`, `docs/hydra.md`: a path from the repository's root
PATH = re.compile(r"(?<![\w./-])(?:runner|probes|docs)(?:/[\w.-]*\w)+")
FILE_SUFFIXES = {"py", "yaml", "yml", "json", "csv", "html", "md", "txt", "toml", "log"}
# Names that are not the project's: a user's own module called runner, planted by a test (the collision
# the import name crashmatrix avoids), and the file name a test gives its planted source.
NOT_OURS = {
    ("tests/test_cells.py", "runner.WHO"),
    ("tests/test_outcome_words.py", "runner/planted.py"),
    # a recorded traceback quoting asyncio's own source line `return runner.run(main)`
    ("tests/zoo/recorded/heldout3/single/repro/ConnectionError-shard-N-server-closed-the/ISSUE.md", "runner.run"),
}
# JUnit property names (`report --format junit`, a finding beyond failure), not modules.
NOT_MODULES = {"crashmatrix.slow", "crashmatrix.memory_growth"}


def _prose_files() -> list[str]:
    found = [os.path.join(ROOT, name) for name in PROSE_ROOT_FILES]
    for top in PROSE_FOLDERS:
        for folder, dirs, files in os.walk(os.path.join(ROOT, top)):
            # tests/zoo/recorded/: what crashmatrix wrote about the zoo's programs (ISSUE.md naming a project's
            # own `runner.py`), not prose of this repository's
            dirs[:] = [d for d in dirs if not d.startswith(".") and d not in ("__pycache__", "recorded")]
            found += [os.path.join(folder, n) for n in files if n.endswith((".py", ".md"))]
    # this file plants unreal names on purpose
    return sorted(p for p in found if os.path.abspath(p) != os.path.abspath(__file__))


def _prose(text: str) -> list[tuple[int, str]]:
    """(line, text) of a Python file's comments and strings, an f-string's {fields} left out."""
    return [
        (t.start[0], re.sub(r"{[^{}]*}", "", t.string) if re.match(r"\w*[fF]\w*['\"]", t.string) else t.string)
        for t in tokenize.generate_tokens(iter(text.splitlines(keepends=True)).__next__)
        if t.type in (tokenize.COMMENT, tokenize.STRING)
    ]


def _top_level_names(path: str) -> set[str]:
    """What `module.name` may name: the module's top-level functions, classes, assignments and imports."""
    names, todo = set(), list(ast.parse(open(path, encoding="utf-8").read(), path).body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
        elif isinstance(node, (ast.If, ast.Try, ast.With)):
            todo += [n for field in ("body", "orelse", "finalbody") for n in getattr(node, field, [])]
            todo += [n for h in getattr(node, "handlers", []) for n in h.body]
    return names


def _dotted_is_real(dotted: str, modules: dict[str, str], names_of) -> bool:
    from crashmatrix.matrix.knob_names import KNOBS

    if dotted.startswith("runner."):
        return False  # runner/ is the folder; its modules import as crashmatrix.X (docs/house.md says why)
    parts = ["crashmatrix"] + dotted.split(".")[1:]
    rest = ".".join(parts[1:])
    if parts[-1] in FILE_SUFFIXES or any(len(p) == 1 for p in parts) or rest.startswith(tuple(KNOBS)):
        return True  # a file (crashmatrix.yaml), a placeholder (crashmatrix.X), a knob's Hydra key
    for i in range(len(parts), 0, -1):
        module = ".".join(parts[:i])
        if module in modules:
            return i == len(parts) or parts[i].startswith("__") or parts[i] in names_of(modules[module])
    return False


def _unreal_in(text: str, modules: dict[str, str], names_of) -> list[str]:
    dotted = [m for m in DOTTED.findall(text) if not _dotted_is_real(m, modules, names_of)]
    paths = [
        m
        for m in PATH.findall(text)
        if not any(len(p) == 1 or p.startswith("X.") for p in m.split("/"))
        and not os.path.exists(os.path.join(ROOT, m))
    ]
    return dotted + paths


def _unreal_names(files: list[str]) -> list[str]:
    modules = _modules()
    # a package's folder is a module too, with or without an __init__.py (incell/inject has none)
    for m, p in list(modules.items()):
        modules.setdefault(m.rpartition(".")[0], os.path.join(os.path.dirname(p), "__init__.py"))
    names_of = functools.lru_cache(maxsize=None)(lambda p: _top_level_names(p) if os.path.exists(p) else set())
    found = []
    for path in files:
        rel = os.path.relpath(path, ROOT)
        text = open(path, encoding="utf-8").read()
        # most files name nothing unreal anywhere: only those that do are tokenized, to tell prose from code
        if not _unreal_in(text, modules, names_of):
            continue
        lines = _prose(text) if path.endswith(".py") else list(enumerate(text.splitlines(), 1))
        found += [
            f"{rel}:{line}: {name}"
            for line, chunk in lines
            for name in _unreal_in(chunk, modules, names_of)
            if (rel, name) not in NOT_OURS and name not in NOT_MODULES
        ]
    return found


def test_every_module_and_file_named_in_prose_exists():
    # A module that moved (issue 29 made runner.hunt_text crashmatrix.hunt.text) leaves docstrings, docs and
    # comments naming a module that is no longer there; a reader following them finds nothing.
    files = _prose_files()
    assert len(files) > 200
    assert _unreal_names(files) == []


def test_the_prose_rule_sees_a_moved_module(tmp_path):
    planted = tmp_path / "planted.py"
    planted.write_text(
        '"""Writes hunt.json (runner.hunt_text), as crashmatrix.launch.run_env says;\n'
        'see runner/hunt_text.py and crashmatrix.hunt.text.closing_line."""\n'
        "# runner.hunt.text.closing_line, crashmatrix.yaml, +crashmatrix.num_workers, runner/hunt/text.py\n"
        'runner.count = f"{runner.count} runs"  # code, not prose\n'
    )
    assert [f.split(": ", 1)[1] for f in _unreal_names([str(planted)])] == [
        "runner.hunt_text",
        "crashmatrix.launch.run_env",
        "runner/hunt_text.py",
        "runner.hunt.text.closing_line",  # a real module under the folder's name, not the import name
    ]
