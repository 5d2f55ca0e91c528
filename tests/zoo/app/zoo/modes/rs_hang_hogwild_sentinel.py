"""Hogwild (torch.multiprocessing, one model in shared memory): 2 trainer processes take click-log shards from a
queue until a None; the main puts the shards and a single None for both, then joins them."""

import torch
import torch.multiprocessing as mp
from torch import nn


def trainer(rank, model, tasks):
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    while True:
        shard = tasks.get()
        if shard is None:
            break
        ids, clicks = shard
        loss = nn.functional.binary_cross_entropy_with_logits(model(ids).squeeze(-1), clicks)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"trainer {rank} done", flush=True)


def main() -> None:
    torch.manual_seed(0)
    model = nn.Sequential(nn.EmbeddingBag(100, 8), nn.Linear(8, 1))
    model.share_memory()
    tasks = mp.Queue()
    procs = [mp.Process(target=trainer, args=(r, model, tasks)) for r in range(2)]
    for p in procs:
        p.start()
    for _ in range(6):
        tasks.put((torch.randint(0, 100, (16, 4)), torch.randint(0, 2, (16,)).float()))
    tasks.put(None)
    print("6 shards queued, waiting for the trainers", flush=True)
    for p in procs:
        p.join()
    print("trained", flush=True)
