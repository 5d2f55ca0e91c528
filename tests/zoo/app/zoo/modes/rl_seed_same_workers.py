"""Env workers forked from the learner draw their initial states from numpy's global RNG, seeded once in the
learner; every forked worker inherits the same RNG state, so all environments start identically. The program's own
check that the vectorised environments are independent stops it."""

import multiprocessing as mp

import numpy as np


def worker(remote) -> None:
    remote.send(np.random.uniform(-0.05, 0.05, 4))
    remote.close()


def main() -> None:
    np.random.seed(0)
    ctx = mp.get_context("fork")
    pipes = []
    for _ in range(4):
        parent, child = ctx.Pipe()
        ctx.Process(target=worker, args=(child,)).start()
        child.close()
        pipes.append(parent)
    starts = np.stack([p.recv() for p in pipes])
    print(f"start states:\n{starts}", flush=True)
    distinct = len({tuple(s) for s in starts.round(6)})
    assert distinct == len(starts), f"vectorised envs are not independent: {distinct} distinct start states of 4"
