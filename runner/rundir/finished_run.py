"""A finished (or partial) run read once: results.csv's rows with typed axis values, the axes, matrix.yaml
and env.json. report, pivot, explain, compare, rerun and bisect read a run through it."""

from __future__ import annotations

import os
from dataclasses import dataclass

from crashmatrix.cell import spell
from crashmatrix.rundir.store import read_fingerprint, read_matrix_yaml, read_rows


@dataclass(frozen=True)
class FinishedRun:
    """What a run directory (or a bare results.csv) holds.

    rows: one per finished run, results.csv's fields; an axis's value is the matrix's own (2, true,
    [0,1]) where matrix.yaml lists one spelled so, else the text as written (a value only an include
    sets; "" where the cell has none). Show or group by a value through crashmatrix.cell.spell, which gives
    back results.csv's text. axes: results.csv's value columns, in its (the matrix's) order.
    matrix and fingerprint: matrix.yaml and env.json as written, {} where absent.
    """

    source: str  # as given: a run directory or a results.csv
    csv_path: str
    axes: tuple[str, ...]
    rows: tuple[dict, ...]
    matrix: dict
    fingerprint: dict

    @classmethod
    def load(cls, source: str) -> FinishedRun:
        """Read source; BadInput naming the file when results.csv is missing or not crashmatrix's."""
        rows, value_columns, csv_path = read_rows(source)
        matrix = read_matrix_yaml(source)
        for axis, values in _listed(matrix).items():
            if axis in value_columns:
                _type_values(rows, axis, values)
        return cls(str(source), csv_path, tuple(value_columns), tuple(rows), matrix, read_fingerprint(source))

    @property
    def nodes(self) -> tuple[str, ...]:
        """A fleet's nodes (the node column), in the order rows name them; () for an ordinary run."""
        return tuple(dict.fromkeys(str(r["node"]) for r in self.rows if r.get("node")))

    @property
    def answer_axes(self) -> tuple[str, ...]:
        """The axes explain, the summary and compare tell cells apart by: a fleet's `node` is one more, the
        first, since what a node has is named before what a cell sets (`node=n2 and num_workers=2`)."""
        return (("node",) if self.nodes else ()) + self.axes

    @property
    def node_fingerprints(self) -> dict[str, dict]:
        """A fleet's env.json per node (crashmatrix.engine.fleet), {} for an ordinary run."""
        return dict(self.fingerprint.get("nodes") or {})

    @property
    def directory(self) -> str:
        """The folder holding results.csv, matrix.yaml and env.json."""
        return os.path.dirname(os.path.abspath(self.csv_path))

    @property
    def listed(self) -> dict[str, list]:
        """Each axis's values as matrix.yaml lists them, in its order (an axis written {values, keys} too)."""
        return _listed(self.matrix)

    @property
    def keyed(self) -> set[str]:
        """The axes matrix.yaml writes as {values, keys}: an override sets them through `.values`."""
        axes = self.matrix.get("axes") or {}
        return {name for name, spec in axes.items() if isinstance(spec, dict)}

    @property
    def strategy(self) -> str:
        """The strategy the run used: matrix.yaml's (a matrix file's default where it has none); pairwise
        for a bare results.csv, where nothing says every combination ran."""
        from crashmatrix.matrix.spec import DEFAULTS

        return self.matrix.get("strategy", DEFAULTS["strategy"]) if self.matrix else "pairwise"


def _listed(matrix: dict) -> dict[str, list]:
    axes = matrix.get("axes")
    out = {}
    for axis, spec in (axes if isinstance(axes, dict) else {}).items():
        values = spec.get("values") if isinstance(spec, dict) else spec
        if isinstance(values, list):
            out[axis] = values
    return out


def _type_values(rows: list[dict], axis: str, values: list) -> None:
    """Each row's text of the axis replaced by the listed value spelled so (the first, where two are)."""
    by_text: dict = {}
    for value in values:
        by_text.setdefault(spell(value), value)
    for row in rows:
        text = row.get(axis)
        if text in by_text:
            row[axis] = by_text[text]
