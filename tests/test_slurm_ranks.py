"""A distributed cell's ranks as Slurm tasks (`executor: {tasks_per_node: N, nodes: M}`), on the real
clusters tests/slurm_cluster.py starts: two gloo ranks that rendezvous through the MASTER_ADDR and
MASTER_PORT crashmatrix gives them, a rank that segfaults, a hang past the cell's timeout, one rank
per node of the two-node cluster, and the bad input refused before anything is sent."""

import json
import os

import pytest
from conftest import crashmatrix, processes_with, rows_of

pytestmark = pytest.mark.slow  # a real Slurm cluster

# Each rank prints what crashmatrix gave it and the all_reduce of rank+1 over the ranks.
PROGRAM = """\
import json, os, signal, sys, time
mode = sys.argv[1].split("=", 1)[1]
if mode == "hang":  # deaf to SIGTERM: only the kill and scancel end it
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    print("hanging", flush=True)
    time.sleep(600)
import torch
import torch.distributed as dist
dist.init_process_group("gloo")
total = torch.tensor([dist.get_rank() + 1.0])
dist.all_reduce(total)
names = ("RANK", "LOCAL_RANK", "WORLD_SIZE", "LOCAL_WORLD_SIZE", "NODE_RANK", "MASTER_ADDR", "SLURMD_NODENAME")
print(json.dumps({**{k: os.environ.get(k) for k in names}, "sum": total.item()}), flush=True)
if mode == "segv" and dist.get_rank() == 1:
    os.kill(os.getpid(), signal.SIGSEGV)
if mode == "raise":
    if dist.get_rank() == 0:
        # with its gloo group alive, rank 0's exit may abort after the traceback (torch, under load)
        dist.destroy_process_group()
        raise ValueError("bad batch on rank 0")
    time.sleep(60)  # outside any collective: srun ends it when rank 0 fails
dist.barrier()
dist.destroy_process_group()
"""


def matrix(write, modes, executor, timeout=60):
    script = write("train.py", PROGRAM)
    return write(
        "m.yaml",
        f"name: ddp\ncommand: [python, {script}]\naxes:\n  mode: {modes}\ntimeout: {timeout}\n"
        f"executor: {{{executor}, poll_s: 0.2, partition: debug}}\n",
    )


def cell_dir(run_dir, row) -> str:
    return os.path.join(run_dir, row["log_dir"])


def rank_said(run_dir, row, rank) -> dict:
    with open(os.path.join(cell_dir(run_dir, row), f"rank{rank}.stdout.log")) as f:
        return json.loads(f.read().splitlines()[0])


def rank_end(run_dir, row, rank) -> dict:
    with open(os.path.join(cell_dir(run_dir, row), "ranks", f"rank{rank}.json")) as f:
        return json.load(f)


@pytest.fixture(scope="module")
def one_node(slurm_cluster, tmp_path_factory):
    """Three cells of two ranks on one node, in one job: all pass; rank 1 segfaults; rank 0 raises."""
    tmp = tmp_path_factory.mktemp("ranks1")

    def write(name, text):
        (tmp / name).write_text(text)
        return str(tmp / name)

    path = matrix(write, "[ok, segv, raise]", "tasks_per_node: 2, cells_per_job: 3")
    proc = crashmatrix("run", path, "--out", tmp / "run", "--executor", "slurm", cwd=tmp)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return tmp / "run", {r["mode"]: r for r in rows_of(tmp / "run")}, proc


def test_two_tasks_on_one_node_rendezvous_and_pass(one_node):
    run_dir, rows, _ = one_node
    row = rows["ok"]
    assert row["outcome"] == "pass", row
    said = [rank_said(run_dir, row, rank) for rank in (0, 1)]
    assert [(s["RANK"], s["LOCAL_RANK"], s["WORLD_SIZE"], s["LOCAL_WORLD_SIZE"], s["NODE_RANK"]) for s in said] == [
        ("0", "0", "2", "2", "0"),
        ("1", "1", "2", "2", "0"),
    ]
    assert [s["sum"] for s in said] == [3.0, 3.0]  # the all_reduce went through
    assert [rank_end(run_dir, row, rank)["returncode"] for rank in (0, 1)] == [0, 0]
    # one job holds both tasks; its supervisor is the batch script itself, which alone gets the time
    # limit's warning (the ranks would die of SIGUSR2)
    (script,) = [p for p in os.listdir(run_dir / "submitit") if p.endswith("_submission.sh")]
    lines = (run_dir / "submitit" / script).read_text().splitlines()
    assert {"#SBATCH --ntasks-per-node=2", "#SBATCH --signal=B:USR2@90"} <= set(lines)
    assert lines[-1].startswith("exec ") and "srun" not in lines[-1]


