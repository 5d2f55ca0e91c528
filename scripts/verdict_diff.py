"""The verdict rules over every recorded text, as JSON: to show that a refactor of runner/verdict/ changes nothing.

    .venv/bin/python scripts/verdict_diff.py --out before.json [ROOT ...]
    .venv/bin/python scripts/verdict_diff.py --out after.json --diff before.json [ROOT ...]
    .venv/bin/python scripts/verdict_diff.py --diff scripts/verdict_before.json.gz   # against the kept baseline
    .venv/bin/python scripts/verdict_diff.py --count --time 3 [ROOT ...]   # scans of the text, time per cell

ROOTs (default: tests/zoo/recorded, tests/data, results/reference, and /work/shared/gpu-runs where it exists) are
walked for two kinds of record:
- a cell directory (result.json beside stderr.log): what the engine does at a cell's end from its text alone,
  classify (with the exit status, the timeout, the probe's report and the ranks' recorder files), then
  forensics.refine with no process and no kernel log, then signed_by_place; the text-only helpers
  (exception_place, tells_a_failure, the root rank); the synchronous rerun's findings where it has one
  (sync/: the launching line, cuDNN's and NCCL's words); and `crashmatrix diagnose` of its stderr;
- every other log (*.log, *.err, *.out, *.txt): `crashmatrix diagnose` of it (resolve/diagnose.py);
and the outputs pasted as module-level strings in tests/test_classify.py, test_ranks.py, test_exception_place.py
and test_forensics.py: classify (exit status 1, and -11), the text helpers, diagnose.

--count wraps every regular expression crashmatrix compiles and counts its searches (search, finditer, findall,
split, sub; not match, which tries one place) over a span at least as long as the cell's whole output (80% of
it: the text less escape codes and torchrun's prefixes): how many times classify's rules scan the raw text per
cell. --count-by says which functions made them. --time N times the cell path (classify, refine, sign) N
times over the corpus and prints the median per cell.

scripts/verdict_before.json.gz is the JSON of the verdict code before the output parser came (commit 322c864),
with /work/shared/gpu-runs among the roots.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import statistics
import sys
import time

_HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_ROOTS = ["tests/zoo/recorded", "tests/data", "results/reference", "/work/shared/gpu-runs"]
_LOG_ENDS = (".log", ".out", ".err", ".txt")


class _Scans:
    """The count of searches over the whole text, while one is being judged."""

    full_length = 0
    count = 0
    on = False
    by = None  # a Counter of the functions that search, with --count-by


def _spanned(string, args, kwargs) -> int:
    """How much of string a pattern method is asked to search (its pos and endpos)."""
    pos = args[0] if args else kwargs.get("pos", 0)
    endpos = args[1] if len(args) > 1 else kwargs.get("endpos", len(string))
    return min(endpos, len(string)) - pos


def _note(string, args=(), kwargs=None) -> None:
    if _Scans.on and isinstance(string, str) and _Scans.full_length:
        if _spanned(string, args, kwargs or {}) >= 0.8 * _Scans.full_length:
            _Scans.count += 1
            if _Scans.by is not None:
                _Scans.by[f"{sys._getframe(3).f_code.co_name} < {sys._getframe(4).f_code.co_name}"] += 1


def _counted(method):
    def wrapper(self, string, *args, **kwargs):
        _note(string, args if method not in ("split", "findall") else (), kwargs)
        return getattr(self._real, method)(string, *args, **kwargs)

    return wrapper


class _CountingPattern:
    """A compiled pattern whose searches are counted (re.Pattern itself cannot be patched)."""

    def __init__(self, real):
        self._real = real

    def __getattr__(self, name):
        return getattr(self._real, name)

    search = _counted("search")  # match and fullmatch try one place: no scan
    finditer = _counted("finditer")
    findall = _counted("findall")
    split = _counted("split")

    def sub(self, repl, string, *args, **kwargs):
        _note(string)
        return self._real.sub(repl, string, *args, **kwargs)


def _install_counter() -> None:
    """Before crashmatrix is imported: its compiled patterns count, and so do re's module functions it calls."""
    real_compile = re.compile

    def from_crashmatrix() -> bool:
        return sys._getframe(2).f_globals.get("__name__", "").startswith("crashmatrix")

    def compile_(pattern, flags=0):
        if isinstance(pattern, _CountingPattern):
            return pattern
        compiled = real_compile(pattern, flags)
        return _CountingPattern(compiled) if from_crashmatrix() else compiled

    def module_function(name):
        real = getattr(re, name)

        def wrapper(pattern, string, *args, **kwargs):
            if isinstance(pattern, _CountingPattern):
                pattern = pattern._real
            scanned = string if name not in ("sub", "subn") else args[0] if args else kwargs.get("string")
            if from_crashmatrix():
                _note(scanned)
            return real(pattern, string, *args, **kwargs)

        return wrapper

    for name in ("search", "finditer", "findall", "split", "sub", "subn"):
        setattr(re, name, module_function(name))
    re.compile = compile_


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def _json(path: str) -> dict:
    try:
        with open(path) as f:
            found = json.load(f)
        return found if isinstance(found, dict) else {}
    except (OSError, ValueError):
        return {}


