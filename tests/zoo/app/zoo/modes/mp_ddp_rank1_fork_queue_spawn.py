"""torchrun, 2 gloo ranks: rank 1 also logs samples through a spawned logger process; it makes the queue with
torch.multiprocessing.Queue() (the default, fork, context) and hands it to a spawn-context Process, which refuses
the fork context's lock. Rank 0 goes on to the next all_reduce."""

from datetime import timedelta

import torch
import torch.distributed as dist
import torch.multiprocessing as tmp


def log_samples(q) -> None:
    while (item := q.get()) is not None:
        print(f"sample {item}", flush=True)


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", timeout=timedelta(seconds=30))
    model = torch.nn.Linear(8, 2)
    for step in range(3):
        grad = torch.randn(8, 2)
        dist.all_reduce(grad)
        model.weight.data -= 0.01 * grad.T
        if rank == 0:
            print(f"step {step} done", flush=True)
        if rank == 1 and step == 1:
            q = tmp.Queue()
            logger = tmp.get_context("spawn").Process(target=log_samples, args=(q,))
            logger.start()
            q.put(step)
            q.put(None)
    dist.destroy_process_group()