def test_rank_1_segfaulting_is_the_verdict_not_rank_0_that_srun_then_ended(one_node):
    run_dir, rows, _ = one_node
    row = rows["segv"]
    # a rank's own death by a signal, told as that rank's, with its place
    assert (row["outcome"], row["signal"], row["rank"]) == ("rank_crash", "SIGSEGV", "1"), row
    assert row["where"].startswith("train.py:15 in <module>"), row
    first, victim = rank_end(run_dir, row, 1), rank_end(run_dir, row, 0)
    with open(os.path.join(cell_dir(run_dir, row), "result.json")) as f:
        assert json.load(f)["metrics"]["rank_node"] == first["node"]  # the node of the rank that failed
    assert first["signal"] == "SIGSEGV" and first["ended_at"] < victim["ended_at"]
    # each rank's own output is its own; srun's lines are the cell's
    assert "Segmentation fault" in open(os.path.join(cell_dir(run_dir, row), "rank1.stderr.log")).read()
    assert "task 1: Segmentation fault" in open(os.path.join(cell_dir(run_dir, row), "stderr.log")).read()
    assert processes_with(f"CRASHMATRIX_RUN_DIR={run_dir}") == []


def test_rank_0_raising_is_the_verdict_not_rank_1_that_srun_then_ended(one_node):
    run_dir, rows, _ = one_node
    row = rows["raise"]
    # rank 0's own line, without torch's `[rank0]: ` label
    assert row["outcome"] == "fail" and row["error"].startswith("ValueError: bad batch on rank 0"), row
    assert row["rank"] == "0", row
    first, victim = rank_end(run_dir, row, 0), rank_end(run_dir, row, 1)
    assert (first["returncode"], victim.get("signal")) == (1, "SIGTERM")
    assert first["ended_at"] < victim["ended_at"]


def test_a_hang_past_the_timeout_leaves_no_task_behind(slurm_cluster, tmp_path, write):
    path = matrix(write, "[hang]", "tasks_per_node: 2", timeout=2)
    proc = crashmatrix("run", path, "--out", tmp_path / "run", "--executor", "slurm", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    (row,) = rows_of(tmp_path / "run")
    assert row["outcome"] == "timeout", row
    # the stacks are the ranks' own, labelled by rank (crashmatrix's per-task wrapper is none of the
    # cell's processes); neither waits in a collective, so neither is named the straggler
    assert row["error"].endswith("; rank 0 at train.py:6 in <module>; rank 1 at train.py:6 in <module>"), row
    assert "Popen" not in row["error"] and row["rank"] == "", row
    # deaf to SIGTERM, the ranks died of the kill; their step was cancelled and is gone
    assert processes_with(f"CRASHMATRIX_RUN_DIR={tmp_path / 'run'}") == []
    steps = slurm_cluster.run("squeue", "-h", "-s", "-o", "%i %j").stdout.split("\n")
    assert [s for s in steps if s.strip() and "batch" not in s and "extern" not in s] == []


def test_one_rank_per_node_on_two_nodes(slurm_cluster2, tmp_path, write):
    path = matrix(write, "[ok]", "nodes: 2, tasks_per_node: 1")
    proc = crashmatrix(
        "run", path, "--out", tmp_path / "run", "--executor", "slurm", cwd=tmp_path, env=slurm_cluster2.env
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    (row,) = rows_of(tmp_path / "run")
    assert row["outcome"] == "pass", row
    said = [rank_said(tmp_path / "run", row, rank) for rank in (0, 1)]
    assert [(s["RANK"], s["NODE_RANK"], s["LOCAL_WORLD_SIZE"], s["SLURMD_NODENAME"]) for s in said] == [
        ("0", "0", "1", "n1"),
        ("1", "1", "1", "n2"),
    ]
    assert [s["sum"] for s in said] == [3.0, 3.0]
    assert processes_with(f"CRASHMATRIX_RUN_DIR={tmp_path / 'run'}") == []


@pytest.mark.parametrize(
    "executor, args, said",
    [
        ("tasks_per_node: 0", ["--executor", "slurm"], "executor.tasks_per_node: expected a whole number >= 1, got 0"),
        ("nodes: 1.5", ["--executor", "slurm"], "executor.nodes: expected a whole number >= 1, got 1.5"),
        ("tasks_per_node: 2", [], "executor.tasks_per_node: a cell's ranks run as Slurm tasks, only with"),
        ("nodes: 2", ["--executor", "submitit-local"], "executor.nodes: a cell's ranks run as Slurm tasks, only"),
    ],
    ids=["zero", "fraction", "local", "submitit-local"],
)
def test_bad_rank_layout_is_one_line_and_exit_2_before_anything_is_sent(tmp_path, write, executor, args, said):
    path = matrix(write, "[ok]", executor)
    proc = crashmatrix("run", path, "--out", tmp_path / "run", *args, cwd=tmp_path)
    assert proc.returncode == 2
    (line,) = proc.stderr.splitlines()
    assert line.startswith(f"crashmatrix: {path}: {said}"), line
    assert not (tmp_path / "run").exists()
