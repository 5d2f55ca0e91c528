"""What a growing cell keeps, and the program's line that makes it (issue 50, item 2), from the census of its
instrumented rerun (runner/incell/memory_trace.py, run by crashmatrix.engine.memory_trace into
`<run>/memory_trace/`): `float32 [262144] tensors kept, created at tests/apps/keeps_outputs.py:66 in main
(79 alive at step 80, in an instrumented rerun)`; for the loader workers, from each worker's census (at the
items it fetched) the one that grew most: `float32 [3, 128, 128] tensors kept, created at
tests/apps/decode_cache.py:44 in decode (40 alive per worker at item 40, in an instrumented rerun)`.

The group that grew most between the first census and the last: live tensors by dtype, shape and the frames
that made them, or, where Python objects grew more than any tensor group (a cache of bytes), those by the
frames that allocated them. The program's frame is the innermost one outside the Python library,
site-packages and crashmatrix's own code, named by its path from the app's root and its function (read from
the file). Pure but for reading those files.
"""

from __future__ import annotations

import ast
import csv
import dataclasses
import functools
import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from crashmatrix.verdict.app_paths import app_root, from_root

TRACE_DIR = "memory_trace"  # crashmatrix.engine.memory_trace.DIR_NAME (the engine sits above the answers)
KEPT_FILE = "kept.json"  # crashmatrix.incell.memory_trace.FILE_NAME
WORKER_FILES = re.compile(r"kept-\d+\.json")  # crashmatrix.incell.memory_trace.WORKER_FILE: one per loader worker
_LIBRARY = ("/site-packages/", "/dist-packages/", "/runner/incell/", "/crashmatrix/incell/", "/_crashmatrix/")


@dataclass(frozen=True)
class Kept:
    what: str  # `float32 [262144] tensors`, `Python objects`
    place: str  # `tests/apps/keeps_outputs.py:66 in main`
    alive: int  # how many at the last census
    step: int  # the last census's step
    first_step: int
    mb: float  # how much more than at the first census
    unit: str = "step"  # what `step` counts: the loop's batches, or a loader worker's items ("item")
    # the tensor whose autograd graph holds them (`float32 [] tensor made at train.py:16 in main`), "" where none
    held_by: str = ""

    def text(self) -> str:
        alive = f"{self.alive} alive per worker" if self.unit == "item" else f"{self.alive} alive"
        text = (
            f"{self.what} kept, created at {self.place} ({alive} at {self.unit} {self.step}, in an instrumented rerun)"
        )
        if self.held_by:
            text += (
                f"; the autograd graph of the {self.held_by} saves them for backward, and it holds every step's "
                "graph: keep its `.item()`, or a `.detach()`ed copy, instead"
            )
        return text

    def to_json(self) -> dict:
        return {
            "what": self.what,
            "place": self.place,
            "alive": self.alive,
            "step": self.step,
            "first_step": self.first_step,
            "mb": self.mb,
            "unit": self.unit,
            "held_by": self.held_by,
            "text": self.text(),
        }


def traced_cells(run_dir: str | None) -> dict[str, str]:
    """cell_id -> its traced run's folder, from <run>/memory_trace/results.csv; {} where none ran."""
    if not run_dir:
        return {}
    where = os.path.join(run_dir, TRACE_DIR)
    try:
        with open(os.path.join(where, "results.csv"), newline="", encoding="utf-8") as f:
            return {r["cell_id"]: os.path.join(where, r["log_dir"]) for r in csv.DictReader(f) if r.get("log_dir")}
    except (OSError, KeyError, csv.Error):
        return {}


def kept_of(run_dir: str | None, cell_ids: Sequence[str], workers: bool = False) -> Kept | None:
    """What the first traced cell of `cell_ids` kept (its loader workers': the worker whose census grew
    most); None where none was traced or its census says nothing."""
    traced = traced_cells(run_dir)
    for cell_id in cell_ids:
        folder = traced.get(cell_id)
        if folder is None:
            continue
        found = [k for k in map(from_census, _censuses(folder, workers)) if k is not None]
        if found:
            return max(found, key=lambda k: k.mb)
    return None


def _censuses(folder: str, workers: bool) -> list[dict]:
    try:
        names = sorted(n for n in os.listdir(folder) if WORKER_FILES.fullmatch(n)) if workers else [KEPT_FILE]
    except OSError:
        return []
    found = []
    for name in names:
        try:
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                found.append(json.load(f))
        except (OSError, ValueError):
            continue
    return [_here(c, folder) for c in found if isinstance(c, dict)]


def _here(census: dict, folder: str) -> dict:
    """The census with each frame's file found where the run now is: a run directory kept in the program's
    checkout (docs/examples/, results/) and read in another clone names files of the clone it ran in."""
    groups = ("tensors", "objects", "graphs", "cuda")
    for group in [g for name in groups for g in census.get(name) or []]:
        if isinstance(group, dict) and isinstance(group.get("frames"), list):
            group["frames"] = [[_moved(str(f[0]), folder), *f[1:]] for f in group["frames"] if f]
    return census


