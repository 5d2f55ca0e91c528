"""Per-shard feature statistics in a ProcessPoolExecutor (spawn): the task is a function defined inside main()
closing over the normaliser; the executor's feeder cannot pickle it, and future.result() raises."""

import multiprocessing as mp
from concurrent.futures import ProcessPoolExecutor

import torch


def main() -> None:
    shards = [torch.randn(32, 6) for _ in range(4)]
    scale = 2.0

    def shard_stats(x: torch.Tensor) -> tuple[float, float]:
        x = x * scale
        return x.mean().item(), x.std().item()

    with ProcessPoolExecutor(max_workers=2, mp_context=mp.get_context("spawn")) as pool:
        futures = [pool.submit(shard_stats, s) for s in shards]
        for f in futures:
            print("stats", f.result())
