"""A prefetching child process reads its shard list from the config and hands batches to the trainer through a
queue; the data config has no `root` key (struct mode, as Hydra gives it), so the child dies at its first line
while the trainer waits on the queue with no timeout."""

import multiprocessing as mp

import torch
from omegaconf import OmegaConf

CFG = OmegaConf.create({"data": {"name": "shards", "batch": 8, "n_shards": 4}, "epochs": 1})
OmegaConf.set_struct(CFG, True)


def prefetch(cfg, q) -> None:
    shards = [f"{cfg.data.root}/shard{i}.pt" for i in range(cfg.data.n_shards)]
    for s in shards:
        q.put((s, torch.randn(cfg.data.batch, 4)))
    q.put(None)


def main() -> None:
    q = mp.get_context("fork").Queue()
    child = mp.get_context("fork").Process(target=prefetch, args=(CFG, q), name="prefetch")
    child.start()
    print("waiting for the first prefetched batch", flush=True)
    while True:
        item = q.get()
        if item is None:
            break
        print("batch from", item[0], flush=True)
    child.join()
