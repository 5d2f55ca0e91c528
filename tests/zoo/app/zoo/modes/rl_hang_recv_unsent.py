"""A rollout over env workers on Pipes steps only the environments whose episode is still running, to save time,
but then collects a result from every worker: the learner waits in `recv()` on a worker that was sent nothing,
which itself waits in `recv()` for a command. No timeout: both wait for ever."""

import multiprocessing as mp

import numpy as np


def worker(remote, parent_remote, seed: int) -> None:
    parent_remote.close()
    rng = np.random.default_rng(seed)
    t = 0
    while True:
        cmd, _ = remote.recv()
        if cmd == "close":
            break
        t += 1
        remote.send((rng.standard_normal(4), 1.0, t >= 3 + seed))


def main() -> None:
    ctx = mp.get_context("fork")
    remotes = []
    for i in range(2):
        remote, work_remote = ctx.Pipe()
        ctx.Process(target=worker, args=(work_remote, remote, i), daemon=True).start()
        work_remote.close()
        remotes.append(remote)
    running = [True, True]
    for step in range(20):
        for remote, alive in zip(remotes, running):
            if alive:
                remote.send(("step", 0))
        results = [remote.recv() for remote in remotes]
        running = [not done for _, _, done in results]
        print(f"step {step}: running {running}", flush=True)
