"""One rank of a distributed cell on Slurm: what srun starts in each task (`executor: {tasks_per_node: N}`).

    python -I slurm_task.py RANKS_DIR PROGRAM [ARG ...]

It starts the program once, with the rank variables torchrun would give it (RANK, LOCAL_RANK,
WORLD_SIZE, LOCAL_WORLD_SIZE, GROUP_RANK, NODE_RANK, GROUP_WORLD_SIZE, ROLE_RANK, ROLE_WORLD_SIZE,
MASTER_ADDR, MASTER_PORT) taken from Slurm's task variables, and writes `RANKS_DIR/rank<R>.json` when the
rank starts and again when it ends: its node, its Slurm step, when it ended (time.time(), so the
controller can tell which rank failed first), its exit status or the signal that ended it. Then this
process ends the way the program did (the same exit status, or the same signal), so srun and Slurm
report the task as they would without it.

Run as a file with -I, never imported through crashmatrix: the cell's PYTHONPATH (inject's
sitecustomize) must not load into it, and it needs nothing but the standard library. A variable the
cell's environment already sets (the matrix's `env:`) is left as it is.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import socket
import subprocess
import sys
import time

# Stop signals reach every process of a task (slurmstepd signals the task's whole process tree), the
# program included; this process outlives them to record how the program ended.
_OUTLIVED = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGUSR1, signal.SIGUSR2, signal.SIGQUIT)


def rank_env(env: dict) -> dict:
    """The variables torchrun sets for a rank, from Slurm's; the environment's own values kept."""
    ranks = {
        "RANK": env.get("SLURM_PROCID", "0"),
        "LOCAL_RANK": env.get("SLURM_LOCALID", "0"),
        "WORLD_SIZE": env.get("SLURM_NTASKS", "1"),
        # srun is always given --ntasks-per-node (process/slurm_tasks.py)
        "LOCAL_WORLD_SIZE": env.get("SLURM_NTASKS_PER_NODE", "1"),
        "GROUP_RANK": env.get("SLURM_NODEID", "0"),
        "NODE_RANK": env.get("SLURM_NODEID", "0"),
        "GROUP_WORLD_SIZE": env.get("SLURM_NNODES", "1"),
        # rank 0 runs on the node srun was started from: the batch step's, the allocation's first
        "MASTER_ADDR": env.get("SLURM_LAUNCH_NODE_IPADDR") or "127.0.0.1",
    }
    ranks["ROLE_RANK"], ranks["ROLE_WORLD_SIZE"] = ranks["RANK"], ranks["WORLD_SIZE"]
    return {name: env.get(name) or value for name, value in ranks.items()}


def _write(path: str, record: dict) -> None:
    # whole or absent: the controller may read it at any moment
    tmp = f"{path}.tmp.{os.getpid()}"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(record, f)
    os.replace(tmp, path)


def _end_like(returncode: int) -> None:
    """Leave as the program did: its exit status, or its signal (no second core file)."""
    if returncode >= 0:
        sys.exit(returncode)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    sys.stdout.flush()
    sys.stderr.flush()
    signal.signal(-returncode, signal.SIG_DFL)
    os.kill(os.getpid(), -returncode)
    sys.exit(128 - returncode)  # a signal that does not end a process by default


def main(argv: list[str]) -> None:
    ranks_dir, program = argv[0], argv[1:]
    env = {**os.environ, **rank_env(dict(os.environ))}
    # the cell's token (process/supervise.py) is the program's, not this process's (process/slurm_tasks.py)
    if "CRASHMATRIX_HANDED_TOKEN" in env:
        env["CRASHMATRIX_TOKEN"] = env.pop("CRASHMATRIX_HANDED_TOKEN")
    record: dict = {
        "rank": int(env["RANK"]),
        "local_rank": int(env["LOCAL_RANK"]),
        "node": env.get("SLURMD_NODENAME") or socket.gethostname(),
        "job": env.get("SLURM_JOB_ID", ""),
        "step": env.get("SLURM_STEP_ID", ""),
        "started_at": time.time(),
    }
    path = os.path.join(ranks_dir, f"rank{record['rank']}.json")
    try:
        child = subprocess.Popen(program, env=env)
    except OSError as e:
        record.update(ended_at=time.time(), returncode=127, error=f"cannot launch {program[0]}: {e.strerror or e}")
        _write(path, record)
        print(f"crashmatrix: {record['error']}", file=sys.stderr, flush=True)
        sys.exit(127)
    for sig in _OUTLIVED:
        signal.signal(sig, signal.SIG_IGN)
    record["pid"] = child.pid
    _write(path, record)
    returncode = child.wait()
    record.update(ended_at=time.time(), returncode=returncode)
    if returncode < 0:
        try:
            record["signal"] = signal.Signals(-returncode).name
        except ValueError:  # a real-time signal has no name
            record["signal"] = f"signal {-returncode}"
    _write(path, record)
    _end_like(returncode)


if __name__ == "__main__":
    main(sys.argv[1:])