def records(roots: list[str]) -> tuple[list[str], list[str]]:
    """(cell directories, loose logs) under the roots, sorted."""
    cells, logs = [], []
    for root in roots:
        for folder, dirs, files in os.walk(root):
            dirs.sort()
            if "result.json" in files and "stderr.log" in files:
                cells.append(folder)
                continue
            logs += [os.path.join(folder, n) for n in sorted(files) if n.endswith(_LOG_ENDS)]
    return sorted(cells), sorted(logs)


def _returncode(result: dict) -> int | None:
    from crashmatrix.verdict.signature import SIGNAL_TEXT  # noqa: F401  (the package is importable)

    if result.get("exit_code") not in (None, ""):
        return int(result["exit_code"])
    sig = result.get("signal") or ""
    if sig and result.get("outcome") != "timeout":
        import signal as signal_

        try:
            return -signal_.Signals[sig].value
        except KeyError:
            return None
    return None


def _cell_inputs(cell: str) -> dict:
    result = _json(os.path.join(cell, "result.json"))
    from crashmatrix.rundir.cell_logs import read_ends

    return {
        "rc": _returncode(result),
        "timed_out": result.get("outcome") == "timeout",
        "stderr": read_ends(os.path.join(cell, "stderr.log")),
        "stdout": read_ends(os.path.join(cell, "stdout.log")),
        "report": _json(os.path.join(cell, "report.json")) or None,
        "cell": cell,
    }


def judge_cell(given: dict) -> dict:
    """What a cell's end makes of its text: the verdict, `where`, the signature signed by its place."""
    from crashmatrix.verdict import forensics
    from crashmatrix.verdict.classify import classify, signed_by_place
    from crashmatrix.verdict.evidence import Evidence
    from crashmatrix.verdict.ranks import recorded_ranks

    verdict = classify(
        given["rc"],
        timed_out=given["timed_out"],
        stderr=given["stderr"],
        stdout=given["stdout"],
        report=given["report"],
        timeout_s=60.0 if given["timed_out"] else None,
        recorded=recorded_ranks(given["cell"]),
    )
    first = _verdict_fields(verdict)
    ev = Evidence(pid=0, started=0.0, stderr=given["stderr"])
    refined, where = forensics.refine(verdict, ev, kernel_log=lambda *_: [])
    signed = signed_by_place(refined, where)
    return {"classify": first, "refined": _verdict_fields(signed), "where": where}


def _verdict_fields(verdict) -> dict:
    return {
        "outcome": verdict.outcome.value,
        "signal": verdict.signal,
        "error": verdict.error,
        "signature": verdict.signature,
        "rank": verdict.rank,
        "told": verdict.told,
        "by_message": verdict.by_message,
    }


def text_helpers(text: str) -> dict:
    """The text-only helpers other modules call (ISSUE.md's place, diagnose's door, the ranks' rules)."""
    from crashmatrix.plain_text import plain
    from crashmatrix.verdict import ranks
    from crashmatrix.verdict.classify import exception_line, tells_a_failure
    from crashmatrix.verdict.exception_place import each_traceback, exception_place, failing_output

    text = plain(text)
    root = ranks.root_failure(ranks.without_role_prefix(text))
    return {
        "exception_line": exception_line(text),
        "tells_a_failure": tells_a_failure(text),
        "exception_place": exception_place(failing_output(text)),
        "tracebacks": len(each_traceback(text)),
        "is_distributed": ranks.is_distributed(text),
        "root": None if root is None else [root.rank, root.at, root.signal, root.pid, root.ended_early, root.text],
        "labelled": sorted(ranks.labelled_failures(text)),
    }


