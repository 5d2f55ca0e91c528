"""Augmenting shards in a fork multiprocessing.Pool of 2; the worker given shard 5 is killed by SIGKILL, as the
OOM killer kills one (sent here by the worker to itself). Pool replaces the worker but the shard's task is lost,
and the main's map() waits for its result for ever."""

import multiprocessing as mp
import os
import signal

import torch


def augment(shard: int) -> float:
    x = torch.randn(64, 64, generator=torch.Generator().manual_seed(shard))
    if shard == 5:
        os.kill(os.getpid(), signal.SIGKILL)
    return torch.flip(x, dims=[1]).add(0.1 * torch.randn(64, 64)).std().item()


def main() -> None:
    print("augmenting 8 shards in 2 workers", flush=True)
    with mp.get_context("fork").Pool(2) as pool:
        stds = pool.map(augment, range(8))
    print(stds, flush=True)
