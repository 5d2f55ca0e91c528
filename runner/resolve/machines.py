"""A fleet's failures that need a node: the fix is a machine, not a setting.

Where explain's conjunction over a fleet's rows names a node (`node=n2`, `node=n2 and num_workers=2`), no
configuration fixes it on that node that the others would need: the answer is to exclude the node, or make
it match the others in what sets it apart (crashmatrix.answers.set_apart). The rest of resolve then reads
only the other nodes' rows, so what it recommends is what passes on the healthy machines.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from crashmatrix.answers import explain, set_apart
from crashmatrix.resolve.failures import Findings
from crashmatrix.rundir.finished_run import FinishedRun


@dataclass(frozen=True)
class MachineCause:
    pattern: explain.Pattern
    nodes: tuple[str, ...]
    apart: tuple[set_apart.Apart, ...]

    def fix(self) -> str:
        names = ", ".join(self.nodes)
        if not self.apart:
            return f"exclude {names} (no field of env.json sets it apart: compare what it does not record)"
        them = "it" if len(self.nodes) == 1 else "them"
        return f"exclude {names}, or make {them} match the others in: " + "; ".join(a.text() for a in self.apart)

    def line(self) -> str:
        return f"{self.pattern.describe()}: the fix is a machine, not a setting: {self.fix()}"

    def to_json(self) -> dict:
        return {
            **self.pattern.to_json(),
            "nodes": list(self.nodes),
            "apart": [a.to_json() for a in self.apart],
            "fix": self.fix(),
        }


def machine_causes(run: FinishedRun) -> list[MachineCause]:
    """explain's conjunctions over a fleet's rows (node one more axis) that name a node; [] for other runs."""
    if not run.nodes:
        return []
    out = []
    fingerprints = run.node_fingerprints
    for pattern in explain.explain(list(run.rows), list(run.answer_axes)):
        nodes = tuple(v for a, v in pattern.conditions if a == "node")
        if not nodes:
            continue
        apart = set_apart.node_apart(pattern.conditions, fingerprints, run.nodes) or []
        out.append(MachineCause(pattern, nodes, tuple(apart)))
    return out


def settings_only(found: Findings) -> Findings:
    """A hunt's causes that name a node are machine causes (said apart), not the other nodes' to weigh."""
    kept = tuple(f for f in found.failures if not (f.conditions and "node" in f.conditions))
    return dataclasses.replace(found, failures=kept)


def on_other_nodes(run: FinishedRun, causes: list[MachineCause]) -> FinishedRun:
    """The run without the rows of the nodes a machine cause names: what the healthy machines saw."""
    excluded = {n for c in causes for n in c.nodes}
    if not excluded:
        return run
    return dataclasses.replace(run, rows=tuple(r for r in run.rows if r.get("node") not in excluded))
