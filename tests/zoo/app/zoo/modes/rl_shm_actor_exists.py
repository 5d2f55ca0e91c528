"""Actors write transitions into a replay buffer in `multiprocessing.shared_memory`; each actor creates the named
block itself (`create=True`) instead of attaching to the learner's, so the second one finds it there."""

import multiprocessing as mp
import os
from multiprocessing import shared_memory

import numpy as np

CAPACITY, OBS = 256, 4


def actor(name: str, idx: int) -> None:
    shm = shared_memory.SharedMemory(name=name, create=True, size=CAPACITY * OBS * 4)
    buf = np.ndarray((CAPACITY, OBS), dtype=np.float32, buffer=shm.buf)
    rng = np.random.default_rng(idx)
    buf[idx::2] = rng.standard_normal((CAPACITY // 2, OBS))
    shm.close()


def main() -> None:
    name = f"rl_replay_{os.getpid()}"
    ctx = mp.get_context("fork")
    procs = [ctx.Process(target=actor, args=(name, i), name=f"actor-{i}") for i in range(2)]
    try:
        for p in procs:
            p.start()
        for p in procs:
            p.join()
        failed = [p.name for p in procs if p.exitcode != 0]
        if failed:
            raise RuntimeError(f"actors failed: {failed}")
        print("replay filled", flush=True)
    finally:
        try:
            shared_memory.SharedMemory(name=name).unlink()
        except FileNotFoundError:
            pass
