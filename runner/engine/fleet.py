"""A fleet: every cell once on every node (`run --executor slurm --each-node [--nodelist n[1-32]]`).

The nodes are asked of Slurm before the run directory is made or any job is sent, so a node Slurm does
not know is bad input (exit 2), never a queue of jobs that cannot start. Each run is pinned to its node
(crashmatrix.cell.CellRun.node); the jobs of one node are one array with Slurm's nodelist set to it
(crashmatrix.engine.executors). A node's job keeps that node's fingerprint as env-<node>.json, gathered
into env.json's `nodes` when the run ends.
"""

from __future__ import annotations

import json
import os
import subprocess

from crashmatrix.cell import CellRun
from crashmatrix.errors import BadInput
from crashmatrix.matrix.spec import Matrix


def of_matrix(matrix: Matrix, executor: str) -> list[str]:
    """A fleet's nodes for `run` and `hunt` (--each-node, kept in the matrix's executor section), asked of
    Slurm before anything is written or sent; [] for an ordinary run."""
    if not matrix.executor.get("each_node"):
        return []
    if executor != "slurm":
        raise BadInput(
            f"{matrix.path}: executor.each_node: only with --executor slurm (Slurm's nodelist pins a cell to a node)"
        )
    return nodes(matrix.executor)


def _ask(argv: list[str]) -> list[str]:
    """The words Slurm's client printed; BadInput when it cannot answer (no Slurm here, no controller)."""
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise BadInput(f"--each-node: cannot ask Slurm for its nodes ({argv[0]}: {e})") from None
    if done.returncode != 0:
        why = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
        raise BadInput(f"--each-node: cannot ask Slurm for its nodes ({' '.join(argv[:2])}: {why})")
    return done.stdout.split()


def nodes(executor_settings: dict) -> list[str]:
    """The fleet's nodes, in the nodelist's order (every node of the partition, or of the cluster, when
    there is none); BadInput naming a node Slurm does not know."""
    partition = executor_settings.get("partition")
    known = list(dict.fromkeys(_ask(["sinfo", "-h", "-N", "-o", "%N"] + (["-p", partition] if partition else []))))
    nodelist = executor_settings.get("nodelist")
    if not nodelist:
        if not known:
            raise BadInput(f"--each-node: Slurm lists no node{f' in partition {partition}' if partition else ''}")
        return known
    wanted = list(dict.fromkeys(_ask(["scontrol", "show", "hostnames", nodelist])))
    unknown = [n for n in wanted if n not in known]
    if unknown:
        where = f"partition {partition}" if partition else "this cluster"
        raise BadInput(
            f"--nodelist {nodelist}: Slurm does not know {', '.join(unknown)} in {where} (its nodes: {', '.join(known)})"
        )
    return wanted


def on_every_node(runs: list[CellRun], fleet: list[str]) -> list[CellRun]:
    """Each run once per node, node by node."""
    return [CellRun(run.cell, run.repeat, node) for node in fleet for run in runs]


def _stop_file(run_dir: str, node: str) -> str:
    return os.path.join(run_dir, f"stop-{node}")


def stop(run_dir: str, node: str) -> None:
    """--max-failures in a fleet counts per node: once a node has that many failing runs, no new run starts
    on it (its jobs ask before each run); running ones end normally, and --resume completes the rest."""
    with open(_stop_file(run_dir, node), "w", encoding="utf-8"):
        pass


def stopped(run_dir: str, node: str) -> bool:
    return os.path.exists(_stop_file(run_dir, node))


def clear_stops(run_dir: str, fleet: list[str]) -> None:
    """A resumed fleet counts its failures afresh, as a resumed run does."""
    for node in fleet:
        if stopped(run_dir, node):
            os.remove(_stop_file(run_dir, node))


def fingerprint_file(node: str) -> str:
    return f"env-{node}.json"


def gather(run_dir: str, fleet: list[str], controller: dict) -> dict:
    """env.json of a fleet: the controller's facts, with each node's own (env-<node>.json, written by its
    first job) under `nodes`; a node whose job never started has none."""
    found = dict(controller.get("nodes") or {})
    for node in fleet:
        try:
            with open(os.path.join(run_dir, fingerprint_file(node)), encoding="utf-8") as f:
                found[node] = json.load(f)
        except (OSError, ValueError):
            continue
    return dict(controller, nodes=found)
