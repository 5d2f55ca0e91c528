"""concurrent.futures.ProcessPoolExecutor preprocessing shards; one worker is killed by SIGKILL (here by
itself, as the kernel's OOM killer or a cgroup limit kills the largest process). The main's map() raises
BrokenProcessPool."""

import os
import signal
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context


def tokenize_shard(i: int) -> int:
    if i == 5:  # the one shard too large for the worker's memory limit
        os.kill(os.getpid(), signal.SIGKILL)
    return i * 100


def main() -> None:
    with ProcessPoolExecutor(2, mp_context=get_context("fork")) as pool:
        print(sum(pool.map(tokenize_shard, range(8))))
