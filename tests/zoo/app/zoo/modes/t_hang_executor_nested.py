"""A ThreadPoolExecutor of one worker; its task submits the shard loads to the same pool and waits for them. The
only worker is the one waiting: the loads never start, the task never returns, and the main waits in result();
nothing printed."""

from concurrent.futures import ThreadPoolExecutor

import torch

pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="loader")


def load_shard(i: int) -> torch.Tensor:
    return torch.full((2,), float(i))


def load_epoch(n: int) -> list:
    futures = [pool.submit(load_shard, i) for i in range(n)]
    shards = []
    for future in futures:
        shards.append(future.result())  # queued behind this very task, on the pool's only thread
    return shards


def main() -> None:
    batches = pool.submit(load_epoch, 4).result()
    print(len(batches))
