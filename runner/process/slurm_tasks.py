"""A distributed cell's ranks as Slurm tasks (`executor: {tasks_per_node: N, nodes: M}`).

The cell's job holds M nodes with N tasks each; crashmatrix's supervisor runs in the job's batch step
and starts each cell as one `srun` step of M x N tasks. Every task runs incell/slurm_task.py, which
gives the program its rank variables as torchrun would and writes `ranks/rank<R>.json` in the cell
directory when the rank starts and ends (node, step, time, exit status or signal). Each task's output
goes to `rank<R>.stdout.log` / `rank<R>.stderr.log` in the cell directory; srun's own lines stay in
the cell's stdout.log / stderr.log.

srun --kill-on-bad-exit ends the other ranks when one fails, as torchrun does. A step that outlives
its srun (srun killed at a timeout, its tasks on other nodes) is cancelled with scancel when the cell
ends: no task outlives its cell.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from dataclasses import replace

from crashmatrix.process.supervise import TOKEN_VAR, Launch

# incell/slurm_task.py hands the cell's token on to the program under its own name
HANDED_TOKEN_VAR = "CRASHMATRIX_HANDED_TOKEN"
TASK_SCRIPT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "incell", "slurm_task.py")
RANKS = "ranks"
STEP_GONE_S = 30.0


def rank_log(cell_dir: str, rank: int | str, stream: str) -> str:
    """Where a rank's own stdout or stderr is kept (`rank%t` is srun's pattern for every rank)."""
    return os.path.join(cell_dir, f"rank{rank}.{stream}.log")


def as_tasks(launch: Launch, cell_dir: str, nodes: int, tasks_per_node: int) -> Launch:
    """The same launch, its program started once per Slurm task through srun."""
    ranks_dir = os.path.join(cell_dir, RANKS)
    os.makedirs(ranks_dir, exist_ok=True)
    env = dict(launch.env)
    # Without the token the wrapper is no process of the cell's: a timeout's stacks and the kill find the
    # ranks (which get it back) and srun, and the wrapper lives to record each rank's end.
    env[HANDED_TOKEN_VAR] = env.pop(TOKEN_VAR)
    # rank 0's node is this one (the batch step's, where the step's first task runs)
    env.setdefault("MASTER_PORT", str(_free_port()))
    argv = [
        "srun",
        f"--nodes={nodes}",
        f"--ntasks={nodes * tasks_per_node}",
        f"--ntasks-per-node={tasks_per_node}",
        "--kill-on-bad-exit=1",
        f"--output={rank_log(cell_dir, '%t', 'stdout')}",
        f"--error={rank_log(cell_dir, '%t', 'stderr')}",
        sys.executable,
        "-I",
        TASK_SCRIPT,
        ranks_dir,
        *launch.argv,
    ]
    return replace(launch, argv=argv, env=env, ranks_dir=ranks_dir)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("", 0))
        return s.getsockname()[1]


def end_step(ends: list[dict]) -> None:
    """Cancel the cell's step if a rank has not ended (srun killed at a timeout) and wait until Slurm
    no longer lists it, so that no task on any node outlives the cell."""
    running = {(str(e["job"]), str(e["step"])) for e in ends if "ended_at" not in e and e.get("job") and e.get("step")}
    for job, step in running:
        step_id = f"{job}.{step}"
        _slurm("scancel", "--quiet", step_id)
        deadline = time.monotonic() + STEP_GONE_S
        while time.monotonic() < deadline and step_id in _slurm("squeue", "-h", "-s", "-j", job, "-o", "%i").split():
            time.sleep(0.2)


def _slurm(*argv: str) -> str:
    try:
        return subprocess.run(argv, capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return ""
