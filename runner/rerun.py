"""`crashmatrix rerun RUN`: which cells of a finished run to run again, kept in the new run's rerun.json.

The new run expands the old run's matrix.yaml (overrides applied) and keeps the
cells whose id the old run has (with --failing: a failing run), so its ids are
the old ones and `compare RUN NEW` joins on them. rerun.json records the
selection, so that `run --resume NEW` completes the same cells, not the whole matrix.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass

from crashmatrix.cell import cell_and_node
from crashmatrix.errors import BadInput
from crashmatrix.outcome import counts_as_failing
from crashmatrix.rundir.finished_run import FinishedRun

SELECTION_FILE = "rerun.json"


@dataclass(frozen=True)
class Selection:
    source: str  # the run directory the cells come from
    failing: bool  # only cells with a failing run
    cell_ids: frozenset

    def to_json(self) -> dict:
        return {"source": self.source, "failing": self.failing, "cell_ids": sorted(self.cell_ids)}


def check_run_dir(run: str) -> str:
    """The matrix.yaml of a finished (or partial) run directory; BadInput when RUN is none."""
    if not os.path.isdir(run):
        raise BadInput(f"rerun {run}: no such run directory")
    for name in ("matrix.yaml", "results.csv"):
        if not os.path.exists(os.path.join(run, name)):
            raise BadInput(f"rerun {run}: not a run directory (no {name})")
    return os.path.join(run, "matrix.yaml")


def select(run: FinishedRun, failing: bool) -> Selection:
    """The cells of the run's rows, or with `failing` those with a run that failed (not pass, skip or error)."""
    # In a fleet a cell is rerun on the nodes it failed on: cell_id@node (crashmatrix.cell.cell_and_node).
    ids = {cell_and_node(r) for r in run.rows if not failing or counts_as_failing(r.get("outcome", ""))}
    return Selection(run.directory, failing, frozenset(ids))


def default_out(run: str, name: str) -> str:
    """Beside the original run: results/<name>-rerun-<timestamp>/."""
    parent = os.path.dirname(os.path.abspath(run.rstrip(os.sep)))
    return os.path.join(parent, f"{name}-rerun-{time.strftime('%Y%m%d-%H%M%S')}")


def read_selection(run_dir: str) -> frozenset | None:
    """The cell ids a rerun's directory is limited to; None for an ordinary run."""
    path = os.path.join(run_dir, SELECTION_FILE)
    if not os.path.exists(path):
        return None
    try:
        with open(path, encoding="utf-8") as f:
            return frozenset(json.load(f)["cell_ids"])
    except (OSError, ValueError, KeyError, TypeError):
        raise BadInput(
            f"{path}: unreadable; it lists the cells this rerun covers (restore it or start a new rerun)"
        ) from None