def judge_sync(sync_dir: str, refined: dict) -> dict:
    """What the synchronous rerun's logs give `where`: the launching op and line, cuDNN's and NCCL's words."""
    from types import SimpleNamespace

    from crashmatrix.verdict import sync_rerun
    from crashmatrix.verdict.exception_place import launch_place

    rerun = sync_rerun.findings(1, sync_dir, SimpleNamespace(signature=refined["signature"]))  # type: ignore[arg-type]
    return {"launch_place": launch_place(_read(os.path.join(sync_dir, "stderr.log"))), "findings": rerun}


def judge_log(path: str) -> dict:
    from crashmatrix.resolve.diagnose import diagnose
    from crashmatrix.resolve.log_text import read_logs

    found = diagnose(read_logs([path]))
    return {"found": found.found, "row": found.row, "whose": found.whose, "fix": found.fix, "cannot": found.cannot_tell}


# The tests whose module-level strings are real programs' outputs, pasted
_TEST_TEXTS = (
    "tests/test_classify.py",
    "tests/test_ranks.py",
    "tests/test_exception_place.py",
    "tests/test_forensics.py",
)


def pasted_outputs() -> dict[str, str]:
    """`NAME = \"\"\"...\"\"\"` at the top level of the tests that paste outputs: name -> text."""
    import ast

    found = {}
    for name in _TEST_TEXTS:
        with open(os.path.join(_HERE, name)) as f:
            tree = ast.parse(f.read())
        for node in tree.body:
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
                value = node.value.value
                if isinstance(value, str) and "\n" in value:
                    for target in node.targets:
                        if isinstance(target, ast.Name):
                            found[f"{name}:{target.id}"] = value
    return found


def judge_string(text: str) -> dict:
    """A pasted output as a failed job's (exit status 1), as a segfaulted one's, and as `crashmatrix diagnose`
    reads it."""
    from crashmatrix.resolve.diagnose import diagnose
    from crashmatrix.resolve.log_text import Log
    from crashmatrix.verdict.classify import classify

    found = diagnose(Log(text, ["pasted"]))
    return {
        "failed": _verdict_fields(classify(1, stderr=text)),
        "segfaulted": _verdict_fields(classify(-11, stderr=text)),
        "text": text_helpers(text),
        "diagnose": {"found": found.found, "row": found.row, "whose": found.whose, "cannot": found.cannot_tell},
    }


def _key(path: str) -> str:
    return os.path.relpath(path, _HERE) if path.startswith(_HERE) else path


def run_all(roots: list[str]) -> dict:
    cells, logs = records(roots)
    out: dict = {}
    for cell in cells:
        given = _cell_inputs(cell)
        out["cell:" + _key(cell)] = {**judge_cell(given), "text": text_helpers(given["stderr"])}
        sync_dir = os.path.join(cell, "sync")
        if os.path.isfile(os.path.join(sync_dir, "stderr.log")):  # a CUDA error's synchronous rerun
            out["cell:" + _key(cell)]["sync"] = judge_sync(sync_dir, out["cell:" + _key(cell)]["refined"])
        if given["stderr"].strip():  # the same text as a log: `crashmatrix diagnose` of it
            out["cell:" + _key(cell)]["diagnose"] = judge_log(os.path.join(cell, "stderr.log"))
    for name, text in pasted_outputs().items():
        out["str:" + name] = judge_string(text)
    for path in logs:
        try:
            out["log:" + _key(path)] = judge_log(path)
        except Exception as e:  # a binary or empty file: the same refusal before and after
            out["log:" + _key(path)] = {"refused": f"{type(e).__name__}: {e}"}
    return out


def _forget() -> None:
    """Forget the outputs already read (the parser keeps the last few): each cell is read afresh."""
    try:
        from crashmatrix.verdict.parsed import read_output
    except ImportError:  # before the parser
        return
    read_output.cache_clear()


