"""DDP's uneven inputs and its unused parameters, told truly: real 2-rank gloo jobs on CPU, then explain and resolve.

tests/apps/ddp_uneven.py (its docstring has the truth from running it alone): rank 1 runs out of batches after
5 steps and exits 0; rank 0 fails in its 6th step's all_reduce with gloo's `Connection closed by peer`, and
torchrun's "Root Cause" names rank 0, the victim. The row must name rank 1 and say it ended early, under
torchrun and torch.multiprocessing.spawn, with the in-cell recorder (inject) and without it.
tests/apps/ddp_unused.py: a parameter the forward never uses; a `ddp.find_unused_parameters` axis fixes it,
and resolve must say so. Four cells of 2 ranks each, in three runs side by side: spawn with and without the
recorder (torchrun with it is the zoo's torchrun_uneven, whose run explain and resolve are asked of in
tests/zoo; torchrun without it, this program's recorded stderr in test_ranks.py), the two ways to be uneven
(a shard of one's own, a rank-dependent break) spread over them.
The timeout is only for a hang: on this busy 2-core box a cell has taken 70 s to start its ranks.
"""

from __future__ import annotations

import json
import os
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest
from conftest import ROOT, crashmatrix, processes_with, rows_of

pytestmark = pytest.mark.slow  # distributed ranks

APPS = os.path.join(ROOT, "tests", "apps")
UNEVEN = os.path.join(APPS, "ddp_uneven.py")
UNUSED = os.path.join(APPS, "ddp_unused.py")
ENV = {"PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")}  # torchrun beside python

SPAWN = f"command: [python, {UNEVEN}]\nparams: {{launcher: spawn}}\n"
MATRICES = {
    # torchrun with the recorder: the zoo's torchrun_uneven, with explain's and resolve's fix (tests/zoo)
    "spawn-inject": SPAWN + "inject: true\naxes: {uneven: [break]}\n",
    "spawn-plain": SPAWN + "axes: {uneven: [shard]}\n",
    "unused": f"command: [torchrun, --nproc_per_node=2, {UNUSED}]\ninject: true\n"
    "axes: {ddp.find_unused_parameters: [false, true]}\n",
}
STEPS = "rank 1 ended (exit 0) after 5 steps; rank 0 was at step 6"


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, str]:
    """name -> its run directory, every run finished."""
    base = tmp_path_factory.mktemp("uneven")

    def run(name: str) -> str:
        path = base / f"{name}.yaml"
        path.write_text(f"name: {name}\n{MATRICES[name]}timeout: 300\n")
        out = base / name
        proc = crashmatrix("run", path, "--out", out, "--jobs", "2", cwd=base, env=ENV, timeout=900)
        assert proc.returncode == 0, proc.stderr
        assert processes_with(f"CRASHMATRIX_RUN_DIR={out}") == []  # no rank outlives its cell
        return str(out)

    with ThreadPoolExecutor(3) as pool:
        return dict(zip(MATRICES, pool.map(run, MATRICES)))


def _rows(run_dir: str, axis: str) -> dict[str, dict]:
    return {r[axis]: r for r in rows_of(run_dir)}


def test_the_rank_that_ran_out_of_batches_is_named_with_its_steps_not_the_victim(runs):
    (r,) = rows_of(runs["spawn-inject"])
    # a rank-dependent break under spawn (a hand-made shard under torchrun is the zoo's): the same signature
    assert (r["outcome"], r["signal"], r["rank"], r["signature"]) == ("fail", "", "1", "rank_ended_early"), r
    assert r["error"] == STEPS, r["error"]
    assert r["where"].endswith("; tests/apps/ddp_uneven.py:69 in steps"), r["where"]  # rank 0 waited there


def test_without_the_recorder_a_peer_that_ended_cleanly_is_still_the_cause(runs):
    (r,) = rows_of(runs["spawn-plain"])
    # stderr names no rank but the victim: a peer closed its connection and no launcher reports its failure
    assert (r["outcome"], r["rank"], r["signature"]) == ("fail", "", "rank_ended_early"), r
    assert r["error"].startswith("a peer of rank 0 ended (exit 0) while rank 0 still trained"), r["error"]


def test_the_ddp_knob_that_fixed_the_unused_parameter_is_recommended(runs, tmp_path):
    rows = _rows(runs["unused"], "ddp.find_unused_parameters")
    assert rows["false"]["outcome"] == "fail" and "find_unused_parameters=True" in rows["false"]["error"]
    assert rows["true"]["outcome"] == "pass", rows["true"]
    proc = crashmatrix("resolve", runs["unused"], cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr  # no KeyError: 'ddp.find_unused_parameters'
    with open(os.path.join(runs["unused"], "resolution.json")) as f:
        recommended = json.load(f)["recommended"]
    assert recommended["values"] == {"ddp.find_unused_parameters": True}
    # the argument the knob forced on DistributedDataParallel in every rank of the passing cell
    assert recommended["apply"]["code"] == [
        "DistributedDataParallel(..., find_unused_parameters=True) (Lightning: DDPStrategy(find_unused_parameters=True))"
    ]
