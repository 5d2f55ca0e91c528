"""The declared dependencies are exactly what the package imports: every third-party import in
runner/ and probes/ is declared, and nothing is declared that no module imports."""

import ast
import os
import re
import sys

import pytest
from conftest import ROOT

tomllib = pytest.importorskip("tomllib")

# import name -> distribution name, where the two differ
DISTRIBUTION = {"yaml": "pyyaml", "hydra": "hydra-core", "PIL": "pillow"}
# Imported only for a probe's `wandb` parameter, which a user asks for; the dev extra has them.
OPTIONAL = {"wandb", "pillow"}


def _imported_distributions() -> set[str]:
    found = set()
    for folder in ("runner", "probes"):
        for parent, _dirs, files in os.walk(os.path.join(ROOT, folder)):
            for name in (f for f in files if f.endswith(".py")):
                path = os.path.join(parent, name)
                for node in ast.walk(ast.parse(open(path, encoding="utf-8").read(), path)):
                    if isinstance(node, ast.Import):
                        found |= {a.name.split(".")[0] for a in node.names}
                    elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                        found.add(node.module.split(".")[0])
    third_party = {m for m in found if m not in sys.stdlib_module_names and m not in ("crashmatrix", "__future__")}
    return {DISTRIBUTION.get(m, m) for m in third_party}


def _names(requirements: list[str]) -> set[str]:
    return {re.split(r"[<>=!~\[; ]", r, maxsplit=1)[0].lower() for r in requirements}


def test_declared_dependencies_are_exactly_the_imported_ones():
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        project = tomllib.load(f)["project"]
    imported = _imported_distributions()
    assert imported - OPTIONAL == _names(project["dependencies"])
    assert imported & OPTIONAL <= _names(project["optional-dependencies"]["dev"])
