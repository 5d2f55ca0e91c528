"""Expansion of a matrix into cells: product (or pairwise), exclude, include, as GitHub Actions does.

GitHub Actions' rules, which users already know:
- exclude: an entry removes every combination that matches all of its pairs;
  excludes are applied before includes.
- include: an entry is merged into every original combination whose original
  axis values it does not contradict (it may add keys, never overwrite an
  original value; keys added by an earlier include may be overwritten); an
  entry that fits no combination becomes a combination of its own.
Values are compared by their spelling, so 4 and "4" are the same value.
"""

from __future__ import annotations

import itertools

from crashmatrix.cell import Cell, CellRun, spell
from crashmatrix.matrix.spec import Matrix


def matches(combo: dict, partial: dict) -> bool:
    return all(k in combo and spell(combo[k]) == spell(v) for k, v in partial.items())


def combinations(matrix: Matrix) -> list[dict]:
    axes = matrix.axes
    if matrix.strategy == "pairwise":
        from crashmatrix.matrix.pairwise import covering_array

        # The covering array compares values by type; excludes name them by spelling ("32" vs 32).
        exclude = [
            {k: next(v for v in axes[k] if spell(v) == spell(val)) for k, val in e.items()} for e in matrix.exclude
        ]
        combos = covering_array(axes, strength=matrix.order, exclude=exclude, seed=matrix.seed)
    else:
        names = list(axes)
        combos = [dict(zip(names, values)) for values in itertools.product(*axes.values())]
    combos = [c for c in combos if not any(matches(c, e) for e in matrix.exclude)]

    original = set(axes)
    base = combos
    added: list[dict] = []
    for entry in matrix.include:
        fitted = False
        for combo in base:
            if matches(combo, {k: v for k, v in entry.items() if k in original}):
                combo.update({k: v for k, v in entry.items() if k not in original})
                fitted = True
        if not fitted:
            added.append(dict(entry))
    return base + added


def expand(matrix: Matrix) -> list[Cell]:
    """The matrix's cells, in order, each once (duplicates from include are merged)."""
    cells, seen = [], set()
    for combo in combinations(matrix):
        cell = Cell.of(combo)
        if cell.cell_id not in seen:
            seen.add(cell.cell_id)
            cells.append(cell)
    return cells


def cell_runs(matrix: Matrix, cells: list[Cell] | None = None) -> list[CellRun]:
    """Every run: repeats of a cell come after all first runs, so a partial run covers every cell once."""
    cells = expand(matrix) if cells is None else cells
    return [CellRun(cell, repeat) for repeat in range(matrix.repeats) for cell in cells]


def columns(matrix: Matrix, cells: list[Cell]) -> list[str]:
    """The CSV's value columns: the axes, then keys that include entries added."""
    cols = list(matrix.axes)
    for cell in cells:
        for key in cell.values:
            if key not in cols:
                cols.append(key)
    return cols
