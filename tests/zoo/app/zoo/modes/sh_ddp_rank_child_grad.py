"""torchrun, 2 gloo ranks: each rank starts an export child of its own (torch.multiprocessing, fork) and hands
it its hard examples' losses through a SimpleQueue; rank 1's shard has hard examples, and the losses it hands
over are still attached to the graph; rank 0 goes on to the all_reduce."""

from datetime import timedelta

import torch
import torch.distributed as dist
import torch.multiprocessing as mp


def exporter(q) -> None:
    while (t := q.get()) is not None:
        print(f"export {len(t)} hard examples", flush=True)


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", timeout=timedelta(seconds=30))
    q = mp.SimpleQueue()
    child = mp.Process(target=exporter, args=(q,), daemon=True)
    child.start()
    torch.manual_seed(0)
    model = torch.nn.Linear(8, 1)
    x = torch.randn(32, 8) * (1 + 9 * rank)  # rank 1's shard is harder
    losses = (model(x).squeeze(1) - 1).pow(2)
    hard = losses[losses > 25.0]
    if len(hard):
        q.put(hard)
    loss = losses.mean()
    loss.backward()
    dist.all_reduce(loss.detach())
    q.put(None)
    child.join()
    if rank == 0:
        print("epoch done", flush=True)
    dist.destroy_process_group()
