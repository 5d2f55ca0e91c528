"""A sweep's columns: which of its overrides are axes and which are constants, batch after batch.

An override with one value across the sweep is a constant, not an axis (DESIGN.md, "Inside Hydra's
multirun"): it goes to matrix.yaml's params under its key as the jobs write it (`+extra`), is shown once,
and is in no column of results.csv, so no progress line, table, explain or resolve model repeats it.
"""

from __future__ import annotations

from crashmatrix.cell import spell
from crashmatrix.hydra.jobs import SweepJob


class SweepColumns:
    """axes: column -> its values so far, in order; constants: column -> its one value.

    declared: the sweep's axes as crashmatrix's sweeper chose them (hunt launches a batch at a time, its
    first holding one value of an axis); None: the jobs tell, a column with two values being an axis.
    """

    def __init__(self) -> None:
        self.axes: dict = {}
        self.constants: dict = {}
        # column -> the key as the jobs' overrides write it (`+extra`): a rerun, bisect or repro of the
        # sweep must pass it so, or Hydra refuses a key its config lacks
        self.keys: dict = {}
        self.declared: list | None = None

    def take_batch(self, jobs: list[SweepJob]) -> None:
        """Each column of the batch's jobs an axis or a constant (a later batch may make a constant an axis)."""
        seen: dict = {}
        for job in jobs:
            for column, value in job.values.items():
                known = seen.setdefault(column, [])
                if value not in known:
                    known.append(value)
            for column, key in job.written.items():
                self.keys.setdefault(column, key)
        for column, values in seen.items():
            if column in self.constants and values != [self.constants[column]]:
                before = self.constants.pop(column)
                values = [before] + [v for v in values if v != before]
            axis = column in self.axes or len(values) > 1
            if self.declared is not None:
                axis = column in self.declared
            if axis:
                known = self.axes.setdefault(column, [])
                known += [v for v in values if v not in known]
            else:
                self.constants[column] = values[0]

    def axis_keys(self) -> dict:
        """matrix.yaml's axis_keys: each axis the jobs write otherwise, as they write it."""
        return {column: (key,) for column, key in self.keys.items() if column in self.axes}

    def params(self) -> dict:
        """The constants as matrix.yaml's params, under their keys as written."""
        return {self.keys.get(c, c): v for c, v in self.constants.items()}

    def cell_values(self, job: SweepJob) -> dict:
        return {column: value for column, value in job.values.items() if column in self.axes}

    def shown(self) -> str:
        """The constants on one line, as the jobs' overrides write them."""
        return " ".join(f"{key}={spell(value)}" for key, value in self.params().items())
