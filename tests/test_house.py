"""The house rules of issue 13, checked on the source itself: no import cycle among the project's
modules (imports inside functions count), no function over 60 lines and no class over 200 in runner/
and probes/. A change that breaks one fails here, naming the place."""

import ast
import os

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
            # `from crashmatrix import engine` imports crashmatrix.engine; `import a.x.y` imports a.x.y
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
