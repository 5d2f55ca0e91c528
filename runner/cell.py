"""Cells: one configuration of the matrix, its stable id, and how its values are spelled."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field


def spell(value) -> str:
    """A value as it reaches a program's command line and the CSV: Hydra's spelling.

    Booleans are true/false, None is null, lists are [a,b]; strings stay verbatim.
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(spell(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ",".join(f"{k}:{spell(v)}" for k, v in value.items()) + "}"
    return str(value)


def cell_id_of(values: dict) -> str:
    """A short hash of the cell's values, independent of key order and of the machine."""
    text = "\n".join(f"{k}={spell(values[k])}" for k in sorted(values))
    return hashlib.sha1(text.encode()).hexdigest()[:10]


@dataclass(frozen=True)
class Cell:
    values: dict = field(hash=False)
    cell_id: str = ""

    @staticmethod
    def of(values: dict) -> Cell:
        return Cell(values=dict(values), cell_id=cell_id_of(values))

    def label(self, keys=None) -> str:
        keys = self.values if keys is None else keys
        return " ".join(f"{k}={spell(self.values[k])}" for k in keys if k in self.values)


RunKey = tuple[str, int, str]  # (cell_id, repeat, node): what a run directory holds once


@dataclass(frozen=True)
class CellRun:
    """One run of a cell: the unit the engine schedules and the store records.

    node: the Slurm node the run is pinned to (`--each-node`, a fleet), else "": the same cell on
    two nodes is two runs with one cell_id, so runs from every node join on it.
    """

    cell: Cell
    repeat: int
    node: str = ""

    @property
    def key(self) -> RunKey:
        return (self.cell.cell_id, self.repeat, self.node)

    @property
    def dirname(self) -> str:
        return run_dirname(self.cell.cell_id, self.repeat, self.node)


def run_dirname(cell_id: str, repeat: int, node: str = "") -> str:
    """cells/<cell_id>-r<repeat>, with -<node> in a fleet."""
    return f"{cell_id}-r{repeat}" + (f"-{node}" if node else "")


def cell_and_node(row) -> str:
    """A results.csv row's cell as the tables count it: its cell_id, `@node` added in a fleet, where the
    same cell on two nodes is two cells of the table."""
    node = row.get("node") or ""
    return f"{row['cell_id']}@{node}" if node else str(row["cell_id"])
