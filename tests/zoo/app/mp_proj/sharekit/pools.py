"""Scoring shards in a process pool, with a progress queue the workers report to."""

import multiprocessing as mp

import torch


def score_shard(job: tuple) -> float:
    progress, shard = job
    g = torch.Generator().manual_seed(shard)
    x = torch.randn(256, 32, generator=g)
    score = (x @ x.T).diagonal().mean().item()
    progress.put(shard)
    return score


def score_shards(shards: list[int], workers: int = 2) -> list[float]:
    progress = mp.Queue()
    with mp.get_context("fork").Pool(workers) as pool:
        scores = pool.map(score_shard, [(progress, s) for s in shards])
    return scores
