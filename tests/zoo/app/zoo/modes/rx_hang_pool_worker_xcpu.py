"""Shards scored in a multiprocessing Pool (fork, 2 workers) whose initializer holds each worker to 1 s of CPU
past its start (RLIMIT_CPU, soft), a guard against a runaway shard; shard 3 is the large one, its worker dies
by SIGXCPU, the Pool starts a new worker but the lost task's result never comes: `pool.map` waits for ever."""

import math
import multiprocessing as mp
import resource

import numpy as np


def cap_cpu() -> None:
    r = resource.getrusage(resource.RUSAGE_SELF)
    soft = math.ceil(r.ru_utime + r.ru_stime) + 1
    resource.setrlimit(resource.RLIMIT_CPU, (soft, soft + 30))


def score(shard: int) -> float:
    n = 1500 if shard == 3 else 100
    a = np.random.default_rng(shard).standard_normal((n, n))
    for _ in range(40):
        a = np.tanh(a @ a.T / n)
    return float(a.mean())


def main() -> None:
    print("scoring 6 shards in a pool of 2", flush=True)
    with mp.get_context("fork").Pool(2, initializer=cap_cpu) as pool:
        scores = pool.map(score, range(6), chunksize=1)
    print("scores", scores, flush=True)