def count_scans(roots: list[str]) -> dict:
    """Per cell: the searches of the whole text classify makes, and those of the whole cell path."""
    from crashmatrix.plain_text import plain
    from crashmatrix.verdict.classify import classify
    from crashmatrix.verdict.ranks import recorded_ranks

    cells, _logs = records(roots)
    per_classify, per_path = [], []
    for cell in cells:
        given = _cell_inputs(cell)
        _Scans.full_length = len(plain(given["stderr"]))
        if _Scans.full_length < 200:  # too short to tell a scan of the whole from one of a line
            continue
        recorded = recorded_ranks(cell)
        _forget()
        _Scans.count, _Scans.on = 0, True
        classify(
            given["rc"],
            timed_out=given["timed_out"],
            stderr=given["stderr"],
            stdout=given["stdout"],
            report=given["report"],
            recorded=recorded,
        )
        per_classify.append(_Scans.count)
        _forget()
        saved, _Scans.by = _Scans.by, None
        _Scans.count = 0
        judge_cell(given)
        per_path.append(_Scans.count)
        _Scans.on, _Scans.by = False, saved
    return {
        **({"classify_by": dict(_Scans.by.most_common(25))} if _Scans.by is not None else {}),
        "cells": len(per_classify),
        "classify_mean": statistics.mean(per_classify),
        "classify_median": statistics.median(per_classify),
        "classify_max": max(per_classify),
        "path_mean": statistics.mean(per_path),
        "path_median": statistics.median(per_path),
        "path_max": max(per_path),
    }


def time_cells(roots: list[str], rounds: int) -> dict:
    """The median, over rounds, of classify's time per cell, and of the whole cell path's (refine, sign)."""
    from crashmatrix.verdict.classify import classify
    from crashmatrix.verdict.ranks import recorded_ranks

    cells, _logs = records(roots)
    inputs = [(_cell_inputs(c), recorded_ranks(c)) for c in cells]
    classify_times, path_times = [], []
    for _ in range(rounds):
        start = time.perf_counter()
        for given, recorded in inputs:
            _forget()
            classify(
                given["rc"],
                timed_out=given["timed_out"],
                stderr=given["stderr"],
                stdout=given["stdout"],
                report=given["report"],
                recorded=recorded,
            )
        classify_times.append((time.perf_counter() - start) / len(inputs))
        start = time.perf_counter()
        for given, _recorded in inputs:
            _forget()
            judge_cell(given)
        path_times.append((time.perf_counter() - start) / len(inputs))
    return {
        "cells": len(inputs),
        "classify_ms_per_cell": round(1000 * statistics.median(classify_times), 3),
        "classify_ms_per_cell_best": round(1000 * min(classify_times), 3),  # the least disturbed round, on a busy box
        "path_ms_per_cell": round(1000 * statistics.median(path_times), 3),
        "path_ms_per_cell_best": round(1000 * min(path_times), 3),
    }


def differences(before: dict, after: dict) -> list[str]:
    said = []
    for key in sorted(set(before) | set(after)):
        if before.get(key) != after.get(key):
            said.append(
                f"{key}:\n  before {json.dumps(before.get(key))[:2000]}\n  after  {json.dumps(after.get(key))[:2000]}"
            )
    return said


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("roots", nargs="*")
    parser.add_argument("--out", help="write the JSON here")
    parser.add_argument("--diff", help="compare with this earlier JSON; exit 1 where anything differs")
    parser.add_argument("--count", action="store_true", help="count the searches of the whole text per cell")
    parser.add_argument("--count-by", action="store_true", help="with --count: which functions search")
    parser.add_argument("--time", type=int, default=0, metavar="N", help="time the cell path over N rounds")
    args = parser.parse_args(argv)
    if args.count:
        _install_counter()
        if args.count_by:
            import collections

            _Scans.by = collections.Counter()
    sys.path.insert(0, _HERE)
    roots = args.roots or [r for r in DEFAULT_ROOTS if os.path.isdir(os.path.join(_HERE, r)) or os.path.isdir(r)]
    roots = [r if os.path.isabs(r) else os.path.join(_HERE, r) for r in roots]
    if args.count:
        print(json.dumps({"scans": count_scans(roots)}, indent=1))
    if args.time:
        print(json.dumps({"time": time_cells(roots, args.time)}, indent=1))
    if args.count or args.time:
        return 0
    found = run_all(roots)
    if args.out:
        with open(args.out, "w") as f:
            json.dump(found, f, indent=1, sort_keys=True)
    counts = {kind: sum(k.startswith(kind + ":") for k in found) for kind in ("cell", "log", "str")}
    print(f"{counts['cell']} cells, {counts['log']} logs, {counts['str']} pasted outputs")
    if args.diff:
        opener = gzip.open if args.diff.endswith(".gz") else open
        with opener(args.diff, "rt") as f:
            said = differences(json.load(f), found)
        print("\n".join(said) or "identical")
        print(f"{len(said)} differ")
        return 1 if said else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
