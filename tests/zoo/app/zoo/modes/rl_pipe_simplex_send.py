"""Env workers with one-way pipes to save a file descriptor: `Pipe(duplex=False)` returns (receiving end, sending
end); the launcher keeps the first as the learner's "remote" and gives the worker the second, as if the learner
sent commands and the worker answered. The learner's first command goes down a read-only end."""

import multiprocessing as mp

import numpy as np


def worker(conn, seed: int) -> None:
    rng = np.random.default_rng(seed)
    while True:
        cmd = conn.recv()
        if cmd == "close":
            break
        conn.send(rng.standard_normal(4))


def main() -> None:
    ctx = mp.get_context("fork")
    remotes, procs = [], []
    for i in range(2):
        remote, work_remote = ctx.Pipe(duplex=False)
        procs.append(ctx.Process(target=worker, args=(work_remote, i), daemon=True))
        procs[-1].start()
        remotes.append(remote)
    print("2 env workers started (one-way pipes)", flush=True)
    for remote in remotes:
        remote.send("reset")
    obs = np.stack([remote.recv() for remote in remotes])
    print(f"obs {obs.shape}", flush=True)