@functools.lru_cache(maxsize=256)
def _moved(path: str, folder: str) -> str:
    """path where it is; else the same file below a folder above the run (`/old/clone/tests/apps/x.py` ->
    `<this clone>/tests/apps/x.py`), its longest tail first; else path as it was."""
    if not os.path.isabs(path) or os.path.exists(path):
        return path
    parts = path.strip(os.sep).split(os.sep)
    above = [os.path.abspath(folder)]
    while os.path.dirname(above[-1]) != above[-1]:
        above.append(os.path.dirname(above[-1]))
    for start in range(1, len(parts) - 1):
        tail = os.path.join(*parts[start:])
        for base in above:
            if os.path.isfile(os.path.join(base, tail)):
                return os.path.join(base, tail)
    return path


def from_census(census: Mapping) -> Kept | None:
    """The group that grew most in a census (memory_trace.py's kept.json, or a worker's)."""
    step, first = int(census.get("step") or 0), int(census.get("first_step") or 0)
    unit = "item" if census.get("unit") == "item" else "step"
    best: tuple[float, Kept] | None = None
    for group in census.get("tensors") or []:
        grown = float(group["mb"][1]) - float(group["mb"][0])
        place = program_place(group.get("frames") or [])
        if place is None:
            continue
        shape = ", ".join(str(n) for n in group.get("shape") or [])
        what = f"{group.get('dtype')} [{shape}] tensors"
        kept = Kept(what, place, int(group["count"][1]), step, first, round(grown, 1), unit)
        if best is None or grown > best[0]:
            best = (grown, kept)
    for group in census.get("objects") or []:
        grown = float(group.get("mb") or 0.0)
        place = program_place(group.get("frames") or [])
        if place is None or (best is not None and grown <= best[0]):
            continue
        what = f"{_mb(grown)} of Python objects"
        kept = Kept(what, place, int(group.get("count") or 0), step, first, round(grown, 1), unit)
        best = (grown, kept)
    for group in census.get("cuda") or []:  # what the allocator holds that no Python tensor above explains
        grown = float(group["mb"][1]) - float(group["mb"][0])
        place = program_place(group.get("frames") or [])
        if place is None or (best is not None and grown <= best[0]):
            continue
        what = f"{_mb(grown)} of CUDA memory in {int(group['count'][1]) - int(group['count'][0])} more blocks"
        kept = Kept(what, place, int(group["count"][1]), step, first, round(grown, 1), unit)
        best = (grown, kept)
    if best is not None and best[1].what.endswith(" tensors"):
        holder = _graph_holder(census, best[0])
        if holder:
            best = (best[0], dataclasses.replace(best[1], held_by=holder))
    return best[1] if best else None


def _graph_holder(census: Mapping, grown_mb: float) -> str:
    """The tensor whose autograd graph grew by at least half of what the tensors grew (its saved tensors are
    those tensors): `float32 [] tensor made at train.py:16 in main`; "" where none did."""
    for group in census.get("graphs") or []:
        saved = float(group["saved_mb"][1]) - float(group["saved_mb"][0])
        place = program_place(group.get("frames") or [])
        if place is not None and saved >= 0.5 * grown_mb:
            shape = ", ".join(str(n) for n in group.get("shape") or [])
            return f"{group.get('dtype')} [{shape}] tensor made at {place}"
    return ""


def _mb(value: float) -> str:
    return f"{value:.0f} MB" if value >= 10 else f"{value:.2g} MB"


def _is_library(path: str) -> bool:
    if path.startswith("<") or any(part in path for part in _LIBRARY):
        return True
    return "/lib/python3" in path and "/site-packages/" not in path  # the standard library


def program_place(frames: Sequence[Sequence]) -> str | None:
    """`path:line in function` of the innermost program frame (innermost first); None where all are library."""
    own = [(str(f[0]), int(f[1])) for f in frames if not _is_library(str(f[0]))]
    if not own:
        return None
    path, line = own[0]
    root = app_root(own[-1][0])  # the outermost own frame's file: the entry script, as forensics does
    return f"{from_root(path, root)}:{line} in {function_at(path, line)}"


@functools.lru_cache(maxsize=64)
def _functions(path: str) -> tuple[tuple[int, int, str], ...]:
    try:
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read())
    except (OSError, SyntaxError, ValueError):
        return ()
    return tuple(
        (node.lineno, node.end_lineno or node.lineno, node.name)
        for node in ast.walk(tree)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
    )


def function_at(path: str, line: int) -> str:
    """The innermost function of `path` around `line`; `<module>` outside any."""
    around = [(start, name) for start, end, name in _functions(path) if start <= line <= end]
    return max(around)[1] if around else "<module>"
