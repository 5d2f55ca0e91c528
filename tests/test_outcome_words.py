"""One failure identity: crashmatrix.outcome.FailureKind, and no outcome word spelt as a literal outside
runner/outcome.py (a literal outside it is a second definition of that word, which can drift)."""

import ast
import math
import os

from conftest import ROOT

from crashmatrix.outcome import ORDER, RESTATES_OUTCOME, FailureKind
from crashmatrix.verdict import signature

FOLDERS = ("runner", "probes")
HOME = os.path.join("runner", "outcome.py")
# Words that mean nothing else in this tree: any literal of one is an outcome.
UNAMBIGUOUS = {"pass", "fail", "crash", "worker_crash", "cuda_error", "oom"}
# (file, word) where the word is another vocabulary's; each with the reason.
ALLOWED = {
    (os.path.join("probes", "fault.py"), "pass"): "the fault probe's mode that injects nothing",
}


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def _word(node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in ORDER:
        return node.value
    return None


def _names_outcome(node: ast.AST) -> bool:
    """`outcome`, `row["outcome"]`, `r.get("outcome")`, `obs.outcome`: an expression holding an outcome word."""
    return "outcome" in ast.unparse(node)


def _as_outcome(tree: ast.AST) -> set[int]:
    """Literals of any outcome word (timeout, error, ... included) used as an outcome: compared with one,
    passed as `outcome=`, or the value of an "outcome" key."""
    used = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            if any(_names_outcome(o) for o in operands):
                used.update(id(o) for o in operands if _word(o))
                for o in operands:  # `outcome in ("pass", "skip")`
                    if isinstance(o, ast.Tuple | ast.List | ast.Set):
                        used.update(id(e) for e in o.elts if _word(e))
        elif isinstance(node, ast.keyword) and node.arg == "outcome" and _word(node.value):
            used.add(id(node.value))
        elif isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values):
                if isinstance(key, ast.Constant) and key.value == "outcome" and _word(value):
                    used.add(id(value))
    return used


def outcome_literals(source: str, path: str) -> list[str]:
    """'path:line: "word"' for each outcome word spelt as a literal value in source."""
    tree = ast.parse(source, path)
    docstrings, as_outcome = _docstrings(tree), _as_outcome(tree)
    found = []
    for node in ast.walk(tree):
        word = _word(node)
        if word is None or id(node) in docstrings or (path, word) in ALLOWED:
            continue
        if word in UNAMBIGUOUS or id(node) in as_outcome:
            found.append((node.lineno, node.col_offset, word))
    return [f"{path}:{line}: {word!r}" for line, _col, word in sorted(found)]


def _tree_literals() -> list[str]:
    found = []
    for folder in FOLDERS:
        for top, _dirs, files in os.walk(os.path.join(ROOT, folder)):
            for name in sorted(files):
                path = os.path.join(top, name)
                rel = os.path.relpath(path, ROOT)
                if name.endswith(".py") and rel != HOME:
                    found += outcome_literals(open(path, encoding="utf-8").read(), rel)
    return found


def test_no_outcome_word_literal_outside_outcome_py():
    found = _tree_literals()
    assert not found, "outcome words spelt outside runner/outcome.py (use Outcome or FailureKind):\n" + "\n".join(found)


def test_the_scan_finds_each_way_an_outcome_literal_is_planted():
    planted = '''
def f(row, result):
    """A docstring may say pass, "crash" and worker_crash."""
    columns = ["error", "timeout"]  # column and key names, not outcomes
    if row["outcome"] == "skip":
        return "worker_crash"
    if result.outcome in ("timeout", "nan"):
        return RunResult(outcome="error")
    return {"outcome": "oom", "error": ""}
'''
    found = outcome_literals(planted, "runner/planted.py")
    assert [line.split(": ", 1)[1] for line in found] == [
        "'skip'",
        "'worker_crash'",
        "'timeout'",
        "'nan'",
        "'error'",
        "'oom'",
    ], found


def test_signatures_that_restate_an_outcome_are_signatures():
    assert set(RESTATES_OUTCOME) <= set(signature.VOCABULARY)


def test_a_kind_from_a_row_treats_missing_none_and_nan_as_empty():
    assert FailureKind.from_row({"outcome": "crash", "signal": "SIGSEGV"}) == FailureKind("crash", "SIGSEGV", "")
    assert FailureKind.from_row({"outcome": "fail", "signal": None, "signature": math.nan}) == FailureKind("fail")
    row = {"outcome": "fail", "signal": "", "signature": "fd_exhaustion"}
    assert FailureKind.from_row(row, with_signature=False) == FailureKind("fail")
    assert FailureKind.from_row({"outcome": "pass"}).is_pass
    assert FailureKind("error").is_run_error and not FailureKind("error").counts_as_failing


def test_a_kind_is_labelled_on_one_line():
    assert FailureKind("crash", "SIGSEGV", "killed_by_signal").label() == "crash SIGSEGV"
    assert FailureKind("fail", "", "fd_exhaustion").label() == "fail fd_exhaustion"
    assert FailureKind("pass").label() == "pass"
    long = FailureKind("fail", "", "ValueError: " + "x" * 80)
    assert long.label(20) == "fail ValueError: xxxxxxx…"
    assert long.label(None, parenthesized=True) == f"fail ({long.signature})"
    assert FailureKind("timeout", "", "hang").label(None, parenthesized=True) == "timeout"


def test_kinds_order_as_their_fields_do():
    kinds = [FailureKind("pass"), FailureKind("crash", "SIGSEGV"), FailureKind("crash", "SIGBUS", "x")]
    assert [(k.outcome, k.signal, k.signature) for k in sorted(kinds)] == sorted(
        (k.outcome, k.signal, k.signature) for k in kinds
    )
